//! Unknown values on the way in (go-cty's `unknown.go`): plain unknowns and
//! refined ones (extension 12), whose refinements are checked as go-cty
//! checks them and kept as far as values without refinements can show.

use cty::{Type, Value};

use super::reader::Reader;
use super::unmarshal::decode;
use super::{Error, Steps};

const REFINED_UNKNOWN_EXT: i8 = 12;

/// What a refined unknown's refinements determine, as far as values
/// without refinements can show it.
#[derive(Default)]
struct Refinements {
    null: Option<bool>,
    lower: Option<(Value, bool)>,
    upper: Option<(Value, bool)>,
    min_len: Option<i64>,
    max_len: Option<i64>,
}

pub(super) fn decode_unknown(
    r: &mut Reader,
    ty: &Type,
    path: &mut Steps,
    depth: usize,
) -> Result<Value, Error> {
    let (code, body) = r
        .ext()
        .ok_or_else(|| path.error("extension code is required for unknown value"))?;
    if body.len() <= 1 {
        return Ok(Value::unknown(ty.clone()));
    }
    if code != REFINED_UNKNOWN_EXT {
        return Err(path.error(format!(
            "unsupported extension type 0x{:02x} with len {}",
            code,
            body.len()
        )));
    }
    if body.len() > 1024 {
        return Err(path.error("oversize unknown value refinement"));
    }
    let body_error =
        |msg: &str| path.error(format!("failed to decode msgpack extension body: {msg}"));
    let mut rr = Reader { buf: body, pos: 0 };
    let entries = rr.map_len().ok_or_else(|| body_error("not a map"))?;
    if ty.is_dynamic() {
        return Ok(Value::unknown(Type::Dynamic));
    }
    let mut refn = Refinements::default();
    for _ in 0..entries {
        let key = rr
            .int()
            .ok_or_else(|| body_error("non-integer key in map"))?;
        match key {
            1 => {
                let is_null = rr
                    .bool()
                    .ok_or_else(|| body_error("null refinement is not boolean"))?;
                refn.null = Some(is_null);
            }
            2 => {
                if *ty != Type::String {
                    return Err(body_error("string prefix refinement for non-string type"));
                }
                let prefix = rr
                    .bytes()
                    .ok_or_else(|| body_error("string prefix refinement is not string"))?;
                if std::str::from_utf8(prefix).is_err() {
                    return Err(body_error("string prefix refinement is not valid UTF-8"));
                }
            }
            5 | 6 => {
                if !ty.is_collection() {
                    return Err(body_error(
                        "length lower bound refinement for non-collection type",
                    ));
                }
                let bound = rr.int().ok_or_else(|| {
                    body_error("length bound refinement must be integer or [integer, bool] array")
                })?;
                if key == 5 {
                    refn.min_len = Some(bound);
                } else {
                    refn.max_len = Some(bound);
                }
            }
            3 | 4 => {
                if *ty != Type::Number {
                    return Err(body_error("numeric bound refinement for non-number type"));
                }
                let bound_ty = Type::tuple(vec![Type::Number, Type::Bool]);
                let bad = || body_error("length bound refinement must be [number, bool] array");
                let raw = decode(&mut rr, &bound_ty, &mut Steps::default(), depth + 1)
                    .map_err(|_| bad())?;
                let (bound, inclusive) = match raw.as_elements() {
                    Some([b, inc]) if b.as_number().is_some() && inc.as_bool().is_some() => {
                        (b.clone(), inc.as_bool() == Some(true))
                    }
                    _ => return Err(bad()),
                };
                if key == 3 {
                    refn.lower = Some((bound, inclusive));
                } else {
                    refn.upper = Some((bound, inclusive));
                }
            }
            // A refinement this version does not know: go-cty ignores the
            // key (and would read its value as the next key); skip the value.
            _ => rr
                .skip(depth)
                .ok_or_else(|| body_error("truncated refinement"))?,
        }
    }
    Ok(refined_value(ty, &refn))
}

/// The parts of go-cty's `RefinementBuilder.NewValue` that give a value
/// other than an unknown.
fn refined_value(ty: &Type, refn: &Refinements) -> Value {
    match refn.null {
        Some(true) => return Value::null(ty.clone()),
        Some(false) => {}
        None => return Value::unknown(ty.clone()),
    }
    if let (Some((lo, true)), Some((hi, true))) = (&refn.lower, &refn.upper) {
        if lo
            .as_number()
            .zip(hi.as_number())
            .is_some_and(|(a, b)| a == b)
        {
            return lo.clone();
        }
    }
    let (min, max) = (refn.min_len.unwrap_or(0), refn.max_len.unwrap_or(i64::MAX));
    if ty.is_collection() && min == max {
        let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
        match (ty, min) {
            (Type::List(_), 0) => return Value::list_empty(ety),
            (Type::Set(_), 0) => return Value::set_empty(ety),
            (Type::Map(_), 0) => return Value::map_empty(ety),
            // A list of that many unknowns, as go-cty makes; the length
            // comes from the input, so past 1,024 elements (a few bytes
            // must not cost gigabytes) the list stays unknown.
            (Type::List(_), n) if (1..=1024).contains(&n) => {
                let elems = vec![Value::unknown(ety.clone()); n as usize];
                if let Ok(v) = Value::list(ety, elems) {
                    return v;
                }
            }
            (Type::Set(_), 1) => {
                if let Ok(v) = Value::set(ety.clone(), vec![Value::unknown(ety)]) {
                    return v;
                }
            }
            _ => {}
        }
    }
    Value::unknown(ty.clone())
}
