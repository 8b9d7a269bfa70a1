//! The shared expression sample (`/work/shared/samples/expr`): every public
//! case must pass by the sample's own rules (see its README). Skipped,
//! saying so, where the sample is not present.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn sample_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("EXPR_SAMPLE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/samples/expr"));
    dir.join("golden.jsonl").is_file().then_some(dir)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Runs `tofu-rs console` in a fresh copy of `context` with `expr` on stdin.
fn console(context: &Path, expr: &str) -> (i32, String, String) {
    let work = tempfile::tempdir().unwrap();
    copy_dir(context, work.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .arg("console")
        .current_dir(work.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tofu-rs");
    let mut stdin = child.stdin.take().unwrap();
    let input = format!("{expr}\n");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
// A skipped test says so on stderr.
#[allow(clippy::print_stderr)]
fn every_public_case_passes() {
    let Some(sample) = sample_dir() else {
        eprintln!("skipped: the expression sample (/work/shared/samples/expr or EXPR_SAMPLE_DIR) is not present");
        return;
    };
    let golden = std::fs::read_to_string(sample.join("golden.jsonl")).unwrap();
    let context = sample.join("context");
    let mut failures = Vec::new();
    let mut total = 0;
    for line in golden.lines().filter(|l| !l.trim().is_empty()) {
        total += 1;
        let case: serde_json::Value = serde_json::from_str(line).expect("golden line is JSON");
        let id = case["id"].as_str().unwrap_or_default();
        let expr = case["expr"].as_str().unwrap_or_default();
        let (code, stdout, stderr) = console(&context, expr);
        assert!(
            !stderr.contains("panicked at"),
            "{id}: {expr}: tofu-rs panicked:\n{stderr}"
        );
        if case["ok"].as_bool() == Some(true) {
            let want = case["out"].as_str().unwrap_or_default().trim_end();
            if code != 0 || stdout.trim_end() != want {
                failures.push(format!(
                    "{id}: {expr}\n  want: {want:?}\n  got (exit {code}): {:?} {}",
                    stdout.trim_end(),
                    stderr.trim()
                ));
            }
        } else if code <= 0 || code == 126 || code == 127 {
            failures.push(format!(
                "{id}: {expr}\n  want an error ({}), got exit {code}: {:?}",
                case["err_summary"].as_str().unwrap_or_default(),
                stdout.trim_end()
            ));
        }
    }
    assert!(total > 0, "no cases in golden.jsonl");
    assert!(
        failures.is_empty(),
        "{} of {total} sample case(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
