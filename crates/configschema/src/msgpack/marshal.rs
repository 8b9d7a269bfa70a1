//! Encoding (go-cty's `marshal.go` and `dynamic.go`).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use cty::{Number, Type, Value};

use super::{Error, Step, Steps};

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
