//! Sequence functions: chunklist, coalescelist, compact, contains, distinct,
//! flatten, index, matchkeys, one, reverse, slice, sort, transpose, zipmap.

use std::collections::BTreeMap;

use cty::{Type, Value, ValueMarks};

use super::{go_int, list_of};
use crate::functions::framework::{FnError, Function, FunctionTable, Param};

pub(super) fn register(table: &mut FunctionTable) {
    table.insert("chunklist", chunklist());
    table.insert("coalescelist", coalescelist());
    table.insert("compact", compact());
    table.insert("contains", contains());
    table.insert("distinct", distinct());
    table.insert("flatten", flatten());
    table.insert("index", index());
    table.insert("matchkeys", matchkeys());
    table.insert("one", one());
    table.insert("reverse", reverse());
    table.insert("slice", slice());
    table.insert("sort", sort());
    table.insert("transpose", transpose());
    table.insert("zipmap", zipmap());
}

fn elems(v: &Value) -> &[Value] {
    v.as_elements().unwrap_or_default()
}

/// cty `Equals` answering true only when known and true.
fn known_true(v: &Value) -> Option<bool> {
    let v = v.unmark();
    if !v.is_known() {
        return None;
    }
    Some(v.as_bool() == Some(true))
}

/// go-cty `ChunklistFunc`.
fn chunklist() -> Function {
    Function::new(
        vec![
            Param::new("list", Type::list(Type::Dynamic)).allow_marked(),
            Param::new("size", Type::Number).allow_marked(),
        ],
        None,
        |args| Ok(Type::list(args[0].ty().clone())),
        |args, _| {
            let (list, list_marks) = args[0].unmark_with_marks();
            let (size, size_marks) = args[1].unmark_with_marks();
            let marks: ValueMarks = list_marks.into_iter().chain(size_marks).collect();
            let size = go_int(&size).map_err(|e| FnError::general(format!("invalid size: {e}")))?;
            if size < 0 {
                return Err(FnError::general("the size argument must be positive"));
            }
            let items = elems(&list);
            if items.is_empty() {
                return Ok(Value::list_empty(list.ty().clone()).with_marks(marks));
            }
            if size == 0 {
                return Ok(Value::list_infer(vec![list.clone()])?.with_marks(marks));
            }
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            let mut out = Vec::with_capacity(items.len() / size + 1);
            for chunk in items.chunks(size) {
                out.push(Value::list_infer(chunk.to_vec())?);
            }
            Ok(Value::list_infer(out)?.with_marks(marks))
        },
    )
}

/// go-cty `CoalesceListFunc`.
fn coalescelist() -> Function {
    Function::new(
        Vec::new(),
        Some(
            Param::new("vals", Type::Dynamic)
                .allow_unknown()
                .allow_dynamic()
                .allow_null(),
        ),
        |args| {
            if args.is_empty() {
                return Err(FnError::general("at least one argument is required"));
            }
            let mut tys = Vec::with_capacity(args.len());
            for arg in args {
                if !arg.is_known() {
                    return Ok(Type::Dynamic);
                }
                let ty = arg.ty();
                if !ty.is_list() && !ty.is_tuple() {
                    return Err(FnError::general(
                        "coalescelist arguments must be lists or tuples",
                    ));
                }
                tys.push(ty.clone());
            }
            let first = &tys[0];
            if tys[1..].iter().any(|t| t != first) {
                return Ok(Type::Dynamic);
            }
            Ok(first.clone())
        },
        |args, ret| {
            for arg in args {
                if !arg.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if arg.is_null() {
                    continue;
                }
                if arg.length_int().unwrap_or(0) > 0 {
                    return Ok(arg.clone());
                }
            }
            Err(FnError::general("no non-null arguments"))
        },
    )
}

/// go-cty `CompactFunc`.
fn compact() -> Function {
    Function::new(
        vec![Param::new("list", Type::list(Type::String))],
        None,
        |_| Ok(Type::list(Type::String)),
        |args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let out: Vec<Value> = elems(&args[0])
                .iter()
                .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
                .cloned()
                .collect();
            list_of(&Type::String, out)
        },
    )
}

/// go-cty `ContainsFunc`.
fn contains() -> Function {
    Function::new(
        vec![
            Param::new("list", Type::Dynamic),
            Param::new("value", Type::Dynamic),
        ],
        None,
        |_| Ok(Type::Bool),
        |args, _| {
            let ty = args[0].ty();
            if !ty.is_list() && !ty.is_tuple() && !ty.is_set() {
                return Err(FnError::general("argument must be list, tuple, or set"));
            }
            let items = elems(&args[0]);
            if items.is_empty() {
                return Ok(Value::bool(false));
            }
            let mut contains_unknown = false;
            for v in items {
                match known_true(&args[1].equals(v)) {
                    None => contains_unknown = true,
                    Some(true) => return Ok(Value::bool(true)),
                    Some(false) => {}
                }
            }
            if contains_unknown {
                return Ok(Value::unknown(Type::Bool));
            }
            Ok(Value::bool(false))
        },
    )
}

/// go-cty `DistinctFunc`.
fn distinct() -> Function {
    Function::new(
        vec![Param::new("list", Type::list(Type::Dynamic))],
        None,
        |args| Ok(args[0].ty().clone()),
        |args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut out: Vec<Value> = Vec::new();
            for v in elems(&args[0]) {
                if !out.iter().any(|e| known_true(&e.equals(v)) == Some(true)) {
                    out.push(v.clone());
                }
            }
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            list_of(&ety, out)
        },
    )
}

/// go-cty `FlattenFunc`.
fn flatten() -> Function {
    Function::new(
        vec![Param::new("list", Type::Dynamic).allow_marked()],
        None,
        |args| {
            if !args[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            let ty = args[0].ty();
            if !ty.is_list() && !ty.is_set() && !ty.is_tuple() {
                return Err(FnError::general("can only flatten lists, sets and tuples"));
            }
            let (out, _, known) = flattener(&args[0]);
            if !known {
                return Ok(Type::Dynamic);
            }
            Ok(Type::tuple(out.iter().map(|v| v.ty().clone()).collect()))
        },
        |args, ret| {
            let (unmarked, marks) = args[0].unmark_with_marks();
            if unmarked.length_int() == Some(0) {
                return Ok(Value::empty_tuple().with_marks(marks));
            }
            let (out, marks, known) = flattener(&args[0]);
            if !known {
                return Ok(Value::unknown(ret.clone()).with_marks(marks));
            }
            Ok(Value::tuple(out).with_marks(marks))
        },
    )
}

/// go-cty `flattener`: the flattened elements, the marks of every
/// flattened sequence, and whether the result is known.
fn flattener(list: &Value) -> (Vec<Value>, ValueMarks, bool) {
    let (list, mut marks) = list.unmark_with_marks();
    if !list.length().is_known() {
        return (Vec::new(), marks, false);
    }
    let mut out = Vec::new();
    let mut known = true;
    for val in elems(&list) {
        if !val.is_known() && val.ty().is_dynamic() && !val.is_marked() {
            known = false;
        }
        let ty = val.ty();
        if !val.is_null() && (ty.is_list() || ty.is_set() || ty.is_tuple()) {
            if !val.is_known() {
                known = false;
                marks.extend(val.marks().iter().cloned());
                continue;
            }
            let (res, res_marks, res_known) = flattener(val);
            marks.extend(res_marks);
            if res_known {
                out.extend(res);
            } else {
                known = false;
            }
        } else {
            out.push(val.clone());
        }
    }
    (out, marks, known)
}

/// OpenTofu `IndexFunc`.
fn index() -> Function {
    Function::new(
        vec![
            Param::new("list", Type::Dynamic),
            Param::new("value", Type::Dynamic),
        ],
        None,
        |_| Ok(Type::Number),
        |args, _| {
            let ty = args[0].ty();
            if !ty.is_list() && !ty.is_tuple() {
                return Err(FnError::general("argument must be a list or tuple"));
            }
            let items = elems(&args[0]);
            if items.is_empty() {
                return Err(FnError::general("cannot search an empty list"));
            }
            for (i, v) in items.iter().enumerate() {
                match known_true(&v.equals(&args[1])) {
                    None => return Ok(Value::unknown(Type::Number)),
                    Some(true) => return Ok(Value::number_int(i as i64)),
                    Some(false) => {}
                }
            }
            Err(FnError::general("item not found"))
        },
    )
}

/// OpenTofu `MatchkeysFunc`.
fn matchkeys() -> Function {
    Function::new(
        vec![
            Param::new("values", Type::list(Type::Dynamic)),
            Param::new("keys", Type::list(Type::Dynamic)),
            Param::new("searchset", Type::list(Type::Dynamic)),
        ],
        None,
        |args| {
            if cty::unify_unsafe(&[args[1].ty().clone(), args[2].ty().clone()]).is_none() {
                return Err(FnError::general(
                    "keys and searchset must be of the same type",
                ));
            }
            Ok(args[0].ty().clone())
        },
        |args, ret| {
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let (values, keys, searchset) = (&args[0], &args[1], &args[2]);
            if values.length_int() != keys.length_int() {
                return Err(FnError::general(
                    "length of keys and values should be equal",
                ));
            }
            let ty = cty::unify_unsafe(&[keys.ty().clone(), searchset.ty().clone()])
                .unwrap_or(Type::Dynamic);
            let keys = cty::convert(keys, &ty).unwrap_or_else(|_| keys.clone());
            let searchset = cty::convert(searchset, &ty).unwrap_or_else(|_| searchset.clone());
            let search = elems(&searchset);
            if search.is_empty() {
                return Ok(Value::list_empty(ety));
            }
            if !values.is_wholly_known() || !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let vals = elems(values);
            let mut out = Vec::new();
            for (i, key) in elems(&keys).iter().enumerate() {
                for s in search {
                    match known_true(&key.equals(s)) {
                        None => return Ok(Value::list_empty(ety)),
                        Some(true) => {
                            if let Some(v) = vals.get(i) {
                                out.push(v.clone());
                            }
                            break;
                        }
                        Some(false) => {}
                    }
                }
            }
            list_of(&ety, out)
        },
    )
}

const ONE_MSG: &str = "must be a list, set, or tuple value with either zero or one elements";

/// OpenTofu `OneFunc`.
fn one() -> Function {
    Function::new(
        vec![Param::new("list", Type::Dynamic)],
        None,
        |args| {
            let ty = args[0].ty();
            match ty {
                Type::List(e) | Type::Set(e) => Ok((**e).clone()),
                Type::Tuple(etys) if etys.is_empty() => Ok(Type::Dynamic),
                Type::Tuple(etys) if etys.len() == 1 => Ok(etys[0].clone()),
                _ => Err(FnError::arg(0, ONE_MSG)),
            }
        },
        |args, ret| {
            let val = &args[0];
            if (val.ty().is_list() || val.ty().is_set()) && !val.length().is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            match elems(val) {
                [] => Ok(Value::null(ret.clone())),
                [v] => Ok(v.clone()),
                _ => Err(FnError::arg(0, ONE_MSG)),
            }
        },
    )
}

/// go-cty `ReverseListFunc`.
fn reverse() -> Function {
    Function::new(
        vec![Param::new("list", Type::Dynamic).allow_marked()],
        None,
        |args| match args[0].ty() {
            Type::Tuple(etys) => Ok(Type::tuple(etys.iter().rev().cloned().collect())),
            Type::List(e) | Type::Set(e) => Ok(Type::list((**e).clone())),
            other => Err(FnError::arg(
                0,
                format!(
                    "can only reverse list or tuple values, not {}",
                    other.friendly_name()
                ),
            )),
        },
        |args, ret| {
            let (input, marks) = args[0].unmark_with_marks();
            let out: Vec<Value> = elems(&input).iter().rev().cloned().collect();
            if ret.is_tuple() {
                return Ok(Value::tuple(out).with_marks(marks));
            }
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            Ok(list_of(&ety, out)?.with_marks(marks))
        },
    )
}

/// go-cty `SliceFunc`.
fn slice() -> Function {
    Function::new(
        vec![
            Param::new("list", Type::Dynamic).allow_marked(),
            Param::new("start_index", Type::Number),
            Param::new("end_index", Type::Number),
        ],
        None,
        |args| {
            let ty = args[0].ty();
            if ty.is_set() {
                return Err(FnError::arg(
                    0,
                    "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
                ));
            }
            if !ty.is_list() && !ty.is_tuple() {
                return Err(FnError::arg(0, "must be a list or tuple value"));
            }
            let (start, end, known) = slice_indexes(args)?;
            if ty.is_list() {
                return Ok(ty.clone());
            }
            if !known {
                return Ok(Type::Dynamic);
            }
            let etys = ty.tuple_element_types().unwrap_or_default();
            Ok(Type::tuple(
                etys.get(start..end).unwrap_or_default().to_vec(),
            ))
        },
        |args, ret| {
            let (input, marks) = args[0].unmark_with_marks();
            if ret.is_dynamic() {
                return Ok(Value::dynamic().with_marks(marks));
            }
            let (start, end, _) = slice_indexes(args)?;
            let out = elems(&input).get(start..end).unwrap_or_default().to_vec();
            if ret.is_tuple() {
                return Ok(Value::tuple(out).with_marks(marks));
            }
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            Ok(list_of(&ety, out)?.with_marks(marks))
        },
    )
}

/// go-cty `sliceIndexes`: start, end and whether both are known.
fn slice_indexes(args: &[Value]) -> Result<(usize, usize, bool), FnError> {
    let list = args[0].unmark();
    let length = if list.ty().is_tuple() || list.length().is_known() {
        list.length_int()
    } else {
        None
    };
    let index = |i: usize, what: &str| -> Result<Option<usize>, FnError> {
        let v = &args[i];
        if !v.is_known() {
            return Ok(None);
        }
        let n = go_int(v).map_err(|e| FnError::arg(i, format!("invalid {what} index: {e}")))?;
        if n < 0 {
            return Err(FnError::arg(
                i,
                format!("{what} index must not be less than zero"),
            ));
        }
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if length.is_some_and(|l| n > l) {
            return Err(FnError::arg(
                i,
                format!("{what} index must not be greater than the length of the list"),
            ));
        }
        Ok(Some(n))
    };
    let start = index(1, "start")?;
    let end = index(2, "end")?;
    match (start, end) {
        (Some(s), Some(e)) if s > e => Err(FnError::arg(
            1,
            "start index must not be greater than end index",
        )),
        (Some(s), Some(e)) => Ok((s, e, true)),
        (s, e) => Ok((s.unwrap_or(0), e.unwrap_or(0), false)),
    }
}

/// go-cty `SortFunc`.
fn sort() -> Function {
    Function::new(
        vec![Param::new("list", Type::list(Type::String)).allow_unknown()],
        None,
        |_| Ok(Type::list(Type::String)),
        |args, ret| {
            let list = &args[0];
            if !list.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let items = elems(list);
            if items.is_empty() {
                return Ok(list.clone());
            }
            let mut strs = Vec::with_capacity(items.len());
            for (i, v) in items.iter().enumerate() {
                match v.as_str() {
                    Some(s) => strs.push(s.to_string()),
                    None => {
                        return Err(FnError::general(format!(
                            "given list element {i} is null; a null string cannot be sorted"
                        )))
                    }
                }
            }
            strs.sort();
            list_of(&Type::String, strs.into_iter().map(Value::string).collect())
        },
    )
}

/// OpenTofu `TransposeFunc`.
fn transpose() -> Function {
    let ret_ty = Type::map(Type::list(Type::String));
    Function::new(
        vec![Param::new("values", ret_ty.clone())],
        None,
        move |_| Ok(ret_ty.clone()),
        |args, ret| {
            let input = &args[0];
            if !input.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut tmp: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (k, list) in input.as_attrs().into_iter().flatten() {
                if list.is_null() {
                    return Err(FnError::general("input must not contain null list"));
                }
                for v in elems(list) {
                    let Some(s) = v.as_str() else {
                        return Err(FnError::general("input list must not contain null string"));
                    };
                    tmp.entry(s.to_string()).or_default().push(k.clone());
                }
            }
            let mut out = BTreeMap::new();
            for (k, mut vs) in tmp {
                vs.sort();
                let vals = vs.into_iter().map(Value::string).collect();
                out.insert(k, Value::list(Type::String, vals)?);
            }
            Ok(Value::map(Type::list(Type::String), out)?)
        },
    )
}

/// go-cty `ZipmapFunc`.
fn zipmap() -> Function {
    Function::new(
        vec![
            Param::new("keys", Type::list(Type::String)).allow_marked(),
            Param::new("values", Type::Dynamic).allow_marked(),
        ],
        None,
        |args| {
            let (keys, values) = (&args[0], &args[1]);
            match values.ty() {
                Type::List(e) => Ok(Type::map((**e).clone())),
                Type::Tuple(vtys) => {
                    if !keys.is_wholly_known() {
                        return Ok(Type::Dynamic);
                    }
                    let keys = keys.unmark();
                    let raw = elems(&keys);
                    if raw.len() != vtys.len() {
                        return Err(FnError::general(format!(
                            "number of keys ({}) does not match number of values ({})",
                            raw.len(),
                            vtys.len()
                        )));
                    }
                    let mut atys = BTreeMap::new();
                    for (i, k) in raw.iter().enumerate() {
                        let Some(k) = k.unmark().as_str().map(str::to_string) else {
                            return Err(FnError::general(format!(
                                "keys list has null value at index {i}"
                            )));
                        };
                        atys.insert(k, vtys[i].clone());
                    }
                    Ok(Type::object(atys))
                }
                _ => Err(FnError::general(
                    "values argument must be a list or tuple value",
                )),
            }
        },
        |args, ret| {
            let (keys, key_marks) = args[0].unmark_with_marks();
            let (values, value_marks) = args[1].unmark_with_marks();
            let mut marks: ValueMarks = key_marks.into_iter().chain(value_marks).collect();
            if !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()).with_marks(marks));
            }
            let (kl, vl) = (
                keys.length_int().unwrap_or(0),
                values.length_int().unwrap_or(0),
            );
            if kl != vl {
                return Err(FnError::general(format!(
                    "number of keys ({kl}) does not match number of values ({vl})"
                )));
            }
            let vals = elems(&values);
            let mut out = BTreeMap::new();
            for (i, k) in elems(&keys).iter().enumerate() {
                let (k, km) = k.unmark_with_marks();
                let Some(k) = k.as_str() else {
                    return Err(FnError::general(format!(
                        "keys list has null value at index {i}"
                    )));
                };
                if let Some(v) = vals.get(i) {
                    out.insert(k.to_string(), v.clone());
                }
                marks.extend(km);
            }
            match ret {
                Type::Map(ety) => {
                    if out.is_empty() {
                        return Ok(Value::map_empty((**ety).clone()).with_marks(marks));
                    }
                    Ok(Value::map_infer(out)?.with_marks(marks))
                }
                Type::Object(_) => Ok(Value::object(out).with_marks(marks)),
                other => Err(FnError::general(format!(
                    "internally selected incorrect result type {} (this is a bug)",
                    other.friendly_name()
                ))),
            }
        },
    )
}
