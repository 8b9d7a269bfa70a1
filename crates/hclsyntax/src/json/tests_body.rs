//! Tests of JSON body decoding, and of the OpenTofu configuration
//! fixtures when the shared corpus is present.

use std::sync::Arc;

use super::tests::{parse_text, summaries};
use super::*;
use crate::ast::ExprKind;
use crate::body::{Block, BodySchema};

// ---- body content --------------------------------------------------------

const RESOURCE_LABELS: &[&str] = &["type", "name"];

fn file_schema() -> BodySchema {
    BodySchema::new(
        &["count", "name"],
        &[
            ("resource", RESOURCE_LABELS),
            ("locals", &[]),
            ("variable", &["name"]),
        ],
    )
}

fn labels(b: &Arc<Block>) -> Vec<&str> {
    b.label_values()
}

#[test]
fn attributes_and_blocks_by_schema() {
    let text = r#"{
  "//": "a comment",
  "count": 2,
  "resource": {
    "aws_instance": {
      "web": {"ami": "x"},
      "db": [{"ami": "y"}, {"ami": "z"}]
    },
    "null_resource": {"n": null}
  },
  "locals": {"a": 1}
}"#;
    let (body, diags) = parse_text(text);
    assert!(diags.is_empty());
    let (content, diags) = body.content(&file_schema());
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(content.attributes.len(), 1);
    let count = &content.attributes[0];
    assert_eq!(count.name, "count");
    assert_eq!(count.name_range.to_string(), "t.tf.json:3,3-10");
    assert_eq!(count.range.to_string(), "t.tf.json:3,3-13");
    assert_eq!(count.expr.range.to_string(), "t.tf.json:3,12-13");
    assert!(
        matches!(&count.expr.kind, ExprKind::Json(n) if n.value == JsonValue::Number("2".into()))
    );

    let got: Vec<_> = content
        .blocks
        .iter()
        .map(|b| (b.type_name.as_str(), labels(b)))
        .collect();
    assert_eq!(
        got,
        [
            ("resource", vec!["aws_instance", "web"]),
            ("resource", vec!["aws_instance", "db"]),
            ("resource", vec!["aws_instance", "db"]),
            ("locals", vec![]),
        ]
    );
    let web = &content.blocks[0];
    assert_eq!(web.type_range.to_string(), "t.tf.json:4,3-13");
    assert_eq!(web.labels[0].range.to_string(), "t.tf.json:5,5-19");
    assert_eq!(web.labels[1].range.to_string(), "t.tf.json:6,7-12");
    assert_eq!(web.open_brace_range.to_string(), "t.tf.json:6,14-15");
    assert_eq!(web.close_brace_range.to_string(), "t.tf.json:6,25-26");
    assert_eq!(web.body.range.to_string(), "t.tf.json:6,14-26");
    assert_eq!(web.body.missing_item_range.to_string(), "t.tf.json:6,25-26");
    let (attrs, diags) = web.body.just_attributes();
    assert!(diags.is_empty());
    assert_eq!(attrs[0].name, "ami");
    // Array elements are blocks of their own.
    let db2 = &content.blocks[2];
    assert_eq!(db2.open_brace_range.to_string(), "t.tf.json:7,28-29");
    let (attrs, _) = db2.body.just_attributes();
    assert!(
        matches!(&attrs[0].expr.kind, ExprKind::Json(n) if n.value == JsonValue::String("z".into()))
    );
}

#[test]
fn label_levels_may_be_arrays() {
    let text = r#"{"resource": [
      {"a": {"x": {}}},
      {"b": [{"y": {}}, {"z": [{}, {}]}]}
    ]}"#;
    let (body, _) = parse_text(text);
    let (content, diags) = body.content(&file_schema());
    assert!(diags.is_empty(), "{diags:#?}");
    let got: Vec<_> = content.blocks.iter().map(labels).collect();
    assert_eq!(
        got,
        [
            vec!["a", "x"],
            vec!["b", "y"],
            vec!["b", "z"],
            vec!["b", "z"]
        ]
    );
}

#[test]
fn block_shape_errors() {
    let (body, _) = parse_text(r#"{"resource": {"a": {}}, "variable": {}, "locals": "x"}"#);
    let (content, diags) = body.content(&file_schema());
    assert!(content.blocks.is_empty());
    assert_eq!(
        summaries(&diags),
        [
            "Missing block label",
            "Missing block label",
            "Incorrect JSON value type"
        ]
    );
    assert_eq!(
        diags[0].detail,
        "At least one object property is required, whose name represents the resource block's name."
    );
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "t.tf.json:1,20-21"
    );
    assert_eq!(
        diags[2].detail,
        "Either a JSON object or a JSON array is required, representing the contents of one or more \"locals\" blocks."
    );
    let (body, _) = parse_text(r#"{"resource": {"a": "s"}, "variable": [1]}"#);
    let (_, diags) = body.content(&file_schema());
    assert_eq!(
        diags.iter().map(|d| d.detail.as_str()).collect::<Vec<_>>(),
        [
            "Either a JSON object or JSON array of objects is required here, to specify name labels for this block.",
            "At least one object property is required, whose name represents the resource block's name.",
            "A JSON object is required here, to specify name labels for this block.",
            "At least one object property is required, whose name represents the variable block's name.",
        ]
    );
}

#[test]
fn body_value_shape_errors() {
    let (body, _) = parse_text(r#"{"locals": [{"a": 1}, 2]}"#);
    let (content, diags) = body.content(&file_schema());
    assert_eq!(content.blocks.len(), 2);
    assert!(diags.is_empty());
    let (_, diags) = content.blocks[1].body.content(&BodySchema::default());
    // HCL reports it twice: once for PartialContent, once for Content.
    assert_eq!(
        summaries(&diags),
        ["Incorrect JSON value type", "Incorrect JSON value type"]
    );
    assert_eq!(
        diags[0].detail,
        "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks."
    );
    let (_, diags) = content.blocks[1].body.just_attributes();
    assert_eq!(
        diags[0].detail,
        "A JSON object is required here, setting the arguments for this block."
    );
}

#[test]
fn unknown_properties() {
    let (body, _) = parse_text(r#"{"//": 1, "cuont": 1, "resourc": {}, "zzz": 2}"#);
    let (_, diags) = body.content(&file_schema());
    assert_eq!(summaries(&diags), ["Extraneous JSON object property"; 3]);
    let details: Vec<_> = diags.iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "No argument or block type is named \"cuont\". Did you mean \"count\"?",
            "No argument or block type is named \"resourc\". Did you mean \"resource\"?",
            "No argument or block type is named \"zzz\".",
        ]
    );
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "t.tf.json:1,11-18"
    );
    assert_eq!(diags[0].context, diags[0].subject);
}

#[test]
fn duplicate_and_missing_arguments() {
    let (body, _) = parse_text("{\n\"name\": 1,\n\"name\": 2\n}");
    let schema = file_schema().require(&["name", "count"]);
    let (content, diags) = body.content(&schema);
    assert_eq!(content.attributes.len(), 1);
    assert_eq!(
        summaries(&diags),
        ["Duplicate argument", "Missing required argument"]
    );
    assert_eq!(
        diags[0].detail,
        "The argument \"name\" was already set at t.tf.json:2,1-10."
    );
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "t.tf.json:3,1-7"
    );
    assert_eq!(
        diags[1].detail,
        "The argument \"count\" is required, but no definition was found."
    );
    // HCL points at the closing brace of a JSON body.
    assert_eq!(
        diags[1].subject.as_ref().unwrap().to_string(),
        "t.tf.json:4,1-2"
    );
}

#[test]
fn partial_content_leaves_the_rest() {
    let (body, _) =
        parse_text(r#"{"count": 1, "ami": "x", "resource": {"a": {"b": {}}}, "tags": {"k": "v"}}"#);
    let (content, remain, diags) = body.partial_content(&file_schema());
    assert!(diags.is_empty());
    assert_eq!(content.attributes.len(), 1);
    assert_eq!(content.blocks.len(), 1);
    // What is left: the unknown properties, not those already decoded.
    let (attrs, diags) = remain.just_attributes();
    assert!(diags.is_empty());
    let names: Vec<_> = attrs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["ami", "tags"]);
    let (content, diags) = remain.content(&BodySchema::new(&["ami", "count"], &[("tags", &[])]));
    assert!(diags.is_empty(), "{diags:#?}");
    let names: Vec<_> = content.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["ami"]);
    assert_eq!(content.blocks.len(), 1);
    // Content on the rest with a schema lacking "tags" reports it alone.
    let (_, diags) = remain.content(&BodySchema::new(&["ami"], &[]));
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].detail,
        "No argument or block type is named \"tags\"."
    );
}

#[test]
fn root_array_contributes_each_object() {
    let (body, _) = parse_text(r#"[{"count": 1}, {"resource": {"a": {"b": {}}}}, {"zz": 1}]"#);
    let (content, diags) = body.content(&file_schema());
    assert_eq!(content.attributes.len(), 1);
    assert_eq!(content.blocks.len(), 1);
    assert_eq!(summaries(&diags), ["Extraneous JSON object property"]);
}

#[test]
fn just_attributes_in_source_order() {
    let (body, _) = parse_text(r#"{"//": "c", "z": 1, "a": [true], "z": 3}"#);
    let (attrs, diags) = body.just_attributes();
    let names: Vec<_> = attrs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["z", "a"]);
    assert_eq!(summaries(&diags), ["Duplicate attribute definition"]);
    assert_eq!(
        diags[0].detail,
        "The argument \"z\" was already set at t.tf.json:1,13-19."
    );
    assert_eq!(attrs[1].range.to_string(), "t.tf.json:1,21-32");
    let _: &Arc<_> = &attrs[0];
}

// ---- OpenTofu fixtures -----------------------------------------------------

const TESTDATA: &str = "/work/shared/corpus/opentofu/internal/configs/testdata";

fn tofu_file_schema() -> BodySchema {
    BodySchema::new(
        &[],
        &[
            ("terraform", &[]),
            ("required_providers", &[]),
            ("provider", &["name"]),
            ("variable", &["name"]),
            ("locals", &[]),
            ("output", &["name"]),
            ("module", &["name"]),
            ("resource", &["type", "name"]),
            ("data", &["type", "name"]),
            ("ephemeral", &["type", "name"]),
            ("moved", &[]),
            ("import", &[]),
            ("check", &["name"]),
            ("removed", &[]),
            ("run", &["name"]),
        ],
    )
}

fn read_fixture(rel: &str) -> Option<(SourceFile, Vec<u8>)> {
    let path = std::path::Path::new(TESTDATA).join(rel);
    let bytes = std::fs::read(&path).ok()?;
    let text = String::from_utf8(bytes.clone()).ok()?;
    Some((SourceFile::new(rel, text), bytes))
}

#[test]
fn opentofu_valid_json_fixtures() {
    let Ok(dir) = std::fs::read_dir(format!("{TESTDATA}/valid-files")) else {
        return;
    };
    let mut seen = 0;
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".json") {
            continue;
        }
        let Some((source, _)) = read_fixture(&format!("valid-files/{name}")) else {
            continue;
        };
        seen += 1;
        let (body, diags) = parse(&source);
        assert!(diags.is_empty(), "{name}: {diags:#?}");
        let (content, diags) = body.content(&tofu_file_schema());
        assert!(diags.is_empty(), "{name}: {diags:#?}");
        for block in &content.blocks {
            if block.type_name == "locals" {
                let (attrs, diags) = block.body.just_attributes();
                assert!(diags.is_empty());
                let names: Vec<_> = attrs.iter().map(|a| a.name.as_str()).collect();
                assert_eq!(names, ["foo", "bar", "baz", "dunno", "rowing", "π"]);
            }
        }
        if name == "variables.tf.json" {
            let names: Vec<_> = content
                .blocks
                .iter()
                .map(|b| b.labels[0].value.as_str())
                .collect();
            assert_eq!(
                names,
                [
                    "foo",
                    "bar",
                    "baz",
                    "bar-baz",
                    "cheese_pizza",
                    "π",
                    "sensitive_value"
                ]
            );
        }
        if name == "resources.tf.json" {
            let got: Vec<_> = content.blocks.iter().map(labels).collect();
            assert_eq!(got, [vec!["test_object", "a"], vec!["test_object", "b"]]);
            let (inner, _, diags) = content.blocks[1]
                .body
                .partial_content(&BodySchema::new(&["count"], &[("lifecycle", &[])]));
            assert!(diags.is_empty());
            assert_eq!(inner.blocks.len(), 1);
        }
    }
    assert!(seen >= 5);
}

#[test]
fn opentofu_invalid_json_fixtures() {
    let Some((source, bytes)) = read_fixture("invalid-files/zerolen.tf.json") else {
        return;
    };
    assert!(bytes.is_empty());
    let (_, diags) = parse(&source);
    assert_eq!(
        summaries(&diags),
        ["Missing value", "Root value must be object"]
    );

    let (source, _) = read_fixture("invalid-files/native-syntax-as-json.tf.json").unwrap();
    let (_, diags) = parse(&source);
    assert_eq!(
        summaries(&diags),
        ["Invalid JSON keyword", "Root value must be object"]
    );
    assert_eq!(
        diags[0].detail,
        "\"terraform\" is not a valid JSON keyword."
    );
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "invalid-files/native-syntax-as-json.tf.json:1,1-10"
    );
}

#[test]
fn property_names_quoted_as_go() {
    let (body, _) = parse_text(r#"{"a\"b\n": 1, "π": 2}"#);
    let (_, diags) = body.content(&BodySchema::default());
    let details: Vec<_> = diags.iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            r#"No argument or block type is named "a\"b\n"."#,
            r#"No argument or block type is named "π"."#,
        ]
    );
}
