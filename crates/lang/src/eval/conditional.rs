//! `cond ? a : b` (HCL's `ConditionalExpr`): both results are evaluated
//! and unified to one type, the condition picks one; an unknown condition
//! gives an unknown of the unified type.

use cty::{convert::convert, convert::unify_unsafe, Type, Value};
use hclsyntax::{Diagnostic, Diagnostics, Expr};

use super::{eval, unknown_with_marks};
use crate::context::EvalContext;

const INCONSISTENT: &str = "Inconsistent conditional result types";

pub(super) fn eval_conditional(
    expr: &Expr,
    condition: &Expr,
    true_expr: &Expr,
    false_expr: &Expr,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let (true_val, true_diags) = eval(true_expr, ctx);
    let (false_val, false_diags) = eval(false_expr, ctx);
    let mut diags = Diagnostics::new();

    let is_dynamic_null = |v: &Value| v.is_null() && v.ty().is_dynamic() && !v.is_marked();
    let result_ty: Option<Type> = if is_dynamic_null(&true_val) {
        Some(false_val.ty().clone())
    } else if is_dynamic_null(&false_val) {
        Some(true_val.ty().clone())
    } else if true_val.ty().is_dynamic() || false_val.ty().is_dynamic() {
        Some(Type::Dynamic)
    } else {
        unify_unsafe(&[true_val.ty().clone(), false_val.ty().clone()])
    };
    let Some(result_ty) = result_ty else {
        diags.push(
            Diagnostic::error(
                INCONSISTENT,
                format!(
                    "The true and false result expressions must have consistent types. {}.",
                    describe_mismatch(true_val.ty(), false_val.ty())
                ),
                true_expr.range.to(&false_expr.range),
            )
            .with_context(expr.range.clone()),
        );
        return (Value::dynamic(), diags);
    };

    let (cond, cond_diags) = eval(condition, ctx);
    diags.extend(cond_diags);
    if cond.is_null() {
        diags.push(
            Diagnostic::error(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                condition.range.clone(),
            )
            .with_context(expr.range.clone()),
        );
        return (Value::unknown(result_ty), diags);
    }
    if !cond.is_known() {
        return (
            unknown_with_marks(result_ty, [&cond, &true_val, &false_val]),
            diags,
        );
    }
    let cond = match convert(&cond, &Type::Bool) {
        Ok(c) => c,
        Err(_) => {
            diags.push(
                Diagnostic::error(
                    "Incorrect condition type",
                    "The condition expression must be of type bool.",
                    condition.range.clone(),
                )
                .with_context(expr.range.clone()),
            );
            return (Value::unknown(result_ty), diags);
        }
    };
    // The condition's marks go to the chosen result, which keeps its own.
    let (cond, cond_marks) = cond.unmark_deep();
    let (chosen, chosen_diags, chosen_expr, which) = if cond.as_bool() == Some(true) {
        (true_val, true_diags, true_expr, "true")
    } else {
        (false_val, false_diags, false_expr, "false")
    };
    diags.extend(chosen_diags);
    if result_ty.is_dynamic() || chosen.ty() == &result_ty {
        return (chosen.marked_with(cond_marks), diags);
    }
    match convert(&chosen, &result_ty) {
        Ok(v) => (v.marked_with(cond_marks), diags),
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    INCONSISTENT,
                    format!("The {which} result value has the wrong type: {e}."),
                    chosen_expr.range.clone(),
                )
                .with_context(expr.range.clone()),
            );
            (Value::unknown(result_ty), diags)
        }
    }
}

/// HCL's `describeConditionalTypeMismatch`.
pub(crate) fn describe_mismatch(t: &Type, f: &Type) -> String {
    match (t, f) {
        (Type::Object(to), Type::Object(fo)) => {
            for (name, tat) in &to.attrs {
                match fo.attrs.get(name) {
                    None => {
                        return format!(
                            "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                            super::traversal::go_quote(name)
                        )
                    }
                    Some(fat) if fat != tat => {
                        return format!(
                            "Type mismatch for object attribute {}: {}",
                            super::traversal::go_quote(name),
                            describe_mismatch(tat, fat)
                        )
                    }
                    _ => {}
                }
            }
            for name in fo.attrs.keys() {
                if !to.attrs.contains_key(name) {
                    return format!(
                        "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                        super::traversal::go_quote(name)
                    );
                }
            }
        }
        (Type::Tuple(te), Type::Tuple(fe)) => {
            if te.len() != fe.len() {
                return format!(
                    "The 'true' tuple has length {}, but the 'false' tuple has length {}",
                    te.len(),
                    fe.len()
                );
            }
            for (i, (a, b)) in te.iter().zip(fe.iter()).enumerate() {
                if a != b {
                    return format!(
                        "Type mismatch for tuple element {i}: {}",
                        describe_mismatch(a, b)
                    );
                }
            }
        }
        (Type::List(te), Type::List(fe))
        | (Type::Set(te), Type::Set(fe))
        | (Type::Map(te), Type::Map(fe))
            if (te.is_object() && fe.is_object()) || (te.is_tuple() && fe.is_tuple()) =>
        {
            let noun = match t {
                Type::List(_) => "list",
                Type::Set(_) => "set",
                _ => "map",
            };
            return format!(
                "Mismatched {noun} element types: {}",
                describe_mismatch(te, fe)
            );
        }
        _ => {}
    }
    let (tn, fname) = (t.friendly_name(), f.friendly_name());
    if tn == fname {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".into();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fname}")
}
