//! Conversions between collection and structural types (cty's
//! conversion_collection.go and conversion_object.go).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::path::Path;
use crate::types::Type;
use crate::value::Value;

use super::unify::unify_inner;
use super::{cerr, get_conversion, Conv};

fn elems_of(v: &Value) -> Vec<Value> {
    v.elements().into_iter().map(|(_, e)| e).collect()
}

pub(super) fn collection_to_list(ety: Type, conv: Option<Conv>) -> Conv {
    Arc::new(move |v: &Value, path: &Path| {
        let mut out = Vec::new();
        for (i, e) in elems_of(v).into_iter().enumerate() {
            let mut e = match &conv {
                Some(c) => c(&e, &path.index_int(i))?,
                None => e,
            };
            if e.is_null() {
                e = Value::null(e.ty().without_optional_attributes_deep())
                    .with_marks(e.marks().clone());
            }
            out.push(e);
        }
        if out.is_empty() {
            let ety = if ety.is_dynamic() {
                v.ty().element_type().cloned().unwrap_or(Type::Dynamic)
            } else {
                ety.clone()
            };
            return Ok(Value::list_empty(ety.without_optional_attributes_deep()));
        }
        Value::list_infer(out)
            .map_err(|_| cerr(path, "element types must all match for conversion to list"))
    })
}

pub(super) fn collection_to_set(ety: Type, conv: Option<Conv>) -> Conv {
    Arc::new(move |v: &Value, path: &Path| {
        let mut out = Vec::new();
        for (i, e) in elems_of(v).into_iter().enumerate() {
            let mut e = match &conv {
                Some(c) => c(&e, &path.index_int(i))?,
                None => e,
            };
            if e.is_null() {
                e = Value::null(e.ty().without_optional_attributes_deep())
                    .with_marks(e.marks().clone());
            }
            out.push(e);
        }
        if out.is_empty() {
            let ety = if ety.is_dynamic() {
                v.ty().element_type().cloned().unwrap_or(Type::Dynamic)
            } else {
                ety.clone()
            };
            return Ok(Value::set_empty(ety.without_optional_attributes_deep()));
        }
        Value::set_infer(out)
            .map_err(|_| cerr(path, "element types must all match for conversion to set"))
    })
}

pub(super) fn collection_to_map(ety: Type, conv: Conv) -> Conv {
    Arc::new(move |v: &Value, path: &Path| {
        let mut out = BTreeMap::new();
        for (k, e) in v.as_attrs().cloned().unwrap_or_default() {
            let e = conv(&e, &path.index(Value::string(&k)))?;
            out.insert(k, e);
        }
        if out.is_empty() {
            let ety = if ety.is_dynamic() {
                v.ty().element_type().cloned().unwrap_or(Type::Dynamic)
            } else {
                ety.clone()
            };
            return Ok(Value::map_empty(ety.without_optional_attributes_deep()));
        }
        Value::map_infer(out)
            .map_err(|_| cerr(path, "element types must all match for conversion to map"))
    })
}

pub(super) fn object_to_object(from: &Type, to: &Type, unsafe_ok: bool) -> Option<Conv> {
    let in_attrs = from.attribute_types()?;
    let out_attrs = to.attribute_types()?.clone();
    let optional = to.optional_attributes()?.clone();
    let mut convs: BTreeMap<String, Option<Conv>> = BTreeMap::new();
    for (name, out_aty) in &out_attrs {
        match in_attrs.get(name) {
            None if optional.contains(name) => continue,
            None => return None,
            Some(in_aty) if in_aty == out_aty => {
                convs.insert(name.clone(), None);
            }
            Some(in_aty) => {
                convs.insert(
                    name.clone(),
                    Some(get_conversion(in_aty, out_aty, unsafe_ok)?),
                );
            }
        }
    }
    Some(Arc::new(move |v: &Value, path: &Path| {
        let mut out = BTreeMap::new();
        for (name, e) in v.as_attrs().cloned().unwrap_or_default() {
            let Some(conv) = convs.get(&name) else {
                continue;
            };
            let e = match conv {
                Some(c) => c(&e, &path.get_attr(&name))?,
                None => e,
            };
            out.insert(name, e);
        }
        for name in &optional {
            if !out.contains_key(name) {
                let ty = out_attrs.get(name).cloned().unwrap_or(Type::Dynamic);
                out.insert(
                    name.clone(),
                    Value::null(ty.without_optional_attributes_deep()),
                );
            }
        }
        Ok(Value::object(out))
    }))
}

pub(super) fn tuple_to_tuple(from: &Type, to: &Type, unsafe_ok: bool) -> Option<Conv> {
    let in_etys = from.tuple_element_types()?;
    let out_etys = to.tuple_element_types()?;
    if in_etys.len() != out_etys.len() {
        return None;
    }
    let mut convs: Vec<Option<Conv>> = Vec::new();
    for (i, o) in in_etys.iter().zip(out_etys) {
        convs.push(if i == o {
            None
        } else {
            Some(get_conversion(i, o, unsafe_ok)?)
        });
    }
    Some(Arc::new(move |v: &Value, path: &Path| {
        let mut out = Vec::new();
        for (i, e) in elems_of(v).into_iter().enumerate() {
            out.push(match convs.get(i).cloned().flatten() {
                Some(c) => c(&e, &path.index_int(i))?,
                None => e,
            });
        }
        Ok(Value::tuple(out))
    }))
}

pub(super) fn tuple_to_seq(from: &Type, ety: &Type, unsafe_ok: bool, to_set: bool) -> Option<Conv> {
    let etys = from.tuple_element_types()?.to_vec();
    let mut ety = ety.clone();
    if etys.is_empty() {
        let ety = ety.without_optional_attributes_deep();
        return Some(Arc::new(move |_: &Value, _: &Path| {
            Ok(if to_set {
                Value::set_empty(ety.clone())
            } else {
                Value::list_empty(ety.clone())
            })
        }));
    }
    if ety.is_dynamic() {
        ety = unify_inner(&etys, unsafe_ok)?;
        if ety.is_dynamic() && etys.iter().any(|t| !t.is_dynamic()) {
            return None;
        }
    }
    let mut convs: Vec<Option<Conv>> = Vec::new();
    for t in &etys {
        convs.push(if *t == ety {
            None
        } else {
            Some(get_conversion(t, &ety, unsafe_ok)?)
        });
    }
    Some(Arc::new(move |v: &Value, path: &Path| {
        let mut out = Vec::new();
        for (i, e) in elems_of(v).into_iter().enumerate() {
            out.push(match convs.get(i).cloned().flatten() {
                Some(c) => c(&e, &path.index_int(i))?,
                None => e,
            });
        }
        if to_set {
            Value::set_infer(out)
                .map_err(|_| cerr(path, "element types must all match for conversion to set"))
        } else {
            Value::list_infer(out)
                .map_err(|_| cerr(path, "element types must all match for conversion to list"))
        }
    }))
}

pub(super) fn object_to_map(from: &Type, ety: &Type, unsafe_ok: bool) -> Option<Conv> {
    let attrs = from.attribute_types()?.clone();
    let mut ety = ety.clone();
    if attrs.is_empty() {
        let ety = ety.without_optional_attributes_deep();
        return Some(Arc::new(move |_: &Value, _: &Path| {
            Ok(Value::map_empty(ety.clone()))
        }));
    }
    if ety.is_dynamic() {
        let tys: Vec<Type> = attrs.values().cloned().collect();
        ety = unify_inner(&tys, unsafe_ok)?;
        if ety.is_dynamic() && tys.iter().any(|t| !t.is_dynamic()) {
            return None;
        }
    }
    let mut convs: BTreeMap<String, Option<Conv>> = BTreeMap::new();
    for (name, aty) in &attrs {
        convs.insert(
            name.clone(),
            if *aty == ety {
                None
            } else {
                Some(get_conversion(aty, &ety, unsafe_ok)?)
            },
        );
    }
    Some(Arc::new(move |v: &Value, path: &Path| {
        let mut out = BTreeMap::new();
        for (name, e) in v.as_attrs().cloned().unwrap_or_default() {
            let e = match convs.get(&name).cloned().flatten() {
                Some(c) => c(&e, &path.index(Value::string(&name)))?,
                None => e,
            };
            out.insert(name, e);
        }
        Value::map_infer(out)
            .map_err(|_| cerr(path, "element types must all match for conversion to map"))
    }))
}

pub(super) fn map_to_object(from: &Type, to: &Type) -> Option<Conv> {
    let mety = from.element_type()?;
    let out_attrs = to.attribute_types()?.clone();
    let optional = to.optional_attributes()?.clone();
    let mut convs: BTreeMap<String, Option<Conv>> = BTreeMap::new();
    for (name, aty) in &out_attrs {
        convs.insert(
            name.clone(),
            if aty == mety {
                None
            } else {
                Some(get_conversion(mety, aty, true)?)
            },
        );
    }
    Some(Arc::new(move |v: &Value, path: &Path| {
        let mut out = BTreeMap::new();
        for (name, e) in v.as_attrs().cloned().unwrap_or_default() {
            let Some(conv) = convs.get(&name) else {
                continue;
            };
            let e = match conv {
                Some(c) => c(&e, &path.get_attr(&name))?,
                None => e,
            };
            out.insert(name, e);
        }
        for (name, aty) in &out_attrs {
            if !out.contains_key(name) {
                if optional.contains(name) {
                    out.insert(name.clone(), Value::null(aty.clone()));
                } else {
                    return Err(cerr(
                        path,
                        format!(
                            "map has no element for required attribute {}",
                            crate::format::go_quote(name)
                        ),
                    ));
                }
            }
        }
        Ok(Value::object(out))
    }))
}
