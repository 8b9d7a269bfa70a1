//! terraform 1.11 runs the test provider: `init -plugin-dir`, then
//! `providers schema -json` shows the served schema and `validate` shows
//! the provider's diagnostic, over both protocols. Skips when terraform
//! is absent.

// The tests say when they skip.
#![allow(clippy::print_stderr)]

mod common;

use std::path::Path;
use std::process::{Command, Output};

const TERRAFORM: &str = "/usr/local/bin/terraform";
const SOURCE: &str = "registry.terraform.io/tofu-rs/testing";

/// A working directory with `main_tf` and the provider installed in a
/// plugin directory as `init -plugin-dir` expects
/// (HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE).
struct Workdir {
    dir: tempfile::TempDir,
    protocol: u32,
}

impl Workdir {
    fn new(protocol: u32, main_tf: &str) -> Workdir {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir
            .path()
            .join("plugins/registry.terraform.io/tofu-rs/testing/1.0.0/linux_amd64");
        std::fs::create_dir_all(&pkg).unwrap();
        let exe = pkg.join("terraform-provider-testing");
        if std::fs::hard_link(common::provider_binary(), &exe).is_err() {
            std::fs::copy(common::provider_binary(), &exe).unwrap();
        }
        std::fs::create_dir(dir.path().join("work")).unwrap();
        std::fs::write(dir.path().join("work/main.tf"), main_tf).unwrap();
        std::fs::write(dir.path().join("terraformrc"), "").unwrap();
        Workdir { dir, protocol }
    }

    fn terraform(&self, args: &[&str]) -> Output {
        Command::new(TERRAFORM)
            .args(args)
            .current_dir(self.dir.path().join("work"))
            .env("TF_CLI_CONFIG_FILE", self.dir.path().join("terraformrc"))
            .env("CHECKPOINT_DISABLE", "1")
            .env("TF_IN_AUTOMATION", "1")
            .env_remove("TF_LOG")
            .env("TOFU_RS_TESTPROVIDER_SCHEMA", common::schema_path())
            .env("TOFU_RS_TESTPROVIDER_PROTOCOL", self.protocol.to_string())
            .output()
            .unwrap()
    }

    fn init(&self) {
        let plugins = format!("-plugin-dir={}", self.dir.path().join("plugins").display());
        let out = self.terraform(&["init", "-input=false", "-no-color", &plugins]);
        assert!(out.status.success(), "init failed:\n{}", text(&out));
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn terraform_present() -> bool {
    if Path::new(TERRAFORM).exists() {
        return true;
    }
    eprintln!("skipping: {TERRAFORM} is absent");
    false
}

const REQUIRED: &str = r#"
terraform {
  required_providers {
    testing = { source = "tofu-rs/testing" }
  }
}
"#;

fn schema_shown(protocol: u32) {
    if !terraform_present() {
        return;
    }
    let w = Workdir::new(
        protocol,
        &format!("{REQUIRED}\nprovider \"testing\" {{}}\n"),
    );
    w.init();
    let out = w.terraform(&["providers", "schema", "-json"]);
    assert!(out.status.success(), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let shown = &doc["provider_schemas"][SOURCE];
    let served = common::schema();
    let served = if protocol == 5 {
        common::flattened(&served)
    } else {
        served
    };
    let want: serde_json::Value =
        serde_json::from_str(&configschema::json::encode_provider(&served)).unwrap();
    assert_eq!(shown, &want);
}

#[test]
fn terraform_shows_the_schema_v5() {
    schema_shown(5);
}

#[test]
fn terraform_shows_the_schema_v6() {
    schema_shown(6);
}

fn validate_shows_the_diagnostic(protocol: u32) {
    if !terraform_present() {
        return;
    }
    let w = Workdir::new(
        protocol,
        &format!(
            "{REQUIRED}\nresource \"testing_thing\" \"x\" {{\n  name = \"ok\"\n  listed {{\n    x = \"INVALID\"\n  }}\n}}\n"
        ),
    );
    w.init();
    let out = w.terraform(&["validate", "-no-color"]);
    let all = text(&out);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("Error: Invalid value"), "{all}");
    assert!(
        all.contains("The test provider rejects the value INVALID."),
        "{all}"
    );
    // terraform points at the attribute the path names.
    assert!(all.contains("x = \"INVALID\""), "{all}");

    // Without INVALID, the configuration is valid.
    std::fs::write(
        w.dir.path().join("work/main.tf"),
        format!("{REQUIRED}\nresource \"testing_thing\" \"x\" {{\n  name = \"ok\"\n  listed {{\n    x = \"fine\"\n  }}\n}}\n"),
    )
    .unwrap();
    let out = w.terraform(&["validate", "-no-color"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn terraform_validate_shows_the_diagnostic_v5() {
    validate_shows_the_diagnostic(5);
}

#[test]
fn terraform_validate_shows_the_diagnostic_v6() {
    validate_shows_the_diagnostic(6);
}
