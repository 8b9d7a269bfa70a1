//! Bad input never panics and never overflows the stack: each of these gets
//! a diagnostic and exit status 1 from both `inspect` and `validate`.

use std::path::Path;
use std::process::Command;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run tofu-rs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `tofu-rs console` in `dir` with `input` on its standard input.
fn console(dir: &Path, input: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .arg("console")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            // The console may stop (on an error in the configuration)
            // before it reads its input: a broken pipe is its answer, not
            // a failure to run it.
            let _ = child
                .stdin
                .take()
                .expect("stdin piped")
                .write_all(input.as_bytes());
            child.wait_with_output()
        })
        .expect("run tofu-rs console")
}

/// Writes `content` as `main.tf` (or `name`) in a fresh directory and checks
/// that both commands report an error without crashing.
fn assert_rejected(name: &str, content: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), content).unwrap();
    for args in [&["validate"][..], &["inspect", "-json", "."][..]] {
        let (code, stdout, stderr) = run(dir.path(), args);
        assert!(
            !stderr.contains("panicked") && !matches!(code, 11 | 101) && code >= 0,
            "{name} {args:?}: crashed (exit {code}):\n{stderr}"
        );
        assert_eq!(
            code, 1,
            "{name} {args:?}: exit {code}\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
        let all = format!("{stdout}{stderr}");
        assert!(
            all.contains("Error") || all.contains("\"severity\": \"error\""),
            "{name} {args:?}: no diagnostic:\n{all}"
        );
    }
}

#[test]
fn truncated_files() {
    let full =
        "resource \"terraform_data\" \"a\" {\n  input = {\n    x = [1, 2, \"${var.y}\"]\n  }\n}\n";
    for cut in [10, 25, 40, 52, 60, full.len() - 3] {
        assert_rejected("main.tf", &full.as_bytes()[..cut]);
    }
    let json = "{\"resource\": {\"terraform_data\": {\"a\": {\"input\": [1, 2";
    assert_rejected("main.tf.json", json.as_bytes());
}

#[test]
fn binary_garbage() {
    let mut bytes = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..4096 {
        x = x.wrapping_mul(1103515245).wrapping_add(12345);
        bytes.push((x >> 16) as u8);
    }
    assert_rejected("main.tf", &bytes);
    assert_rejected("main.tf.json", &bytes);
}

#[test]
fn invalid_utf8() {
    assert_rejected(
        "main.tf",
        b"variable \"x\" {\n  default = \"\xff\xfe\"\n}\n",
    );
}

#[test]
fn deeply_nested_brackets() {
    let depth = 100_000;
    let native = format!(
        "locals {{\n  x = {}{}\n}}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert_rejected("main.tf", native.as_bytes());
    let json = format!(
        "{{\"locals\": {{\"x\": {}{}}}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert_rejected("main.tf.json", json.as_bytes());
}

#[test]
fn fifty_megabyte_file() {
    // 50 MB of valid blocks with one error at the very end.
    let block = "resource \"terraform_data\" \"r\" {\n  input = \"some text to make the block longer ${1 + 2}\"\n}\n";
    let mut text = String::with_capacity(50 * 1024 * 1024 + 100);
    let mut i = 0;
    while text.len() < 50 * 1024 * 1024 {
        text.push_str(&block.replace("\"r\"", &format!("\"r{i}\"")));
        i += 1;
    }
    text.push_str("resource \"terraform_data\" {\n");
    assert_rejected("main.tf", text.as_bytes());
}

/// Function calls that once aborted the whole process (issue 16): a
/// `uuidv5` namespace with a multi-byte character (the parser sliced inside
/// it) and a YAML document whose aliases expand to 9^9 leaves (printing or
/// walking the value needed gigabytes). Each is an error from `validate`,
/// `plan-lite` and `console`, with the reference's message.
#[test]
fn function_inputs_that_aborted() {
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..=9 {
        let p = i - 1;
        let refs = vec![format!("*a{p}"); 9].join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let cases = [
        (
            format!("uuidv5(\"é{}\", \"x\")", "a".repeat(36)),
            "(invalid UUID format)",
        ),
        (
            "yamldecode(file(\"bomb.yaml\"))".to_string(),
            "yaml: document contains excessive aliasing",
        ),
    ];
    for (expr, want) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bomb.yaml"), &bomb).unwrap();
        std::fs::write(
            dir.path().join("main.tf"),
            format!("output \"o\" {{\n  value = {expr}\n}}\n"),
        )
        .unwrap();
        for args in [&["validate"][..], &["plan-lite"][..]] {
            let (code, _, stderr) = run(dir.path(), args);
            assert_eq!(code, 1, "{expr} {args:?}:\n{stderr}");
            assert!(flat(&stderr).contains(want), "{expr} {args:?}:\n{stderr}");
        }
        let out = console(dir.path(), &expr);
        let stderr = flat(&String::from_utf8_lossy(&out.stderr));
        assert!(
            out.status.code().is_some(),
            "{expr}: console died of a signal"
        );
        assert!(stderr.contains(want), "{expr}: console:\n{stderr}");
    }
}

/// A diagnostic's words on one line: the box's borders and line breaks
/// removed.
fn flat(text: &str) -> String {
    text.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A value nested as deep as `jsondecode` allows (10,000 levels) renders in
/// `console`, and a deep one in the plan, in time linear in what is printed:
/// each level once wrote its child into a string of its own and copied it
/// into its parent, which took minutes at 4,000 levels.
#[test]
fn deep_values_render() {
    let dir = tempfile::tempdir().unwrap();
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    std::fs::write(dir.path().join("deep.json"), deep(9_999)).unwrap();
    std::fs::write(dir.path().join("plan.json"), deep(1_500)).unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        "output \"o\" {\n  value = jsondecode(file(\"plan.json\"))\n}\n",
    )
    .unwrap();
    let out = console(dir.path(), "jsondecode(file(\"deep.json\"))\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * 9_999 - 1);
    assert_eq!(lines[9_998].trim(), "[],");
    assert_eq!(lines[9_998].len(), 2 * 9_998 + 3);

    let (code, stdout, stderr) = run(dir.path(), &["plan-lite"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Changes to Outputs:"), "{stderr}");
    assert_eq!(stdout.matches("[]").count(), 1);
}
