//! String templates (`"a-${x}"`, heredocs) and the join of `%{for}`
//! results (HCL's `TemplateExpr` and `TemplateJoinExpr`).

use cty::{convert::convert, Type, Value, ValueMarks};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr};

use super::eval;
use crate::context::EvalContext;

const INVALID_INTERP: &str = "Invalid template interpolation value";

pub(super) fn eval_template(
    expr: &Expr,
    parts: &[Expr],
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let mut buf = String::new();
    let mut diags = Diagnostics::new();
    let mut known = true;
    let mut marks = ValueMarks::new();
    for part in parts {
        let (val, d) = eval(part, ctx);
        diags.extend(d);
        if val.is_null() {
            diags.push(
                Diagnostic::error(
                    INVALID_INTERP,
                    "The expression result is null. Cannot include a null value in a string template.",
                    part.range.clone(),
                )
                .with_context(expr.range.clone()),
            );
            continue;
        }
        let (unmarked, m) = val.unmark_with_marks();
        marks.extend(m);
        if !val.is_known() {
            known = false;
            continue;
        }
        let s = match convert(&unmarked, &Type::String) {
            Ok(s) => s,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        INVALID_INTERP,
                        format!("Cannot include the given value in a string template: {e}."),
                        part.range.clone(),
                    )
                    .with_context(expr.range.clone()),
                );
                continue;
            }
        };
        if known && !has_errors(&diags) {
            buf.push_str(s.unmark().as_str().unwrap_or_default());
        }
    }
    let ret = if known {
        Value::string(buf)
    } else {
        Value::unknown(Type::String)
    };
    (ret.with_marks(marks), diags)
}

pub(super) fn eval_template_join(
    expr: &Expr,
    tuple_expr: &Expr,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let (tuple, mut diags) = eval(tuple_expr, ctx);
    if tuple.is_null() || !tuple.ty().is_tuple() || !tuple.is_known() {
        // A null or non-tuple value here would be a bug in the tree's
        // construction; HCL panics, we give up on the value.
        return (Value::unknown(Type::String), diags);
    }
    let (tuple, marks) = tuple.unmark_with_marks();
    let mut all = marks.clone();
    let mut buf = String::new();
    for val in tuple.as_elements().unwrap_or_default() {
        if val.is_null() {
            diags.push(Diagnostic::error(
                INVALID_INTERP,
                "An iteration result is null. Cannot include a null value in a string template.",
                expr.range.clone(),
            ));
            continue;
        }
        if val.ty().is_dynamic() {
            return (Value::unknown(Type::String).with_marks(marks), diags);
        }
        let s = match convert(val, &Type::String) {
            Ok(s) => s,
            Err(e) => {
                diags.push(Diagnostic::error(
                    INVALID_INTERP,
                    format!("Cannot include one of the interpolation results into the string template: {e}."),
                    expr.range.clone(),
                ));
                continue;
            }
        };
        if !val.is_known() {
            return (Value::unknown(Type::String).with_marks(marks), diags);
        }
        let (s, m) = s.unmark_with_marks();
        all.extend(m);
        buf.push_str(s.as_str().unwrap_or_default());
    }
    (Value::string(buf).with_marks(all), diags)
}
