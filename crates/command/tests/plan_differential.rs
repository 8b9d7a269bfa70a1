//! `tofu-rs plan-lite` against `terraform plan -refresh=false` + `terraform
//! show -json` on the configurations under `tests/plan_differential/` and
//! the shared plan samples (`../shared/samples/plan/cases`): the same
//! resource changes (address, module_address, mode, type, name, index,
//! provider, actions, before, after, after_unknown, before_sensitive,
//! after_sensitive), output changes and planned output values, and the same
//! human plan once Terraform's name is replaced by OpenTofu's. Cases named
//! `err-*` must fail in both with the same error summaries and expression
//! values (the rest of their text differs where OpenTofu's does: `-exclude`
//! instead of `-target`). Skipped, saying
//! so, when `terraform` is absent (`TERRAFORM=path` picks another binary).
#![allow(clippy::print_stderr)] // skipping is reported

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::{copy_dir, terraform};

fn run(program: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `1` and `1.0` are the same number.
fn numbers_as_f64(v: Value) -> Value {
    match v {
        Value::Number(n) => serde_json::json!(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.into_iter().map(numbers_as_f64).collect()),
        Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, v)| (k, numbers_as_f64(v))).collect())
        }
        v => v,
    }
}

/// The parts of a plan document both tools must agree on.
fn normalize(doc: &Value) -> Value {
    let mut changes: Vec<Value> = doc["resource_changes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|rc| {
            let mut n = serde_json::Map::new();
            for k in [
                "address",
                "module_address",
                "mode",
                "type",
                "name",
                "index",
                "provider_name",
            ] {
                if let Some(v) = rc.get(k) {
                    n.insert(k.into(), v.clone());
                }
            }
            for k in [
                "actions",
                "before",
                "after",
                "after_unknown",
                "before_sensitive",
                "after_sensitive",
            ] {
                n.insert(
                    k.into(),
                    rc["change"].get(k).cloned().unwrap_or(Value::Null),
                );
            }
            Value::Object(n)
        })
        .collect();
    changes.sort_by(|a, b| a["address"].as_str().cmp(&b["address"].as_str()));
    numbers_as_f64(serde_json::json!({
        "resource_changes": changes,
        "output_changes": doc.get("output_changes").cloned().unwrap_or(Value::Null),
        "planned_outputs": doc["planned_values"].get("outputs").cloned().unwrap_or(Value::Null),
    }))
}

/// The expression values under each snippet (`│ var.x is "y"`). Terraform
/// refuses a `for_each` list while validating, with the variable unknown
/// (`var.names is a list of string`); OpenTofu checks the type of known
/// values only, so its plan refuses it with the value known (`is list of
/// string with 2 elements`): `err-foreach-list`'s values are not compared.
fn value_lines(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.starts_with("    │ "))
        .map(str::to_string)
        .collect()
}

fn error_summaries(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| {
            l.trim_start_matches(['│', '╷', ' '])
                .strip_prefix("Error: ")
        })
        .map(cycle_members_sorted)
        .collect()
}

/// A `Cycle: a, b` summary with its members sorted: terraform lists them in
/// an order that comes from Go's maps (the plan sample err-cycle-locals was
/// recorded as `local.a, local.b`; terraform here prints `local.b,
/// local.a`), and tofu-rs sorts them, so only the members are compared.
fn cycle_members_sorted(summary: &str) -> String {
    match summary.strip_prefix("Cycle: ") {
        Some(members) => {
            let mut names: Vec<&str> = members.split(", ").collect();
            names.sort_unstable();
            format!("Cycle: {}", names.join(", "))
        }
        None => summary.to_string(),
    }
}

/// Terraform's human plan as OpenTofu prints it without `-out`: its name
/// replaced, the note about the saved plan file dropped.
fn terraform_human(stdout: &str) -> String {
    let body = stdout.split("\n─────").next().unwrap_or_default();
    format!("{}\n", body.replace("Terraform", "OpenTofu").trim_end())
}

fn compare(ours: &Path, tf: &Path, case: &Path) -> Result<(), String> {
    let tmp = tempfile::TempDir::new().unwrap();
    let (a, b) = (tmp.path().join("tofu-rs"), tmp.path().join("terraform"));
    copy_dir(case, &a);
    copy_dir(case, &b);
    let tf_init = run(
        tf,
        &b,
        &["init", "-input=false", "-backend=false", "-no-color"],
    );
    let init = run(ours, &a, &["init", "-input=false", "-no-color"]);
    if !tf_init.status.success() {
        // A configuration terraform refuses to initialise (an invalid
        // default): plan-lite must refuse it with the same errors.
        let want: Vec<String> = error_summaries(&text(&tf_init.stderr))
            .into_iter()
            .filter(|s| !s.starts_with("Terraform encountered problems during initialisation"))
            .collect();
        let plan = run(ours, &a, &["plan-lite", "-no-color", "-input=false"]);
        let mut got = error_summaries(&text(&init.stderr));
        got.extend(error_summaries(&text(&plan.stderr)));
        got.dedup();
        if plan.status.success() || got != want {
            return Err(format!(
                "terraform init failed with {want:?}, tofu-rs gave {got:?}"
            ));
        }
        return Ok(());
    }
    assert!(init.status.success(), "{}", text(&init.stderr));

    let plan_args = [
        "plan",
        "-refresh=false",
        "-input=false",
        "-no-color",
        "-out=tfplan",
    ];
    let tf_plan = run(tf, &b, &plan_args);
    let our_human = run(ours, &a, &["plan-lite", "-no-color", "-input=false"]);
    if !tf_plan.status.success() {
        let want = error_summaries(&text(&tf_plan.stderr));
        let got = error_summaries(&text(&our_human.stderr));
        if our_human.status.success() || got != want {
            return Err(format!(
                "terraform failed with {want:?}, tofu-rs gave {got:?}"
            ));
        }
        let want = value_lines(&text(&tf_plan.stderr));
        let got = value_lines(&text(&our_human.stderr));
        if got != want && !case.ends_with("err-foreach-list") {
            return Err(format!("expression values {got:?}, terraform {want:?}"));
        }
        return Ok(());
    }
    if !our_human.status.success() {
        return Err(format!("tofu-rs failed:\n{}", text(&our_human.stderr)));
    }
    let shown = run(tf, &b, &["show", "-json", "tfplan"]);
    let want: Value = serde_json::from_slice(&shown.stdout).unwrap();
    let ours_json = run(ours, &a, &["plan-lite", "-json", "-input=false"]);
    let got: Value = serde_json::from_slice(&ours_json.stdout)
        .map_err(|e| format!("tofu-rs -json: {e}: {}", text(&ours_json.stderr)))?;
    let (want, got) = (normalize(&want), normalize(&got));
    if want != got {
        return Err(format!(
            "plan JSON differs\nterraform: {}\ntofu-rs:   {}",
            serde_json::to_string_pretty(&want).unwrap(),
            serde_json::to_string_pretty(&got).unwrap()
        ));
    }
    let want = terraform_human(&text(&tf_plan.stdout));
    let got = format!("{}\n", text(&our_human.stdout).trim_end());
    if want != got {
        return Err(format!(
            "human plan differs\n--- terraform\n{want}--- tofu-rs\n{got}"
        ));
    }
    Ok(())
}

#[test]
fn plan_lite_matches_terraform_plan() {
    let Some(tf) = terraform() else {
        eprintln!("skipping: terraform is not on PATH");
        return;
    };
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_tofu-rs"));
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases = Vec::new();
    // The shared samples sit beside the main checkout, one level further up
    // from a worktree under /work/wt.
    let samples = ["../../../shared", "../../../../shared"]
        .iter()
        .map(|up| manifest.join(up).join("samples/plan/cases"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| manifest.join("../../../shared/samples/plan/cases"));
    for dir in [manifest.join("tests/plan_differential"), samples] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipping {}: absent", dir.display());
            continue;
        };
        cases.extend(entries.map(|e| e.unwrap().path()));
    }
    cases.sort();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            compare(&ours, &tf, case)
                .err()
                .map(|e| format!("{}: {e}", case.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
