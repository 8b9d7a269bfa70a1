//! Tables ported from go-cty's `collection_test.go`, `set_test.go` and
//! OpenTofu's `collection_test.go`, plus Terraform console checks.

use std::collections::BTreeMap;

use cty::{Mark, Type, Value};

use crate::functions::framework::FunctionTable;
use crate::functions::test_util::{call, call_err, num, s, slist, tuple};

fn table() -> FunctionTable {
    let mut t = FunctionTable::new();
    super::register(&mut t);
    t
}

fn ok(name: &str, args: Vec<Value>) -> Value {
    call(&table(), name, args).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn err(name: &str, args: Vec<Value>) -> String {
    call_err(&table(), name, args)
}

fn b(v: bool) -> Value {
    Value::bool(v)
}

fn nlist(v: &[i64]) -> Value {
    Value::list(Type::Number, v.iter().map(|&n| num(n)).collect()).unwrap()
}

fn sset(v: &[&str]) -> Value {
    Value::set(Type::String, v.iter().map(|&x| s(x)).collect()).unwrap()
}

fn sensitive(v: Value) -> Value {
    v.mark(Mark::Sensitive)
}

#[test]
fn alltrue_anytrue() {
    let bl = |v: Vec<Value>| Value::list(Type::Bool, v).unwrap();
    let unk = Value::unknown(Type::Bool);
    let cases = [
        (Value::list_empty(Type::Bool), b(true), b(false)),
        (bl(vec![b(true)]), b(true), b(true)),
        (bl(vec![b(false)]), b(false), b(false)),
        (bl(vec![b(true), b(false)]), b(false), b(true)),
        (bl(vec![b(false), b(true)]), b(false), b(true)),
        (
            bl(vec![b(true), Value::null(Type::Bool)]),
            b(false),
            b(true),
        ),
        (bl(vec![unk.clone()]), unk.clone(), unk.clone()),
        (bl(vec![b(true), unk.clone()]), unk.clone(), b(true)),
        (bl(vec![unk.clone(), b(true)]), unk.clone(), b(true)),
        (bl(vec![b(false), unk.clone()]), b(false), unk.clone()),
    ];
    for (input, all, any) in cases {
        assert_eq!(
            ok("alltrue", vec![input.clone()]),
            all,
            "alltrue({input:?})"
        );
        assert_eq!(
            ok("anytrue", vec![input.clone()]),
            any,
            "anytrue({input:?})"
        );
    }
    // Conversion from a tuple of strings, as the evaluator does.
    assert_eq!(
        ok("alltrue", vec![tuple(vec![s("true"), b(true)])]),
        b(true)
    );
    assert_eq!(
        ok("alltrue", vec![Value::unknown(Type::list(Type::Bool))]),
        unk
    );
}

#[test]
fn list_and_map_fail() {
    assert_eq!(
        err("list", vec![num(1)]),
        "the \"list\" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tolist([ ... ]) syntax to write a literal list"
    );
    assert_eq!(
        err("map", vec![s("a"), num(1)]),
        "the \"map\" function was deprecated in Terraform v0.12 and is not available in OpenTofu; use tomap({ ... }) syntax to write a literal map"
    );
    assert!(err("list", vec![]).contains("tolist"));
}

#[test]
fn chunklist() {
    let l = nlist(&[1, 2, 3, 4, 5]);
    let got = ok("chunklist", vec![l.clone(), num(2)]);
    let want = Value::list_infer(vec![nlist(&[1, 2]), nlist(&[3, 4]), nlist(&[5])]).unwrap();
    assert_eq!(got, want);
    assert_eq!(
        ok("chunklist", vec![l.clone(), num(0)]),
        Value::list_infer(vec![l.clone()]).unwrap()
    );
    assert_eq!(
        ok("chunklist", vec![Value::list_empty(Type::Number), num(3)]),
        Value::list_empty(Type::list(Type::Number))
    );
    assert_eq!(
        err("chunklist", vec![l.clone(), num(-1)]),
        "the size argument must be positive"
    );
    assert_eq!(
        err("chunklist", vec![l.clone(), Value::parse_number("1.5").unwrap()]),
        "invalid size: value must be a whole number, between -9223372036854775808 and 9223372036854775807"
    );
    let got = ok("chunklist", vec![sensitive(l.clone()), num(5)]);
    assert!(got.has_mark(&Mark::Sensitive));
    assert_eq!(
        ok(
            "chunklist",
            vec![Value::unknown(Type::list(Type::Number)), num(2)]
        ),
        Value::unknown(Type::list(Type::list(Type::Number)))
    );
    // A huge size is fine.
    assert_eq!(
        ok("chunklist", vec![nlist(&[1]), num(i64::MAX)]),
        Value::list_infer(vec![nlist(&[1])]).unwrap()
    );
}

#[test]
fn coalescelist() {
    let a = slist(&["a", "b"]);
    let c = slist(&["c", "d"]);
    assert_eq!(ok("coalescelist", vec![a.clone(), c.clone()]), a);
    assert_eq!(
        ok(
            "coalescelist",
            vec![Value::list_empty(Type::String), c.clone()]
        ),
        c
    );
    assert_eq!(
        ok(
            "coalescelist",
            vec![Value::null(Type::list(Type::String)), c.clone()]
        ),
        c
    );
    assert_eq!(
        ok(
            "coalescelist",
            vec![Value::empty_tuple(), tuple(vec![num(1)])]
        ),
        tuple(vec![num(1)])
    );
    assert_eq!(
        ok(
            "coalescelist",
            vec![Value::unknown(Type::list(Type::String)), c.clone()]
        ),
        Value::dynamic()
    );
    assert_eq!(
        ok(
            "coalescelist",
            vec![a.clone(), Value::unknown(Type::list(Type::String))]
        ),
        a
    );
    assert_eq!(
        err("coalescelist", vec![Value::null(Type::Dynamic), c.clone()]),
        "coalescelist arguments must be lists or tuples"
    );
    assert_eq!(
        err("coalescelist", vec![Value::list_empty(Type::String)]),
        "no non-null arguments"
    );
    assert_eq!(
        err("coalescelist", vec![]),
        "at least one argument is required"
    );
    assert_eq!(
        err("coalescelist", vec![s("a")]),
        "coalescelist arguments must be lists or tuples"
    );
}

#[test]
fn compact() {
    assert_eq!(
        ok("compact", vec![slist(&["test", "", "test"])]),
        slist(&["test", "test"])
    );
    assert_eq!(
        ok("compact", vec![slist(&["", "", ""])]),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        ok(
            "compact",
            vec![Value::list(Type::String, vec![s("a"), Value::null(Type::String)]).unwrap()]
        ),
        slist(&["a"])
    );
    assert_eq!(
        ok(
            "compact",
            vec![Value::list(Type::String, vec![s("a"), Value::unknown(Type::String)]).unwrap()]
        ),
        Value::unknown(Type::list(Type::String))
    );
}

#[test]
fn contains() {
    let l = slist(&["quick", "brown", "fox"]);
    assert_eq!(ok("contains", vec![l.clone(), s("quick")]), b(true));
    assert_eq!(ok("contains", vec![l.clone(), s("dog")]), b(false));
    assert_eq!(ok("contains", vec![nlist(&[1, 2]), num(2)]), b(true));
    assert_eq!(ok("contains", vec![slist(&["1"]), num(1)]), b(false));
    assert_eq!(
        ok("contains", vec![tuple(vec![num(1), s("a")]), s("a")]),
        b(true)
    );
    assert_eq!(ok("contains", vec![sset(&["a", "b"]), s("b")]), b(true));
    assert_eq!(
        ok("contains", vec![Value::list_empty(Type::String), s("b")]),
        b(false)
    );
    let with_unknown =
        Value::list(Type::String, vec![s("a"), Value::unknown(Type::String)]).unwrap();
    assert_eq!(ok("contains", vec![with_unknown.clone(), s("a")]), b(true));
    assert_eq!(
        ok("contains", vec![with_unknown, s("b")]),
        Value::unknown(Type::Bool)
    );
    assert_eq!(
        ok("contains", vec![l.clone(), Value::unknown(Type::String)]),
        Value::unknown(Type::Bool)
    );
    assert_eq!(
        err("contains", vec![s("a"), s("a")]),
        "argument must be list, tuple, or set"
    );
    assert_eq!(
        err(
            "contains",
            vec![Value::null(Type::list(Type::String)), s("a")]
        ),
        "argument must not be null"
    );
}

#[test]
fn distinct() {
    assert_eq!(
        ok("distinct", vec![slist(&["a", "b", "a", "c", "b"])]),
        slist(&["a", "b", "c"])
    );
    assert_eq!(
        ok("distinct", vec![Value::list_empty(Type::String)]),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        ok("distinct", vec![tuple(vec![num(1), num(1), num(2)])]),
        nlist(&[1, 2])
    );
    assert_eq!(
        ok(
            "distinct",
            vec![Value::list(Type::String, vec![s("a"), Value::unknown(Type::String)]).unwrap()]
        ),
        Value::unknown(Type::list(Type::String))
    );
}

#[test]
fn flatten() {
    // flatten([[1],[2,[3]], toset(["a"])])
    let input = tuple(vec![
        tuple(vec![num(1)]),
        tuple(vec![num(2), tuple(vec![num(3)])]),
        sset(&["a"]),
    ]);
    assert_eq!(
        ok("flatten", vec![input]),
        tuple(vec![num(1), num(2), num(3), s("a")])
    );
    assert_eq!(
        ok("flatten", vec![Value::empty_tuple()]),
        Value::empty_tuple()
    );
    let nested = Value::list_infer(vec![slist(&["a", "b"]), slist(&["c"])]).unwrap();
    assert_eq!(
        ok("flatten", vec![nested]),
        tuple(vec![s("a"), s("b"), s("c")])
    );
    // An unknown nested list makes the result unknown.
    let partly = tuple(vec![
        tuple(vec![num(1)]),
        Value::unknown(Type::list(Type::Number)),
    ]);
    assert_eq!(ok("flatten", vec![partly]), Value::dynamic());
    // Unknown leaves are fine.
    let leaves = tuple(vec![tuple(vec![Value::unknown(Type::String)]), s("x")]);
    assert_eq!(
        ok("flatten", vec![leaves]),
        tuple(vec![Value::unknown(Type::String), s("x")])
    );
    // A set whose length is unknown.
    let set_unk = Value::set(
        Type::String,
        vec![Value::unknown(Type::String), Value::unknown(Type::String)],
    )
    .unwrap();
    assert_eq!(ok("flatten", vec![tuple(vec![set_unk])]), Value::dynamic());
    // Nulls are leaves.
    assert_eq!(
        ok(
            "flatten",
            vec![tuple(vec![Value::null(Type::list(Type::String)), num(1)])]
        ),
        tuple(vec![Value::null(Type::list(Type::String)), num(1)])
    );
    // Marks on nested lists move to the result.
    let marked = tuple(vec![sensitive(tuple(vec![num(1)])), num(2)]);
    let got = ok("flatten", vec![marked]);
    assert!(got.has_mark(&Mark::Sensitive));
    assert_eq!(got.unmark(), tuple(vec![num(1), num(2)]));
    assert_eq!(
        err("flatten", vec![s("a")]),
        "can only flatten lists, sets and tuples"
    );
}

#[test]
fn index() {
    let l = slist(&["a", "b", "c"]);
    assert_eq!(ok("index", vec![l.clone(), s("b")]), num(1));
    assert_eq!(err("index", vec![l.clone(), s("z")]), "item not found");
    assert_eq!(
        err("index", vec![Value::list_empty(Type::String), s("z")]),
        "cannot search an empty list"
    );
    assert_eq!(
        err("index", vec![sset(&["a"]), s("a")]),
        "argument must be a list or tuple"
    );
    assert_eq!(
        ok("index", vec![tuple(vec![num(1), s("x")]), s("x")]),
        num(1)
    );
    let unk = Value::list(Type::String, vec![Value::unknown(Type::String), s("b")]).unwrap();
    assert_eq!(ok("index", vec![unk, s("b")]), Value::unknown(Type::Number));
}

#[test]
fn matchkeys() {
    let values = slist(&["a", "b", "c"]);
    let keys = slist(&["ref1", "ref2", "ref3"]);
    assert_eq!(
        ok(
            "matchkeys",
            vec![values.clone(), keys.clone(), slist(&["ref1"])]
        ),
        slist(&["a"])
    );
    assert_eq!(
        ok(
            "matchkeys",
            vec![values.clone(), keys.clone(), slist(&["ref2", "ref1"])]
        ),
        slist(&["a", "b"])
    );
    assert_eq!(
        ok(
            "matchkeys",
            vec![values.clone(), keys.clone(), slist(&["x"])]
        ),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        ok(
            "matchkeys",
            vec![
                values.clone(),
                keys.clone(),
                Value::list_empty(Type::String)
            ]
        ),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        err(
            "matchkeys",
            vec![values.clone(), slist(&["a"]), slist(&["a"])]
        ),
        "length of keys and values should be equal"
    );
    // Numbers as keys and strings as searchset unify.
    assert_eq!(
        ok(
            "matchkeys",
            vec![values.clone(), nlist(&[1, 2, 3]), slist(&["2"])]
        ),
        slist(&["b"])
    );
    assert_eq!(
        err(
            "matchkeys",
            vec![
                values.clone(),
                Value::list_infer(vec![slist(&["a"]), slist(&["b"]), slist(&["c"])]).unwrap(),
                slist(&["a"])
            ]
        ),
        "keys and searchset must be of the same type"
    );
    let unk_keys = Value::list(
        Type::String,
        vec![s("ref1"), Value::unknown(Type::String), s("ref3")],
    )
    .unwrap();
    assert_eq!(
        ok("matchkeys", vec![values, unk_keys, slist(&["ref1"])]),
        Value::unknown(Type::list(Type::String))
    );
}

#[test]
fn one() {
    assert_eq!(ok("one", vec![nlist(&[1])]), num(1));
    assert_eq!(
        ok("one", vec![Value::list_empty(Type::Number)]),
        Value::null(Type::Number)
    );
    assert_eq!(ok("one", vec![sset(&["a"])]), s("a"));
    assert_eq!(ok("one", vec![tuple(vec![s("a")])]), s("a"));
    assert_eq!(
        ok("one", vec![Value::empty_tuple()]),
        Value::null(Type::Dynamic)
    );
    let msg = "must be a list, set, or tuple value with either zero or one elements";
    assert_eq!(err("one", vec![nlist(&[1, 2])]), msg);
    assert_eq!(err("one", vec![tuple(vec![num(1), num(2)])]), msg);
    assert_eq!(err("one", vec![s("a")]), msg);
    assert_eq!(
        ok("one", vec![Value::unknown(Type::list(Type::String))]),
        Value::unknown(Type::String)
    );
    let unk_set = Value::set(
        Type::String,
        vec![Value::unknown(Type::String), Value::unknown(Type::String)],
    )
    .unwrap();
    assert_eq!(ok("one", vec![unk_set]), Value::unknown(Type::String));
}

#[test]
fn reverse() {
    assert_eq!(ok("reverse", vec![nlist(&[1, 2, 3])]), nlist(&[3, 2, 1]));
    assert_eq!(
        ok("reverse", vec![tuple(vec![num(1), s("a")])]),
        tuple(vec![s("a"), num(1)])
    );
    assert_eq!(ok("reverse", vec![sset(&["a", "b"])]), slist(&["b", "a"]));
    assert_eq!(
        ok("reverse", vec![Value::list_empty(Type::String)]),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        err("reverse", vec![s("a")]),
        "can only reverse list or tuple values, not string"
    );
    let got = ok("reverse", vec![sensitive(nlist(&[1, 2]))]);
    assert!(got.has_mark(&Mark::Sensitive));
}

#[test]
fn slice() {
    let l = slist(&["a", "b", "c", "d"]);
    assert_eq!(
        ok("slice", vec![l.clone(), num(1), num(3)]),
        slist(&["b", "c"])
    );
    assert_eq!(
        ok("slice", vec![l.clone(), num(2), num(2)]),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        ok(
            "slice",
            vec![tuple(vec![num(1), s("a"), b(true)]), num(1), num(3)]
        ),
        tuple(vec![s("a"), b(true)])
    );
    assert_eq!(
        err("slice", vec![l.clone(), num(-1), num(3)]),
        "start index must not be less than zero"
    );
    assert_eq!(
        err("slice", vec![l.clone(), num(1), num(5)]),
        "end index must not be greater than the length of the list"
    );
    assert_eq!(
        err("slice", vec![l.clone(), num(5), num(5)]),
        "start index must not be greater than the length of the list"
    );
    assert_eq!(
        err("slice", vec![l.clone(), num(3), num(1)]),
        "start index must not be greater than end index"
    );
    assert_eq!(
        err("slice", vec![l.clone(), Value::parse_number("1.5").unwrap(), num(2)]),
        "invalid start index: value must be a whole number, between -9223372036854775808 and 9223372036854775807"
    );
    assert!(err("slice", vec![sset(&["a"]), num(0), num(1)]).starts_with("cannot slice a set"));
    assert_eq!(
        err("slice", vec![s("a"), num(0), num(1)]),
        "must be a list or tuple value"
    );
    assert_eq!(
        ok(
            "slice",
            vec![tuple(vec![num(1)]), Value::unknown(Type::Number), num(1)]
        ),
        Value::dynamic()
    );
    assert_eq!(
        ok(
            "slice",
            vec![l.clone(), Value::unknown(Type::Number), num(1)]
        ),
        Value::unknown(Type::list(Type::String))
    );
}

#[test]
fn sort() {
    assert_eq!(
        ok("sort", vec![slist(&["b", "a", "C", "10", "9"])]),
        slist(&["10", "9", "C", "a", "b"])
    );
    assert_eq!(
        ok("sort", vec![tuple(vec![num(10), num(9)])]),
        slist(&["10", "9"])
    );
    assert_eq!(
        ok("sort", vec![Value::list_empty(Type::String)]),
        Value::list_empty(Type::String)
    );
    assert_eq!(
        err(
            "sort",
            vec![Value::list(Type::String, vec![Value::null(Type::String), s("a")]).unwrap()]
        ),
        "given list element 0 is null; a null string cannot be sorted"
    );
    assert_eq!(
        ok("sort", vec![Value::unknown(Type::list(Type::String))]),
        Value::unknown(Type::list(Type::String))
    );
}

#[test]
fn transpose() {
    let input = Value::map_infer(BTreeMap::from([
        ("key1".to_string(), slist(&["a", "b"])),
        ("key2".to_string(), slist(&["a", "b", "c"])),
        ("key3".to_string(), slist(&["c"])),
        ("key4".to_string(), Value::list_empty(Type::String)),
    ]))
    .unwrap();
    let want = Value::map_infer(BTreeMap::from([
        ("a".to_string(), slist(&["key1", "key2"])),
        ("b".to_string(), slist(&["key1", "key2"])),
        ("c".to_string(), slist(&["key2", "key3"])),
    ]))
    .unwrap();
    assert_eq!(ok("transpose", vec![input]), want);
    let bad = Value::map_infer(BTreeMap::from([(
        "a".to_string(),
        Value::list(Type::String, vec![Value::null(Type::String)]).unwrap(),
    )]))
    .unwrap();
    assert_eq!(
        err("transpose", vec![bad]),
        "input list must not contain null string"
    );
    assert_eq!(
        ok(
            "transpose",
            vec![Value::map_empty(Type::list(Type::String))]
        ),
        Value::map_empty(Type::list(Type::String))
    );
}

#[test]
fn zipmap() {
    let got = ok("zipmap", vec![slist(&["a", "b"]), nlist(&[1, 2])]);
    let want = Value::map_infer(BTreeMap::from([
        ("a".to_string(), num(1)),
        ("b".to_string(), num(2)),
    ]))
    .unwrap();
    assert_eq!(got, want);
    let got = ok(
        "zipmap",
        vec![slist(&["a", "b"]), tuple(vec![num(1), s("x")])],
    );
    assert_eq!(got, Value::object_from([("a", num(1)), ("b", s("x"))]));
    assert_eq!(
        err("zipmap", vec![slist(&["a"]), nlist(&[1, 2])]),
        "number of keys (1) does not match number of values (2)"
    );
    assert_eq!(
        err("zipmap", vec![slist(&["a"]), tuple(vec![num(1), num(2)])]),
        "number of keys (1) does not match number of values (2)"
    );
    assert_eq!(
        err("zipmap", vec![slist(&["a"]), s("x")]),
        "values argument must be a list or tuple value"
    );
    let null_key = Value::list(Type::String, vec![s("a"), Value::null(Type::String)]).unwrap();
    assert_eq!(
        err("zipmap", vec![null_key, tuple(vec![num(1), num(2)])]),
        "keys list has null value at index 1"
    );
    assert_eq!(
        ok(
            "zipmap",
            vec![
                Value::list_empty(Type::String),
                Value::list_empty(Type::Number)
            ]
        ),
        Value::map_empty(Type::Number)
    );
    let unk_keys = Value::list(Type::String, vec![Value::unknown(Type::String)]).unwrap();
    assert_eq!(
        ok("zipmap", vec![unk_keys, tuple(vec![num(1)])]),
        Value::dynamic()
    );
    let got = ok(
        "zipmap",
        vec![slist(&["a"]).mark(Mark::Sensitive), nlist(&[1])],
    );
    assert!(got.has_mark(&Mark::Sensitive));
}

#[test]
fn set_operations() {
    let ab = sset(&["a", "b"]);
    let bc = sset(&["b", "c"]);
    assert_eq!(
        ok("setunion", vec![ab.clone(), bc.clone()]),
        sset(&["a", "b", "c"])
    );
    assert_eq!(
        ok("setintersection", vec![ab.clone(), bc.clone()]),
        sset(&["b"])
    );
    assert_eq!(
        ok("setsubtract", vec![ab.clone(), bc.clone()]),
        sset(&["a"])
    );
    assert_eq!(ok("setunion", vec![ab.clone()]), ab);
    // An empty dynamic set does not take part in unification.
    assert_eq!(
        ok("setunion", vec![Value::empty_tuple(), tuple(vec![num(1)])]),
        Value::set(Type::Number, vec![num(1)]).unwrap()
    );
    // Numbers and strings unify to strings.
    assert_eq!(
        ok("setunion", vec![ab.clone(), tuple(vec![num(1)])]),
        sset(&["1", "a", "b"])
    );
    assert_eq!(
        err(
            "setunion",
            vec![
                ab.clone(),
                Value::set(Type::list(Type::String), vec![slist(&["x"])]).unwrap()
            ]
        ),
        "given sets must all have compatible element types"
    );
    let with_unknown =
        Value::set(Type::String, vec![s("a"), Value::unknown(Type::String)]).unwrap();
    assert_eq!(
        ok("setintersection", vec![with_unknown.clone(), ab.clone()]),
        Value::unknown(Type::set(Type::String))
    );
    assert_eq!(
        ok("setsubtract", vec![ab.clone(), with_unknown.clone()]),
        Value::unknown(Type::set(Type::String))
    );
    let union = ok("setunion", vec![with_unknown, bc.clone()]);
    assert_eq!(union.length_int(), Some(4));
    assert_eq!(
        ok(
            "setunion",
            vec![Value::unknown(Type::set(Type::String)), bc]
        ),
        Value::unknown(Type::set(Type::String))
    );
}

#[test]
fn setproduct() {
    let got = ok("setproduct", vec![slist(&["a", "b"]), nlist(&[1, 2])]);
    let want = Value::list_infer(vec![
        tuple(vec![s("a"), num(1)]),
        tuple(vec![s("a"), num(2)]),
        tuple(vec![s("b"), num(1)]),
        tuple(vec![s("b"), num(2)]),
    ])
    .unwrap();
    assert_eq!(got, want);
    let got = ok("setproduct", vec![sset(&["a", "b"]), nlist(&[1])]);
    assert_eq!(
        got.ty(),
        &Type::set(Type::tuple(vec![Type::String, Type::Number]))
    );
    assert_eq!(got.length_int(), Some(2));
    assert_eq!(
        ok("setproduct", vec![Value::empty_tuple(), nlist(&[1])]),
        Value::list_empty(Type::tuple(vec![Type::Dynamic, Type::Number]))
    );
    // Tuple elements are converted to their unified type.
    let got = ok(
        "setproduct",
        vec![tuple(vec![num(1), s("x")]), slist(&["y"])],
    );
    assert_eq!(
        got,
        Value::list_infer(vec![
            tuple(vec![s("1"), s("y")]),
            tuple(vec![s("x"), s("y")]),
        ])
        .unwrap()
    );
    assert_eq!(
        err("setproduct", vec![slist(&["a"])]),
        "at least two arguments are required"
    );
    assert_eq!(
        err("setproduct", vec![slist(&["a"]), s("b")]),
        "a set or a list is required"
    );
    assert_eq!(
        err(
            "setproduct",
            vec![slist(&["a"]), tuple(vec![num(1), slist(&["x"])])]
        ),
        "all elements must be of the same type"
    );
    assert_eq!(
        ok(
            "setproduct",
            vec![slist(&["a"]), Value::unknown(Type::list(Type::Number))]
        ),
        Value::unknown(Type::list(Type::tuple(vec![Type::String, Type::Number])))
    );
    let got = ok("setproduct", vec![sensitive(slist(&["a"])), nlist(&[1])]);
    assert!(got.has_mark(&Mark::Sensitive));
    // Bounded: a product too large to build is an error, not an abort.
    let big: Vec<i64> = (0..2048).collect();
    let err = err("setproduct", vec![nlist(&big), nlist(&big), nlist(&big)]);
    assert!(err.contains("more than"), "{err}");
}
