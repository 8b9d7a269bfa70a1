//! Schema-checked commands against terraform, with the project's test
//! provider serving the same schema to both (issue 15 part 6): for every
//! case under `tests/schema_differential/` and each protocol it lists
//! (`protocols`, default `5 6`):
//!
//! - `providers schema -json`: the same document, byte for byte;
//! - `validate -json`: the same verdict and the same diagnostics
//!   (severity, summary, detail, range);
//! - where the case has a `plan` file (create-only configurations):
//!   `plan-lite -json` against `terraform plan` + `show -json`, the same
//!   resource changes; with a `plan-human` file also the human plan
//!   against `terraform show` of that plan.
//!
//! A case's schema is its `schema.json`, else the test provider's fixture
//! (every nesting mode, nested attributes, min/max items, sensitive,
//! deprecated, computed, write-only). Where OpenTofu's wording differs
//! from terraform's (OpenTofu wins), the case's `expect-differences` file
//! lists the summaries concerned; those diagnostics are compared with the
//! case's reviewed `opentofu-vN.json` instead. Skipped, saying so, when
//! terraform is absent.
#![allow(clippy::print_stderr)] // skipping is reported

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::{copy_dir, terraform, testprovider, validate_view};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schema_differential")
}

fn fixture_schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testprovider/tests/fixtures/schema.json")
}

fn run(program: &Path, dir: &Path, cache: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .env("TOFU_RS_SCHEMA_CACHE_DIR", cache)
        .env_remove("TF_DATA_DIR")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
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

/// The resource changes of a plan document.
fn changes_view(doc: &Value) -> Value {
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
    numbers_as_f64(Value::Array(changes))
}

/// The view without the diagnostics whose summary is in `summaries`
/// (counts adjusted), and those diagnostics.
fn split_by_summary(mut view: Value, summaries: &[&str]) -> (Value, Value) {
    if summaries.is_empty() {
        return (view, Value::Array(Vec::new()));
    }
    let diags = view["diagnostics"].as_array().cloned().unwrap_or_default();
    let (aside, kept): (Vec<Value>, Vec<Value>) = diags
        .into_iter()
        .partition(|d| summaries.iter().any(|s| d["summary"] == *s));
    let errors = kept.iter().filter(|d| d["severity"] == "error").count();
    view["warning_count"] = (kept.len() - errors).into();
    view["error_count"] = errors.into();
    view["valid"] = (errors == 0).into();
    view["diagnostics"] = Value::Array(kept);
    (view, Value::Array(aside))
}

fn compare(tf: &Path, case: &Path, protocol: u32) -> Result<(), String> {
    let root = tempfile::tempdir().unwrap();
    let schema = case.join("schema.json");
    let schema = if schema.exists() {
        schema
    } else {
        fixture_schema()
    };
    let plugins = testprovider::plugin_dir(root.path(), "testing", &schema, protocol);
    let plugin_dir = format!("-plugin-dir={}", plugins.display());
    let cache = root.path().join("cache");
    let ours = Path::new(env!("CARGO_BIN_EXE_tofu-rs"));
    let (a, b) = (root.path().join("tofu-rs"), root.path().join("terraform"));
    copy_dir(case, &a);
    copy_dir(case, &b);
    let init = run(
        ours,
        &a,
        &cache,
        &["init", "-input=false", "-no-color", &plugin_dir],
    );
    if !init.status.success() {
        return Err(format!("tofu-rs init failed:\n{}", text(&init.stderr)));
    }
    let tf_init = run(
        tf,
        &b,
        &cache,
        &["init", "-input=false", "-no-color", &plugin_dir],
    );
    if !tf_init.status.success() {
        return Err(format!("terraform init failed:\n{}", text(&tf_init.stderr)));
    }

    let doc = run(ours, &a, &cache, &["providers", "schema", "-json"]);
    let tf_doc = run(tf, &b, &cache, &["providers", "schema", "-json"]);
    if doc.stdout != tf_doc.stdout {
        return Err(format!(
            "providers schema -json differs:\n tofu-rs:   {}\n terraform: {}\n{}",
            text(&doc.stdout).chars().take(400).collect::<String>(),
            text(&tf_doc.stdout).chars().take(400).collect::<String>(),
            text(&doc.stderr)
        ));
    }

    let ours_v = run(ours, &a, &cache, &["validate", "-json"]);
    let tf_v = run(tf, &b, &cache, &["validate", "-json"]);
    let got: Value = serde_json::from_slice(&ours_v.stdout)
        .map_err(|e| format!("tofu-rs validate -json: {e}\n{}", text(&ours_v.stderr)))?;
    let want: Value = serde_json::from_slice(&tf_v.stdout)
        .map_err(|e| format!("terraform validate -json: {e}\n{}", text(&tf_v.stderr)))?;
    let (got, want) = (validate_view(&got), validate_view(&want));
    // Where OpenTofu's wording differs from terraform's, the case lists
    // the summaries concerned in `expect-differences`: those diagnostics
    // are set aside on both sides, and tofu-rs's must equal the reviewed
    // `opentofu.json` (SCHEMA_DIFF_UPDATE=1 rewrites it).
    let differing = std::fs::read_to_string(case.join("expect-differences")).unwrap_or_default();
    let differing: Vec<&str> = differing.lines().filter(|l| !l.is_empty()).collect();
    let (got, set_aside) = split_by_summary(got, &differing);
    let (want, _) = split_by_summary(want, &differing);
    if !differing.is_empty() {
        let path = case.join(format!("opentofu-v{protocol}.json"));
        let text = format!("{}\n", serde_json::to_string_pretty(&set_aside).unwrap());
        if std::env::var_os("SCHEMA_DIFF_UPDATE").is_some() {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).unwrap_or_default() != text {
            return Err(format!(
                "OpenTofu's own diagnostics differ from {}:\n{text}",
                path.display()
            ));
        }
    }
    if got != want {
        return Err(format!(
            "validate -json differs:\n tofu-rs:   {}\n terraform: {}",
            serde_json::to_string_pretty(&got).unwrap(),
            serde_json::to_string_pretty(&want).unwrap()
        ));
    }

    if case.join("plan").exists() {
        let plan = run(ours, &a, &cache, &["plan-lite", "-json", "-input=false"]);
        if !plan.status.success() {
            return Err(format!("tofu-rs plan-lite failed:\n{}", text(&plan.stderr)));
        }
        let tf_plan = run(
            tf,
            &b,
            &cache,
            &[
                "plan",
                "-refresh=false",
                "-input=false",
                "-no-color",
                "-out=tfplan",
            ],
        );
        if !tf_plan.status.success() {
            return Err(format!("terraform plan failed:\n{}", text(&tf_plan.stderr)));
        }
        let shown = run(tf, &b, &cache, &["show", "-json", "tfplan"]);
        let want: Value = serde_json::from_slice(&shown.stdout).unwrap();
        let got: Value =
            serde_json::from_slice(&plan.stdout).map_err(|e| format!("plan-lite -json: {e}"))?;
        let (got_changes, want_changes) = (changes_view(&got), changes_view(&want));
        if got_changes != want_changes {
            return Err(format!(
                "resource changes differ:\n tofu-rs:   {}\n terraform: {}",
                serde_json::to_string_pretty(&got_changes).unwrap(),
                serde_json::to_string_pretty(&want_changes).unwrap()
            ));
        }
        // The human plan, where the case asks (no data source is read:
        // terraform reads them while planning, plan-lite does not).
        if case.join("plan-human").exists() {
            let human = run(
                ours,
                &a,
                &cache,
                &["plan-lite", "-no-color", "-input=false"],
            );
            let tf_human = run(tf, &b, &cache, &["show", "-no-color", "tfplan"]);
            let want = text(&tf_human.stdout).replace("Terraform", "OpenTofu");
            let got = text(&human.stdout);
            if got.trim_end() != want.trim_end() {
                return Err(format!(
                    "the human plan differs:\n--- tofu-rs\n{got}\n--- terraform\n{want}"
                ));
            }
        }
        let (got, want) = (got_changes, want_changes);
        if got != want {
            return Err(format!(
                "resource changes differ:\n tofu-rs:   {}\n terraform: {}",
                serde_json::to_string_pretty(&got).unwrap(),
                serde_json::to_string_pretty(&want).unwrap()
            ));
        }
    }
    Ok(())
}

#[test]
fn schema_checked_commands_agree_with_terraform() {
    let Some(tf) = terraform() else {
        eprintln!("terraform not found: schema differential tests skipped");
        return;
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .iter()
            .flat_map(|case| {
                let protocols = std::fs::read_to_string(case.join("protocols"))
                    .unwrap_or_else(|_| "5 6".into());
                let protocols: Vec<u32> = protocols
                    .split_whitespace()
                    .map(|p| p.parse().unwrap())
                    .collect();
                protocols.into_iter().map(move |p| (case, p))
            })
            .map(|(case, p)| {
                let tf = tf.clone();
                s.spawn(move || {
                    compare(&tf, case, p).err().map(|e| {
                        format!(
                            "{} (protocol {p}): {e}",
                            case.file_name().unwrap().to_string_lossy()
                        )
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
