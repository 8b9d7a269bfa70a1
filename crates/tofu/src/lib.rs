//! The configuration graph, its walk, count/for_each expansion, validate and
//! plan-lite (OpenTofu's internal/tofu). Knows nothing of the command line
//! or of how results are rendered: it takes a loaded [`configs::Config`]
//! tree and root variable values, and returns diagnostics and a
//! [`plans::Plan`].

pub mod expand;
pub mod graph;
pub mod plans;
pub mod resources;
pub mod walk;

use std::collections::BTreeMap;
use std::sync::Arc;

use configs::config::Config;
use cty::Value;
use hclsyntax::{has_errors, Diagnostics};
use lang::FunctionTable;

use plans::{Action, OutputChange, Plan};
use walk::{Mode, Walk};

/// The builtin function table of a module scope.
pub fn function_table() -> Arc<FunctionTable> {
    let cell: Arc<std::sync::OnceLock<Arc<FunctionTable>>> = Arc::new(std::sync::OnceLock::new());
    let mut table = lang::functions::builtin_functions();
    let for_templates = cell.clone();
    table.insert(
        "templatestring",
        lang::funcs::string::templatestring_function(move || for_templates.get().cloned()),
    );
    let table = Arc::new(table);
    let _ = cell.set(table.clone());
    table
}

/// `tofu validate`'s walk: every expression of every module evaluated
/// once, with unknown variables and unexpanded `count`/`for_each`.
pub fn validate(config: &Config) -> Diagnostics {
    Walk::new(config, Mode::Validate, function_table())
        .run()
        .diags
}

/// plan-lite: every resource instance to create and the root outputs, with
/// the root module's final variable values. `None` when planning failed.
pub fn plan(config: &Config, variables: BTreeMap<String, Value>) -> (Option<Plan>, Diagnostics) {
    let mut walk = Walk::new(config, Mode::Plan, function_table());
    walk.root_values = variables.clone();
    let outcome = walk.run();
    if has_errors(&outcome.diags) {
        return (None, outcome.diags);
    }
    let output_changes = outcome
        .root_outputs
        .into_iter()
        .map(|(name, (after, sensitive))| {
            let action = if after.is_known() && after.is_null() {
                Action::NoOp
            } else {
                Action::Create
            };
            (
                name.clone(),
                OutputChange {
                    name,
                    action,
                    after,
                    sensitive,
                },
            )
        })
        .collect();
    let plan = Plan {
        resource_changes: outcome.changes,
        output_changes,
        variables,
    };
    (Some(plan), outcome.diags)
}
