//! The inputs and expressions of the expression benchmarks, shared by
//! `benches/expr.rs` (criterion) and `examples/expr_profile.rs` (one case
//! run a fixed number of times, for instruction counts under callgrind).
//!
//! The inputs are the ones `bench/expr_vs_terraform.sh` gives `terraform
//! console`: the JSON documents are the same text (Python's `json.dump`
//! layout), and the `for` and `jsonencode` inputs are decoded from it as
//! the console's `jsondecode(file(...))` does, so both tools see objects
//! and 512-bit numbers.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::hint::black_box;

use cty::Value;
use hclsyntax::{has_errors, Expr, Pos};
use lang::functions::builtin_table;
use lang::{eval_expr, EvalContext};
use mimalloc::MiMalloc;

// The allocator of the `tofu-rs` binary, whose console these cases stand
// for: values are many small allocations.
#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

/// Entries in the map the `for` expression walks.
pub const MAP_ENTRIES: usize = 100_000;
/// Elements of the document given to `jsonencode` and `jsondecode`.
pub const JSON_ELEMENTS: usize = 10_000;
/// Terms of the `1 + 1 + …` chain (within the evaluator's depth limit).
pub const CHAIN_TERMS: usize = 10_000;
/// Additions of the `value_add_1m` case.
pub const ADDITIONS: usize = 1_000_000;

/// Every case, in the order criterion runs them.
pub const NAMES: &[&str] = &[
    "for_group_filter_100k_map",
    "jsonencode_10k",
    "jsondecode_10k",
    "value_add_1m",
    "eval_add_chain_10k_x100",
    "eval_for_add_1000x1000",
];

/// One benchmark: `run` is the timed part.
pub struct Case {
    pub run: Box<dyn Fn() -> Value>,
}

fn parse(src: &str) -> Expr {
    let (e, d) = hclsyntax::native::parse_expression(src, "bench.tf", Pos::START);
    assert!(!has_errors(&d), "parsing benchmark expression: {d:?}");
    e
}

fn context(vars: Vec<(&str, Value)>) -> EvalContext<'static> {
    let mut variables = BTreeMap::new();
    variables.insert("var".to_string(), Value::object_from(vars));
    EvalContext::new(variables, builtin_table())
}

fn eval_ok(expr: &Expr, ctx: &EvalContext<'_>) -> Value {
    let (v, d) = eval_expr(expr, ctx);
    assert!(!has_errors(&d), "evaluating benchmark expression: {d:?}");
    v
}

/// A case evaluating `src` with `vars` bound as `var.*`, `repeat` times
/// per run.
fn expr_case(src: &str, vars: Vec<(&str, Value)>, repeat: usize) -> Case {
    let expr = parse(src);
    let ctx = context(vars);
    Case {
        run: Box::new(move || {
            let mut last = Value::dynamic();
            for _ in 0..repeat {
                last = black_box(eval_ok(&expr, &ctx));
            }
            last
        }),
    }
}

/// Python's `json.dump` of `{"k0": {"group": "g0", "n": 0}, …}`: 100
/// groups.
pub fn grouping_map_json() -> String {
    let mut s = String::from("{");
    for i in 0..MAP_ENTRIES {
        if i > 0 {
            s.push_str(", ");
        }
        write!(s, "\"k{i}\": {{\"group\": \"g{}\", \"n\": {i}}}", i % 100).expect("string");
    }
    s.push('}');
    s
}

/// Python's `json.dump` of 10k objects of mixed attribute types.
pub fn json_document() -> String {
    let mut s = String::from("[");
    for i in 0..JSON_ELEMENTS {
        if i > 0 {
            s.push_str(", ");
        }
        // `{:?}` prints the shortest round-trip form, as Python's repr
        // does in this range ("0.0", "0.14285714285714285").
        write!(
            s,
            "{{\"id\": {i}, \"name\": \"item-{i}\", \"enabled\": {}, \"weight\": {:?}, \"tags\": [\"a\", \"b\"]}}",
            i % 3 == 0,
            i as f64 / 7.0
        )
        .expect("string");
    }
    s.push(']');
    s
}

fn decode(json: &str) -> Value {
    cty::json::decode_implied(json).expect("benchmark JSON is valid")
}

/// The case called `name`, with its inputs built.
pub fn case(name: &str) -> Option<Case> {
    Some(match name {
        "for_group_filter_100k_map" => {
            let case = expr_case(
                "{for k, v in var.m : v.group => k... if v.n % 2 == 0}",
                vec![("m", decode(&grouping_map_json()))],
                1,
            );
            assert_eq!((case.run)().length_int(), Some(50), "50 even groups");
            case
        }
        "jsonencode_10k" => expr_case(
            "jsonencode(var.data)",
            vec![("data", decode(&json_document()))],
            1,
        ),
        "jsondecode_10k" => {
            let case = expr_case(
                "jsondecode(var.json)",
                vec![("json", Value::string(json_document()))],
                1,
            );
            assert_eq!((case.run)().length_int(), Some(JSON_ELEMENTS));
            case
        }
        "value_add_1m" => Case {
            run: Box::new(|| {
                let one = Value::number_int(1);
                let mut acc = Value::number_int(0);
                for _ in 0..ADDITIONS {
                    acc = acc.add(&one).expect("numbers add");
                }
                acc
            }),
        },
        // 100 evaluations of a 10k-term chain: 1M additions through the
        // evaluator's binary-operator path (and its big-stack thread).
        "eval_add_chain_10k_x100" => {
            let mut src = String::from("1");
            src.push_str(&"+1".repeat(CHAIN_TERMS - 1));
            let case = expr_case(&src, Vec::new(), ADDITIONS / CHAIN_TERMS);
            assert!((case.run)().raw_equals(&Value::number_int(CHAIN_TERMS as i64)));
            case
        }
        // 1M additions inside nested `for` expressions (range caps at 1024).
        "eval_for_add_1000x1000" => expr_case(
            "[for i in range(1000) : [for j in range(1000) : i + j]]",
            Vec::new(),
            1,
        ),
        _ => return None,
    })
}
