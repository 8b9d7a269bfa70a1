//! `dynamic` blocks in a body decoded against a schema, as HCL's `dynblock`
//! extension sees them (`expandBody.Content` / `expandBlocks`): the schema
//! is extended with `dynamic "TYPE"` blocks, and one whose TYPE is not a
//! block type of the schema is "Unsupported block type" pointing at the
//! label, naming TYPE (the plain decoder would name "dynamic").

use configs::merged_body::ConfigBody;
use hclsyntax::{BlockHeaderSchema, BodyContent, BodySchema, Diagnostic, Diagnostics};

/// Decodes `body` against `schema`, accepting `dynamic` blocks. Dynamic
/// blocks of a type the schema has are kept in the content (type
/// `dynamic`) for the caller to expand; the others are errors.
pub fn content_with_dynamic(body: &ConfigBody, schema: &BodySchema) -> (BodyContent, Diagnostics) {
    let mut extended = schema.clone();
    extended.blocks.push(BlockHeaderSchema {
        type_name: "dynamic".into(),
        label_names: &["type"],
    });
    let (mut content, mut diags) = body.content(&extended);
    content.blocks.retain(|b| {
        if b.type_name != "dynamic" {
            return true;
        }
        let Some(label) = b.labels.first() else {
            return false;
        };
        if schema.blocks.iter().any(|s| s.type_name == label.value) {
            return true;
        }
        diags.push(Diagnostic::error(
            "Unsupported block type",
            format!(
                "Blocks of type {} are not expected here.",
                addrs::go_quote(&label.value)
            ),
            label.range.clone(),
        ));
        false
    });
    (content, diags)
}
