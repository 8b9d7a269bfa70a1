//! Static analysis of expressions, as HCL's `ExprList`, `ExprMap`,
//! `AbsTraversalForExpr`, `RelTraversalForExpr`, `ExprAsKeyword` and
//! `ExprCall`: reading the *shape* of an expression without evaluating it
//! (`depends_on = [aws_instance.a]`, `type = list(string)`,
//! `ignore_changes = all`).
//!
//! A JSON value is first read as the native expression its strings spell
//! (`"aws_instance.a"`), as HCL's JSON syntax does for these helpers.

use std::borrow::Cow;

use crate::ast::{Expr, ExprKind, Literal, ObjectKey, StepKind, Traversal, TraversalStep};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::json::{to_expression, StringMode};

/// The native view of an expression: JSON values become the expressions
/// their strings spell; native expressions are returned as they are.
pub fn native_view(expr: &Expr) -> (Cow<'_, Expr>, Diagnostics) {
    match &expr.kind {
        ExprKind::Json(node) => {
            let (e, diags) = to_expression(node, StringMode::Expression);
            (Cow::Owned(e), diags)
        }
        _ => (Cow::Borrowed(expr), Vec::new()),
    }
}

/// The elements of a static list or tuple expression (`[a, b]`).
pub fn expr_list(expr: &Expr) -> Result<Vec<Expr>, Diagnostics> {
    let (view, diags) = native_view(expr);
    if !diags.is_empty() {
        return Err(diags);
    }
    match &view.unwrap_parens().kind {
        ExprKind::Tuple(items) => Ok(items.clone()),
        _ => Err(vec![Diagnostic::error(
            "Invalid expression",
            "A static list expression is required.",
            expr.range.clone(),
        )]),
    }
}

/// The key/value pairs of a static object expression (`{ a = b }`).
pub fn expr_map(expr: &Expr) -> Result<Vec<(ObjectKey, Expr)>, Diagnostics> {
    let (view, diags) = native_view(expr);
    if !diags.is_empty() {
        return Err(diags);
    }
    match &view.unwrap_parens().kind {
        ExprKind::Object(items) => Ok(items
            .iter()
            .map(|i| (i.key.clone(), i.value.clone()))
            .collect()),
        _ => Err(vec![Diagnostic::error(
            "Invalid expression",
            "A static map expression is required.",
            expr.range.clone(),
        )]),
    }
}

const ABS_TRAVERSAL_DETAIL: &str = "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.";

/// The expression as an absolute traversal (`aws_instance.a[0]`), allowing
/// only attribute access and constant indexes.
pub fn abs_traversal(expr: &Expr) -> Result<Traversal, Diagnostics> {
    let (view, diags) = native_view(expr);
    if !diags.is_empty() {
        return Err(diags);
    }
    let invalid = || {
        vec![Diagnostic::error(
            "Invalid expression",
            ABS_TRAVERSAL_DETAIL,
            expr.range.clone(),
        )]
    };
    traversal_of(view.unwrap_parens()).ok_or_else(invalid)
}

/// Like [`abs_traversal`] but also accepting the keyword-like literals
/// `null`, `true` and `false`, which HCL reads as root names here.
fn traversal_of(expr: &Expr) -> Option<Traversal> {
    match &expr.kind {
        ExprKind::ScopeTraversal(t) => Some(t.clone()),
        ExprKind::Literal(Literal::Null) => Some(keyword_traversal("null", expr)),
        ExprKind::Literal(Literal::Bool(b)) => {
            Some(keyword_traversal(if *b { "true" } else { "false" }, expr))
        }
        ExprKind::RelativeTraversal { source, steps } => {
            let mut t = traversal_of(source.unwrap_parens())?;
            t.steps.extend(steps.iter().cloned());
            Some(t)
        }
        ExprKind::Index {
            collection, key, ..
        } => {
            let mut t = traversal_of(collection.unwrap_parens())?;
            let lit = match &key.unwrap_parens().kind {
                ExprKind::Literal(l) => l.clone(),
                ExprKind::Template(parts) if parts.len() == 1 => match &parts[0].kind {
                    ExprKind::Literal(l) => l.clone(),
                    _ => return None,
                },
                _ => return None,
            };
            t.steps.push(TraversalStep {
                kind: StepKind::Index(lit),
                range: key.range.clone(),
            });
            Some(t)
        }
        _ => None,
    }
}

fn keyword_traversal(name: &str, expr: &Expr) -> Traversal {
    Traversal {
        root: name.to_string(),
        root_range: expr.range.clone(),
        steps: Vec::new(),
    }
}

/// The single bare identifier an expression is (`all`, `string`), if it is
/// one: HCL's `ExprAsKeyword`.
pub fn as_keyword(expr: &Expr) -> Option<String> {
    let (view, _) = native_view(expr);
    match traversal_of(view.unwrap_parens()) {
        Some(t) if t.steps.is_empty() => Some(t.root),
        _ => None,
    }
}

/// A function-call-shaped expression read statically (`list(string)`):
/// HCL's `ExprCall`.
#[derive(Debug, Clone)]
pub struct StaticCall {
    pub name: String,
    pub name_range: crate::pos::Range,
    pub args: Vec<Expr>,
    pub args_range: crate::pos::Range,
}

/// The expression as a static call, if it is written as one.
pub fn expr_call(expr: &Expr) -> Option<StaticCall> {
    let (view, _) = native_view(expr);
    match &view.unwrap_parens().kind {
        ExprKind::FunctionCall(call) => Some(StaticCall {
            name: call.name.clone(),
            name_range: call.name_range.clone(),
            args: call.args.clone(),
            args_range: call.open_paren_range.to(&call.close_paren_range),
        }),
        _ => None,
    }
}
