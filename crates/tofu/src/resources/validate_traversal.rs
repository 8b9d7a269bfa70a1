//! Traversals checked against a block schema, before any value exists:
//! OpenTofu's `configschema.Block.StaticValidateTraversal`
//! (`internal/configs/configschema/validate_traversal.go`), used for
//! references to a resource's attributes and for `ignore_changes`.

use configschema::{Block, NestedBlock, NestingMode};
use cty::Value;
use hclsyntax::ast::{StepKind, TraversalStep};
use hclsyntax::{Diagnostic, Diagnostics};

/// The diagnostics for a relative traversal (`.a.b[0]`) into an object of
/// `block`'s schema.
pub fn static_validate_traversal(block: &Block, steps: &[TraversalStep]) -> Diagnostics {
    let Some((next, after)) = steps.split_first() else {
        return Diagnostics::new();
    };
    let name = match &next.kind {
        StepKind::Attr(name) => name,
        StepKind::Index(lit) => {
            let key = lang::eval::literal_value(lit).ok();
            let detail = match key.as_ref().and_then(Value::as_str) {
                Some(s) if hclsyntax::ident::valid_identifier(s) => format!(
                    "Only attribute access is allowed here. Did you mean to access attribute {} using the dot operator?",
                    addrs::go_quote(s)
                ),
                _ => "Only attribute access is allowed here, using the dot operator.".to_string(),
            };
            return vec![Diagnostic::error(
                "Invalid index operation",
                detail,
                next.range.clone(),
            )];
        }
    };
    if let Some(attr) = block.attributes.get(name) {
        let (_, diags) = lang::eval::traverse_rel(&Value::unknown(attr.implied_type()), after);
        return diags;
    }
    if let Some(nested) = block.block_types.get(name) {
        return nested_traversal(nested, name, after);
    }
    let mut names: Vec<&str> = block
        .attributes
        .keys()
        .chain(block.block_types.keys())
        .map(String::as_str)
        .collect();
    names.sort_unstable();
    let suggestion = match hclsyntax::body::name_suggestion(name, names) {
        Some(s) => format!(" Did you mean {}?", addrs::go_quote(s)),
        None => String::new(),
    };
    vec![Diagnostic::error(
        "Unsupported attribute",
        format!(
            "This object has no argument, nested block, or exported attribute named {}.{suggestion}",
            addrs::go_quote(name)
        ),
        next.range.clone(),
    )]
}

fn nested_traversal(nested: &NestedBlock, type_name: &str, steps: &[TraversalStep]) -> Diagnostics {
    if matches!(nested.nesting, NestingMode::Single | NestingMode::Group) {
        return static_validate_traversal(&nested.block, steps);
    }
    let Some((next, after)) = steps.split_first() else {
        return Diagnostics::new();
    };
    match nested.nesting {
        NestingMode::Set => vec![Diagnostic::error(
            "Cannot index a set value",
            format!(
                "Block type {} is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a \"for\" expression with an \"if\" clause.",
                addrs::go_quote(type_name)
            ),
            next.range.clone(),
        )],
        NestingMode::List => match next.kind {
            StepKind::Index(_) => static_validate_traversal(&nested.block, after),
            StepKind::Attr(_) => vec![Diagnostic::error(
                "Invalid operation",
                format!(
                    "Block type {} is represented by a list of objects, so it must be indexed using a numeric key, like .{type_name}[0].",
                    addrs::go_quote(type_name)
                ),
                next.range.clone(),
            )],
        },
        _ => static_validate_traversal(&nested.block, after),
    }
}
