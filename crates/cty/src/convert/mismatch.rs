//! cty `MismatchMessage`: why no conversion exists between two types.

use crate::types::Type;

use super::get_conversion;

/// The user-facing explanation of why `got` cannot convert to `want`.
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Object(_), Type::Object(_)) => mismatch_objects(got, want),
        (Type::Tuple(_), Type::List(e)) if e.is_dynamic() => {
            "all list elements must have the same type".into()
        }
        (Type::Tuple(_), Type::Set(e)) if e.is_dynamic() => {
            "all set elements must have the same type".into()
        }
        (Type::Object(_), Type::Map(e)) if e.is_dynamic() => {
            "all map elements must have the same type".into()
        }
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => from_structural(got, want),
        _ if got.is_collection() && want.is_collection() => from_collection(got, want),
        _ => format!("{} required", want.friendly_name_for_constraint()),
    }
}

fn mismatch_objects(got: &Type, want: &Type) -> String {
    let (Some(gat), Some(wat)) = (got.attribute_types(), want.attribute_types()) else {
        return "incorrect object attributes".into();
    };
    let mut missing: Vec<&String> = Vec::new();
    let mut unsafe_mismatch: Option<String> = None;
    let mut safe_mismatch: Option<String> = None;
    for (name, waty) in wat {
        let Some(gaty) = gat.get(name) else {
            if !want.attribute_optional(name) {
                missing.push(name);
            }
            continue;
        };
        if gaty == waty {
            continue;
        }
        if unsafe_mismatch.is_some() {
            continue;
        }
        if get_conversion(gaty, waty, true).is_none() {
            unsafe_mismatch = Some(format!(
                "attribute {}: {}",
                crate::format::go_quote(name),
                mismatch_message(gaty, waty)
            ));
        }
        if safe_mismatch.is_some() {
            continue;
        }
        if get_conversion(gaty, waty, false).is_none() {
            safe_mismatch = Some(format!(
                "attribute {}: {}",
                crate::format::go_quote(name),
                mismatch_message(gaty, waty)
            ));
        }
    }
    let q = |s: &String| crate::format::go_quote(s);
    match missing.len() {
        0 => unsafe_mismatch
            .or(safe_mismatch)
            .unwrap_or_else(|| "incorrect object attributes".into()),
        1 => format!("attribute {} is required", q(missing[0])),
        2 => format!(
            "attributes {} and {} are required",
            q(missing[0]),
            q(missing[1])
        ),
        n => {
            let head: Vec<String> = missing[..n - 1]
                .iter()
                .map(|s| format!("{}, ", q(s)))
                .collect();
            format!(
                "attributes {}and {} are required",
                head.concat(),
                q(missing[n - 1])
            )
        }
    }
}

fn from_structural(got: &Type, want: &Type) -> String {
    let required = || format!("{} required", want.friendly_name_for_constraint());
    match (got, want) {
        (_, Type::List(_) | Type::Set(_)) if !got.is_tuple() => return required(),
        (_, Type::Map(_)) if !got.is_object() => return required(),
        _ => {}
    }
    let Some(wety) = want.element_type() else {
        return required();
    };
    match got {
        Type::Tuple(etys) => {
            for (i, gety) in etys.iter().enumerate() {
                if gety != wety && get_conversion(gety, wety, true).is_none() {
                    return format!("element {i}: {}", mismatch_message(gety, wety));
                }
            }
            format!(
                "all elements must be {}",
                wety.friendly_name_for_constraint()
            )
        }
        Type::Object(o) => {
            for (name, gaty) in &o.attrs {
                if gaty != wety && get_conversion(gaty, wety, true).is_none() {
                    return format!(
                        "element {}: {}",
                        crate::format::go_quote(name),
                        mismatch_message(gaty, wety)
                    );
                }
            }
            format!(
                "all elements must be {}",
                wety.friendly_name_for_constraint()
            )
        }
        _ => required(),
    }
}

fn from_collection(got: &Type, want: &Type) -> String {
    let required = || format!("{} required", want.friendly_name_for_constraint());
    let seq = got.is_list() || got.is_set();
    match want {
        Type::List(_) | Type::Set(_) if !seq => return required(),
        Type::Map(_) if !got.is_map() => return required(),
        _ => {}
    }
    let (Some(gety), Some(wety)) = (got.element_type(), want.element_type()) else {
        return required();
    };
    let noun = match want {
        Type::List(_) => "list element type",
        Type::Set(_) => "set element type",
        _ => "map element type",
    };
    format!("incorrect {noun}: {}", mismatch_message(gety, wety))
}
