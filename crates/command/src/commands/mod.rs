//! One module per command.

pub mod inspect;
pub mod validate;
pub mod version;
