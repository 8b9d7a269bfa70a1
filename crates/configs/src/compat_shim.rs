//! Compatibility shims for the pre-0.12 habit of quoting references and
//! keywords (`depends_on = ["aws_instance.a"]`, `when = "destroy"`), as
//! OpenTofu's `compat_shim.go`: the quoted text is read as a traversal and a
//! deprecation warning is given.

use hclsyntax::static_expr::{abs_traversal, as_keyword};
use hclsyntax::{Diagnostic, Diagnostics, Expr, ExprKind, Literal, Pos, Range, Traversal};

use crate::decode_value::{const_value, ConstValue};

const QUOTED_KEYWORD_DETAIL: &str = "In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.";
const QUOTED_REFERENCE_DETAIL: &str = "In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.";

/// Whether `expr` is a quoted string or heredoc of the native syntax (HCL's
/// `*hclsyntax.TemplateExpr`).
pub fn is_native_quoted_string(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::Template(_) | ExprKind::Literal(Literal::String(_))
    )
}

/// What a possibly-quoted reference turned out to be.
#[derive(Debug, Clone)]
pub enum Shimmed<'a> {
    /// Not a native quoted string (or not a constant one): use as is.
    Unchanged(&'a Expr),
    /// A quoted string read as a traversal; `None` if its text is not one
    /// (the parse errors are in the diagnostics).
    Traversal(Option<Traversal>, Range),
}

/// `shimTraversalInString`: a native quoted string becomes the traversal
/// its text spells, with a deprecation warning.
pub fn shim_traversal_in_string(expr: &Expr, want_keyword: bool) -> (Shimmed<'_>, Diagnostics) {
    if !is_native_quoted_string(expr) {
        return (Shimmed::Unchanged(expr), Vec::new());
    }
    let text = match const_value(expr) {
        Ok(ConstValue::String(s)) => s,
        _ => return (Shimmed::Unchanged(expr), Vec::new()),
    };
    let range = expr.range.clone();
    // Skip the opening quote; escapes inside the string are not accounted
    // for, as in OpenTofu.
    let start = Pos {
        line: range.start.line,
        column: range.start.column + 1,
        byte: range.start.byte + 1,
    };
    let (traversal, mut diags) =
        hclsyntax::native::parse_traversal_abs(&text, &range.filename, start);
    diags.push(if want_keyword {
        Diagnostic::warning(
            "Quoted keywords are deprecated",
            QUOTED_KEYWORD_DETAIL,
            range.clone(),
        )
    } else {
        Diagnostic::warning(
            "Quoted references are deprecated",
            QUOTED_REFERENCE_DETAIL,
            range.clone(),
        )
    });
    (Shimmed::Traversal(traversal, range), diags)
}

/// The shim followed by `hcl.AbsTraversalForExpr`. `None` with no error
/// when a quoted string failed to parse (its errors are already reported).
pub fn shim_abs_traversal(expr: &Expr) -> (Option<Traversal>, Diagnostics) {
    let (shimmed, mut diags) = shim_traversal_in_string(expr, false);
    match shimmed {
        Shimmed::Unchanged(e) => match abs_traversal(e) {
            Ok(t) => (Some(t), diags),
            Err(more) => {
                diags.extend(more);
                (None, diags)
            }
        },
        Shimmed::Traversal(t, _) => (t, diags),
    }
}

/// The shim followed by `hcl.ExprAsKeyword`, with the range to report a bad
/// keyword at (the string's range when it was quoted).
pub fn shim_keyword(expr: &Expr) -> (Option<String>, Range, Diagnostics) {
    let (shimmed, diags) = shim_traversal_in_string(expr, true);
    match shimmed {
        Shimmed::Unchanged(e) => (as_keyword(e), e.range.clone(), diags),
        Shimmed::Traversal(t, range) => {
            let kw = t.filter(|t| t.steps.is_empty()).map(|t| t.root);
            (kw, range, diags)
        }
    }
}

/// `shimIsIgnoreChangesStar`: whether `expr` is the string `"*"`.
pub fn is_ignore_changes_star(expr: &Expr) -> bool {
    matches!(const_value(expr), Ok(ConstValue::String(s)) if s == "*")
}
