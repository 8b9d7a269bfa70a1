//! Tuple and object constructors (HCL's `TupleConsExpr`,
//! `ObjectConsExpr` and `ObjectConsKeyExpr`).

use std::collections::BTreeMap;

use cty::{convert::convert, Type, Value, ValueMarks};
use hclsyntax::{
    has_errors, Diagnostic, Diagnostics, Expr, ExprKind, Literal, ObjectItem, ObjectKey,
};

use super::eval;
use crate::context::EvalContext;

pub(super) fn eval_tuple(items: &[Expr], ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    let vals = items
        .iter()
        .map(|e| {
            let (v, d) = eval(e, ctx);
            diags.extend(d);
            v
        })
        .collect();
    (Value::tuple(vals), diags)
}

/// The literal name of a key that HCL reads as a keyword rather than an
/// expression: a bare identifier, or `null`/`true`/`false` written bare.
fn key_keyword(key: &ObjectKey) -> Option<String> {
    if key.force_non_literal {
        return None;
    }
    match &key.expr.kind {
        ExprKind::ScopeTraversal(t) if t.steps.is_empty() => Some(t.root.clone()),
        ExprKind::Literal(Literal::Null) => Some("null".into()),
        ExprKind::Literal(Literal::Bool(b)) => Some(b.to_string()),
        _ => None,
    }
}

/// Evaluates an object key (HCL's `ObjectConsKeyExpr.Value`).
fn eval_key(key: &ObjectKey, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    if !key.force_non_literal {
        if let ExprKind::ScopeTraversal(t) = &key.expr.kind {
            if !t.steps.is_empty() {
                return (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Ambiguous attribute key",
                        "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                        key.expr.range.clone(),
                    )],
                );
            }
        }
        if let Some(name) = key_keyword(key) {
            return (Value::string(name), Vec::new());
        }
    }
    eval(&key.expr, ctx)
}

pub(super) fn eval_object(items: &[ObjectItem], ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut marks = ValueMarks::new();
    let mut known = true;
    let mut vals: BTreeMap<String, Value> = BTreeMap::new();
    for item in items {
        let (key, key_diags) = eval_key(&item.key, ctx);
        let key_failed = has_errors(&key_diags);
        diags.extend(key_diags);
        let (val, val_diags) = eval(&item.value, ctx);
        diags.extend(val_diags);
        if key_failed {
            known = false;
            continue;
        }
        if key.is_null() {
            diags.push(Diagnostic::error(
                "Null value as key",
                "Can't use a null value as a key.",
                item.value.range.clone(),
            ));
            known = false;
            continue;
        }
        let (key, key_marks) = key.unmark_with_marks();
        marks.extend(key_marks);
        let key = match convert(&key, &Type::String) {
            Ok(k) => k,
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Incorrect key type",
                    format!("Can't use this value as a key: {e}."),
                    item.key.expr.range.clone(),
                ));
                known = false;
                continue;
            }
        };
        if !key.is_known() {
            known = false;
            continue;
        }
        // Later items replace earlier ones with the same key.
        vals.insert(key.unmark().as_str().unwrap_or_default().to_string(), val);
    }
    if !known {
        return (Value::dynamic(), diags);
    }
    (Value::object(vals).marked_with(marks), diags)
}
