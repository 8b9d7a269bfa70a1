//! Native syntax (`.tf`, `.tofu`, `.tfvars`): parsed and lowered into the
//! shared tree. PLACEHOLDER CONTRACT: being written now; the signatures are
//! the contract other modules rely on.

use crate::ast::{Expr, Traversal};
use crate::body::Body;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::{Pos, SourceFile};

fn missing(source: &SourceFile) -> Diagnostic {
    Diagnostic::error("Native syntax parser missing", "", source.range(0, 0))
}

/// Parses a whole file body.
pub fn parse_body(source: &SourceFile) -> (Body, Diagnostics) {
    (Body::empty(source.range(0, 0)), vec![missing(source)])
}

/// Parses `text` as a single expression; ranges are reported in the file
/// `filename` as if `text` started at `start` there.
pub fn parse_expression(text: &str, filename: &str, start: Pos) -> (Expr, Diagnostics) {
    let _ = (text, filename, start);
    unimplemented_placeholder()
}

/// Parses `text` as the contents of a quoted template (without the quotes).
pub fn parse_template(text: &str, filename: &str, start: Pos) -> (Expr, Diagnostics) {
    let _ = (text, filename, start);
    unimplemented_placeholder()
}

/// Parses `text` as an absolute traversal (`aws_instance.foo[0].id`).
pub fn parse_traversal_abs(
    text: &str,
    filename: &str,
    start: Pos,
) -> (Option<Traversal>, Diagnostics) {
    let _ = (text, filename, start);
    (None, Vec::new())
}

fn unimplemented_placeholder() -> (Expr, Diagnostics) {
    let src = SourceFile::new("", "");
    let r = src.range(0, 0);
    (
        Expr::new(crate::ast::ExprKind::Literal(crate::ast::Literal::Null), r),
        vec![missing(&src)],
    )
}
