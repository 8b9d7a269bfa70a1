//! HCL syntax for tofu-rs: native (`.tf`, `.tofu`) and JSON (`.tf.json`,
//! `.tofu.json`) files lowered into ONE tree of bodies, blocks, attributes
//! and expressions, every node carrying its source [`Range`].
//!
//! This crate knows nothing of values, evaluation or OpenTofu's blocks: it
//! owns source text, ranges, parsing and HCL's schema-driven body decoding.
//! Go's `%q` quoting comes from `gocompat` and is re-exported here.

pub mod ast;
pub mod body;
mod content_native;
pub mod diagnostic;
pub mod hclwrite_quote;
pub mod ident;
pub mod json;
pub mod native;
pub mod pos;
pub mod static_expr;

use std::sync::Arc;

pub use ast::{
    BinaryOp, Expr, ExprKind, ForExpr, FunctionCall, JsonNode, JsonProperty, JsonValue, Literal,
    ObjectItem, ObjectKey, StepKind, Traversal, TraversalStep, UnaryOp,
};
pub use body::{
    Attribute, AttributeSchema, Block, BlockHeaderSchema, Body, BodyContent, BodySchema, Label,
};
pub use diagnostic::{has_errors, Diagnostic, Diagnostics, Severity};
/// Go's `strconv.Quote`, re-exported from `gocompat` under the names every
/// crate above already uses (`hclsyntax::go_quote`).
pub use gocompat::quote::{
    is_print as go_is_print, quote as go_quote, quote_bytes as go_quote_bytes,
};
pub use ident::valid_identifier;
pub use pos::{Pos, Range, SourceFile};

/// A parsed configuration file: its source (for quoting in diagnostics) and
/// its body.
#[derive(Debug, Clone)]
pub struct File {
    pub source: Arc<SourceFile>,
    pub body: Body,
}

/// Parses one file. Files whose name ends in `.json` use the JSON syntax,
/// all others the native syntax. Never panics: whatever is wrong with the
/// bytes is reported, and the returned body holds what could be read.
pub fn parse_file(name: &str, bytes: &[u8]) -> (File, Diagnostics) {
    let text = match std::str::from_utf8(bytes) {
        // Straight into the shared text: no intermediate `String` copy.
        Ok(t) => Arc::<str>::from(t),
        Err(e) => {
            let source = Arc::new(SourceFile::new(name, String::from_utf8_lossy(bytes)));
            let at = source.range(e.valid_up_to(), e.valid_up_to() + 1);
            let diag = Diagnostic::error(
                "Invalid character encoding",
                "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.",
                at.clone(),
            );
            let body = Body::empty(source.range(0, 0));
            return (File { source, body }, vec![diag]);
        }
    };
    let source = Arc::new(SourceFile::new(name, text));
    let (body, diags) = if name.ends_with(".json") {
        json::parse(&source)
    } else {
        native::parse_body(&source)
    };
    (File { source, body }, diags)
}
