//! Expression evaluation benchmarks: a grouping `for` over a large map,
//! JSON encoding and decoding of a large structure, and a million small
//! additions (through `Value::add` and through the evaluator).
//!
//! Expressions are parsed once, outside the timed loop; inputs are bound
//! as `var.*`. `bench/expr_vs_terraform.sh` times the same expressions in
//! `terraform console`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use cty::{Type, Value};
use hclsyntax::{has_errors, Expr, Pos};
use lang::functions::builtin_table;
use lang::{eval_expr, EvalContext};

/// Entries in the map the `for` expression walks.
const MAP_ENTRIES: i64 = 100_000;
/// Elements of the structure given to `jsonencode`.
const JSON_ELEMENTS: i64 = 10_000;
/// Terms of the `1 + 1 + …` chain (within the evaluator's depth limit).
const CHAIN_TERMS: usize = 10_000;

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

/// `{ k0 = {group = "g0", n = 0}, k1 = … }`: 100 groups.
fn grouping_map() -> Value {
    let entries: BTreeMap<String, Value> = (0..MAP_ENTRIES)
        .map(|i| {
            let v = Value::object_from([
                ("group", Value::string(format!("g{}", i % 100))),
                ("n", Value::number_int(i)),
            ]);
            (format!("k{i}"), v)
        })
        .collect();
    let ety = entries["k0"].ty().clone();
    Value::map(ety, entries).expect("every entry has the same object type")
}

/// A list of 10k objects of mixed attribute types.
fn json_structure() -> Value {
    let items: Vec<Value> = (0..JSON_ELEMENTS)
        .map(|i| {
            Value::object_from([
                ("id", Value::number_int(i)),
                ("name", Value::string(format!("item-{i}"))),
                ("enabled", Value::bool(i % 3 == 0)),
                (
                    "weight",
                    Value::number_float(i as f64 / 7.0).expect("finite"),
                ),
                (
                    "tags",
                    Value::list(Type::String, vec![Value::string("a"), Value::string("b")])
                        .expect("strings"),
                ),
            ])
        })
        .collect();
    let ety = items[0].ty().clone();
    Value::list(ety, items).expect("every element has the same object type")
}

fn bench_for(c: &mut Criterion) {
    let ctx = context(vec![("m", grouping_map())]);
    let expr = parse("{for k, v in var.m : v.group => k... if v.n % 2 == 0}");
    let v = eval_ok(&expr, &ctx);
    assert_eq!(v.length_int(), Some(50), "even numbers fall into 50 groups");
    c.bench_function("for_group_filter_100k_map", |b| {
        b.iter(|| black_box(eval_ok(&expr, &ctx)))
    });
}

fn bench_json(c: &mut Criterion) {
    let data = json_structure();
    let encode_ctx = context(vec![("data", data)]);
    let encode = parse("jsonencode(var.data)");
    let text = eval_ok(&encode, &encode_ctx);
    let decode_ctx = context(vec![("json", text)]);
    let decode = parse("jsondecode(var.json)");
    assert_eq!(
        eval_ok(&decode, &decode_ctx).length_int(),
        Some(JSON_ELEMENTS as usize)
    );
    c.bench_function("jsonencode_10k", |b| {
        b.iter(|| black_box(eval_ok(&encode, &encode_ctx)))
    });
    c.bench_function("jsondecode_10k", |b| {
        b.iter(|| black_box(eval_ok(&decode, &decode_ctx)))
    });
}

fn bench_additions(c: &mut Criterion) {
    c.bench_function("value_add_1m", |b| {
        let one = Value::number_int(1);
        b.iter(|| {
            let mut acc = Value::number_int(0);
            for _ in 0..1_000_000 {
                acc = acc.add(&one).expect("numbers add");
            }
            black_box(acc)
        })
    });

    // 100 evaluations of a 10k-term chain: 1M additions through the
    // evaluator's binary-operator path (and its big-stack thread).
    let ctx = context(Vec::new());
    let mut src = String::from("1");
    src.push_str(&"+1".repeat(CHAIN_TERMS - 1));
    let chain = parse(&src);
    let v = eval_ok(&chain, &ctx);
    assert!(v.raw_equals(&Value::number_int(CHAIN_TERMS as i64)));
    c.bench_function("eval_add_chain_10k_x100", |b| {
        b.iter(|| {
            for _ in 0..1_000_000 / CHAIN_TERMS {
                black_box(eval_ok(&chain, &ctx));
            }
        })
    });

    // 1M additions inside nested `for` expressions (range caps at 1024).
    let nested = parse("[for i in range(1000) : [for j in range(1000) : i + j]]");
    c.bench_function("eval_for_add_1000x1000", |b| {
        b.iter(|| black_box(eval_ok(&nested, &ctx)))
    });
}

fn config() -> Criterion {
    // Bounded runs: the machine is shared, and each iteration is large.
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_for, bench_json, bench_additions
}
criterion_main!(benches);
