//! `templatestring` (OpenTofu `MakeTemplateStringFunc` and
//! `renderTemplate`): parses its first argument as an HCL template and
//! renders it with the second argument's attributes as variables and the
//! caller's function table.

use std::sync::Arc;

use cty::{Type, Value};
use hclsyntax::{has_errors, Diagnostics, Pos};

use crate::context::EvalContext;
use crate::functions::framework::{FnError, Function, FunctionTable, Param};

const TEMPLATE_FILENAME: &str = "NoFileNeeded";

/// hcl `Diagnostics.Error()`.
fn diags_error(diags: &Diagnostics) -> String {
    let errs: Vec<_> = diags
        .iter()
        .filter(|d| has_errors(std::slice::from_ref(d)))
        .collect();
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

/// OpenTofu `renderTemplate`.
fn render(
    template: &str,
    vars: &Value,
    funcs: Option<Arc<FunctionTable>>,
) -> Result<Value, FnError> {
    let (expr, diags) = hclsyntax::native::parse_template(
        template,
        TEMPLATE_FILENAME,
        Pos {
            line: 1,
            column: 1,
            byte: 0,
        },
    );
    if has_errors(&diags) {
        return Err(FnError::general(diags_error(&diags)));
    }
    let ty = vars.ty();
    if !(ty.is_map() || ty.is_object()) {
        return Err(FnError::arg(1, "invalid vars value: must be a map"));
    }
    let variables = vars.as_attrs().cloned().unwrap_or_default();
    for name in variables.keys() {
        if !hclsyntax::valid_identifier(name) {
            return Err(FnError::arg(
                1,
                format!(
                    "invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores",
                    cty::format::go_quote(name)
                ),
            ));
        }
    }
    for traversal in expr.variables() {
        if !variables.contains_key(&traversal.root) {
            return Err(FnError::arg(
                1,
                format!(
                    "vars map does not contain key {}, referenced at {}",
                    cty::format::go_quote(&traversal.root),
                    traversal.root_range
                ),
            ));
        }
    }
    let funcs = funcs.unwrap_or_else(|| Arc::new(FunctionTable::new()));
    let ctx = EvalContext::new(variables, funcs);
    let (val, diags) = crate::eval::eval_expr(&expr, &ctx);
    if has_errors(&diags) {
        return Err(FnError::general(diags_error(&diags)));
    }
    Ok(val)
}

/// Builds `templatestring`. It needs the function table its templates may
/// call, which is only complete once every function is registered, so it
/// is not part of [`register`](super::register): the scope that builds the
/// table inserts it with a callback returning that table.
pub fn templatestring_function(
    funcs: impl Fn() -> Option<Arc<FunctionTable>> + Send + Sync + 'static,
) -> Function {
    let funcs = Arc::new(funcs);
    let funcs2 = funcs.clone();
    Function::new(
        vec![
            Param::new("data", Type::String).allow_marked(),
            Param::new("vars", Type::Dynamic).allow_marked(),
        ],
        None,
        move |args| {
            if !args[0].is_known() || !args[1].is_known() {
                return Ok(Type::Dynamic);
            }
            let (data, _) = args[0].unmark_deep();
            let (vars, _) = args[1].unmark_with_marks();
            let v = render(data.as_str().unwrap_or_default(), &vars, funcs())?;
            Ok(v.ty().clone())
        },
        move |args, _| {
            let (data, data_marks) = args[0].unmark_with_marks();
            let (vars, vars_marks) = args[1].unmark_with_marks();
            let v = render(data.as_str().unwrap_or_default(), &vars, funcs2())?;
            Ok(v.with_marks(data_marks).with_marks(vars_marks))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f() -> Function {
        templatestring_function(|| None)
    }

    #[test]
    fn renders() {
        let vars = Value::object_from([("name", Value::string("world"))]);
        let r = f()
            .call(&[Value::string("Hello, ${name}!"), vars.clone()])
            .unwrap();
        assert_eq!(r, Value::string("Hello, world!"));
        let r = f()
            .call(&[
                Value::string("%{ for x in [1, 2] }${x}%{ endfor }"),
                vars.clone(),
            ])
            .unwrap();
        assert_eq!(r, Value::string("12"));
        let e = f()
            .call(&[Value::string("${nope}"), vars.clone()])
            .unwrap_err();
        assert_eq!(
            e.message(),
            "vars map does not contain key \"nope\", referenced at NoFileNeeded:1,3-7"
        );
        let e = f()
            .call(&[Value::string("x"), Value::string("y")])
            .unwrap_err();
        assert_eq!(e.message(), "invalid vars value: must be a map");
        let bad = Value::object_from([("1a", Value::string("x"))]);
        assert!(f().call(&[Value::string("x"), bad]).is_err());
        let e = f().call(&[Value::string("${"), vars]).unwrap_err();
        assert!(
            e.message().starts_with("NoFileNeeded:1,"),
            "{}",
            e.message()
        );
    }
}
