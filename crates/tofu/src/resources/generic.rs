//! Resource types whose schema is unknown here: every argument and nested
//! block of the configuration is evaluated (so that references and types
//! are checked) and becomes part of the planned value; what the provider
//! would add is simply absent.

use std::collections::{BTreeMap, BTreeSet};

use configs::merged_body::ConfigBody;
use cty::Value;
use hclsyntax::body::BodySyntax;
use hclsyntax::{Body, Diagnostic, Diagnostics, Expr};
use lang::{eval_expr, EvalContext, Scope};

use super::PlannedInstance;

pub fn plan(
    resource: &configs::resource::Resource,
    scope: &Scope<'_>,
) -> (PlannedInstance, Diagnostics) {
    let (after, diags) = evaluate_body(&resource.config, scope);
    let schema_type = after.ty().clone();
    (
        PlannedInstance {
            after,
            schema_type,
            schema: None,
            config: None,
        },
        diags,
    )
}

/// Every argument and nested block of a body without a schema, as an
/// object (blocks as tuples of objects; `dynamic` blocks expanded).
pub fn evaluate_body(body: &ConfigBody, scope: &Scope<'_>) -> (Value, Diagnostics) {
    let (ctx, mut diags) = body_eval_context(body, scope);
    if hclsyntax::has_errors(&diags) {
        return (Value::dynamic(), diags);
    }
    let value = eval_config_body(body, &ctx, &mut diags);
    (value, diags)
}

/// The evaluation context for every expression of a body: the objects its
/// references name (the iterators of its `dynamic` blocks excepted).
pub fn body_eval_context(
    body: &ConfigBody,
    scope: &Scope<'_>,
) -> (EvalContext<'static>, Diagnostics) {
    let mut iterators = BTreeSet::new();
    config_iterators(body, &mut iterators);
    let mut trav = Vec::new();
    crate::graph::body_traversals(body, &mut trav);
    trav.retain(|t| !iterators.contains(&t.root));
    let (refs, mut diags) = scope.references(&trav);
    let (ctx, d) = scope.eval_context(&refs);
    diags.extend(d);
    (ctx, diags)
}

fn config_iterators(body: &ConfigBody, out: &mut BTreeSet<String>) {
    match body {
        ConfigBody::Single(b) => body_iterators(b, out),
        ConfigBody::Union(parts) => parts.iter().for_each(|p| config_iterators(p, out)),
        ConfigBody::Override { base, over } => {
            config_iterators(base, out);
            config_iterators(over, out);
        }
    }
}

fn body_iterators(body: &Body, out: &mut BTreeSet<String>) {
    if let BodySyntax::Native { blocks, .. } = &*body.syntax {
        for b in blocks {
            if b.type_name == "dynamic" {
                out.insert(iterator_name(b));
            }
            body_iterators(&b.body, out);
        }
    }
}

fn iterator_name(block: &hclsyntax::Block) -> String {
    if let BodySyntax::Native { attributes, .. } = &*block.body.syntax {
        if let Some(a) = attributes.iter().find(|a| a.name == "iterator") {
            if let Ok(t) = hclsyntax::static_expr::abs_traversal(&a.expr) {
                if t.steps.is_empty() {
                    return t.root.clone();
                }
            }
        }
    }
    block
        .labels
        .first()
        .map(|l| l.value.clone())
        .unwrap_or_default()
}

fn eval_config_body(body: &ConfigBody, ctx: &EvalContext<'_>, diags: &mut Diagnostics) -> Value {
    match body {
        ConfigBody::Single(b) => eval_body(b, ctx, diags),
        ConfigBody::Union(parts) => {
            let mut attrs = BTreeMap::new();
            for p in parts {
                if let Some(a) = eval_config_body(p, ctx, diags).as_attrs() {
                    attrs.extend(a.clone());
                }
            }
            Value::object(attrs)
        }
        ConfigBody::Override { base, over } => {
            let mut attrs = eval_config_body(base, ctx, diags)
                .as_attrs()
                .cloned()
                .unwrap_or_default();
            if let Some(o) = eval_config_body(over, ctx, diags).as_attrs() {
                attrs.extend(o.clone());
            }
            Value::object(attrs)
        }
    }
}

fn eval(expr: &Expr, ctx: &EvalContext<'_>, diags: &mut Diagnostics) -> Value {
    let (v, d) = eval_expr(expr, ctx);
    diags.extend(d);
    v
}

fn eval_body(body: &Body, ctx: &EvalContext<'_>, diags: &mut Diagnostics) -> Value {
    let mut attrs = BTreeMap::new();
    match &*body.syntax {
        BodySyntax::Native { attributes, blocks } => {
            for a in attributes {
                if !body.is_attr_hidden(&a.name) {
                    attrs.insert(a.name.clone(), eval(&a.expr, ctx, diags));
                }
            }
            let mut nested: BTreeMap<String, Vec<Value>> = BTreeMap::new();
            for b in blocks {
                if body.is_block_hidden(&b.type_name) {
                    continue;
                }
                if b.type_name == "dynamic" {
                    let name = b
                        .labels
                        .first()
                        .map(|l| l.value.clone())
                        .unwrap_or_default();
                    let values = eval_dynamic(b, ctx, diags);
                    nested.entry(name).or_default().extend(values);
                } else {
                    let v = eval_body(&b.body, ctx, diags);
                    nested.entry(b.type_name.clone()).or_default().push(v);
                }
            }
            for (name, values) in nested {
                attrs.insert(name, Value::tuple(values));
            }
        }
        BodySyntax::Json(_) => {
            let (list, d) = body.just_attributes();
            diags.extend(d);
            for a in list {
                attrs.insert(a.name.clone(), eval(&a.expr, ctx, diags));
            }
        }
    }
    Value::object(attrs)
}

/// A `dynamic` block: one nested block per element of `for_each`, with
/// the iterator bound to `{key, value}`.
fn eval_dynamic(
    block: &hclsyntax::Block,
    ctx: &EvalContext<'_>,
    diags: &mut Diagnostics,
) -> Vec<Value> {
    let BodySyntax::Native { attributes, blocks } = &*block.body.syntax else {
        return Vec::new();
    };
    let Some(for_each) = attributes.iter().find(|a| a.name == "for_each") else {
        diags.push(Diagnostic::error(
            "Missing required argument",
            "The argument \"for_each\" is required, but no definition was found.",
            block.body.missing_item_range.clone(),
        ));
        return Vec::new();
    };
    let Some(content) = blocks.iter().find(|b| b.type_name == "content") else {
        diags.push(Diagnostic::error(
            "Missing required block",
            "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
            block.body.missing_item_range.clone(),
        ));
        return Vec::new();
    };
    let iterator = iterator_name(block);
    let coll = eval(&for_each.expr, ctx, diags);
    if !coll.is_known() || coll.is_null() {
        // Unknown collections give an unknown number of blocks.
        return Vec::new();
    }
    let coll = coll.unmark();
    if !(coll.ty().is_collection() || coll.ty().is_object() || coll.ty().is_tuple()) {
        diags.push(Diagnostic::error(
            "Invalid dynamic for_each value",
            format!(
                "Cannot use a {} value in for_each. An iterable collection is required.",
                coll.ty().friendly_name()
            ),
            for_each.expr.range.clone(),
        ));
        return Vec::new();
    }
    coll.elements()
        .into_iter()
        .map(|(k, v)| {
            let mut vars = BTreeMap::new();
            vars.insert(
                iterator.clone(),
                Value::object_from([("key", k), ("value", v)]),
            );
            let child = ctx.child(vars);
            eval_body(&content.body, &child, diags)
        })
        .collect()
}
