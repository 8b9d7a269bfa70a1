//! `terraform { backend "type" { ... } }`, as OpenTofu's `backend.go`. The
//! body is decoded later, statically, against the backend's schema.

use hclsyntax::{Block, Body, Diagnostics, Range};

/// A `backend` block.
#[derive(Debug, Clone)]
pub struct Backend {
    /// The backend type (the block label).
    pub type_name: String,
    pub type_range: Range,
    /// The backend's arguments, decoded later against its schema.
    pub config: Body,
    /// The block header (`backend "type"`).
    pub decl_range: Range,
}

/// Decodes a `backend` block; nothing can be wrong with it yet.
pub fn decode_backend_block(block: &Block) -> (Option<Backend>, Diagnostics) {
    let Some(label) = block.labels.first() else {
        return (None, Vec::new());
    };
    (
        Some(Backend {
            type_name: label.value.clone(),
            type_range: label.range.clone(),
            config: block.body.clone(),
            decl_range: block.def_range(),
        }),
        Vec::new(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::blocks;

    #[test]
    fn backend_json() {
        let src = r#"{"terraform": {"backend": {"s3": {"bucket": "b"}}}}"#;
        let tf = blocks("b.tf.json", src, "terraform", &[]).unwrap();
        let (content, _, _) = tf[0]
            .body
            .partial_content(&hclsyntax::BodySchema::new(&[], &[("backend", &["type"])]));
        let (b, diags) = decode_backend_block(&content.blocks[0]);
        assert!(diags.is_empty());
        let b = b.unwrap();
        assert_eq!(b.type_name, "s3");
        let (attrs, _) = b.config.just_attributes();
        assert_eq!(attrs[0].name, "bucket");
    }
}
