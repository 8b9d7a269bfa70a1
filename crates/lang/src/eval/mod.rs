//! Expression evaluation over the lowered syntax tree, following HCL's
//! `hclsyntax` (and `json`) `Value` methods: the same results, unknown and
//! mark propagation, and the same diagnostics with the same ranges.
//!
//! Evaluation recurses once per nesting level of the tree. Trees deeper
//! than [`INLINE_DEPTH`] are evaluated on a thread whose stack is sized for
//! their depth, so long operator chains (which the parser accepts up to
//! its own nesting limit) evaluate as they do in Terraform; trees deeper
//! than [`MAX_EVAL_DEPTH`] are refused with a diagnostic.

mod call;
mod collections;
mod conditional;
mod for_expr;
mod json;
mod ops;
mod splat;
mod template;
mod traversal;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_console;
#[cfg(test)]
mod tests_errors;

use cty::{Type, Value};
use hclsyntax::{Diagnostic, Diagnostics, Expr, ExprKind};

use crate::context::EvalContext;

pub use traversal::{get_attr, index_value, literal_value, traverse_abs, traverse_rel};

/// Trees at most this deep are evaluated on the caller's stack.
pub const INLINE_DEPTH: usize = 48;

/// Trees deeper than this are not evaluated.
pub const MAX_EVAL_DEPTH: usize = 20_000;

/// Stack reserved per nesting level when evaluating on a big-stack thread
/// (debug builds use several kilobytes per level; the memory is only
/// touched as used).
const STACK_PER_LEVEL: usize = 64 * 1024;

/// Evaluates `expr` in `ctx` (HCL's `Expression.Value`).
///
/// Errors come back as diagnostics together with a placeholder value
/// (usually an unknown of the best type known), never as a panic.
pub fn eval_expr(expr: &Expr, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    let depth = expr_depth(expr);
    if depth > MAX_EVAL_DEPTH {
        return (
            Value::dynamic(),
            vec![Diagnostic::error(
                "Expression too deeply nested",
                format!(
                    "This expression nests more than {MAX_EVAL_DEPTH} levels deep, which is more than can be evaluated."
                ),
                expr.range.clone(),
            )],
        );
    }
    if depth <= INLINE_DEPTH {
        return eval(expr, ctx);
    }
    let stack = (depth + 16).saturating_mul(STACK_PER_LEVEL);
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("lang-eval".into())
            .stack_size(stack)
            .spawn_scoped(s, || eval(expr, ctx));
        match handle {
            Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            // No thread available: evaluate here and hope the stack holds.
            Err(_) => eval(expr, ctx),
        }
    })
}

/// The nesting depth of an expression tree as evaluation recurses into
/// it, computed without recursion. The left operand of a binary operation
/// counts at its parent's depth: chains of operations are evaluated
/// iteratively (see `ops::eval_binary`).
pub fn expr_depth(expr: &Expr) -> usize {
    let mut max = 0;
    let mut stack: Vec<(&Expr, usize)> = vec![(expr, 1)];
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        if let ExprKind::Binary { lhs, rhs, .. } = &e.kind {
            stack.push((lhs, d));
            stack.push((rhs, d + 1));
            continue;
        }
        for_each_child(e, &mut |c| stack.push((c, d + 1)));
    }
    max
}

/// Calls `f` on each direct sub-expression of `e`.
fn for_each_child<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    match &e.kind {
        ExprKind::Literal(_) | ExprKind::AnonSymbol | ExprKind::ScopeTraversal(_) => {}
        // JSON values nest as deep as the JSON parser allows (128).
        ExprKind::Json(_) => {}
        ExprKind::Template(parts) | ExprKind::Tuple(parts) => parts.iter().for_each(f),
        ExprKind::TemplateWrap(x) | ExprKind::TemplateJoin(x) | ExprKind::Parens(x) => f(x),
        ExprKind::RelativeTraversal { source, .. } => f(source),
        ExprKind::Index {
            collection, key, ..
        } => {
            f(collection);
            f(key);
        }
        ExprKind::Splat { source, each, .. } => {
            f(source);
            f(each);
        }
        ExprKind::FunctionCall(call) => call.args.iter().for_each(f),
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => {
            f(condition);
            f(true_result);
            f(false_result);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::Unary { operand, .. } => f(operand),
        ExprKind::Object(items) => {
            for item in items {
                f(&item.key.expr);
                f(&item.value);
            }
        }
        ExprKind::For(fe) => {
            f(&fe.collection);
            if let Some(k) = &fe.key_expr {
                f(k);
            }
            f(&fe.value_expr);
            if let Some(c) = &fe.condition {
                f(c);
            }
        }
    }
}

/// The recursive evaluator behind [`eval_expr`].
pub(crate) fn eval(expr: &Expr, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    match &expr.kind {
        ExprKind::Literal(lit) => match literal_value(lit) {
            Ok(v) => (v, Vec::new()),
            Err(msg) => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid number literal",
                    msg,
                    expr.range.clone(),
                )],
            ),
        },
        ExprKind::Template(parts) => template::eval_template(expr, parts, ctx),
        ExprKind::TemplateWrap(inner) => eval(inner, ctx),
        ExprKind::TemplateJoin(tuple) => template::eval_template_join(expr, tuple, ctx),
        ExprKind::ScopeTraversal(t) => traverse_abs(t, ctx),
        ExprKind::RelativeTraversal { source, steps } => {
            let (v, mut diags) = eval(source, ctx);
            let (v, d) = traverse_rel(&v, steps);
            diags.extend(d);
            (v, diags)
        }
        ExprKind::Index {
            collection,
            key,
            open_bracket_range,
        } => {
            let (coll, mut diags) = eval(collection, ctx);
            let (key, d) = eval(key, ctx);
            diags.extend(d);
            let bracket = open_bracket_range.to(&expr.range);
            let (v, d) = index_value(&coll, &key, &bracket);
            diags.extend(d);
            (v, diags)
        }
        ExprKind::Splat {
            source,
            each,
            marker_range,
        } => splat::eval_splat(expr, source, each, marker_range, ctx),
        ExprKind::AnonSymbol => (ctx.anon_value(), Vec::new()),
        ExprKind::FunctionCall(call) => call::eval_call(expr, call, ctx),
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => conditional::eval_conditional(expr, condition, true_result, false_result, ctx),
        ExprKind::Binary { op, lhs, rhs } => ops::eval_binary(expr, *op, lhs, rhs, ctx),
        ExprKind::Unary { op, operand } => ops::eval_unary(expr, *op, operand, ctx),
        ExprKind::Tuple(items) => collections::eval_tuple(items, ctx),
        ExprKind::Object(items) => collections::eval_object(items, ctx),
        ExprKind::For(f) => for_expr::eval_for(expr, f, ctx),
        ExprKind::Parens(inner) => eval(inner, ctx),
        ExprKind::Json(node) => json::eval_json(node, ctx),
    }
}

/// HCL's `StartRange` of an expression: where a problem with the
/// expression as a whole is pointed at when the whole would be too much
/// (function-argument errors).
pub fn start_range(expr: &Expr) -> hclsyntax::Range {
    match &expr.kind {
        ExprKind::FunctionCall(call) => call.name_range.to(&call.open_paren_range),
        ExprKind::Conditional { condition, .. } => start_range(condition),
        ExprKind::Binary { lhs, .. } => start_range(lhs),
        ExprKind::Index {
            open_bracket_range, ..
        } => open_bracket_range.clone(),
        ExprKind::Parens(inner) => start_range(inner),
        ExprKind::Template(parts) if !parts.is_empty() => start_range(&parts[0]),
        // A quoted string without interpolations is HCL's template of one
        // literal part, which starts inside the quotes.
        ExprKind::Literal(hclsyntax::ast::Literal::String(_))
            if expr.range.start.line == expr.range.end.line
                && expr.range.end.byte >= expr.range.start.byte + 2 =>
        {
            let r = &expr.range;
            let (mut start, mut end) = (r.start, r.end);
            start.column += 1;
            start.byte += 1;
            end.column -= 1;
            end.byte -= 1;
            hclsyntax::Range::new(r.filename.clone(), start, end)
        }
        ExprKind::TemplateJoin(inner) => start_range(inner),
        ExprKind::Splat { marker_range, .. } => marker_range.clone(),
        ExprKind::For(f) => f.open_range.clone(),
        ExprKind::Tuple(_) | ExprKind::Object(_) => {
            let r = &expr.range;
            let mut end = r.start;
            end.column += 1;
            end.byte += 1;
            hclsyntax::Range::new(r.filename.clone(), r.start, end.min(r.end))
        }
        ExprKind::Unary { .. } => {
            let r = &expr.range;
            let mut end = r.start;
            end.column += 1;
            end.byte += 1;
            hclsyntax::Range::new(r.filename.clone(), r.start, end.min(r.end))
        }
        _ => expr.range.clone(),
    }
}

/// An unknown value of `ty` carrying the marks of every value in `from`.
pub(crate) fn unknown_with_marks<'a>(ty: Type, from: impl IntoIterator<Item = &'a Value>) -> Value {
    let mut v = Value::unknown(ty);
    for f in from {
        v = v.with_marks(f.marks().iter().cloned());
    }
    v
}
