//! The framework's automatic handling of unknown, null, dynamic and
//! marked arguments, per the parameter flags (cty `function` tests).

use cty::{Mark, Type, Value};

use super::{FnError, Function, FunctionTable, Param};

/// A function adding one to a number, counting nothing special.
fn incr(param: Param) -> Function {
    Function::new(
        vec![param],
        None,
        |_| Ok(Type::Number),
        |args, _| {
            if args[0].is_null() {
                return Ok(Value::number_int(-1));
            }
            if !args[0].is_known() {
                return Ok(Value::number_int(-2));
            }
            Ok(args[0].add(&Value::number_int(1))?)
        },
    )
}

#[test]
fn unknown_arguments_make_unknown_results() {
    let f = incr(Param::new("n", Type::Number));
    let r = f.call(&[Value::unknown(Type::Number)]).unwrap();
    assert!(!r.is_known());
    assert_eq!(r.ty(), &Type::Number);
    // With allow_unknown the implementation sees the unknown.
    let f = incr(Param::new("n", Type::Number).allow_unknown());
    assert_eq!(
        f.call(&[Value::unknown(Type::Number)]).unwrap(),
        Value::number_int(-2)
    );
}

#[test]
fn null_arguments_are_errors_unless_allowed() {
    let f = incr(Param::new("n", Type::Number));
    assert_eq!(
        f.call(&[Value::null(Type::Number)]),
        Err(FnError::arg(0, "argument must not be null"))
    );
    let f = incr(Param::new("n", Type::Number).allow_null());
    assert_eq!(
        f.call(&[Value::null(Type::Number)]).unwrap(),
        Value::number_int(-1)
    );
}

#[test]
fn dynamic_arguments_skip_the_implementation() {
    let f = incr(Param::new("n", Type::Number));
    let r = f.call(&[Value::dynamic()]).unwrap();
    assert!(!r.is_known());
    assert_eq!(r.ty(), &Type::Dynamic);
}

#[test]
fn marks_move_to_the_result() {
    let f = incr(Param::new("n", Type::Number));
    let r = f
        .call(&[Value::number_int(1).mark(Mark::Sensitive)])
        .unwrap();
    assert_eq!(r.unmark(), Value::number_int(2));
    assert!(r.has_mark(&Mark::Sensitive));
    // Unknown and marked: the unknown result keeps the marks.
    let r = f
        .call(&[Value::unknown(Type::Number).mark(Mark::Sensitive)])
        .unwrap();
    assert!(!r.is_known() && r.has_mark(&Mark::Sensitive));
    // With allow_marked the implementation sees (and must carry) them.
    let seen = Function::new(
        vec![Param::new("v", Type::Dynamic).allow_marked()],
        None,
        |_| Ok(Type::Bool),
        |args, _| Ok(Value::bool(args[0].is_marked())),
    );
    assert_eq!(
        seen.call(&[Value::bool(true).mark(Mark::Sensitive)])
            .unwrap(),
        Value::bool(true)
    );
}

#[test]
fn arity_and_types_are_checked() {
    let f = incr(Param::new("n", Type::Number));
    assert_eq!(
        f.call(&[]),
        Err(FnError::general(
            "wrong number of arguments (1 required; 0 given)"
        ))
    );
    let var = Function::new(
        vec![Param::new("a", Type::String)],
        Some(Param::new("rest", Type::Number)),
        |_| Ok(Type::Number),
        |args, _| Ok(Value::number_int(args.len() as i64)),
    );
    assert_eq!(
        var.call(&[]),
        Err(FnError::general(
            "wrong number of arguments (at least 1 required; 0 given)"
        ))
    );
    assert_eq!(
        var.call(&[
            Value::string("x"),
            Value::number_int(1),
            Value::number_int(2)
        ])
        .unwrap(),
        Value::number_int(3)
    );
    assert!(matches!(
        var.call(&[Value::string("x"), Value::string("y")]),
        Err(FnError::Arg { index: 1, .. })
    ));
}

#[test]
fn table_resolves_core_aliases() {
    let mut t = FunctionTable::new();
    t.insert("incr", incr(Param::new("n", Type::Number)));
    t.insert_exact("provider::p::f", incr(Param::new("n", Type::Number)));
    assert!(t.get("incr").is_some());
    assert!(t.get("core::incr").is_some());
    assert!(t.get("provider::p::f").is_some());
    assert!(t.get("core::provider::p::f").is_none());
    assert!(t.get("nope").is_none());
    assert_eq!(t.names(), vec!["incr", "provider::p::f"]);
}
