//! Decoding of constant arguments (`sensitive = true`, `description =
//! "..."`), as `gohcl.DecodeExpression` with no evaluation context: no
//! variables, no function calls.
//!
//! Until the expression evaluator (crate `lang`) lands, this reads literal
//! expressions only and reports anything else the way HCL does with no
//! context; the diagnostics match HCL's for both cases.

use hclsyntax::json::{to_expression, StringMode};
use hclsyntax::{Diagnostic, Diagnostics, Expr, ExprKind, Literal};

/// A constant value, as far as decoding configuration needs one.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    Null,
    Bool(bool),
    Number(String),
    String(String),
}

/// Evaluates an expression that may use no variables and call no functions.
pub fn const_value(expr: &Expr) -> Result<ConstValue, Diagnostics> {
    match &expr.kind {
        ExprKind::Literal(l) => Ok(literal(l)),
        ExprKind::Parens(inner) => const_value(inner),
        ExprKind::Template(parts) => {
            let mut s = String::new();
            for p in parts {
                match const_value(p)? {
                    ConstValue::String(t) | ConstValue::Number(t) => s.push_str(&t),
                    ConstValue::Bool(b) => s.push_str(if b { "true" } else { "false" }),
                    ConstValue::Null => {
                        return Err(vec![Diagnostic::error(
                            "Invalid template interpolation value",
                            "The expression result is null. Cannot include a null value in a string template.",
                            p.range.clone(),
                        )])
                    }
                }
            }
            Ok(ConstValue::String(s))
        }
        ExprKind::TemplateWrap(inner) => const_value(inner),
        ExprKind::Json(node) => {
            let (e, diags) = to_expression(node, StringMode::Template);
            if !diags.is_empty() {
                return Err(diags);
            }
            const_value(&e)
        }
        ExprKind::ScopeTraversal(t) => Err(vec![Diagnostic::error(
            "Variables not allowed",
            "Variables may not be used here.",
            t.root_range.clone(),
        )]),
        ExprKind::FunctionCall(call) => Err(vec![Diagnostic::error(
            "Function calls not allowed",
            "Functions may not be called here.",
            call.name_range.clone(),
        )]),
        _ => {
            // Any other shape holds a variable or function somewhere, or
            // computes a value; report the first variable if there is one.
            if let Some(t) = expr.variables().first() {
                return Err(vec![Diagnostic::error(
                    "Variables not allowed",
                    "Variables may not be used here.",
                    t.root_range.clone(),
                )]);
            }
            Err(vec![Diagnostic::error(
                "Unsuitable value type",
                "Unsuitable value: a constant value is required",
                expr.range.clone(),
            )])
        }
    }
}

fn literal(l: &Literal) -> ConstValue {
    match l {
        Literal::Null => ConstValue::Null,
        Literal::Bool(b) => ConstValue::Bool(*b),
        Literal::Number(n) => ConstValue::Number(n.clone()),
        Literal::String(s) => ConstValue::String(s.clone()),
    }
}

/// Decodes a bool argument (`sensitive = true`). Strings `"true"`/`"false"`
/// convert, as cty converts them.
pub fn decode_bool(expr: &Expr) -> Result<bool, Diagnostics> {
    match const_value(expr)? {
        ConstValue::Bool(b) => Ok(b),
        ConstValue::String(s) if s == "true" => Ok(true),
        ConstValue::String(s) if s == "false" => Ok(false),
        _ => Err(vec![unsuitable(expr, "a bool is required")]),
    }
}

/// Decodes a string argument (`description = "..."`). Numbers and bools
/// convert to strings, as cty converts them.
pub fn decode_string(expr: &Expr) -> Result<String, Diagnostics> {
    match const_value(expr)? {
        ConstValue::String(s) | ConstValue::Number(s) => Ok(s),
        ConstValue::Bool(b) => Ok(b.to_string()),
        ConstValue::Null => Err(vec![unsuitable(expr, "a string is required")]),
    }
}

fn unsuitable(expr: &Expr, what: &str) -> Diagnostic {
    Diagnostic::error(
        "Unsuitable value type",
        format!("Unsuitable value: {what}"),
        expr.range.clone(),
    )
}

/// Whether an expression reads no variable and calls no function: it can be
/// decoded without any evaluation context.
pub fn is_constant_expr(expr: &Expr) -> bool {
    fn walk(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Literal(_) => true,
            ExprKind::FunctionCall(_) | ExprKind::ScopeTraversal(_) => false,
            ExprKind::Parens(inner) | ExprKind::TemplateWrap(inner) => walk(inner),
            ExprKind::Template(parts) | ExprKind::Tuple(parts) => parts.iter().all(walk),
            ExprKind::Object(items) => items.iter().all(|i| walk(&i.key.expr) && walk(&i.value)),
            ExprKind::Json(node) => {
                let (e, diags) = to_expression(node, StringMode::Template);
                diags.is_empty() && !matches!(e.kind, ExprKind::Json(_)) && walk(&e)
            }
            _ => false,
        }
    }
    walk(expr)
}
