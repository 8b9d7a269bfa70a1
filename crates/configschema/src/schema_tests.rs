//! `ImpliedType` cases from OpenTofu's `implied_type_test.go`, plus the
//! list-to-tuple and map-to-object rules of `DecoderSpec`.

use std::collections::BTreeMap;

use cty::Type;

use super::*;

fn attr(ty: Type, optional: bool, required: bool, computed: bool) -> Attribute {
    Attribute {
        optional,
        required,
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

fn obj(attrs: Vec<(&str, Type)>) -> Type {
    Type::object_from(attrs)
}

#[test]
fn empty_block_is_empty_object() {
    assert_eq!(Block::default().implied_type(), Type::empty_object());
}

#[test]
fn attributes() {
    let b = block(
        vec![
            ("optional", attr(Type::String, true, false, false)),
            ("required", attr(Type::Number, false, true, false)),
            ("computed", attr(Type::list(Type::Bool), false, false, true)),
            (
                "optional_computed",
                attr(Type::map(Type::Bool), true, false, true),
            ),
        ],
        vec![],
    );
    assert_eq!(
        b.implied_type(),
        obj(vec![
            ("optional", Type::String),
            ("required", Type::Number),
            ("computed", Type::list(Type::Bool)),
            ("optional_computed", Type::map(Type::Bool)),
        ])
    );
}

#[test]
fn blocks() {
    let single = block(
        vec![("foo", attr(Type::Dynamic, false, true, false))],
        vec![],
    );
    let b = block(
        vec![],
        vec![
            ("single", NestedBlock::new(NestingMode::Single, single)),
            (
                "group",
                NestedBlock::new(NestingMode::Group, Block::default()),
            ),
            (
                "list",
                NestedBlock::new(NestingMode::List, Block::default()),
            ),
            ("set", NestedBlock::new(NestingMode::Set, Block::default())),
            ("map", NestedBlock::new(NestingMode::Map, Block::default())),
        ],
    );
    assert_eq!(
        b.implied_type(),
        obj(vec![
            ("single", obj(vec![("foo", Type::Dynamic)])),
            ("group", Type::empty_object()),
            ("list", Type::list(Type::empty_object())),
            ("set", Type::set(Type::empty_object())),
            ("map", Type::map(Type::empty_object())),
        ])
    );
}

#[test]
fn deep_block_nesting() {
    let set = NestedBlock::new(NestingMode::Set, Block::default());
    let list = NestedBlock::new(NestingMode::List, block(vec![], vec![("set", set)]));
    let single = NestedBlock::new(NestingMode::Single, block(vec![], vec![("list", list)]));
    let b = block(vec![], vec![("single", single)]);
    assert_eq!(
        b.implied_type(),
        obj(vec![(
            "single",
            obj(vec![(
                "list",
                Type::list(obj(vec![("set", Type::set(Type::empty_object()))]))
            )])
        )])
    );
}

#[test]
fn nested_objects_lose_optional_attrs() {
    let nested = Object {
        nesting: ObjectNesting::Map,
        attributes: [
            ("optional", attr(Type::String, true, false, false)),
            ("required", attr(Type::Number, false, true, false)),
            ("computed", attr(Type::list(Type::Bool), false, false, true)),
            (
                "optional_computed",
                attr(Type::map(Type::Bool), true, false, true),
            ),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
    };
    let want_obj = obj(vec![
        ("optional", Type::String),
        ("required", Type::Number),
        ("computed", Type::list(Type::Bool)),
        ("optional_computed", Type::map(Type::Bool)),
    ]);
    let b = block(
        vec![(
            "map",
            Attribute {
                optional: true,
                ..Attribute::nested(nested.clone())
            },
        )],
        vec![],
    );
    assert_eq!(
        b.implied_type(),
        obj(vec![("map", Type::map(want_obj.clone()))])
    );
    // SpecType keeps them: optional and computed attributes are optional.
    let spec = nested.spec_type();
    let Type::Map(elem) = &spec else {
        panic!("map nesting gives a map: {spec:?}")
    };
    let optional: Vec<&str> = elem
        .optional_attributes()
        .unwrap()
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(optional, ["computed", "optional", "optional_computed"]);
    assert_eq!(nested.implied_type(), Type::map(want_obj));
}

#[test]
fn every_object_nesting() {
    let inner = || Object {
        nesting: ObjectNesting::Single,
        attributes: BTreeMap::from([("a".to_string(), attr(Type::String, true, false, false))]),
    };
    let a = obj(vec![("a", Type::String)]);
    for (nesting, want) in [
        (ObjectNesting::Single, a.clone()),
        (ObjectNesting::List, Type::list(a.clone())),
        (ObjectNesting::Set, Type::set(a.clone())),
        (ObjectNesting::Map, Type::map(a.clone())),
    ] {
        let o = Object { nesting, ..inner() };
        assert_eq!(Attribute::nested(o).implied_type(), want, "{nesting:?}");
    }
}

#[test]
fn dynamic_content_makes_list_and_map_blocks_dynamic() {
    let dynamic = || block(vec![("v", attr(Type::Dynamic, true, false, false))], vec![]);
    // A dynamic type deep inside a nested attribute counts too.
    let deep = block(
        vec![(
            "n",
            Attribute {
                optional: true,
                ..Attribute::nested(Object {
                    nesting: ObjectNesting::List,
                    attributes: BTreeMap::from([(
                        "d".to_string(),
                        attr(Type::map(Type::Dynamic), true, false, false),
                    )]),
                })
            },
        )],
        vec![],
    );
    let b = block(
        vec![],
        vec![
            ("list", NestedBlock::new(NestingMode::List, dynamic())),
            ("map", NestedBlock::new(NestingMode::Map, dynamic())),
            ("deep", NestedBlock::new(NestingMode::List, deep)),
            ("single", NestedBlock::new(NestingMode::Single, dynamic())),
            ("group", NestedBlock::new(NestingMode::Group, dynamic())),
        ],
    );
    let v = obj(vec![("v", Type::Dynamic)]);
    assert_eq!(
        b.implied_type(),
        obj(vec![
            ("list", Type::Dynamic),
            ("map", Type::Dynamic),
            ("deep", Type::Dynamic),
            ("single", v.clone()),
            ("group", v),
        ])
    );
}

#[test]
fn attribute_wins_over_block_of_same_name() {
    let b = block(
        vec![("x", attr(Type::String, true, false, false))],
        vec![("x", NestedBlock::new(NestingMode::List, Block::default()))],
    );
    assert_eq!(b.implied_type(), obj(vec![("x", Type::String)]));
}

#[test]
fn contains_sensitive() {
    let secret = Attribute {
        sensitive: true,
        ..attr(Type::String, true, false, false)
    };
    let plain = block(vec![("a", attr(Type::String, true, false, false))], vec![]);
    assert!(!plain.contains_sensitive());
    let nested = block(
        vec![(
            "n",
            Attribute::nested(Object {
                nesting: ObjectNesting::Single,
                attributes: BTreeMap::from([("s".to_string(), secret.clone())]),
            }),
        )],
        vec![],
    );
    assert!(nested.contains_sensitive());
    let in_block = block(
        vec![],
        vec![(
            "b",
            NestedBlock::new(NestingMode::List, block(vec![("s", secret)], vec![])),
        )],
    );
    assert!(in_block.contains_sensitive());
}
