//! Tests ported from OpenTofu's `assume_test.go` and `ephemeral_test.go`,
//! plus `convert` through the evaluator.

use std::collections::BTreeMap;
use std::sync::Arc;

use cty::{Mark, Type, Value};

use crate::context::EvalContext;
use crate::functions::framework::{FnError, FunctionTable};
use crate::functions::test_util::{call, call_err, num, s, slist};

fn table() -> FunctionTable {
    let mut t = FunctionTable::new();
    super::register(&mut t);
    super::register_console(&mut t);
    t
}

#[test]
fn assumptions() {
    let t = table();
    assert_eq!(
        call(&t, "assumeequal", vec![num(1), num(1)]).unwrap(),
        num(1)
    );
    assert_eq!(
        call(&t, "assumeequal", vec![s("1"), num(1)]).unwrap(),
        num(1)
    );
    assert_eq!(
        call(
            &t,
            "assumeequal",
            vec![Value::unknown(Type::Number), num(1)]
        )
        .unwrap(),
        num(1)
    );
    assert_eq!(
        call_err(&t, "assumeequal", vec![num(2), num(1)]),
        "the actual value does not match the assumed value"
    );
    assert_eq!(
        call_err(&t, "assumeequal", vec![slist(&["a"]), num(1)]),
        "actual value type list of string does not match assumed value type number"
    );
    let got = call(
        &t,
        "assumeequal",
        vec![num(1).mark(Mark::Sensitive), num(1)],
    )
    .unwrap();
    assert!(!got.is_marked());

    assert_eq!(call(&t, "assumenotnull", vec![s("a")]).unwrap(), s("a"));
    assert_eq!(
        call(&t, "assumenotnull", vec![Value::unknown(Type::String)]).unwrap(),
        Value::unknown(Type::String)
    );
    assert_eq!(
        call_err(&t, "assumenotnull", vec![Value::null(Type::String)]),
        "assumption was not upheld"
    );
    assert!(call_err(&t, "assumenotnull", vec![Value::dynamic()])
        .starts_with("given value must have a known type"));

    assert_eq!(
        call(&t, "assumestringprefix", vec![s("abc"), s("ab")]).unwrap(),
        s("abc")
    );
    assert_eq!(
        call_err(&t, "assumestringprefix", vec![s("abc"), s("x")]),
        "assumption was not upheld"
    );

    let l = slist(&["a", "b"]);
    assert_eq!(
        call(&t, "assumelistlength", vec![l.clone(), num(1), num(2)]).unwrap(),
        l
    );
    assert_eq!(
        call_err(&t, "assumelistlength", vec![l.clone(), num(3), num(4)]),
        "assumption was not upheld"
    );
    assert_eq!(
        call(&t, "assumelistlengthmin", vec![l.clone(), num(2)]).unwrap(),
        l
    );
    assert_eq!(
        call_err(&t, "assumelistlengthmax", vec![l.clone(), num(1)]),
        "assumption was not upheld"
    );
    assert_eq!(
        call(&t, "assumesetlength", vec![l.clone(), num(2), num(2)])
            .unwrap()
            .ty(),
        &Type::set(Type::String)
    );
    let e = call(
        &t,
        "assumemaplength",
        vec![
            Value::map_empty(Type::String),
            num(0),
            Value::parse_number("1.5").unwrap(),
        ],
    )
    .unwrap_err();
    assert_eq!(
        e,
        FnError::arg(
            2,
            "must be a whole number between 0 and 9223372036854775807"
        )
    );
    let e = call(
        &t,
        "assumemaplengthmin",
        vec![
            Value::map_empty(Type::String),
            Value::parse_number("0.5").unwrap(),
        ],
    )
    .unwrap_err();
    assert_eq!(
        e,
        FnError::arg(
            0,
            "must be a whole number between 0 and 9223372036854775807"
        )
    );
    assert_eq!(
        call(
            &t,
            "assumelistlength",
            vec![Value::unknown(Type::list(Type::String)), num(1), num(2)]
        )
        .unwrap(),
        Value::unknown(Type::list(Type::String))
    );
}

#[test]
fn ephemeral_and_type() {
    let t = table();
    let obj = Value::object_from([
        ("a", s("x").mark(Mark::Ephemeral)),
        ("b", s("y").mark(Mark::Sensitive)),
    ]);
    let got = call(&t, "ephemeralasnull", vec![obj]).unwrap();
    assert_eq!(got.get_attr("a").unwrap(), Value::null(Type::String));
    assert!(got.get_attr("b").unwrap().has_mark(&Mark::Sensitive));
    assert_eq!(
        call(&t, "ephemeralasnull", vec![s("z").mark(Mark::Ephemeral)]).unwrap(),
        Value::null(Type::String)
    );
    assert_eq!(call(&t, "ephemeralasnull", vec![s("z")]).unwrap(), s("z"));
    let ty = call(&t, "type", vec![slist(&["a"])]).unwrap();
    assert_eq!(
        ty.unmark(),
        s(&Type::list(Type::String).console_type_string())
    );
    assert!(ty.has_mark(&Mark::Custom(super::TYPE_TYPE_MARK.into())));
}

fn eval(src: &str) -> Result<Value, String> {
    let (expr, diags) = hclsyntax::native::parse_expression(src, "t.tf", hclsyntax::Pos::START);
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    let ctx = EvalContext::new(BTreeMap::new(), Arc::new(table()));
    let (v, diags) = crate::eval::eval_expr(&expr, &ctx);
    match diags.iter().find(|d| d.is_error()) {
        Some(d) => Err(d.detail.clone()),
        None => Ok(v),
    }
}

#[test]
fn convert() {
    assert_eq!(eval("convert(1, string)"), Ok(s("1")));
    assert_eq!(eval("convert([1], list(string))"), Ok(slist(&["1"])));
    assert_eq!(
        eval("convert({a = 1}, map(number))").unwrap().ty(),
        &Type::map(Type::Number)
    );
    assert_eq!(
        eval("convert({}, object({a = optional(string)}))"),
        Ok(Value::object_from([("a", Value::null(Type::String))]))
    );
    assert_eq!(
        eval("convert([1, \"a\"], tuple([string, string]))"),
        Ok(Value::tuple(vec![s("1"), s("a")]))
    );
    let e = eval("convert(\"x\", number)").unwrap_err();
    assert!(e.contains("a number is required"), "{e}");
    let e = eval("convert(1, foo)").unwrap_err();
    assert!(
        e.contains("The keyword \"foo\" is not a valid type specification."),
        "{e}"
    );
}
