//! Resource types as plan-lite knows them. The builtin `terraform_data`
//! has its own schema; a type whose provider schema the walk knows is
//! decoded against it (`schema_body`) and planned with its computed
//! attributes unknown (`proposed_new`); every other type is planned from
//! its configuration alone (the arguments it sets, known where their
//! expressions are) and reads as wholly unknown to references.

mod dynamic_blocks;
mod generic;
pub mod proposed_new;
pub mod schema_body;
mod terraform_data;
pub mod validate_traversal;

pub use generic::evaluate_body;

use std::sync::Arc;

use cty::{Type, Value};
use hclsyntax::Diagnostics;
use lang::Scope;

/// A resource instance as planned.
pub struct PlannedInstance {
    /// The planned new value (`after`): unknown where computed.
    pub after: Value,
    /// The object type `after` conforms to.
    pub schema_type: Type,
    /// The resource type's schema, when its provider's is known.
    pub schema: Option<Arc<configschema::Schema>>,
    /// The configuration decoded against that schema (what the provider's
    /// `ValidateResourceConfig` is given); `None` without a schema.
    pub config: Option<Value>,
}

/// The type a reference to one instance of `type_name` has.
pub fn resource_value_type(type_name: &str) -> Type {
    match type_name {
        "terraform_data" => terraform_data::schema_type(),
        _ => Type::Dynamic,
    }
}

/// Plans one instance of `resource` in `scope` (its `count.index` /
/// `each.*` already bound), against the type's schema when known.
pub fn plan_instance(
    resource: &configs::resource::Resource,
    scope: &Scope<'_>,
    schema: Option<&Arc<configschema::Schema>>,
) -> (PlannedInstance, Diagnostics) {
    if resource.type_name == "terraform_data"
        && resource.mode == configs::resource::ResourceMode::Managed
        && schema.is_none()
    {
        return terraform_data::plan(resource, scope);
    }
    match schema {
        Some(schema) => plan_with_schema(resource, scope, schema),
        None => generic::plan(resource, scope),
    }
}

fn plan_with_schema(
    resource: &configs::resource::Resource,
    scope: &Scope<'_>,
    schema: &Arc<configschema::Schema>,
) -> (PlannedInstance, Diagnostics) {
    let empty = configschema::Block::default();
    let block = schema.block.as_ref().unwrap_or(&empty);
    let ephemeral = resource.mode == configs::resource::ResourceMode::Ephemeral;
    let (config, diags) = schema_body::decode(&resource.config, block, scope, ephemeral);
    let config = block.coerce_value(&config).unwrap_or(config);
    let planned = proposed_new::planned_new(block, &config);
    // What the schema hides (plan's `schema.ValueMarks` on the planned
    // value).
    let marks = block.value_marks(&planned, &cty::Path::root(), None);
    let after = if marks.is_empty() {
        planned
    } else {
        planned.mark_with_paths(&marks)
    };
    (
        PlannedInstance {
            after,
            schema_type: block.implied_type(),
            schema: Some(schema.clone()),
            config: Some(config),
        },
        diags,
    )
}

/// What other objects see of a planned instance: its planned value where
/// the schema is known (the builtin's or the provider's).
pub fn value_for_references(type_name: &str, planned: &PlannedInstance) -> Value {
    if planned.schema.is_some() {
        return planned.after.clone();
    }
    match type_name {
        "terraform_data" => planned.after.clone(),
        // Without the provider's schema, any attribute may be computed.
        _ => Value::dynamic(),
    }
}
