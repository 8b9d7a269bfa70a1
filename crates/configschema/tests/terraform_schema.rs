//! Differential test: the document terraform prints for its builtin
//! provider (the only provider it has offline) decodes, and encodes back to
//! the bytes terraform printed. Skips, saying so, without `terraform`.

#![allow(clippy::print_stderr)]

use std::process::Command;

#[test]
fn terraform_builtin_provider_schema_round_trips() {
    let Ok(version) = Command::new("terraform").arg("version").output() else {
        eprintln!("skipped: terraform is not on PATH");
        return;
    };
    if !version.status.success() {
        eprintln!("skipped: `terraform version` failed");
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(
        dir.path().join("main.tf"),
        "resource \"terraform_data\" \"x\" {}\n",
    )
    .expect("write main.tf");
    let run = |args: &[&str]| {
        Command::new("terraform")
            .args(args)
            .current_dir(dir.path())
            .env("CHECKPOINT_DISABLE", "1")
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .env("TF_IN_AUTOMATION", "1")
            .output()
            .expect("terraform runs")
    };
    let init = run(&["init", "-input=false", "-backend=false"]);
    assert!(
        init.status.success(),
        "terraform init: {}",
        String::from_utf8_lossy(&init.stderr)
    );
    let out = run(&["providers", "schema", "-json"]);
    assert!(
        out.status.success(),
        "terraform providers schema: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("terraform prints UTF-8");
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let doc = configschema::json::decode_document(text).expect("terraform's document decodes");
    assert!(doc
        .providers
        .get("terraform.io/builtin/terraform")
        .is_some_and(|p| p.resources.contains_key("terraform_data")));
    assert_eq!(configschema::json::encode_document(&doc), text);
}
