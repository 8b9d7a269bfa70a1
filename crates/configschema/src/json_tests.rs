//! Golden tests of the schema document. `testdata/providers/*.json` (one
//! provider's entry) and `testdata/documents/*.json` (whole documents) must
//! decode and encode back to the same bytes: adding a case is adding a
//! file. `documents/terraform_builtin.json` is what terraform v1.11.4
//! printed for its builtin provider; the others are written field by field
//! from `jsonprovider`'s structs. `testdata/opentofu/*.json` are OpenTofu's
//! own expected outputs of `providers schema -json`
//! (`internal/command/testdata/providers-schema`), indented and in
//! arbitrary order, so they are compared as JSON values.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cty::Type;

use super::*;
use crate::SchemaMap;

fn files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    files
}

fn read(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.strip_suffix('\n').unwrap_or(&text).to_owned()
}

#[test]
fn provider_entries_round_trip_byte_for_byte() {
    for path in files("providers") {
        let src = read(&path);
        let p = decode_provider(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(encode_provider(&p), src, "{}", path.display());
    }
}

/// A trusted entry (the schema cache's) decodes lazily to the same model,
/// and writes back the same bytes whether or not its types were decoded.
#[test]
fn trusted_entries_decode_lazily_to_the_same_schema() {
    for path in files("providers") {
        let src = read(&path);
        let eager = decode_provider(&src).unwrap();
        let lazy = decode_provider_trusted(std::sync::Arc::from(src.as_str()))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            encode_provider(&lazy),
            src,
            "{} (nothing decoded)",
            path.display()
        );
        if let Some(name) = lazy.resources.keys().next().cloned() {
            assert_eq!(lazy.resources.get(&name), eager.resources.get(&name));
        }
        assert_eq!(
            encode_provider(&lazy),
            src,
            "{} (one decoded)",
            path.display()
        );
        assert_eq!(lazy, eager, "{}", path.display());
    }
}

#[test]
fn trusted_entries_that_are_not_whole_are_errors() {
    let src = read(&files("providers")[0]);
    for cut in [1, src.len() / 2, src.len() - 1] {
        assert!(decode_provider_trusted(std::sync::Arc::from(&src[..cut])).is_err());
    }
    assert!(decode_provider_trusted(std::sync::Arc::from(
        r#"{"provider":{"version":0},"extra":1}"#
    ))
    .is_err());
}

#[test]
fn documents_round_trip_byte_for_byte() {
    for path in files("documents") {
        let src = read(&path);
        let doc = decode_document(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(encode_document(&doc), src, "{}", path.display());
    }
}

#[test]
fn opentofu_expected_outputs_decode_to_the_same_document() {
    for path in files("opentofu") {
        let src = read(&path);
        let doc = decode_document(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let want: serde_json::Value = serde_json::from_str(&src).expect("fixture is JSON");
        let got: serde_json::Value =
            serde_json::from_str(&encode_document(&doc)).expect("we write JSON");
        assert_eq!(got, want, "{}", path.display());
    }
}

#[test]
fn everything_fixture_decodes_to_the_model() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/providers/everything.json");
    let p = decode_provider(&read(&path)).expect("everything.json decodes");
    let r = &p.resources["test_everything"];
    assert_eq!(r.version, 3);
    let b = r.block.as_ref().expect("a block");
    assert_eq!(b.description_kind, StringKind::Markdown);
    let list = &b.block_types["list"];
    assert_eq!(
        (list.nesting, list.min_items, list.max_items),
        (NestingMode::List, 1, 3)
    );
    assert_eq!(b.block_types["group"].nesting, NestingMode::Group);
    let pw = &b.attributes["password"];
    assert!(pw.sensitive && pw.write_only && pw.optional && !pw.computed);
    let old = &b.attributes["old_name"];
    assert!(old.deprecated);
    assert_eq!(old.deprecation_message, "Use \"name\" instead.");
    let nested = b.attributes["map_nested"].nested_type().expect("nested");
    assert_eq!(nested.nesting, ObjectNesting::Map);
    assert!(nested.attributes["w"].write_only);
    let AttributeType::Type(shape) = &b.attributes["shape"].ty else {
        panic!("shape has a type")
    };
    assert_eq!(
        shape.optional_attributes().map(|o| o.len()),
        Some(1),
        "optional attributes in a type survive"
    );
    assert_eq!(p.functions.len(), 2);
    assert!(b.internal_validate().is_ok(), "{:?}", b.internal_validate());
    // dynamic content: the list block's type is not a list.
    assert_eq!(
        b.implied_type().attribute_type("dynamic_list"),
        Some(&Type::Dynamic)
    );
}

#[test]
fn encodes_go_field_order_and_omits_empty_fields() {
    let block = Block {
        attributes: BTreeMap::from([
            (
                "b".to_string(),
                Attribute {
                    required: true,
                    sensitive: true,
                    description: "x<y".into(),
                    description_kind: StringKind::Markdown,
                    ..Attribute::new(Type::list(Type::String))
                },
            ),
            (
                "a".to_string(),
                Attribute {
                    optional: true,
                    computed: true,
                    deprecated: true,
                    write_only: true,
                    ..Attribute::nested(Object {
                        nesting: ObjectNesting::Set,
                        attributes: BTreeMap::new(),
                    })
                },
            ),
        ]),
        block_types: BTreeMap::from([(
            "nb".to_string(),
            NestedBlock {
                min_items: 0,
                max_items: 2,
                ..NestedBlock::new(NestingMode::Set, Block::default())
            },
        )]),
        ..Block::default()
    };
    let p = ProviderSchema {
        provider: Schema {
            version: 0,
            block: Some(Block::default()),
        },
        resources: SchemaMap::from([(
            "t_r".to_string(),
            Schema {
                version: 1,
                block: Some(block),
            },
        )]),
        ..ProviderSchema::default()
    };
    assert_eq!(
        encode_provider(&p),
        concat!(
            r#"{"provider":{"version":0,"block":{"description_kind":"plain"}},"#,
            r#""resource_schemas":{"t_r":{"version":1,"block":{"attributes":{"#,
            r#""a":{"nested_type":{"nesting_mode":"set"},"description_kind":"plain","deprecated":true,"optional":true,"computed":true,"write_only":true},"#,
            r#""b":{"type":["list","string"],"description":"x\u003cy","description_kind":"markdown","required":true,"sensitive":true}},"#,
            r#""block_types":{"nb":{"nesting_mode":"set","block":{"description_kind":"plain"},"max_items":2}},"#,
            r#""description_kind":"plain"}}}}"#
        )
    );
}

#[test]
fn negative_item_limits_survive_as_go_writes_them() {
    let src = r#"{"provider":{"version":0,"block":{"block_types":{"x":{"nesting_mode":"list","block":{"description_kind":"plain"},"min_items":18446744073709551615}},"description_kind":"plain"}}}"#;
    let p = decode_provider(src).expect("decodes");
    let b = p.provider.block.as_ref().expect("block");
    assert_eq!(b.block_types["x"].min_items, -1);
    assert_eq!(encode_provider(&p), src);
    assert_eq!(
        b.internal_validate().unwrap_err().problems[0].to_string(),
        "x: MinItems and MaxItems must both be greater than zero"
    );
}

#[test]
fn decode_errors_name_the_field() {
    let cases = [
        (
            "{",
            "",
            "invalid JSON: EOF while parsing an object at line 1 column 1",
        ),
        ("{}", "", "missing field \"provider\""),
        (
            r#"{"provider":{}}"#,
            "/provider",
            "missing field \"version\"",
        ),
        (
            r#"{"provider":{"version":-1}}"#,
            "/provider/version",
            "must be a non-negative integer",
        ),
        (
            r#"{"provider":{"version":0},"extra":1}"#,
            "/extra",
            "unknown field",
        ),
        (
            r#"{"provider":{"version":0},"resource_schemas":{"a/b":{"version":0,"block":{"attributes":{"x":{"type":"strin"}}}}}}"#,
            "/resource_schemas/a~1b/block/attributes/x/type",
            "invalid type: invalid primitive type name \"strin\"",
        ),
        (
            r#"{"provider":{"version":0,"block":{"attributes":{"x":{"description_kind":"plain"}}}}}"#,
            "/provider/block/attributes/x",
            "either \"type\" or \"nested_type\" must be set",
        ),
        (
            r#"{"provider":{"version":0,"block":{"attributes":{"x":{"type":"string","nested_type":{"nesting_mode":"single"}}}}}}"#,
            "/provider/block/attributes/x",
            "\"type\" and \"nested_type\" cannot both be set",
        ),
        (
            r#"{"provider":{"version":0,"block":{"attributes":{"x":{"nested_type":{"nesting_mode":"group"}}}}}}"#,
            "/provider/block/attributes/x/nested_type/nesting_mode",
            "invalid value \"group\"",
        ),
        (
            r#"{"provider":{"version":0,"block":{"block_types":{"b":{"nesting_mode":"lists","block":{}}}}}}"#,
            "/provider/block/block_types/b/nesting_mode",
            "invalid value \"lists\"",
        ),
        (
            r#"{"provider":{"version":0,"block":{"block_types":{"b":{"nesting_mode":"list"}}}}}"#,
            "/provider/block/block_types/b",
            "missing field \"block\"",
        ),
        (
            r#"{"provider":{"version":0,"block":{"description_kind":"html"}}}"#,
            "/provider/block/description_kind",
            "invalid value \"html\"",
        ),
        (
            r#"{"provider":{"version":0,"block":{"attributes":{"x":{"type":"string","optional":"yes"}}}}}"#,
            "/provider/block/attributes/x/optional",
            "must be true or false",
        ),
    ];
    let e = decode_document(r#"{"provider_schemas":{}}"#).expect_err("no version");
    assert_eq!(e.to_string(), "missing field \"format_version\"");
    for (src, pointer, msg) in cases {
        let e = decode_provider(src).expect_err(src);
        assert_eq!(e.pointer(), pointer, "{src}");
        assert_eq!(e.problem.to_string(), msg, "{src}");
    }
}

proptest::proptest! {
    /// Nothing panics on a schema file: the largest fixture with one byte
    /// changed, or cut short, decodes or fails with an error.
    #[test]
    fn corrupted_documents_never_panic(at in 0usize..6000, byte in proptest::prelude::any::<u8>()) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/documents/two_providers.json");
        let mut bytes = std::fs::read(path).expect("fixture");
        let i = at % bytes.len();
        bytes[i] = byte;
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if let Ok(doc) = decode_document(text) {
                // Whatever decodes, encodes to a document that decodes the same.
                let again = encode_document(&doc);
                proptest::prop_assert_eq!(decode_document(&again).expect("re-decodes"), doc);
            }
        }
        bytes.truncate(i);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            proptest::prop_assert!(decode_document(text).is_err(), "a cut document is not whole");
        }
    }
}
