//! Functions about evaluation itself: try and can (which take their
//! arguments unevaluated; HCL's `ext/tryfunc`), and sensitive,
//! nonsensitive, issensitive (OpenTofu `funcs/sensitive.go`).

use cty::{Mark, Type, Value};
use hclsyntax::has_errors;

use crate::functions::framework::{ExprClosure, FnError, Function, FunctionTable, Param};

pub(super) fn register(t: &mut FunctionTable) {
    t.insert(
        "try",
        Function::with_closures(
            vec![],
            Some(Param::new("expressions", Type::Dynamic)),
            try_impl,
        ),
    );
    t.insert(
        "can",
        Function::with_closures(
            vec![Param::new("expression", Type::Dynamic)],
            None,
            can_impl,
        ),
    );
    t.insert("sensitive", mark_fn(MarkOp::Add));
    t.insert("nonsensitive", mark_fn(MarkOp::Remove));
    t.insert(
        "issensitive",
        Function::new(
            vec![marks_param()],
            None,
            |_| Ok(Type::Bool),
            |args, _| Ok(Value::bool(args[0].has_mark(&Mark::Sensitive))),
        ),
    );
}

/// tofu's `try`: the first argument that evaluates without errors.
fn try_impl(args: &[ExprClosure<'_>]) -> Result<Value, FnError> {
    if args.is_empty() {
        return Err(FnError::general("at least one argument is required"));
    }
    let mut all = Vec::new();
    for closure in args {
        if closure.depends_on_unknowns() {
            // Whether this one succeeds cannot be decided yet.
            return Ok(Value::dynamic());
        }
        let (v, diags) = closure.value();
        if has_errors(&diags) {
            all.extend(diags);
            continue;
        }
        return Ok(v);
    }
    let mut buf = String::from("no expression succeeded:\n");
    for d in &all {
        match &d.subject {
            Some(s) => buf.push_str(&format!("- {} (at {s})\n  {}\n", d.summary, d.detail)),
            None => buf.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
        }
    }
    buf.push_str("\nAt least one expression must produce a successful result");
    Err(FnError::general(buf))
}

/// tofu's `can`: whether the argument evaluates without errors.
fn can_impl(args: &[ExprClosure<'_>]) -> Result<Value, FnError> {
    let closure = &args[0];
    if closure.depends_on_unknowns() {
        return Ok(Value::unknown(Type::Bool));
    }
    let (_, diags) = closure.value();
    Ok(Value::bool(!has_errors(&diags)))
}

fn marks_param() -> Param {
    Param::new("value", Type::Dynamic)
        .allow_unknown()
        .allow_null()
        .allow_marked()
        .allow_dynamic()
}

enum MarkOp {
    Add,
    Remove,
}

fn mark_fn(op: MarkOp) -> Function {
    Function::new(
        vec![marks_param()],
        None,
        |args| Ok(args[0].ty().clone()),
        move |args, _| {
            let (v, mut marks) = args[0].unmark_with_marks();
            match op {
                MarkOp::Add => {
                    marks.insert(Mark::Sensitive);
                }
                MarkOp::Remove => {
                    marks.remove(&Mark::Sensitive);
                }
            }
            Ok(v.with_marks(marks))
        },
    )
}
