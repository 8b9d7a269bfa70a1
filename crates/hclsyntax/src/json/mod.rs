//! JSON syntax (`.tf.json`, `.tofu.json`). PLACEHOLDER CONTRACT: being
//! written now; the signatures are the contract other modules rely on.

pub mod body;

use crate::ast::{Expr, JsonNode};
use crate::body::Body;
use crate::diagnostic::Diagnostics;
use crate::pos::SourceFile;

/// Parses a whole JSON file into a body (the root must be an object).
pub fn parse(source: &SourceFile) -> (Body, Diagnostics) {
    (Body::empty(source.range(0, 0)), Vec::new())
}

/// How JSON strings are read when a JSON value becomes an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringMode {
    /// Strings are templates (`"${var.x}-a"`): evaluation.
    Template,
    /// Strings are native expressions (`"aws_instance.foo"`,
    /// `"list(string)"`): static analysis such as references in
    /// `depends_on`, type constraints and keywords.
    Expression,
}

/// The native-equivalent expression of a JSON value: arrays become tuples,
/// objects become object constructors (property names as literal keys,
/// themselves templates in `Template` mode), strings are parsed per `mode`
/// with ranges inside the JSON file; numbers, bools, null are literals.
pub fn to_expression(node: &JsonNode, mode: StringMode) -> (Expr, Diagnostics) {
    let _ = mode;
    (Expr::new(crate::ast::ExprKind::Json(node.clone()), node.range.clone()), Vec::new())
}
