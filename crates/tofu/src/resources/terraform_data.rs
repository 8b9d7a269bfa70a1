//! The builtin `terraform_data` resource (OpenTofu's
//! `internal/builtin/providers/tf/resource_data.go`): `input` and
//! `triggers_replace` are set by the configuration; `output` mirrors
//! `input` after apply (known null when `input` is null); `id` is computed.

use std::sync::OnceLock;

use cty::{Type, Value};
use hclsyntax::{BodySchema, Diagnostics};
use lang::Scope;

use super::PlannedInstance;

/// The resource's object type (the built-in provider's schema's), built
/// once: every planned instance carries it, and a clone shares it.
pub fn schema_type() -> Type {
    static SCHEMA: OnceLock<Type> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            crate::builtin_provider::terraform_provider_schema().resources["terraform_data"]
                .block
                .as_ref()
                .map(configschema::Block::implied_type)
                .unwrap_or_else(Type::empty_object)
        })
        .clone()
}

pub fn plan(
    resource: &configs::resource::Resource,
    scope: &Scope<'_>,
) -> (PlannedInstance, Diagnostics) {
    let schema = BodySchema::new(&["input", "triggers_replace"], &[]);
    let (content, mut diags) =
        super::dynamic_blocks::content_with_dynamic(&resource.config, &schema);
    let mut eval = |name: &str| match content.attribute(name) {
        Some(attr) => {
            let (v, d) = scope.eval_expr(&attr.expr, &Type::Dynamic);
            diags.extend(d);
            v
        }
        None => Value::null(Type::Dynamic),
    };
    let input = eval("input");
    let triggers = eval("triggers_replace");
    // `output` is the input once applied: unknown now, unless the input is
    // a known null (the provider plans that as null).
    let output = if input.is_known() && input.unmark().is_null() {
        Value::null(Type::Dynamic)
    } else {
        Value::unknown(input.unmark().ty().clone())
    };
    let after = Value::object_from([
        ("id", Value::unknown(Type::String)),
        ("input", input),
        ("output", output),
        ("triggers_replace", triggers),
    ]);
    (
        PlannedInstance {
            after,
            schema_type: schema_type(),
            schema: None,
            config: None,
        },
        diags,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_type_is_the_builtin_schemas() {
        assert_eq!(
            schema_type(),
            Type::object_from([
                ("id", Type::String),
                ("input", Type::Dynamic),
                ("output", Type::Dynamic),
                ("triggers_replace", Type::Dynamic),
            ])
        );
    }
}
