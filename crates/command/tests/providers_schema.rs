//! `tofu-rs providers schema -json` with the project's test provider: the
//! document, the schema cache (a second run starts no plugin; a damaged
//! entry is not trusted; a changed executable is asked again), and the
//! errors OpenTofu gives when a plugin is missing or cannot start; and
//! validate without the plugins `init` installs.

use std::path::Path;
use std::process::{Command, Output};

mod support;
use support::testprovider;

const MAIN_TF: &str = r#"
terraform {
  required_providers {
    testing = { source = "tofu-rs/testing", version = "1.0.0" }
  }
}
resource "testing_thing" "a" {
  name = "x"
}
"#;

fn fixture_schema() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testprovider/tests/fixtures/schema.json")
}

fn tofu(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(args)
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .env("TOFU_RS_SCHEMA_CACHE_DIR", cache)
        .env_remove("TF_DATA_DIR")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Diagnostic text with the renderer's line wrapping undone.
fn unwrapped(s: &str) -> String {
    s.trim()
        .split("\n\n")
        .map(|p| p.replace('\n', " "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// A working directory initialised with the test provider over `protocol`.
fn workdir(protocol: u32) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let plugins = testprovider::plugin_dir(root.path(), "testing", &fixture_schema(), protocol);
    let work = root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("main.tf"), MAIN_TF).unwrap();
    let init = tofu(
        &work,
        &root.path().join("cache"),
        &[
            "init",
            "-input=false",
            "-no-color",
            &format!("-plugin-dir={}", plugins.display()),
        ],
    );
    assert!(init.status.success(), "{}", text(&init.stderr));
    root
}

fn expected_document(protocol: u32) -> String {
    let schema = std::fs::read_to_string(fixture_schema()).unwrap();
    let mut schema = configschema::json::decode_provider(&schema).unwrap();
    if protocol == 5 {
        // Protocol 5 has no nested attribute types: the provider sends
        // their implied types.
        flatten(&mut schema);
    }
    let doc = configschema::ProviderSchemas {
        format_version: "1.0".into(),
        providers: [("registry.opentofu.org/tofu-rs/testing".to_string(), schema)].into(),
    };
    format!("{}\n", configschema::json::encode_document(&doc))
}

fn flatten(schema: &mut configschema::ProviderSchema) {
    fn block(b: &mut configschema::Block) {
        for a in b.attributes.values_mut() {
            if let configschema::AttributeType::Nested(_) = a.ty {
                a.ty = configschema::AttributeType::Type(a.implied_type());
            }
        }
        for nb in b.block_types.values_mut() {
            block(&mut nb.block);
        }
    }
    for s in [&mut schema.provider]
        .into_iter()
        .chain(schema.resources.values_mut())
        .chain(schema.data_sources.values_mut())
        .chain(schema.ephemeral_resources.values_mut())
    {
        if let Some(b) = s.block.as_mut() {
            block(b);
        }
    }
}

fn shows_the_schema_and_caches_it(protocol: u32) {
    let root = workdir(protocol);
    let (work, cache) = (root.path().join("work"), root.path().join("cache"));
    let out = tofu(&work, &cache, &["providers", "schema", "-json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), expected_document(protocol));
    assert_eq!(testprovider::starts(root.path()), 1);
    let again = tofu(&work, &cache, &["providers", "schema", "-json"]);
    assert_eq!(again.stdout, out.stdout);
    assert_eq!(
        testprovider::starts(root.path()),
        1,
        "a warm run starts no plugin"
    );
}

#[test]
fn shows_the_schema_and_caches_it_v5() {
    shows_the_schema_and_caches_it(5);
}

#[test]
fn shows_the_schema_and_caches_it_v6() {
    shows_the_schema_and_caches_it(6);
}

#[test]
fn a_damaged_cache_entry_is_refetched() {
    let root = workdir(6);
    let (work, cache) = (root.path().join("work"), root.path().join("cache"));
    let first = tofu(&work, &cache, &["providers", "schema", "-json"]);
    for entry in std::fs::read_dir(cache.join("schemas")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    }
    let second = tofu(&work, &cache, &["providers", "schema", "-json"]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(testprovider::starts(root.path()), 2);
    // The entry was replaced by a whole one.
    tofu(&work, &cache, &["providers", "schema", "-json"]);
    assert_eq!(testprovider::starts(root.path()), 2);
}

#[test]
fn a_changed_executable_is_asked_again() {
    let root = workdir(6);
    let (work, cache) = (root.path().join("work"), root.path().join("cache"));
    tofu(&work, &cache, &["providers", "schema", "-json"]);
    let exe = work.join(".terraform/providers/registry.opentofu.org/tofu-rs/testing/1.0.0/linux_amd64/terraform-provider-testing");
    let exe = std::fs::canonicalize(&exe).unwrap();
    let mut script = std::fs::read_to_string(&exe).unwrap();
    script.push_str("# rebuilt\n");
    std::fs::remove_file(&exe).unwrap();
    std::fs::write(&exe, script).unwrap();
    testprovider::set_executable(&exe);
    let out = tofu(&work, &cache, &["providers", "schema", "-json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(testprovider::starts(root.path()), 2);
}

/// The built-in provider is in the document when the configuration uses
/// it: terraform's schema of it but for OpenTofu's words (the workspace's
/// description, the functions' texts and shape), and no plugin started.
#[test]
fn the_builtin_provider_is_in_the_document() {
    let root = workdir(6);
    let (work, cache) = (root.path().join("work"), root.path().join("cache"));
    std::fs::write(
        work.join("data.tf"),
        "resource \"terraform_data\" \"d\" {\n  input = 1\n}\n",
    )
    .unwrap();
    let out = tofu(&work, &cache, &["providers", "schema", "-json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let schemas = doc["provider_schemas"].as_object().unwrap();
    assert_eq!(
        schemas.keys().collect::<Vec<_>>(),
        [
            "registry.opentofu.org/tofu-rs/testing",
            "terraform.io/builtin/terraform"
        ]
    );
    let ours = &schemas["terraform.io/builtin/terraform"];
    let terraform: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../configschema/testdata/documents/terraform_builtin.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut expected = terraform["provider_schemas"]["terraform.io/builtin/terraform"].clone();
    expected["data_source_schemas"]["terraform_remote_state"]["block"]["attributes"]["workspace"]
        ["description"] =
        "The OpenTofu workspace to use, if the backend supports workspaces.".into();
    expected["functions"] = ours["functions"].clone();
    assert_eq!(ours, &expected);
    assert_eq!(
        ours["functions"]["encode_expr"],
        serde_json::json!({
            "description": "provider::terraform::encode_expr takes an arbitrary expression and converts it into a string with valid OpenTofu syntax",
            "summary": "Takes an arbitrary expression and converts it into a string with valid OpenTofu syntax",
            "return_type": "string",
            "parameters": [{"name": "expr", "description": "expression to encode", "type": "dynamic"}]
        })
    );
    assert_eq!(
        ours["functions"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["decode_tfvars", "encode_expr", "encode_tfvars"]
    );
}

#[test]
fn requires_json() {
    let root = workdir(6);
    let out = tofu(
        &root.path().join("work"),
        &root.path().join("cache"),
        &["providers", "schema", "-no-color"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "\nError: Output only in json is allowed\n\nThe `tofu providers schema` command requires the `-json` flag.\n\n"
    );
}

/// Replaces the installed package's executable with `script`.
fn replace_plugin(work: &Path, script: &str) {
    let exe = work.join(".terraform/providers/registry.opentofu.org/tofu-rs/testing/1.0.0/linux_amd64/terraform-provider-testing");
    let exe = std::fs::canonicalize(&exe).unwrap();
    std::fs::remove_file(&exe).unwrap();
    std::fs::write(&exe, script).unwrap();
    testprovider::set_executable(&exe);
}

fn plugin_failure(script: &str) -> String {
    let root = workdir(6);
    let work = root.path().join("work");
    replace_plugin(&work, script);
    let out = tofu(
        &work,
        &root.path().join("cache"),
        &["providers", "schema", "-json", "-no-color"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    text(&out.stderr)
}

#[test]
fn a_plugin_that_exits_at_once() {
    let err =
        plugin_failure("#!/bin/sh\necho 'a stand-in provider; it serves nothing' >&2\nexit 1\n");
    assert!(
        unwrapped(&err).starts_with("Error: Failed to load plugin schemas\n\nError while loading schemas for plugin components: failed to instantiate provider \"registry.opentofu.org/tofu-rs/testing\" to obtain schema: Unrecognized remote plugin message:  Failed to read any lines from plugin's stdout This usually means"),
        "{err}"
    );
}

#[test]
fn a_plugin_that_prints_garbage() {
    let err = unwrapped(&plugin_failure("#!/bin/sh\necho 'hello there'\nsleep 5\n"));
    assert!(
        err.contains("to obtain schema: Unrecognized remote plugin message: hello there"),
        "{err}"
    );
}

#[test]
fn a_missing_package() {
    let root = workdir(6);
    let work = root.path().join("work");
    std::fs::remove_dir_all(work.join(".terraform/providers")).unwrap();
    let out = tofu(
        &work,
        &root.path().join("cache"),
        &["providers", "schema", "-json", "-no-color"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        unwrapped(&text(&out.stderr)),
        "Error: Failed to load plugin schemas\n\nError while loading schemas for plugin components: registry.opentofu.org/tofu-rs/testing: there is no package for registry.opentofu.org/tofu-rs/testing 1.0.0 cached in .terraform/providers."
    );
}

/// validate needs `init` only where modules are called (the command-line
/// contract): a provider that is not installed, whether the lock file
/// lacks it or lists it without a package, is checked from its
/// configuration alone. An installed one is checked against its schema.
#[test]
fn validate_checks_a_provider_not_installed_from_its_configuration() {
    let misspelt = MAIN_TF.replace("  name = \"x\"", "  nmae = \"x\"");
    let undeclared = "\nresource \"testing_thing\" \"b\" {\n  name = var.nope\n}\n";
    // Not initialised: no lock file, no package.
    let root = tempfile::tempdir().unwrap();
    let work = root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("main.tf"), format!("{misspelt}{undeclared}")).unwrap();
    let cache = root.path().join("cache");
    let out = tofu(&work, &cache, &["validate", "-json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let summaries: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        summaries,
        ["Reference to undeclared input variable"],
        "{doc}"
    );

    // Initialised, then the packages removed (a committed lock file, no
    // init): the same, and no plugin is started.
    let root = workdir(6);
    let work = root.path().join("work");
    std::fs::write(work.join("main.tf"), &misspelt).unwrap();
    let cache = root.path().join("cache");
    let out = tofu(&work, &cache, &["validate", "-no-color"]);
    assert_eq!(out.status.code(), Some(1), "installed: checked in full");
    assert!(text(&out.stderr).contains("Unsupported argument"));
    std::fs::remove_dir_all(work.join(".terraform/providers")).unwrap();
    let starts = testprovider::starts(root.path());
    let out = tofu(&work, &cache, &["validate", "-no-color"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(testprovider::starts(root.path()), starts);
}
