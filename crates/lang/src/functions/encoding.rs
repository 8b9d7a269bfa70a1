//! JSON encoding: jsonencode, jsondecode (through cty's JSON).

use cty::{Type, Value};

use crate::function::{FnError, Function, FunctionTable, Param};

pub(super) fn register(t: &mut FunctionTable) {
    t.insert(
        "jsonencode",
        Function::new(
            vec![Param::new("val", Type::Dynamic)
                .allow_dynamic()
                .allow_null()],
            None,
            |_| Ok(Type::String),
            |args, _| {
                let val = &args[0];
                if !val.is_wholly_known() {
                    return Ok(Value::unknown(Type::String));
                }
                if val.is_null() {
                    return Ok(Value::string("null"));
                }
                let s = cty::json::marshal(val).map_err(FnError::general)?;
                Ok(Value::string(s.trim()))
            },
        ),
    );
    t.insert(
        "jsondecode",
        Function::new(
            vec![Param::new("str", Type::String)],
            None,
            |args| {
                let s = &args[0];
                match s.as_str() {
                    None => Ok(Type::Dynamic),
                    Some(src) => cty::json::decode_implied(src)
                        .map(|v| v.ty().clone())
                        .map_err(FnError::general),
                }
            },
            |args, _| {
                cty::json::decode_implied(args[0].as_str().unwrap_or_default())
                    .map_err(FnError::general)
            },
        ),
    );
}
