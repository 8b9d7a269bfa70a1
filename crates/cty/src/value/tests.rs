//! Value behaviour: equality, set order and hashing, marks.

use super::*;
use crate::marks::{DeprecationCause, PathValueMarks};
use crate::path::Path;

fn s(x: &str) -> Value {
    Value::string(x)
}

fn n(x: &str) -> Value {
    Value::parse_number(x).unwrap()
}

#[test]
fn strings_are_nfc() {
    assert_eq!(Value::string("e\u{301}").as_str(), Some("\u{e9}"));
}

#[test]
fn equality_rules() {
    assert_eq!(
        n("0.1").add(&n("0.2")).unwrap().equals(&n("0.3")).as_bool(),
        Some(true)
    );
    assert_eq!(
        Value::null(Type::String)
            .equals(&Value::null(Type::Number))
            .as_bool(),
        Some(true)
    );
    assert_eq!(
        s("a").equals(&Value::null(Type::String)).as_bool(),
        Some(false)
    );
    assert!(!s("a").equals(&Value::unknown(Type::String)).is_known());
    assert_eq!(
        s("a").equals(&Value::unknown(Type::Number)).as_bool(),
        Some(false)
    );
    let l = Value::list(Type::Number, vec![n("1"), n("2")]).unwrap();
    let t = Value::tuple(vec![n("1"), n("2")]);
    assert_eq!(l.equals(&t).as_bool(), Some(false));
    let marked = s("a").mark(Mark::Sensitive);
    let eq = marked.equals(&s("a"));
    assert_eq!(eq.unmark().as_bool(), Some(true));
    assert!(eq.has_mark(&Mark::Sensitive));
    assert!(!marked.raw_equals(&s("a")));
}

#[test]
fn set_order_and_dedup() {
    let nums = Value::set(
        Type::Number,
        ["3", "1", "2", "10", "2.5", "2"]
            .iter()
            .map(|x| n(x))
            .collect(),
    )
    .unwrap();
    let got: Vec<String> = nums
        .as_elements()
        .unwrap()
        .iter()
        .map(|v| v.as_number().unwrap().to_text())
        .collect();
    assert_eq!(got, ["1", "2", "2.5", "3", "10"]);
    let mixed = Value::set(
        Type::String,
        vec![
            Value::null(Type::String),
            Value::unknown(Type::String),
            s("b"),
            Value::unknown(Type::String),
            s("a"),
        ],
    )
    .unwrap();
    let kinds: Vec<String> = mixed
        .as_elements()
        .unwrap()
        .iter()
        .map(|v| {
            if !v.is_known() {
                "?".into()
            } else if v.is_null() {
                "~".into()
            } else {
                v.as_str().unwrap().into()
            }
        })
        .collect();
    assert_eq!(kinds, ["a", "b", "?", "?", "~"]);
    let marked = Value::set(Type::String, vec![s("x").mark(Mark::Sensitive)]).unwrap();
    assert!(marked.has_mark(&Mark::Sensitive));
    assert!(!marked.as_elements().unwrap()[0].is_marked());
}

#[test]
fn hash_bytes_match_cty() {
    let obj = Value::object_from([("b", n("1.5")), ("a", s("x\"y"))]);
    assert_eq!(set_hash_bytes(&obj), "<\"x\\\"y\";1.5;>");
    let m = Value::map(Type::Bool, [("k".to_string(), Value::bool(true))].into()).unwrap();
    assert_eq!(set_hash_bytes(&m), "{\"k\":T;}");
    let l = Value::list(
        Type::Number,
        vec![n("12345678901"), Value::null(Type::Number)],
    )
    .unwrap();
    assert_eq!(set_hash_bytes(&l), "[1.23456789e+10;~;]");
    let t = Value::tuple(vec![Value::unknown(Type::String), Value::bool(false)]);
    assert_eq!(set_hash_bytes(&t), "<?;F;>");
    assert_eq!(set_hash(&s("a")), crc32fast::hash(b"\"a\""));
}

#[test]
fn index_and_attrs() {
    let l = Value::list(Type::String, vec![s("a"), s("b")])
        .unwrap()
        .mark(Mark::Sensitive);
    let e = l.index(&n("1")).unwrap();
    assert_eq!(e.unmark().as_str(), Some("b"));
    assert!(e.has_mark(&Mark::Sensitive));
    assert!(l.index(&n("2")).is_none());
    assert!(l.index(&n("0.5")).is_none());
    let o = Value::object_from([("a", n("1"))]);
    assert!(o.get_attr("b").is_none());
    assert_eq!(o.get_attr("a").unwrap().as_number().unwrap().to_text(), "1");
    assert!(!Value::unknown(o.ty().clone())
        .get_attr("a")
        .unwrap()
        .is_known());
    assert_eq!(l.length().unmark().as_number().unwrap().to_i64(), Some(2));
}

#[test]
fn deep_marks_round_trip() {
    let cause = Arc::new(DeprecationCause {
        module_instance: "module.a".into(),
        name: "output.old".into(),
        message: "use new".into(),
    });
    let v = Value::object_from([
        ("a", s("x").mark(Mark::Sensitive)),
        (
            "b",
            Value::tuple(vec![n("1"), n("2").mark(Mark::Deprecated(cause.clone()))]),
        ),
    ]);
    let (plain, paths) = v.unmark_deep_with_paths();
    assert!(!plain.contains_marked());
    assert_eq!(paths.len(), 2);
    assert_eq!(paths[0].path.to_string(), ".a");
    assert_eq!(paths[1].path.to_string(), ".b[1]");
    let again = plain.mark_with_paths(&paths);
    assert!(again.raw_equals(&v));
    let extra = PathValueMarks {
        path: Path::root().get_attr("zzz"),
        marks: [Mark::Ephemeral].into(),
    };
    assert!(plain.mark_with_paths(&[extra]).raw_equals(&plain));
}

#[test]
fn arithmetic_with_unknowns_and_marks() {
    let r = n("1").add(&Value::unknown(Type::Number)).unwrap();
    assert!(!r.is_known());
    let r = n("1").mark(Mark::Sensitive).multiply(&n("3")).unwrap();
    assert!(r.has_mark(&Mark::Sensitive));
    assert_eq!(
        n("0").divide(&n("0")).unwrap_err().msg,
        "division of zero by zero or infinity by infinity"
    );
    assert!(s("a").add(&n("1")).is_err());
}
