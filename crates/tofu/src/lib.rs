//! The configuration graph, its walk, count/for_each expansion, validate and
//! plan-lite (OpenTofu's internal/tofu), and the plan model with its
//! renderings (internal/plans, command/jsonplan: [`plans::render`]). Knows
//! nothing of the command line and never prints: it takes a loaded
//! [`configs::Config`] tree and root variable values, and returns
//! diagnostics and a [`plans::Plan`], which it renders into strings.

pub mod builtin_provider;
pub mod deprecation;
pub mod expand;
pub mod graph;
pub mod plans;
pub mod refactoring;
pub mod resources;
pub mod schemas;
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
    function_table_with(|_| {})
}

/// The builtin function table plus what `extend` adds (the console adds
/// `type`). `templatestring` sees the whole table through a weak
/// reference: a strong one would be a cycle, and every table built (one
/// per validate or plan) would never be freed.
pub fn function_table_with(extend: impl FnOnce(&mut FunctionTable)) -> Arc<FunctionTable> {
    let mut table = FunctionTable::extending_builtins();
    extend(&mut table);
    Arc::new_cyclic(|whole| {
        let whole = whole.clone();
        table.insert(
            "templatestring",
            lang::functions::string::templatestring_function(move || whole.upgrade()),
        );
        table
    })
}

/// The builtin function table with relative paths in the filesystem
/// functions taken from `work_dir` (a root module's directory under
/// `-recursive`) instead of the process's working directory.
pub fn function_table_in(work_dir: &std::path::Path) -> Arc<FunctionTable> {
    if work_dir == std::path::Path::new(".") {
        return function_table();
    }
    let base = work_dir.to_string_lossy().replace('\\', "/");
    function_table_with(|t| lang::functions::filesystem::register_with_base_dir(t, &base))
}

/// [`validate_with_causes`] as if the process ran in `work_dir`: the
/// filesystem functions read relative paths from there and `path.cwd` is
/// that directory. `-recursive` validates each root this way, all from one
/// process.
pub fn validate_with_causes_in(
    config: &Config,
    work_dir: &std::path::Path,
) -> tfdiags::Diagnostics {
    validate_with_schemas_in(config, work_dir, Arc::new(schemas::Schemas::none()))
}

/// [`validate_with_causes_in`] with the providers' schemas: the body of
/// every resource, data source, ephemeral resource and provider block
/// whose provider is in `schemas` is decoded against its schema
/// (OpenTofu's messages: unsupported and missing arguments, block counts,
/// value types), a type its provider lacks is an "Invalid resource type",
/// `ignore_changes` and references to its attributes are checked against
/// it, and the schemas' [`schemas::ProviderValidator`], if any, is asked to
/// validate each decoded configuration, its diagnostics placed on the
/// attributes they name. Providers not in `schemas` are checked as
/// [`validate_with_causes_in`] checks them.
pub fn validate_with_schemas_in(
    config: &Config,
    work_dir: &std::path::Path,
    schemas: Arc<schemas::Schemas>,
) -> tfdiags::Diagnostics {
    let mut walk = Walk::new(config, Mode::Validate, function_table_in(work_dir));
    walk.schemas = schemas;
    if work_dir != std::path::Path::new(".") {
        let joined = std::path::Path::new(&walk.cwd).join(work_dir);
        walk.cwd = addrs::clean_path(&joined.to_string_lossy().replace('\\', "/"));
    }
    let diags = walk.run().diags;
    let diags = walk
        .values
        .attach(deprecation::with_deprecations(diags, &walk.deprecations));
    walk.addresses.attach(diags)
}

/// `tofu validate`'s walk: every expression of every module evaluated
/// once, with unknown variables and unexpanded `count`/`for_each`.
pub fn validate(config: &Config) -> Diagnostics {
    deprecation::without_causes(validate_with_causes(config))
}

/// [`validate`] with each deprecation warning's cause, which the views use
/// to filter (`-deprecation`), de-duplicate and consolidate.
pub fn validate_with_causes(config: &Config) -> tfdiags::Diagnostics {
    let walk = Walk::new(config, Mode::Validate, function_table());
    let diags = walk.run().diags;
    walk.values
        .attach(deprecation::with_deprecations(diags, &walk.deprecations))
}

/// plan-lite: every resource instance to create and the root outputs, with
/// the root module's final variable values. `None` when planning failed.
pub fn plan(config: &Config, variables: BTreeMap<String, Value>) -> (Option<Plan>, Diagnostics) {
    let (plan, diags) = plan_with_causes(config, variables);
    (plan, deprecation::without_causes(diags))
}

/// [`plan`] with each deprecation warning's cause (see
/// [`validate_with_causes`]).
pub fn plan_with_causes(
    config: &Config,
    variables: BTreeMap<String, Value>,
) -> (Option<Plan>, tfdiags::Diagnostics) {
    plan_with_schemas(config, variables, Arc::new(schemas::Schemas::none()))
}

/// [`plan_with_causes`] with the providers' schemas: validated as
/// [`validate_with_schemas_in`] validates, then each instance of a type
/// with a schema is planned as its configuration decoded against the
/// schema, computed attributes it leaves null unknown and sensitive
/// attributes marked; references to it see that value. Its changes carry
/// the schema ([`plans::ResourceInstanceChange::schema`]).
pub fn plan_with_schemas(
    config: &Config,
    variables: BTreeMap<String, Value>,
    schemas: Arc<schemas::Schemas>,
) -> (Option<Plan>, tfdiags::Diagnostics) {
    let functions = function_table();
    // OpenTofu validates the configuration before it plans (the local
    // backend's run), and stops there on errors: a mistake in a counted
    // resource is then reported once, not once per instance.
    let mut validation = Walk::new(config, Mode::Validate, functions);
    validation.schemas = schemas;
    let validated = validation.run();
    if has_errors(&validated.diags) {
        let diags = deprecation::with_deprecations(validated.diags, &validation.deprecations);
        return (None, validation.values.attach(diags));
    }
    // Context.plan: the import targets, then the removed blocks, each
    // stopping the plan with its errors.
    for check in [refactoring::import_targets, refactoring::removed_statements] {
        let found = check(config);
        if has_errors(&found) {
            let mut diags = validated.diags;
            diags.extend(found);
            let diags = deprecation::with_deprecations(diags, &validation.deprecations);
            return (None, validation.values.attach(diags));
        }
    }
    let mut walk = validation.into_mode(Mode::Plan);
    walk.root_values = variables.clone();
    let (mut outcome, state) = walk.run_keeping_state();
    // postPlanValidateMoves: only a plan that succeeded is checked.
    if !has_errors(&outcome.diags) {
        outcome
            .diags
            .extend(refactoring::moved_objects_still_declared(config, &state));
    }
    if has_errors(&outcome.diags) {
        let diags = deprecation::with_deprecations(outcome.diags, &walk.deprecations);
        return (None, walk.values.attach(diags));
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
    let diags = deprecation::with_deprecations(outcome.diags, &walk.deprecations);
    (Some(plan), walk.values.attach(diags))
}

/// A configuration evaluated as the console sees it: every object planned
/// where it can be, unknown where it cannot, ready for more expressions in
/// the root module's scope.
pub struct Evaluation<'c> {
    walk: Walk<'c>,
    state: walk::State,
    /// What the walk reported.
    pub diags: Diagnostics,
}

impl<'c> Evaluation<'c> {
    /// Walks `config` with the root module's final `variables`, using
    /// `functions` (the console adds its own).
    pub fn new(
        config: &'c Config,
        variables: BTreeMap<String, Value>,
        functions: Arc<FunctionTable>,
    ) -> Evaluation<'c> {
        let mut walk = Walk::new(config, Mode::Eval, functions);
        walk.root_values = variables;
        let (outcome, state) = walk.run_keeping_state();
        Evaluation {
            walk,
            state,
            diags: outcome.diags,
        }
    }

    /// The root module instance's values, for a [`lang::Scope`].
    pub fn root_data(&self) -> walk::InstanceData<'_> {
        self.walk.data(
            &self.state,
            self.walk.root,
            addrs::ModuleInstance::root(),
            expand::Repetition::default(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `syntax` fuzz target (LeakSanitizer): the table held
    /// itself through `templatestring`, so each validate leaked one.
    #[test]
    fn function_table_is_freed_and_templatestring_still_sees_it() {
        let table = function_table();
        let (expr, _) = hclsyntax::native::parse_expression(
            r#"templatestring("$${upper(x)}", {x = "a"})"#,
            "t.tf",
            hclsyntax::Pos::START,
        );
        let ctx = lang::EvalContext::new(Default::default(), table.clone());
        let (v, diags) = lang::eval_expr(&expr, &ctx);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(v.as_str(), Some("A"));
        let weak = Arc::downgrade(&table);
        drop(ctx);
        drop(table);
        assert!(weak.upgrade().is_none(), "the function table was leaked");
    }
}
