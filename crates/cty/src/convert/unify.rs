//! Type unification (cty's unify.go, sort_types.go, compare_types.go):
//! the single type a set of types can all convert to, for conditionals
//! and collection literals.

use std::collections::BTreeMap;

use crate::types::Type;

use super::get_conversion;

/// `convert.Unify`: the preferred common type reachable by safe conversions.
pub fn unify(types: &[Type]) -> Option<Type> {
    unify_inner(types, false)
}

/// `convert.UnifyUnsafe`: as [`unify`], allowing unsafe conversions.
pub fn unify_unsafe(types: &[Type]) -> Option<Type> {
    unify_inner(types, true)
}

fn conv_ok(from: &Type, to: &Type, unsafe_ok: bool) -> bool {
    from == to || get_conversion(from, to, unsafe_ok).is_some()
}

pub(crate) fn unify_inner(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    if types.is_empty() {
        return None;
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let (maps, lists, sets) = (
        count(Type::is_map),
        count(Type::is_list),
        count(Type::is_set),
    );
    let (objects, tuples, dynamics) = (
        count(Type::is_object),
        count(Type::is_tuple),
        count(Type::is_dynamic),
    );
    let n = types.len();
    if maps > 0 && maps + dynamics == n {
        return unify_collections(Type::map, types, unsafe_ok, dynamics > 0);
    } else if maps > 0 && maps + objects + dynamics == n {
        if let Some(t) = unify_objects_as_maps(types, unsafe_ok) {
            if t.is_map() {
                return Some(t);
            }
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collections(Type::list, types, unsafe_ok, dynamics > 0);
    } else if sets > 0 && sets + dynamics == n {
        return unify_collections(Type::set, types, unsafe_ok, dynamics > 0);
    } else if objects > 0 && objects + dynamics == n {
        return unify_objects(types, unsafe_ok, dynamics > 0);
    } else if tuples > 0 && tuples + dynamics == n {
        return unify_tuples(types, unsafe_ok, dynamics > 0);
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    'outer: for want in sort_types(types) {
        let want = want.without_optional_attributes_deep();
        for t in types {
            if !conv_ok(t, &want, unsafe_ok) {
                continue 'outer;
            }
        }
        return Some(want);
    }
    None
}

fn all_convert(types: &[Type], to: &Type, unsafe_ok: bool) -> bool {
    types.iter().all(|t| conv_ok(t, to, unsafe_ok))
}

fn unify_collections(
    make: fn(Type) -> Type,
    types: &[Type],
    unsafe_ok: bool,
    dynamic: bool,
) -> Option<Type> {
    if dynamic {
        return Some(Type::Dynamic);
    }
    let etys: Vec<Type> = types
        .iter()
        .filter_map(|t| t.element_type().cloned())
        .collect();
    let ret = make(unify_inner(&etys, unsafe_ok)?);
    all_convert(types, &ret, unsafe_ok).then_some(ret)
}

fn unify_objects_as_maps(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    let mut maps = Vec::new();
    for t in types {
        match t.attribute_types() {
            Some(attrs) => {
                let etys: Vec<Type> = attrs.values().cloned().collect();
                maps.push(Type::map(unify_inner(&etys, unsafe_ok)?));
            }
            None => maps.push(t.clone()),
        }
    }
    let t = unify_inner(&maps, unsafe_ok)?;
    all_convert(types, &t, unsafe_ok).then_some(t)
}

fn unify_objects(types: &[Type], unsafe_ok: bool, dynamic: bool) -> Option<Type> {
    if dynamic {
        return Some(Type::Dynamic);
    }
    let first = types[0].attribute_types()?;
    for t in &types[1..] {
        let this = t.attribute_types()?;
        if this.len() != first.len() || this.keys().any(|k| !first.contains_key(k)) {
            return unify_objects_to_map(types, unsafe_ok);
        }
    }
    let mut attrs = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> = types
            .iter()
            .filter_map(|t| t.attribute_type(name).cloned())
            .collect();
        attrs.insert(name.clone(), unify_inner(&across, unsafe_ok)?);
    }
    let ret = Type::object(attrs);
    if all_convert(types, &ret, unsafe_ok) {
        Some(ret)
    } else {
        unify_objects_to_map(types, unsafe_ok)
    }
}

fn unify_objects_to_map(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    let atys: Vec<Type> = types
        .iter()
        .filter_map(|t| t.attribute_types())
        .flat_map(|a| a.values().cloned())
        .collect();
    let ret = Type::map(unify_inner(&atys, unsafe_ok)?);
    all_convert(types, &ret, unsafe_ok).then_some(ret)
}

fn unify_tuples(types: &[Type], unsafe_ok: bool, dynamic: bool) -> Option<Type> {
    if dynamic {
        return Some(Type::Dynamic);
    }
    let first = types[0].tuple_element_types()?;
    if types[1..]
        .iter()
        .any(|t| t.tuple_element_types().map(<[Type]>::len) != Some(first.len()))
    {
        return unify_tuples_to_list(types, unsafe_ok);
    }
    let mut etys = Vec::new();
    for i in 0..first.len() {
        let across: Vec<Type> = types
            .iter()
            .filter_map(|t| t.tuple_element_types()?.get(i).cloned())
            .collect();
        etys.push(unify_inner(&across, unsafe_ok)?);
    }
    let ret = Type::tuple(etys);
    if all_convert(types, &ret, unsafe_ok) {
        Some(ret)
    } else {
        unify_tuples_to_list(types, unsafe_ok)
    }
}

fn unify_tuples_to_list(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    let etys: Vec<Type> = types
        .iter()
        .filter_map(|t| t.tuple_element_types())
        .flatten()
        .cloned()
        .collect();
    let ret = Type::list(unify_inner(&etys, unsafe_ok)?);
    all_convert(types, &ret, unsafe_ok).then_some(ret)
}

/// cty `compareTypes`: negative when `a` is the more general (preferred) type.
fn compare_types(a: &Type, b: &Type) -> i32 {
    if a.is_dynamic() || b.is_dynamic() {
        return match (a.is_dynamic(), b.is_dynamic()) {
            (false, _) => -1,
            (_, false) => 1,
            _ => 0,
        };
    }
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        return match (*a == Type::String, *b == Type::String) {
            (false, _) => 1,
            (_, false) => -1,
            _ => 0,
        };
    }
    match (a, b) {
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare_types(x, y),
        _ => {}
    }
    let swapped = matches!(
        (a, b),
        (Type::Tuple(_), Type::List(_))
            | (Type::Object(_), Type::Map(_))
            | (Type::Set(_), Type::Tuple(_) | Type::List(_))
    );
    let (a, b, swap) = if swapped { (b, a, -1) } else { (a, b, 1) };
    if b.is_set() && (a.is_tuple() || a.is_list()) {
        return -swap;
    }
    if (a.is_list() && b.is_tuple()) || (a.is_map() && b.is_object()) {
        return -swap;
    }
    let pairs: Vec<(Type, Type)> = match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.attrs.len() != y.attrs.len() {
                return 0;
            }
            let mut v = Vec::new();
            for (k, at) in &x.attrs {
                match y.attrs.get(k) {
                    Some(bt) => v.push((at.clone(), bt.clone())),
                    None => return 0,
                }
            }
            v
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            x.iter().cloned().zip(y.iter().cloned()).collect()
        }
        _ => return 0,
    };
    let (mut a_super, mut b_super) = (false, false);
    for (x, y) in &pairs {
        match compare_types(x, y) {
            c if c < 0 => a_super = true,
            c if c > 0 => b_super = true,
            _ => {}
        }
    }
    match (a_super, b_super) {
        (true, false) => -swap,
        (false, true) => swap,
        _ => 0,
    }
}

/// cty `sortTypes`: a topological order of "more general than".
fn sort_types(types: &[Type]) -> Vec<Type> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            match compare_types(&types[i], &types[j]) {
                c if c < 0 => edges[i].push(j),
                c if c > 0 => edges[j].push(i),
                _ => {}
            }
        }
    }
    let mut indeg = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            indeg[j] += 1;
        }
    }
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    let mut out = Vec::with_capacity(n);
    while let Some(i) = queue.pop_front() {
        out.push(types[i].clone());
        for &j in &edges[i] {
            indeg[j] -= 1;
            if indeg[j] == 0 {
                queue.push_back(j);
            }
        }
    }
    out
}
