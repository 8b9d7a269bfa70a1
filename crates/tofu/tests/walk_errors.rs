//! The walk on configurations that are wrong or very large: OpenTofu's
//! messages, no panics, bounded work.

mod common;

use std::collections::BTreeMap;

use tempfile::TempDir;

fn plan(files: &[(&str, &str)]) -> (Option<tofu::plans::Plan>, hclsyntax::Diagnostics) {
    let dir = TempDir::new().unwrap();
    common::write(dir.path(), files);
    let (cfg, diags) = common::load(dir.path());
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    let cfg = cfg.unwrap();
    let vars = common::default_variables(&cfg);
    tofu::plan(&cfg, vars)
}

fn validate(files: &[(&str, &str)]) -> hclsyntax::Diagnostics {
    let dir = TempDir::new().unwrap();
    common::write(dir.path(), files);
    let (cfg, diags) = common::load(dir.path());
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    tofu::validate(&cfg.unwrap())
}

fn summaries(diags: &hclsyntax::Diagnostics) -> Vec<String> {
    diags.iter().map(|d| d.summary.clone()).collect()
}

#[test]
fn cycle_names_every_node() {
    let (plan, diags) = plan(&[(
        "main.tf",
        r#"
locals {
  a = local.c
  b = local.a
  c = "${local.b}x"
}
resource "terraform_data" "x" {
  input = terraform_data.y.output
}
resource "terraform_data" "y" {
  input = terraform_data.x.output
}
"#,
    )]);
    assert!(plan.is_none());
    assert_eq!(
        summaries(&diags),
        vec![
            // OpenTofu's order comes from Go's maps; tofu-rs sorts.
            "Cycle: local.a (expand), local.b (expand), local.c (expand)",
            "Cycle: terraform_data.x (expand), terraform_data.y (expand)",
        ]
    );
}

#[test]
fn provider_configurations_in_cycles_are_named_as_opentofu_names_them() {
    let diags = validate(&[(
        "main.tf",
        r#"terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
provider "aws" {
  alias  = "west"
  region = aws_instance.i.id
}
resource "aws_instance" "i" {
  provider = aws.west
}"#,
    )]);
    assert_eq!(
        summaries(&diags),
        vec![
            "Cycle: aws_instance.i (expand), provider[\"registry.opentofu.org/hashicorp/aws\"].west"
        ]
    );
}

#[test]
fn for_each_over_a_list_is_refused() {
    let (plan, diags) = plan(&[(
        "main.tf",
        r#"resource "terraform_data" "x" {
  for_each = ["a", "b"]
}"#,
    )]);
    assert!(plan.is_none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Invalid for_each argument");
    assert_eq!(diags[0].detail, "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type tuple.");
    assert_eq!(diags[0].subject.as_ref().unwrap().start.line, 2);
}

#[test]
fn unknown_for_each_keys_cannot_be_planned() {
    let (plan, diags) = plan(&[(
        "main.tf",
        r#"resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  for_each = toset([terraform_data.a.id])
}"#,
    )]);
    assert!(plan.is_none());
    assert_eq!(diags[0].summary, "Invalid for_each argument");
    assert!(
        diags[0].detail.contains("cannot be determined until apply")
            && diags[0]
                .detail
                .ends_with("-exclude=terraform_data.b to first apply without this object, and then apply normally to converge."),
        "{}",
        diags[0].detail
    );
    // validate accepts it: the keys are only needed when planning.
    assert!(validate(&[(
        "main.tf",
        r#"resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  for_each = toset([terraform_data.a.id])
  input = each.key
}"#,
    )])
    .is_empty());
}

#[test]
fn negative_and_fractional_count() {
    let (_, diags) = plan(&[(
        "main.tf",
        r#"resource "terraform_data" "a" {
  count = -1
}
resource "terraform_data" "b" {
  count = 1.5
}"#,
    )]);
    let details: Vec<&str> = diags.iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        vec![
            "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.",
            "The given \"count\" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.",
        ]
    );
}

#[test]
fn hundred_thousand_instances() {
    let (plan, diags) = plan(&[(
        "main.tf",
        r#"resource "terraform_data" "many" {
  count = 100000
  input = count.index * 2
}
output "last" {
  value = terraform_data.many[99999].input
}"#,
    )]);
    assert!(diags.is_empty(), "{diags:?}");
    let plan = plan.unwrap();
    assert_eq!(plan.resource_changes.len(), 100_000);
    assert_eq!(
        cty::format::console_format(&plan.output_changes["last"].after),
        "199998"
    );
}

#[test]
fn modules_fifty_deep() {
    let mut files: Vec<(String, String)> = vec![(
        "main.tf".into(),
        "module \"m\" {\n  source = \"./m1\"\n  depth = 0\n}\noutput \"depth\" {\n  value = module.m.depth\n}\n".into(),
    )];
    for i in 1..=50 {
        let mut body = "variable \"depth\" {\n  type = number\n}\n".to_string();
        if i < 50 {
            body.push_str(&format!(
                "module \"m\" {{\n  source = \"../m{}\"\n  depth = var.depth + 1\n}}\noutput \"depth\" {{\n  value = module.m.depth\n}}\n",
                i + 1
            ));
        } else {
            body.push_str("resource \"terraform_data\" \"leaf\" {\n  input = var.depth\n}\noutput \"depth\" {\n  value = terraform_data.leaf.input\n}\n");
        }
        files.push((format!("m{i}/main.tf"), body));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let (plan, diags) = plan(&refs);
    assert!(diags.is_empty(), "{diags:?}");
    let plan = plan.unwrap();
    assert_eq!(plan.resource_changes.len(), 1);
    assert!(plan.resource_changes[0]
        .addr
        .to_string()
        .ends_with("module.m.terraform_data.leaf"));
    assert_eq!(
        cty::format::console_format(&plan.output_changes["depth"].after),
        "49"
    );
}

#[test]
fn validate_reports_undeclared_references_in_child_modules() {
    let diags = validate(&[
        (
            "main.tf",
            "module \"c\" {\n  source = \"./c\"\n  unknown_arg = 1\n}\noutput \"o\" {\n  value = module.c.nope\n}\n",
        ),
        (
            "c/main.tf",
            "variable \"needed\" {}\nresource \"terraform_data\" \"x\" {\n  input = var.missing\n}\nresource \"terraform_data\" \"y\" {\n  input = local.nothing\n}\noutput \"ok\" {\n  value = \"fine\"\n}\n",
        ),
    ]);
    let mut got = summaries(&diags);
    got.sort();
    assert_eq!(
        got,
        vec![
            "Missing required argument",
            "Reference to undeclared input variable",
            "Reference to undeclared local value",
            "Unsupported argument",
            "Unsupported attribute",
        ]
    );
}

#[test]
fn variable_validation_and_sensitive_outputs() {
    let (_, diags) = plan(&[(
        "main.tf",
        r#"variable "size" {
  default = 3
  validation {
    condition     = var.size > 5
    error_message = "Too small."
  }
}
variable "secret" {
  default   = "x"
  sensitive = true
}
output "leak" {
  value = var.secret
}"#,
    )]);
    // As OpenTofu's plan, the validate walk runs first and its error stops
    // the plan before the variable's value is checked (terraform plan
    // reports only the output).
    assert_eq!(summaries(&diags), vec!["Output refers to sensitive values"]);
    let (_, diags) = plan(&[(
        "main.tf",
        r#"variable "size" {
  default = 3
  validation {
    condition     = var.size > 5
    error_message = "Too small."
  }
}"#,
    )]);
    let got: BTreeMap<String, String> = diags
        .iter()
        .map(|d| (d.summary.clone(), d.detail.clone()))
        .collect();
    assert!(got["Invalid value for variable"]
        .starts_with("Too small.\n\nThis was checked by the validation rule at "));
}

#[test]
fn errors_found_by_validate_are_reported_once_not_per_instance() {
    let (plan, diags) = plan(&[(
        "main.tf",
        "resource \"terraform_data\" \"a\" {\n  count = 3\n  input = each.key\n}\n",
    )]);
    assert!(plan.is_none());
    assert_eq!(
        summaries(&diags),
        vec!["Reference to \"each\" in context without for_each"]
    );
}

#[test]
fn postconditions_check_the_planned_object() {
    let (plan, diags) = plan(&[(
        "main.tf",
        r#"resource "terraform_data" "a" {
  count = 2
  input = "i-${count.index}"
  lifecycle {
    postcondition {
      condition     = self.input == "i-0"
      error_message = "Only the first."
    }
    postcondition {
      condition     = self.output != "x"
      error_message = "Unknown until apply: not checked."
    }
  }
}"#,
    )]);
    assert!(plan.is_none());
    let failed: Vec<_> = diags
        .iter()
        .filter(|d| d.summary == "Resource postcondition failed")
        .map(|d| d.detail.as_str())
        .collect();
    assert_eq!(failed, vec!["Only the first."]);
}

#[test]
fn provider_configurations_are_evaluated() {
    let diags = validate(&[(
        "main.tf",
        r#"variable "regions" {
  default = { a = "eu-west-1", b = "us-east-1" }
}
provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}
provider "aws" {
  region = var.nope
}
resource "aws_instance" "x" {
  ami = "a"
}"#,
    )]);
    assert_eq!(
        summaries(&diags),
        vec!["Reference to undeclared input variable"]
    );
    assert_eq!(diags[0].subject.as_ref().unwrap().start.line, 10);
}
