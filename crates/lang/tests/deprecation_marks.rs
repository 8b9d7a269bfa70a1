//! A deprecation mark on a value travels through every kind of expression
//! and function, as cty marks do, so that the place that consumes the
//! result can warn about it.

use std::collections::BTreeMap;
use std::sync::Arc;

use cty::{DeprecationCause, Mark, Value};
use hclsyntax::Pos;
use lang::{eval_expr, EvalContext};

fn dep() -> Mark {
    Mark::Deprecated(Arc::new(DeprecationCause {
        module_instance: "module.m".into(),
        name: "old".into(),
        message: "gone".into(),
    }))
}

fn context() -> EvalContext<'static> {
    let old = Value::string("x").mark(dep());
    let list = Value::tuple(vec![Value::string("a"), Value::string("b")]).mark(dep());
    let obj = Value::object_from([
        ("k", Value::string("v").mark(dep())),
        ("p", Value::string("q")),
    ]);
    let module = Value::object_from([("old", old), ("list", list), ("obj", obj)]);
    let mut vars = BTreeMap::new();
    vars.insert("m".to_string(), module);
    EvalContext::new(vars, Arc::new(lang::functions::builtin_functions()))
}

fn eval(src: &str) -> Value {
    let (expr, d) = hclsyntax::native::parse_expression(src, "t.tf", Pos::START);
    assert!(d.is_empty(), "{src}: {d:?}");
    let ctx = context();
    let (v, d) = eval_expr(&expr, &ctx);
    assert!(!hclsyntax::has_errors(&d), "{src}: {d:?}");
    v
}

fn deep_has_dep(v: &Value) -> bool {
    v.unmark_deep().1.contains(&dep())
}

#[test]
fn marks_survive_every_operation() {
    // Results that carry the mark on the value itself.
    for src in [
        "m.old",
        "upper(m.old)",
        "\"pre-${m.old}\"",
        "m.old == \"x\"",
        "m.old == \"x\" ? \"a\" : \"b\"",
        "length(m.list)",
        "join(\",\", m.list)",
        "jsonencode(m.old)",
        "m.list[0]",
        "m.list[*]",
        "[for s in m.list : s][0]",
        "tostring(m.old)",
        "coalesce(m.old, \"y\")",
        "format(\"%s!\", m.old)",
        "m.obj.k",
        "jsonencode(m.obj)",
        "\"%{ for s in m.list }${s}%{ endfor }\"",
        "!(m.old == \"x\")",
    ] {
        let v = eval(src);
        assert!(v.has_mark(&dep()), "{src} lost the mark: {v:?}");
    }
    // Results that carry it inside.
    for src in [
        "[m.old, \"y\"]",
        "{ a = m.old }",
        "m.obj",
        "merge(m.obj, { z = \"1\" })",
        "[for s in m.list : upper(s)]",
        "{ for k, v in m.obj : k => v }",
        "tolist([m.old])",
        "true ? m.old : \"y\"",
        "[m.obj][*].k",
    ] {
        let v = eval(src);
        assert!(deep_has_dep(&v), "{src} lost the mark: {v:?}");
    }
    // The unmarked parts stay unmarked.
    assert!(!deep_has_dep(&eval("m.obj.p")));
    assert!(!deep_has_dep(&eval("false ? m.old : \"y\"")));
}
