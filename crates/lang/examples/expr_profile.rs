//! Runs one expression benchmark case a fixed number of times, for
//! instruction counts that load on the machine does not disturb:
//!
//!     cargo build --release -p tofu-lang --example expr_profile
//!     valgrind --tool=callgrind --toggle-collect='expr_profile::timed' \
//!         target/release/examples/expr_profile jsondecode_10k 1
//!
//! Without arguments it lists the cases. The cases are those of
//! `benches/expr.rs`.

use std::hint::black_box;
use std::process::ExitCode;

#[path = "../benches/expr_cases.rs"]
mod expr_cases;

/// The measured part (a separate function so callgrind can toggle on it).
#[inline(never)]
fn timed(case: &expr_cases::Case, runs: usize) {
    for _ in 0..runs {
        black_box((case.run)());
    }
}

#[allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        println!("usage: expr_profile CASE [RUNS]; cases:");
        for n in expr_cases::NAMES {
            println!("  {n}");
        }
        return ExitCode::SUCCESS;
    };
    let runs = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    let Some(case) = expr_cases::case(name) else {
        eprintln!("no case named {name:?}");
        return ExitCode::FAILURE;
    };
    let start = std::time::Instant::now();
    timed(&case, runs);
    let per_run = start.elapsed() / runs.max(1) as u32;
    println!("{name}: {per_run:?} per run");
    ExitCode::SUCCESS
}
