//! Conversion and unification vectors (ported from go-cty's tests and Terraform behaviour).

use std::collections::BTreeMap;

use super::*;
use crate::marks::Mark;

fn s(x: &str) -> Value {
    Value::string(x)
}

fn n(x: &str) -> Value {
    Value::parse_number(x).unwrap()
}

#[test]
fn primitive_conversions() {
    assert_eq!(
        convert(&n("1.5"), &Type::String).unwrap().as_str(),
        Some("1.5")
    );
    assert_eq!(
        convert(&Value::bool(true), &Type::String).unwrap().as_str(),
        Some("true")
    );
    assert_eq!(
        convert(&s("12"), &Type::Number)
            .unwrap()
            .as_number()
            .unwrap()
            .to_text(),
        "12"
    );
    assert_eq!(convert(&s("1"), &Type::Bool).unwrap().as_bool(), Some(true));
    assert_eq!(
        convert(&s("x"), &Type::Number).unwrap_err().msg,
        "a number is required"
    );
    assert_eq!(
        convert(&s("yes"), &Type::Bool).unwrap_err().msg,
        "a bool is required"
    );
    assert_eq!(
        convert(&s("True"), &Type::Bool).unwrap_err().msg,
        "a bool is required; to convert from string, use lowercase \"true\""
    );
    assert_eq!(
        convert(&n("1"), &Type::Bool).unwrap_err().msg,
        "bool required"
    );
    assert!(convert_safe(&s("12"), &Type::Number).is_err());
    let marked = convert(&n("1").mark(Mark::Sensitive), &Type::String).unwrap();
    assert!(marked.has_mark(&Mark::Sensitive));
    let null = convert(&Value::null(Type::Dynamic), &Type::String).unwrap();
    assert!(null.is_null() && null.ty() == &Type::String);
}

#[test]
fn nested_error_paths() {
    let want = Type::map(Type::object_from([("field", Type::Bool)]));
    let v = Value::object_from([("mykey", Value::object_from([("field", s("nope"))]))]);
    let e = convert(&v, &want).unwrap_err();
    assert_eq!(e.with_path(), "[\"mykey\"].field: a bool is required");
    let l = Value::tuple(vec![n("1"), s("x")]);
    let e = convert(&l, &Type::list(Type::Number)).unwrap_err();
    assert_eq!(e.with_path(), "[1]: a number is required");
}

#[test]
fn collections_and_structural() {
    let t = Value::tuple(vec![n("1"), s("a")]);
    let l = convert(&t, &Type::list(Type::Dynamic)).unwrap();
    assert_eq!(l.ty(), &Type::list(Type::String));
    let set = convert(
        &Value::tuple(vec![s("b"), s("a"), s("b")]),
        &Type::set(Type::String),
    )
    .unwrap();
    assert_eq!(set.as_elements().unwrap().len(), 2);
    let empty = convert(&Value::empty_tuple(), &Type::list(Type::String)).unwrap();
    assert_eq!(empty.ty(), &Type::list(Type::String));
    let obj = Value::object_from([("a", n("1")), ("b", s("x"))]);
    let m = convert(&obj, &Type::map(Type::String)).unwrap();
    assert_eq!(m.ty(), &Type::map(Type::String));
    let back = convert(&m, &Type::object_from([("a", Type::Number)])).unwrap();
    assert_eq!(
        back.get_attr("a").unwrap().as_number().unwrap().to_text(),
        "1"
    );
    let err = convert(&m, &Type::object_from([("zz", Type::String)])).unwrap_err();
    assert_eq!(err.msg, "map has no element for required attribute \"zz\"");
    assert!(convert_safe(
        &Value::list(Type::String, vec![s("a")]).unwrap(),
        &Type::set(Type::String)
    )
    .is_err());
}

#[test]
fn optional_attributes() {
    let attrs: BTreeMap<String, Type> = [
        ("a".to_string(), Type::String),
        ("b".to_string(), Type::Number),
    ]
    .into();
    let want = Type::object_with_optional(attrs, ["b".to_string()].into());
    let got = convert(
        &Value::object_from([("a", s("x")), ("extra", Value::bool(true))]),
        &want,
    )
    .unwrap();
    assert_eq!(
        got.ty(),
        &Type::object_from([("a", Type::String), ("b", Type::Number)])
    );
    assert!(got.get_attr("b").unwrap().is_null());
    let e = convert(&Value::object_from([("b", n("1"))]), &want).unwrap_err();
    assert_eq!(e.msg, "attribute \"a\" is required");
}

#[test]
fn mismatch_messages() {
    let want = Type::object_from([
        ("a", Type::String),
        ("b", Type::String),
        ("c", Type::String),
    ]);
    assert_eq!(
        mismatch_message(&Type::empty_object(), &want),
        "attributes \"a\", \"b\", and \"c\" are required"
    );
    let want2 = Type::object_from([("a", Type::Bool)]);
    let got2 = Type::object_from([("a", Type::list(Type::String))]);
    assert_eq!(
        mismatch_message(&got2, &want2),
        "attribute \"a\": bool required"
    );
    assert_eq!(
        mismatch_message(
            &Type::tuple(vec![Type::String, Type::list(Type::String)]),
            &Type::list(Type::Dynamic)
        ),
        "all list elements must have the same type"
    );
    assert_eq!(
        mismatch_message(
            &Type::list(Type::list(Type::String)),
            &Type::list(Type::Bool)
        ),
        "incorrect list element type: bool required"
    );
    assert_eq!(
        mismatch_message(&Type::String, &Type::list(Type::Dynamic)),
        "list of any single type required"
    );
}

#[test]
fn unification() {
    let cases: Vec<(Vec<Type>, Option<Type>)> = vec![
        (vec![Type::Number, Type::String], Some(Type::String)),
        (vec![Type::Number, Type::Bool], None),
        (vec![Type::Number, Type::Dynamic], Some(Type::Dynamic)),
        (
            vec![Type::tuple(vec![Type::Number]), Type::empty_tuple()],
            Some(Type::list(Type::Number)),
        ),
        (
            vec![Type::list(Type::Number), Type::list(Type::String)],
            Some(Type::list(Type::String)),
        ),
        (
            vec![
                Type::object_from([("a", Type::Number)]),
                Type::object_from([("a", Type::String)]),
            ],
            Some(Type::object_from([("a", Type::String)])),
        ),
        (
            vec![
                Type::object_from([("a", Type::Number)]),
                Type::object_from([("b", Type::String)]),
            ],
            Some(Type::map(Type::String)),
        ),
        (vec![Type::empty_object(), Type::empty_tuple()], None),
        (
            vec![Type::list(Type::String), Type::Dynamic],
            Some(Type::Dynamic),
        ),
    ];
    for (types, want) in cases {
        assert_eq!(unify(&types), want, "{types:?}");
    }
    assert_eq!(unify_unsafe(&[Type::Bool, Type::Number]), None);
    assert_eq!(
        unify_unsafe(&[Type::Number, Type::Dynamic]),
        Some(Type::Number)
    );
}
