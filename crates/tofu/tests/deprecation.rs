//! Deprecated module variables and outputs through the graph walk:
//! where the warnings appear, what they say, the causes they carry, and
//! that no deprecation mark survives into a plan.

mod common;

use configs::config::Config;
use cty::{Mark, Value};
use proptest::prelude::*;
use tempfile::TempDir;

const CHILD: &str = r#"
variable "old" {
  type       = string
  default    = "d"
  deprecated = "use new instead"
}
variable "new" {
  type    = string
  default = "n"
}
output "dep" {
  value      = "x"
  deprecated = "dep is going away"
}
output "ok" {
  value = "y"
}
output "obj" {
  value      = { a = "1", b = "2" }
  deprecated = "obj is going away"
}
"#;

fn load(files: &[(&str, &str)]) -> (TempDir, Config) {
    let dir = TempDir::new().unwrap();
    common::write(dir.path(), files);
    let (cfg, diags) = common::load(dir.path());
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    (dir, cfg.unwrap())
}

/// (summary, detail, subject line) of every warning.
fn warnings(diags: &tfdiags::Diagnostics) -> Vec<(String, String, usize)> {
    diags
        .iter()
        .filter(|d| d.is_warning())
        .map(|d| {
            (
                d.summary.clone(),
                d.detail.clone(),
                d.subject
                    .as_ref()
                    .map(|r| r.start.line as usize)
                    .unwrap_or(0),
            )
        })
        .collect()
}

fn derived(from: &str, msg: &str) -> String {
    format!("This value is derived from {from}, which is deprecated with the following message:\n\n{msg}")
}

const DERIVED: &str = "Value derived from a deprecated source";
const VARIABLE: &str = "Variable marked as deprecated by the module author";

#[test]
fn validate_warns_where_deprecated_values_are_used() {
    let root = r#"module "m" {
  source = "./child"
  old    = "given"
  new    = "fine"
}
locals {
  a = module.m.dep
  b = "${module.m.ok}-${module.m.dep}"
  c = module.m.ok
}
resource "terraform_data" "r" {
  input = module.m.dep
}
output "o" {
  value = upper(module.m.dep)
}
module "n" {
  source = "./child"
  new    = module.m.dep
  old    = null
}
"#;
    let (_d, cfg) = load(&[("main.tf", root), ("child/main.tf", CHILD)]);
    let diags = tofu::validate_with_causes(&cfg);
    assert!(!diags.has_errors(), "{diags:?}");
    let dep = derived("module.m.dep", "dep is going away");
    assert_eq!(
        warnings(&diags),
        vec![
            (
                VARIABLE.to_string(),
                "Variable \"old\" is marked as deprecated with the following message:\nuse new instead".to_string(),
                3
            ),
            (DERIVED.to_string(), dep.clone(), 7),
            (DERIVED.to_string(), dep.clone(), 8),
            (DERIVED.to_string(), dep.clone(), 12),
            (DERIVED.to_string(), dep.clone(), 15),
            (DERIVED.to_string(), dep.clone(), 19),
        ]
    );
    let resource = diags
        .iter()
        .find(|d| d.subject.as_ref().unwrap().start.line == 12)
        .unwrap();
    assert_eq!(resource.address.as_deref(), Some("terraform_data.r"));
    let cause = resource.extra.deprecation.as_ref().unwrap();
    assert_eq!(cause.module, "module.m");
    assert_eq!(cause.subject, "dep");
    assert_eq!(cause.module_source.as_deref(), Some("./child"));
    let var = diags.iter().find(|d| d.summary == VARIABLE).unwrap();
    let cause = var.extra.deprecation.as_ref().unwrap();
    assert_eq!(
        (cause.module.as_str(), cause.subject.as_str()),
        ("module.m", "old")
    );
}

#[test]
fn nested_attributes_name_the_attribute() {
    let root = r#"module "m" {
  source = "./child"
}
locals {
  whole = module.m
  wrap  = { inner = module.m.obj }
}
"#;
    let (_d, cfg) = load(&[("main.tf", root), ("child/main.tf", CHILD)]);
    let (plan, diags) = tofu::plan_with_causes(&cfg, common::default_variables(&cfg));
    assert!(plan.is_some(), "{diags:?}");
    let details: Vec<String> = warnings(&diags).into_iter().map(|w| w.1).collect();
    assert_eq!(
        details,
        vec![
            "This value's attribute dep is derived from module.m.dep, which is deprecated with the following message:\n\ndep is going away".to_string(),
            "This value's attribute obj is derived from module.m.obj, which is deprecated with the following message:\n\nobj is going away".to_string(),
            "This value's attribute inner is derived from module.m.obj, which is deprecated with the following message:\n\nobj is going away".to_string(),
        ]
    );
}

#[test]
fn plan_warns_once_per_instance_with_keys_and_never_marks_the_plan() {
    let root = r#"module "m" {
  source   = "./child"
  for_each = toset(["a", "b"])
  old      = each.key
}
resource "terraform_data" "r" {
  count = length(module.m["a"].dep)
  input = { v = module.m["b"].obj, w = [module.m["a"].dep] }
}
output "all" {
  value = [for k, m in module.m : m.dep]
}
"#;
    let (_d, cfg) = load(&[("main.tf", root), ("child/main.tf", CHILD)]);
    let (plan, diags) = tofu::plan_with_causes(&cfg, common::default_variables(&cfg));
    let plan = plan.unwrap_or_else(|| panic!("{diags:?}"));
    let w = warnings(&diags);
    let vars: Vec<_> = w.iter().filter(|w| w.0 == VARIABLE).collect();
    assert_eq!(vars.len(), 2, "{w:?}");
    let modules: Vec<String> = diags
        .iter()
        .filter_map(|d| d.extra.deprecation.as_ref())
        .map(|c| format!("{}.{}", c.module, c.subject))
        .collect();
    assert!(
        modules.contains(&"module.m[\"a\"].old".to_string()),
        "{modules:?}"
    );
    assert!(
        modules.contains(&"module.m[\"b\"].obj".to_string()),
        "{modules:?}"
    );
    // count: one warning.
    let count_line: Vec<_> = w.iter().filter(|w| w.2 == 7).collect();
    assert_eq!(count_line.len(), 1, "{w:?}");
    // The resource's argument: one per cause, and (as OpenTofu's
    // ElaborateFromConfigBody) at the block when the mark is on an
    // attribute nested in an argument's object.
    let input_line: Vec<_> = w.iter().filter(|w| w.2 == 6).collect();
    assert_eq!(input_line.len(), 2, "{w:?}");
    assert!(input_line
        .iter()
        .all(|w| w.1.starts_with("This value is derived from module.m[")));
    let out_line: Vec<_> = w
        .iter()
        .filter(|w| w.2 == 11)
        .map(|w| w.1.as_str())
        .collect();
    assert_eq!(
        out_line,
        vec![
            "This value's attribute [0] is derived from module.m[\"a\"].dep, which is deprecated with the following message:\n\ndep is going away",
            "This value's attribute [1] is derived from module.m[\"b\"].dep, which is deprecated with the following message:\n\ndep is going away",
        ],
        "{w:?}"
    );
    let resource = diags
        .iter()
        .find(|d| d.subject.as_ref().unwrap().start.line == 6)
        .unwrap();
    assert_eq!(resource.address.as_deref(), Some("terraform_data.r[0]"));
    for rc in &plan.resource_changes {
        assert_no_deprecation(&rc.after);
    }
    for oc in plan.output_changes.values() {
        assert_no_deprecation(&oc.after);
    }
}

#[test]
fn outputs_passed_through_warn_in_the_module_that_reads_them() {
    let wrap = r#"module "inner" {
  source = "../child"
}
output "fwd" {
  value      = module.inner.dep
  deprecated = "fwd is going away"
}
output "plain" {
  value = module.inner.ok
}
"#;
    let root = r#"module "w" {
  source = "./wrap"
}
locals {
  x = module.w.fwd
  y = module.w.plain
}
"#;
    let (_d, cfg) = load(&[
        ("main.tf", root),
        ("wrap/main.tf", wrap),
        ("child/main.tf", CHILD),
    ]);
    for diags in [
        tofu::validate_with_causes(&cfg),
        tofu::plan_with_causes(&cfg, common::default_variables(&cfg)).1,
    ] {
        let w = warnings(&diags);
        assert_eq!(
            w.iter().map(|w| w.1.clone()).collect::<Vec<_>>(),
            vec![
                derived("module.w.fwd", "fwd is going away"),
                derived("module.w.module.inner.dep", "dep is going away"),
            ],
            "{w:?}"
        );
        let inner = diags
            .iter()
            .find(|d| d.detail.contains("module.w.module.inner"))
            .unwrap();
        assert!(inner
            .subject
            .as_ref()
            .unwrap()
            .filename
            .ends_with("wrap/main.tf"));
        assert_eq!(
            inner
                .extra
                .deprecation
                .as_ref()
                .unwrap()
                .module_source
                .as_deref(),
            Some("../child")
        );
    }
}

#[test]
fn null_and_omitted_arguments_do_not_warn() {
    let root = r#"module "a" {
  source = "./child"
}
module "b" {
  source = "./child"
  old    = null
}
"#;
    let (_d, cfg) = load(&[("main.tf", root), ("child/main.tf", CHILD)]);
    let diags = tofu::validate_with_causes(&cfg);
    assert!(warnings(&diags).is_empty(), "{diags:?}");
    let (_, diags) = tofu::plan_with_causes(&cfg, common::default_variables(&cfg));
    assert!(warnings(&diags).is_empty(), "{diags:?}");
}

#[test]
fn conditions_and_error_messages_consume_marks() {
    let root = r#"module "m" {
  source = "./child"
}
resource "terraform_data" "r" {
  lifecycle {
    precondition {
      condition     = module.m.dep == "x"
      error_message = "bad ${module.m.dep}"
    }
  }
}
check "c" {
  assert {
    condition     = module.m.dep != "x"
    error_message = "is ${module.m.dep}"
  }
}
"#;
    let (_d, cfg) = load(&[("main.tf", root), ("child/main.tf", CHILD)]);
    let (_, diags) = tofu::plan_with_causes(&cfg, common::default_variables(&cfg));
    let lines: Vec<usize> = warnings(&diags)
        .into_iter()
        .filter(|w| w.0 == DERIVED)
        .map(|w| w.2)
        .collect();
    // The precondition holds, but its error message is evaluated all the
    // same (evalCheckErrorMessage runs before the condition), so line 8
    // warns too.
    assert_eq!(lines, vec![7, 8, 14, 15], "{diags:?}");
}

#[test]
fn locality_of_modules() {
    let wrap = "module \"inner\" {\n  source = \"../child\"\n}\n";
    let root = "module \"w\" {\n  source = \"./wrap\"\n}\n";
    let (_d, cfg) = load(&[
        ("main.tf", root),
        ("wrap/main.tf", wrap),
        ("child/main.tf", CHILD),
    ]);
    let cause = |m: &str| tfdiags::DeprecationCause {
        module: m.into(),
        subject: "dep".into(),
        message: "m".into(),
        module_source: None,
    };
    assert!(tofu::deprecation::is_local_module(&cfg, &cause("module.w")));
    assert!(tofu::deprecation::is_local_module(
        &cfg,
        &cause("module.w.module.inner")
    ));
    assert!(tofu::deprecation::is_local_module(&cfg, &cause("")));
}

/// `import` blocks consume their `id` and `for_each` values: a deprecated
/// output read there warns at that expression.
#[test]
fn import_id_and_for_each_warn() {
    let root = r#"module "m" {
  source = "./child"
}
resource "terraform_data" "r" {
  for_each = toset(["a"])
}
import {
  for_each = { a = module.m.dep }
  to       = terraform_data.r[each.key]
  id       = "${each.value}-${module.m.obj.a}"
}
"#;
    let (_d, cfg) = load(&[("main.tf", root), ("child/main.tf", CHILD)]);
    for diags in [
        tofu::validate_with_causes(&cfg),
        tofu::plan_with_causes(&cfg, common::default_variables(&cfg)).1,
    ] {
        assert!(!diags.has_errors(), "{diags:?}");
        let mut found = warnings(&diags);
        found.sort();
        assert_eq!(
            found,
            vec![
                (
                    DERIVED.to_string(),
                    derived("module.m.obj", "obj is going away"),
                    10
                ),
                (
                    DERIVED.to_string(),
                    "This value's attribute a is derived from module.m.dep, which is deprecated with the following message:\n\ndep is going away".to_string(),
                    8
                ),
            ]
        );
    }
}

fn assert_no_deprecation(v: &Value) {
    let (_, marks) = v.unmark_deep();
    assert!(
        !marks.iter().any(|m| matches!(m, Mark::Deprecated(_))),
        "deprecation mark leaked into {v:?}"
    );
}

/// Expressions built from deprecated and plain outputs with the
/// operations that carry marks.
fn expr_strategy() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("module.m.dep".to_string()),
        Just("module.m.ok".to_string()),
        Just("module.m.obj".to_string()),
        Just("module.m".to_string()),
        Just("\"lit\"".to_string()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| format!("[{}]", v.join(", "))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{ k = {a}, l = {b} }}")),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(module.m.dep == \"x\" ? {a} : {b})")),
            inner.clone().prop_map(|a| format!("jsonencode({a})")),
            inner
                .clone()
                .prop_map(|a| format!("\"pre-${{jsonencode({a})}}\"")),
            inner.clone().prop_map(|a| format!("[for x in [{a}] : x]")),
            inner.clone().prop_map(|a| format!("[{a}][*]")),
            inner.clone().prop_map(|a| format!("tolist([{a}])")),
            (inner.clone(), inner)
                .prop_map(|(a, b)| format!("merge({{ a = {a} }}, {{ b = {b} }})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever a deprecated value goes through, the plan (resource values
    /// and root outputs) never carries a deprecation mark.
    #[test]
    fn no_deprecation_mark_reaches_the_plan(e1 in expr_strategy(), e2 in expr_strategy()) {
        let root = format!(
            "module \"m\" {{\n  source = \"./child\"\n}}\nlocals {{\n  l = {e1}\n}}\nresource \"terraform_data\" \"r\" {{\n  count = 2\n  input = {{ a = local.l, b = {e2} }}\n}}\noutput \"o\" {{\n  value = [{e2}, terraform_data.r[0].input, terraform_data.r[1].output]\n}}\n"
        );
        let (_d, cfg) = load(&[("main.tf", &root), ("child/main.tf", CHILD)]);
        let (plan, diags) = tofu::plan_with_causes(&cfg, common::default_variables(&cfg));
        if let Some(plan) = plan {
            for rc in &plan.resource_changes {
                assert_no_deprecation(&rc.after);
            }
            for oc in plan.output_changes.values() {
                assert_no_deprecation(&oc.after);
            }
            if e1.contains("module.m.dep") && !e1.contains('?') {
                prop_assert!(
                    diags.iter().any(|d| d.summary == DERIVED && d.subject.as_ref().unwrap().start.line == 5),
                    "no warning for {e1}: {diags:?}"
                );
            }
        }
    }
}
