//! Unmanaged providers (`TF_REATTACH_PROVIDERS`): the test provider runs
//! in the SDKs' debug mode and tofu-rs attaches to it instead of starting
//! a plugin. `init` installs and locks nothing for it; `validate`,
//! `providers schema -json` and `plan-lite` read its schema from the
//! running process on every run (nothing is cached); the process is left
//! running in test mode and ended otherwise; a malformed variable stops
//! every command. The differential cases run terraform against the same
//! running provider and skip, saying so, where terraform is absent.
#![cfg(target_os = "linux")]
#![allow(clippy::print_stderr)] // skipping is reported

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;
use support::testprovider::{self, DebugServer};
use support::validate_view;

/// The test provider as `tofu-rs/testing` (both tools' default registry).
const REQUIRED: &str = r#"
terraform {
  required_providers {
    testing = { source = "tofu-rs/testing" }
  }
}
"#;

const RESOURCE: &str = r#"
resource "testing_thing" "a" {
  name = "x"
  listed {}
}
"#;

/// One valid resource.
fn valid() -> String {
    format!("{REQUIRED}{RESOURCE}")
}

/// [`valid`] with `name` misspelt: an error only the schema finds.
fn misspelt() -> String {
    valid().replace("  name = ", "  nme = ")
}

fn fixture_schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testprovider/tests/fixtures/schema.json")
}

/// A scratch root with `work/main.tf`, and the test provider in debug
/// mode serving the fixture schema over `protocol`.
fn running(main_tf: &str, protocol: u32) -> (tempfile::TempDir, PathBuf, DebugServer) {
    let (root, work) = workdir(main_tf);
    let server = DebugServer::start(root.path(), &fixture_schema(), protocol);
    (root, work, server)
}

/// A scratch root with `work/main.tf` and a provider cache of its own.
fn workdir(main_tf: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let work = root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("main.tf"), main_tf).unwrap();
    (root, work)
}

fn run(program: &Path, work: &Path, reattach: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(work)
        .env("TF_REATTACH_PROVIDERS", reattach)
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .env("CHECKPOINT_DISABLE", "1")
        .env("NO_COLOR", "1")
        .env("TOFU_RS_SCHEMA_CACHE_DIR", work.join("../cache"))
        .env_remove("TF_DATA_DIR")
        .env_remove("TOFU_RS_PROVIDER_SCHEMAS")
        .output()
        .unwrap()
}

fn tofu(work: &Path, reattach: &str, args: &[&str]) -> Output {
    run(
        Path::new(env!("CARGO_BIN_EXE_tofu-rs")),
        work,
        reattach,
        args,
    )
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn summaries(validate_json: &[u8]) -> Vec<String> {
    let doc: Value = serde_json::from_slice(validate_json).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["summary"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn init_installs_and_locks_nothing_for_an_unmanaged_provider() {
    let (_root, work, server) = running(&valid(), 6);
    let env = server.reattach_env(true, |_| {});
    let out = tofu(&work, &env, &["init", "-input=false", "-no-color"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("Initializing provider plugins..."),
        "{stdout}"
    );
    assert!(
        !stdout.contains("tofu-rs/testing"),
        "nothing is said of it:\n{stdout}"
    );
    assert!(!work.join(".terraform.lock.hcl").exists(), "no lock entry");
    assert!(!work.join(".terraform/providers").exists(), "no package");
}

fn validate_checks_the_schema_of_the_running_provider(protocol: u32) {
    let (root, work, mut server) = running(&misspelt(), protocol);
    let env = server.reattach_env(true, |_| {});
    for _ in 0..2 {
        let out = tofu(&work, &env, &["validate", "-json"]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert_eq!(
            summaries(&out.stdout),
            ["Missing required argument", "Unsupported argument"],
            "{}",
            text(&out.stdout)
        );
    }
    // One process served both runs; test mode leaves it running, and
    // nothing was cached.
    assert_eq!(testprovider::starts(root.path()), 1);
    assert!(server.running(), "a provider in test mode is left running");
    let cache = work.join("../cache");
    assert!(!cache.exists() || std::fs::read_dir(&cache).unwrap().next().is_none());
}

#[test]
fn validate_checks_the_schema_of_the_running_provider_v5() {
    validate_checks_the_schema_of_the_running_provider(5);
}

#[test]
fn validate_checks_the_schema_of_the_running_provider_v6() {
    validate_checks_the_schema_of_the_running_provider(6);
}

#[test]
fn what_the_provider_rejects_names_the_object_it_is_about() {
    let (_root, work, server) = running(
        &(REQUIRED.to_owned()
            + r#"
provider "testing" {
  region = "INVALID"
}
ephemeral "testing_secret" "s" {
  value = "INVALID"
}
"#),
        6,
    );
    std::fs::create_dir(work.join("m")).unwrap();
    std::fs::write(
        work.join("m/main.tf"),
        REQUIRED.to_owned()
            + &RESOURCE
                .replace("\"a\"", "\"b\"")
                .replace("\"x\"", "\"INVALID\""),
    )
    .unwrap();
    std::fs::write(
        work.join("calls.tf"),
        "module \"m\" {\n  source = \"./m\"\n}\n",
    )
    .unwrap();
    let env = server.reattach_env(true, |_| {});
    assert!(tofu(&work, &env, &["init", "-input=false"])
        .status
        .success());
    let out = tofu(&work, &env, &["validate", "-json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut addresses: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["address"].as_str())
        .collect();
    addresses.sort();
    assert!(
        addresses.contains(&"provider[\"registry.opentofu.org/tofu-rs/testing\"]"),
        "{doc}"
    );
    let out = tofu(&work, &env, &["validate", "-no-color"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("  with provider[\"registry.opentofu.org/tofu-rs/testing\"],\n  on main.tf line 9, in provider \"testing\":"),
        "{stderr}"
    );
}

/// OpenTofu's `for_each` on providers: each instance is validated, and
/// what the provider rejects names the instance (`InstanceString`).
#[test]
fn a_provider_instance_is_named_with_its_key() {
    let (_root, work, server) = running(
        &(REQUIRED.to_owned()
            + r#"
provider "testing" {
  alias    = "by"
  for_each = toset(["a", "b"])
  region   = each.key == "a" ? "INVALID" : "fine"
}
"#),
        6,
    );
    let env = server.reattach_env(true, |_| {});
    let out = tofu(&work, &env, &["validate", "-no-color"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("Error: Invalid value").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("  with provider[\"registry.opentofu.org/tofu-rs/testing\"].by[\"a\"],\n"),
        "{stderr}"
    );
}

#[test]
fn protocol_version_zero_means_five() {
    let (_root, work, server) = running(&valid(), 5);
    let env = server.reattach_env(true, |c| c["ProtocolVersion"] = 0.into());
    let out = tofu(&work, &env, &["validate", "-no-color"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Success!"));
}

#[test]
fn a_provider_not_in_test_mode_is_ended_with_the_command() {
    let (_root, work, mut server) = running(&valid(), 6);
    let env = server.reattach_env(false, |_| {});
    let out = tofu(&work, &env, &["validate", "-no-color"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.running() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!server.running(), "pid {} still runs", server.pid());
    // Nothing listens any more.
    let out = tofu(&work, &env, &["validate", "-no-color"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "Error: failed to read schema for testing_thing.a in registry.opentofu.org/tofu-rs/testing: failed to instantiate provider \"registry.opentofu.org/tofu-rs/testing\" to obtain schema: reattachment process not found"
    );
}

#[test]
fn an_unsupported_protocol_version_is_named() {
    let (_root, work, server) = running(&valid(), 6);
    let env = server.reattach_env(true, |c| c["ProtocolVersion"] = 4.into());
    let out = tofu(&work, &env, &["validate", "-no-color"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("to obtain schema: no supported plugins for protocol 4"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn plan_lite_is_shaped_by_the_running_provider_s_schema() {
    let (_root, work, server) = running(&valid(), 6);
    let env = server.reattach_env(true, |_| {});
    let out = tofu(&work, &env, &["plan-lite", "-json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let change = &doc["resource_changes"][0]["change"];
    assert_eq!(change["after_unknown"]["id"], Value::Bool(true), "{doc}");
    assert_eq!(change["after"]["old"], Value::Null, "{doc}");
}

#[test]
fn a_malformed_variable_stops_every_command() {
    let (_root, work) = workdir(&valid());
    let cases = [
        ("{", "Invalid format for TF_REATTACH_PROVIDERS: unexpected end of JSON input"),
        (
            r#"{"hashicorp/aws":{"Addr":{"Network":"pipe","String":"x"}}}"#,
            "Unknown address type \"pipe\" for \"hashicorp/aws\"",
        ),
        (
            r#"{"hashicorp/aws":{"Addr":{"Network":"tcp","String":"nowhere"}}}"#,
            "Invalid TCP address \"nowhere\" for \"hashicorp/aws\": address nowhere: missing port in address",
        ),
    ];
    for (value, want) in cases {
        for args in [
            &["version"][..],
            &["validate"],
            &["init"],
            &["-chdir=nowhere", "plan-lite"],
        ] {
            let out = tofu(&work, value, args);
            assert_eq!(out.status.code(), Some(1), "{value} {args:?}");
            assert_eq!(text(&out.stderr), format!("{want}\n"), "{value} {args:?}");
            assert!(out.stdout.is_empty(), "{value} {args:?}");
        }
    }
}

/// terraform, or `None` after saying why the case is skipped.
fn terraform_for(case: &str) -> Option<PathBuf> {
    let tf = support::terraform();
    if tf.is_none() {
        eprintln!("skipping {case}: terraform is not installed");
    }
    tf
}

#[test]
fn validate_and_schema_agree_with_terraform_on_the_same_running_provider() {
    let Some(tf) = terraform_for("the unmanaged-provider differential") else {
        return;
    };
    for protocol in [5, 6] {
        let (root, work) = workdir(&misspelt());
        let server = DebugServer::start(root.path(), &fixture_schema(), protocol);
        let env = server.reattach_env(true, |_| {});
        let init = ["init", "-input=false"];
        let (ours, theirs) = (tofu(&work, &env, &init), run(&tf, &work, &env, &init));
        assert!(ours.status.success() && theirs.status.success());
        let ours = tofu(&work, &env, &["validate", "-json"]);
        let theirs = run(&tf, &work, &env, &["validate", "-json"]);
        assert_eq!(ours.status.code(), theirs.status.code(), "v{protocol}");
        let view = |out: &Output| validate_view(&serde_json::from_slice(&out.stdout).unwrap());
        assert_eq!(view(&ours), view(&theirs), "v{protocol}");

        let ours = tofu(&work, &env, &["providers", "schema", "-json"]);
        let theirs = run(&tf, &work, &env, &["providers", "schema", "-json"]);
        assert!(ours.status.success(), "{}", text(&ours.stderr));
        // The same schema under each tool's default registry host.
        let theirs =
            text(&theirs.stdout).replace("registry.terraform.io/", "registry.opentofu.org/");
        assert_eq!(
            text(&ours.stdout).trim_end(),
            theirs.trim_end(),
            "v{protocol}"
        );
        assert!(!work.join(".terraform.lock.hcl").exists());
    }
}

#[test]
fn a_process_not_found_agrees_with_terraform() {
    let Some(tf) = terraform_for("the missing unmanaged-provider differential") else {
        return;
    };
    let (root, work) = workdir(&valid());
    let gone = root.path().join("gone.sock");
    let config = serde_json::json!({
        "Protocol": "grpc", "ProtocolVersion": 6, "Pid": 0, "Test": true,
        "Addr": {"Network": "unix", "String": gone},
    });
    let env = serde_json::json!({
        "registry.opentofu.org/tofu-rs/testing": config,
        "registry.terraform.io/tofu-rs/testing": config,
    })
    .to_string();
    let ours = tofu(&work, &env, &["validate", "-no-color"]);
    let theirs = run(&tf, &work, &env, &["validate", "-no-color"]);
    assert_eq!(ours.status.code(), Some(1));
    assert_eq!(theirs.status.code(), Some(1));
    // go-plugin 1.8 (OpenTofu's) lowercased the error terraform's older
    // go-plugin capitalises; terraform also wraps the line differently.
    let tail = "to obtain schema: reattachment process not found";
    assert!(text(&ours.stderr).contains(tail), "{}", text(&ours.stderr));
    let theirs = text(&theirs.stderr).to_lowercase().replace('\n', " ");
    assert!(theirs.contains(tail), "{theirs}");
}
