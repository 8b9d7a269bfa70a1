//! The builtin function library beyond the core set in `function/`, one
//! family per file. Each family registers its functions into a
//! [`FunctionTable`](crate::function::FunctionTable).

pub mod collection;
pub mod crypto;
pub mod datetime;
pub mod encoding;
pub mod filesystem;
pub mod hclwrite;
pub mod ipnet;
pub mod numeric;
pub mod string;
pub mod tfprovider;
pub mod typeconv;

use crate::function::FunctionTable;

/// Registers every family's functions.
pub fn register_all(table: &mut FunctionTable) {
    collection::register(table);
    crypto::register(table);
    datetime::register(table);
    encoding::register(table);
    filesystem::register(table);
    ipnet::register(table);
    numeric::register(table);
    string::register(table);
    typeconv::register(table);
}
