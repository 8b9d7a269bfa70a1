//! Helpers for the function tests of this crate's families: calling a
//! function from a table the way the evaluator does (arguments converted
//! to the parameter types first).

use cty::{Type, Value};

use crate::functions::framework::{FnError, FunctionTable};

/// Calls `name` in `table` with `args` converted to the parameter types.
pub(crate) fn call(table: &FunctionTable, name: &str, args: Vec<Value>) -> Result<Value, FnError> {
    let f = table
        .get(name)
        .unwrap_or_else(|| panic!("no function {name}"));
    let mut conv = Vec::with_capacity(args.len());
    for (i, a) in args.into_iter().enumerate() {
        let ty = f.param_for(i).map_or(Type::Dynamic, |p| p.ty.clone());
        let v = cty::convert(&a, &ty)
            .map_err(|e| FnError::arg(i, format!("conversion failed: {}", e.msg)))?;
        conv.push(v);
    }
    f.call(&conv)
}

/// The error message of a call expected to fail.
pub(crate) fn call_err(table: &FunctionTable, name: &str, args: Vec<Value>) -> String {
    match call(table, name, args) {
        Ok(v) => panic!("{name}: expected an error, got {v:?}"),
        Err(e) => e.message().to_string(),
    }
}

pub(crate) fn num(n: i64) -> Value {
    Value::number_int(n)
}

pub(crate) fn s(v: &str) -> Value {
    Value::string(v)
}

pub(crate) fn slist(v: &[&str]) -> Value {
    Value::list(Type::String, v.iter().map(|&x| Value::string(x)).collect()).expect("strings")
}

pub(crate) fn tuple(v: Vec<Value>) -> Value {
    Value::tuple(v)
}
