//! Requirements of whole configurations (OpenTofu's
//! `TestConfigProviderRequirements*`, on its `provider-reqs` fixture).

use std::path::Path;

use addrs::{parse_provider_source_string, ModuleSource, Provider};

use super::*;
use crate::config_build::{build_config, LoadedModule, ModuleRequest, ModuleWalker};
use crate::module::load_module_dir;

/// Loads local sources relative to the calling module's directory.
struct LocalWalker;

impl ModuleWalker for LocalWalker {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        let Some(ModuleSource::Local(rel)) = req.source_addr else {
            return (None, Vec::new());
        };
        let dir = req.parent_dir.join(rel);
        let (module, diags) = load_module_dir(&dir);
        let module = module.map(|module| LoadedModule {
            module,
            dir,
            version: None,
        });
        (module, diags)
    }
}

fn build(files: &[(&str, &str)]) -> (Config, Diagnostics, tempfile::TempDir) {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let (module, mut diags) = load_module_dir(d.path());
    let (cfg, more) = build_config(module.unwrap(), &LocalWalker);
    diags.extend(more);
    (cfg, diags, d)
}

/// Diagnostics as `file:range: summary; detail`, the file without the
/// scratch directory.
fn render(diags: &Diagnostics, dir: &tempfile::TempDir) -> Vec<String> {
    let prefix = format!("{}/", dir.path().display());
    diags
        .iter()
        .map(|d| {
            let at = d.subject.as_ref().unwrap().to_string().replace(&prefix, "");
            format!("{at}: {}; {}", d.summary, d.detail)
        })
        .collect()
}

/// Requirements as `address constraints` lines.
fn lines(reqs: &Requirements) -> Vec<String> {
    reqs.iter()
        .map(|(p, c)| format!("{p} {c}").trim_end().to_string())
        .collect()
}

// OpenTofu's internal/configs/testdata/provider-reqs.
const ROOT: &str = r#"terraform {
  required_providers {
    null = "~> 2.0.0"
    random = {
      version = "~> 1.2.0"
    }
    tls = {
      source  = "hashicorp/tls"
      version = "~> 3.0"
    }
  }
}

resource "implied_foo" "bar" {
}

module "kinder" {
  source = "./child"
}

data "terraform_remote_state" "bar" {
}

provider "configured" {
  version = "~> 1.4"
}

import {
  to = importimplied.targetA
  id = "ii"
}

import {
  to = importimplied.targetB
  id = "ie"
  provider = importexplicit
}
"#;

const CHILD: &str = r#"terraform {
  required_providers {
    cloud = {
      source = "tf.example.com/awesomecorp/happycloud"
    }
    null = {
      version = "2.0.1"
    }
  }
}

module "nested" {
  source = "./grandchild"
}
"#;

const GRANDCHILD: &str = "resource \"grandchild_foo\" \"bar\" {\n}\n";

fn config_provider_requirements_fixture() -> (Config, Diagnostics, tempfile::TempDir) {
    build(&[
        ("provider-reqs-root.tf", ROOT),
        ("child/provider-reqs-child.tf", CHILD),
        ("child/grandchild/provider-reqs-grandchild.tf", GRANDCHILD),
    ])
}

#[test]
fn whole_tree() {
    let (cfg, diags, _d) = config_provider_requirements_fixture();
    // Only the deprecated in-block version constraint.
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        diags[0].summary,
        "Version constraints inside provider configuration blocks are deprecated"
    );
    let (reqs, diags) = cfg.provider_requirements();
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        lines(&reqs),
        vec![
            "registry.opentofu.org/hashicorp/configured ~> 1.4",
            "registry.opentofu.org/hashicorp/grandchild",
            "registry.opentofu.org/hashicorp/implied",
            "registry.opentofu.org/hashicorp/importexplicit",
            "registry.opentofu.org/hashicorp/importimplied",
            // Constraints from the root and the child, merged.
            "registry.opentofu.org/hashicorp/null ~> 2.0.0, 2.0.1",
            "registry.opentofu.org/hashicorp/random ~> 1.2.0",
            "registry.opentofu.org/hashicorp/tls ~> 3.0",
            "terraform.io/builtin/terraform",
            "tf.example.com/awesomecorp/happycloud",
        ]
    );
    let null = reqs.get(&Provider::default_for("null")).unwrap();
    let v = |s| depsfile::Version::parse(s).unwrap();
    assert!(!null.allowed(&v("2.0.0")));
    assert!(null.allowed(&v("2.0.1")));
}

#[test]
fn shallow_and_by_module() {
    let (cfg, _, _d) = config_provider_requirements_fixture();
    let (shallow, diags) = cfg.provider_requirements_shallow();
    assert!(diags.is_empty());
    assert!(!shallow.contains_key(&Provider::default_for("grandchild")));
    assert_eq!(
        shallow
            .get(&Provider::default_for("null"))
            .unwrap()
            .to_string(),
        "~> 2.0.0"
    );

    let (tree, diags) = cfg.provider_requirements_by_module();
    assert!(diags.is_empty());
    assert_eq!(lines(&tree.requirements), lines(&shallow));
    let kinder = &tree.children["kinder"];
    assert_eq!(kinder.name, "kinder");
    assert_eq!(
        lines(&kinder.requirements),
        vec![
            "registry.opentofu.org/hashicorp/null 2.0.1",
            "tf.example.com/awesomecorp/happycloud",
        ]
    );
    let nested = &kinder.children["nested"];
    assert_eq!(
        lines(&nested.requirements),
        vec!["registry.opentofu.org/hashicorp/grandchild"]
    );
    assert!(nested.children.is_empty());
}

#[test]
fn local_names_and_explicit_providers() {
    let (cfg, diags, _d) = build(&[
        (
            "main.tf",
            r#"terraform {
  required_providers {
    foo-test = { source = "foo/test" }
    terraform = {}
  }
}
resource "foo-test_thing" "a" {}
resource "other_thing" "b" {
  provider = foo-test
}
data "terraform_data" "c" {}
module "m" {
  source    = "./m"
  providers = { passed = foo-test }
}
"#,
        ),
        ("m/main.tf", "resource \"x_y\" \"z\" {}\n"),
    ]);
    // The child declares no "passed": building the tree says so (provider
    // validation), which changes no requirement.
    let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(
        summaries,
        ["Reference to undefined provider", "Provider type mismatch"],
        "{diags:?}"
    );
    let (tree, diags) = cfg.provider_requirements_by_module();
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        lines(&tree.requirements),
        vec![
            "registry.opentofu.org/foo/test",
            "terraform.io/builtin/terraform",
        ]
    );
    // The providers map implies nothing in either module.
    assert_eq!(
        lines(&tree.children["m"].requirements),
        vec!["registry.opentofu.org/hashicorp/x"]
    );
    let foo = parse_provider_source_string("foo/test").unwrap();
    assert!(depsfile::is_lockable(&foo));
    assert!(!depsfile::is_lockable(&Provider::built_in("terraform")));
}

#[test]
fn constraints_the_provider_parser_rejects() {
    let (cfg, diags, d) = build(&[(
        "main.tf",
        r#"terraform {
  required_providers {
    a = { version = "~> 1.2.3.4" }
    b = { version = ">=  2.0" }
  }
}
provider "c" {
  version = "v1.0"
}
"#,
    )]);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let (reqs, diags) = cfg.provider_requirements();
    assert_eq!(
        render(&diags, &d),
        vec![
            "main.tf:3,5-35: Invalid version constraint; Incorrect version constraint syntax: invalid specification \"~> 1.2.3.4\": too many numbered portions; only three are allowed (major, minor, patch).",
            "main.tf:4,5-32: Invalid version constraint; Incorrect version constraint syntax: invalid specification \">=  2.0\": only one space is expected after the operator \">=\".",
            "main.tf:8,3-19: Invalid version constraint; Incorrect version constraint syntax: invalid specification \"v1.0\": a \"v\" prefix should not be used when specifying versions.",
        ]
    );
    // The providers are still required, with no constraint.
    assert_eq!(reqs.len(), 3);
    assert!(reqs.values().all(VersionConstraints::is_empty));
}

#[test]
fn import_provider_must_match_the_resource() {
    let (cfg, _, d) = build(&[(
        "main.tf",
        r#"provider "aws" {
  alias = "west"
}
resource "aws_instance" "a" {}
resource "aws_instance" "b" {
  provider = aws.east
}
resource "aws_instance" "c" {
  provider = aws.west
}
import {
  to       = aws_instance.a
  id       = "a"
  provider = aws.west
}
import {
  to       = aws_instance.b
  id       = "b"
  provider = aws.west
}
import {
  to       = aws_instance.c
  id       = "c"
  provider = aws.west
}
"#,
    )]);
    let (reqs, diags) = cfg.provider_requirements();
    assert_eq!(lines(&reqs), vec!["registry.opentofu.org/hashicorp/aws"]);
    assert_eq!(
        render(&diags, &d),
        vec![
            "main.tf:14,3-22: Invalid import provider argument; The provider argument in the target resource block must be specified and match the import block.",
            "main.tf:19,3-22: Invalid import provider argument; The provider argument in the target resource block must match the import block.",
        ]
    );
}

#[test]
fn lock_file_names_the_same_version_as_configs() {
    assert_eq!(depsfile::TOFU_VERSION, crate::language::TOFU_VERSION);
}

#[test]
fn empty_dir_path() {
    let (cfg, _, d) = build(&[("main.tf", "")]);
    let (tree, _) = cfg.provider_requirements_by_module();
    assert!(tree.requirements.is_empty());
    assert_eq!(tree.source_dir, Path::new(d.path()));
}

#[test]
fn qualifications() {
    let (cfg, _, _d) = config_provider_requirements_fixture();
    let (_, q, _) = cfg.provider_requirements_qualified();
    let implicit: Vec<String> = q
        .implicit
        .iter()
        .map(|(p, refs)| {
            let addrs: Vec<&str> = refs.iter().map(|r| r.addr.as_str()).collect();
            format!("{p}: {}", addrs.join(", "))
        })
        .collect();
    assert_eq!(
        implicit,
        vec![
            "registry.opentofu.org/hashicorp/grandchild: module.kinder.module.nested.grandchild_foo.bar",
            "registry.opentofu.org/hashicorp/implied: implied_foo.bar",
            "registry.opentofu.org/hashicorp/importexplicit: importimplied.targetB",
            "registry.opentofu.org/hashicorp/importimplied: importimplied.targetA",
            "terraform.io/builtin/terraform: data.terraform_remote_state.bar",
        ]
    );
    assert!(q.explicit.contains(&Provider::default_for("tls")));
    assert!(!q.explicit.contains(&Provider::default_for("implied")));
}

#[test]
fn dependency_selections() {
    let (cfg, _, _d) = build(&[(
        "main.tf",
        r#"terraform {
  required_providers {
    a = { source = "hashicorp/a", version = ">= 2.0" }
    b = { source = "hashicorp/b", version = "~> 1.0" }
    c = { source = "hashicorp/c" }
    d = { source = "hashicorp/d", version = "< 1.0" }
    e = { source = "hashicorp/e", version = "1.0.0" }
  }
}
data "terraform_remote_state" "s" {}
"#,
    )]);
    let lock = |ty: &str, version: &str, constraints: &str| {
        depsfile::ProviderLock::new(
            Provider::default_for(ty),
            depsfile::Version::parse(version).unwrap(),
            VersionConstraints::parse(constraints).unwrap(),
            Vec::new(),
        )
    };
    let mut locks = depsfile::Locks::new();
    locks.set_provider(lock("a", "1.5.0", ">= 1.0"));
    locks.set_provider(lock("b", "1.2.0", "~> 1.0"));
    locks.set_provider(lock("d", "1.0.0", "< 1.0.0"));
    locks.set_provider(lock("e", "2.0.0", "2.0.0"));
    locks.set_provider_overridden(Provider::default_for("e"));
    assert_eq!(
        cfg.verify_dependency_selections(&locks),
        vec![
            "provider registry.opentofu.org/hashicorp/a: locked version selection 1.5.0 doesn't match the updated version constraints \">= 2.0.0\"",
            "provider registry.opentofu.org/hashicorp/c: required by this configuration but no version is selected",
            "provider registry.opentofu.org/hashicorp/d: version constraints \"< 1.0.0\" don't match the locked version selection 1.0.0",
        ]
    );
}

// OpenTofu's internal/configs/testdata/provider-reqs-with-tests.
const TESTS_ROOT: &str = r#"terraform {
  required_providers {
    tls = {
      source  = "hashicorp/tls"
      version = "~> 3.0"
    }
  }
}

resource "implied_foo" "bar" {
}

data "terraform_remote_state" "bar" {
}
"#;

const TESTS_FILE: &str = r#"provider "configured" {
  version = "~> 1.4"
}

run "setup" {
  module {
    source = "./setup"
  }
}
"#;

const TESTS_SETUP: &str = r#"terraform {
  required_providers {
    null = "~> 2.0.0"
    random = {
      version = "~> 1.2.0"
    }
  }
}
"#;

#[test]
fn test_files_and_their_runs() {
    let (cfg, diags, _d) = build(&[
        ("provider-reqs-root.tf", TESTS_ROOT),
        ("provider-reqs-root.tftest.hcl", TESTS_FILE),
        ("setup/setup.tf", TESTS_SETUP),
    ]);
    let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(
        summaries,
        ["Version constraints inside provider configuration blocks are deprecated"]
    );
    let (reqs, diags) = cfg.provider_requirements();
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        lines(&reqs),
        vec![
            "registry.opentofu.org/hashicorp/configured ~> 1.4",
            "registry.opentofu.org/hashicorp/implied",
            "registry.opentofu.org/hashicorp/null ~> 2.0.0",
            "registry.opentofu.org/hashicorp/random ~> 1.2.0",
            "registry.opentofu.org/hashicorp/tls ~> 3.0",
            "terraform.io/builtin/terraform",
        ]
    );
    // Shallow: the test file's provider block, not the run's module.
    let (shallow, _) = cfg.provider_requirements_shallow();
    assert_eq!(
        lines(&shallow),
        vec![
            "registry.opentofu.org/hashicorp/configured ~> 1.4",
            "registry.opentofu.org/hashicorp/implied",
            "registry.opentofu.org/hashicorp/tls ~> 3.0",
            "terraform.io/builtin/terraform",
        ]
    );
    let (tree, diags) = cfg.provider_requirements_by_module();
    assert!(diags.is_empty(), "{diags:?}");
    assert!(!tree
        .requirements
        .contains_key(&Provider::default_for("configured")));
    let file = &tree.tests["provider-reqs-root.tftest.hcl"];
    assert_eq!(
        lines(&file.requirements),
        vec!["registry.opentofu.org/hashicorp/configured ~> 1.4"]
    );
    let setup = &file.runs["setup"];
    assert_eq!(setup.name, "setup");
    assert_eq!(
        lines(&setup.requirements),
        vec![
            "registry.opentofu.org/hashicorp/null ~> 2.0.0",
            "registry.opentofu.org/hashicorp/random ~> 1.2.0",
        ]
    );
}
