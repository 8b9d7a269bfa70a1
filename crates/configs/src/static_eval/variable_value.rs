//! An input variable's final value in static evaluation: the given value
//! or the default, converted to the type constraint, null checked against
//! `nullable`, and marked sensitive / ephemeral as declared.

use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Severity};
use lang::EvalContext;

use super::evaluator::Computed;
use crate::named_values::Variable;

fn error_without_subject(summary: &str, detail: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        summary: summary.into(),
        detail,
        subject: None,
        context: None,
    }
}

/// The default, evaluated (it is a constant) and converted to the type.
fn default_value(var: &Variable) -> Option<Value> {
    let expr = var.default.as_ref()?;
    let (val, diags) = lang::eval_expr(expr, &EvalContext::empty());
    if has_errors(&diags) {
        // The decoder reports a bad default.
        return Some(Value::dynamic());
    }
    match var.constraint_type.as_ref() {
        Some(ty) if !ty.is_dynamic() => {
            Some(cty::convert::convert(&val, ty).unwrap_or_else(|_| Value::dynamic()))
        }
        _ => Some(val),
    }
}

/// `var`'s value from what its caller gave (`None`: nothing) and the
/// diagnostics of getting it.
pub(super) fn final_variable_value(
    var: &Variable,
    given: Option<Value>,
    mut diags: Diagnostics,
) -> Computed {
    if has_errors(&diags) {
        return (Value::dynamic(), diags);
    }
    let mut val = match given {
        Some(v) => v,
        None => match default_value(var) {
            Some(d) => d,
            // A required variable without a value was reported by the
            // source of values.
            None => Value::null(Type::Dynamic),
        },
    };
    if let Some(ty) = var.constraint_type.as_ref().filter(|t| !t.is_dynamic()) {
        match cty::convert::convert(&val, ty) {
            Ok(v) => val = v,
            Err(e) => {
                diags.push(error_without_subject(
                    "Invalid value for input variable",
                    format!(
                        "The given value is not suitable for var.{} declared at {}: {}.",
                        var.name,
                        var.decl_range,
                        e.with_path()
                    ),
                ));
                return (Value::dynamic(), diags);
            }
        }
    }
    if val.is_null() && !var.nullable {
        match default_value(var) {
            Some(d) => val = d,
            None => {
                diags.push(error_without_subject(
                    "Required variable not set",
                    format!(
                        "The given value is not suitable for var.{} defined at {}: required variable may not be set to null.",
                        var.name, var.decl_range
                    ),
                ));
                return (Value::dynamic(), diags);
            }
        }
    }
    if var.sensitive {
        val = val.mark(Mark::Sensitive);
    }
    if var.ephemeral {
        val = val.mark(Mark::Ephemeral);
    }
    (val, diags)
}
