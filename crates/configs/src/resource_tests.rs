//! Unit tests of the resource decoders, mostly the corpus's invalid files.

use super::*;
use crate::test_support::{all_blocks, parse};

/// Decodes every resource-like block of `src` and returns the diagnostics
/// rendered as Go's tests render them: `file:range: summary; detail`.
fn decode_all(src: &str) -> (Vec<Resource>, Vec<String>) {
    let file = parse(src);
    let mut out = Vec::new();
    let mut diags = Diagnostics::new();
    for block in all_blocks(&file) {
        let (r, more) = match block.type_name.as_str() {
            "resource" => decode_resource_block(&block, false),
            "data" => decode_data_block(&block, false, false),
            "ephemeral" => decode_ephemeral_block(&block, false),
            _ => continue,
        };
        out.push(r);
        diags.extend(more);
    }
    let rendered = diags
        .iter()
        .map(|d| match &d.subject {
            Some(s) => format!("{s}: {}; {}", d.summary, d.detail),
            None => format!("{}; {}", d.summary, d.detail),
        })
        .collect();
    (out, rendered)
}

fn summaries(src: &str) -> Vec<String> {
    let file = parse(src);
    let mut out = Vec::new();
    for block in all_blocks(&file) {
        let (_, diags) = match block.type_name.as_str() {
            "resource" => decode_resource_block(&block, false),
            "data" => decode_data_block(&block, false, false),
            "ephemeral" => decode_ephemeral_block(&block, false),
            _ => continue,
        };
        out.extend(diags.into_iter().map(|d| d.summary));
    }
    out
}

#[test]
fn count_and_for_each() {
    let (_, d) = decode_all("resource \"test\" \"foo\" {\n  count = 2\n  for_each = [\"a\"]\n}\n");
    assert_eq!(d, ["main.tf:2,3-3,11: Invalid combination of \"count\" and \"for_each\"; The \"count\" and \"for_each\" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of resources to be created."]);
    let (_, d) = decode_all("data \"test\" \"foo\" {\n  count = 2\n  for_each = [\"a\"]\n}\n");
    assert_eq!(d, ["main.tf:2,3-3,11: Invalid combination of \"count\" and \"for_each\"; The \"count\" and \"for_each\" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of data sources to be created."]);
}

#[test]
fn count_enabled_and_for_each() {
    for (kind, what) in [
        ("resource", "resources"),
        ("data", "data sources"),
        ("ephemeral", "ephemeral resources"),
    ] {
        let src = format!("{kind} \"test\" \"foo\" {{\n  lifecycle {{\n    enabled = true\n  }}\n  count    = 2\n  for_each = [\"a\"]\n}}\n");
        let (r, d) = decode_all(&src);
        assert_eq!(d, [format!("main.tf:3,5-6,11: Invalid combination of \"count\", \"enabled\", and \"for_each\"; The \"count\", \"enabled\", and \"for_each\" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of {what} to be created.")]);
        assert!(r[0].enabled.is_some());
    }
}

#[test]
fn invalid_names() {
    let (_, d) = decode_all("resource \"test resource\" \"test_resource\" {\n\n}\n\ndata \"test resource\" \"test_resource\" {\n\n}\n");
    assert_eq!(
        d,
        [
            format!("main.tf:1,10-25: Invalid resource type name; {BAD_IDENTIFIER_DETAIL}"),
            format!("main.tf:5,6-21: Invalid data source name; {BAD_IDENTIFIER_DETAIL}"),
        ]
    );
}

#[test]
fn reserved_locals() {
    let (_, d) = decode_all(
        "resource \"test\" \"foo\" {\n  locals {}\n}\ndata \"test\" \"foo\" {\n  locals {}\n}\n",
    );
    assert_eq!(d, [
        "main.tf:2,3-9: Reserved block type name in resource block; The block type name \"locals\" is reserved for use by OpenTofu in a future version.",
        "main.tf:5,3-9: Reserved block type name in data block; The block type name \"locals\" is reserved for use by OpenTofu in a future version.",
    ]);
}

#[test]
fn data_lifecycle_arguments() {
    let (_, d) = decode_all("data \"example\" \"example\" {\n  lifecycle {\n    # comment\n    ignore_changes = []\n  }\n}\n");
    assert_eq!(d, ["main.tf:4,5-19: Invalid data resource lifecycle argument; The lifecycle argument \"ignore_changes\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources."]);
}

#[test]
fn lifecycle_badbool() {
    let (_, d) = decode_all("resource \"example\" \"example\" {\n  lifecycle {\n    create_before_destroy = \"ABSOLUTELY NOT\"\n  }\n}\n");
    assert_eq!(
        d,
        ["main.tf:3,29-45: Unsuitable value type; Unsuitable value: a bool is required"]
    );
}

#[test]
fn lifecycle_values() {
    let (r, d) = decode_all("resource \"a\" \"b\" {\n  lifecycle {\n    create_before_destroy = true\n    prevent_destroy = var.p\n    destroy = false\n    ignore_changes = [tags, \"ami\"]\n    replace_triggered_by = [a.c[count.index].id]\n  }\n}\n");
    assert_eq!(d, ["main.tf:6,29-34: Quoted references are deprecated; In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning."]);
    let m = r[0].managed.as_ref().unwrap();
    assert!(m.create_before_destroy && m.create_before_destroy_set);
    assert!(m.prevent_destroy.is_some() && m.destroy.is_some());
    let paths: Vec<_> = m.ignore_changes.iter().map(|t| t.display()).collect();
    assert_eq!(paths, ["tags", "ami"]);
    assert_eq!(r[0].triggers_replacement.len(), 1);
}

#[test]
fn ignore_changes_all_and_wildcards() {
    let (r, d) =
        decode_all("resource \"a\" \"b\" {\n  lifecycle {\n    ignore_changes = all\n  }\n}\n");
    assert!(d.is_empty());
    assert!(r[0].managed.as_ref().unwrap().ignore_all_changes);

    let (_, d) = decode_all("resource \"null_resource\" \"all\" {\n  lifecycle {\n    ignore_changes = [\"*\"]\n  }\n}\n");
    assert_eq!(d, ["main.tf:3,22-27: Invalid ignore_changes wildcard; The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes."]);

    // resources-ignorechanges-all-legacymix.tf
    let s = summaries("resource \"aws_instance\" \"web\" {\n  lifecycle {\n    ignore_changes = [\"*\", \"foo\"]\n  }\n}\n");
    assert_eq!(
        s,
        [
            "Invalid ignore_changes wildcard",
            "Quoted references are deprecated",
            "Invalid ignore_changes ruleset"
        ]
    );
}

#[test]
fn replace_triggered_by_rules() {
    // triggered-invalid-each.tf
    let (_, d) = decode_all("resource \"test_resource\" \"a\" {\n  for_each = var.input\n  lifecycle {\n    // cannot use each.val\n    replace_triggered_by = [ test_resource.b[each.val] ]\n  }\n}\n");
    assert_eq!(d, ["main.tf:5,30-55: Invalid each reference in replace_triggered_by expression; Only each.key may be used in replace_triggered_by."]);
    // triggered-invalid-expression.tf
    let (_, d) = decode_all("resource \"test_resource\" \"a\" {\n  count = 1\n  lifecycle {\n    replace_triggered_by = [ not_a_reference ]\n  }\n}\n");
    assert_eq!(d, ["main.tf:4,30-45: Invalid reference; A reference to a resource type must be followed by at least one attribute access, specifying the resource name."]);
    let s = summaries("resource \"a\" \"b\" {\n  lifecycle {\n    replace_triggered_by = [var.x, a.c.id == a.d.id, count.foo]\n  }\n}\n");
    assert_eq!(
        s,
        [
            "Invalid reference in replace_triggered_by expression",
            "Invalid replace_triggered_by expression",
            "Invalid replace_triggered_by expression",
            "Invalid count reference in replace_triggered_by expression",
            "Invalid replace_triggered_by expression",
        ]
    );
}

#[test]
fn provider_references() {
    let (r, d) = decode_all("resource \"a\" \"b\" {\n  provider = aws.west\n}\nresource \"a\" \"c\" {\n  provider = aws.by_region[\"us\"]\n}\nresource \"a\" \"d\" {\n  provider = aws.by_region[each.key]\n}\n");
    assert!(d.is_empty(), "{d:?}");
    let refs: Vec<_> = r
        .iter()
        .map(|r| r.provider_config_ref.as_ref().unwrap())
        .collect();
    assert_eq!(refs[0].display(), "aws.west");
    assert!(refs[0].key_expr.is_none());
    assert_eq!(refs[1].display(), "aws.by_region");
    assert!(refs[1].key_expr.is_some());
    assert!(refs[2].key_expr.is_some());

    // resource-invalid-provider-reference.tf
    let (_, d) = decode_all("resource \"test_resource\" \"t\" {\n  provider = my_test\n}\n");
    assert_eq!(d, ["main.tf:2,14-21: Invalid provider local name; my_test is an invalid provider local name: must contain only letters, digits, and dashes, and may not use leading or trailing dashes"]);
    let (_, d) = decode_all("resource \"a\" \"b\" {\n  provider = TEST\n}\n");
    assert_eq!(d, ["main.tf:2,14-18: Invalid provider local name; Provider names must be normalized. Replace \"TEST\" with \"test\" to fix this error."]);

    let (_, d) = decode_all("resource \"a\" \"b\" {\n  provider = aws[\"us\"]\n}\nresource \"a\" \"c\" {\n  provider = aws.a.b\n}\nresource \"a\" \"d\" {\n  provider = \"aws.${x}\"\n}\nresource \"a\" \"e\" {\n  provider = aws.a[0].b\n}\n");
    assert_eq!(d, [
        "main.tf:2,17-23: Invalid provider configuration reference; Provider name must either stand alone or be followed by a period and then a configuration alias.",
        "main.tf:5,19-21: Invalid provider configuration reference; Provider name must either stand alone or be followed by a period and then a configuration alias.",
        "main.tf:8,14-24: Invalid provider configuration reference; A provider configuration reference must not be given in quotes.",
        "main.tf:11,14-24: Invalid provider configuration reference; The provider argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key.",
    ]);
}

#[test]
fn quoted_provider_reference_warns() {
    // warning-files/provider_ref.tf
    let (r, d) = decode_all("resource \"null_resource\" \"test\" {\n  provider = \"null.foo\" # WARNING: Quoted references are deprecated\n}\n");
    assert_eq!(d.len(), 1);
    assert!(d[0].starts_with("main.tf:2,14-24: Quoted references are deprecated;"));
    assert_eq!(
        r[0].provider_config_ref.as_ref().unwrap().display(),
        "null.foo"
    );
}

#[test]
fn ephemeral_blocks() {
    // ephemeral-blocks/main.tf
    let src = "provider test {\n  alias = \"name\"\n}\n\nephemeral \"test_resource\" \"foo\" {\n  for_each = toset([\"a\"])\n}\n\nephemeral \"test_resource\" \"bar\" {\n  depends_on = [\n    test_resource.foo[\"a\"]\n  ]\n  provider = test.name\n  count = 1\n  attribute = \"test value\"\n  attribute2 = \"test value\"\n\n  connection {\n    // connection blocks are not allowed so we are expecting an error on this\n  }\n  provisioner \"local-exec\" {\n    // provisioner blocks are not allowed so we are expecting an error on this\n  }\n  lifecycle {\n    // standard attributes in the lifecycle block are not allowed so we are expecting 4 errors on this\n    create_before_destroy = true\n    prevent_destroy = true\n    replace_triggered_by = true\n    ignore_changes = true\n    // precondition and postconditions are allowed in ephemeral resources\n    precondition {\n      condition = ephemeral.test_resource.foo.id == \"\"\n      error_message = \"precondition error\"\n    }\n    postcondition {\n      condition = ephemeral.test_resource.foo.id == \"\"\n      error_message = \"postcondition error\"\n    }\n  }\n}\n";
    let file = parse(src);
    let mut diags = Diagnostics::new();
    let mut rs = Vec::new();
    for block in all_blocks(&file)
        .iter()
        .filter(|b| b.type_name == "ephemeral")
    {
        let (r, more) = decode_ephemeral_block(block, false);
        diags.extend(more);
        rs.push(r);
    }
    assert_eq!(diags.len(), 6, "{diags:?}");
    for word in [
        "ignore_changes",
        "prevent_destroy",
        "create_before_destroy",
        "replace_triggered_by",
        "connection",
        "provisioner",
    ] {
        assert!(
            diags
                .iter()
                .any(|d| d.detail.contains(&format!("\"{word}\""))),
            "{word}"
        );
    }
    let conn = diags
        .iter()
        .find(|d| d.detail.contains("\"connection\""))
        .unwrap();
    assert_eq!(
        conn.subject.as_ref().unwrap().to_string(),
        "main.tf:18,3-13"
    );
    assert_eq!(rs[0].name, "foo");
    assert!(rs[0].for_each.is_some());
    assert!(rs[1].count.is_some());
    assert_eq!(
        rs[1].provider_config_ref.as_ref().unwrap().display(),
        "test.name"
    );
    assert_eq!(rs[1].preconditions.len(), 1);
    assert_eq!(rs[1].postconditions.len(), 1);
    let (content, _) = rs[1]
        .config
        .content(&BodySchema::new(&["attribute", "attribute2"], &[]));
    assert_eq!(content.attributes.len(), 2);
}

#[test]
fn condition_self_references() {
    // error-files/precondition-postcondition-selfref.tf (first two blocks)
    let (_, d) = decode_all("resource \"test\" \"test\" {\n  lifecycle {\n    precondition {\n      condition     = test.test.foo\n      error_message = \"Cannot refer to self.\"\n    }\n  }\n}\n\ndata \"test\" \"test_counted\" {\n  count = 1\n  lifecycle {\n    postcondition {\n      condition     = data.test.test_counted[0].foo\n      error_message = \"Cannot refer to self.\"\n    }\n  }\n}\n");
    assert_eq!(d, [
        "main.tf:4,23-36: Invalid reference in precondition; Configuration for test.test may not refer to itself.",
        "main.tf:14,23-52: Invalid reference in postcondition; Configuration for data.test.test_counted may not refer to itself.",
    ]);
}

#[test]
fn provisioners_and_connections() {
    // error-files/invalid-keyword-in-provisioner.tf
    let (_, d) = decode_all("resource \"null_resource\" \"a\" {\n  provisioner \"local-exec\" {\n    when = invalid # ERROR: Invalid \"when\" keyword\n    on_failure = invalid # ERROR: Invalid \"on_failure\" keyword\n    lifecycle {} # ERROR: Reserved block type name in provisioner block\n  }\n}\n");
    assert_eq!(d, [
        "main.tf:3,12-19: Invalid \"when\" keyword; The \"when\" argument requires one of the following keywords: create or destroy.",
        "main.tf:4,18-25: Invalid \"on_failure\" keyword; The \"on_failure\" argument requires one of the following keywords: continue or fail.",
        "main.tf:5,5-14: Reserved block type name in provisioner block; The block type name \"lifecycle\" is reserved for use by OpenTofu in a future version.",
    ]);
    // warning-files/provisioner_keyword.tf
    let s = summaries("resource \"null_resource\" \"a\" {\n  provisioner \"local-exec\" {\n    when       = \"create\"\n    on_failure = \"fail\"\n  }\n}\n");
    assert_eq!(
        s,
        [
            "Quoted keywords are deprecated",
            "Quoted keywords are deprecated"
        ]
    );
    // error-files/duplicate-block-in-provisioner.tf
    let (_, d) = decode_all("resource \"null_resource\" \"a\" {\n  provisioner \"local-exec\" {\n    connection {}\n    connection {}\n\n    _ {}\n    _ {}\n  }\n}\n");
    assert_eq!(d, [
        "main.tf:4,5-15: Duplicate connection block; This provisioner already has a connection block at main.tf:3,5-15.",
        "main.tf:7,5-6: Duplicate escaping block; The special block type \"_\" can be used to force particular arguments to be interpreted as provisioner-typpe-specific rather than as meta-arguments, but each provisioner block can have only one such block. The first escaping block was at main.tf:6,5-6.",
    ]);
    // error-files/vendor_provisioners.tf
    let (r, d) =
        decode_all("resource \"null_resource\" \"test\" {\n  provisioner \"habitat\" {}\n}\n");
    assert_eq!(d, ["main.tf:2,15-24: The \"habitat\" provisioner has been removed; The \"habitat\" provisioner is deprecated and has been removed from OpenTofu."]);
    assert!(r[0].managed.as_ref().unwrap().provisioners.is_empty());
}

#[test]
fn destroy_provisioner_references() {
    // error-files/destroy-provisioners.tf
    let src = "locals {\n  user = \"name\"\n}\n\nresource \"null_resource\" \"a\" {\n  connection {\n    host = self.hostname\n    user = local.user # ERROR: Invalid reference from destroy provisioner\n  }\n\n  provisioner \"remote-exec\" {\n    when = destroy\n    on_failure = continue\n    index = count.index\n    key = each.key\n\n    dir = path.module\n    workspace = terraform.workspace\n  }\n}\n\nresource \"null_resource\" \"b\" {\n  connection {\n    host = self.hostname\n    user = local.user\n  }\n\n  provisioner \"remote-exec\" {\n  }\n}\n\nresource \"null_resource\" \"b\" {\n  provisioner \"remote-exec\" {\n    when = destroy\n    on_failure = fail\n    connection {\n      host = self.hostname\n      user = local.user # ERROR: Invalid reference from destroy provisioner\n    }\n\n    command = \"echo ${local.name}\" # ERROR: Invalid reference from destroy provisioner\n  }\n}\n";
    let file = parse(src);
    let mut lines = Vec::new();
    for block in all_blocks(&file)
        .iter()
        .filter(|b| b.type_name == "resource")
    {
        let (_, diags) = decode_resource_block(block, false);
        for d in diags {
            assert_eq!(d.summary, "Invalid reference from destroy provisioner");
            lines.push(d.subject.unwrap().start.line);
        }
    }
    lines.sort();
    assert_eq!(lines, [8, 38, 41]);
}

#[test]
fn escaping_blocks() {
    // escaping-blocks/resource
    let src = "resource \"foo\" \"bar\" {\n  count = 2\n\n  normal = \"yes\"\n\n  normal_block {}\n\n  _ {\n    count = \"not actually count\"\n    for_each = \"not actually for_each\"\n    lifecycle {\n    }\n    _ {\n    }\n  }\n\n  provisioner \"boop\" {\n    when = destroy\n    _ {\n      when = \"hell freezes over\"\n    }\n    normal = \"yep\"\n  }\n}\n";
    let (r, d) = decode_all(src);
    assert!(d.is_empty(), "{d:?}");
    let r = &r[0];
    assert!(r.count.is_some());
    assert!(r.for_each.is_none());
    let schema = BodySchema::new(
        &["normal", "count", "for_each"],
        &[("normal_block", &[]), ("lifecycle", &[]), ("_", &[])],
    )
    .require(&["normal", "count", "for_each"]);
    let (content, diags) = r.config.content(&schema);
    assert!(diags.is_empty(), "{diags:?}");
    let names: Vec<_> = content.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["normal", "count", "for_each"]);
    let types: Vec<_> = content
        .blocks
        .iter()
        .map(|b| b.type_name.as_str())
        .collect();
    assert_eq!(types, ["normal_block", "lifecycle", "_"]);

    let pv = &r.managed.as_ref().unwrap().provisioners[0];
    assert_eq!(pv.when, crate::provisioner::ProvisionerWhen::Destroy);
    let schema = BodySchema::new(
        &["when", "normal"],
        &[("normal_block", &[]), ("lifecycle", &[]), ("_", &[])],
    )
    .require(&["when", "normal"]);
    let (content, diags) = pv.config.content(&schema);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(content.attributes.len(), 2);

    let (_, d) = decode_all("data \"a\" \"b\" {\n  _ {}\n  _ {}\n}\n");
    assert_eq!(d, ["main.tf:3,3-4: Duplicate escaping block; The special block type \"_\" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each data block can have only one such block. The first escaping block was at main.tf:2,3-4."]);
}

#[test]
fn duplicates() {
    let s = summaries("resource \"a\" \"b\" {\n  lifecycle {}\n  lifecycle {}\n  connection {}\n  connection {}\n}\n");
    assert_eq!(
        s,
        ["Duplicate lifecycle block", "Duplicate connection block"]
    );
}

#[test]
fn nested_data_block_restrictions() {
    let file = parse("data \"a\" \"b\" {\n  count = 1\n  for_each = {}\n  lifecycle {\n    enabled = true\n  }\n}\n");
    let (_, diags) = decode_data_block(&all_blocks(&file)[0], false, true);
    let s: Vec<_> = diags.iter().map(|d| d.summary.as_str()).collect();
    assert_eq!(
        s,
        [
            "Invalid \"count\" attribute",
            "Invalid \"for_each\" attribute",
            "Invalid lifecycle block"
        ]
    );
}

#[test]
fn override_merge() {
    let file = parse("resource \"a\" \"b\" {\n  count = 1\n  x = 1\n  y = 2\n  blk {\n    n = 1\n  }\n  lifecycle {\n    create_before_destroy = true\n  }\n}\nresource \"a\" \"b\" {\n  for_each = {}\n  y = 3\n  blk {\n    n = 2\n  }\n  depends_on = [a.c]\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n");
    let blocks = all_blocks(&file);
    let (mut base, _) = decode_resource_block(&blocks[0], false);
    let (over, _) = decode_resource_block(&blocks[1], true);
    let diags = base.merge(&over);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Unsupported override");
    assert_eq!(
        diags[0].subject.as_ref().unwrap().to_string(),
        "main.tf:18,17-20"
    );
    assert!(base.count.is_some() && base.for_each.is_some());
    let m = base.managed.as_ref().unwrap();
    assert!(m.create_before_destroy && m.prevent_destroy.is_some());
    let (content, diags) = base
        .config
        .content(&BodySchema::new(&["x", "y"], &[("blk", &[])]));
    assert!(diags.is_empty(), "{diags:?}");
    let y = content.attribute("y").unwrap();
    assert_eq!(y.range.start.line, 14);
    assert_eq!(content.blocks.len(), 1);
    assert_eq!(content.blocks[0].type_range.start.line, 15);
}

/// The corpus's single-file fixtures whose verdict depends only on the
/// blocks decoded here: valid files give no errors from them, the invalid
/// ones listed give at least one. Skipped when the corpus is absent.
#[test]
fn corpus_files() {
    let dir = std::path::Path::new("/work/shared/corpus/opentofu/internal/configs/testdata");
    if !dir.exists() {
        return;
    }
    let decode = |path: &std::path::Path| -> Diagnostics {
        let bytes = std::fs::read(path).unwrap();
        let (file, mut diags) = hclsyntax::parse_file(&path.to_string_lossy(), &bytes);
        for block in all_blocks(&file) {
            let more = match block.type_name.as_str() {
                "resource" => decode_resource_block(&block, false).1,
                "data" => decode_data_block(&block, false, false).1,
                "ephemeral" => decode_ephemeral_block(&block, false).1,
                "moved" => crate::moved::decode_moved_block(&block).1,
                "import" => crate::import::decode_import_block(&block).1,
                "removed" => crate::removed::decode_removed_block(&block).1,
                "check" => crate::checks::decode_check_block(&block, false).1,
                _ => continue,
            };
            diags.extend(more);
        }
        diags
    };
    for entry in std::fs::read_dir(dir.join("valid-files")).unwrap() {
        let path = entry.unwrap().path();
        let diags = decode(&path);
        assert!(
            !hclsyntax::has_errors(&diags),
            "{}: {diags:#?}",
            path.display()
        );
    }
    for name in [
        "data-invalid-provider-reference.tf",
        "interp-in-data-label.tf",
        "interp-in-rsrc-label.tf",
        "precondition-postcondition-badref.tf",
        "precondition-postcondition-missing-condition.tf",
        "resource-name-invalid.tf",
        "resources-ignorechanges-all-legacymix.tf",
    ] {
        let path = dir.join("invalid-files").join(name);
        assert!(hclsyntax::has_errors(&decode(&path)), "{name}");
    }
}
