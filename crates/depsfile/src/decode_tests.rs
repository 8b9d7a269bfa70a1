//! Lock files edited by hand into nonsense, and what OpenTofu says about
//! each (cases from OpenTofu's `locks_file_test.go` and its testdata).

use super::*;

fn render(diags: &Diagnostics) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let at = d
                .subject
                .as_ref()
                .map(|r| format!("{r}: "))
                .unwrap_or_default();
            let sev = if d.is_error() { "" } else { "warning: " };
            format!("{at}{sev}{}; {}", d.summary, d.detail)
        })
        .collect()
}

fn load(src: &str) -> (Locks, Vec<String>) {
    let (locks, diags) = load_locks_from_bytes(src.as_bytes(), "locks.hcl");
    (locks, render(&diags))
}

#[test]
fn valid_file() {
    let src = r#"# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.0"
  constraints = ">= 3.0.0"
  hashes = [
    "zh:b",
    "h1:a",
  ]
}

provider "example.com/foo/bar" {
  version = "1.0.0+meta"
}
"#;
    let (locks, diags) = load(src);
    assert!(diags.is_empty(), "{diags:?}");
    let null = locks
        .provider(&Provider::default_for("null"))
        .expect("null is locked");
    assert_eq!(null.version.to_string(), "3.2.0");
    assert_eq!(null.constraints.to_string(), ">= 3.0.0");
    assert_eq!(null.hashes, ["h1:a", "zh:b"]);
    let bar = parse_provider_source_string("example.com/foo/bar").unwrap();
    assert_eq!(locks.provider(&bar).unwrap().version.metadata, "meta");
}

#[test]
fn invalid_provider_addresses() {
    // OpenTofu's testdata/locks-files/invalid-provider-addrs.hcl.
    let src = r#"
provider "" { # ERROR: Invalid provider source address
  version = "1.0.0"
}

provider "hashicorp/aws" { # ERROR: Non-normalized provider source address
  version = "1.0.0"
}

provider "aws" { # ERROR: Non-normalized provider source address
  version = "1.0.0"
}

provider "too/many/parts/here" { # ERROR: Invalid provider source address
  version = "1.0.0"
}

provider "Registry.opentofu.org/example/example" { # ERROR: Non-normalized provider source address
  version = "1.0.0"
}

provider "registry.opentofu.org/eXample/example" { # ERROR: Non-normalized provider source address
  version = "1.0.0"
}

provider "registry.opentofu.org/example/Example" { # ERROR: Non-normalized provider source address
  version = "1.0.0"
}

provider "terraform.io/builtin/terraform" { # ERROR: Invalid provider source address
  version = "1.0.0"
}

provider "registry.opentofu.org/-/null" { # ERROR: Invalid provider source address
  version = "1.0.0"
}
"#;
    let (locks, diags) = load(src);
    assert!(locks.is_empty());
    let fqdn = "The provider source address for this provider lock must be written as";
    assert_eq!(
        diags,
        vec![
            "locks.hcl:2,10-12: Invalid provider source address; The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\".".to_string(),
            format!("locks.hcl:6,10-25: Non-normalized provider source address; {fqdn} \"registry.opentofu.org/hashicorp/aws\", the fully-qualified and normalized form."),
            format!("locks.hcl:10,10-15: Non-normalized provider source address; {fqdn} \"registry.opentofu.org/hashicorp/aws\", the fully-qualified and normalized form."),
            "locks.hcl:14,10-31: Invalid provider source address; The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\".".to_string(),
            format!("locks.hcl:18,10-49: Non-normalized provider source address; {fqdn} \"registry.opentofu.org/example/example\", the fully-qualified and normalized form."),
            format!("locks.hcl:22,10-49: Non-normalized provider source address; {fqdn} \"registry.opentofu.org/example/example\", the fully-qualified and normalized form."),
            format!("locks.hcl:26,10-49: Non-normalized provider source address; {fqdn} \"registry.opentofu.org/example/example\", the fully-qualified and normalized form."),
            "locks.hcl:30,10-42: Invalid provider source address; Cannot lock a version for built-in provider terraform.io/builtin/terraform. Built-in providers are bundled inside OpenTofu itself, so you can't select a version for them independently of the OpenTofu release you are currently running.".to_string(),
            "locks.hcl:34,10-40: Invalid provider source address; Provider source address registry.opentofu.org/-/null is a special provider that is not eligible for dependency locking.".to_string(),
        ]
    );
}

#[test]
fn bad_arguments() {
    let src = r#"provider "registry.opentofu.org/hashicorp/a" {
  version     = "v1.0.0"
  constraints = ">=1.0"
  hashes      = []
}
provider "registry.opentofu.org/hashicorp/b" {
  version = "1.0"
  hashes  = ["nope", "h1:ok", var.x]
  region  = "us"
}
provider "registry.opentofu.org/hashicorp/c" {
}
provider "registry.opentofu.org/hashicorp/d" {
  version     = null
  constraints = "=> 1"
  hashes      = "h1:x"
}
provider "registry.opentofu.org/hashicorp/a" {
  version = "2.0.0"
}
module "x" {}
module "y" {}
terraform {}
"#;
    let (locks, diags) = load(src);
    assert_eq!(
        diags,
        vec![
            "locks.hcl:23,1-10: Unsupported block type; Blocks of type \"terraform\" are not expected here.",
            "locks.hcl:2,17-25: Invalid provider version number; The selected version number for provider registry.opentofu.org/hashicorp/a is invalid: a \"v\" prefix should not be used.",
            "locks.hcl:2,17-25: Invalid provider version number; The selected version number for provider registry.opentofu.org/hashicorp/a must be written in normalized form: \"0.0.0\".",
            "locks.hcl:3,17-24: Invalid provider version constraints; The recorded version constraints for provider registry.opentofu.org/hashicorp/a must be written in normalized form: \">= 1.0.0\".",
            "locks.hcl:4,17-19: Invalid provider hash set; The \"hashes\" argument must either be omitted or contain at least one hash value.",
            "locks.hcl:9,3-9: Unsupported argument; An argument named \"region\" is not expected here.",
            "locks.hcl:7,13-18: Invalid provider version number; The selected version number for provider registry.opentofu.org/hashicorp/b must be written in normalized form: \"1.0.0\".",
            "locks.hcl:8,13-37: Invalid provider hash string; Cannot interpret \"nope\" as a provider hash: hash string must start with a scheme keyword followed by a colon.",
            "locks.hcl:8,31-34: Variables not allowed; Variables may not be used here.",
            "locks.hcl:11,46-46: Missing required argument; The argument \"version\" is required, but no definition was found.",
            "locks.hcl:14,17-21: Missing required argument; A provider lock block must contain a \"version\" argument.",
            "locks.hcl:15,17-23: Invalid provider version constraints; The recorded version constraints for provider registry.opentofu.org/hashicorp/d are invalid: invalid specification \"=> 1\": invalid constraint operator \"=>\"; did you mean \">=\"?.",
            "locks.hcl:15,17-23: Invalid provider version constraints; The recorded version constraints for provider registry.opentofu.org/hashicorp/d must be written in normalized form: \"\".",
            "locks.hcl:16,17-23: Invalid expression; A static list expression is required.",
            "locks.hcl:18,1-9: Duplicate provider lock; This lockfile already declared a lock for provider registry.opentofu.org/hashicorp/a at locks.hcl:1,1-45.",
            "locks.hcl:21,1-7: warning: Dependency locks for modules are not yet supported; OpenTofu v1.13.0-dev only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of OpenTofu that also supports dependency locks for modules.",
        ]
    );
    let b = locks.provider(&Provider::default_for("b")).unwrap();
    assert_eq!(b.hashes, ["h1:ok"]);
}

#[test]
fn module_blocks_warn_once() {
    let src = "module \"a\" {}\nmodule \"b\" {}\n";
    let (locks, diags) = load(src);
    assert!(locks.is_empty());
    assert_eq!(
        diags,
        vec![format!("locks.hcl:1,1-7: warning: Dependency locks for modules are not yet supported; OpenTofu v{TOFU_VERSION} only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of OpenTofu that also supports dependency locks for modules.")]
    );
}

#[test]
fn syntax_errors_and_missing_files() {
    let (_, diags) = load("provider \"x\" {\n  version = \n}\n");
    assert!(!diags.is_empty());
    let (locks, diags) = load_locks_from_file(Path::new("/no/such/.terraform.lock.hcl"));
    assert!(locks.is_empty());
    assert_eq!(
        render(&diags),
        vec!["Failed to read file; The configuration file \"/no/such/.terraform.lock.hcl\" could not be read."]
    );
    let (locks, diags) = load_locks_if_present(Path::new("/no/such/.terraform.lock.hcl"));
    assert!(locks.is_empty() && diags.is_empty());
}
