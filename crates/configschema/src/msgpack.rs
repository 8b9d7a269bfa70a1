//! go-cty's msgpack encoding of values (`cty/msgpack`), the form of the
//! plugin protocol's `DynamicValue.msgpack`. A port of its semantics, byte
//! for byte on encoding:
//!
//! - null is msgpack nil; a wholly unknown value is the fixext1 `d4 00 00`
//!   (extension type 0). Values here carry no refinements, so nothing is
//!   encoded as go-cty's refined unknown (extension type 12); decoding
//!   reads one, checks it as go-cty does, and keeps what the value model
//!   can hold: a refinement to null gives null, and the refinements that
//!   pin a value down (equal inclusive number bounds, equal collection
//!   length bounds on a not-null value) give the value go-cty's
//!   `RefinementBuilder.NewValue` gives; other refinements are dropped.
//! - numbers: an integer that fits in int64 as the smallest int form; else
//!   a non-integer exactly representable as float64 as float64; else the
//!   decimal text (`Text('f', -1)`) as a string. ±Inf are float64.
//! - strings as str (fixstr/str8/16/32), bools as bool.
//! - lists, sets (in cty's set order) and tuples as arrays; maps as maps;
//!   objects as maps with their attributes in sorted order.
//! - where the type is `dynamic` (and the value's type is not), a 2-array
//!   of the value's type JSON as bin and the value encoded for that type.
//! - a marked value cannot be encoded.
//!
//! Where go-cty panics or keeps going on malformed input, this returns an
//! error: a map key that is not a string (go-cty builds the error and drops
//! it), list elements of different dynamic types (a panic in `cty.ListVal`).
//! An unknown refinement key's value is skipped (go-cty would read it as
//! the next key). Input nested deeper than [`MAX_DEPTH`] (only possible
//! through dynamic types) is an error instead of a deep recursion.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use cty::{Number, Path, PathStep, Type, Value};
use rmp::Marker;

/// How deep decoding recurses before giving up. Types bound the depth of
/// encoded values, except that dynamic values bring their own types.
pub const MAX_DEPTH: usize = 1000;

/// Why a value could not be encoded or decoded, and where in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// Where in the value (empty for the value itself).
    pub path: Path,
    /// go-cty's message, e.g. "value has marks, so it cannot be serialized".
    pub message: String,
}

impl fmt::Display for Error {
    /// The message alone, as go-cty's `PathError` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// One step of the path to the value being worked on, turned into a
/// [`PathStep`] only when there is an error.
enum Step {
    Attr(String),
    Index(usize),
    Key(String),
    Element(Value),
}

#[derive(Default)]
struct Steps(Vec<Step>);

impl Steps {
    fn error(&self, message: impl Into<String>) -> Error {
        let steps = self
            .0
            .iter()
            .map(|s| match s {
                Step::Attr(name) => PathStep::GetAttr(name.clone()),
                Step::Index(i) => PathStep::Index(Value::number_int(*i as i64)),
                Step::Key(k) => PathStep::Index(Value::string(k)),
                Step::Element(v) => PathStep::Index(v.clone()),
            })
            .collect();
        Error {
            path: Path(steps),
            message: message.into(),
        }
    }
}

/// go-cty's `msgpack.Marshal(val, ty)`: a value that does not conform to
/// `ty` is converted to it first.
pub fn marshal(val: &Value, ty: &Type) -> Result<Vec<u8>, Error> {
    let converted;
    let val = if val.ty().test_conformance(ty).is_empty() {
        val
    } else {
        converted = cty::convert(val, ty).map_err(|e| Error {
            path: e.path,
            message: e.msg,
        })?;
        &converted
    };
    let mut out = Vec::new();
    encode(val, ty, &mut Steps::default(), &mut out)?;
    Ok(out)
}

/// Writing into a `Vec` cannot fail; rmp's signatures allow for writers that can.
fn wrote<T, E: fmt::Debug>(r: Result<T, E>) {
    r.expect("writing msgpack into a Vec<u8> cannot fail");
}

const UNKNOWN: [u8; 3] = [0xd4, 0, 0];
const REFINED_UNKNOWN_EXT: i8 = 12;

fn len_u32(n: usize, path: &Steps) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| path.error("too many elements for msgpack"))
}

fn encode(val: &Value, ty: &Type, path: &mut Steps, out: &mut Vec<u8>) -> Result<(), Error> {
    if val.is_marked() {
        return Err(path.error("value has marks, so it cannot be serialized"));
    }
    if ty.is_dynamic() && !val.ty().is_dynamic() {
        return encode_dynamic(val, path, out);
    }
    if !val.is_known() {
        out.extend_from_slice(&UNKNOWN);
        return Ok(());
    }
    if val.is_null() {
        wrote(rmp::encode::write_nil(out));
        return Ok(());
    }
    match ty {
        Type::String => wrote(rmp::encode::write_str(
            out,
            val.as_str().unwrap_or_default(),
        )),
        Type::Bool => wrote(rmp::encode::write_bool(out, val.as_bool() == Some(true))),
        Type::Number => {
            let n = val
                .as_number()
                .ok_or_else(|| path.error("number is required"))?;
            encode_number(n, out);
        }
        Type::List(ety) | Type::Set(ety) => {
            let elems = val.as_elements().unwrap_or_default();
            wrote(rmp::encode::write_array_len(
                out,
                len_u32(elems.len(), path)?,
            ));
            let is_set = ty.is_set();
            for (i, e) in elems.iter().enumerate() {
                path.0.push(if is_set {
                    Step::Element(e.clone())
                } else {
                    Step::Index(i)
                });
                encode(e, ety, path, out)?;
                path.0.pop();
            }
        }
        Type::Map(ety) => {
            let entries = val.as_attrs().map(BTreeMap::len).unwrap_or_default();
            wrote(rmp::encode::write_map_len(out, len_u32(entries, path)?));
            for (k, e) in val.as_attrs().into_iter().flatten() {
                path.0.push(Step::Key(k.clone()));
                wrote(rmp::encode::write_str(out, k));
                encode(e, ety, path, out)?;
                path.0.pop();
            }
        }
        Type::Tuple(etys) => {
            let elems = val.as_elements().unwrap_or_default();
            wrote(rmp::encode::write_array_len(
                out,
                len_u32(etys.len(), path)?,
            ));
            for (i, (e, ety)) in elems.iter().zip(etys.iter()).enumerate() {
                path.0.push(Step::Index(i));
                encode(e, ety, path, out)?;
                path.0.pop();
            }
        }
        Type::Object(o) => {
            wrote(rmp::encode::write_map_len(
                out,
                len_u32(o.attrs.len(), path)?,
            ));
            // BTreeMap order is sorted order, as go-cty sorts the names.
            for (name, aty) in &o.attrs {
                path.0.push(Step::Attr(name.clone()));
                wrote(rmp::encode::write_str(out, name));
                let attr = val
                    .get_attr(name)
                    .unwrap_or_else(|| Value::null(aty.clone()));
                encode(&attr, aty, path, out)?;
                path.0.pop();
            }
        }
        Type::Dynamic => return Err(path.error("cannot msgpack-serialize dynamic")),
    }
    Ok(())
}

/// go-cty's number rule: int64 when exact, float64 for exact non-integers,
/// else the decimal text.
fn encode_number(n: &Number, out: &mut Vec<u8>) {
    if n.is_inf() {
        let inf = if n.sign() < 0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        wrote(rmp::encode::write_f64(out, inf));
    } else if let Some(i) = n.to_i64() {
        wrote(rmp::encode::write_sint(out, i));
    } else if let Some(f) = exact_f64(n).filter(|_| !n.is_int()) {
        wrote(rmp::encode::write_f64(out, f));
    } else {
        wrote(rmp::encode::write_str(out, &n.text('f', -1)));
    }
}

/// `big.Float.Float64()` when its accuracy is `Exact`.
fn exact_f64(n: &Number) -> Option<f64> {
    let f = n.to_f64();
    if !f.is_finite() {
        return None;
    }
    let back = Number::from_f64(f)?;
    (back.compare(n) == Ordering::Equal).then_some(f)
}

fn encode_dynamic(val: &Value, path: &mut Steps, out: &mut Vec<u8>) -> Result<(), Error> {
    let type_json = cty::json::marshal_type(val.ty());
    wrote(rmp::encode::write_array_len(out, 2));
    wrote(rmp::encode::write_bin(out, type_json.as_bytes()));
    encode(val, val.ty(), path, out)
}

/// go-cty's `msgpack.Unmarshal(b, ty)`. Bytes after the value are ignored,
/// as go-cty ignores them.
pub fn unmarshal(bytes: &[u8], ty: &Type) -> Result<Value, Error> {
    let mut r = Reader { buf: bytes, pos: 0 };
    decode(&mut r, ty, &mut Steps::default(), 0)
}

/// A cursor over msgpack bytes.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<Marker> {
        self.buf.get(self.pos).map(|b| Marker::from_u8(*b))
    }

    fn marker(&mut self) -> Option<Marker> {
        let m = self.peek()?;
        self.pos += 1;
        Some(m)
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let bytes = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(bytes)
    }

    fn be(&mut self, n: usize) -> Option<u64> {
        Some(
            self.take(n)?
                .iter()
                .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)),
        )
    }

    /// `DecodeArrayLen` on an array marker (nil is handled by callers).
    fn array_len(&mut self) -> Option<usize> {
        let n = match self.marker()? {
            Marker::FixArray(n) => u64::from(n),
            Marker::Array16 => self.be(2)?,
            Marker::Array32 => self.be(4)?,
            _ => return None,
        };
        usize::try_from(n).ok()
    }

    fn map_len(&mut self) -> Option<usize> {
        let n = match self.marker()? {
            Marker::FixMap(n) => u64::from(n),
            Marker::Map16 => self.be(2)?,
            Marker::Map32 => self.be(4)?,
            _ => return None,
        };
        usize::try_from(n).ok()
    }

    /// `DecodeBytes`/`DecodeString`: str or bin.
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = match self.marker()? {
            Marker::FixStr(n) => u64::from(n),
            Marker::Str8 | Marker::Bin8 => self.be(1)?,
            Marker::Str16 | Marker::Bin16 => self.be(2)?,
            Marker::Str32 | Marker::Bin32 => self.be(4)?,
            _ => return None,
        };
        self.take(usize::try_from(n).ok()?)
    }

    fn string(&mut self) -> Option<String> {
        self.bytes()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// `DecodeInt64`: any integer form.
    fn int(&mut self) -> Option<i64> {
        match self.marker()? {
            Marker::FixPos(n) => Some(i64::from(n)),
            Marker::FixNeg(n) => Some(i64::from(n)),
            Marker::I8 => Some(i64::from(self.be(1)? as u8 as i8)),
            Marker::I16 => Some(i64::from(self.be(2)? as u16 as i16)),
            Marker::I32 => Some(i64::from(self.be(4)? as u32 as i32)),
            Marker::I64 => Some(self.be(8)? as i64),
            Marker::U8 => Some(self.be(1)? as i64),
            Marker::U16 => Some(self.be(2)? as i64),
            Marker::U32 => Some(self.be(4)? as i64),
            Marker::U64 => Some(self.be(8)? as i64),
            _ => None,
        }
    }

    fn bool(&mut self) -> Option<bool> {
        match self.marker()? {
            Marker::True => Some(true),
            Marker::False => Some(false),
            _ => None,
        }
    }

    /// An extension's type code and body.
    fn ext(&mut self) -> Option<(i8, &'a [u8])> {
        let len = match self.marker()? {
            Marker::FixExt1 => 1,
            Marker::FixExt2 => 2,
            Marker::FixExt4 => 4,
            Marker::FixExt8 => 8,
            Marker::FixExt16 => 16,
            Marker::Ext8 => self.be(1)?,
            Marker::Ext16 => self.be(2)?,
            Marker::Ext32 => self.be(4)?,
            _ => return None,
        };
        let code = self.take(1)?[0] as i8;
        Some((code, self.take(usize::try_from(len).ok()?)?))
    }

    /// Skips one whole value of any kind.
    fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = self.peek()?;
        match m {
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
                for _ in 0..self.array_len()? {
                    self.skip(depth + 1)?;
                }
            }
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
                for _ in 0..self.map_len()?.checked_mul(2)? {
                    self.skip(depth + 1)?;
                }
            }
            Marker::FixStr(_)
            | Marker::Str8
            | Marker::Str16
            | Marker::Str32
            | Marker::Bin8
            | Marker::Bin16
            | Marker::Bin32 => {
                self.bytes()?;
            }
            m if is_ext(m) => {
                self.ext()?;
            }
            Marker::F32 => {
                self.take(5)?;
            }
            Marker::F64 => {
                self.take(9)?;
            }
            Marker::Null | Marker::True | Marker::False => {
                self.pos += 1;
            }
            Marker::Reserved => return None,
            _ => {
                self.int()?;
            }
        }
        Some(())
    }
}

fn is_ext(m: Marker) -> bool {
    matches!(
        m,
        Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32
    )
}

fn decode(r: &mut Reader, ty: &Type, path: &mut Steps, depth: usize) -> Result<Value, Error> {
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

fn decode_unknown(
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

#[cfg(test)]
#[path = "msgpack_tests.rs"]
mod tests;
