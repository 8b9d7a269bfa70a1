//! The builtin functions, one family per file, and the table that holds
//! them ([`builtin_functions`]). Each family file exposes a `register`
//! function adding its functions to a table.

mod collection;
mod conversion;
mod encoding;
mod format;
mod format_cases;
mod meta;
mod number;
mod string;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::function::FunctionTable;

pub use format::format_values;

/// Every builtin function implemented so far, each also reachable as
/// `core::NAME`: the families in [`crate::funcs`], then the core set here;
/// and the builtin provider's functions as `provider::terraform::NAME`.
pub fn builtin_functions() -> FunctionTable {
    let mut t = FunctionTable::new();
    crate::funcs::register_all(&mut t);
    collection::register(&mut t);
    conversion::register(&mut t);
    encoding::register(&mut t);
    format::register(&mut t);
    meta::register(&mut t);
    number::register(&mut t);
    string::register(&mut t);
    // The builtin provider's functions under its usual local name, so
    // console and configuration expressions can call them without a
    // module's requirements at hand (OpenTofu also wants the provider in
    // `required_providers`; other local names use `funcs::tfprovider`).
    crate::funcs::tfprovider::register(&mut t, "terraform");
    t
}

/// [`builtin_functions`], built once per process, on first use (building
/// the table is a tenth of a millisecond: a good part of validating a
/// small module).
pub fn builtins() -> &'static FunctionTable {
    static TABLE: std::sync::OnceLock<FunctionTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(builtin_functions)
}

/// The builtin functions as a shared table; the functions themselves are
/// only built when a lookup first needs them ([`builtins`]). A table of
/// one's own starts from [`FunctionTable::extending_builtins`].
pub fn builtin_table() -> Arc<FunctionTable> {
    static TABLE: std::sync::OnceLock<Arc<FunctionTable>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| Arc::new(FunctionTable::extending_builtins()))
        .clone()
}

/// Go's `%q` for messages.
pub(crate) fn quote(s: &str) -> String {
    cty::format::go_quote(s)
}
