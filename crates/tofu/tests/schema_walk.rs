//! The walk with provider schemas, beyond the fixture cases of
//! `schema_validate.rs`: the provider's own `Validate*` answers placed in
//! the configuration, planned values shaped by the schema, and inputs that
//! must not crash it.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use addrs::{Provider, ResourceMode};
use configschema::{Block, NestedBlock, NestingMode};
use cty::{Path as CtyPath, Value};
use tempfile::TempDir;
use tofu::schemas::{ProviderDiagnostic, ProviderSeverity, ProviderValidator, Schemas};

fn test_provider() -> Provider {
    Provider::implied_for_unqualified_type("test")
}

fn shared_schemas() -> Schemas {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schema_validate/schema.json");
    let src = std::fs::read_to_string(path).expect("the shared schema");
    let schema = configschema::json::decode_provider(&src).expect("a valid schema");
    let mut schemas = Schemas::none();
    schemas.insert(test_provider(), Arc::new(schema));
    schemas
}

fn load(dir: &TempDir, main: &str) -> configs::config::Config {
    common::write(dir.path(), &[("main.tf", main)]);
    let (cfg, diags) = common::load(dir.path());
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    cfg.expect("a configuration")
}

/// Answers every call with `answers`, recording what it was given.
#[derive(Default)]
struct FakeValidator {
    answers: Vec<ProviderDiagnostic>,
    calls: Mutex<Vec<(String, Value)>>,
}

impl ProviderValidator for FakeValidator {
    fn validate_provider_config(
        &self,
        provider: &Provider,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        self.calls
            .lock()
            .unwrap()
            .push((format!("provider {provider}"), config.clone()));
        self.answers.clone()
    }

    fn validate_resource_config(
        &self,
        _provider: &Provider,
        mode: ResourceMode,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        self.calls
            .lock()
            .unwrap()
            .push((format!("{mode:?} {type_name}"), config.clone()));
        self.answers.clone()
    }
}

fn at(path: CtyPath, summary: &str) -> ProviderDiagnostic {
    ProviderDiagnostic {
        severity: ProviderSeverity::Error,
        summary: summary.into(),
        detail: "from the provider".into(),
        attribute: Some(path),
    }
}

fn subject(d: &tfdiags::Diagnostic) -> String {
    match &d.subject {
        Some(r) => format!(
            "{}:{},{}-{},{}",
            Path::new(&*r.filename)
                .file_name()
                .unwrap()
                .to_string_lossy(),
            r.start.line,
            r.start.column,
            r.end.line,
            r.end.column
        ),
        None => "none".into(),
    }
}

const VALIDATED: &str = r#"
resource "test_instance" "a" {
  ami = "ami-1"
  tags = {
    x = "one"
    y = "two"
  }
  network {
    name = "first"
  }
  network {
    name = "second"
  }
}
"#;

#[test]
fn provider_diagnostics_are_placed_on_the_attributes_they_name() {
    let dir = TempDir::new().unwrap();
    let cfg = load(&dir, VALIDATED);
    let validator = Arc::new(FakeValidator {
        answers: vec![
            at(
                CtyPath::root()
                    .get_attr("network")
                    .index_int(1)
                    .get_attr("name"),
                "nested",
            ),
            at(
                CtyPath::root().get_attr("tags").index(Value::string("y")),
                "map element",
            ),
            at(CtyPath::root().get_attr("ami"), "top"),
            at(CtyPath::root().get_attr("size"), "unset attribute"),
            at(CtyPath::root().index_int(0), "index first"),
            ProviderDiagnostic {
                severity: ProviderSeverity::Warning,
                summary: "no path".into(),
                detail: String::new(),
                attribute: None,
            },
            at(CtyPath::root(), "empty path"),
        ],
        calls: Mutex::default(),
    });
    let mut schemas = shared_schemas();
    schemas.set_validator(validator.clone());
    let diags = tofu::validate_with_schemas_in(&cfg, Path::new("."), Arc::new(schemas));
    let got: Vec<(String, String)> = diags
        .iter()
        .map(|d| (d.summary.clone(), subject(d)))
        .collect();
    let want = [
        // The second network block's `name` expression.
        ("nested", "main.tf:12,12-12,20"),
        // The start of the map element's value: inside its quotes, as
        // terraform places it (tests/schema_differential/provider-rejects).
        ("map element", "main.tf:6,10-6,13"),
        ("top", "main.tf:3,9-3,16"),
        // Not set: the body's missing-item range (its opening brace).
        ("unset attribute", "main.tf:2,30-2,30"),
        ("index first", "main.tf:2,30-2,30"),
        // Without an attribute: the whole body (WholeContainingBody).
        ("no path", "main.tf:2,30-2,30"),
        ("empty path", "none"),
    ];
    for (summary, range) in want {
        assert!(
            got.iter().any(|(s, r)| s == summary && r == range),
            "{summary} at {range} not in {got:#?}"
        );
    }
    let calls = validator.calls.lock().unwrap();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].0, "Managed test_instance");
    // The provider gets the decoded configuration, computed attributes null.
    let config = &calls[0].1;
    assert_eq!(config.get_attr("ami"), Some(Value::string("ami-1")));
    assert!(config.get_attr("id").is_some_and(|v| v.is_null()));
}

#[test]
fn provider_diagnostics_follow_block_keys_and_list_indexes() {
    let dir = TempDir::new().unwrap();
    let cfg = load(
        &dir,
        r#"
resource "test_instance" "a" {
  ami   = "ami-1"
  ports = [80, 443]
  setting "one" {
    value = "1"
  }
  setting "two" {
    value = "2"
  }
  network {
    name = "only"
  }
}
"#,
    );
    let validator = Arc::new(FakeValidator {
        answers: vec![
            at(
                CtyPath::root()
                    .get_attr("setting")
                    .index(Value::string("two"))
                    .get_attr("value"),
                "map block",
            ),
            at(
                CtyPath::root().get_attr("ports").index_int(1),
                "list element",
            ),
            at(
                CtyPath::root().get_attr("ports").index_int(7),
                "past the list",
            ),
            at(
                CtyPath::root()
                    .get_attr("network")
                    .index_int(5)
                    .get_attr("name"),
                "no such block",
            ),
        ],
        calls: Mutex::default(),
    });
    let mut schemas = shared_schemas();
    schemas.set_validator(validator);
    let diags = tofu::validate_with_schemas_in(&cfg, Path::new("."), Arc::new(schemas));
    let got: Vec<(String, String)> = diags
        .iter()
        .map(|d| (d.summary.clone(), subject(d)))
        .collect();
    let want = [
        ("map block", "main.tf:9,13-9,16"),
        ("list element", "main.tf:4,16-4,19"),
        // An index past the static list: the argument's name.
        ("past the list", "main.tf:4,3-4,8"),
        // No block at that index: the resource body's missing-item range.
        ("no such block", "main.tf:2,30-2,30"),
    ];
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (summary, range) in want {
        assert!(
            got.iter().any(|(s, r)| s == summary && r == range),
            "{summary} at {range} not in {got:#?}"
        );
    }
}

#[test]
fn the_provider_is_not_asked_about_a_configuration_with_errors() {
    let dir = TempDir::new().unwrap();
    let cfg = load(
        &dir,
        r#"
provider "test" {
  region = "here"
}
resource "test_instance" "a" {
  amii = "x"
}
"#,
    );
    let validator = Arc::new(FakeValidator::default());
    let mut schemas = shared_schemas();
    schemas.set_validator(validator.clone());
    let diags = tofu::validate_with_schemas_in(&cfg, Path::new("."), Arc::new(schemas));
    assert!(diags.has_errors());
    let calls = validator.calls.lock().unwrap();
    let names: Vec<&str> = calls.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["provider registry.opentofu.org/hashicorp/test"]);
    assert_eq!(calls[0].1.get_attr("region"), Some(Value::string("here")));
}

#[test]
fn plan_shapes_instances_by_their_schema() {
    let dir = TempDir::new().unwrap();
    let cfg = load(
        &dir,
        r#"
resource "test_instance" "a" {
  ami      = "ami-1"
  password = "hunter2"
  root_device {
    volume_size = 8
  }
}
resource "test_nested" "n" {
  disks = [{ size = 1 }]
}
resource "test_instance" "wo" {
  ami       = "ami-1"
  secret_wo = "never in a plan"
}
output "ami" {
  value = test_instance.a.ami
}
output "id_known" {
  value = test_instance.a.id == null
}
output "serial" {
  value = test_nested.n.disks[0].serial
}
"#,
    );
    let (plan, diags) = tofu::plan_with_schemas(&cfg, BTreeMap::new(), Arc::new(shared_schemas()));
    assert!(!diags.has_errors(), "{diags:?}");
    let plan = plan.expect("a plan");
    let change = plan
        .resource_changes
        .iter()
        .find(|c| c.addr.to_string() == "test_instance.a")
        .expect("test_instance.a planned");
    assert!(change.schema.is_some());
    assert_eq!(change.schema_type, shared_schemas_type("test_instance"));
    let after = &change.after;
    assert_eq!(after.get_attr("ami"), Some(Value::string("ami-1")));
    for computed in ["id", "arn", "zone"] {
        let v = after.get_attr(computed).unwrap();
        assert!(!v.is_known(), "{computed} should be unknown: {v:?}");
    }
    // Optional, not computed, not set: null.
    assert!(after.get_attr("size").unwrap().is_null());
    let root = after.get_attr("root_device").unwrap();
    assert!(!root.get_attr("kind").unwrap().is_known());
    assert_eq!(root.get_attr("volume_size"), Some(Value::number_int(8)));
    let wo = plan
        .resource_changes
        .iter()
        .find(|c| c.addr.to_string() == "test_instance.wo")
        .expect("test_instance.wo planned");
    let secret = wo.after.get_attr("secret_wo").unwrap();
    assert!(secret.is_known() && secret.is_null(), "{secret:?}");
    let out = |name: &str| plan.output_changes[name].after.clone();
    assert_eq!(out("ami"), Value::string("ami-1"));
    assert!(!out("id_known").is_known());
    assert!(!out("serial").is_known());
}

fn shared_schemas_type(type_name: &str) -> cty::Type {
    let schemas = shared_schemas();
    let schema = schemas
        .resource_type(&test_provider(), ResourceMode::Managed, type_name)
        .flatten()
        .expect("the type");
    schema.block.as_ref().unwrap().implied_type()
}

#[test]
fn plan_marks_sensitive_attributes() {
    let dir = TempDir::new().unwrap();
    let cfg = load(
        &dir,
        r#"
resource "test_instance" "a" {
  ami      = "ami-1"
  password = "hunter2"
}
output "password" {
  value = test_instance.a.password
}
"#,
    );
    let (plan, diags) = tofu::plan_with_schemas(&cfg, BTreeMap::new(), Arc::new(shared_schemas()));
    assert!(plan.is_none());
    let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(summaries, ["Output refers to sensitive values"]);
}

#[test]
fn references_in_plan_are_checked_against_the_schema() {
    let dir = TempDir::new().unwrap();
    let cfg = load(
        &dir,
        r#"
resource "test_instance" "a" {
  ami = "ami-1"
}
output "x" {
  value = test_instance.a.nonexistent
}
"#,
    );
    let (plan, diags) = tofu::plan_with_schemas(&cfg, BTreeMap::new(), Arc::new(shared_schemas()));
    assert!(plan.is_none());
    let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(summaries, ["Unsupported attribute"]);
    // Without the schema the same configuration plans.
    let (plan, diags) = tofu::plan(&cfg, BTreeMap::new());
    assert!(plan.is_some(), "{diags:?}");
}

/// A schema whose block `b` holds itself `depth` times over.
fn recursive_schema(depth: usize) -> Block {
    let mut block = Block::default();
    for _ in 0..depth {
        let mut outer = Block::default();
        outer
            .block_types
            .insert("b".into(), NestedBlock::new(NestingMode::List, block));
        block = outer;
    }
    block
}

#[test]
fn deep_nesting_in_schema_and_configuration_does_not_crash() {
    let depth = 400;
    let mut schema = configschema::ProviderSchema::default();
    schema.resources.insert(
        "test_deep".into(),
        configschema::Schema {
            version: 0,
            block: Some(recursive_schema(depth)),
        },
    );
    let mut schemas = Schemas::none();
    schemas.insert(test_provider(), Arc::new(schema));
    let mut body = String::new();
    for _ in 0..depth {
        body.push_str("b {\n");
    }
    for _ in 0..depth {
        body.push_str("}\n");
    }
    let dir = TempDir::new().unwrap();
    let cfg = load(
        &dir,
        &format!("resource \"test_deep\" \"a\" {{\n{body}}}\n"),
    );
    let schemas = Arc::new(schemas);
    // On a thread with a small stack, as the walk's may be.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let diags = tofu::validate_with_schemas_in(&cfg, Path::new("."), schemas);
            diags.iter().map(|d| d.summary.clone()).collect::<Vec<_>>()
        })
        .unwrap();
    let summaries = handle.join().expect("no panic on deep nesting");
    assert!(summaries.is_empty(), "{summaries:?}");
}
