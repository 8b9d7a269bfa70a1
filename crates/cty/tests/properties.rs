//! Property tests for cty's invariants: conversion, unification, sets and
//! equality, over generated types and values of bounded depth.
//!
//! Types nest at most three levels; values are drawn for a generated type,
//! so collections are always well-typed. Unknowns and nulls appear at any
//! level unless a property needs wholly known input.

use std::collections::BTreeMap;

use cty::convert::{can_convert_safe, can_convert_unsafe};
use cty::{convert, convert_safe, unify, unify_unsafe, Type, Value};
use proptest::prelude::*;

/// Attribute names and map keys: few, so generated objects share names
/// often enough to convert and unify.
const NAMES: &[&str] = &["a", "b", "c"];

/// Strings that convert to numbers or bools, that normalize to each other
/// (NFC), and plain ones.
const STRINGS: &[&str] = &[
    "", "a", "b", "1", "1.5", "-2", "true", "false", "null", "é", "e\u{301}", "Ω",
];

/// Numbers with interesting shapes: integers, fractions, big, tiny, huge.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "1.5",
    "0.1",
    "-7",
    "1e10",
    "12345678901234567890.5",
    "1e-20",
    "3.14159",
];

fn primitive_type() -> impl Strategy<Value = Type> {
    prop_oneof![Just(Type::String), Just(Type::Number), Just(Type::Bool)]
}

/// A type without `Dynamic` anywhere, nested at most three levels.
fn concrete_type() -> impl Strategy<Value = Type> {
    primitive_type().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(Type::list),
            inner.clone().prop_map(Type::set),
            inner.clone().prop_map(Type::map),
            prop::collection::btree_map(prop::sample::select(NAMES), inner.clone(), 0..3)
                .prop_map(|m| Type::object_from(m.into_iter().map(|(k, t)| (k.to_string(), t)))),
            prop::collection::vec(inner, 0..3).prop_map(Type::tuple),
        ]
    })
}

/// A type that may contain `Dynamic` (a conversion target or unify input).
fn any_type() -> impl Strategy<Value = Type> {
    prop_oneof![
        1 => Just(Type::Dynamic),
        6 => concrete_type(),
        2 => concrete_type().prop_map(|t| Type::list(with_dynamic_leaf(t))),
    ]
}

/// Replaces the innermost element type of a collection chain by `Dynamic`
/// (e.g. `list(map(string))` becomes `list(map(any))`).
fn with_dynamic_leaf(t: Type) -> Type {
    match t {
        Type::List(e) => Type::list(with_dynamic_leaf(*e)),
        Type::Set(e) => Type::set(with_dynamic_leaf(*e)),
        Type::Map(e) => Type::map(with_dynamic_leaf(*e)),
        _ => Type::Dynamic,
    }
}

fn number_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-1000i64..1000).prop_map(Value::number_int),
        prop::sample::select(NUMBERS)
            .prop_map(|s| Value::parse_number(s).expect("NUMBERS holds valid numbers")),
    ]
}

/// How often nulls and unknowns appear inside generated values.
#[derive(Clone, Copy, Debug)]
struct Holes {
    nulls: bool,
    unknowns: bool,
}

const KNOWN: Holes = Holes {
    nulls: true,
    unknowns: false,
};
const ANY: Holes = Holes {
    nulls: true,
    unknowns: true,
};

/// A value of type `ty` (which must be free of `Dynamic`).
fn value_of(ty: Type, holes: Holes) -> BoxedStrategy<Value> {
    let present = present_value_of(ty.clone(), holes);
    let mut choices: Vec<(u32, BoxedStrategy<Value>)> = vec![(8, present)];
    if holes.nulls {
        choices.push((1, Just(Value::null(ty.clone())).boxed()));
    }
    if holes.unknowns {
        choices.push((1, Just(Value::unknown(ty)).boxed()));
    }
    prop::strategy::Union::new_weighted(choices).boxed()
}

/// A known, non-null value of type `ty`; its elements may still be null or
/// unknown as `holes` allows.
fn present_value_of(ty: Type, holes: Holes) -> BoxedStrategy<Value> {
    match ty {
        Type::String => prop::sample::select(STRINGS)
            .prop_map(Value::string)
            .boxed(),
        Type::Number => number_value().boxed(),
        Type::Bool => any::<bool>().prop_map(Value::bool).boxed(),
        Type::List(e) => prop::collection::vec(value_of((*e).clone(), holes), 0..4)
            .prop_map(move |vs| Value::list((*e).clone(), vs).expect("elements have the list type"))
            .boxed(),
        Type::Set(e) => prop::collection::vec(value_of((*e).clone(), holes), 0..5)
            .prop_map(move |vs| Value::set((*e).clone(), vs).expect("elements have the set type"))
            .boxed(),
        Type::Map(e) => prop::collection::btree_map(
            prop::sample::select(NAMES),
            value_of((*e).clone(), holes),
            0..3,
        )
        .prop_map(move |m| {
            let m: BTreeMap<String, Value> =
                m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            Value::map((*e).clone(), m).expect("elements have the map type")
        })
        .boxed(),
        Type::Object(o) => {
            let attrs: Vec<(String, BoxedStrategy<Value>)> = o
                .attrs
                .iter()
                .map(|(k, t)| (k.clone(), value_of(t.clone(), holes)))
                .collect();
            let (names, strats): (Vec<String>, Vec<BoxedStrategy<Value>>) =
                attrs.into_iter().unzip();
            strats
                .prop_map(move |vs| Value::object_from(names.clone().into_iter().zip(vs)))
                .boxed()
        }
        Type::Tuple(elems) => {
            let strats: Vec<BoxedStrategy<Value>> =
                elems.iter().map(|t| value_of(t.clone(), holes)).collect();
            strats.prop_map(Value::tuple).boxed()
        }
        Type::Dynamic => Just(Value::dynamic()).boxed(),
    }
}

/// A value of a generated concrete type.
fn value(holes: Holes) -> impl Strategy<Value = Value> {
    concrete_type().prop_flat_map(move |t| value_of(t, holes))
}

/// A wholly known value (no nulls or unknowns anywhere): the domain of
/// reflexive equality.
fn wholly_known_value() -> impl Strategy<Value = Value> {
    concrete_type().prop_flat_map(|t| {
        value_of(
            t,
            Holes {
                nulls: false,
                unknowns: false,
            },
        )
    })
}

/// Whether `result` is `target` with each `any` in `target` replaced by
/// some type: what a conversion to `target` must produce.
fn conforms(result: &Type, target: &Type) -> bool {
    match (result, target) {
        (_, Type::Dynamic) => true,
        (Type::List(a), Type::List(b))
        | (Type::Set(a), Type::Set(b))
        | (Type::Map(a), Type::Map(b)) => conforms(a, b),
        (Type::Object(a), Type::Object(b)) => {
            a.attrs.len() == b.attrs.len()
                && a.attrs
                    .iter()
                    .all(|(k, t)| b.attrs.get(k).is_some_and(|u| conforms(t, u)))
        }
        (Type::Tuple(a), Type::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| conforms(x, y))
        }
        _ => result == target,
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Converting a value to its own type gives the value back, safely or not.
    #[test]
    fn convert_to_own_type_is_identity(v in value(ANY)) {
        let ty = v.ty().clone();
        let safe = convert_safe(&v, &ty).expect("a value converts to its own type");
        prop_assert!(safe.raw_equals(&v), "safe: {v:?} became {safe:?}");
        let unsafe_ = convert(&v, &ty).expect("a value converts to its own type");
        prop_assert!(unsafe_.raw_equals(&v), "unsafe: {v:?} became {unsafe_:?}");
    }

    /// Converting to `any` changes nothing.
    #[test]
    fn convert_to_dynamic_is_identity(v in value(ANY)) {
        let r = convert(&v, &Type::Dynamic).expect("everything converts to any");
        prop_assert!(r.raw_equals(&v), "{v:?} became {r:?}");
    }

    /// A safe conversion that succeeds is also an unsafe conversion that
    /// succeeds with the same result; and the type-level answers agree.
    #[test]
    fn safe_conversion_implies_unsafe(v in value(ANY), to in any_type()) {
        if let Ok(safe) = convert_safe(&v, &to) {
            let unsafe_ = convert(&v, &to);
            prop_assert!(unsafe_.is_ok(), "{v:?} to {to:?}: safe gave {safe:?}, unsafe {unsafe_:?}");
            let unsafe_ = unsafe_.unwrap();
            prop_assert!(safe.raw_equals(&unsafe_), "{v:?} to {to:?}: safe {safe:?} unsafe {unsafe_:?}");
        }
        if can_convert_safe(v.ty(), &to) {
            prop_assert!(can_convert_unsafe(v.ty(), &to), "{:?} to {to:?}", v.ty());
        }
    }

    /// A known value never converts to an unknown one (nor gains unknowns
    /// inside), and the result has the target's type.
    #[test]
    fn converting_known_value_stays_known(v in value(KNOWN), to in any_type()) {
        for (kind, r) in [("safe", convert_safe(&v, &to)), ("unsafe", convert(&v, &to))] {
            if let Ok(r) = r {
                prop_assert!(r.is_wholly_known(), "{kind} {v:?} to {to:?} gave {r:?}");
                prop_assert!(conforms(r.ty(), &to), "{kind} {v:?} to {to:?} gave type {:?}", r.ty());
            }
        }
    }

    /// Converting a conversion's result to the same target again gives
    /// the same result.
    #[test]
    fn conversion_is_idempotent(v in value(ANY), to in any_type()) {
        if let Ok(once) = convert(&v, &to) {
            let twice = convert(&once, &to);
            prop_assert!(twice.is_ok(), "{v:?} to {to:?} gave {once:?}, which then failed: {twice:?}");
            let twice = twice.unwrap();
            prop_assert!(once.raw_equals(&twice), "{v:?} to {to:?}: {once:?} then {twice:?}");
        }
    }

    /// A primitive conversion the types allow safely never fails on a
    /// value (structural ones can, e.g. list to tuple length).
    #[test]
    fn safe_primitive_conversion_succeeds(v in primitive_type().prop_flat_map(|t| value_of(t, KNOWN)),
                                           to in primitive_type()) {
        if can_convert_safe(v.ty(), &to) {
            prop_assert!(convert_safe(&v, &to).is_ok(), "{v:?} to {to:?}");
        }
    }

    /// Every input type converts to the unified type (safely for `unify`,
    /// unsafely for `unify_unsafe`), and the unified type is free of
    /// optional attributes.
    #[test]
    fn unified_type_accepts_every_input(types in prop::collection::vec(any_type(), 1..4)) {
        if let Some(u) = unify(&types) {
            for t in &types {
                prop_assert!(t == &u || can_convert_safe(t, &u), "{t:?} does not convert safely to unify result {u:?} of {types:?}");
            }
        }
        if let Some(u) = unify_unsafe(&types) {
            for t in &types {
                prop_assert!(t == &u || can_convert_unsafe(t, &u), "{t:?} does not convert to unify_unsafe result {u:?} of {types:?}");
            }
        }
    }

    /// A type unifies with itself to itself; repeating inputs changes nothing.
    #[test]
    fn unify_is_idempotent(t in concrete_type(), n in 1usize..4) {
        let types = vec![t.clone(); n];
        prop_assert_eq!(unify(&types), Some(t.clone()));
        prop_assert_eq!(unify_unsafe(&types), Some(t));
    }

    /// cty sorts the candidate types topologically by "more general than";
    /// for primitives (and `any`) that order is total where it matters, so
    /// the result does not depend on the order of the inputs.
    #[test]
    fn unify_primitives_is_order_independent(
        (types, shuffled) in prop::collection::vec(
            prop_oneof![primitive_type(), Just(Type::Dynamic)], 1..5)
            .prop_flat_map(|ts| (Just(ts.clone()), Just(ts).prop_shuffle()))
    ) {
        prop_assert_eq!(unify(&types), unify(&shuffled), "{:?} vs {:?}", types, shuffled);
        prop_assert_eq!(unify_unsafe(&types), unify_unsafe(&shuffled), "{:?} vs {:?}", types, shuffled);
    }

    /// Generated types of any shape: cty breaks ties between incomparable
    /// candidates by input order, but the candidates that survive the
    /// "everything converts" check have so far always been the same.
    #[test]
    fn unify_is_order_independent(
        (types, shuffled) in prop::collection::vec(any_type(), 1..4)
            .prop_flat_map(|ts| (Just(ts.clone()), Just(ts).prop_shuffle()))
    ) {
        prop_assert_eq!(unify(&types), unify(&shuffled), "{:?} vs {:?}", types, shuffled);
        prop_assert_eq!(unify_unsafe(&types), unify_unsafe(&shuffled), "{:?} vs {:?}", types, shuffled);
    }

    /// The same for collections of one kind, whose element types unify
    /// recursively.
    #[test]
    fn unify_collections_is_order_independent(
        (types, shuffled) in (0usize..3).prop_flat_map(|kind| {
            prop::collection::vec(primitive_type(), 1..5).prop_map(move |ts| {
                ts.into_iter()
                    .map(|t| match kind {
                        0 => Type::list(t),
                        1 => Type::set(t),
                        _ => Type::map(t),
                    })
                    .collect::<Vec<_>>()
            })
        })
        .prop_flat_map(|ts| (Just(ts.clone()), Just(ts).prop_shuffle()))
    ) {
        prop_assert_eq!(unify(&types), unify(&shuffled), "{:?} vs {:?}", types, shuffled);
        prop_assert_eq!(unify_unsafe(&types), unify_unsafe(&shuffled), "{:?} vs {:?}", types, shuffled);
    }

    /// Objects with the same attribute names unify attribute by attribute,
    /// independently of input order.
    #[test]
    fn unify_objects_is_order_independent(
        (types, shuffled) in prop::collection::vec(
            prop::collection::vec(primitive_type(), 2..=2)
                .prop_map(|ts| Type::object_from([("a", ts[0].clone()), ("b", ts[1].clone())])),
            1..4)
            .prop_flat_map(|ts| (Just(ts.clone()), Just(ts).prop_shuffle()))
    ) {
        prop_assert_eq!(unify(&types), unify(&shuffled), "{:?} vs {:?}", types, shuffled);
        prop_assert_eq!(unify_unsafe(&types), unify_unsafe(&shuffled), "{:?} vs {:?}", types, shuffled);
    }

    /// A set's element order depends only on its elements, not on the
    /// order they were given in; it never holds two equal known elements;
    /// it is never longer than its input.
    #[test]
    fn set_order_is_canonical(
        (ety, vals, shuffled) in concrete_type()
            .prop_flat_map(|t| {
                let vals = prop::collection::vec(value_of(t.clone(), ANY), 0..8);
                (Just(t), vals)
            })
            .prop_flat_map(|(t, vals)| (Just(t), Just(vals.clone()), Just(vals).prop_shuffle()))
    ) {
        let a = Value::set(ety.clone(), vals.clone()).expect("elements have the set type");
        let b = Value::set(ety.clone(), shuffled.clone()).expect("elements have the set type");
        prop_assert!(a.raw_equals(&b), "{vals:?} gave {a:?} but {shuffled:?} gave {b:?}");

        let elems = a.as_elements().expect("a known set has elements");
        prop_assert!(elems.len() <= vals.len());
        for (i, x) in elems.iter().enumerate() {
            for y in &elems[i + 1..] {
                if x.is_wholly_known() && y.is_wholly_known() {
                    prop_assert!(
                        x.equals(y).as_bool() != Some(true),
                        "duplicate elements {x:?} and {y:?} in {a:?}"
                    );
                }
            }
        }
        // Building a set from a set's own elements changes nothing.
        let again = Value::set(ety, elems.to_vec()).expect("elements have the set type");
        prop_assert!(again.raw_equals(&a), "{a:?} rebuilt as {again:?}");
    }

    /// Every known input element is in the set.
    #[test]
    fn set_keeps_every_element(
        (ety, vals) in concrete_type().prop_flat_map(|t| {
            (Just(t.clone()), prop::collection::vec(value_of(t, KNOWN), 0..8))
        })
    ) {
        let s = Value::set(ety, vals.clone()).expect("elements have the set type");
        let elems = s.as_elements().expect("a known set has elements");
        for v in &vals {
            prop_assert!(
                elems.iter().any(|e| e.raw_equals(v) || e.equals(v).as_bool() == Some(true)),
                "{v:?} missing from {s:?}"
            );
        }
    }

    /// Equality is reflexive for wholly known values (cty numbers have no NaN).
    #[test]
    fn equality_is_reflexive(v in wholly_known_value()) {
        prop_assert_eq!(v.equals(&v).as_bool(), Some(true), "{:?}", v);
        prop_assert!(v.raw_equals(&v));
        let copy = v.clone();
        prop_assert_eq!(v.equals(&copy).as_bool(), Some(true), "{:?}", v);
    }

    /// Equality is symmetric, unknown answers included.
    #[test]
    fn equality_is_symmetric(t in concrete_type().prop_flat_map(|t| {
        (value_of(t.clone(), ANY), value_of(t, ANY))
    })) {
        let (a, b) = t;
        let ab = a.equals(&b);
        let ba = b.equals(&a);
        prop_assert!(ab.raw_equals(&ba), "{a:?} == {b:?} is {ab:?} but reversed {ba:?}");
    }
}
