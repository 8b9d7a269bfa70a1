//! What a plan says (OpenTofu's `internal/plans`): for each resource
//! instance the change proposed, and for each root output its new value.
//! plan-lite only ever creates (nothing is in state), so `before` is always
//! null; the types still carry the full action set so the renderers and the
//! JSON document follow OpenTofu's shapes.
//!
//! Values here are cty values as evaluated: unknown where a provider would
//! compute them (or where their inputs are unknown), and carrying the
//! `sensitive` mark where sensitive data flows. Renderers derive
//! `after_unknown` / `after_sensitive` from them; no other mark (such as
//! deprecation) ever reaches a plan — the walker strips those.

pub mod render;

use std::collections::BTreeMap;

use addrs::{AbsResourceInstance, Provider};
use cty::{Type, Value};

/// `plans.Action`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    Delete,
    DeleteThenCreate,
    CreateThenDelete,
}

impl Action {
    /// The `actions` array of the plan JSON (`jsonplan` `actionsFromChange`).
    pub fn json_actions(self) -> &'static [&'static str] {
        match self {
            Action::NoOp => &["no-op"],
            Action::Create => &["create"],
            Action::Read => &["read"],
            Action::Update => &["update"],
            Action::Delete => &["delete"],
            Action::DeleteThenCreate => &["delete", "create"],
            Action::CreateThenDelete => &["create", "delete"],
        }
    }
}

/// A change to one resource instance.
#[derive(Debug, Clone)]
pub struct ResourceInstanceChange {
    pub addr: AbsResourceInstance,
    /// The provider that owns the resource type
    /// (`terraform.io/builtin/terraform` for `terraform_data`).
    pub provider: Provider,
    /// The provider configuration's alias, if any (for `provider_config_key`).
    pub provider_alias: Option<String>,
    pub action: Action,
    /// The resource type's schema, as an object type: what `after` conforms to.
    pub schema_type: Type,
    /// The resource type's schema, when its provider's is known: the
    /// renderers show nested blocks and hide sensitive attributes by it.
    pub schema: Option<std::sync::Arc<configschema::Schema>>,
    /// The prior value (null: nothing exists yet).
    pub before: Value,
    /// The planned value: unknown where computed, marked where sensitive.
    pub after: Value,
}

/// A change to one root module output.
#[derive(Debug, Clone)]
pub struct OutputChange {
    pub name: String,
    /// `Create` for a new non-null value, `NoOp` for a null one.
    pub action: Action,
    /// The planned value (may be unknown; marks already removed).
    pub after: Value,
    /// Declared `sensitive = true`, or the value carries sensitive data.
    pub sensitive: bool,
}

/// The result of planning a whole configuration.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Sorted by address as `AbsResourceInstance.Less` sorts (shorter module
    /// paths first), the order of the plan output and of `resource_changes`.
    pub resource_changes: Vec<ResourceInstanceChange>,
    /// Root module outputs, by name.
    pub output_changes: BTreeMap<String, OutputChange>,
    /// The root module's input variables as planned (unmarked).
    pub variables: BTreeMap<String, Value>,
}

impl Plan {
    /// How many instances each action affects: (add, change, destroy), as
    /// the `Plan: N to add, …` line counts them.
    pub fn counts(&self) -> (usize, usize, usize) {
        let (mut add, mut change, mut destroy) = (0, 0, 0);
        for rc in &self.resource_changes {
            match rc.action {
                Action::Create => add += 1,
                Action::Update => change += 1,
                Action::Delete => destroy += 1,
                Action::DeleteThenCreate | Action::CreateThenDelete => {
                    add += 1;
                    destroy += 1
                }
                Action::NoOp | Action::Read => {}
            }
        }
        (add, change, destroy)
    }
}
