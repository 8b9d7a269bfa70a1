//! JSON syntax (`.tf.json`, `.tofu.json`), as HCL's `json` package reads
//! it: an own scanner and parser keep a range for every value and property
//! name, properties in source order with duplicates, and numbers as
//! written; [`body`] decodes bodies against schemas and [`to_expression`]
//! turns values into native-equivalent expressions.

pub mod body;
mod expr;
mod parser;
mod scanner;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_body;

pub use expr::to_expression;
pub use parser::MAX_DEPTH;

use crate::ast::{JsonNode, JsonValue};
use crate::body::Body;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::{Pos, Range, SourceFile};

/// Parses a whole JSON file into a body. The root must be an object or an
/// array of objects; anything else is reported and yields an empty body.
pub fn parse(source: &SourceFile) -> (Body, Diagnostics) {
    let (root, mut diags) = parser::parse_value(source);
    match root {
        Ok(node) if matches!(node.value, JsonValue::Object(_) | JsonValue::Array(_)) => {
            let range = node.range.clone();
            let missing = missing_item_range(&node);
            (Body::json(vec![node], range, missing), diags)
        }
        other => {
            let subject = match &other {
                Ok(node) => start_range(node),
                Err(r) => r.clone(),
            };
            diags.push(Diagnostic::error(
                "Root value must be object",
                "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
                subject,
            ));
            // An empty placeholder, so that decoding the body does not
            // report the same problem again in more general terms.
            let fake = source.range(0, 0);
            let empty = JsonNode {
                value: JsonValue::Object(Vec::new()),
                range: fake.clone(),
            };
            (Body::json(vec![empty], fake.clone(), fake), diags)
        }
    }
}

/// Parses the whole of `source` as one JSON value of any type (HCL's
/// `json.ParseExpression`). `None` when it could not be parsed.
pub fn parse_value(source: &SourceFile) -> (Option<JsonNode>, Diagnostics) {
    let (node, diags) = parser::parse_value(source);
    (node.ok(), diags)
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

/// The first range of a value, where HCL points problems with its type:
/// the opening brace or bracket of an object or array, else the value.
pub fn start_range(node: &JsonNode) -> Range {
    match node.value {
        JsonValue::Object(_) | JsonValue::Array(_) => open_range(node),
        _ => node.range.clone(),
    }
}

/// The opening brace or bracket of an object or array.
pub(crate) fn open_range(node: &JsonNode) -> Range {
    let r = &node.range;
    let end = Pos::at(
        r.start.line as usize,
        r.start.column as usize + 1,
        r.start.offset() + 1,
    );
    Range::new(r.filename.clone(), r.start, end.min(r.end))
}

/// The closing brace or bracket of an object or array.
pub(crate) fn close_range(node: &JsonNode) -> Range {
    let r = &node.range;
    if r.is_empty() {
        return r.clone();
    }
    let start = Pos {
        line: r.end.line,
        column: r.end.column.saturating_sub(1).max(1),
        byte: r.end.byte.saturating_sub(1),
    };
    Range::new(r.filename.clone(), start, r.end)
}

/// HCL's `MissingItemRange` of a JSON body: the closing brace of an object,
/// the opening bracket of an array, else the value's start.
pub(crate) fn missing_item_range(node: &JsonNode) -> Range {
    match node.value {
        JsonValue::Object(_) => close_range(node),
        JsonValue::Array(_) => open_range(node),
        _ => start_range(node),
    }
}
