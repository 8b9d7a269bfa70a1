//! `tofu-rs console` against `terraform console`: each expression in
//! `tests/console/differential.txt` (one a line, `#` comments) is
//! evaluated by both in the configuration of `tests/console/context/`;
//! both must succeed with the same output or both fail with the same
//! summary. Skipped, saying so, when `terraform` is not on PATH
//! (`TERRAFORM=path` picks another binary).
//!
//! Where OpenTofu and Terraform differ on purpose (`tofu.workspace`,
//! OpenTofu's own wording), the expressions are left out of the list.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod support;
use support::terraform;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/console")
}

/// Runs `program console` in `dir` with `expr` on stdin.
fn run(program: &Path, dir: &Path, expr: &str) -> (bool, String, String) {
    let mut child = Command::new(program)
        .arg("console")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run console");
    let mut stdin = child.stdin.take().unwrap();
    let input = format!("{expr}\n");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim_end().to_string(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The first `Error: ...` line, without box drawing or colour.
fn summary(stderr: &str) -> String {
    let mut plain = String::new();
    let mut chars = stderr.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
        .lines()
        .map(|l| l.trim_start_matches(['│', ' ']))
        .find(|l| l.starts_with("Error: "))
        .unwrap_or_default()
        .to_string()
}

/// A description of the difference, if the two consoles disagree on `expr`.
fn compare(terraform: &Path, ours: &Path, context: &Path, expr: &str) -> Option<String> {
    let want = run(terraform, context, expr);
    let got = run(ours, context, expr);
    let same = match (want.0, got.0) {
        (true, true) => want.1 == got.1,
        (false, false) => summary(&want.2) == summary(&got.2),
        _ => false,
    };
    let show = |r: &(bool, String, String)| {
        if r.0 {
            format!("(ok) {}", r.1)
        } else {
            format!("(error) {}", summary(&r.2))
        }
    };
    (!same).then(|| {
        format!(
            "{expr}\n  terraform {}\n  tofu-rs   {}",
            show(&want),
            show(&got)
        )
    })
}

#[test]
// A skipped test says so on stderr.
#[allow(clippy::print_stderr)]
fn same_as_terraform_console() {
    let Some(terraform) = terraform() else {
        eprintln!("skipped: `terraform` is not on PATH (set TERRAFORM=path to run this test)");
        return;
    };
    let dir = data_dir();
    let context = dir.join("context");
    let list = std::fs::read_to_string(dir.join("differential.txt")).unwrap();
    let ours = Path::new(env!("CARGO_BIN_EXE_tofu-rs"));
    let exprs: Vec<&str> = list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let n = exprs.len();
    // Each expression is two process runs; a few at a time.
    let chunk = n.div_ceil(4).max(1);
    let mut failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = exprs
            .chunks(chunk)
            .map(|part| {
                let (terraform, context) = (&terraform, &context);
                s.spawn(move || {
                    // terraform takes a state lock in its working directory:
                    // one copy of the context per thread.
                    let work = tempfile::tempdir().expect("temporary directory");
                    std::fs::copy(context.join("main.tf"), work.path().join("main.tf"))
                        .expect("copy the context");
                    part.iter()
                        .filter_map(|expr| compare(terraform, ours, work.path(), expr))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("comparison thread"))
            .collect()
    });
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} of {n} expression(s) differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
