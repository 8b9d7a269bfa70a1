//! Expression evaluation benchmarks: a grouping `for` over a large map,
//! JSON encoding and decoding of a large document, and a million small
//! additions (through `Value::add`, an operator chain and nested `for`
//! expressions).
//!
//! Expressions are parsed once, outside the timed loop; inputs are bound
//! as `var.*` (see `expr_cases.rs`). `bench/expr_vs_terraform.sh` times
//! the same expressions in `terraform console`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "expr_cases.rs"]
mod expr_cases;

fn bench_all(c: &mut Criterion) {
    for name in expr_cases::NAMES {
        let case = expr_cases::case(name).expect("every listed case exists");
        c.bench_function(name, |b| b.iter(|| black_box((case.run)())));
    }
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
    targets = bench_all
}
criterion_main!(benches);
