//! Tests of the JSON syntax: parsing, body decoding, expressions, and the
//! OpenTofu configuration fixtures when the shared corpus is present.

use super::*;
use crate::ast::{ExprKind, Literal};
use crate::body::BodySchema;
use crate::diagnostic::Diagnostic;

pub(super) fn src(text: &str) -> SourceFile {
    SourceFile::new("t.tf.json", text)
}

pub(super) fn parse_text(text: &str) -> (Body, Diagnostics) {
    parse(&src(text))
}

pub(super) fn node_of(text: &str) -> (Option<JsonNode>, Diagnostics) {
    parse_value(&src(text))
}

pub(super) fn summaries(diags: &[Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.summary.as_str()).collect()
}

pub(super) fn root(body: &Body) -> &JsonNode {
    match &*body.syntax {
        crate::body::BodySyntax::Json(nodes) => &nodes[0],
        _ => panic!("not a JSON body"),
    }
}

pub(super) fn props(node: &JsonNode) -> &[crate::ast::JsonProperty] {
    match &node.value {
        JsonValue::Object(p) => p,
        v => panic!("not an object: {v:?}"),
    }
}

// ---- parsing -------------------------------------------------------------

#[test]
fn ranges_of_values_and_names() {
    let (body, diags) = parse_text("{\n  \"a\": [1, \"é\"],\n  \"b\": {\"c\": null}\n}\n");
    assert!(diags.is_empty(), "{diags:?}");
    let r = root(&body);
    assert_eq!(r.range.to_string(), "t.tf.json:1,1-4,2");
    assert_eq!(body.missing_item_range.to_string(), "t.tf.json:4,1-2");
    let p = props(r);
    assert_eq!(p[0].name, "a");
    assert_eq!(p[0].name_range.to_string(), "t.tf.json:2,3-6");
    assert_eq!(p[0].name_range.start.byte, 4);
    assert_eq!(p[0].value.range.to_string(), "t.tf.json:2,8-16");
    let JsonValue::Array(items) = &p[0].value.value else {
        panic!()
    };
    assert_eq!(items[0].value, JsonValue::Number("1".into()));
    assert_eq!(items[1].value, JsonValue::String("é".into()));
    // "é" is 4 bytes with its quotes but 3 columns.
    assert_eq!(items[1].range.to_string(), "t.tf.json:2,12-15");
    assert_eq!(items[1].range.end.byte - items[1].range.start.byte, 4);
    let inner = props(&p[1].value);
    assert_eq!(inner[0].value.value, JsonValue::Null);
    assert_eq!(inner[0].value.range.to_string(), "t.tf.json:3,14-18");
}

#[test]
fn duplicates_kept_in_source_order() {
    let (node, diags) = node_of(r#"{"b": 1, "a": 2, "b": 3}"#);
    assert!(diags.is_empty());
    let node = node.unwrap();
    let names: Vec<_> = props(&node).iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["b", "a", "b"]);
}

#[test]
fn numbers_kept_as_written() {
    let (node, diags) = node_of("[1.50, -0, 1e3, 3.14159265359, 12345678901234567890123]");
    assert!(diags.is_empty());
    let JsonValue::Array(items) = node.unwrap().value else {
        panic!()
    };
    let texts: Vec<_> = items
        .iter()
        .map(|n| match &n.value {
            JsonValue::Number(s) => s.as_str(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        texts,
        [
            "1.50",
            "-0",
            "1e3",
            "3.14159265359",
            "12345678901234567890123"
        ]
    );
}

#[test]
fn string_escapes_decoded() {
    let (node, diags) = node_of(r#"{"k\u0041\n": "\"${a}\"\t\\ \ud83d\ude00"}"#);
    assert!(diags.is_empty());
    let node = node.unwrap();
    let p = &props(&node)[0];
    assert_eq!(p.name, "kA\n");
    assert_eq!(p.value.value, JsonValue::String("\"${a}\"\t\\ 😀".into()));
}

#[test]
fn scalars_and_arrays_as_values() {
    let (node, diags) = node_of(" true ");
    assert!(diags.is_empty());
    assert_eq!(node.unwrap().value, JsonValue::Bool(true));
    // But a file must be an object or array of objects.
    let (_, diags) = parse_text("\"str\"");
    assert_eq!(summaries(&diags), ["Root value must be object"]);
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "t.tf.json:1,1-6"
    );
    let (body, diags) = parse_text("[{\"a\": 1}, {\"b\": 2}]");
    assert!(diags.is_empty());
    assert!(matches!(root(&body).value, JsonValue::Array(_)));
    assert_eq!(body.missing_item_range.to_string(), "t.tf.json:1,1-2");
}

#[test]
fn empty_file() {
    let (body, diags) = parse_text("");
    assert_eq!(
        summaries(&diags),
        ["Missing value", "Root value must be object"]
    );
    assert_eq!(diags[0].detail, "The JSON data ends prematurely.");
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "t.tf.json:1,1-1"
    );
    // The placeholder body decodes to nothing, without more errors.
    let (content, diags) = body.content(&BodySchema::new(&["a"], &[("b", &[])]));
    assert!(diags.is_empty());
    assert!(content.attributes.is_empty());
}

/// (input, summaries, subject of the first, detail of the first)
#[test]
fn syntax_errors_as_hcl() {
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "{\"a\" = 1}",
            &["Missing property value colon", "Root value must be object"],
            "1,6-7",
            "JSON uses a colon as its name/value delimiter, not an equals sign.",
        ),
        (
            "{\"a\" 1}",
            &["Missing property value colon", "Root value must be object"],
            "1,6-7",
            "A colon must appear between an object property's name and its value.",
        ),
        (
            "{\"a\"}",
            &["Missing object value", "Root value must be object"],
            "1,5-6",
            "A JSON object attribute must have a value, introduced by a colon.",
        ),
        (
            "{\"a\": True}",
            &["Invalid JSON keyword"],
            "1,7-11",
            "\"True\" is not a valid JSON keyword. Did you mean \"true\"?",
        ),
        (
            "{\"a\": undefined}",
            &["Invalid JSON keyword"],
            "1,7-16",
            "The JavaScript identifier \"undefined\" cannot be used in JSON.",
        ),
        (
            "{\"a\": 1} x",
            &["Extraneous data after value"],
            "1,10-11",
            "Extra characters appear after the JSON value.",
        ),
        (
            "{\"a\": 1,}",
            &["Trailing comma in object", "Root value must be object"],
            "1,8-9",
            "JSON does not permit a trailing comma after the final property in an object.",
        ),
        (
            "{\"a\": [1,]}",
            &[
                "Trailing comma in array",
                "Mismatched braces",
                "Root value must be object",
            ],
            "1,9-10",
            "JSON does not permit a trailing comma after the final value in an array.",
        ),
        (
            "{\"a\": 1",
            &["Unclosed object", "Root value must be object"],
            "1,1-2",
            "No closing brace was found for this JSON object.",
        ),
        (
            "{\"a\": [1",
            &[
                "Unclosed object",
                "Unclosed object",
                "Root value must be object",
            ],
            "1,7-8",
            "No closing bracket was found for this JSON array.",
        ),
        (
            "{\"a\": 1]",
            &["Mismatched braces", "Root value must be object"],
            "1,8-9",
            "A JSON object must be closed with a brace, not a bracket.",
        ),
        (
            "{\"a\": [1}}",
            &[
                "Mismatched brackets",
                "Unclosed object",
                "Root value must be object",
            ],
            "1,9-10",
            "A JSON array must be closed with a bracket, not a brace.",
        ),
        (
            "{\"a\": 1 \"b\": 2}",
            &[
                "Missing attribute seperator comma",
                "Root value must be object",
            ],
            "1,16-16",
            "A comma must appear between each property definition in an object.",
        ),
        (
            "{\"a\": 01}",
            &["Invalid JSON number"],
            "1,7-9",
            "There is a syntax error in the given JSON number.",
        ),
        (
            "{\"a\": \"x\\qy\"}",
            &["Invalid JSON string"],
            "1,11-12",
            "There is a syntax error in the given JSON string.",
        ),
        (
            "{1: 2}",
            &["Invalid object property name", "Root value must be object"],
            "1,2-3",
            "A JSON object property name must be a string",
        ),
        (
            "{\"a\": #}",
            &[
                "Invalid start of value",
                "Missing attribute seperator comma",
                "Root value must be object",
            ],
            "1,7-8",
            "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.",
        ),
        (
            "[1:2]",
            &["Invalid array value", "Root value must be object"],
            "1,6-6",
            "A colon is not used to introduce values in a JSON array.",
        ),
        (
            "{\"a\": }",
            &["Missing JSON value"],
            "1,7-8",
            "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.",
        ),
    ];
    for (input, want, subject, detail) in cases {
        let (_, diags) = parse_text(input);
        assert_eq!(&summaries(&diags), want, "{input}: {diags:#?}");
        let d = &diags[0];
        assert_eq!(
            d.subject.as_ref().unwrap().to_string(),
            format!("t.tf.json:{subject}"),
            "{input}"
        );
        assert_eq!(d.detail, *detail, "{input}");
    }
}

#[test]
fn invalid_string_context_is_the_token() {
    let (_, diags) = parse_text("{\"a\": \"abc");
    let d = &diags[0];
    assert_eq!(d.summary, "Invalid JSON string");
    assert_eq!(d.context.as_ref().unwrap().to_string(), "t.tf.json:1,7-11");
}

#[test]
fn recovers_after_bad_value() {
    let (body, diags) = parse_text(r#"{"a": tru, "b": 1}"#);
    assert_eq!(summaries(&diags), ["Invalid JSON keyword"]);
    assert_eq!(
        diags[0].detail,
        "\"tru\" is not a valid JSON keyword. Did you mean \"true\"?"
    );
    // The bad value is left out; the rest is read.
    let names: Vec<_> = props(root(&body)).iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["b"]);
}

#[test]
fn deep_nesting_within_limit() {
    let depth = MAX_DEPTH;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let (node, diags) = node_of(&text);
    assert!(diags.is_empty(), "{diags:?}");
    let (expr, _) = to_expression(&node.unwrap(), StringMode::Template);
    assert!(matches!(expr.kind, ExprKind::Tuple(_)));
}

#[test]
fn deep_nesting_beyond_limit_is_an_error() {
    let text = "[".repeat(100_000);
    let (_, diags) = parse_text(&text);
    // Every enclosing array is unclosed too.
    let s = summaries(&diags);
    assert_eq!(s[0], "JSON value nested too deeply");
    assert_eq!(s[s.len() - 1], "Root value must be object");
    assert_eq!(s.len(), MAX_DEPTH + 2);
    let text = format!(
        "{{\"a\": {}{}, \"b\": 1}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (body, diags) = parse_text(&text);
    assert_eq!(summaries(&diags), ["JSON value nested too deeply"]);
    let names: Vec<_> = props(root(&body)).iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    let text = format!(
        "{{\"a\": {}1{}}}",
        "{\"x\":".repeat(100_000),
        "}".repeat(100_000)
    );
    let (_, diags) = parse_text(&text);
    assert_eq!(summaries(&diags), ["JSON value nested too deeply"]);
}

// ---- expressions -----------------------------------------------------------

/// Whether the native parser has landed (until then it reports itself
/// missing, and string-parsing checks are skipped).
fn native_ready() -> bool {
    let (_, diags) = crate::native::parse_template("x", "f", Pos::START);
    !diags
        .iter()
        .any(|d| d.summary == "Native syntax parser missing")
}

#[test]
fn expressions_of_non_strings() {
    let (node, _) = node_of(r#"[1.5, true, null, [], {}]"#);
    let (expr, diags) = to_expression(&node.unwrap(), StringMode::Template);
    assert!(diags.is_empty());
    let ExprKind::Tuple(items) = &expr.kind else {
        panic!()
    };
    assert_eq!(
        items[0].kind,
        ExprKind::Literal(Literal::Number("1.5".into()))
    );
    assert_eq!(items[0].range.to_string(), "t.tf.json:1,2-5");
    assert_eq!(items[1].kind, ExprKind::Literal(Literal::Bool(true)));
    assert!(items[2].is_null_literal());
    assert_eq!(items[3].kind, ExprKind::Tuple(vec![]));
    assert_eq!(items[4].kind, ExprKind::Object(vec![]));
}

#[test]
fn object_keys_per_mode() {
    let (node, _) = node_of(r#"{"k": 1}"#);
    let node = node.unwrap();
    let (expr, diags) = to_expression(&node, StringMode::Expression);
    assert!(diags.is_empty());
    let ExprKind::Object(items) = &expr.kind else {
        panic!()
    };
    assert_eq!(
        items[0].key.expr.kind,
        ExprKind::Literal(Literal::String("k".into()))
    );
    assert_eq!(items[0].key.expr.range.to_string(), "t.tf.json:1,2-5");
    assert_eq!(
        items[0].value.kind,
        ExprKind::Literal(Literal::Number("1".into()))
    );
    if native_ready() {
        let (expr, diags) = to_expression(&node, StringMode::Template);
        assert!(diags.is_empty(), "{diags:#?}");
        let ExprKind::Object(items) = &expr.kind else {
            panic!()
        };
        assert!(items[0].key.expr.variables().is_empty());
    }
}

#[test]
fn strings_as_templates_and_expressions() {
    if !native_ready() {
        return;
    }
    let (node, _) = node_of("{\"a\":\n  \"${var.x}-a\"}");
    let value = &props(node.as_ref().unwrap())[0].value;
    let (expr, diags) = to_expression(value, StringMode::Template);
    assert!(diags.is_empty(), "{diags:#?}");
    let vars = expr.variables();
    assert_eq!(vars.len(), 1);
    assert_eq!(vars[0].display(), "var.x");
    // The template starts after the opening quote (2,3); `var` at 2,6.
    assert_eq!(vars[0].root_range.start.line, 2);
    assert_eq!(vars[0].root_range.start.column, 6);
    assert_eq!(vars[0].root_range.start.byte, 11);

    let (node, _) = node_of("[\"aws_instance.foo\"]");
    let (expr, diags) = to_expression(&node.unwrap(), StringMode::Expression);
    assert!(diags.is_empty(), "{diags:#?}");
    let vars = expr.variables();
    assert_eq!(vars[0].display(), "aws_instance.foo");
    // As HCL does for static analysis: positioned at the opening quote.
    assert_eq!(vars[0].root_range.start.column, 2);
}
