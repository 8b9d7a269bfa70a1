//! `check` blocks: assertions about the infrastructure, with at most one
//! nested data source read for them.

use hclsyntax::{has_errors, valid_identifier, Block, BodySchema, Diagnostic, Diagnostics, Range};

use crate::check_rule::{decode_check_rule_block, CheckRule};
use crate::resource::{decode_data_block, Resource, BAD_IDENTIFIER_DETAIL};

/// A `check "name"` block.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: String,
    /// The nested `data` block, if any (scoped to this check).
    pub data_resource: Option<Resource>,
    pub asserts: Vec<CheckRule>,
    pub decl_range: Range,
}

fn check_schema() -> BodySchema {
    BodySchema::new(&[], &[("data", &["type", "name"]), ("assert", &[])])
}

/// Decodes a `check` block. Override files may not contain them.
pub fn decode_check_block(block: &Block, override_file: bool) -> (Check, Diagnostics) {
    let mut check = Check {
        name: block.labels[0].value.clone(),
        data_resource: None,
        asserts: Vec::new(),
        decl_range: block.def_range(),
    };
    if override_file {
        return (
            check.clone(),
            vec![Diagnostic::error(
                "Can't override check blocks",
                "Override files cannot override check blocks.",
                check.decl_range,
            )],
        );
    }

    let (content, mut diags) = block.body.content(&check_schema());
    if !valid_identifier(&check.name) {
        diags.push(Diagnostic::error(
            "Invalid check block name",
            BAD_IDENTIFIER_DETAIL,
            block.labels[0].range.clone(),
        ));
    }

    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "data" => {
                if let Some(existing) = &check.data_resource {
                    diags.push(Diagnostic::error(
                        "Multiple data resource blocks",
                        format!(
                            "This check block already has a data resource defined at {}.",
                            existing.decl_range
                        ),
                        inner.def_range(),
                    ));
                    continue;
                }
                let (mut data, more) = decode_data_block(inner, override_file, true);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    data.container_check = Some(check.name.clone());
                    check.data_resource = Some(data);
                }
            }
            _ => {
                let (rule, more) = decode_check_rule_block(inner, override_file);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    check.asserts.push(rule);
                }
            }
        }
    }

    if check.asserts.is_empty() {
        diags.push(Diagnostic::error(
            "Zero assert blocks",
            "Check blocks must have at least one assert block.",
            check.decl_range.clone(),
        ));
    }
    (check, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_block, parse};

    fn decode(src: &str) -> (Check, Diagnostics) {
        let file = parse(src);
        decode_check_block(&first_block(&file), false)
    }

    #[test]
    fn data_and_asserts() {
        let (check, diags) = decode(
            "check \"health\" {\n  data \"http\" \"site\" {\n    url = \"x\"\n  }\n  assert {\n    condition     = data.http.site.status_code == 200\n    error_message = \"down\"\n  }\n}\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(check.asserts.len(), 1);
        let data = check.data_resource.unwrap();
        assert_eq!(data.addr().to_string(), "data.http.site");
        assert_eq!(data.container_check.as_deref(), Some("health"));
    }

    #[test]
    fn nested_data_rules() {
        let (check, diags) = decode(
            "check \"c\" {\n  data \"a\" \"b\" {\n    count = 1\n    lifecycle {}\n  }\n  data \"a\" \"c\" {}\n  assert {\n    condition     = data.a.b.ok\n    error_message = \"x\"\n  }\n}\n",
        );
        let summaries: Vec<_> = diags.iter().map(|d| d.summary.as_str()).collect();
        assert_eq!(
            summaries,
            ["Invalid \"count\" attribute", "Invalid lifecycle block"]
        );
        assert_eq!(
            diags[0].detail,
            "The \"count\" meta-argument is not supported within nested data blocks."
        );
        // The invalid data block is dropped, so the second is accepted.
        assert_eq!(check.data_resource.unwrap().name, "c");
    }

    #[test]
    fn zero_asserts_and_bad_name() {
        let (_, diags) = decode("check \"1bad\" {\n}\n");
        let summaries: Vec<_> = diags.iter().map(|d| d.summary.as_str()).collect();
        assert_eq!(
            summaries,
            ["Invalid check block name", "Zero assert blocks"]
        );
    }

    #[test]
    fn no_overrides() {
        let file = parse("check \"c\" {\n}\n");
        let (_, diags) = decode_check_block(&first_block(&file), true);
        assert_eq!(diags[0].summary, "Can't override check blocks");
    }
}
