//! Function calls (HCL's `FunctionCallExpr`): lookup with `core::`
//! aliases, `...` expansion of the last argument, argument conversion to
//! the parameter types, and the diagnostics for each way a call can fail.
//! Functions taking unevaluated expressions (`try`, `can`) get closures.

use cty::{convert::convert, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, FunctionCall, Range};

use super::{eval, start_range};
use crate::context::EvalContext;
use crate::functions::framework::{ExprClosure, FnError, Function};

use super::traversal::go_quote;

/// One argument after `...` expansion: an expression, or an element of the
/// expanded collection (reported at the expanded expression).
enum Arg<'a> {
    Expr(&'a Expr),
    Value(Value, &'a Expr),
}

impl Arg<'_> {
    fn expr(&self) -> &Expr {
        match self {
            Arg::Expr(e) | Arg::Value(_, e) => e,
        }
    }
}

pub(super) fn eval_call(
    expr: &Expr,
    call: &FunctionCall,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let range = expr.range.clone();
    let func = match ctx.lookup_function(&call.name) {
        Some(Some(f)) => f,
        None => {
            return fail(Diagnostic::error(
                "Function calls not allowed",
                "Functions may not be called here.",
                range,
            ))
        }
        Some(None) => return fail(unknown_function(call, ctx, &range)),
    };

    if let Some(closure_impl) = &func.closure {
        return call_with_closures(expr, call, func, closure_impl, ctx);
    }

    let mut diags = Diagnostics::new();
    let mut args: Vec<Arg<'_>> = call.args.iter().map(Arg::Expr).collect();
    if call.expand_final {
        let Some(expand_expr) = call.args.last() else {
            return (Value::dynamic(), diags);
        };
        args.pop();
        let (expand_val, expand_diags) = eval(expand_expr, ctx);
        let failed = has_errors(&expand_diags);
        diags.extend(expand_diags);
        if failed {
            return (Value::dynamic(), diags);
        }
        let invalid = |detail: &str| {
            Diagnostic::error(
                "Invalid expanding argument value",
                detail,
                expand_expr.range.clone(),
            )
            .with_context(range.clone())
        };
        let ty = expand_val.ty();
        if ty.is_dynamic() {
            if expand_val.is_null() {
                diags.push(invalid(
                    "The expanding argument (indicated by ...) must not be null.",
                ));
            }
            return (Value::dynamic(), diags);
        } else if ty.is_tuple() || ty.is_list() || ty.is_set() {
            if expand_val.is_null() {
                diags.push(invalid(
                    "The expanding argument (indicated by ...) must not be null.",
                ));
                return (Value::dynamic(), diags);
            }
            if !expand_val.is_known() {
                return (Value::dynamic(), diags);
            }
            let (expand_val, marks) = expand_val.unmark_with_marks();
            for elem in expand_val.as_elements().unwrap_or_default() {
                args.push(Arg::Value(
                    elem.with_marks(marks.iter().cloned()),
                    expand_expr,
                ));
            }
        } else {
            diags.push(invalid(
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
            ));
            return (Value::dynamic(), diags);
        }
    }

    if let Some(d) = check_arity(call, func, args.len(), |i| args[i].expr(), &range) {
        return fail(d);
    }

    let mut vals = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        let param = func.param_for(i).expect("arity checked above");
        let val = match arg {
            Arg::Expr(e) => {
                let (v, d) = eval(e, ctx);
                diags.extend(d);
                v
            }
            Arg::Value(v, _) => v.clone(),
        };
        let val = match convert(&val, &param.ty) {
            Ok(v) => v,
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: {e}.",
                            go_quote(&param.name)
                        ),
                        start_range(arg.expr()),
                    )
                    .with_context(range.clone()),
                );
                val
            }
        };
        vals.push(val);
    }
    if has_errors(&diags) {
        return (Value::dynamic(), diags);
    }

    match func.call(&vals) {
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(call_error(
                call,
                func,
                &e,
                |i| args.get(i).map(Arg::expr),
                &range,
            ));
            (Value::dynamic(), diags)
        }
    }
}

fn fail(d: Diagnostic) -> (Value, Diagnostics) {
    (Value::dynamic(), vec![d])
}

/// "Call to unknown function", with OpenTofu's wording for namespaced
/// names.
fn unknown_function(call: &FunctionCall, ctx: &EvalContext<'_>, range: &Range) -> Diagnostic {
    let name = &call.name;
    let (summary, detail) = match name.rfind("::") {
        Some(i) => {
            let (namespace, func) = (&name[..i + 2], &name[i + 2..]);
            if namespace == "core::" {
                (
                    "Call to unknown function".to_string(),
                    format!(
                        "There is no builtin (core::) function named {}.",
                        go_quote(func)
                    ),
                )
            } else {
                let parts: Vec<&str> = namespace.trim_end_matches("::").split("::").collect();
                let provider_known = ctx
                    .function_names()
                    .iter()
                    .any(|n| n.starts_with(namespace));
                if parts.len() == 2 && parts[0] == "provider" && provider_known {
                    (
                        "Function not found in provider".to_string(),
                        format!("Function {} was not registered by provider", go_quote(name)),
                    )
                } else if parts.len() == 2 && parts[0] == "provider" {
                    (
                        "Unknown function provider".to_string(),
                        format!(
                            "Provider {} does not exist within the required_providers of this module",
                            go_quote(parts[1])
                        ),
                    )
                } else {
                    (
                        "Invalid function format".to_string(),
                        format!(
                            "Expected provider::<provider_name>::<function_name>, instead found \"{namespace}{func}\""
                        ),
                    )
                }
            }
        }
        None => {
            let names = ctx.function_names();
            let suggestion = super::traversal::suggest(name, names)
                .map(|s| format!(" Did you mean {}?", go_quote(s)))
                .unwrap_or_default();
            (
                "Call to unknown function".to_string(),
                format!("There is no function named {}.{suggestion}", go_quote(name)),
            )
        }
    };
    Diagnostic::error(summary, detail, call.name_range.clone()).with_context(range.clone())
}

/// "Not enough function arguments" / "Too many function arguments".
fn check_arity<'a>(
    call: &FunctionCall,
    func: &Function,
    n: usize,
    arg_expr: impl Fn(usize) -> &'a Expr,
    range: &Range,
) -> Option<Diagnostic> {
    let np = func.params.len();
    if n < np {
        let qual = if func.var_param.is_some() {
            " at least"
        } else {
            ""
        };
        return Some(
            Diagnostic::error(
                "Not enough function arguments",
                format!(
                    "Function {} expects{qual} {np} argument(s). Missing value for {}.",
                    go_quote(&call.name),
                    go_quote(&func.params[n].name)
                ),
                call.close_paren_range.clone(),
            )
            .with_context(range.clone()),
        );
    }
    if func.var_param.is_none() && n > np {
        return Some(
            Diagnostic::error(
                "Too many function arguments",
                format!(
                    "Function {} expects only {np} argument(s).",
                    go_quote(&call.name)
                ),
                start_range(arg_expr(np)),
            )
            .with_context(range.clone()),
        );
    }
    None
}

/// The diagnostic for an error returned by a function.
fn call_error<'a>(
    call: &FunctionCall,
    func: &Function,
    err: &FnError,
    arg_expr: impl Fn(usize) -> Option<&'a Expr>,
    range: &Range,
) -> Diagnostic {
    let general = || {
        Diagnostic::error(
            "Error in function call",
            format!("Call to function {} failed: {err}.", go_quote(&call.name)),
            call.name_range.to(&call.open_paren_range),
        )
        .with_context(range.clone())
    };
    match err {
        FnError::Arg { index, .. } => match (func.param_for(*index), arg_expr(*index)) {
            (Some(param), Some(arg)) => Diagnostic::error(
                "Invalid function argument",
                format!(
                    "Invalid value for {} parameter: {err}.",
                    go_quote(&param.name)
                ),
                start_range(arg),
            )
            .with_context(range.clone()),
            (Some(param), None) => Diagnostic::error(
                "Invalid function argument",
                format!(
                    "Invalid value for {} parameter: {err}.",
                    go_quote(&param.name)
                ),
                range.clone(),
            ),
            _ => general(),
        },
        FnError::General(_) => general(),
    }
}

/// Calls a function whose parameters take unevaluated expressions.
fn call_with_closures(
    expr: &Expr,
    call: &FunctionCall,
    func: &Function,
    closure_impl: &crate::functions::framework::ClosureFn,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let range = expr.range.clone();
    if call.expand_final {
        // Expanding a collection into expression closures is meaningless.
        let last = call.args.last().map_or(range.clone(), |a| a.range.clone());
        return fail(
            Diagnostic::error(
                "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                last,
            )
            .with_context(range),
        );
    }
    if let Some(d) = check_arity(call, func, call.args.len(), |i| &call.args[i], &range) {
        return fail(d);
    }
    let closures: Vec<ExprClosure<'_>> = call
        .args
        .iter()
        .map(|e| ExprClosure { expr: e, ctx })
        .collect();
    match closure_impl(&closures) {
        Ok(v) => (v, Vec::new()),
        Err(e) => (
            Value::dynamic(),
            vec![call_error(call, func, &e, |i| call.args.get(i), &range)],
        ),
    }
}
