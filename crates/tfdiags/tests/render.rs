//! Snapshots of rendered diagnostics: the human box, the plain form and
//! the `validate -json` document.

use hclsyntax::SourceFile;
use std::sync::Arc;
use tfdiags::{
    format_diagnostic, format_diagnostic_plain, validate_json, Diagnostic, Diagnostics,
    ExpressionValue, SourceMap, DEFAULT_WIDTH,
};

const MAIN_TF: &str = r#"variable "region" {
  type = string
}

resource "aws_instance" "web" {
  ami = var.image
  tags = {
    Name = "web-${var.region}"
    Team = local.team
  }
}
"#;

fn setup() -> (SourceMap, Arc<SourceFile>) {
    let mut sources = SourceMap::new();
    let f = sources.add("main.tf", MAIN_TF);
    (sources, f)
}

/// The byte span of the `n`-th (0-based) occurrence of `needle`.
fn find(f: &SourceFile, needle: &str, n: usize) -> hclsyntax::Range {
    let start = f
        .text()
        .match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("{needle:?} not in source"))
        .0;
    f.range(start, start + needle.len())
}

fn visible_escapes(s: &str) -> String {
    s.replace('\x1b', "\\e")
}

#[test]
fn error_with_range() {
    let (sources, f) = setup();
    let d = Diagnostic::error(
        "Reference to undeclared input variable",
        "An input variable with the name \"image\" has not been declared. This variable can be declared with a variable \"image\" {} block.",
        find(&f, "var.image", 0),
    );
    insta::assert_snapshot!(format_diagnostic(&d, &sources, false, DEFAULT_WIDTH));
}

#[test]
fn error_with_range_plain() {
    let (sources, f) = setup();
    let d = Diagnostic::error(
        "Reference to undeclared input variable",
        "An input variable with the name \"image\" has not been declared. This variable can be declared with a variable \"image\" {} block.",
        find(&f, "var.image", 0),
    );
    insta::assert_snapshot!(format_diagnostic_plain(&d, &sources, DEFAULT_WIDTH));
}

#[test]
fn warning_with_address_and_values() {
    let (sources, f) = setup();
    let d = Diagnostic::warning(
        "Value derived from a deprecated source",
        "This value is derived from module.call.modout1, which is deprecated with the following message:\n\noutput deprecated",
        find(&f, "local.team", 0),
    )
    .with_address("aws_instance.web")
    .with_values(vec![
        ExpressionValue::new("var.region", "is \"eu-west-1\""),
        ExpressionValue::new("local.team", "is null"),
    ]);
    insta::assert_snapshot!(format_diagnostic(&d, &sources, false, DEFAULT_WIDTH));
}

#[test]
fn multi_line_subject() {
    let (sources, f) = setup();
    let open = find(&f, "{\n    Name", 0).start.offset();
    let close = find(&f, "  }\n}", 0).start.offset() + 3;
    let d = Diagnostic::error(
        "Incorrect attribute value type",
        "Inappropriate value for attribute \"tags\": map of string required.",
        f.range(open, close),
    );
    insta::assert_snapshot!(format_diagnostic(&d, &sources, false, DEFAULT_WIDTH));
}

#[test]
fn no_range() {
    let (sources, _) = setup();
    let d = Diagnostic::error_sourceless(
        "No configuration files",
        "Validation requires a configuration to validate.",
    );
    insta::assert_snapshot!(format_diagnostic(&d, &sources, false, DEFAULT_WIDTH));
}

#[test]
fn long_detail_wrapping() {
    let (sources, f) = setup();
    let d = Diagnostic::warning(
        "Argument is deprecated",
        "The argument has been deprecated since version 3 and will be removed in a future major version; use the replacement argument instead, which behaves the same in every respect.\n\n  an indented line is never wrapped even when it runs past the width of the terminal like this\nlast paragraph",
        find(&f, "ami", 0),
    );
    insta::assert_snapshot!(format_diagnostic(&d, &sources, false, 50));
}

#[test]
fn colour_on() {
    let (sources, f) = setup();
    let e = Diagnostic::error(
        "Invalid reference",
        "A reference to a resource type must be followed by at least one attribute access.",
        find(&f, "local.team", 0),
    );
    let w = Diagnostic::warning("Something to note", "Details.", find(&f, "region", 1));
    insta::assert_snapshot!(visible_escapes(&format!(
        "{}{}",
        format_diagnostic(&e, &sources, true, DEFAULT_WIDTH),
        format_diagnostic(&w, &sources, true, DEFAULT_WIDTH)
    )));
}

#[test]
fn validate_json_document() {
    let (sources, f) = setup();
    let empty_at = find(&f, "\n}\n\nresource", 0).start_range();
    let diags: Diagnostics = vec![
        Diagnostic::error(
            "Missing required argument",
            "The argument \"default\" is required, but no definition was found.",
            empty_at,
        ),
        Diagnostic::warning(
            "Quoted <type> & friends",
            "Detail with <html> & \"quotes\".",
            find(&f, "var.region", 0),
        )
        .with_address("aws_instance.web")
        .with_values(vec![
            ExpressionValue::new("var.region", "is \"x\""),
            ExpressionValue::new("local.a", "is a string, known only after apply"),
        ]),
        Diagnostic::error_sourceless("No range", ""),
    ]
    .into();
    insta::assert_snapshot!(validate_json(&diags, &sources));
}
