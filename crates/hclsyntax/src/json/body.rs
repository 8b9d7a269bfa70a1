//! Schema decoding of JSON bodies, as HCL's json `body.Content`,
//! `PartialContent` and `JustAttributes` do it, with HCL's messages.
//!
//! A JSON body is a list of values (see [`crate::body::BodySyntax::Json`]);
//! each is normally an object, or an array of objects whose properties all
//! belong to the body. Which properties are arguments and which are blocks
//! is only known from the schema; block labels are nested object keys.

use std::sync::Arc;

use crate::ast::{Expr, ExprKind, JsonNode, JsonProperty, JsonValue};
use crate::body::{name_suggestion, Attribute, Block, Body, BodyContent, BodySchema, Label};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::Range;

use super::{close_range, missing_item_range, start_range};

type ContentResult = ((BodyContent, Diagnostics), Body);

/// Decodes `body` (whose syntax is `objects`) against `schema`; with
/// `partial`, unknown properties are left in the returned body.
pub(crate) fn content(
    body: &Body,
    objects: &[JsonNode],
    schema: &BodySchema,
    partial: bool,
) -> ContentResult {
    let mut diags = Diagnostics::new();
    let props = collect_body_attrs(objects, &mut diags);

    let hidden = |name: &str| body.is_attr_hidden(name) || body.is_block_hidden(name);
    let mut attributes: Vec<Arc<Attribute>> = Vec::new();
    let mut blocks: Vec<Arc<Block>> = Vec::new();
    let mut used_attrs: Vec<String> = Vec::new();
    let mut used_blocks: Vec<String> = Vec::new();

    for prop in &props {
        let name = prop.name.as_str();
        if hidden(name) {
            continue;
        }
        if schema.attribute(name).is_some() {
            if let Some(existing) = attributes.iter().find(|a| a.name == name) {
                diags.push(
                    Diagnostic::error(
                        "Duplicate argument",
                        format!(
                            "The argument {} was already set at {}.",
                            go_quote(name),
                            existing.range
                        ),
                        prop.name_range.clone(),
                    )
                    .with_context(prop.name_range.clone()),
                );
                continue;
            }
            attributes.push(Arc::new(attribute(prop)));
            used_attrs.push(name.to_string());
        } else if let Some(block_schema) = schema.block(name) {
            let mut unpacker = BlockUnpacker {
                type_name: name,
                type_range: &prop.name_range,
                labels: Vec::new(),
                blocks: &mut blocks,
                diags: &mut diags,
            };
            unpacker.unpack(&prop.value, block_schema.label_names);
            if !used_blocks.iter().any(|b| b == name) {
                used_blocks.push(name.to_string());
            }
        }
        // Anything else is left for a later decoder (or reported below).
    }

    for attr_schema in &schema.attributes {
        if attr_schema.required && !attributes.iter().any(|a| a.name == attr_schema.name) {
            diags.push(Diagnostic::error(
                "Missing required argument",
                format!(
                    "The argument {} is required, but no definition was found.",
                    go_quote(&attr_schema.name)
                ),
                body.missing_item_range.clone(),
            ));
        }
    }

    let remain = body.with_hidden(used_attrs, used_blocks);

    if !partial {
        let remain_hidden =
            |name: &str| remain.is_attr_hidden(name) || remain.is_block_hidden(name);
        // Unused argument names, then every block type (blocks may repeat).
        let suggestions: Vec<&str> = schema
            .attributes
            .iter()
            .map(|a| a.name.as_ref())
            .filter(|n| !remain_hidden(n))
            .chain(schema.blocks.iter().map(|b| b.type_name.as_ref()))
            .collect();
        // HCL collects the properties a second time here, repeating any
        // problems with the body's shape.
        let props = collect_body_attrs(objects, &mut diags);
        for prop in props {
            let name = prop.name.as_str();
            if name == "//" || remain_hidden(name) {
                // "//" properties are comments.
                continue;
            }
            let suggestion = match name_suggestion(name, suggestions.iter().copied()) {
                Some(s) => format!(" Did you mean {}?", go_quote(s)),
                None => String::new(),
            };
            diags.push(
                Diagnostic::error(
                    "Extraneous JSON object property",
                    format!(
                        "No argument or block type is named {}.{suggestion}",
                        go_quote(name)
                    ),
                    prop.name_range.clone(),
                )
                .with_context(prop.name_range.clone()),
            );
        }
    }

    let content = BodyContent {
        attributes,
        blocks,
        missing_item_range: body.missing_item_range.clone(),
    };
    ((content, diags), remain)
}

/// Every property as an attribute (for `locals`, `.tfvars.json`), in source
/// order; `"//"` properties are comments.
pub(crate) fn just_attributes(
    body: &Body,
    objects: &[JsonNode],
) -> (Vec<Arc<Attribute>>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut attrs: Vec<Arc<Attribute>> = Vec::new();
    for node in objects {
        let JsonValue::Object(props) = &node.value else {
            diags.push(Diagnostic::error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
                start_range(node),
            ));
            continue;
        };
        for prop in props {
            let name = prop.name.as_str();
            if name == "//" || body.is_attr_hidden(name) || body.is_block_hidden(name) {
                continue;
            }
            if let Some(existing) = attrs.iter().find(|a| a.name == name) {
                diags.push(Diagnostic::error(
                    "Duplicate attribute definition",
                    format!(
                        "The argument {} was already set at {}.",
                        go_quote(name),
                        existing.range
                    ),
                    prop.name_range.clone(),
                ));
                continue;
            }
            attrs.push(Arc::new(attribute(prop)));
        }
    }
    (attrs, diags)
}

/// A property as an argument: its value stays JSON until the caller knows
/// how to read it.
fn attribute(prop: &JsonProperty) -> Attribute {
    Attribute {
        name: prop.name.clone(),
        name_range: prop.name_range.clone(),
        expr: Expr::new(ExprKind::Json(prop.value.clone()), prop.value.range.clone()),
        range: prop.name_range.to(&prop.value.range),
    }
}

/// The properties of a body's values, in order.
fn collect_body_attrs<'a>(
    objects: &'a [JsonNode],
    diags: &mut Diagnostics,
) -> Vec<&'a JsonProperty> {
    let mut out = Vec::new();
    for node in objects {
        collect_deep_attrs(node, None, &mut out, diags);
    }
    out
}

/// HCL's `collectDeepAttrs`: the properties of an object, or of each
/// object of an array, in order; null has none. `label_name` tailors the
/// messages to a level of block labels.
fn collect_deep_attrs<'a>(
    node: &'a JsonNode,
    label_name: Option<&str>,
    out: &mut Vec<&'a JsonProperty>,
    diags: &mut Diagnostics,
) {
    match &node.value {
        JsonValue::Null => {}
        JsonValue::Object(props) => out.extend(props),
        JsonValue::Array(values) => {
            for v in values {
                if let JsonValue::Object(props) = &v.value {
                    out.extend(props);
                    continue;
                }
                let detail = match label_name {
                    Some(l) => format!(
                        "A JSON object is required here, to specify {l} labels for this block."
                    ),
                    None => "A JSON object is required here, to define arguments and child blocks."
                        .to_string(),
                };
                diags.push(Diagnostic::error(
                    "Incorrect JSON value type",
                    detail,
                    start_range(v),
                ));
            }
        }
        _ => {
            let detail = match label_name {
                Some(l) => format!(
                    "Either a JSON object or JSON array of objects is required here, to specify {l} labels for this block."
                ),
                None => "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks."
                    .to_string(),
            };
            diags.push(Diagnostic::error(
                "Incorrect JSON value type",
                detail,
                start_range(node),
            ));
        }
    }
}

/// HCL's `unpackBlock`: peels one level of object keys per label, then
/// makes one block of an object, one per element of an array, none of null.
struct BlockUnpacker<'a> {
    type_name: &'a str,
    type_range: &'a Range,
    labels: Vec<Label>,
    blocks: &'a mut Vec<Arc<Block>>,
    diags: &'a mut Diagnostics,
}

impl BlockUnpacker<'_> {
    fn unpack(&mut self, node: &JsonNode, labels_left: &[&str]) {
        if let Some((label_name, rest)) = labels_left.split_first() {
            let mut props = Vec::new();
            collect_deep_attrs(node, Some(label_name), &mut props, self.diags);
            if props.is_empty() {
                self.diags.push(Diagnostic::error(
                    "Missing block label",
                    format!(
                        "At least one object property is required, whose name represents the {} block's {label_name}.",
                        self.type_name
                    ),
                    start_range(node),
                ));
                return;
            }
            for prop in props {
                self.labels.push(Label {
                    value: prop.name.clone(),
                    range: prop.name_range.clone(),
                });
                self.unpack(&prop.value, rest);
                self.labels.pop();
            }
            return;
        }

        match &node.value {
            // No block content.
            JsonValue::Null => {}
            // One block.
            JsonValue::Object(_) => self.push_block(node),
            // One block per element; an element that is not an object is
            // reported when its body is decoded.
            JsonValue::Array(values) => {
                for v in values {
                    self.push_block(v);
                }
            }
            _ => self.diags.push(Diagnostic::error(
                "Incorrect JSON value type",
                format!(
                    "Either a JSON object or a JSON array is required, representing the contents of one or more {} blocks.",
                    go_quote(self.type_name)
                ),
                start_range(node),
            )),
        }
    }

    fn push_block(&mut self, node: &JsonNode) {
        let (open, close) = match node.value {
            JsonValue::Object(_) | JsonValue::Array(_) => (start_range(node), close_range(node)),
            _ => (node.range.start_range(), node.range.end_range()),
        };
        let body = Body::json(
            vec![node.clone()],
            node.range.clone(),
            missing_item_range(node),
        );
        self.blocks.push(Arc::new(Block {
            type_name: self.type_name.to_string(),
            type_range: self.type_range.clone(),
            labels: self.labels.clone(),
            body,
            open_brace_range: open,
            close_brace_range: close,
        }));
    }
}

pub(crate) use crate::go_quote;
