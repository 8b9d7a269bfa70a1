//! The reference table (issue 14): every referenceable object written in
//! every place that takes an expression (or an address), one generated
//! configuration per row, each run through tofu-rs's `validate -json`,
//! `plan-lite -json`, `console` and `graph`, and compared with OpenTofu's
//! rules (`reference_table/expect.rs`). Rows terraform can validate offline
//! (builtin `terraform_data`, `terraform_remote_state` and
//! `provider::terraform::*` only) are also compared with `terraform
//! validate -json`; skipped, saying so, when terraform is absent
//! (`TERRAFORM=path` picks another binary).
#![allow(clippy::print_stderr)] // the summary and skips are reported

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

mod support;

#[path = "reference_table/contexts.rs"]
mod contexts;
#[path = "reference_table/expect.rs"]
mod expect;
#[path = "reference_table/objects.rs"]
mod objects;
#[path = "reference_table/runner.rs"]
mod runner;

use runner::{errors, run, survived, Diag, Row};

/// What one row found.
struct Outcome {
    failures: Vec<String>,
    accepted: bool,
    terraform_compared: bool,
    gap: Option<String>,
    /// plan-lite lacks the plan-time check (the row's other checks held).
    plan_gap: Option<String>,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn show(diags: &[Diag]) -> String {
    diags
        .iter()
        .map(|d| format!("  {:?} / {:?} at {:?}", d.summary, d.detail, d.range))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_row(row: &Row, tf: Option<&Path>) -> Outcome {
    let ours = runner::ours();
    let expectation = expect::expect(&row.object, &row.context);
    let plan_want = expectation.resolve(row.reference);
    let want = if expectation.plan_only {
        Vec::new()
    } else {
        plan_want.clone()
    };
    let mut failures = Vec::new();

    let validate = run(&ours, row.path(), &["validate", "-json"], None);
    if let Err(e) = survived(&validate) {
        failures.push(format!("validate {e}"));
    }
    let got = match serde_json::from_slice(&validate.stdout) {
        Ok(doc) => errors(&doc),
        Err(e) => {
            failures.push(format!("validate -json: {e}: {}", text(&validate.stderr)));
            Vec::new()
        }
    };
    let validate_ok = got == want && validate.status.success() == want.is_empty();
    if !validate_ok {
        failures.push(format!(
            "validate: want\n{}\ngot (exit {:?})\n{}",
            show(&want),
            validate.status.code(),
            show(&got)
        ));
    }

    let plan = run(
        &ours,
        row.path(),
        &["plan-lite", "-json", "-input=false"],
        None,
    );
    if let Err(e) = survived(&plan) {
        failures.push(format!("plan-lite {e}"));
    }
    let mut plan_failures = Vec::new();
    if plan_want.is_empty() {
        if !plan.status.success() {
            plan_failures.push(format!("plan-lite failed:\n{}", text(&plan.stderr)));
        }
    } else {
        let want_summaries: Vec<&str> = plan_want.iter().map(|d| d.summary.as_str()).collect();
        let got_summaries: Vec<String> = text(&plan.stderr)
            .lines()
            .filter_map(|l| {
                l.trim_start_matches(['│', '╷', ' '])
                    .strip_prefix("Error: ")
                    .map(str::to_string)
            })
            .collect();
        // plan-lite prints the load errors in its own order (the check's
        // "Zero assert blocks" first): compare them as a set.
        let (mut a, mut b) = (want_summaries.clone(), got_summaries.clone());
        a.sort_unstable();
        b.sort_unstable();
        if plan.status.code() != Some(1) || a != b {
            plan_failures.push(format!(
                "plan-lite: want exit 1 with {want_summaries:?}, got exit {:?} with {got_summaries:?}",
                plan.status.code()
            ));
        }
    }

    let mut plan_gap = None;
    match (expectation.plan_gap, plan_failures.is_empty()) {
        (Some(reason), false) => plan_gap = Some(reason.to_string()),
        (Some(reason), true) => failures.push(format!(
            "plan-lite now gives OpenTofu's plan errors: drop the plan gap {reason:?}"
        )),
        (None, _) => failures.extend(plan_failures),
    }

    // `graph` builds from any configuration that loads.
    let graph = run(&ours, row.path(), &["graph"], None);
    if let Err(e) = survived(&graph) {
        failures.push(format!("graph {e}"));
    }
    if !expectation.at_load && !expectation.plan_only && !graph.status.success() {
        failures.push(format!("graph failed:\n{}", text(&graph.stderr)));
    }

    // `console` evaluates at the root, without count, each or self: once
    // per object, in the `output` context's configuration (its
    // declarations load, the output itself is not evaluated).
    if row.context.name == "output" && row.builtin_only() {
        let console = run(&ours, row.path(), &["console"], Some(row.object.text));
        if let Err(e) = survived(&console) {
            failures.push(format!("console {e}"));
        }
        let console_want = expect::expect(&row.object, &expect::console_context());
        if console.status.success() != console_want.errors.is_empty() {
            failures.push(format!(
                "console: want success={}, got exit {:?}:\n{}",
                console_want.errors.is_empty(),
                console.status.code(),
                text(&console.stderr)
            ));
        }
        for e in &console_want.errors {
            if !text(&console.stderr).contains(&format!("Error: {}", e.summary)) {
                failures.push(format!(
                    "console: no {:?} in\n{}",
                    e.summary,
                    text(&console.stderr)
                ));
            }
        }
    }

    let mut terraform_compared = false;
    if let (Some(tf), true) = (tf, row.builtin_only()) {
        let out = run(tf, row.path(), &["validate", "-json"], None);
        match serde_json::from_slice(&out.stdout) {
            Ok(doc) => {
                terraform_compared = true;
                let mut theirs = errors(&doc);
                if row.context.name == "import_to" {
                    // terraform-only: OpenTofu has no "Only managed
                    // resources can be imported" check after parsing.
                    theirs.retain(|d| d.summary != "Invalid import address");
                }
                let expected_difference = expect::terraform_differs(&row.object, &row.context);
                if theirs != want && expected_difference.is_none() {
                    failures.push(format!(
                        "terraform validate: \n{}\nwant (OpenTofu's rule):\n{}",
                        show(&theirs),
                        show(&want)
                    ));
                }
            }
            Err(e) => failures.push(format!("terraform validate -json: {e}")),
        }
    }

    let gap = expectation.known_gap.map(str::to_string);
    Outcome {
        failures,
        accepted: plan_want.is_empty(),
        terraform_compared,
        gap,
        plan_gap,
    }
}

#[test]
fn references_in_every_context() {
    let tf = support::terraform();
    if tf.is_none() {
        eprintln!("reference table: terraform is not on PATH; terraform comparisons skipped");
    }
    let rows: Vec<(objects::Object, contexts::Context)> = objects::all()
        .into_iter()
        .flat_map(|o| contexts::all().into_iter().map(move |c| (o, c)))
        .collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((object, context)) = rows.get(i) else {
                    break;
                };
                let row = Row::write(*object, *context);
                let outcome = check_row(&row, tf.as_deref());
                results
                    .lock()
                    .unwrap()
                    .push((row.name(), row.source.clone(), outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let (mut accepted, mut compared) = (0, 0);
    let mut failures = Vec::new();
    let mut gaps = Vec::new();
    for (name, source, outcome) in &results {
        accepted += usize::from(outcome.accepted);
        if let Some(reason) = &outcome.plan_gap {
            gaps.push(format!("{name} (plan only): {reason}"));
        }
        compared += usize::from(outcome.terraform_compared);
        match (&outcome.gap, outcome.failures.is_empty()) {
            (Some(reason), _) => gaps.push(format!("{name}: {reason}")),
            (None, true) => {}
            (None, false) => failures.push(format!(
                "== {name}\n{}\n-- main.tf\n{source}",
                outcome.failures.join("\n")
            )),
        }
    }
    for g in &gaps {
        eprintln!("known gap: {g}");
    }
    eprintln!(
        "reference table: {} rows, {accepted} accepted, {} rejected, {compared} compared with terraform, {} known gaps",
        results.len(),
        results.len() - accepted,
        gaps.len()
    );
    assert!(
        failures.is_empty(),
        "{} rows failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
