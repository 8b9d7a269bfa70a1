//! The function table of a root module scope: the builtins and, for the
//! console, the console-only `type`. Values come from the graph walk
//! ([`tofu::Evaluation`]).

use std::sync::Arc;

use lang::FunctionTable;

/// The function table of a root module scope (`console`: with `type`).
pub fn function_table(console: bool) -> Arc<FunctionTable> {
    tofu::function_table_with(|table| {
        if console {
            lang::functions::typeconv::register_console(table);
        }
    })
}
