//! Explicit type conversions: tostring, tonumber, tobool, tolist, toset,
//! tomap (OpenTofu's `MakeToFunc` in `funcs/conversion.go`, with messages aimed at explicit
//! conversion rather than cty's implicit-conversion wording).

use cty::convert::{can_convert_unsafe, convert, mismatch_message};
use cty::{Mark, Type, Value};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};
use crate::functions::quote;

pub(super) fn register(t: &mut FunctionTable) {
    t.insert("tostring", make_to(Type::String));
    t.insert("tonumber", make_to(Type::Number));
    t.insert("tobool", make_to(Type::Bool));
    t.insert("tolist", make_to(Type::list(Type::Dynamic)));
    t.insert("toset", make_to(Type::set(Type::Dynamic)));
    t.insert("tomap", make_to(Type::map(Type::Dynamic)));
}

/// Whether `v` or anything inside it is marked sensitive.
pub(crate) fn contains_sensitive(v: &Value) -> bool {
    let (_, marks) = v.unmark_deep();
    marks.contains(&Mark::Sensitive)
}

/// A function converting its argument to `want`.
pub fn make_to(want: Type) -> Function {
    let want_t = want.clone();
    Function::new(
        vec![Param::new("v", Type::Dynamic)
            .allow_null()
            .allow_marked()
            .allow_dynamic()],
        None,
        move |args| {
            let got = args[0].ty();
            if got == &want_t || can_convert_unsafe(got, &want_t) {
                return Ok(want_t.clone());
            }
            Err(FnError::arg(
                0,
                match (got, &want_t) {
                    (Type::Tuple(_), Type::Tuple(_)) => format!(
                        "incompatible tuple type for conversion: {}",
                        mismatch_message(got, &want_t)
                    ),
                    (Type::Object(_), Type::Object(_)) => format!(
                        "incompatible object type for conversion: {}",
                        mismatch_message(got, &want_t)
                    ),
                    _ => format!(
                        "cannot convert {} to {}",
                        got.friendly_name(),
                        want_t.friendly_name_for_constraint()
                    ),
                },
            ))
        },
        move |args, ret| {
            convert(&args[0], ret).map_err(|_| {
                let (val, _) = args[0].unmark_deep();
                let got = val.ty();
                let what = || val.as_str().map_or_else(|| "string".to_string(), quote);
                FnError::arg(
                    0,
                    if contains_sensitive(&args[0]) {
                        format!(
                            "cannot convert this sensitive {} to {}",
                            got.friendly_name(),
                            want.friendly_name_for_constraint()
                        )
                    } else if got == &Type::String && want == Type::Bool {
                        format!(
                            "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
                            what()
                        )
                    } else if got == &Type::String && want == Type::Number {
                        format!(
                            "cannot convert {} to number; given string must be a decimal representation of a number",
                            what()
                        )
                    } else {
                        format!(
                            "cannot convert {} to {}",
                            got.friendly_name(),
                            want.friendly_name_for_constraint()
                        )
                    },
                )
            })
        },
    )
}
