//! Type conversion and unification, mirroring `cty/convert`: safe and
//! unsafe conversions, cty's error messages and paths, and `Unify`.

mod defaults;
mod mismatch;
mod structural;
mod unify;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use crate::path::Path;
use crate::types::Type;
use crate::value::Value;

pub use defaults::Defaults;
pub use mismatch::mismatch_message;
pub use unify::{unify, unify_unsafe};

/// A conversion failure, with the path inside the value where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvertError {
    /// Where in the value the failure happened (empty for the root).
    pub path: Path,
    /// cty's message, e.g. "a bool is required".
    pub msg: String,
}

impl ConvertError {
    /// Terraform's `tfdiags.FormatError` form: `path: message` when a path is present.
    pub fn with_path(&self) -> String {
        if self.path.is_empty() {
            self.msg.clone()
        } else {
            format!("{}: {}", self.path, self.msg)
        }
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for ConvertError {}

pub(crate) fn cerr(path: &Path, msg: impl Into<String>) -> ConvertError {
    ConvertError {
        path: path.clone(),
        msg: msg.into(),
    }
}

/// A prepared conversion (Go `convert.conversion`).
pub(crate) type Conv = Arc<dyn Fn(&Value, &Path) -> Result<Value, ConvertError> + Send + Sync>;

/// `convert.Convert`: unsafe conversion of `val` to `want`.
pub fn convert(val: &Value, want: &Type) -> Result<Value, ConvertError> {
    convert_with(val, want, true)
}

/// `convert.Convert` restricted to safe conversions.
pub fn convert_safe(val: &Value, want: &Type) -> Result<Value, ConvertError> {
    convert_with(val, want, false)
}

fn convert_with(val: &Value, want: &Type, unsafe_ok: bool) -> Result<Value, ConvertError> {
    // Everything converts to `any` unchanged (marks included), as the
    // prepared conversion would do after building itself.
    if val.ty() == want || want.is_dynamic() {
        return Ok(val.clone());
    }
    match get_conversion(val.ty(), want, unsafe_ok) {
        Some(conv) => conv(val, &Path::root()),
        None => Err(cerr(&Path::root(), mismatch_message(val.ty(), want))),
    }
}

/// True if a safe conversion from `from` to `to` exists (`GetConversion != nil`).
pub fn can_convert_safe(from: &Type, to: &Type) -> bool {
    get_conversion(from, to, false).is_some()
}

/// True if an unsafe conversion exists (`GetConversionUnsafe != nil`).
pub fn can_convert_unsafe(from: &Type, to: &Type) -> bool {
    get_conversion(from, to, true).is_some()
}

/// Go `getConversion`: the standard wrapper around a known-value conversion.
pub(crate) fn get_conversion(from: &Type, to: &Type, unsafe_ok: bool) -> Option<Conv> {
    let inner = get_conversion_known(from, to, unsafe_ok)?;
    let out = to.clone();
    let wrapped: Conv = Arc::new(move |v: &Value, path: &Path| {
        let (v, marks) = v.unmark_with_marks();
        let r = if out.is_dynamic() {
            Ok(v.clone())
        } else if !v.is_known() || v.is_null() {
            let out = out.without_optional_attributes_deep();
            let ty = dynamic_replace(v.ty(), &out);
            Ok(if !v.is_known() {
                Value::unknown(ty)
            } else {
                Value::null(ty)
            })
        } else {
            inner(&v, path)
        };
        r.map(|r| r.marked_with(marks))
    });
    Some(wrapped)
}

fn get_conversion_known(from: &Type, to: &Type, unsafe_ok: bool) -> Option<Conv> {
    use structural as s;
    match (from, to) {
        (_, Type::Dynamic) => Some(Arc::new(|v: &Value, _: &Path| Ok(v.clone()))),
        (Type::Dynamic, _) if unsafe_ok => {
            let want = to.clone();
            Some(Arc::new(
                move |v: &Value, path: &Path| match get_conversion(v.ty(), &want, true) {
                    Some(c) => c(v, path),
                    None => Err(cerr(path, mismatch_message(v.ty(), &want))),
                },
            ))
        }
        _ if from.is_primitive() && to.is_primitive() => primitive(from, to, unsafe_ok),
        (Type::Object(_), Type::Object(_)) => s::object_to_object(from, to, unsafe_ok),
        (Type::Tuple(_), Type::Tuple(_)) => s::tuple_to_tuple(from, to, unsafe_ok),
        (Type::List(ie) | Type::Set(ie), Type::List(oe)) => {
            if ie == oe {
                return Some(s::collection_to_list((**oe).clone(), None));
            }
            let c = get_conversion(ie, oe, unsafe_ok)?;
            Some(s::collection_to_list((**oe).clone(), Some(c)))
        }
        (Type::List(ie) | Type::Set(ie), Type::Set(oe)) => {
            if from.is_list() && !unsafe_ok {
                return None;
            }
            if ie == oe {
                return Some(s::collection_to_set((**oe).clone(), None));
            }
            let c = get_conversion(ie, oe, unsafe_ok)?;
            Some(s::collection_to_set((**oe).clone(), Some(c)))
        }
        (Type::Map(ie), Type::Map(oe)) => {
            let c = get_conversion(ie, oe, unsafe_ok)?;
            Some(s::collection_to_map((**oe).clone(), c))
        }
        (Type::Tuple(_), Type::List(oe)) => s::tuple_to_seq(from, oe, unsafe_ok, false),
        (Type::Tuple(_), Type::Set(oe)) => s::tuple_to_seq(from, oe, unsafe_ok, true),
        (Type::Object(_), Type::Map(oe)) => s::object_to_map(from, oe, unsafe_ok),
        (Type::Map(_), Type::Object(_)) if unsafe_ok => s::map_to_object(from, to),
        _ => None,
    }
}

fn primitive(from: &Type, to: &Type, unsafe_ok: bool) -> Option<Conv> {
    match (from, to) {
        (Type::Number, Type::String) => Some(Arc::new(|v: &Value, _: &Path| {
            Ok(Value::string(
                v.as_number().map(|n| n.to_text()).unwrap_or_default(),
            ))
        })),
        (Type::Bool, Type::String) => Some(Arc::new(|v: &Value, _: &Path| {
            Ok(Value::string(if v.as_bool() == Some(true) {
                "true"
            } else {
                "false"
            }))
        })),
        (Type::String, Type::Number) if unsafe_ok => Some(Arc::new(|v: &Value, path: &Path| {
            Value::parse_number(v.as_str().unwrap_or_default())
                .map_err(|_| cerr(path, "a number is required"))
        })),
        (Type::String, Type::Bool) if unsafe_ok => {
            Some(Arc::new(|v: &Value, path: &Path| {
                let s = v.as_str().unwrap_or_default();
                match s {
                "true" | "1" => Ok(Value::bool(true)),
                "false" | "0" => Ok(Value::bool(false)),
                _ => Err(cerr(
                    path,
                    match s.to_lowercase().as_str() {
                        "true" => "a bool is required; to convert from string, use lowercase \"true\"",
                        "false" => "a bool is required; to convert from string, use lowercase \"false\"",
                        _ => "a bool is required",
                    },
                )),
            }
            }))
        }
        _ => None,
    }
}

/// Go `dynamicReplace`: fills dynamic parts of `out` from the input type.
pub(crate) fn dynamic_replace(from: &Type, out: &Type) -> Type {
    if from.is_dynamic() {
        return out.clone();
    }
    match out {
        Type::Dynamic => from.clone(),
        Type::String | Type::Number | Type::Bool => out.clone(),
        Type::Map(oe) => match from {
            Type::Map(ie) => Type::map(dynamic_replace(ie, oe)),
            Type::Object(o) => {
                let tys: Vec<Type> = o.attrs.values().cloned().collect();
                let u = unify_unsafe(&tys).unwrap_or(Type::Dynamic);
                Type::map(dynamic_replace(&u, oe))
            }
            _ => out.clone(),
        },
        Type::Object(oo) => {
            let attrs = oo
                .attrs
                .iter()
                .filter_map(|(k, aty)| match from {
                    Type::Map(ie) => Some((k.clone(), dynamic_replace(ie, aty))),
                    Type::Object(io) => Some((
                        k.clone(),
                        io.attrs
                            .get(k)
                            .map_or_else(|| aty.clone(), |ia| dynamic_replace(ia, aty)),
                    )),
                    _ => None,
                })
                .collect();
            Type::object(attrs)
        }
        Type::Set(oe) | Type::List(oe) => {
            let e = match from {
                Type::Set(ie) | Type::List(ie) => dynamic_replace(ie, oe),
                Type::Tuple(t) => dynamic_replace(&unify_unsafe(t).unwrap_or(Type::Dynamic), oe),
                _ => return out.clone(),
            };
            if out.is_set() {
                Type::set(e)
            } else {
                Type::list(e)
            }
        }
        Type::Tuple(ot) => match from {
            Type::Tuple(it) => Type::tuple(
                ot.iter()
                    .enumerate()
                    .map(|(i, o)| {
                        it.get(i)
                            .map_or_else(|| o.clone(), |t| dynamic_replace(t, o))
                    })
                    .collect(),
            ),
            _ => Type::empty_tuple(),
        },
    }
}
