//! JSON values as native-equivalent expressions, following what HCL's JSON
//! `expression` does when evaluated (`Template`) or statically analysed
//! (`Expression`).

use crate::ast::{Expr, ExprKind, JsonNode, JsonValue, Literal, ObjectItem, ObjectKey};
use crate::diagnostic::Diagnostics;
use crate::pos::{Pos, Range};

use super::StringMode;

/// The native-equivalent expression of a JSON value: arrays become tuples,
/// objects become object constructors, numbers, bools and null literals.
///
/// Strings are parsed per `mode`:
/// - `Template`: as the contents of a quoted template, positioned as HCL
///   does it, at the byte after the opening quote (escapes the JSON decoder
///   removed are not seen, so later positions on the line are approximate).
///   Object property names are templates too.
/// - `Expression`: as a native expression positioned, as HCL does for
///   `AsTraversal`/`ExprCall`, at the opening quote. Property names are
///   literal string keys.
pub fn to_expression(node: &JsonNode, mode: StringMode) -> (Expr, Diagnostics) {
    let mut diags = Diagnostics::new();
    let expr = convert(node, mode, &mut diags);
    (expr, diags)
}

fn convert(node: &JsonNode, mode: StringMode, diags: &mut Diagnostics) -> Expr {
    let kind = match &node.value {
        JsonValue::Null => ExprKind::Literal(Literal::Null),
        JsonValue::Bool(b) => ExprKind::Literal(Literal::Bool(*b)),
        JsonValue::Number(n) => ExprKind::Literal(Literal::Number(n.clone())),
        JsonValue::String(s) => return string_expr(s, &node.range, mode, diags),
        JsonValue::Array(values) => {
            ExprKind::Tuple(values.iter().map(|v| convert(v, mode, diags)).collect())
        }
        JsonValue::Object(props) => ExprKind::Object(
            props
                .iter()
                .map(|p| {
                    let key = match mode {
                        StringMode::Template => string_expr(&p.name, &p.name_range, mode, diags),
                        StringMode::Expression => Expr::new(
                            ExprKind::Literal(Literal::String(p.name.clone())),
                            p.name_range.clone(),
                        ),
                    };
                    ObjectItem {
                        key: ObjectKey {
                            expr: key,
                            force_non_literal: false,
                        },
                        value: convert(&p.value, mode, diags),
                    }
                })
                .collect(),
        ),
    };
    Expr::new(kind, node.range.clone())
}

/// A JSON string (whose token is at `range`) parsed per `mode`.
fn string_expr(s: &str, range: &Range, mode: StringMode, diags: &mut Diagnostics) -> Expr {
    let (expr, d) = match mode {
        StringMode::Template => {
            // Skip over the opening quote mark.
            let start = Pos::at(
                range.start.line as usize,
                range.start.column as usize + 1,
                range.start.offset() + 1,
            );
            crate::native::parse_template(s, &range.filename, start)
        }
        StringMode::Expression => crate::native::parse_expression(s, &range.filename, range.start),
    };
    diags.extend(d);
    expr
}
