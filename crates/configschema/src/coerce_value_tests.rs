//! Cases from OpenTofu's `coerce_value_test.go`; errors in
//! `tfdiags.FormatError`'s form (`path: message`).

use std::collections::BTreeMap;

use cty::{Type, Value};

use super::*;
use crate::schema::{Attribute, Object, ObjectNesting};

fn attr(ty: Type, required: bool, optional: bool, computed: bool) -> Attribute {
    Attribute {
        required,
        optional,
        computed,
        ..Attribute::new(ty)
    }
}

fn block(attrs: Vec<(&str, Attribute)>, blocks: Vec<(&str, NestedBlock)>) -> Block {
    Block {
        attributes: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        block_types: blocks
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        ..Block::default()
    }
}

fn obj(attrs: Vec<(&str, Value)>) -> Value {
    Value::object_from(attrs)
}

fn check(schema: &Block, input: Value, want: Result<Value, &str>) {
    let got = schema.coerce_value(&input).map_err(|e| e.with_path());
    match (got, want) {
        (Ok(got), Ok(want)) => assert_eq!(got, want, "{input:?}"),
        (Err(got), Err(want)) => assert_eq!(got, want, "{input:?}"),
        (got, want) => panic!("{input:?}: got {got:?}, want {want:?}"),
    }
}

#[test]
fn attributes() {
    let s = block(
        vec![("foo", attr(Type::String, false, true, false))],
        vec![],
    );
    check(
        &s,
        obj(vec![("foo", Value::string("bar"))]),
        Ok(obj(vec![("foo", Value::string("bar"))])),
    );
    check(
        &s,
        Value::empty_object(),
        Ok(obj(vec![("foo", Value::null(Type::String))])),
    );
    check(
        &s,
        obj(vec![("bar", Value::string("x"))]),
        Err("unexpected attribute \"bar\""),
    );
    let required = block(
        vec![("foo", attr(Type::Number, true, false, false))],
        vec![],
    );
    check(
        &required,
        Value::empty_object(),
        Err("attribute \"foo\" is required"),
    );
    // OpenTofu (go-cty 1.19) says "number required, but have bool"; the
    // message is cty's conversion message, passed through.
    let e = required
        .coerce_value(&obj(vec![("foo", Value::bool(false))]))
        .expect_err("a bool is not a number");
    assert!(e.with_path().starts_with(".foo: number required"), "{e:?}");
    check(
        &required,
        Value::null(Type::empty_object()),
        Ok(Value::null(required.implied_type())),
    );
    check(
        &required,
        Value::dynamic(),
        Ok(Value::unknown(required.implied_type())),
    );
    check(&required, Value::string("x"), Err("an object is required"));
    let computed = block(
        vec![("foo", attr(Type::String, false, false, true))],
        vec![],
    );
    check(
        &computed,
        Value::empty_object(),
        Ok(obj(vec![("foo", Value::null(Type::String))])),
    );
}

#[test]
fn blocks() {
    let inner = || {
        block(
            vec![("bar", attr(Type::String, true, false, false))],
            vec![],
        )
    };
    let bar = |s: &str| obj(vec![("bar", Value::string(s))]);
    let bar_ty = Type::object_from([("bar", Type::String)]);
    for (nesting, want_empty) in [
        (NestingMode::Single, Value::null(bar_ty.clone())),
        (NestingMode::List, Value::list_empty(bar_ty.clone())),
        (NestingMode::Set, Value::set_empty(bar_ty.clone())),
        (NestingMode::Map, Value::map_empty(bar_ty.clone())),
    ] {
        let s = block(vec![], vec![("foo", NestedBlock::new(nesting, inner()))]);
        check(
            &s,
            Value::empty_object(),
            Ok(obj(vec![("foo", want_empty)])),
        );
    }
    let list = block(
        vec![],
        vec![("foo", NestedBlock::new(NestingMode::List, inner()))],
    );
    check(
        &list,
        obj(vec![(
            "foo",
            Value::list(bar_ty.clone(), vec![bar("a")]).expect("list"),
        )]),
        Ok(obj(vec![(
            "foo",
            Value::list(bar_ty.clone(), vec![bar("a")]).expect("list"),
        )])),
    );
    check(
        &list,
        obj(vec![(
            "foo",
            Value::list(Type::empty_object(), vec![Value::empty_object()]).expect("list"),
        )]),
        Err(".foo[0]: attribute \"bar\" is required"),
    );
    check(
        &list,
        obj(vec![(
            "foo",
            Value::tuple(vec![obj(vec![
                ("bar", Value::string("a")),
                ("baz", Value::bool(true)),
            ])]),
        )]),
        Err(".foo[0]: unexpected attribute \"baz\""),
    );
    check(
        &list,
        obj(vec![("foo", Value::string("x"))]),
        Err("must be a list"),
    );
    check(
        &list,
        obj(vec![("foo", Value::unknown(Type::list(bar_ty.clone())))]),
        Ok(obj(vec![(
            "foo",
            Value::unknown(Type::list(bar_ty.clone())),
        )])),
    );
    let single = block(
        vec![],
        vec![("foo", NestedBlock::new(NestingMode::Single, inner()))],
    );
    check(
        &single,
        obj(vec![("foo", Value::string("x"))]),
        Err(".foo: an object is required"),
    );
    let group = block(
        vec![],
        vec![("foo", NestedBlock::new(NestingMode::Group, inner()))],
    );
    check(
        &group,
        Value::empty_object(),
        Ok(obj(vec![(
            "foo",
            obj(vec![("bar", Value::null(Type::String))]),
        )])),
    );
}

#[test]
fn dynamic_attributes_in_map_make_an_object() {
    let s = block(
        vec![],
        vec![(
            "foo",
            NestedBlock::new(
                NestingMode::Map,
                block(
                    vec![
                        ("bar", attr(Type::String, false, true, true)),
                        ("baz", attr(Type::Dynamic, false, true, true)),
                    ],
                    vec![],
                ),
            ),
        )],
    );
    let item = |s: &str| obj(vec![("bar", Value::string(s))]);
    let input = obj(vec![(
        "foo",
        Value::map(
            item("a").ty().clone(),
            BTreeMap::from([
                ("a".to_string(), item("beep")),
                ("b".to_string(), item("boop")),
            ]),
        )
        .expect("map"),
    )]);
    let want_item = |s: &str| {
        obj(vec![
            ("bar", Value::string(s)),
            ("baz", Value::null(Type::Dynamic)),
        ])
    };
    check(
        &s,
        input,
        Ok(obj(vec![(
            "foo",
            obj(vec![("a", want_item("beep")), ("b", want_item("boop"))]),
        )])),
    );
}

#[test]
fn nested_types() {
    let s = block(
        vec![
            (
                "foo",
                Attribute {
                    optional: true,
                    ..Attribute::nested(Object {
                        nesting: ObjectNesting::List,
                        attributes: BTreeMap::from([
                            ("bar".to_string(), attr(Type::String, true, false, false)),
                            (
                                "baz".to_string(),
                                attr(Type::map(Type::String), false, true, false),
                            ),
                        ]),
                    })
                },
            ),
            (
                "fob",
                Attribute {
                    optional: true,
                    ..Attribute::nested(Object {
                        nesting: ObjectNesting::Set,
                        attributes: BTreeMap::from([(
                            "bar".to_string(),
                            attr(Type::String, false, true, false),
                        )]),
                    })
                },
            ),
        ],
        vec![],
    );
    let bar = |v: &str| obj(vec![("bar", Value::string(v))]);
    let input = obj(vec![(
        "foo",
        Value::list(bar("a").ty().clone(), vec![bar("beep"), bar("boop")]).expect("list"),
    )]);
    let full = |v: &str| {
        obj(vec![
            ("bar", Value::string(v)),
            ("baz", Value::null(Type::map(Type::String))),
        ])
    };
    check(
        &s,
        input,
        Ok(obj(vec![
            (
                "foo",
                Value::list(full("a").ty().clone(), vec![full("beep"), full("boop")])
                    .expect("list"),
            ),
            (
                "fob",
                Value::null(Type::set(Type::object_from([("bar", Type::String)]))),
            ),
        ])),
    );
}

#[test]
fn unknown_values() {
    let s = block(
        vec![("a", attr(Type::String, false, true, false))],
        vec![
            ("l", NestedBlock::new(NestingMode::List, Block::default())),
            ("g", NestedBlock::new(NestingMode::Group, Block::default())),
        ],
    );
    assert_eq!(
        s.unknown_value(),
        obj(vec![
            ("a", Value::unknown(Type::String)),
            ("l", Value::unknown(Type::list(Type::empty_object()))),
            ("g", Value::unknown(Type::empty_object())),
        ])
    );
}
