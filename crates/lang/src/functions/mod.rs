//! The function library: the framework functions are built on
//! ([`framework`], go-cty's `function` package), then the builtin functions
//! grouped by the families of OpenTofu's function documentation, each
//! family holding go-cty's `function/stdlib` ports and OpenTofu's
//! `internal/lang/funcs` ports alike, and the table that holds them all
//! ([`builtin_functions`]). Each family exposes a `register` function adding
//! its functions to a table.

pub mod framework;

pub mod collection;
pub mod crypto;
pub mod datetime;
pub mod encoding;
pub mod filesystem;
pub mod ipnet;
pub mod numeric;
pub mod string;
pub mod tfprovider;
pub mod typeconv;

#[cfg(test)]
pub(crate) mod test_util;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use framework::FunctionTable;

pub use string::format_values;

/// Every builtin function implemented so far, family by family, each also
/// reachable as `core::NAME`; and the builtin provider's functions as
/// `provider::terraform::NAME`.
pub fn builtin_functions() -> FunctionTable {
    let mut t = FunctionTable::new();
    numeric::register(&mut t);
    string::register(&mut t);
    collection::register(&mut t);
    encoding::register(&mut t);
    filesystem::register(&mut t);
    datetime::register(&mut t);
    crypto::register(&mut t);
    ipnet::register(&mut t);
    typeconv::register(&mut t);
    // The builtin provider's functions under its usual local name, so
    // console and configuration expressions can call them without a
    // module's requirements at hand (OpenTofu also wants the provider in
    // `required_providers`; other local names use `tfprovider::register`).
    tfprovider::register(&mut t, "terraform");
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
