//! `tofu-rs graph` against `terraform graph` on the plan samples
//! (`../shared/samples/plan/cases`, every configuration that plans): after
//! each tool's own `init`, both print the same DOT. Skipped, saying so,
//! when `terraform` or the samples are absent (`TERRAFORM=path` picks
//! another binary).
#![allow(clippy::print_stderr)] // skipping is reported

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::{copy_dir, terraform};

fn graph(program: &Path, dir: &Path) -> String {
    let run = |args: &[&str]| {
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("CHECKPOINT_DISABLE", "1")
            .output()
            .unwrap()
    };
    let init = run(&["init", "-input=false", "-backend=false"]);
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    let out = run(&["graph"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn graph_matches_terraform_on_plan_samples() {
    let Some(tf) = terraform() else {
        eprintln!("skipping: terraform is not on PATH");
        return;
    };
    // The shared samples sit beside the main checkout, one level further up
    // from a worktree under /work/wt.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = ["../../../shared", "../../../../shared"]
        .iter()
        .map(|up| manifest.join(up).join("samples/plan/cases"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| manifest.join("../../../shared/samples/plan/cases"));
    if !cases.is_dir() {
        eprintln!("skipping: ../shared/samples/plan is absent");
        return;
    }
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_tofu-rs"));
    let mut names: Vec<_> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("err-"))
        .collect();
    names.sort();
    for name in names {
        let tmp = tempfile::TempDir::new().unwrap();
        let (a, b) = (tmp.path().join("tofu-rs"), tmp.path().join("terraform"));
        copy_dir(&cases.join(&name), &a);
        copy_dir(&cases.join(&name), &b);
        assert_eq!(graph(&ours, &a), graph(&tf, &b), "graph of {name}");
    }
}
