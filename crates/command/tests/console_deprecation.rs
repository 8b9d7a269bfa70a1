//! The console never shows a deprecation mark: whatever a deprecated
//! module output goes through, what `tofu-rs console` prints for a typed
//! expression is exactly what it prints for the same module without
//! `deprecated` (OpenTofu's REPL turns no mark into a warning either).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use proptest::prelude::*;

fn child(deprecated: bool) -> String {
    let dep = |msg: &str| {
        if deprecated {
            format!("  deprecated = \"{msg}\"\n")
        } else {
            String::new()
        }
    };
    format!(
        "output \"dep\" {{\n  value = \"x\"\n{}}}\noutput \"ok\" {{\n  value = \"y\"\n}}\noutput \"obj\" {{\n  value = {{ a = \"1\", b = [2, 3] }}\n  sensitive = true\n{}}}\n",
        dep("dep is going away"),
        dep("obj is going away")
    )
}

const ROOT: &str = r#"module "m" {
  source = "./child"
}
module "c" {
  source = "./child"
  count  = 2
}
locals {
  l = module.m.dep
}
"#;

fn run(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn workdir(deprecated: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("child")).unwrap();
    std::fs::write(dir.path().join("main.tf"), ROOT).unwrap();
    std::fs::write(dir.path().join("child/main.tf"), child(deprecated)).unwrap();
    let (code, out, err) = run(dir.path(), &["init", "-backend=false", "-input=false"], "");
    assert_eq!(code, 0, "{out}\n{err}");
    dir
}

/// Console expressions over deprecated and plain outputs, through the
/// operations that carry marks.
fn expr_strategy() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("module.m.dep".to_string()),
        Just("module.m.ok".to_string()),
        Just("nonsensitive(module.m.obj)".to_string()),
        Just("module.m.obj".to_string()),
        Just("module.c[1].dep".to_string()),
        Just("local.l".to_string()),
        Just("\"lit\"".to_string()),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| format!("[{}]", v.join(", "))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{ k = {a}, l = {b} }}")),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(module.m.dep == \"x\" ? {a} : {b})")),
            inner.clone().prop_map(|a| format!("jsonencode({a})")),
            inner
                .clone()
                .prop_map(|a| format!("\"pre-${{jsonencode({a})}}\"")),
            inner.clone().prop_map(|a| format!("[for x in [{a}] : x]")),
            inner.clone().prop_map(|a| format!("try({a}, null)")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn deprecation_changes_nothing_the_console_prints(
        exprs in prop::collection::vec(expr_strategy(), 12..24)
    ) {
        let deprecated = workdir(true);
        let plain = workdir(false);
        // One expression a line; a failing one ends the session, so each
        // runs on its own after the batch.
        let input = format!("{}\n", exprs.join("\n"));
        let with = run(deprecated.path(), &["console"], &input);
        let without = run(plain.path(), &["console"], &input);
        // What the expressions print (stdout) and how the session ends.
        // stderr is left out: it holds what the evaluation of the whole
        // configuration reported at start-up, not the typed expressions.
        prop_assert_eq!((with.0, &with.1), (without.0, &without.1));
        prop_assert!(!with.1.contains("deprecat"), "{}", with.1);
    }
}
