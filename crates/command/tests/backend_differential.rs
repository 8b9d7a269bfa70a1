//! Differential check of the backend record: `terraform init` and
//! `tofu-rs init` on the same local-backend configurations must write the
//! same `backend` object (type, config with every schema attribute, hash)
//! to `.terraform/terraform.tfstate`. Terraform hashes the backend
//! configuration as OpenTofu does. Skipped, saying so, when `terraform`
//! is not on PATH.

use std::path::Path;
use std::process::Command;

fn terraform_available() -> bool {
    Command::new("terraform")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn backend_object(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(".terraform/terraform.tfstate"))
        .unwrap_or_else(|e| panic!("{}: no backend state: {e}", dir.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["backend"].clone()
}

fn run(cmd: &mut Command, what: &str) {
    for (k, _) in std::env::vars() {
        if k.starts_with("TF_") && k != "TF_CLI_CONFIG_FILE" {
            cmd.env_remove(k);
        }
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

// A skipped test says so on stderr.
#[allow(clippy::print_stderr)]
#[test]
fn local_backend_records_match_terraform() {
    if !terraform_available() {
        eprintln!("SKIPPED: terraform is not on PATH; the backend differential check did not run");
        return;
    }
    let cases: &[(&str, &[&str])] = &[
        ("terraform {\n  backend \"local\" {}\n}\n", &[]),
        (
            "terraform {\n  backend \"local\" {\n    path = \"foo.tfstate\"\n  }\n}\n",
            &[],
        ),
        (
            "terraform {\n  backend \"local\" {\n    path = \"a<b>&c.tfstate\"\n    workspace_dir = \"ws\"\n  }\n}\n",
            &[],
        ),
        (
            "terraform {\n  backend \"local\" {}\n}\n",
            &["-backend-config=path=from-cli.tfstate"],
        ),
        (
            "terraform {\n  backend \"local\" {\n    path = \"p\"\n  }\n}\n",
            &["-backend-config=workspace_dir=w"],
        ),
    ];
    for (src, extra) in cases {
        let tf = tempfile::tempdir().unwrap();
        let rs = tempfile::tempdir().unwrap();
        for d in [tf.path(), rs.path()] {
            std::fs::write(d.join("main.tf"), src).unwrap();
        }
        run(
            Command::new("terraform")
                .args(["init", "-backend=true", "-input=false", "-no-color"])
                .args(*extra)
                .current_dir(tf.path()),
            "terraform init",
        );
        run(
            Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
                .args(["init", "-input=false", "-no-color"])
                .args(*extra)
                .current_dir(rs.path()),
            "tofu-rs init",
        );
        assert_eq!(
            backend_object(rs.path()),
            backend_object(tf.path()),
            "backend record differs for\n{src}\nwith {extra:?}"
        );
    }
}
