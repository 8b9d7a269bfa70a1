//! Arbitrary bytes through the whole expression pipeline: parse as a
//! native-syntax expression, then evaluate with every builtin function
//! and a few variables of each kind. Any panic, abort, stack overflow,
//! time-out or memory blow-up is a bug: bad input must end in diagnostics.
#![no_main]

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use cty::{Type, Value};
use hclsyntax::{has_errors, Pos};
use lang::{eval_expr, EvalContext, FunctionTable};
use libfuzzer_sys::fuzz_target;

/// Builtins that touch the file system are left out: reading whatever
/// path the fuzzer spells (`/dev/zero`) is not a bug in tofu-rs.
const EXCLUDED: &[&str] = &[
    "file",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "fileexists",
    "filemd5",
    "fileset",
    "filesha1",
    "filesha256",
    "filesha512",
    "templatefile",
];

fn functions() -> Arc<FunctionTable> {
    static TABLE: OnceLock<Arc<FunctionTable>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut t = lang::functions::builtin_functions();
            for name in EXCLUDED {
                t.remove(name);
            }
            Arc::new(t)
        })
        .clone()
}

fn variables() -> BTreeMap<String, Value> {
    static VARS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    VARS.get_or_init(make_variables).clone()
}

fn make_variables() -> BTreeMap<String, Value> {
    let strings = |items: &[&str]| items.iter().map(Value::string).collect::<Vec<_>>();
    let var = Value::object_from([
        ("s", Value::string("hello")),
        ("n", Value::number_int(42)),
        ("b", Value::bool(true)),
        (
            "l",
            Value::list(Type::String, strings(&["a", "b", "c"])).expect("strings"),
        ),
        (
            "m",
            Value::map(
                Type::Number,
                [
                    ("x".to_string(), Value::number_int(1)),
                    ("y".to_string(), Value::number_int(2)),
                ]
                .into_iter()
                .collect(),
            )
            .expect("numbers"),
        ),
        (
            "set",
            Value::set(Type::String, strings(&["b", "a"])).expect("strings"),
        ),
        (
            "o",
            Value::object_from([("k", Value::string("v")), ("n", Value::null(Type::Number))]),
        ),
        (
            "t",
            Value::tuple(vec![Value::number_int(1), Value::string("two")]),
        ),
        ("u", Value::unknown(Type::String)),
        ("d", Value::dynamic()),
        ("sens", Value::string("secret").mark(cty::Mark::Sensitive)),
    ]);
    [
        ("var".to_string(), var),
        ("local".to_string(), Value::empty_object()),
    ]
    .into_iter()
    .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let (expr, diags) = hclsyntax::native::parse_expression(src, "fuzz.tf", Pos::START);
    if has_errors(&diags) {
        return;
    }
    let ctx = EvalContext::new(variables(), functions());
    let _ = eval_expr(&expr, &ctx);
});
