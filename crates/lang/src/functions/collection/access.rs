//! Reading and assembling collections: length, lookup and coalesce
//! (OpenTofu `funcs/collection.go`), keys, values, merge, concat, element
//! and range (go-cty `stdlib/collection.go`).

use std::collections::BTreeMap;

use cty::convert::{convert, unify_unsafe};
use cty::{Number, Type, Value, ValueMarks};
use unicode_segmentation::UnicodeSegmentation;

use crate::functions::framework::{FnError, Function, FunctionTable, Param};
use crate::functions::quote;

pub(super) fn register(t: &mut FunctionTable) {
    t.insert("length", length());
    t.insert("keys", keys());
    t.insert("values", values());
    t.insert("lookup", lookup());
    t.insert("merge", merge());
    t.insert("concat", concat());
    t.insert("element", element());
    t.insert("range", range());
    t.insert("coalesce", coalesce());
}

fn length() -> Function {
    Function::new(
        vec![Param::new("value", Type::Dynamic)
            .allow_dynamic()
            .allow_unknown()
            .allow_marked()],
        None,
        |args| {
            let ty = args[0].ty();
            if ty == &Type::String
                || ty.is_collection()
                || ty.is_tuple()
                || ty.is_object()
                || ty.is_dynamic()
            {
                Ok(Type::Number)
            } else {
                Err(FnError::general(
                    "argument must be a string, a collection type, or a structural type",
                ))
            }
        },
        |args, _| {
            let coll = &args[0];
            let marks = coll.marks().clone();
            let ty = coll.ty();
            Ok(match ty {
                Type::Dynamic => Value::unknown(Type::Number).with_marks(marks),
                Type::Tuple(t) => Value::number_int(t.len() as i64).with_marks(marks),
                Type::Object(o) => Value::number_int(o.attrs.len() as i64).with_marks(marks),
                Type::String => {
                    let (s, m) = coll.unmark_deep();
                    match s.as_str() {
                        Some(s) => {
                            Value::number_int(s.graphemes(true).count() as i64).with_marks(m)
                        }
                        None => Value::unknown(Type::Number).with_marks(m),
                    }
                }
                _ => coll.length(),
            })
        },
    )
}

fn keys() -> Function {
    Function::new(
        vec![Param::new("inputMap", Type::Dynamic)
            .allow_unknown()
            .allow_marked()],
        None,
        |args| match args[0].ty() {
            Type::Map(_) => Ok(Type::list(Type::String)),
            Type::Object(o) => Ok(Type::tuple(vec![Type::String; o.attrs.len()])),
            _ => Err(FnError::arg(0, "must have map or object type")),
        },
        |args, ret| {
            let (m, marks) = args[0].unmark_with_marks();
            if let Type::Object(o) = m.ty() {
                let keys = o.attrs.keys().map(Value::string).collect();
                return Ok(Value::tuple(keys).with_marks(marks));
            }
            if !m.is_known() {
                return Ok(Value::unknown(ret.clone()).with_marks(marks));
            }
            let keys: Vec<Value> = m.elements().into_iter().map(|(k, _)| k).collect();
            Ok(Value::list(Type::String, keys)?.with_marks(marks))
        },
    )
}

fn values() -> Function {
    Function::new(
        vec![Param::new("mapping", Type::Dynamic).allow_marked()],
        None,
        |args| match args[0].ty() {
            Type::Map(e) => Ok(Type::list((**e).clone())),
            Type::Object(o) => Ok(Type::tuple(o.attrs.values().cloned().collect())),
            _ => Err(FnError::general(
                "values() requires a map as the first argument",
            )),
        },
        |args, ret| {
            let (m, marks) = args[0].unmark_with_marks();
            let vals: Vec<Value> = m.elements().into_iter().map(|(_, v)| v).collect();
            match ret {
                Type::List(e) => Ok(Value::list((**e).clone(), vals)?.with_marks(marks)),
                _ => Ok(Value::tuple(vals).with_marks(marks)),
            }
        },
    )
}

/// Terraform's `redactIfSensitive` for a string shown in a message.
fn redact_if_sensitive(s: &str, marks: &ValueMarks) -> String {
    if marks.contains(&cty::Mark::Sensitive) {
        "(sensitive value)".into()
    } else {
        quote(s)
    }
}

fn lookup() -> Function {
    Function::new(
        vec![
            Param::new("inputMap", Type::Dynamic).allow_marked(),
            Param::new("key", Type::String).allow_marked(),
        ],
        Some(
            Param::new("default", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic()
                .allow_null()
                .allow_marked(),
        ),
        |args| {
            if args.len() > 3 {
                return Err(FnError::general(format!(
                    "lookup() takes two or three arguments, got {}",
                    args.len()
                )));
            }
            let ty = args[0].ty();
            match ty {
                Type::Object(_) => {
                    if !args[1].is_known() {
                        return Ok(Type::Dynamic);
                    }
                    let key = args[1].unmark();
                    let key = key.as_str().unwrap_or_default();
                    if let Some(aty) = ty.attribute_type(key) {
                        Ok(aty.clone())
                    } else if args.len() == 3 {
                        Ok(args[2].ty().clone())
                    } else {
                        Err(FnError::arg(
                            0,
                            format!("the given object has no attribute {}", quote(key)),
                        ))
                    }
                }
                Type::Map(ety) => {
                    if args.len() == 3 && convert(&args[2], ety).is_err() {
                        return Err(FnError::arg(
                            2,
                            "the default value must have the same type as the map elements",
                        ));
                    }
                    Ok((**ety).clone())
                }
                _ => Err(FnError::arg(
                    0,
                    "lookup() requires a map as the first argument",
                )),
            }
        },
        |args, ret| {
            let (map, mut marks) = args[0].unmark_with_marks();
            let (key, key_marks) = args[1].unmark_with_marks();
            marks.extend(key_marks.iter().cloned());
            let key = key.as_str().unwrap_or_default().to_string();
            if !map.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()).with_marks(marks));
            }
            if map.ty().is_object() {
                if let Some(v) = map.get_attr(&key) {
                    return Ok(v.with_marks(marks));
                }
            } else if let Some(v) = map.as_attrs().and_then(|a| a.get(&key)) {
                return Ok(v.with_marks(marks));
            }
            if let Some(default) = args.get(2) {
                let d = convert(default, ret).map_err(|e| FnError::general(e.msg))?;
                return Ok(d.with_marks(marks));
            }
            Err(FnError::general(format!(
                "lookup failed to find key {}",
                redact_if_sensitive(&key, &key_marks)
            )))
        },
    )
}

fn merge() -> Function {
    Function::new(
        vec![],
        Some(
            Param::new("maps", Type::Dynamic)
                .allow_dynamic()
                .allow_null()
                .allow_marked(),
        ),
        |args| {
            if args.is_empty() {
                return Ok(Type::empty_object());
            }
            let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
            let mut first: Option<Type> = None;
            let mut matching = true;
            let mut attrs_known = true;
            for (i, arg) in args.iter().enumerate() {
                let ty = arg.ty();
                if ty.is_dynamic() {
                    return Ok(Type::Dynamic);
                }
                let arg = arg.unmark();
                match ty {
                    Type::Object(o) => {
                        if !arg.is_null() {
                            attrs.extend(o.attrs.iter().map(|(k, v)| (k.clone(), v.clone())));
                        }
                    }
                    Type::Map(ety) => {
                        if arg.is_null() {
                        } else if arg.is_known() {
                            for (k, _) in arg.elements() {
                                attrs.insert(
                                    k.as_str().unwrap_or_default().to_string(),
                                    (**ety).clone(),
                                );
                            }
                        } else {
                            attrs_known = false;
                        }
                    }
                    _ => {
                        return Err(FnError::arg(
                            i,
                            format!(
                                "arguments must be maps or objects, got {}",
                                quote(&ty.friendly_name())
                            ),
                        ))
                    }
                }
                match &first {
                    None => first = Some(ty.clone()),
                    Some(f) if f != ty => matching = false,
                    _ => {}
                }
            }
            if matching {
                return Ok(first.unwrap_or_else(Type::empty_object));
            }
            if !attrs_known {
                return Ok(Type::Dynamic);
            }
            Ok(Type::object(attrs))
        },
        |args, ret| {
            let mut out: BTreeMap<String, Value> = BTreeMap::new();
            let mut marks = ValueMarks::new();
            for arg in args {
                if arg.is_null() {
                    continue;
                }
                let (arg, m) = arg.unmark_with_marks();
                marks.extend(m);
                for (k, v) in arg.elements() {
                    out.insert(k.as_str().unwrap_or_default().to_string(), v);
                }
            }
            let v = match ret {
                Type::Map(ety) => Value::map((**ety).clone(), out)?,
                _ => Value::object(out),
            };
            Ok(v.with_marks(marks))
        },
    )
}

fn concat() -> Function {
    Function::new(
        vec![],
        Some(Param::new("seqs", Type::Dynamic).allow_marked()),
        |args| {
            if args.is_empty() {
                return Err(FnError::general("at least one argument is required"));
            }
            if args.iter().all(|a| a.ty().is_list()) {
                let tys: Vec<Type> = args.iter().map(|a| a.ty().clone()).collect();
                if let Some(t) = unify_unsafe(&tys) {
                    return Ok(t);
                }
            }
            let mut etys = Vec::new();
            for (i, val) in args.iter().enumerate() {
                let (val, _) = val.unmark_deep();
                match val.ty() {
                    Type::Tuple(t) => etys.extend(t.iter().cloned()),
                    Type::List(e) => {
                        if !val.is_known() {
                            return Ok(Type::Dynamic);
                        }
                        let n = val.length_int().unwrap_or(0);
                        etys.extend(std::iter::repeat_n((**e).clone(), n));
                    }
                    other => {
                        return Err(FnError::arg(
                            i,
                            format!(
                                "all arguments must be lists or tuples; got {}",
                                other.friendly_name()
                            ),
                        ))
                    }
                }
            }
            Ok(Type::tuple(etys))
        },
        |args, ret| {
            let mut vals = Vec::new();
            let mut marks = ValueMarks::new();
            for (i, seq) in args.iter().enumerate() {
                let seq = if ret.is_list() {
                    convert(seq, ret).map_err(|e| FnError::arg(i, e.msg))?
                } else {
                    seq.clone()
                };
                let (seq, m) = seq.unmark_with_marks();
                marks.extend(m);
                vals.extend(seq.elements().into_iter().map(|(_, v)| v));
            }
            match ret {
                Type::List(e) => Ok(Value::list((**e).clone(), vals)?.with_marks(marks)),
                _ => Ok(Value::tuple(vals).with_marks(marks)),
            }
        },
    )
}

/// gocty's conversion of a number to a Go `int`.
pub(crate) fn to_int(v: &Value) -> Result<i64, String> {
    v.as_number()
        .filter(|n| n.is_int())
        .and_then(Number::to_i64)
        .ok_or_else(|| {
            format!(
                "value must be a whole number, between {} and {}",
                i64::MIN,
                i64::MAX
            )
        })
}

fn element() -> Function {
    Function::new(
        vec![
            Param::new("list", Type::Dynamic).allow_marked(),
            Param::new("index", Type::Number),
        ],
        None,
        |args| {
            let index = &args[1];
            match args[0].ty() {
                Type::List(e) => Ok((**e).clone()),
                Type::Tuple(etys) => {
                    if !index.is_known() {
                        return Ok(Type::Dynamic);
                    }
                    // go-cty 1.16 wraps negative indexes for lists but
                    // indexes a tuple's element types with them (a Go
                    // panic): an error either way.
                    if index.as_number().is_some_and(|n| n.sign() < 0) {
                        return Err(FnError::general(
                            "cannot use element function with a negative index",
                        ));
                    }
                    let i = to_int(index)
                        .map_err(|e| FnError::general(format!("invalid index: {e}")))?;
                    if etys.is_empty() {
                        return Err(FnError::general(
                            "cannot use element function with an empty list",
                        ));
                    }
                    Ok(etys[(i as usize) % etys.len()].clone())
                }
                other => Err(FnError::general(format!(
                    "cannot read elements from {}",
                    other.friendly_name()
                ))),
            }
        },
        |args, ret| {
            let i =
                to_int(&args[1]).map_err(|e| FnError::general(format!("invalid index: {e}")))?;
            let (input, marks) = args[0].unmark_with_marks();
            if !input.is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let l = input.length_int().unwrap_or(0);
            if l == 0 {
                return Err(FnError::general(
                    "cannot use element function with an empty list",
                ));
            }
            // Go's `%` keeps the dividend's sign; negative indexes count
            // from the end (go-cty 1.16, Terraform 1.10).
            let idx = i.rem_euclid(l as i64) as usize;
            let v = input
                .index(&Value::number_int(idx as i64))
                .ok_or_else(|| FnError::general("element index out of range"))?;
            Ok(v.with_marks(marks))
        },
    )
}

fn range() -> Function {
    Function::new(
        vec![],
        Some(Param::new("params", Type::Number)),
        |_| Ok(Type::list(Type::Number)),
        |args, _| {
            let zero = Value::number_int(0);
            let lt =
                |a: &Value, b: &Value| a.less_than(b).ok().and_then(|v| v.as_bool()) == Some(true);
            let gt = |a: &Value, b: &Value| {
                a.greater_than(b).ok().and_then(|v| v.as_bool()) == Some(true)
            };
            let (start, end, step) = match args.len() {
                1 => {
                    let step = if lt(&args[0], &zero) { -1 } else { 1 };
                    (zero.clone(), args[0].clone(), Value::number_int(step))
                }
                2 => {
                    let step = if lt(&args[1], &args[0]) { -1 } else { 1 };
                    (args[0].clone(), args[1].clone(), Value::number_int(step))
                }
                3 => (args[0].clone(), args[1].clone(), args[2].clone()),
                _ => return Err(FnError::general("must have one, two, or three arguments")),
            };
            // cty compares the step against its Zero constant by identity,
            // which never matches a computed zero: a zero step loops until
            // the value limit below.
            let down = lt(&step, &zero);
            if down {
                if gt(&end, &start) {
                    return Err(FnError::arg(
                        1,
                        "end must be less than start when step is negative",
                    ));
                }
            } else if lt(&end, &start) {
                return Err(FnError::arg(
                    1,
                    "end must be greater than start when step is positive",
                ));
            }
            let mut vals = Vec::new();
            let mut num = start;
            loop {
                let done = if down {
                    !gt(&num, &end)
                } else {
                    !lt(&num, &end)
                };
                if done {
                    break;
                }
                if vals.len() >= 1024 {
                    return Err(FnError::general(
                        "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step",
                    ));
                }
                vals.push(num.clone());
                num = num.add(&step)?;
            }
            Ok(Value::list(Type::Number, vals)?)
        },
    )
}

fn coalesce() -> Function {
    Function::new(
        vec![],
        Some(
            Param::new("vals", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic()
                .allow_null(),
        ),
        |args| {
            let tys: Vec<Type> = args.iter().map(|a| a.ty().clone()).collect();
            unify_unsafe(&tys)
                .ok_or_else(|| FnError::general("all arguments must have the same type"))
        },
        |args, ret| {
            for arg in args {
                let v = convert(arg, ret).map_err(|e| FnError::general(e.msg))?;
                if !v.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if v.is_null() {
                    continue;
                }
                if ret == &Type::String && v.as_str() == Some("") {
                    continue;
                }
                return Ok(v);
            }
            Err(FnError::general("no non-null, non-empty-string arguments"))
        },
    )
}
