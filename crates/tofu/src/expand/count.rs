//! `count` (`evalchecks.EvaluateCountExpression`).

use cty::{Mark, Type};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr};
use lang::Scope;

use super::shell_quote::posix_shell_quote;

/// What a `count` argument gave.
#[derive(Debug, Clone, PartialEq)]
pub enum CountValue {
    Known(i64),
    /// Not known yet (only returned when unknowns are allowed).
    Unknown,
    /// An error was reported.
    Invalid,
}

/// Evaluates `expr` as a `count`. `excludable` is the address to suggest
/// in `-exclude=` when the value is unknown and unknowns are not allowed.
pub fn evaluate_count(
    expr: &Expr,
    scope: &Scope<'_>,
    allow_unknown: bool,
    excludable: Option<&str>,
) -> (CountValue, Diagnostics) {
    let (val, mut diags) = scope.eval_expr(expr, &Type::Number);
    if has_errors(&diags) {
        return (CountValue::Invalid, diags);
    }
    // Sensitive values may be used in count (the count does not disclose
    // them); ephemeral ones may not.
    let (val, marks) = val.unmark_deep();
    let err =
        |detail: String| Diagnostic::error("Invalid count argument", detail, expr.range.clone());
    if marks.contains(&Mark::Ephemeral) {
        diags.push(err("Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments. If used, the ephemeral value could be exposed as a resource instance key.".into()));
        return (CountValue::Invalid, diags);
    }
    if val.is_null() {
        diags.push(err(
            r#"The given "count" argument value is null. An integer is required."#.into(),
        ));
        return (CountValue::Invalid, diags);
    }
    if !val.is_known() {
        if allow_unknown {
            return (CountValue::Unknown, diags);
        }
        let suggestion = match excludable {
            None => "To work around this, use the -target option to first apply only the resources that the count depends on, and then apply normally to converge.".to_string(),
            Some(addr) => format!("To work around this, use the planning option -exclude={} to first apply without this object, and then apply normally to converge.", posix_shell_quote(addr)),
        };
        diags.push(err(format!("The \"count\" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created.\n\n{suggestion}")));
        return (CountValue::Invalid, diags);
    }
    let whole = val
        .as_number()
        .and_then(|n| if n.is_int() { n.to_i64() } else { None });
    match whole {
        None => {
            diags.push(err(format!(
                "The given \"count\" argument value is unsuitable: value must be a whole number, between {} and {}.",
                i64::MIN,
                i64::MAX
            )));
            (CountValue::Invalid, diags)
        }
        Some(n) if n < 0 => {
            diags.push(err(r#"The given "count" argument value is unsuitable: must be greater than or equal to zero."#.into()));
            (CountValue::Invalid, diags)
        }
        Some(n) => (CountValue::Known(n), diags),
    }
}
