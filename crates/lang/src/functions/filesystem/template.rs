//! `templatefile` (OpenTofu `MakeTemplateFileFunc` and `renderTemplate`).
//!
//! It needs the function table of the calling context (templates may call
//! any function, and `templatefile` itself up to a depth limit), so it is a
//! function of unevaluated arguments: it evaluates them itself and finds the
//! table through the context.

use std::collections::BTreeMap;
use std::sync::Arc;

use cty::{Type, Value};
use hclsyntax::{has_errors, Diagnostics, Pos};

use crate::context::EvalContext;
use crate::functions::framework::{ExprClosure, FnError, Function, FunctionTable, Param};

/// OpenTofu's `TemplateMaxRecursionDepth`.
pub const TEMPLATE_MAX_RECURSION_DEPTH: usize = 1024;

/// Marker starting the message of a recursion-limit error, so that
/// enclosing calls can add their call sites to the trace.
const RECURSION_PREFIX: &str = "maximum recursion depth ";

/// Nested renders run on a fresh thread every this many levels, so deep
/// template recursion cannot exhaust the stack.
const LEVELS_PER_THREAD: usize = 8;

/// `templatefile` at recursion `depth`.
pub(super) fn templatefile(base: Arc<str>, depth: usize) -> Function {
    Function::with_closures(
        vec![
            Param::new("path", Type::String).allow_marked(),
            Param::new("vars", Type::Dynamic),
        ],
        None,
        move |args| call(&base, depth, args),
    )
}

/// HCL's `Diagnostics.Error()` text.
fn diags_text(diags: &Diagnostics) -> String {
    let errs: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    let one = |d: &hclsyntax::Diagnostic| match &d.subject {
        Some(r) => format!("{r}: {}; {}", d.summary, d.detail),
        None => format!("{}; {}", d.summary, d.detail),
    };
    match errs.as_slice() {
        [] => String::new(),
        [d] => one(d),
        [d, rest @ ..] => format!("{}, and {} other diagnostic(s)", one(d), rest.len()),
    }
}

/// The function table of the innermost context that has one.
fn functions_of(ctx: &EvalContext<'_>) -> Option<Arc<FunctionTable>> {
    let mut c = Some(ctx);
    while let Some(x) = c {
        if let Some(f) = x.functions() {
            return Some(f.clone());
        }
        c = x.parent();
    }
    None
}

fn eval_arg(c: &ExprClosure<'_>, i: usize) -> Result<Value, FnError> {
    let (v, diags) = c.value();
    if has_errors(&diags) {
        return Err(FnError::arg(i, diags_text(&diags)));
    }
    Ok(v)
}

fn call(base: &Arc<str>, depth: usize, args: &[ExprClosure<'_>]) -> Result<Value, FnError> {
    if args.len() != 2 {
        return Err(FnError::general(format!(
            "wrong number of arguments (2 required; {} given)",
            args.len()
        )));
    }
    let path = eval_arg(&args[0], 0)?;
    let vars = eval_arg(&args[1], 1)?;
    let path = cty::convert(&path, &Type::String).map_err(|e| FnError::arg(0, e.msg))?;
    if path.is_null() {
        return Err(FnError::arg(0, "argument must not be null"));
    }
    if vars.is_null() {
        return Err(FnError::arg(1, "argument must not be null"));
    }
    let (vars, mut marks) = vars.unmark_deep();
    if !path.is_known() || !vars.is_known() {
        let (_, pm) = path.unmark_deep();
        marks.extend(pm);
        return Ok(Value::dynamic().with_marks(marks));
    }
    let (path, path_marks) = path.unmark_with_marks();
    let path = path.as_str().unwrap_or_default().to_string();
    if depth > TEMPLATE_MAX_RECURSION_DEPTH {
        return Err(FnError::general(format!(
            "{RECURSION_PREFIX}{TEMPLATE_MAX_RECURSION_DEPTH} reached in  ... "
        )));
    }
    let text = super::read_text(base, &path, &path_marks)?;
    let (expr, diags) = hclsyntax::native::parse_template(
        &text,
        &path,
        Pos {
            line: 1,
            column: 1,
            byte: 0,
        },
    );
    if has_errors(&diags) {
        return Err(FnError::general(diags_text(&diags)));
    }
    let ty = vars.ty();
    if !ty.is_map() && !ty.is_object() {
        return Err(FnError::arg(1, "invalid vars value: must be a map"));
    }
    let var_map: BTreeMap<String, Value> = vars.as_attrs().cloned().unwrap_or_default();
    for name in var_map.keys() {
        if !hclsyntax::valid_identifier(name) {
            return Err(FnError::arg(
                1,
                format!(
                    "invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores",
                    super::super::collection::quote(name)
                ),
            ));
        }
    }
    for t in expr.variables() {
        if !var_map.contains_key(&t.root) {
            return Err(FnError::arg(
                1,
                format!(
                    "vars map does not contain key {}, referenced at {}",
                    super::super::collection::quote(&t.root),
                    t.root_range
                ),
            ));
        }
    }
    let mut table = functions_of(args[0].ctx)
        .map(|t| (*t).clone())
        .unwrap_or_default();
    table.insert("templatefile", templatefile(base.clone(), depth + 1));
    let ctx = EvalContext::new(var_map, Arc::new(table));
    let render = || crate::eval::eval_expr(&expr, &ctx);
    let (val, diags) = if depth % LEVELS_PER_THREAD == LEVELS_PER_THREAD - 1 {
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("templatefile".into())
                .stack_size(16 << 20)
                .spawn_scoped(s, render)
                .ok()
                .and_then(|h| h.join().ok())
        })
        .unwrap_or_else(render)
    } else {
        render()
    };
    if has_errors(&diags) {
        // Roll up a recursion-limit error from a nested call, adding this
        // call site to its trace.
        for d in diags.iter().filter(|d| d.is_error()) {
            if let Some(rest) = d.detail.find(RECURSION_PREFIX).map(|i| &d.detail[i..]) {
                let site = d
                    .subject
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                return Err(FnError::general(add_recursion_source(rest, &site)));
            }
        }
        return Err(FnError::general(diags_text(&diags)));
    }
    let marks: cty::ValueMarks = marks.into_iter().chain(path_marks).collect();
    Ok(val.with_marks(marks))
}

/// Rebuilds the recursion-limit message with one more source (OpenTofu's
/// `ErrorTemplateRecursionLimit`: the first sources up to the first
/// repetition, at most 16).
fn add_recursion_source(msg: &str, site: &str) -> String {
    let head = format!("{RECURSION_PREFIX}{TEMPLATE_MAX_RECURSION_DEPTH} reached in ");
    let body = msg
        .strip_prefix(&head)
        .and_then(|r| r.split(" ... ").next())
        .unwrap_or("");
    let mut trace: Vec<&str> = body.split(", ").filter(|s| !s.is_empty()).collect();
    let looped = trace.len() >= 16 || {
        let mut seen = trace.clone();
        seen.sort_unstable();
        seen.dedup();
        seen.len() != trace.len()
    };
    if !looped {
        trace.push(site);
    }
    format!("{head}{} ... ", trace.join(", "))
}
