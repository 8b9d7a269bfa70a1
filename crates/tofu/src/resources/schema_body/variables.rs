//! The references a body makes, read through its schema (hcldec's
//! `Variables` with dynblock's `ExpandVariablesHCLDec`): arguments and
//! nested blocks as the schema names them (so JSON bodies are read
//! right), a `dynamic` block's `for_each` and `labels` in the enclosing
//! scope, its `content` with the iterator excluded, its `iterator` not at
//! all.

use configs::merged_body::ConfigBody;
use configschema::Block;
use hclsyntax::ast::Traversal;

use super::block::{body_schema, MAX_DEPTH};
use super::blocktoattr::element_schema;
use super::dynamic::spec_schema;
use crate::resources::dynamic_blocks::content_with_dynamic;

/// Every traversal `body` (decoded against `schema`) evaluates, except
/// those rooted at one of `iterators`.
pub fn body_variables(
    body: &ConfigBody,
    schema: &Block,
    iterators: &mut Vec<String>,
    depth: usize,
    out: &mut Vec<Traversal>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let (hcl_schema, as_blocks) = body_schema(body, schema);
    let (content, _) = content_with_dynamic(body, &hcl_schema);
    let push = |expr: &hclsyntax::Expr, iterators: &[String], out: &mut Vec<Traversal>| {
        out.extend(
            expr.variables()
                .into_iter()
                .filter(|t| !iterators.contains(&t.root)),
        );
    };
    for attr in &content.attributes {
        push(&attr.expr, iterators, out);
    }
    for b in &content.blocks {
        let (type_name, body, dynamic) = if b.type_name == "dynamic" {
            match b.labels.first() {
                Some(l) => (l.value.as_str(), &b.body, true),
                None => continue,
            }
        } else {
            (b.type_name.as_str(), &b.body, false)
        };
        let nested = if as_blocks.contains(type_name) {
            schema
                .attributes
                .get(type_name)
                .and_then(|a| a.implied_type().element_type().map(element_schema))
        } else {
            schema.block_types.get(type_name).map(|n| n.block.clone())
        };
        let Some(nested) = nested else { continue };
        if !dynamic {
            let child = ConfigBody::Single(body.clone());
            body_variables(&child, &nested, iterators, depth + 1, out);
            continue;
        }
        let (spec, _) = body.content(&spec_schema(true));
        if let Some(for_each) = spec.attribute("for_each") {
            push(&for_each.expr, iterators, out);
        }
        let iterator = spec
            .attribute("iterator")
            .and_then(|a| hclsyntax::static_expr::abs_traversal(&a.expr).ok())
            .map(|t| t.root)
            .unwrap_or_else(|| type_name.to_string());
        iterators.push(iterator);
        if let Some(labels) = spec.attribute("labels") {
            push(&labels.expr, iterators, out);
        }
        for content in spec.blocks_of("content") {
            let child = ConfigBody::Single(content.body.clone());
            body_variables(&child, &nested, iterators, depth + 1, out);
        }
        iterators.pop();
    }
}
