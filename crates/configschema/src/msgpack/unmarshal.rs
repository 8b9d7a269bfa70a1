//! Decoding (go-cty's `unmarshal.go`).

use std::collections::BTreeMap;

use cty::{Number, Type, Value};
use rmp::Marker;

use super::reader::{is_ext, Reader};
use super::unknown::decode_unknown;
use super::{Error, Step, Steps, MAX_DEPTH};

/// go-cty's `msgpack.Unmarshal(b, ty)`. Bytes after the value are ignored,
/// as go-cty ignores them.
pub fn unmarshal(bytes: &[u8], ty: &Type) -> Result<Value, Error> {
    let mut r = Reader { buf: bytes, pos: 0 };
    decode(&mut r, ty, &mut Steps::default(), 0)
}

pub(super) fn decode(
    r: &mut Reader,
    ty: &Type,
    path: &mut Steps,
    depth: usize,
) -> Result<Value, Error> {
    if depth > MAX_DEPTH {
        return Err(path.error("value is nested too deeply"));
    }
    let Some(peek) = r.peek() else {
        return Err(path.error("EOF"));
    };
    if is_ext(peek) {
        return decode_unknown(r, ty, path, depth);
    }
    if ty.is_dynamic() {
        return decode_dynamic(r, path, depth);
    }
    if peek == Marker::Null {
        r.pos += 1;
        return Ok(Value::null(ty.clone()));
    }
    match ty {
        Type::Bool => r
            .bool()
            .map(Value::bool)
            .ok_or_else(|| path.error("bool is required")),
        Type::Number => decode_number(r).ok_or_else(|| path.error("number is required")),
        Type::String => r
            .string()
            .map(Value::string)
            .ok_or_else(|| path.error("string is required")),
        Type::List(ety) | Type::Set(ety) => {
            let what = if ty.is_list() { "a list" } else { "a set" };
            let n = r
                .array_len()
                .ok_or_else(|| path.error(format!("{what} is required")))?;
            if n == 0 {
                return Ok(if ty.is_list() {
                    Value::list_empty((**ety).clone())
                } else {
                    Value::set_empty((**ety).clone())
                });
            }
            let vals = decode_elements(r, n, |_| ety, path, depth)?;
            let made = if ty.is_list() {
                Value::list_infer(vals)
            } else {
                Value::set_infer(vals)
            };
            made.map_err(|e| path.error(e.msg))
        }
        Type::Map(ety) => {
            let n = r.map_len().ok_or_else(|| path.error("a map is required"))?;
            if n == 0 {
                return Ok(Value::map_empty((**ety).clone()));
            }
            let mut vals = BTreeMap::new();
            for _ in 0..n {
                let key = r
                    .string()
                    .ok_or_else(|| path.error("non-string key in map"))?;
                path.0.push(Step::Key(key.clone()));
                let v = decode(r, ety, path, depth + 1)?;
                path.0.pop();
                vals.insert(key, v);
            }
            Value::map_infer(vals).map_err(|e| path.error(e.msg))
        }
        Type::Tuple(etys) => {
            let n = r
                .array_len()
                .ok_or_else(|| path.error("a tuple is required"))?;
            // go-cty answers an empty array with the empty tuple whatever
            // the type asked for.
            if n == 0 {
                return Ok(Value::empty_tuple());
            }
            if n != etys.len() {
                return Err(path.error(format!("a tuple of length {} is required", etys.len())));
            }
            Ok(Value::tuple(decode_elements(
                r,
                n,
                |i| &etys[i],
                path,
                depth,
            )?))
        }
        Type::Object(o) => {
            let n = r
                .map_len()
                .ok_or_else(|| path.error("an object is required"))?;
            // As for tuples, an empty map is the empty object.
            if n == 0 {
                return Ok(Value::empty_object());
            }
            if n != o.attrs.len() {
                return Err(path.error(format!(
                    "an object with {} attributes is required ({n} given)",
                    o.attrs.len()
                )));
            }
            let mut vals = BTreeMap::new();
            for _ in 0..n {
                let key = r
                    .string()
                    .ok_or_else(|| path.error("all keys must be strings"))?;
                // go-cty steps into attributes by index, not by name.
                path.0.push(Step::Key(key.clone()));
                let Some(aty) = o.attrs.get(&key) else {
                    return Err(path.error("unsupported attribute"));
                };
                let v = decode(r, aty, path, depth + 1)?;
                path.0.pop();
                vals.insert(key, v);
            }
            Ok(Value::object(vals))
        }
        Type::Dynamic => unreachable!("dynamic types are decoded above"),
    }
}

fn decode_elements<'t>(
    r: &mut Reader,
    n: usize,
    ety: impl Fn(usize) -> &'t Type,
    path: &mut Steps,
    depth: usize,
) -> Result<Vec<Value>, Error> {
    // The length comes from the input: reserve no more than the bytes left
    // could hold (each element takes at least one byte).
    let mut vals = Vec::with_capacity(n.min(r.buf.len() - r.pos));
    for i in 0..n {
        path.0.push(Step::Index(i));
        vals.push(decode(r, ety(i), path, depth + 1)?);
        path.0.pop();
    }
    Ok(vals)
}

fn decode_number(r: &mut Reader) -> Option<Value> {
    match r.peek()? {
        Marker::FixPos(_)
        | Marker::FixNeg(_)
        | Marker::I8
        | Marker::I16
        | Marker::I32
        | Marker::I64 => r.int().map(Value::number_int),
        Marker::U8 | Marker::U16 | Marker::U32 | Marker::U64 => {
            let n = match r.marker()? {
                Marker::U8 => r.be(1)?,
                Marker::U16 => r.be(2)?,
                Marker::U32 => r.be(4)?,
                _ => r.be(8)?,
            };
            Some(Value::number(Number::from_u64(n)))
        }
        Marker::F32 => {
            r.pos += 1;
            let bits = u32::try_from(r.be(4)?).ok()?;
            Value::number_float(f64::from(f32::from_bits(bits)))
        }
        Marker::F64 => {
            r.pos += 1;
            Value::number_float(f64::from_bits(r.be(8)?))
        }
        _ => Value::parse_number(&r.string()?).ok(),
    }
}

fn decode_dynamic(r: &mut Reader, path: &mut Steps, depth: usize) -> Result<Value, Error> {
    if r.peek() == Some(Marker::Null) {
        r.pos += 1;
        return Ok(Value::null(Type::Dynamic));
    }
    let code = r.buf.get(r.pos).copied().unwrap_or_default();
    let n = r.array_len().ok_or_else(|| {
        path.error(format!(
            "msgpack: invalid code={code:x} decoding array length"
        ))
    })?;
    if n != 2 {
        return Err(path.error("dynamic value array must have exactly two elements"));
    }
    let type_json = r
        .bytes()
        .ok_or_else(|| path.error("msgpack: invalid code decoding bytes"))?;
    if json_depth(type_json) > MAX_DEPTH {
        return Err(path.error("value is nested too deeply"));
    }
    let ty = std::str::from_utf8(type_json)
        .map_err(|e| e.to_string())
        .and_then(|s| cty::json::unmarshal_type(s).map_err(|e| e.msg))
        .map_err(|msg| path.error(msg))?;
    decode(r, &ty, path, depth + 1)
}

/// How deeply arrays and objects nest in a JSON text (brackets inside
/// strings do not count), so that a type description deeper than any
/// value may be is refused before it is parsed recursively.
fn json_depth(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}
