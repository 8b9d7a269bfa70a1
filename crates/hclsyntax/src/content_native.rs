//! Schema decoding of native-syntax bodies, as `hclsyntax.Body`'s
//! `Content`, `PartialContent` and `JustAttributes` do it, with HCL's
//! messages.

use std::sync::Arc;

use crate::body::{name_suggestion, Attribute, Block, Body, BodyContent, BodySchema};
use crate::diagnostic::{Diagnostic, Diagnostics};

type ContentResult = ((BodyContent, Diagnostics), Body);

/// Decodes `body` against `schema`. With `partial`, items the schema does not
/// mention are left in the returned body; otherwise they are errors.
pub(crate) fn content(
    body: &Body,
    attributes: &[Arc<Attribute>],
    blocks: &[Arc<Block>],
    schema: &BodySchema,
    partial: bool,
) -> ContentResult {
    let mut diags = Diagnostics::new();
    let mut found_attrs: Vec<Arc<Attribute>> = Vec::new();
    let mut taken_attrs: Vec<String> = Vec::new();

    for attr_schema in &schema.attributes {
        let name: &str = &attr_schema.name;
        let attr = attributes.iter().find(|a| a.name == name);
        match attr {
            Some(attr) if !body.is_attr_hidden(name) => {
                taken_attrs.push(name.to_string());
                found_attrs.push(attr.clone());
            }
            _ => {
                if attr_schema.required {
                    diags.push(Diagnostic::error(
                        "Missing required argument",
                        format!(
                            "The argument \"{name}\" is required, but no definition was found."
                        ),
                        body.missing_item_range.clone(),
                    ));
                }
            }
        }
    }
    // Source order for the caller, as the attributes were written.
    found_attrs.sort_by_key(|a| a.range.start.byte);

    for attr in attributes {
        if body.is_attr_hidden(&attr.name) || taken_attrs.contains(&attr.name) {
            continue;
        }
        if schema.block(&attr.name).is_some() {
            diags.push(Diagnostic::error(
                "Unsupported argument",
                format!(
                    "An argument named \"{0}\" is not expected here. Did you mean to define a block of type \"{0}\"?",
                    attr.name
                ),
                attr.name_range.clone(),
            ));
        }
    }

    let mut found_blocks = Vec::new();
    for block in blocks {
        if body.is_block_hidden(&block.type_name) {
            continue;
        }
        let Some(block_schema) = schema.block(&block.type_name) else {
            continue;
        };
        if let Some(d) = label_count_problem(block, block_schema.label_names) {
            diags.push(d);
            continue;
        }
        found_blocks.push(block.clone());
    }

    let remain = body.with_hidden(
        taken_attrs.clone(),
        schema
            .blocks
            .iter()
            .map(|b| b.type_name.to_string())
            .collect(),
    );

    if !partial {
        for attr in attributes {
            if body.is_attr_hidden(&attr.name) || taken_attrs.contains(&attr.name) {
                continue;
            }
            if schema.block(&attr.name).is_some() {
                continue; // reported above
            }
            let unset = schema
                .attributes
                .iter()
                .map(|a| a.name.as_ref())
                .filter(|n| !taken_attrs.iter().any(|t| t == n));
            let suggestion = match name_suggestion(&attr.name, unset) {
                Some(s) => format!(" Did you mean \"{s}\"?"),
                None => String::new(),
            };
            diags.push(Diagnostic::error(
                "Unsupported argument",
                format!(
                    "An argument named \"{}\" is not expected here.{suggestion}",
                    attr.name
                ),
                attr.name_range.clone(),
            ));
        }
        for block in blocks {
            if body.is_block_hidden(&block.type_name) || schema.block(&block.type_name).is_some() {
                continue;
            }
            diags.push(unsupported_block(block, schema));
        }
    }

    let content = BodyContent {
        attributes: found_attrs,
        blocks: found_blocks,
        missing_item_range: body.missing_item_range.clone(),
    };
    ((content, diags), remain)
}

/// HCL's error for a block type the schema does not know.
pub(crate) fn unsupported_block(block: &Block, schema: &BodySchema) -> Diagnostic {
    let ty = &block.type_name;
    let suggestion = match name_suggestion(ty, schema.blocks.iter().map(|b| b.type_name.as_ref())) {
        Some(s) => format!(" Did you mean \"{s}\"?"),
        None if schema.attribute(ty).is_some() => format!(
            " Did you mean to define argument \"{ty}\"? If so, use the equals sign to assign it a value."
        ),
        None => String::new(),
    };
    Diagnostic::error(
        "Unsupported block type",
        format!("Blocks of type \"{ty}\" are not expected here.{suggestion}"),
        block.type_range.clone(),
    )
}

/// HCL's errors for a block with too many or too few labels.
pub(crate) fn label_count_problem(block: &Block, label_names: &[&str]) -> Option<Diagnostic> {
    let name = &block.type_name;
    let header = block.type_range.to(&block.open_brace_range);
    if block.labels.len() > label_names.len() {
        let (detail, subject) = if label_names.is_empty() {
            (
                format!("No labels are expected for {name} blocks."),
                block.labels[0].range.clone(),
            )
        } else {
            (
                format!(
                    "Only {} labels ({}) are expected for {name} blocks.",
                    label_names.len(),
                    label_names.join(", ")
                ),
                block.labels[label_names.len()].range.clone(),
            )
        };
        return Some(
            Diagnostic::error(format!("Extraneous label for {name}"), detail, subject)
                .with_context(header),
        );
    }
    if block.labels.len() < label_names.len() {
        return Some(
            Diagnostic::error(
                format!("Missing {} for {name}", label_names[block.labels.len()]),
                format!(
                    "All {name} blocks must have {} labels ({}).",
                    label_names.len(),
                    label_names.join(", ")
                ),
                block.open_brace_range.clone(),
            )
            .with_context(header),
        );
    }
    None
}

/// Every attribute of a body that should hold no blocks.
pub(crate) fn just_attributes(
    body: &Body,
    attributes: &[Arc<Attribute>],
    blocks: &[Arc<Block>],
) -> (Vec<Arc<Attribute>>, Diagnostics) {
    let mut diags = Diagnostics::new();
    if let Some(example) = blocks.first() {
        diags.push(Diagnostic::error(
            format!("Unexpected \"{}\" block", example.type_name),
            "Blocks are not allowed here.",
            example.type_range.clone(),
        ));
    }
    let attrs = attributes
        .iter()
        .filter(|a| !body.is_attr_hidden(&a.name))
        .cloned()
        .collect();
    (attrs, diags)
}
