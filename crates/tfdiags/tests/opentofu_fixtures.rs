//! Checks against OpenTofu's own expected outputs in the shared corpus
//! (`/work/shared/corpus/opentofu`); skipped when the corpus is absent.

use std::path::{Path, PathBuf};

use hclsyntax::{BodySchema, Pos, Range};
use serde_json::Value;
use tfdiags::{
    diagnostic_json, render_diagnostics, validate_json, DeprecationCause, Diagnostic, Diagnostics,
    Severity, SourceMap, ViewOptions,
};

const CORPUS: &str = "/work/shared/corpus/opentofu";

fn corpus() -> Option<PathBuf> {
    let p = Path::new(CORPUS);
    p.is_dir().then(|| p.to_path_buf())
}

/// `internal/command` is the working directory of the validate tests; the
/// expected documents name files relative to it.
fn command_dir() -> Option<PathBuf> {
    corpus().map(|c| c.join("internal/command"))
}

fn load(
    sources: &mut SourceMap,
    dir: &Path,
    filename: &str,
) -> std::sync::Arc<hclsyntax::SourceFile> {
    let text = std::fs::read_to_string(dir.join(filename)).expect("fixture file readable");
    sources.add(filename, text)
}

/// While `hclsyntax`'s native parser is a placeholder, the parse-based
/// checks have nothing to work on.
fn parser_missing(diags: &[hclsyntax::Diagnostic]) -> bool {
    diags
        .iter()
        .any(|d| d.summary == "Native syntax parser missing")
}

fn pos(v: &Value) -> Pos {
    Pos {
        line: v["line"].as_u64().unwrap() as u32,
        column: v["column"].as_u64().unwrap() as u32,
        byte: v["byte"].as_u64().unwrap() as u32,
    }
}

/// Every diagnostic of every `validate-invalid/**/output.json`, rebuilt
/// from its summary, detail and range, renders to the same JSON (so the
/// snippet's context, code and offsets match).
#[test]
fn validate_invalid_snippets_match() {
    let Some(dir) = command_dir() else { return };
    let mut checked = 0;
    let mut outputs = Vec::new();
    let root = dir.join("testdata/validate-invalid");
    outputs.push(root.join("output.json"));
    for entry in std::fs::read_dir(&root).unwrap() {
        let p = entry.unwrap().path().join("output.json");
        if p.is_file() {
            outputs.push(p);
        }
    }
    for output in outputs {
        let want: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
        for expected in want["diagnostics"].as_array().unwrap() {
            let severity = match expected["severity"].as_str().unwrap() {
                "error" => Severity::Error,
                _ => Severity::Warning,
            };
            let mut sources = SourceMap::new();
            let subject = expected.get("range").map(|r| {
                let filename = r["filename"].as_str().unwrap();
                load(&mut sources, &dir, filename);
                Range::new(filename.into(), pos(&r["start"]), pos(&r["end"]))
            });
            let d = Diagnostic::new(
                severity,
                expected["summary"].as_str().unwrap(),
                expected["detail"].as_str().unwrap(),
                subject,
            );
            assert_eq!(
                &diagnostic_json(&d, &sources),
                expected,
                "{}",
                output.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} diagnostics checked");
}

/// Parses `validate-invalid/main.tf`, decodes it as a configuration file
/// and reproduces the whole expected `validate -json` document.
#[test]
fn unsupported_block_type_document() {
    let Some(dir) = command_dir() else { return };
    let filename = "testdata/validate-invalid/main.tf";
    let mut sources = SourceMap::new();
    let file = load(&mut sources, &dir, filename);
    let (parsed, parse_diags) = hclsyntax::parse_file(filename, file.text().as_bytes());
    if parser_missing(&parse_diags) {
        return;
    }
    assert!(parse_diags.is_empty(), "{parse_diags:?}");
    let schema = BodySchema::new(
        &[],
        &[
            ("terraform", &[]),
            ("provider", &["name"]),
            ("variable", &["name"]),
            ("locals", &[]),
            ("output", &["name"]),
            ("module", &["name"]),
            ("resource", &["type", "name"]),
            ("data", &["type", "name"]),
            ("moved", &[]),
            ("import", &[]),
            ("check", &["name"]),
            ("removed", &[]),
        ],
    );
    let (_, diags) = parsed.body.content(&schema);
    let diags: Diagnostics = diags.into();
    let want = std::fs::read_to_string(dir.join("testdata/validate-invalid/output.json")).unwrap();
    assert_eq!(validate_json(&diags, &sources), want);
}

/// The duplicate module call: a block-header subject at column 1 has no
/// context (`"context": null`).
#[test]
fn duplicate_module_document() {
    let Some(dir) = command_dir() else { return };
    let filename = "testdata/validate-invalid/multiple_modules/main.tf";
    let mut sources = SourceMap::new();
    let file = load(&mut sources, &dir, filename);
    let (parsed, parse_diags) = hclsyntax::parse_file(filename, file.text().as_bytes());
    if parser_missing(&parse_diags) {
        return;
    }
    let schema = BodySchema::new(&[], &[("module", &["name"])]);
    let (content, _) = parsed.body.content(&schema);
    let first = &content.blocks[0];
    let second = &content.blocks[1];
    let d = Diagnostic::error(
        "Duplicate module call",
        format!(
            "A module call named {:?} was already defined at {}. Module calls must have unique names within a module.",
            first.labels[0].value,
            first.def_range()
        ),
        second.def_range(),
    );
    let want =
        std::fs::read_to_string(dir.join("testdata/validate-invalid/multiple_modules/output.json"))
            .unwrap();
    assert_eq!(validate_json(&d.into(), &sources), want);
}

/// The human view of `e2etest/testdata/consolidated-warnings-for-deprecated-marks`:
/// sorted, duplicates dropped, same-source warnings consolidated, boxes
/// with escape codes stripped, exactly as the Go e2e test expects.
#[test]
fn consolidated_deprecation_warnings_box() {
    let Some(root) = corpus() else { return };
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("MANIFEST.json")).unwrap())
            .unwrap();
    let case = manifest
        .as_array()
        .unwrap()
        .iter()
        .find(|e| {
            e["path"]
                == "internal/command/e2etest/testdata/consolidated-warnings-for-deprecated-marks"
        })
        .expect("fixture in manifest");
    let expected = case["expected_stdout"].as_str().unwrap();
    let expected = expected
        .strip_prefix("No changes. Your infrastructure matches the configuration.\n")
        .unwrap_or(expected);

    let dir =
        root.join("internal/command/e2etest/testdata/consolidated-warnings-for-deprecated-marks");
    let mut sources = SourceMap::new();
    let main = load(&mut sources, &dir, "main.tf");
    let text = main.text().to_owned();
    // The range of `needle` after the `nth` occurrence of `anchor`.
    let at = |anchor: &str, nth: usize, needle: &str| {
        let a = text.match_indices(anchor).nth(nth).unwrap().0;
        let s = a + text[a..].find(needle).unwrap();
        main.range(s, s + needle.len())
    };
    let cause = |module: &str, subject: &str, message: &str| DeprecationCause {
        module: module.into(),
        subject: subject.into(),
        message: message.into(),
        module_source: Some("./mod1".into()),
    };
    let var_warning = |call: &str, name: &str, value: &str, msg: &str| {
        Diagnostic::warning(
            "Variable marked as deprecated by the module author",
            format!(
                "Variable \"{name}\" is marked as deprecated with the following message:\n{msg}"
            ),
            at(&format!("module \"{call}\""), 0, value),
        )
        .with_deprecation(cause(&format!("module.{call}"), name, msg))
    };
    let out_warning = |local: &str, call: &str, output: &str| {
        let expr = format!("module.{call}.{output}");
        Diagnostic::warning(
            "Value derived from a deprecated source",
            format!(
                "This value is derived from {expr}, which is deprecated with the following message:\n\noutput deprecated"
            ),
            at(&format!("  {local} = "), 0, &expr),
        )
        .with_deprecation(cause(&format!("module.{call}"), output, "output deprecated"))
    };
    // Deliberately out of order: the view sorts.
    let diags: Diagnostics = vec![
        out_warning("i6", "call", "modout2"),
        out_warning("i1", "call", "modout1"),
        out_warning("i2", "call", "modout2"),
        out_warning("i3", "second_call", "modout1"),
        out_warning("i4", "second_call", "modout2"),
        out_warning("i5", "call", "modout1"),
        var_warning(
            "second_call",
            "input",
            "\"test\"",
            "this is local deprecated",
        ),
        var_warning("call", "input", "\"test\"", "this is local deprecated"),
        var_warning("call", "input2", "\"test2\"", "this is local deprecated2"),
        var_warning(
            "second_call",
            "input2",
            "\"test2\"",
            "this is local deprecated2",
        ),
    ]
    .into();
    let messages = render_diagnostics(&diags, &sources, &ViewOptions::default(), &|_| true);
    let got: String = messages
        .iter()
        .map(|m| tfdiags::strip_ansi(&m.text))
        .collect();
    assert_eq!(got.trim(), expected.trim());
}
