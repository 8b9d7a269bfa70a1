//! `for` expressions (HCL's `ForExpr`): tuple and object results, the
//! `if` filter, grouping with `...`, and iteration order (lists and tuples
//! by index, maps and objects by key, sets in cty's set order).

use std::collections::BTreeMap;

use cty::{convert::convert, Type, Value, ValueMarks};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, ForExpr};

use super::eval;
use crate::context::EvalContext;

pub(super) fn eval_for(expr: &Expr, f: &ForExpr, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    let mut marks = ValueMarks::new();
    let (coll, mut diags) = eval(&f.collection, ctx);
    let here = |summary: &str, detail: String, on: &Expr| {
        Diagnostic::error(summary, detail, on.range.clone()).with_context(expr.range.clone())
    };

    if coll.is_null() {
        diags.push(here(
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.".into(),
            &f.collection,
        ));
        return (Value::dynamic(), diags);
    }
    if coll.ty().is_dynamic() {
        return (Value::dynamic(), diags);
    }
    let (coll, coll_marks) = coll.unmark_with_marks();
    marks.extend(coll_marks);
    let ty = coll.ty();
    let iterable = ty.is_collection() || ty.is_tuple() || ty.is_object();
    if !iterable {
        diags.push(here(
            "Iteration over non-iterable value",
            format!(
                "A value of type {} cannot be used as the collection in a 'for' expression.",
                ty.friendly_name()
            ),
            &f.collection,
        ));
        return (Value::dynamic(), diags);
    }
    if !coll.is_known() {
        return (Value::dynamic(), diags);
    }

    let bind = |k: Value, v: Value| {
        ctx.for_child(
            f.key_var.as_deref().map(|name| (name, k)),
            (f.value_var.as_str(), v),
        )
    };

    // An early check of the condition with unknown symbols, to report a
    // condition of the wrong type once rather than once per element.
    if let Some(cond) = &f.condition {
        let child = bind(Value::dynamic(), Value::dynamic());
        let (result, cond_diags) = eval(cond, &child);
        let failed = has_errors(&cond_diags);
        diags.extend(cond_diags);
        if result.is_null() {
            diags.push(here(
                "Condition is null",
                "The value of the 'if' clause must not be null.".into(),
                cond,
            ));
            return (Value::dynamic(), diags);
        }
        if let Err(e) = convert(&result, &Type::Bool) {
            diags.push(here(
                "Invalid 'for' condition",
                format!("The 'if' clause value is invalid: {e}."),
                cond,
            ));
            return (Value::dynamic(), diags);
        }
        if failed {
            return (Value::dynamic(), diags);
        }
    }

    let mut known = true;
    let mut tuple_vals: Vec<Value> = Vec::new();
    let mut obj_vals: BTreeMap<String, Value> = BTreeMap::new();
    let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();

    // The elements with their keys; a key value is only made when the
    // expression names a key symbol.
    let want_key = f.key_var.is_some();
    let elements: Box<dyn Iterator<Item = (Value, Value)> + '_> =
        match (coll.as_elements(), coll.as_attrs()) {
            (Some(items), _) if coll.ty().is_set() => {
                Box::new(items.iter().map(|e| (e.clone(), e.clone())))
            }
            (Some(items), _) => Box::new(items.iter().enumerate().map(move |(i, e)| {
                let k = if want_key {
                    Value::number_int(i as i64)
                } else {
                    Value::dynamic()
                };
                (k, e.clone())
            })),
            (None, Some(attrs)) => Box::new(attrs.iter().map(move |(k, e)| {
                let k = if want_key {
                    Value::string(k)
                } else {
                    Value::dynamic()
                };
                (k, e.clone())
            })),
            (None, None) => Box::new(std::iter::empty()),
        };
    for (k, v) in elements {
        let child = bind(k, v);
        if let Some(cond) = &f.condition {
            let (raw, cond_diags) = eval(cond, &child);
            diags.extend(cond_diags);
            if raw.is_null() {
                if known {
                    diags.push(here(
                        "Invalid 'for' condition",
                        "The value of the 'if' clause must not be null.".into(),
                        cond,
                    ));
                }
                known = false;
                continue;
            }
            if f.key_expr.is_none() && !raw.is_known() {
                known = false;
                continue;
            }
            let include = match convert(&raw, &Type::Bool) {
                Ok(b) => b,
                Err(e) => {
                    if known {
                        diags.push(here(
                            "Invalid 'for' condition",
                            format!("The 'if' clause value is invalid: {e}."),
                            cond,
                        ));
                    }
                    known = false;
                    continue;
                }
            };
            if !include.is_known() {
                known = false;
                continue;
            }
            let (include, include_marks) = include.unmark_with_marks();
            marks.extend(include_marks);
            if include.as_bool() == Some(false) {
                continue;
            }
        }

        let Some(key_expr) = &f.key_expr else {
            let (val, val_diags) = eval(&f.value_expr, &child);
            diags.extend(val_diags);
            tuple_vals.push(val);
            continue;
        };

        let (raw_key, key_diags) = eval(key_expr, &child);
        diags.extend(key_diags);
        if raw_key.is_null() {
            if known {
                diags.push(here(
                    "Invalid object key",
                    "Key expression in 'for' expression must not produce a null value.".into(),
                    key_expr,
                ));
            }
            known = false;
            continue;
        }
        if !raw_key.is_known() {
            known = false;
            continue;
        }
        let key = match convert(&raw_key, &Type::String) {
            Ok(k) => k,
            Err(e) => {
                if known {
                    diags.push(here(
                        "Invalid object key",
                        format!("The key expression produced an invalid result: {e}."),
                        key_expr,
                    ));
                }
                known = false;
                continue;
            }
        };
        let (key, key_marks) = key.unmark_with_marks();
        marks.extend(key_marks);
        let key = key.as_str().unwrap_or_default().to_string();

        let (val, val_diags) = eval(&f.value_expr, &child);
        diags.extend(val_diags);
        if f.group {
            groups.entry(key).or_default().push(val);
            continue;
        }
        match obj_vals.entry(key) {
            std::collections::btree_map::Entry::Occupied(e) => diags.push(here(
                "Duplicate object key",
                format!(
                    "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                    super::traversal::go_quote(e.key())
                ),
                key_expr,
            )),
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(val);
            }
        }
    }

    if !known {
        return (Value::dynamic(), diags);
    }
    let result = if f.key_expr.is_none() {
        Value::tuple(tuple_vals)
    } else if f.group {
        Value::object(
            groups
                .into_iter()
                .map(|(k, vs)| (k, Value::tuple(vs)))
                .collect(),
        )
    } else {
        Value::object(obj_vals)
    };
    (result.marked_with(marks), diags)
}
