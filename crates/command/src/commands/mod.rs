//! One module per command.

pub mod affected;
pub mod console;
pub mod graph;
pub mod init;
mod init_recursive;
pub mod inspect;
pub mod plan_lite;
pub mod providers;
pub mod providers_lock;
pub mod providers_schema;
pub mod validate;
pub mod version;
