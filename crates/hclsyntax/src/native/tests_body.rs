//! File-level tests: bodies, blocks, attributes, their ranges, HCL's
//! structural errors, and inputs that must not crash the parser.

use super::tests::sx;
use super::*;
use crate::body::BodySyntax;

fn parse(src: &str) -> (Body, Diagnostics) {
    parse_body(&SourceFile::new("main.tf", src))
}

fn parts(body: &Body) -> (&[Arc<crate::Attribute>], &[Arc<crate::Block>]) {
    match &*body.syntax {
        BodySyntax::Native { attributes, blocks } => (attributes, blocks),
        BodySyntax::Json(_) => panic!("native body expected"),
    }
}

/// The body as indented text: items with their ranges and expressions.
fn outline(body: &Body, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    let (attrs, blocks) = parts(body);
    out.push_str(&format!(
        "{pad}body {} missing {}\n",
        body.range, body.missing_item_range
    ));
    for a in attrs {
        out.push_str(&format!(
            "{pad}  {} [{} / {}] = {} [{}]\n",
            a.name,
            a.name_range,
            a.range,
            sx(&a.expr),
            a.expr.range
        ));
    }
    for b in blocks {
        let labels: Vec<String> = b
            .labels
            .iter()
            .map(|l| format!("{:?}[{}]", l.value, l.range))
            .collect();
        out.push_str(&format!(
            "{pad}  block {} [{}] {} open {} close {}\n",
            b.type_name,
            b.type_range,
            labels.join(" "),
            b.open_brace_range,
            b.close_brace_range
        ));
        outline(&b.body, indent + 4, out);
    }
}

fn errors(src: &str) -> Vec<String> {
    let (_, diags) = parse(src);
    diags
        .iter()
        .map(|d| {
            format!(
                "{} @ {}",
                d.summary,
                d.subject
                    .as_ref()
                    .map(|r| r.to_string())
                    .unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn native_body_outline() {
    let src = r#"# comment
variable "region" {
  type    = string
  default = "eu-west-1" // trailing
}

resource "aws_instance" web {
  count = 2
  tags = {
    Name = "web-${count.index}"
  }
  lifecycle { create_before_destroy = true }

  dynamic "ebs" {
    for_each = var.disks
    content {}
  }
}

locals {
  user_data = <<-EOT
    #!/bin/sh
    echo hi
  EOT
  list = [
    1, 2, # two
    3,
  ]
}
"#;
    let (body, diags) = parse(src);
    assert!(diags.is_empty(), "{diags:#?}");
    let mut out = String::new();
    outline(&body, 0, &mut out);
    insta::assert_snapshot!(out);
}

#[test]
fn native_body_ranges() {
    let (body, diags) = parse("a = 1\nblk \"x\" {\n  b = 2\n}\n");
    assert!(diags.is_empty());
    assert_eq!(body.range.to_string(), "main.tf:1,1-5,1");
    assert_eq!(body.missing_item_range.to_string(), "main.tf:1,1-1");
    let (attrs, blocks) = parts(&body);
    assert_eq!(attrs[0].range.to_string(), "main.tf:1,1-6");
    assert_eq!(attrs[0].name_range.to_string(), "main.tf:1,1-2");
    let blk = &blocks[0];
    assert_eq!(blk.def_range().to_string(), "main.tf:2,1-8");
    assert_eq!(blk.body.range.to_string(), "main.tf:2,9-4,2");
    // HCL's MissingItemRange: empty, at the start of the body (the brace).
    assert_eq!(blk.body.missing_item_range.to_string(), "main.tf:2,9-9");
    let (inner, _) = parts(&blk.body);
    assert_eq!(inner[0].range.to_string(), "main.tf:3,3-8");
    assert_eq!(inner[0].expr.range.to_string(), "main.tf:3,7-8");
}

#[test]
fn native_body_gaps() {
    // UTF-8 BOM: accepted, byte offsets still refer to the file.
    let (body, diags) = parse("\u{feff}a = 1\n");
    assert!(diags.is_empty());
    let (attrs, _) = parts(&body);
    assert_eq!(attrs[0].name_range.start.byte, 3);
    assert_eq!(attrs[0].name_range.start.column, 1);
    assert_eq!(attrs[0].expr.range.start.byte, 7);
    // 70 nested lists, 200 chained operators, duplicate object keys.
    let deep = format!("a = {}1{}\n", "[".repeat(70), "]".repeat(70));
    assert!(parse(&deep).1.is_empty());
    let chain = format!("a = {}\n", vec!["1"; 201].join(" + "));
    assert!(parse(&chain).1.is_empty());
    let (body, diags) = parse("a = { x = 1, x = 2 }\n");
    assert!(diags.is_empty());
    assert_eq!(sx(&parts(&body).0[0].expr), "{x=1 x=2}");
}

#[test]
fn native_body_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "a = 1 b = 2\n",
            "Missing newline after argument @ main.tf:1,7-8",
        ),
        (
            "a = 1, b = 2\n",
            "Unexpected comma after argument @ main.tf:1,6-7",
        ),
        (
            "variable \"x\" { default = 1, type = string }\n",
            "Invalid single-argument block definition @ main.tf:1,27-28",
        ),
        (
            "b { x = 1\n}\n",
            "Invalid single-argument block definition @ main.tf:1,10-2,1",
        ),
        (
            "b { c {} }\n",
            "Argument definition required @ main.tf:1,5-8",
        ),
        ("b {\n", "Unclosed configuration block @ main.tf:1,3-4"),
        (
            "}\n",
            "Argument or block definition required @ main.tf:1,1-2",
        ),
        (
            "a\n",
            "Argument or block definition required @ main.tf:1,1-2",
        ),
        ("\"a\" = 1\n", "Invalid argument name @ main.tf:1,1-2"),
        ("b = {\n", "Missing expression @ main.tf:2,1-1"),
        ("b \"x\" = {}\n", "Invalid block definition @ main.tf:1,7-8"),
        (
            "b \"x\"\n{}\n",
            "Invalid block definition @ main.tf:1,6-2,1",
        ),
        (
            "b {} c = 1\n",
            "Missing newline after block definition @ main.tf:1,6-7",
        ),
        ("b \"${x}\" {}\n", "Invalid string literal @ main.tf:1,4-6"),
        ("a = \"\\b\"\n", "Invalid escape sequence @ main.tf:1,6-8"),
        ("a = 1;\n", "Invalid character @ main.tf:1,6-7"),
        (
            "a = \"${b c}\"\n",
            "Extra characters after interpolation expression @ main.tf:1,10-11",
        ),
        (
            "a = <<EOT\nx\n",
            "Unterminated template string @ main.tf:3,1-1",
        ),
    ];
    let mut failures = Vec::new();
    for (src, want) in cases {
        let got = errors(src);
        if got.first().map(String::as_str) != Some(*want) {
            failures.push(format!("{src:?}\n   got: {got:?}\n  want: {want}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn native_attribute_redefined() {
    let (body, diags) = parse("a = 1\na = 2\n");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Attribute redefined");
    assert_eq!(
        diags[0].detail,
        "The argument \"a\" was already set at main.tf:1,1-2. Each argument may be set only once."
    );
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "main.tf:2,1-2"
    );
    // The first definition is kept.
    assert_eq!(sx(&parts(&body).0[0].expr), "1");
}

#[test]
fn native_recovery_reports_later_items() {
    // HCL recovers after a bad item and keeps parsing the rest.
    let (body, diags) = parse("a = = 1\nb = 2\nc {\n}\n");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let (attrs, blocks) = parts(&body);
    assert_eq!(
        attrs.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(blocks.len(), 1);
}

#[test]
fn native_hostile_input_never_crashes() {
    let mut inputs: Vec<String> = vec![
        format!("a = {}", "[".repeat(100_000)),
        format!("a = {}", "{".repeat(100_000)),
        "b {\n".repeat(5_000),
        format!("a = \"{}", "${\"".repeat(20_000)),
        format!("a = {}", "(".repeat(100_000)),
        format!("a = {}", "-".repeat(100_000)),
        format!("a = x{}", "[0]".repeat(50_000)),
        format!("a = x{}", ".*".repeat(50_000)),
        format!("a = <<EOT\n{}", "%{if x}".repeat(20_000)),
    ];
    // Binary garbage that is still valid UTF-8.
    let garbage: String = (0u32..3000)
        .map(|i| char::from_u32((i * 7919) % 0x2FFF).unwrap_or('\u{1}'))
        .collect();
    inputs.push(garbage);
    // Truncations of a real file at every byte.
    let full = "resource \"a\" \"b\" {\n  x = [for k, v in m : \"${k}=${v}\" if v != null]\n  y = <<-EOT\n    z\n  EOT\n  w = f(1, 2...)\n}\n";
    for i in 0..full.len() {
        if full.is_char_boundary(i) {
            inputs.push(full[..i].to_string());
        }
    }
    for src in &inputs {
        // Like HCL, every unclosed `%{if}` reports its own error, so the
        // count is bounded by the nesting limit rather than small.
        let (_, diags) = parse(src);
        assert!(diags.len() <= 2 * MAX_NESTING_DEPTH + 10, "{}", diags.len());
    }
    assert!(crate::has_errors(&parse(&inputs[0]).1));
}

#[test]
fn native_large_file_is_linear() {
    // A 1 MB single-line value and many blocks: no quadratic position work.
    let long = format!("a = [{}]\n", vec!["\"x-y\""; 150_000].join(","));
    let blocks = "resource \"a\" \"b\" {\n  x = var.y[0].z\n  t = \"${a}-b\"\n}\n".repeat(10_000);
    for src in [long, blocks] {
        let t = std::time::Instant::now();
        let (_, diags) = parse(&src);
        assert!(diags.is_empty());
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    }
}
