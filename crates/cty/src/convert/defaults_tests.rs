//! HCL's `TestDefaults_Apply` (ext/typeexpr/defaults_test.go), case by case.

use std::collections::{BTreeMap, BTreeSet};

use super::Defaults;
use crate::types::Type;
use crate::value::Value;

fn s(x: &str) -> Value {
    Value::string(x)
}

fn int(i: i64) -> Value {
    Value::number_int(i)
}

fn obj(attrs: &[(&str, Value)]) -> Value {
    Value::object_from(attrs.iter().map(|(k, v)| (*k, v.clone())))
}

fn map(attrs: &[(&str, Value)]) -> Value {
    Value::map_infer(
        attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
    .unwrap()
}

fn list(vals: &[Value]) -> Value {
    Value::list_infer(vals.to_vec()).unwrap()
}

fn obj_ty(attrs: &[(&str, Type)], optional: &[&str]) -> Type {
    Type::object_with_optional(
        attrs
            .iter()
            .map(|(k, t)| (k.to_string(), t.clone()))
            .collect(),
        optional
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>(),
    )
}

fn defaults(ty: Type, values: &[(&str, Value)], children: Vec<(&str, Defaults)>) -> Defaults {
    Defaults {
        ty,
        default_values: values
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        children: children
            .into_iter()
            .map(|(k, d)| (k.to_string(), d))
            .collect::<BTreeMap<_, _>>(),
    }
}

fn simple_object() -> Type {
    obj_ty(&[("a", Type::String), ("b", Type::Bool)], &["b"])
}

fn nested_object() -> Type {
    obj_ty(&[("c", simple_object()), ("d", Type::Number)], &["c"])
}

fn simple_b(default: bool) -> Defaults {
    defaults(simple_object(), &[("b", Value::bool(default))], vec![])
}

fn check(name: &str, d: &Defaults, value: Value, want: Value) {
    let got = d.apply(&value);
    assert_eq!(got, want, "{name}");
}

#[test]
fn no_defaults() {
    let v = map(&[("a", s("foo")), ("b", s("bar"))]);
    check(
        "no defaults",
        &defaults(Type::map(Type::String), &[], vec![]),
        v.clone(),
        v,
    );
}

#[test]
fn simple_objects() {
    let d = simple_b(true);
    check(
        "simple object with defaults applied",
        &d,
        map(&[("a", s("foo"))]),
        map(&[("a", s("foo")), ("b", s("true"))]),
    );
    let unknown = Value::unknown(Type::map(Type::String));
    check(
        "simple object with defaults but unknown value",
        &d,
        unknown.clone(),
        unknown,
    );
    check(
        "simple object with optional attributes specified",
        &d,
        map(&[("a", s("foo")), ("b", s("false"))]),
        map(&[("a", s("foo")), ("b", s("false"))]),
    );
    check(
        "object with explicit null for attribute with default",
        &d,
        map(&[("a", s("foo")), ("b", Value::null(Type::String))]),
        map(&[("a", s("foo")), ("b", s("true"))]),
    );
}

#[test]
fn nested_and_collections() {
    check(
        "nested object with defaults applied",
        &defaults(nested_object(), &[], vec![("c", simple_b(false))]),
        obj(&[("c", obj(&[("a", s("foo"))])), ("d", int(5))]),
        obj(&[
            ("c", obj(&[("a", s("foo")), ("b", Value::bool(false))])),
            ("d", int(5)),
        ]),
    );
    let map_d = defaults(Type::map(simple_object()), &[], vec![("", simple_b(true))]);
    let filled = |a: &str| obj(&[("a", s(a)), ("b", Value::bool(true))]);
    check(
        "map of objects with defaults applied",
        &map_d,
        map(&[
            ("f", obj(&[("a", s("foo"))])),
            ("b", obj(&[("a", s("bar"))])),
        ]),
        map(&[("f", filled("foo")), ("b", filled("bar"))]),
    );
    check(
        "map of objects with defaults applied, given object instead of map",
        &map_d,
        obj(&[
            ("f", obj(&[("a", s("foo"))])),
            ("b", obj(&[("a", s("bar"))])),
        ]),
        obj(&[("f", filled("foo")), ("b", filled("bar"))]),
    );
    check(
        "list of objects with defaults applied",
        &defaults(Type::list(simple_object()), &[], vec![("", simple_b(true))]),
        Value::tuple(vec![obj(&[("a", s("foo"))]), obj(&[("a", s("bar"))])]),
        Value::tuple(vec![filled("foo"), filled("bar")]),
    );
    check(
        "tuple of objects with defaults applied",
        &defaults(
            Type::tuple(vec![simple_object(), nested_object()]),
            &[],
            vec![
                ("0", simple_b(false)),
                (
                    "1",
                    defaults(
                        nested_object(),
                        &[("c", obj(&[("a", s("default")), ("b", Value::bool(true))]))],
                        vec![],
                    ),
                ),
            ],
        ),
        Value::tuple(vec![obj(&[("a", s("foo"))]), obj(&[("d", int(5))])]),
        Value::tuple(vec![
            obj(&[("a", s("foo")), ("b", Value::bool(false))]),
            obj(&[
                ("c", obj(&[("a", s("default")), ("b", Value::bool(true))])),
                ("d", int(5)),
            ]),
        ]),
    );
}

/// The "set of nested objects" cases: a default within a default.
#[test]
fn defaults_within_defaults() {
    let input = || {
        Value::tuple(vec![
            obj(&[("c", obj(&[("a", s("foo"))])), ("d", int(5))]),
            obj(&[("d", int(7))]),
        ])
    };
    let first = obj(&[
        ("c", obj(&[("a", s("foo")), ("b", Value::bool(true))])),
        ("d", int(5)),
    ]);
    let set_of = |c_default: Option<Value>| {
        let values: Vec<(&str, Value)> = c_default.into_iter().map(|v| ("c", v)).collect();
        defaults(
            Type::set(nested_object()),
            &[],
            vec![(
                "",
                defaults(nested_object(), &values, vec![("c", simple_b(true))]),
            )],
        )
    };
    check(
        "set of nested objects, no default sub-object",
        &set_of(None),
        input(),
        Value::tuple(vec![first.clone(), obj(&[("d", int(7))])]),
    );
    check(
        "set of nested objects, empty default sub-object",
        &set_of(Some(Value::empty_object())),
        input(),
        Value::tuple(vec![
            first.clone(),
            obj(&[("c", obj(&[("b", Value::bool(true))])), ("d", int(7))]),
        ]),
    );
    check(
        "set of nested objects, overriding default sub-object",
        &set_of(Some(obj(&[
            ("a", s("fallback")),
            ("b", Value::bool(false)),
        ]))),
        input(),
        Value::tuple(vec![
            first.clone(),
            obj(&[
                ("c", obj(&[("a", s("fallback")), ("b", Value::bool(false))])),
                ("d", int(7)),
            ]),
        ]),
    );
    check(
        "set of nested objects, nulls in default sub-object overridden",
        &set_of(Some(obj(&[
            ("a", s("fallback")),
            ("b", Value::null(Type::Bool)),
        ]))),
        input(),
        Value::tuple(vec![
            first,
            obj(&[
                ("c", obj(&[("a", s("fallback")), ("b", Value::bool(true))])),
                ("d", int(7)),
            ]),
        ]),
    );
}

#[test]
fn nulls_and_unset_defaults() {
    let plain = Type::object_from([("required", Type::String), ("optional", Type::String)]);
    let null = Value::null(plain);
    check(
        "null objects do not get default values inserted",
        &defaults(
            obj_ty(
                &[("required", Type::String), ("optional", Type::String)],
                &["optional"],
            ),
            &[("optional", s("optional"))],
            vec![],
        ),
        null.clone(),
        null,
    );

    let inner_ty = obj_ty(
        &[
            ("nested_required", Type::String),
            ("nested_optional", Type::String),
        ],
        &["nested_optional"],
    );
    let d = defaults(
        obj_ty(
            &[
                ("required", Type::String),
                ("optional_object", inner_ty.clone()),
            ],
            &["optional_object"],
        ),
        &[(
            "optional_object",
            obj(&[
                ("nested_required", s("required")),
                ("nested_optional", Value::null(Type::String)),
            ]),
        )],
        vec![(
            "optional_object",
            defaults(inner_ty, &[("nested_optional", s("optional"))], vec![]),
        )],
    );
    let want = obj(&[
        ("required", s("required")),
        (
            "optional_object",
            obj(&[
                ("nested_required", s("required")),
                ("nested_optional", s("optional")),
            ]),
        ),
    ]);
    check(
        "defaults with unset defaults are still applied (null)",
        &d,
        obj(&[
            ("required", s("required")),
            (
                "optional_object",
                Value::null(Type::object_from([
                    ("nested_required", Type::String),
                    ("nested_optional", Type::String),
                ])),
            ),
        ]),
        want.clone(),
    );
    check(
        "defaults with unset defaults are still applied (missing)",
        &d,
        obj(&[("required", s("required"))]),
        want,
    );
}

#[test]
fn all_optional_settings() {
    let settings_ty = obj_ty(
        &[("setting_one", Type::String), ("setting_two", Type::Number)],
        &["setting_one", "setting_two"],
    );
    let settings_defaults = defaults(
        obj_ty(
            &[("setting_one", Type::String), ("setting_two", Type::String)],
            &["setting_one", "setting_two"],
        ),
        &[("setting_one", s("")), ("setting_two", int(0))],
        vec![],
    );
    let top = obj_ty(&[("settings", settings_ty)], &["settings"]);
    check(
        "all child and nested values are optional with defaults",
        &defaults(
            top.clone(),
            &[("settings", Value::empty_object())],
            vec![("settings", settings_defaults.clone())],
        ),
        Value::empty_object(),
        obj(&[(
            "settings",
            obj(&[("setting_one", s("")), ("setting_two", int(0))]),
        )]),
    );
    check(
        "all nested values are optional with defaults, but direct child has no default",
        &defaults(top, &[], vec![("settings", settings_defaults)]),
        Value::empty_object(),
        Value::empty_object(),
    );
}

fn node_pool_defaults() -> Defaults {
    let elem = obj_ty(
        &[
            ("name", Type::String),
            ("taints", Type::list(Type::map(Type::Dynamic))),
        ],
        &["name", "taints"],
    );
    defaults(
        Type::list(elem.clone()),
        &[],
        vec![(
            "",
            defaults(
                elem,
                &[
                    ("name", s("default")),
                    ("taints", Value::list_empty(Type::map(Type::Dynamic))),
                ],
                vec![],
            ),
        )],
    )
}

fn envoy() -> Value {
    obj(&[
        ("name", s("node-envoy-32")),
        (
            "taints",
            list(&[map(&[
                ("key", s("etsy.com/nodepool")),
                ("value", s("envoy")),
            ])]),
        ),
    ])
}

#[test]
fn dynamic_types_in_sequences() {
    check(
        "tuples retain custom values and dynamic types",
        &node_pool_defaults(),
        Value::tuple(vec![obj(&[("name", s("node-pool-32"))]), envoy()]),
        Value::tuple(vec![
            obj(&[
                ("name", s("node-pool-32")),
                ("taints", Value::list_empty(Type::map(Type::Dynamic))),
            ]),
            envoy(),
        ]),
    );
    check(
        "lists merge dynamic types with concrete types",
        &node_pool_defaults(),
        list(&[
            obj(&[
                ("name", s("node-pool-32")),
                ("taints", Value::null(Type::list(Type::map(Type::String)))),
            ]),
            envoy(),
        ]),
        list(&[
            obj(&[
                ("name", s("node-pool-32")),
                ("taints", Value::list_empty(Type::map(Type::String))),
            ]),
            envoy(),
        ]),
    );
}

#[test]
fn mismatched_types_apply_safely() {
    let rule_ty = obj_ty(
        &[
            ("description", Type::String),
            ("destination_ports", Type::list(Type::String)),
            ("destination_addresses", Type::list(Type::String)),
            ("translated_address", Type::String),
            ("translated_port", Type::String),
        ],
        &["destination_addresses"],
    );
    let group_ty = obj_ty(
        &[
            ("description", Type::String),
            ("rules", Type::map(rule_ty.clone())),
        ],
        &["description"],
    );
    let d = defaults(
        Type::map(group_ty.clone()),
        &[],
        vec![(
            "",
            defaults(
                group_ty,
                &[("description", s("unknown"))],
                vec![(
                    "rules",
                    defaults(
                        Type::map(rule_ty.clone()),
                        &[],
                        vec![(
                            "",
                            defaults(
                                rule_ty,
                                &[("destination_addresses", Value::list_empty(Type::String))],
                                vec![],
                            ),
                        )],
                    ),
                )],
            ),
        )],
    );
    let rules = obj(&[
        ("description", s("Port forward")),
        ("destination_ports", list(&[s("3306")])),
        ("destination_addresses", list(&[s("192.168.0.1")])),
        ("translated_address", s("192.168.0.1")),
        ("translated_port", s("3306")),
    ]);
    check(
        "applies default safely where possible when types mismatch",
        &d,
        map(&[("mysql", obj(&[("rules", rules.clone())]))]),
        map(&[(
            "mysql",
            obj(&[("description", s("unknown")), ("rules", rules)]),
        )]),
    );
}

#[test]
fn marks_are_kept() {
    use crate::marks::Mark;
    let d = simple_b(true);
    let v = obj(&[("a", s("foo"))]).mark(Mark::Sensitive);
    let got = d.apply(&v);
    assert!(got.has_mark(&Mark::Sensitive));
    assert_eq!(
        got.unmark(),
        obj(&[("a", s("foo")), ("b", Value::bool(true))])
    );
}
