//! JSON encoding: jsonencode, jsondecode (go-cty `stdlib/json.go`, through
//! cty's JSON).

use cty::{Type, Value};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};

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
            // cty's type callback decodes the text to find its implied
            // type; the implementation decodes it again, with the same
            // errors. Here the implementation alone decodes (once), and
            // its value carries that type; an unknown argument still
            // gives an unknown of unknown type, as cty's does.
            |_| Ok(Type::Dynamic),
            |args, _| {
                cty::json::decode_implied(args[0].as_str().unwrap_or_default())
                    .map_err(FnError::general)
            },
        ),
    );
}
