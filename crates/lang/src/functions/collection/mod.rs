//! Collection functions: OpenTofu's `internal/lang/funcs/collection.go`
//! (alltrue, anytrue, index, matchkeys, one, transpose and the failing
//! `list`/`map`) and the go-cty stdlib ones OpenTofu registers (chunklist,
//! coalescelist, compact, contains, distinct, flatten, reverse, slice, sort,
//! zipmap and the set functions); length, keys, values, lookup, merge,
//! concat, element, range and coalesce in [`access`].

mod access;
mod seq;
mod sets;

#[cfg(test)]
mod tests;

use cty::{Type, Value};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};

/// Registers this family's functions.
pub fn register(table: &mut FunctionTable) {
    table.insert("alltrue", alltrue());
    table.insert("anytrue", anytrue());
    table.insert("list", deprecated("list", "tolist([ ... ])", "list"));
    table.insert("map", deprecated("map", "tomap({ ... })", "map"));
    access::register(table);
    seq::register(table);
    sets::register(table);
}

/// gocty's conversion of a number to a Go `int`, with its error text.
pub(crate) fn go_int(v: &Value) -> Result<i64, String> {
    v.as_number()
        .and_then(|n| if n.is_int() { n.to_i64() } else { None })
        .ok_or_else(|| {
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
                .to_string()
        })
}

/// `cty.ListVal` / `cty.ListValEmpty`: a list of `vals`, or an empty list of
/// `ety` when there are none.
pub(crate) fn list_of(ety: &Type, vals: Vec<Value>) -> Result<Value, FnError> {
    if vals.is_empty() {
        return Ok(Value::list_empty(ety.clone()));
    }
    Ok(Value::list_infer(vals)?)
}

/// Go's `%q` of a string.
pub(crate) fn quote(s: &str) -> String {
    cty::format::go_quote(s)
}

/// OpenTofu `AllTrueFunc`.
fn alltrue() -> Function {
    Function::new(
        vec![Param::new("list", Type::list(Type::Bool))],
        None,
        |_| Ok(Type::Bool),
        |args, _| {
            let mut result = true;
            for v in args[0].as_elements().unwrap_or_default() {
                if !v.is_known() {
                    return Ok(Value::unknown(Type::Bool));
                }
                match v.as_bool() {
                    None => return Ok(Value::bool(false)),
                    Some(b) => result = result && b,
                }
                if !result {
                    return Ok(Value::bool(false));
                }
            }
            Ok(Value::bool(result))
        },
    )
}

/// OpenTofu `AnyTrueFunc`.
fn anytrue() -> Function {
    Function::new(
        vec![Param::new("list", Type::list(Type::Bool))],
        None,
        |_| Ok(Type::Bool),
        |args, _| {
            let mut has_unknown = false;
            for v in args[0].as_elements().unwrap_or_default() {
                if !v.is_known() {
                    has_unknown = true;
                    continue;
                }
                if v.as_bool() == Some(true) {
                    return Ok(Value::bool(true));
                }
            }
            if has_unknown {
                return Ok(Value::unknown(Type::Bool));
            }
            Ok(Value::bool(false))
        },
    )
}

/// `list` and `map`, which exist only to explain that they are gone.
fn deprecated(name: &'static str, syntax: &'static str, noun: &'static str) -> Function {
    let msg = format!(
        "the \"{name}\" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use {syntax} syntax to write a literal {noun}"
    );
    let msg2 = msg.clone();
    Function::new(
        Vec::new(),
        Some(
            Param::new("vals", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic()
                .allow_null(),
        ),
        move |_| Err(FnError::general(msg.clone())),
        move |_, _| Err(FnError::general(msg2.clone())),
    )
}
