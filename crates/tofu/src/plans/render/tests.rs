//! Plans built by hand, rendered both ways (snapshots), and the sample
//! configurations of `../shared/samples/plan` planned and compared with
//! what terraform's plan JSON gave.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::plans::{Action, OutputChange, Plan, ResourceInstanceChange};
use addrs::{
    AbsResourceInstance, InstanceKey, ModuleInstance, ModuleSource, Provider, Resource,
    ResourceInstance, ResourceMode,
};
use configs::config::Config;
use configs::config_build::{build_config, LoadedModule, ModuleRequest, ModuleWalker};
use configs::module::load_module_dir;
use cty::{Mark, Type, Value};

use super::human::{render_plan, word_wrap, HumanOptions};
use super::json::{plan_json, DocumentInfo};

fn td_schema() -> Type {
    Type::object_from([
        ("id", Type::String),
        ("input", Type::Dynamic),
        ("output", Type::Dynamic),
        ("triggers_replace", Type::Dynamic),
    ])
}

/// A `terraform_data` instance to create, planned as the walker plans it.
fn td(
    module: ModuleInstance,
    name: &str,
    key: InstanceKey,
    input: Value,
) -> ResourceInstanceChange {
    let output = if input.is_known() && input.unmark().is_null() {
        Value::null(Type::Dynamic)
    } else {
        Value::unknown(input.unmark().ty().clone())
    };
    let after = Value::object_from([
        ("id", Value::unknown(Type::String)),
        ("input", input),
        ("output", output),
        ("triggers_replace", Value::null(Type::Dynamic)),
    ]);
    ResourceInstanceChange {
        addr: AbsResourceInstance {
            module,
            resource: ResourceInstance {
                resource: Resource {
                    mode: ResourceMode::Managed,
                    type_name: "terraform_data".into(),
                    name: name.into(),
                },
                key,
            },
        },
        provider: Provider::built_in("terraform"),
        provider_alias: None,
        action: Action::Create,
        schema_type: td_schema(),
        schema: None,
        before: Value::null(td_schema()),
        after,
    }
}

fn output(name: &str, after: Value, sensitive: bool) -> (String, OutputChange) {
    let action = if after.is_known() && after.is_null() {
        Action::NoOp
    } else {
        Action::Create
    };
    (
        name.to_string(),
        OutputChange {
            name: name.to_string(),
            action,
            after,
            sensitive,
        },
    )
}

fn s(v: &str) -> Value {
    Value::string(v)
}

fn list(vals: Vec<Value>) -> Value {
    Value::list_infer(vals).unwrap()
}

/// A plan with nested values, unknowns inside lists and objects, sensitive
/// values at nested paths, a null input and module instances.
fn sample_plan() -> Plan {
    let root = ModuleInstance::root();
    let in_module = root.child("app", InstanceKey::String("blue".into()));
    let resource_changes = vec![
        td(
            in_module.clone(),
            "cfg",
            InstanceKey::Int(0),
            Value::object_from([
                ("name", s("blue")),
                (
                    "ports",
                    list(vec![Value::number_int(80), Value::unknown(Type::Number)]),
                ),
                (
                    "nested",
                    Value::object_from([
                        ("deep", Value::bool(true)),
                        ("none", Value::null(Type::String)),
                    ]),
                ),
                ("secret", s("hunter2").mark(Mark::Sensitive)),
                ("tags", Value::map_empty(Type::String)),
                ("later", Value::unknown(Type::String)),
                ("with space", s("v")),
                ("text", s("line one\nline two\n")),
                ("doc", s(r#"{"b": [1, null], "a": "x"}"#)),
            ]),
        ),
        td(
            root.clone(),
            "empty",
            InstanceKey::None,
            Value::null(Type::Dynamic),
        ),
        td(
            root.clone(),
            "list",
            InstanceKey::String("k".into()),
            Value::tuple(vec![
                s("a"),
                s("b").mark(Mark::Sensitive),
                Value::empty_tuple(),
            ]),
        ),
        td(
            root.clone(),
            "whole_secret",
            InstanceKey::None,
            s("x").mark(Mark::Sensitive),
        ),
    ];
    let output_changes = BTreeMap::from([
        output(
            "known",
            Value::object_from([("a", Value::number_int(1)), ("b c", s("d"))]),
            false,
        ),
        output("nothing", Value::null(Type::Dynamic), false),
        output(
            "partly",
            list(vec![s("x"), Value::unknown(Type::String)]),
            false,
        ),
        output("secret", s("s"), true),
        output("unknown", Value::unknown(Type::String), false),
    ]);
    Plan {
        resource_changes,
        output_changes,
        variables: BTreeMap::from([("region".to_string(), s("eu"))]),
    }
}

fn sample_config() -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        r#"
variable "region" {
  default     = "eu"
  description = "Where"
}
variable "token" {
  type      = string
  sensitive = true
}
locals {
  names = ["a", "b"]
}
resource "terraform_data" "list" {
  for_each = toset(["k"])
  input    = [local.names[0], var.token, []]
}
resource "terraform_data" "empty" {
  count = 1
  triggers_replace = null
}
output "known" {
  value = { a = 1, "b c" = "d" }
}
output "partly" {
  value     = [terraform_data.list["k"].id, module.app["blue"].x]
  sensitive = true
}
"#,
    )
    .unwrap();
    let (module, diags) = load_module_dir(dir.path());
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    (dir, Config::root(module.unwrap()))
}

const INFO: DocumentInfo<'static> = DocumentInfo {
    version: "0.0.0-test",
    timestamp: "2026-01-02T03:04:05Z",
    errored: false,
};

#[test]
fn human_rendering_of_nested_unknown_and_sensitive_values() {
    insta::assert_snapshot!(render_plan(&sample_plan(), &HumanOptions::default()));
}

#[test]
fn human_rendering_in_colour() {
    let mut plan = sample_plan();
    plan.resource_changes.truncate(2);
    let text = render_plan(
        &plan,
        &HumanOptions {
            color: true,
            width: 78,
        },
    );
    insta::assert_snapshot!(text.replace('\x1b', "^["));
}

#[test]
fn a_large_plan_is_emitted_in_pieces_that_make_the_whole_text() {
    let mut plan = sample_plan();
    let one = plan.resource_changes.clone();
    for _ in 0..400 {
        plan.resource_changes.extend(one.iter().cloned());
    }
    let whole = render_plan(&plan, &HumanOptions::default());
    let mut pieces = Vec::new();
    super::human::render_plan_to(&plan, &HumanOptions::default(), &mut |p| {
        pieces.push(p.to_string())
    });
    assert!(pieces.len() > 1, "{} bytes in one piece", whole.len());
    assert_eq!(pieces.concat(), whole);
    // Rendered in parallel batches, the changes still come in plan order.
    let headers: Vec<&str> = whole
        .lines()
        .filter(|l| l.trim_start().starts_with("# "))
        .map(|l| l.trim())
        .collect();
    let want: Vec<String> = plan
        .resource_changes
        .iter()
        .map(|rc| format!("# {} will be created", rc.addr))
        .collect();
    assert_eq!(headers, want);
}

#[test]
fn json_document_of_nested_unknown_and_sensitive_values() {
    let (_dir, config) = sample_config();
    insta::assert_snapshot!(plan_json(&sample_plan(), &config, &INFO).to_pretty());
}

#[test]
fn empty_plan_says_no_changes() {
    let plan = Plan::default();
    assert_eq!(
        render_plan(&plan, &HumanOptions::default()),
        "\nNo changes. Your infrastructure matches the configuration.\n"
    );
    // Null outputs are no change either.
    let plan = Plan {
        output_changes: BTreeMap::from([output("n", Value::null(Type::Dynamic), true)]),
        ..Plan::default()
    };
    assert!(render_plan(&plan, &HumanOptions::default()).contains("No changes."));
}

#[test]
fn outputs_only_plan() {
    let plan = Plan {
        output_changes: BTreeMap::from([output("a", s("x"), false)]),
        ..Plan::default()
    };
    assert_eq!(
        render_plan(&plan, &HumanOptions::default()),
        "\nChanges to Outputs:\n  + a = \"x\"\n\n\
         You can apply this plan to save these new output values to the OpenTofu\n\
         state, without changing any real infrastructure.\n"
    );
}

#[test]
fn empty_string_attributes_are_left_out_and_alignment_follows() {
    let plan = Plan {
        resource_changes: vec![td(ModuleInstance::root(), "e", InstanceKey::None, s(""))],
        ..Plan::default()
    };
    let text = render_plan(&plan, &HumanOptions::default());
    assert!(text.contains(
        "  + resource \"terraform_data\" \"e\" {\n      + id     = (known after apply)\n      + output = (known after apply)\n    }\n"
    ));
}

#[test]
fn header_wraps_as_opentofu() {
    assert_eq!(
        word_wrap(
            "\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:",
            78
        ),
        "\nOpenTofu used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:"
    );
    assert_eq!(
        word_wrap("  kept whole however long it is", 10),
        "  kept whole however long it is"
    );
}

/// Loads local module sources straight from their directories (no `init`).
struct LocalWalker;

impl ModuleWalker for LocalWalker {
    fn load_module(
        &self,
        req: &ModuleRequest<'_>,
    ) -> (Option<LoadedModule>, hclsyntax::Diagnostics) {
        let Some(ModuleSource::Local(rel)) = req.source_addr else {
            return (None, Vec::new());
        };
        let dir = req.parent_dir.join(rel);
        let (module, diags) = load_module_dir(&dir);
        let loaded = module.map(|module| LoadedModule {
            module,
            dir,
            version: None,
        });
        (loaded, diags)
    }
}

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples/plan")
}

/// The golden files' view of a plan document (see the samples' README):
/// resource changes by address with their change's actions, after,
/// after_unknown and after_sensitive; output changes; planned outputs.
fn normalize(doc: &serde_json::Value) -> serde_json::Value {
    use serde_json::{json, Map, Value as J};
    let pick = |v: &J, keys: &[&str]| -> J {
        let mut m = Map::new();
        for k in keys {
            if let Some(x) = v.get(*k) {
                m.insert(k.to_string(), x.clone());
            }
        }
        J::Object(m)
    };
    let mut rcs: Vec<J> = doc["resource_changes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|rc| {
            let mut r = pick(
                rc,
                &["address", "module_address", "mode", "type", "name", "index"],
            );
            r["change"] = pick(
                &rc["change"],
                &["actions", "after", "after_unknown", "after_sensitive"],
            );
            r
        })
        .collect();
    rcs.sort_by(|a, b| a["address"].as_str().cmp(&b["address"].as_str()));
    let mut ocs = Map::new();
    for (k, v) in doc["output_changes"]
        .as_object()
        .cloned()
        .unwrap_or_default()
    {
        ocs.insert(
            k,
            pick(
                &v,
                &["actions", "after", "after_unknown", "after_sensitive"],
            ),
        );
    }
    let mut pos = Map::new();
    for (k, v) in doc["planned_values"]["outputs"]
        .as_object()
        .cloned()
        .unwrap_or_default()
    {
        pos.insert(k, pick(&v, &["sensitive", "type", "value"]));
    }
    numbers_as_f64(json!({
        "resource_changes": rcs,
        "output_changes": ocs,
        "planned_values": {"outputs": pos},
    }))
}

/// Numbers compare by value (`1` equals `1.0`).
fn numbers_as_f64(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        J::Number(n) => serde_json::json!(n.as_f64()),
        J::Array(a) => J::Array(a.into_iter().map(numbers_as_f64).collect()),
        J::Object(o) => J::Object(o.into_iter().map(|(k, v)| (k, numbers_as_f64(v))).collect()),
        other => other,
    }
}

#[test]
// A skipped comparison says so on the test's output.
#[allow(clippy::print_stderr)]
fn sample_plans_match_terraform_golden_files() {
    let dir = samples_dir();
    let Ok(entries) = std::fs::read_dir(dir.join("cases")) else {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    };
    let mut cases: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    cases.sort();
    let mut failures = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let golden: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("golden").join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let (module, mut diags) = load_module_dir(&case);
        let (config, more) = build_config(module.unwrap(), &LocalWalker);
        diags.extend(more);
        let variables: BTreeMap<String, Value> = config
            .module
            .variables
            .iter()
            .filter_map(|(n, v)| v.default_value.clone().map(|d| (n.clone(), d)))
            .collect();
        let (plan, plan_diags) = if hclsyntax::has_errors(&diags) {
            (None, diags)
        } else {
            crate::plan(&config, variables)
        };
        if golden.get("error").is_some() {
            if plan.is_some() || !hclsyntax::has_errors(&plan_diags) {
                failures.push(format!("{name}: planned, but terraform failed"));
            }
            continue;
        }
        let Some(plan) = plan else {
            failures.push(format!("{name}: planning failed: {plan_diags:?}"));
            continue;
        };
        let doc: serde_json::Value =
            serde_json::from_str(&plan_json(&plan, &config, &INFO).to_compact()).unwrap();
        let got = normalize(&doc);
        let want = normalize(&golden);
        if got != want {
            failures.push(format!(
                "{name}:\n--- want\n{}\n--- got\n{}",
                serde_json::to_string_pretty(&want).unwrap(),
                serde_json::to_string_pretty(&got).unwrap()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
