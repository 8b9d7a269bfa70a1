//! One body decoded against a block schema, as hcldec decodes
//! `configschema.Block.DecoderSpec()` (`internal/configs/configschema/
//! decoder_spec.go`, hcldec's `AttrSpec`, `BlockSpec`, `BlockListSpec`,
//! `BlockTupleSpec`, `BlockSetSpec`, `BlockMapSpec`, `BlockObjectSpec`):
//! arguments converted to their types, nested blocks collected by their
//! nesting mode with their item limits, `dynamic` blocks expanded first.

use std::collections::{BTreeMap, BTreeSet};

use configs::merged_body::ConfigBody;
use configschema::{Block, NestedBlock, NestingMode};
use cty::{Type, Value, ValueMarks};
use hclsyntax::{AttributeSchema, BlockHeaderSchema, BodySchema, Diagnostic, Diagnostics};
use lang::{eval_expr, EvalContext};

use super::blocktoattr;
use super::dynamic::{self, BlockInstance};
use crate::resources::dynamic_blocks::content_with_dynamic;

/// Nested blocks deeper than this are not decoded (their value is
/// unknown): a schema is finite, but one read from a file may be deep.
pub const MAX_DEPTH: usize = 256;

const MAP_LABELS: &[&str] = &["key"];

/// Where a body is decoded: how deep, under which `dynamic` blocks.
#[derive(Default, Clone)]
pub struct Frame {
    /// The marks of the `for_each` values of the `dynamic` blocks that
    /// generated the body (dynblock's `valueMarks`).
    pub marks: ValueMarks,
    pub depth: usize,
    /// Generated from an unknown `for_each` (dynblock's `unknownBody`):
    /// its arguments are not evaluated but unknown.
    pub unknown: bool,
}

impl Frame {
    /// The frame of a nested block's body.
    pub fn enter(&self, inst: &BlockInstance) -> Frame {
        let mut marks = self.marks.clone();
        marks.extend(inst.marks.iter().cloned());
        Frame {
            marks,
            depth: self.depth + 1,
            unknown: self.unknown || inst.unknown,
        }
    }
}

/// The HCL schema `body` is read with (`ImpliedSchema` of the decoder
/// spec, after blocktoattr), and the attributes it reads as blocks.
pub fn body_schema(body: &ConfigBody, schema: &Block) -> (BodySchema, BTreeSet<String>) {
    let as_blocks = blocktoattr::appears_as_blocks(body, schema);
    let mut body_schema = BodySchema {
        attributes: Vec::new(),
        blocks: Vec::new(),
    };
    for (name, attr) in &schema.attributes {
        if as_blocks.contains(name) {
            body_schema.blocks.push(BlockHeaderSchema {
                type_name: name.clone().into(),
                label_names: &[],
            });
        } else {
            body_schema.attributes.push(AttributeSchema {
                name: name.clone().into(),
                required: attr.required,
            });
        }
    }
    for (name, nested) in &schema.block_types {
        // A block type named like an attribute: the attribute wins, as in
        // DecoderSpec.
        if schema.attributes.contains_key(name) {
            continue;
        }
        body_schema.blocks.push(BlockHeaderSchema {
            type_name: name.clone().into(),
            label_names: if nested.nesting == NestingMode::Map {
                MAP_LABELS
            } else {
                &[]
            },
        });
    }
    (body_schema, as_blocks)
}

/// Decodes `body` against `schema` in `ctx`.
pub fn decode_block(
    body: &ConfigBody,
    schema: &Block,
    ctx: &EvalContext<'_>,
    frame: &Frame,
    diags: &mut Diagnostics,
) -> Value {
    if frame.depth > MAX_DEPTH {
        return Value::unknown(schema.implied_type());
    }
    let (body_schema, as_blocks) = body_schema(body, schema);
    let (content, d) = content_with_dynamic(body, &body_schema);
    diags.extend(d);

    // The blocks of each type, dynamic ones expanded, in source order.
    let mut blocks: BTreeMap<&str, Vec<BlockInstance>> = BTreeMap::new();
    for b in &content.blocks {
        if b.type_name == "dynamic" {
            let Some(label) = b.labels.first() else {
                continue;
            };
            let Some(header) = body_schema.block(&label.value) else {
                continue;
            };
            let expanded = dynamic::expand(b, header.label_names.len(), ctx, diags);
            let name = header.type_name.as_ref();
            blocks.entry(name).or_default().extend(expanded);
        } else if let Some(header) = body_schema.block(&b.type_name) {
            blocks
                .entry(header.type_name.as_ref())
                .or_default()
                .push(BlockInstance::written(b));
        }
    }

    let mut attrs = BTreeMap::new();
    for (name, attr) in &schema.attributes {
        let ty = attr.implied_type();
        let value = if as_blocks.contains(name) {
            let found = blocks.remove(name.as_str()).unwrap_or_default();
            blocktoattr::decode_blocks(name, &ty, &found, ctx, frame, diags)
        } else {
            match content.attribute(name) {
                Some(a) => decode_attribute(a, &ty, &attr_spec_type(attr), ctx, frame, diags),
                None => Value::null(ty),
            }
        };
        attrs.insert(name.clone(), value);
    }
    for (name, nested) in &schema.block_types {
        if schema.attributes.contains_key(name) {
            continue;
        }
        let found = blocks.remove(name.as_str()).unwrap_or_default();
        let value = decode_nested(
            name,
            nested,
            &found,
            &content.missing_item_range,
            ctx,
            frame,
            diags,
        );
        attrs.insert(name.clone(), value);
    }
    Value::object(attrs)
}

/// The type an argument's value is converted to: nested attribute types
/// keep their optional attributes (hcldec's `AttrSpec.Type`).
fn attr_spec_type(attr: &configschema::Attribute) -> Type {
    match &attr.ty {
        configschema::AttributeType::Type(t) => t.clone(),
        configschema::AttributeType::Nested(o) => o.spec_type(),
    }
}

/// hcldec's `AttrSpec.decode`: the expression's value converted to the
/// attribute's type, "Incorrect attribute value type" when it cannot be.
pub fn decode_attribute(
    attr: &hclsyntax::Attribute,
    implied: &Type,
    spec: &Type,
    ctx: &EvalContext<'_>,
    frame: &Frame,
    diags: &mut Diagnostics,
) -> Value {
    let marks = &frame.marks;
    let v = if frame.unknown {
        Value::dynamic()
    } else {
        let (v, d) = eval_expr(&attr.expr, ctx);
        diags.extend(d);
        v
    };
    let v = if marks.is_empty() {
        v
    } else {
        v.with_marks(marks.iter().cloned())
    };
    match cty::convert::convert(&v, spec) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "Incorrect attribute value type",
                    format!(
                        "Inappropriate value for attribute {}: {e}.",
                        addrs::go_quote(&attr.name)
                    ),
                    attr.expr.range.clone(),
                )
                .with_context(attr.name_range.to(&attr.expr.range)),
            );
            Value::unknown(implied.clone())
        }
    }
}

/// One nested block type's blocks as a value of its nesting mode.
fn decode_nested(
    name: &str,
    nested: &NestedBlock,
    found: &[BlockInstance],
    missing: &hclsyntax::Range,
    ctx: &EvalContext<'_>,
    frame: &Frame,
    diags: &mut Diagnostics,
) -> Value {
    let child_ty = nested.block.implied_type();
    let quoted = addrs::go_quote(name);
    let decode_one = |inst: &BlockInstance, diags: &mut Diagnostics| {
        let inner = frame.enter(inst);
        inst.in_context(ctx, |ctx| {
            decode_block(
                &ConfigBody::Single(inst.body.clone()),
                &nested.block,
                ctx,
                &inner,
                diags,
            )
        })
    };
    match nested.nesting {
        NestingMode::Single | NestingMode::Group => {
            let mut chosen: Option<&BlockInstance> = None;
            for inst in found {
                if let Some(first) = chosen {
                    diags.push(Diagnostic::error(
                        format!("Duplicate {name} block"),
                        format!(
                            "Only one block of type {quoted} is allowed. Previous definition was at {}.",
                            first.def_range
                        ),
                        inst.def_range.clone(),
                    ));
                    break;
                }
                chosen = Some(inst);
            }
            match chosen {
                // hcldec's BlockSpec does not ask whether the body is
                // unknown: its arguments are, one by one.
                Some(inst) => decode_one(inst, diags),
                None => {
                    if nested.min_items == 1 {
                        diags.push(Diagnostic::error(
                            format!("Missing {name} block"),
                            format!("A block of type {quoted} is required here."),
                            missing.clone(),
                        ));
                    }
                    if nested.nesting == NestingMode::Group {
                        nested.block.empty_value()
                    } else {
                        Value::null(child_ty)
                    }
                }
            }
        }
        NestingMode::List | NestingMode::Set => {
            let mut elems = Vec::new();
            let mut unknown = false;
            for inst in found {
                let v = decode_one(inst, diags);
                if inst.unknown || frame.unknown {
                    unknown = true;
                    break;
                }
                elems.push(v);
            }
            let ty = if nested.nesting == NestingMode::Set {
                Type::set(child_ty.clone())
            } else if child_ty.has_dynamic_types() {
                Type::Dynamic
            } else {
                Type::list(child_ty.clone())
            };
            if unknown {
                return Value::unknown(ty);
            }
            check_items(name, nested, found, missing, diags);
            match nested.nesting {
                NestingMode::Set if elems.is_empty() => Value::set_empty(child_ty),
                NestingMode::Set => {
                    Value::set(child_ty, elems).unwrap_or_else(|_| Value::unknown(ty))
                }
                _ if ty == Type::Dynamic => Value::tuple(elems),
                _ if elems.is_empty() => Value::list_empty(child_ty),
                _ => Value::list(child_ty, elems).unwrap_or_else(|_| Value::unknown(ty)),
            }
        }
        NestingMode::Map => {
            let dynamic = child_ty.has_dynamic_types();
            let ty = if dynamic {
                Type::Dynamic
            } else {
                Type::map(child_ty.clone())
            };
            let mut elems: BTreeMap<String, Value> = BTreeMap::new();
            for inst in found {
                // BlockMapSpec asks before decoding: nothing inside an
                // unknown body is reported.
                if inst.unknown || frame.unknown {
                    return Value::unknown(ty);
                }
                let v = decode_one(inst, diags);
                let Some(key) = inst.labels.first() else {
                    continue;
                };
                if elems.contains_key(key) {
                    diags.push(Diagnostic::error(
                        format!("Duplicate {name} block"),
                        format!(
                            "A block for {name} {} was already defined. The {name} labels must be unique.",
                            addrs::go_quote(key)
                        ),
                        inst.def_range.clone(),
                    ));
                    continue;
                }
                elems.insert(key.clone(), v);
            }
            if dynamic {
                Value::object(elems)
            } else if elems.is_empty() {
                Value::map_empty(child_ty)
            } else {
                Value::map(child_ty, elems).unwrap_or_else(|_| Value::unknown(ty))
            }
        }
    }
}

/// hcldec's `MinItems`/`MaxItems` checks for list and set blocks.
fn check_items(
    name: &str,
    nested: &NestedBlock,
    found: &[BlockInstance],
    missing: &hclsyntax::Range,
    diags: &mut Diagnostics,
) {
    let count = found.len() as i64;
    let quoted = addrs::go_quote(name);
    if count < nested.min_items {
        diags.push(Diagnostic::error(
            format!("Insufficient {name} blocks"),
            format!(
                "At least {} {quoted} blocks are required.",
                nested.min_items
            ),
            missing.clone(),
        ));
    } else if nested.max_items > 0 && count > nested.max_items {
        let extra = &found[nested.max_items as usize];
        diags.push(Diagnostic::error(
            format!("Too many {name} blocks"),
            format!(
                "No more than {} {quoted} blocks are allowed",
                nested.max_items
            ),
            extra.body.missing_item_range.clone(),
        ));
    }
}
