//! Helpers shared by the unit tests: parsing snippets, a context with a
//! few variables of every kind, compact value rendering.

use std::collections::BTreeMap;

use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, Pos};

use crate::context::EvalContext;
use crate::eval::eval_expr;

/// Parses `src` as an expression in `test.tf`; panics on syntax errors.
pub(crate) fn parse(src: &str) -> Expr {
    let (e, d) = hclsyntax::native::parse_expression(src, "test.tf", Pos::START);
    assert!(!has_errors(&d), "parsing {src}: {d:?}");
    e
}

fn strings(items: &[&str]) -> Vec<Value> {
    items.iter().map(Value::string).collect()
}

fn obj(items: Vec<(&str, Value)>) -> Value {
    Value::object_from(items)
}

/// The `var` object of the test context.
pub(crate) fn test_vars() -> Value {
    let user = |role: &str, admin: bool| {
        obj(vec![
            ("role", Value::string(role)),
            ("is_admin", Value::bool(admin)),
        ])
    };
    let users: BTreeMap<String, Value> = [
        ("alice", user("admin", true)),
        ("bob", user("dev", false)),
        ("carol", user("dev", false)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let user_ty = users["alice"].ty().clone();
    let objs = vec![
        obj(vec![
            ("name", Value::string("a")),
            ("id", Value::number_int(1)),
        ]),
        obj(vec![
            ("name", Value::string("b")),
            ("id", Value::number_int(2)),
        ]),
    ];
    let objs_ty = objs[0].ty().clone();
    let ports: BTreeMap<String, Value> = [("http", 80), ("https", 443), ("ssh", 22)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Value::number_int(v)))
        .collect();
    obj(vec![
        (
            "list",
            Value::list(Type::String, strings(&["a", "b", "c"])).unwrap(),
        ),
        ("empty_list", Value::list_empty(Type::String)),
        (
            "tuple",
            Value::tuple(vec![
                Value::number_int(1),
                Value::string("two"),
                Value::bool(true),
            ]),
        ),
        ("map", Value::map(Type::Number, ports).unwrap()),
        (
            "set",
            Value::set(Type::String, strings(&["b", "a", "c", "a"])).unwrap(),
        ),
        (
            "obj",
            obj(vec![
                ("name", Value::string("x")),
                (
                    "nested",
                    obj(vec![(
                        "y",
                        Value::tuple(vec![Value::number_int(1), Value::number_int(2)]),
                    )]),
                ),
            ]),
        ),
        ("users", Value::map(user_ty, users).unwrap()),
        ("objs", Value::list(objs_ty, objs).unwrap()),
        ("num", Value::number_int(5)),
        ("str", Value::string("hello")),
        ("unknown_str", Value::unknown(Type::String)),
        ("unknown_num", Value::unknown(Type::Number)),
        ("unknown_bool", Value::unknown(Type::Bool)),
        ("unknown_list", Value::unknown(Type::list(Type::String))),
        (
            "unknown_obj",
            Value::unknown(Type::object_from([("a", Type::String)])),
        ),
        ("dyn", Value::dynamic()),
        ("secret", Value::string("hunter2").mark(Mark::Sensitive)),
        ("secret_num", Value::number_int(3).mark(Mark::Sensitive)),
        (
            "secret_list",
            Value::list(Type::String, strings(&["s1", "s2"]))
                .unwrap()
                .mark(Mark::Sensitive),
        ),
        ("null_str", Value::null(Type::String)),
        ("null_list", Value::null(Type::list(Type::String))),
        (
            "null_obj",
            Value::null(Type::object_from([("a", Type::String)])),
        ),
    ])
}

/// A context with `var` (see [`test_vars`]), `local.greeting` and the
/// builtin functions.
pub(crate) fn test_ctx() -> EvalContext<'static> {
    let mut vars = BTreeMap::new();
    vars.insert("var".to_string(), test_vars());
    vars.insert(
        "local".to_string(),
        obj(vec![("greeting", Value::string("hi"))]),
    );
    EvalContext::new(vars, crate::functions::builtin_table())
}

/// Evaluates `src` in [`test_ctx`].
pub(crate) fn eval_src(src: &str) -> (Value, Diagnostics) {
    eval_expr(&parse(src), &test_ctx())
}

/// The console rendering of `v` on one line, with unknowns shown with
/// their type and marks listed.
pub(crate) fn show(v: &Value) -> String {
    if !v.is_known() {
        let marks = if v.is_marked() {
            format!(" marked {:?}", v.marks())
        } else {
            String::new()
        };
        return format!("unknown({}){marks}", v.ty().type_expr_string());
    }
    cty::format::console_format(v)
        .lines()
        .map(str::trim_start)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Evaluates `src`, asserts it has no errors, returns [`show`] of it.
pub(crate) fn ok(src: &str) -> String {
    let (v, d) = eval_src(src);
    assert!(!has_errors(&d), "{src}: unexpected errors {d:#?}");
    show(&v)
}

/// Evaluates `src`, asserts it has an error, returns the first.
pub(crate) fn err(src: &str) -> Diagnostic {
    let (v, d) = eval_src(src);
    d.into_iter()
        .find(|d| d.is_error())
        .unwrap_or_else(|| panic!("{src}: expected an error, got {}", show(&v)))
}

/// Asserts a table of `(expression, rendering)` cases.
pub(crate) fn check_all(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (src, want) in cases {
        let (v, d) = eval_src(src);
        if has_errors(&d) {
            failures.push(format!(
                "{src}: errors {:?}",
                d.iter()
                    .map(|d| format!("{}: {}", d.summary, d.detail))
                    .collect::<Vec<_>>()
            ));
            continue;
        }
        let got = show(&v);
        if got != *want {
            failures.push(format!("{src}:\n   got  {got}\n   want {want}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Asserts a table of `(expression, summary, detail)` error cases.
pub(crate) fn check_errors(cases: &[(&str, &str, &str)]) {
    let mut failures = Vec::new();
    for (src, summary, detail) in cases {
        let (v, d) = eval_src(src);
        match d.iter().find(|d| d.is_error()) {
            None => failures.push(format!("{src}: no error, got {}", show(&v))),
            Some(e) if e.summary != *summary || e.detail != *detail => failures.push(format!(
                "{src}:\n   got  {} / {}\n   want {summary} / {detail}",
                e.summary, e.detail
            )),
            _ => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
