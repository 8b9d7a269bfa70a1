//! End-to-end fixtures: every folder under `tests/e2e/` is one case.
//!
//! A case holds `args` (one argument per line), `in/` (the working
//! directory, copied to a temporary directory before the run) and the
//! expectations beside them: `stdout`, `stderr` (absent = empty) and `exit`
//! (absent = 0). An optional `stdin` file is fed to the binary's standard
//! input (absent = empty input). Files under an optional `expect/` folder
//! must exist with the same bytes, at the same relative paths, in the
//! working directory after the run (`expect/.terraform/terraform.tfstate`),
//! and a path listed in an optional `absent` file must not exist. The binary runs with `NO_COLOR=1` and no
//! `TF_*` or `AWS_*` variables (the caller's AWS credentials must not
//! change what a case prints), plus the `NAME=VALUE` lines of an optional
//! `env` file; a relative path there is relative to the working directory.
//! An optional `plugins` file installs provider plugins first: each line
//! `TYPE PROTOCOL SCHEMA` serves the schema file SCHEMA (relative to the
//! case) as the provider `tofu-rs/TYPE` over PROTOCOL with the project's
//! test provider, and `init -plugin-dir` runs in the working directory
//! before the case's command (its output is not compared). Every case gets
//! an empty schema cache of its own.
//! `E2E_UPDATE=1 cargo test --test e2e` rewrites the expectations from what
//! the binary printed; review the diff like code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod support;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn read_or_empty(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Runs one case; returns a description of each mismatch.
fn run_case(case: &Path, update: bool) -> Vec<String> {
    let args: Vec<String> = read_or_empty(&case.join("args"))
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let work = tempfile::tempdir().unwrap();
    if case.join("in").is_dir() {
        copy_dir(&case.join("in"), work.path());
    }
    let aside = tempfile::tempdir().unwrap();
    let command = |args: &[String]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tofu-rs"));
        cmd.args(args)
            .current_dir(work.path())
            .env("NO_COLOR", "1")
            .env(
                "TOFU_RS_SCHEMA_CACHE_DIR",
                aside.path().join("schema-cache"),
            );
        for (k, _) in std::env::vars() {
            if k.starts_with("TF_") || k.starts_with("AWS_") {
                cmd.env_remove(k);
            }
        }
        cmd
    };
    let plugins = read_or_empty(&case.join("plugins"));
    if !plugins.trim().is_empty() {
        let mut dir = None;
        for line in plugins.lines().filter(|l| !l.trim().is_empty()) {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let [type_name, protocol, schema] = parts[..] else {
                panic!("{}: bad plugins line {line:?}", case.display());
            };
            let protocol = protocol.parse().expect("protocol 5 or 6");
            dir = Some(support::testprovider::plugin_dir(
                aside.path(),
                type_name,
                &case.join(schema),
                protocol,
            ));
        }
        let dir = dir.expect("a plugin");
        let init = command(&[
            "init".into(),
            "-input=false".into(),
            format!("-plugin-dir={}", dir.display()),
        ])
        .output()
        .unwrap();
        assert!(
            init.status.success(),
            "{}: init with plugins failed:\n{}",
            case.display(),
            String::from_utf8_lossy(&init.stderr)
        );
    }
    let mut cmd = command(&args);
    for line in read_or_empty(&case.join("env")).lines() {
        if let Some((k, v)) = line.split_once('=') {
            cmd.env(k, v);
        }
    }
    let stdin = std::fs::read(case.join("stdin")).unwrap_or_default();
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run tofu-rs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // Written from a thread so that a child that stops reading cannot
    // block the harness; a closed pipe is the child's business.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wait for tofu-rs");
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let exit = out.status.code().unwrap_or(-1);
    assert!(
        !stderr.contains("panicked"),
        "{}: tofu-rs panicked:\n{stderr}",
        case.display()
    );

    let mut expected_files = Vec::new();
    if case.join("expect").is_dir() {
        collect_files(&case.join("expect"), Path::new(""), &mut expected_files);
    }
    if update {
        for rel in &expected_files {
            if let Ok(bytes) = std::fs::read(work.path().join(rel)) {
                std::fs::write(case.join("expect").join(rel), bytes).unwrap();
            }
        }
        let write = |name: &str, text: &str, default: &str| {
            let p = case.join(name);
            if text == default {
                let _ = std::fs::remove_file(p);
            } else {
                std::fs::write(p, text).unwrap();
            }
        };
        write("stdout", &stdout, "");
        write("stderr", &stderr, "");
        write("exit", &format!("{exit}\n"), "0\n");
        return Vec::new();
    }
    let mut problems = Vec::new();
    let want_exit: i32 = read_or_empty(&case.join("exit"))
        .trim()
        .parse()
        .unwrap_or(0);
    if exit != want_exit {
        problems.push(format!("exit status {exit}, expected {want_exit}"));
    }
    for (name, got) in [("stdout", &stdout), ("stderr", &stderr)] {
        let want = read_or_empty(&case.join(name));
        if *got != want {
            problems.push(format!(
                "{name} differs\n--- expected\n{want}\n--- got\n{got}"
            ));
        }
    }
    for rel in &expected_files {
        let want = read_or_empty(&case.join("expect").join(rel));
        match std::fs::read_to_string(work.path().join(rel)) {
            Ok(got) if got == want => {}
            Ok(got) => problems.push(format!(
                "{} differs\n--- expected\n{want}\n--- got\n{got}",
                rel.display()
            )),
            Err(_) => problems.push(format!("{} was not written", rel.display())),
        }
    }
    for rel in read_or_empty(&case.join("absent")).lines() {
        if !rel.is_empty() && work.path().join(rel).exists() {
            problems.push(format!("{rel} exists after the run"));
        }
    }
    problems
}

/// Every file below `dir`, as paths relative to it (prefixed by `rel`).
fn collect_files(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let r = rel.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            collect_files(&entry.path(), &r, out);
        } else {
            out.push(r);
        }
    }
}

#[test]
fn e2e_fixtures() {
    let update = std::env::var_os("E2E_UPDATE").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("tests/e2e exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("args").is_file())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no e2e cases found");
    let mut failures = Vec::new();
    for case in &cases {
        for p in run_case(case, update) {
            failures.push(format!(
                "{}: {p}",
                case.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} e2e problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
