//! Resource types as plan-lite knows them. Without provider plugins the
//! only schema known is the builtin `terraform_data`'s; every other type is
//! planned from its configuration alone (the arguments it sets, known where
//! their expressions are) and reads as wholly unknown to references.

mod dynamic_blocks;
mod generic;
mod terraform_data;

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
}

/// The type a reference to one instance of `type_name` has.
pub fn resource_value_type(type_name: &str) -> Type {
    match type_name {
        "terraform_data" => terraform_data::schema_type(),
        _ => Type::Dynamic,
    }
}

/// Plans one instance of `resource` in `scope` (its `count.index` /
/// `each.*` already bound).
pub fn plan_instance(
    resource: &configs::resource::Resource,
    scope: &Scope<'_>,
) -> (PlannedInstance, Diagnostics) {
    if resource.type_name == "terraform_data"
        && resource.mode == configs::resource::ResourceMode::Managed
    {
        terraform_data::plan(resource, scope)
    } else {
        generic::plan(resource, scope)
    }
}

/// What other objects see of a planned instance.
pub fn value_for_references(type_name: &str, planned: &PlannedInstance) -> Value {
    match type_name {
        "terraform_data" => planned.after.clone(),
        // Without the provider's schema, any attribute may be computed.
        _ => Value::dynamic(),
    }
}
