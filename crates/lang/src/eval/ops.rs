//! Binary and unary operators (HCL's `BinaryOpExpr` and `UnaryOpExpr`
//! over cty's stdlib operator functions): operand conversion, short
//! circuits for `&&` and `||`, null and unknown handling, marks.

use cty::{convert::convert, Type, Value, ValueMarks};
use hclsyntax::{has_errors, BinaryOp, Diagnostic, Diagnostics, Expr, ExprKind, UnaryOp};

use super::eval;
use crate::context::EvalContext;

/// The type operands are converted to and the type of the result.
fn op_types(op: BinaryOp) -> (Type, Type) {
    use BinaryOp::*;
    match op {
        Or | And => (Type::Bool, Type::Bool),
        Equal | NotEqual => (Type::Dynamic, Type::Bool),
        Greater | GreaterOrEqual | Less | LessOrEqual => (Type::Number, Type::Bool),
        Add | Subtract | Multiply | Divide | Modulo => (Type::Number, Type::Number),
    }
}

fn operation_failed(expr: &Expr, msg: &str) -> Diagnostic {
    Diagnostic::error(
        "Operation failed",
        format!("Error during operation: {msg}."),
        expr.range.clone(),
    )
}

/// A binary operation. Left-deep chains (`a + b + c + ...`, which the
/// parser builds from any run of left-associative operators) are folded
/// from their innermost operation outwards without recursing, so a chain
/// of ten thousand terms needs no deep stack; the operands are evaluated
/// in the same order as by recursion (left before right).
pub(super) fn eval_binary(
    expr: &Expr,
    op: BinaryOp,
    lhs_expr: &Expr,
    rhs_expr: &Expr,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let mut spine = vec![(expr, op, lhs_expr, rhs_expr)];
    let mut innermost = lhs_expr;
    while let ExprKind::Binary { op, lhs, rhs } = &innermost.kind {
        spine.push((innermost, *op, lhs, rhs));
        innermost = lhs;
    }
    let mut acc = eval(innermost, ctx);
    for (expr, op, lhs_expr, rhs_expr) in spine.into_iter().rev() {
        acc = apply_to_operands(expr, op, lhs_expr, acc, rhs_expr, ctx);
    }
    acc
}

/// One operation of a chain: the left operand already evaluated (with its
/// diagnostics), the right one evaluated here.
fn apply_to_operands(
    expr: &Expr,
    op: BinaryOp,
    lhs_expr: &Expr,
    (given_lhs, lhs_diags): (Value, Diagnostics),
    rhs_expr: &Expr,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let (param_ty, result_ty) = op_types(op);
    let mut diags = Diagnostics::new();

    let lhs = match convert(&given_lhs, &param_ty) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "Invalid operand",
                    format!("Unsuitable value for left operand: {e}."),
                    lhs_expr.range.clone(),
                )
                .with_context(expr.range.clone()),
            );
            Value::unknown(param_ty.clone())
        }
    };
    let (given_rhs, rhs_diags) = eval(rhs_expr, ctx);
    let rhs = match convert(&given_rhs, &param_ty) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "Invalid operand",
                    format!("Unsuitable value for right operand: {e}."),
                    rhs_expr.range.clone(),
                )
                .with_context(expr.range.clone()),
            );
            Value::unknown(param_ty.clone())
        }
    };
    if has_errors(&diags) {
        diags.extend(lhs_diags);
        diags.extend(rhs_diags);
        return (Value::unknown(result_ty), diags);
    }

    // The operator functions unmark their operands and mark the result
    // with the union; unmarked operands (nearly all) skip that.
    let marks: Option<ValueMarks> = (lhs.is_marked() || rhs.is_marked())
        .then(|| lhs.marks().union(rhs.marks()).cloned().collect());
    let (lhs, rhs) = (lhs.unmark(), rhs.unmark());
    let mark = |v: Value| match &marks {
        Some(m) => v.marked_with(m.clone()),
        None => v,
    };

    if matches!(op, BinaryOp::Or | BinaryOp::And) {
        if let Some((v, d)) = short_circuit(op, &lhs, &rhs, &lhs_diags, &rhs_diags) {
            return (mark(v), d);
        }
    }

    diags.extend(lhs_diags);
    diags.extend(rhs_diags);
    if has_errors(&diags) {
        return (mark(Value::unknown(result_ty)), diags);
    }

    match apply_binary(op, &lhs, &rhs) {
        Ok(v) => (mark(v), diags),
        Err(msg) => {
            diags.push(operation_failed(expr, &msg));
            (Value::unknown(result_ty), diags)
        }
    }
}

/// The short circuits of `||` and `&&` (operands unmarked and converted).
fn short_circuit(
    op: BinaryOp,
    lhs: &Value,
    rhs: &Value,
    lhs_diags: &Diagnostics,
    rhs_diags: &Diagnostics,
) -> Option<(Value, Diagnostics)> {
    // The value that decides the result on its own: true for ||, false for &&.
    let decisive = op == BinaryOp::Or;
    let unknown = Value::unknown(Type::Bool);
    if !lhs.is_known() && !rhs.is_known() {
        if !has_errors(lhs_diags) {
            return Some((unknown, lhs_diags.clone()));
        }
        return None;
    }
    if lhs.as_bool() == Some(decisive) {
        return Some((Value::bool(decisive), lhs_diags.clone()));
    }
    if rhs.as_bool() == Some(decisive) {
        return Some((Value::bool(decisive), rhs_diags.clone()));
    }
    if !lhs.is_known() && rhs.as_bool() == Some(!decisive) {
        return Some((unknown, lhs_diags.clone()));
    }
    if !rhs.is_known() && lhs.as_bool() == Some(!decisive) {
        return Some((unknown, rhs_diags.clone()));
    }
    None
}

/// The operator's function on unmarked, converted operands. `Err` carries
/// the message of "Operation failed".
fn apply_binary(op: BinaryOp, lhs: &Value, rhs: &Value) -> Result<Value, String> {
    use BinaryOp::*;
    if matches!(op, Equal | NotEqual) {
        let eq = lhs.equals(rhs);
        return Ok(if op == Equal { eq } else { eq.not() });
    }
    if lhs.is_null() || rhs.is_null() {
        return Err("argument must not be null".into());
    }
    let result_ty = op_types(op).1;
    if !lhs.is_known() || !rhs.is_known() {
        return Ok(Value::unknown(result_ty));
    }
    let nan_msg = match op {
        Add => "can't compute sum of opposing infinities",
        Subtract => "can't subtract infinity from itself",
        Multiply => "can't multiply zero by infinity",
        Divide => "can't divide zero by zero or infinity by infinity",
        Modulo => "can't use modulo with zero and infinity",
        _ => "",
    };
    let r = match op {
        Or => Ok(lhs.or(rhs)),
        And => Ok(lhs.and(rhs)),
        Greater => lhs.greater_than(rhs),
        GreaterOrEqual => lhs.greater_than_or_equal_to(rhs),
        Less => lhs.less_than(rhs),
        LessOrEqual => lhs.less_than_or_equal_to(rhs),
        Add => lhs.add(rhs),
        Subtract => lhs.subtract(rhs),
        Multiply => lhs.multiply(rhs),
        Divide => lhs.divide(rhs),
        Modulo => modulo(lhs, rhs),
        Equal | NotEqual => unreachable!("handled above"),
    };
    r.map_err(|e| {
        if nan_msg.is_empty() {
            e.msg
        } else {
            nan_msg.to_string()
        }
    })
}

/// cty's `Modulo`: `x % 0` is `x` (even for infinities, as Go's pointer
/// comparison against the infinity constants never matches computed
/// infinities).
fn modulo(lhs: &Value, rhs: &Value) -> Result<Value, cty::ValueError> {
    if rhs.as_number().is_some_and(|n| n.sign() == 0) {
        return Ok(lhs.clone());
    }
    lhs.modulo(rhs)
}

pub(super) fn eval_unary(
    expr: &Expr,
    op: UnaryOp,
    operand: &Expr,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let ty = match op {
        UnaryOp::Negate => Type::Number,
        UnaryOp::Not => Type::Bool,
    };
    let (given, mut diags) = eval(operand, ctx);
    let val = match convert(&given, &ty) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "Invalid operand",
                    format!("Unsuitable value for unary operand: {e}."),
                    operand.range.clone(),
                )
                .with_context(expr.range.clone()),
            );
            Value::unknown(ty.clone())
        }
    };
    if has_errors(&diags) {
        return (Value::unknown(ty), diags);
    }
    // The operator functions allow marked operands and keep their marks.
    let (plain, marks) = val.unmark_with_marks();
    if plain.is_null() {
        diags.push(operation_failed(expr, "argument must not be null"));
        return (Value::unknown(ty), diags);
    }
    if !plain.is_known() {
        return (Value::unknown(ty).marked_with(marks), diags);
    }
    let r = match op {
        UnaryOp::Negate => plain.negate(),
        UnaryOp::Not => Ok(plain.not()),
    };
    match r {
        Ok(v) => (v.marked_with(marks), diags),
        Err(e) => {
            diags.push(operation_failed(expr, &e.msg));
            (Value::unknown(ty), diags)
        }
    }
}
