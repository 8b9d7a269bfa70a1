//! Helpers for the decoders' unit tests.

use std::sync::Arc;

use hclsyntax::{Block, BodySchema, File};

/// Parses `src` as `main.tf`, panicking on syntax errors.
pub fn parse(src: &str) -> File {
    parse_named("main.tf", src)
}

/// Parses `src` under the given file name, panicking on syntax errors.
pub fn parse_named(name: &str, src: &str) -> File {
    let (file, diags) = hclsyntax::parse_file(name, src.as_bytes());
    assert!(diags.is_empty(), "syntax errors in test source: {diags:?}");
    file
}

/// The file's first top-level block.
pub fn first_block(file: &File) -> Arc<Block> {
    all_blocks(file).into_iter().next().expect("a block")
}

/// The file's top-level blocks of the usual types, in order.
pub fn all_blocks(file: &File) -> Vec<Arc<Block>> {
    let schema = BodySchema::new(
        &[],
        &[
            ("resource", &["type", "name"]),
            ("data", &["type", "name"]),
            ("ephemeral", &["type", "name"]),
            ("provider", &["name"]),
            ("moved", &[]),
            ("import", &[]),
            ("removed", &[]),
            ("check", &["name"]),
            ("module", &["name"]),
            ("locals", &[]),
            ("output", &["name"]),
            ("variable", &["name"]),
            ("terraform", &[]),
        ],
    );
    let (content, _) = file.body.content(&schema);
    content.blocks
}
