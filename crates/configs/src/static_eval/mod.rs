//! Static ("early") evaluation, as OpenTofu's `static_evaluator.go` and
//! `static_scope.go`: the expressions that must be known before any
//! provider or state is (module `source` and `version`, provider
//! `for_each`, backend and encryption bodies, `const = true` variables)
//! may use input variables, locals, `path.*`, `terraform.workspace` and
//! builtin functions, nothing else.
//!
//! A module is loaded first ([`crate::module::load_module_dir`]); then
//! [`Module::with_static_call`](crate::module::Module::with_static_call)
//! applies the call that produced it ([`StaticModuleCall`]): the root's
//! from the command line, a child's built from its `module` block with
//! [`StaticModuleCall::for_child`].

mod call;
mod config_blocks;
mod evaluator;
mod for_each;
mod identifier;
mod module_fields;
mod scope_data;
mod variable_value;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_module;

pub use call::{
    ChildVariables, FnVariables, PromptFn, RootVariables, StaticModuleCall, VariableValues, WorkDir,
};
pub use evaluator::{has_mark_deep, refuse_marked, StaticEvaluator};
pub use for_each::{for_each_instances, provider_for_each_instances};
pub use identifier::StaticIdentifier;
