//! `dynamic` blocks expanded as HCL's `ext/dynblock` does
//! (`expand_body.go`, `expand_spec.go`): each element of `for_each` gives
//! one block whose body is the `content` block, evaluated with the
//! iterator bound to `{key, value}`; an unknown `for_each` gives one block
//! that stands for an unknown number of them (hcldec then makes the whole
//! collection unknown). Marks on `for_each` are carried onto every
//! argument of the generated blocks.

use std::collections::BTreeMap;
use std::sync::Arc;

use cty::{Type, Value, ValueMarks};
use hclsyntax::{
    has_errors, AttributeSchema, BlockHeaderSchema, Body, BodySchema, Diagnostic, Diagnostics,
    Range,
};
use lang::{eval_expr, EvalContext};

/// One block of a nested block type, written or generated.
pub struct BlockInstance {
    pub body: Body,
    pub labels: Vec<String>,
    pub def_range: Range,
    /// The iterator of the `dynamic` block that generated it: its name and
    /// the `{key, value}` object bound to it.
    pub iteration: Option<(String, Value)>,
    /// Generated from an unknown `for_each`: stands for unknown blocks.
    pub unknown: bool,
    /// The marks of the `for_each` value that generated it.
    pub marks: ValueMarks,
}

impl BlockInstance {
    /// A block as written.
    pub fn written(block: &hclsyntax::Block) -> BlockInstance {
        BlockInstance {
            body: block.body.clone(),
            labels: block.labels.iter().map(|l| l.value.clone()).collect(),
            def_range: block.def_range(),
            iteration: None,
            unknown: false,
            marks: ValueMarks::new(),
        }
    }

    /// Runs `f` in the context the block's body is evaluated in.
    pub fn in_context<R>(&self, ctx: &EvalContext<'_>, f: impl FnOnce(&EvalContext<'_>) -> R) -> R {
        match &self.iteration {
            Some((name, value)) => {
                let child = ctx.child(BTreeMap::from([(name.clone(), value.clone())]));
                f(&child)
            }
            None => f(ctx),
        }
    }
}

/// What a `dynamic` block's body holds (dynblock's
/// `dynamicBlockBodySchemaLabels` / `NoLabels`).
pub fn spec_schema(with_labels: bool) -> BodySchema {
    let mut attributes = vec![
        AttributeSchema {
            name: "for_each".into(),
            required: true,
        },
        AttributeSchema {
            name: "iterator".into(),
            required: false,
        },
    ];
    if with_labels {
        attributes.push(AttributeSchema {
            name: "labels".into(),
            required: true,
        });
    }
    BodySchema {
        attributes,
        blocks: vec![BlockHeaderSchema {
            type_name: "content".into(),
            label_names: &[],
        }],
    }
}

/// The blocks one `dynamic "TYPE"` block generates (`decodeSpec` and
/// `newBlock`); `label_count` is how many labels TYPE's blocks have.
pub fn expand(
    dynamic: &hclsyntax::Block,
    label_count: usize,
    ctx: &EvalContext<'_>,
    diags: &mut Diagnostics,
) -> Vec<BlockInstance> {
    let Some(type_label) = dynamic.labels.first() else {
        return Vec::new();
    };
    let block_type = type_label.value.clone();
    let (content, d) = dynamic.body.content(&spec_schema(label_count > 0));
    let failed = has_errors(&d);
    diags.extend(d);
    if failed {
        return Vec::new();
    }
    let mut iterator = block_type.clone();
    if let Some(attr) = content.attribute("iterator") {
        match hclsyntax::static_expr::abs_traversal(&attr.expr) {
            Err(d) => {
                diags.extend(d);
                return Vec::new();
            }
            Ok(t) if !t.steps.is_empty() => {
                diags.push(Diagnostic::error(
                    "Invalid dynamic iterator name",
                    "Dynamic iterator must be a single variable name.",
                    t.range(),
                ));
                return Vec::new();
            }
            Ok(t) => iterator = t.root.clone(),
        }
    }
    let Some(for_each) = content.attribute("for_each") else {
        return Vec::new();
    };
    let (each, d) = eval_expr(&for_each.expr, ctx);
    let failed = has_errors(&d);
    diags.extend(d);
    if failed {
        return Vec::new();
    }
    let (each, marks) = each.unmark_with_marks();
    let iterable = each.ty().is_collection() || each.ty().is_object() || each.ty().is_tuple();
    if !iterable && *each.ty() != Type::Dynamic {
        diags.push(Diagnostic::error(
            "Invalid dynamic for_each value",
            format!(
                "Cannot use a {} value in for_each. An iterable collection is required.",
                each.ty().friendly_name()
            ),
            for_each.expr.range.clone(),
        ));
        return Vec::new();
    }
    if each.is_known() && each.is_null() {
        diags.push(Diagnostic::error(
            "Invalid dynamic for_each value",
            "Cannot use a null value in for_each.",
            for_each.expr.range.clone(),
        ));
        return Vec::new();
    }
    let mut label_exprs = Vec::new();
    if let Some(labels) = content.attribute("labels") {
        match hclsyntax::static_expr::expr_list(&labels.expr) {
            Err(d) => {
                diags.extend(d);
                return Vec::new();
            }
            Ok(list) if list.len() > label_count => {
                diags.push(Diagnostic::error(
                    "Extraneous dynamic block label",
                    format!(
                        "Blocks of type {} require {label_count} label(s).",
                        addrs::go_quote(&block_type)
                    ),
                    list[label_count].range.clone(),
                ));
                return Vec::new();
            }
            Ok(list) if list.len() < label_count => {
                diags.push(Diagnostic::error(
                    "Insufficient dynamic block labels",
                    format!(
                        "Blocks of type {} require {label_count} label(s).",
                        addrs::go_quote(&block_type)
                    ),
                    labels.expr.range.clone(),
                ));
                return Vec::new();
            }
            Ok(list) => label_exprs = list,
        }
    }
    let contents: Vec<&Arc<hclsyntax::Block>> = content.blocks_of("content").collect();
    let Some(body) = contents.first() else {
        diags.push(Diagnostic::error(
            "Missing dynamic content block",
            "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
            content.missing_item_range.clone(),
        ));
        return Vec::new();
    };
    if let Some(extra) = contents.get(1) {
        diags.push(Diagnostic::error(
            "Extraneous dynamic content block",
            "Only one nested content block is allowed for each dynamic block.",
            extra.def_range(),
        ));
        return Vec::new();
    }
    let make = |key: Value, value: Value, unknown: bool, diags: &mut Diagnostics| {
        let it = Value::object_from([("key", key), ("value", value)]);
        let child = ctx.child(BTreeMap::from([(iterator.clone(), it.clone())]));
        let labels = block_labels(&label_exprs, &child, diags)?;
        Some(BlockInstance {
            body: body.body.clone(),
            labels,
            def_range: dynamic.def_range(),
            iteration: Some((iterator.clone(), it)),
            unknown,
            marks: marks.clone(),
        })
    };
    if !each.is_known() {
        return make(Value::dynamic(), Value::dynamic(), true, diags)
            .into_iter()
            .collect();
    }
    each.elements()
        .into_iter()
        .filter_map(|(k, v)| make(k, v, false, diags))
        .collect()
}

/// `newBlock`'s labels: known, non-null, unmarked strings.
fn block_labels(
    exprs: &[hclsyntax::Expr],
    ctx: &EvalContext<'_>,
    diags: &mut Diagnostics,
) -> Option<Vec<String>> {
    let mut labels = Vec::new();
    for expr in exprs {
        let (v, d) = eval_expr(expr, ctx);
        let failed = has_errors(&d);
        diags.extend(d);
        if failed {
            return None;
        }
        let bad = |detail: String| {
            Diagnostic::error("Invalid dynamic block label", detail, expr.range.clone())
        };
        let v = match cty::convert::convert(&v, &Type::String) {
            Ok(v) => v,
            Err(e) => {
                diags.push(bad(format!(
                    "Cannot use this value as a dynamic block label: {e}."
                )));
                return None;
            }
        };
        if v.is_known() && v.is_null() {
            diags.push(bad(
                "Cannot use a null value as a dynamic block label.".into()
            ));
            return None;
        }
        if !v.is_known() {
            diags.push(bad(
                "This value is not yet known. Dynamic block labels must be immediately-known values.".into(),
            ));
            return None;
        }
        if v.is_marked() {
            diags.push(bad(
                "This value has dynamic marks that make it unsuitable for use as a block label."
                    .into(),
            ));
            return None;
        }
        labels.push(v.as_str().unwrap_or_default().to_string());
    }
    Some(labels)
}
