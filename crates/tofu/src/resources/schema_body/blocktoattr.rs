//! OpenTofu's `internal/lang/blocktoattr`: an attribute whose type is a
//! list or set of objects may be written as blocks of its name (as SDKv2
//! providers' users did before such attributes existed), unless the schema
//! has nested attribute types or deeper structural types anywhere
//! (`skipFixup`). Such an attribute not set as an argument is read from its
//! blocks, each decoded as a block whose attributes are the object's, all
//! optional (`SchemaForCtyElementType`).

use std::collections::BTreeSet;

use configs::merged_body::ConfigBody;
use configschema::{Attribute, AttributeType, Block};
use cty::{Type, Value};
use hclsyntax::{AttributeSchema, BodySchema, Diagnostic, Diagnostics};
use lang::EvalContext;

use super::block::{decode_block, Frame};
use super::dynamic::BlockInstance;

/// `skipFixup`: whether the schema has anything that makes blocks for
/// attributes ambiguous.
fn skip_fixup(schema: &Block) -> bool {
    schema.attributes.values().any(|a| match &a.ty {
        AttributeType::Nested(_) => true,
        AttributeType::Type(ty) => {
            ty.is_tuple()
                || ty.is_object()
                || (ty.is_map() && ty.element_type().is_some_and(Type::is_object))
                || (ty.is_collection()
                    && ty.element_type().is_some_and(|e| {
                        e.is_collection() && !e.element_type().is_some_and(Type::is_primitive)
                    }))
        }
    }) || schema.block_types.values().any(|b| skip_fixup(&b.block))
}

/// The attributes of `schema` that `body` gives as blocks: list- or
/// set-of-object attributes not set as arguments (`effectiveSchema` after
/// `dynamic` blocks are expanded, when any such name counts).
pub fn appears_as_blocks(body: &ConfigBody, schema: &Block) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if skip_fixup(schema) {
        return out;
    }
    for (name, attr) in &schema.attributes {
        let AttributeType::Type(ty) = &attr.ty else {
            continue;
        };
        let ambiguous =
            (ty.is_list() || ty.is_set()) && ty.element_type().is_some_and(Type::is_object);
        if !ambiguous {
            continue;
        }
        let probe = BodySchema {
            attributes: vec![AttributeSchema {
                name: name.clone().into(),
                required: false,
            }],
            blocks: Vec::new(),
        };
        let (content, _, _) = body.partial_content(&probe);
        if content.attribute(name).is_none() {
            out.insert(name.clone());
        }
    }
    out
}

/// `SchemaForCtyElementType`: a block whose attributes are the object
/// type's, all optional.
pub fn element_schema(ety: &Type) -> Block {
    let mut block = Block::default();
    for (name, ty) in ety.attribute_types().into_iter().flatten() {
        let mut attr = Attribute::new(ty.clone());
        attr.optional = true;
        block.attributes.insert(name.clone(), attr);
    }
    block
}

/// The attribute's value from its blocks (`fixupBlocksExpr.Value`), then
/// converted to the attribute's type as any argument is.
pub fn decode_blocks(
    name: &str,
    ty: &Type,
    found: &[BlockInstance],
    ctx: &EvalContext<'_>,
    frame: &Frame,
    diags: &mut Diagnostics,
) -> Value {
    let Some(ety) = ty.element_type() else {
        return Value::null(ty.clone());
    };
    if found.is_empty() {
        return Value::null(ty.clone());
    }
    let schema = element_schema(ety);
    // As in fixupBlocksExpr, a block from an unknown `for_each` is one
    // element whose arguments are unknown, not an unknown list.
    let vals: Vec<Value> = found
        .iter()
        .map(|inst| {
            let inner = frame.enter(inst);
            inst.in_context(ctx, |ctx| {
                decode_block(
                    &ConfigBody::Single(inst.body.clone()),
                    &schema,
                    ctx,
                    &inner,
                    diags,
                )
            })
        })
        .collect();
    let list =
        Value::list(ety.clone(), vals).unwrap_or_else(|_| Value::unknown(Type::list(ety.clone())));
    match cty::convert::convert(&list, ty) {
        Ok(v) => v,
        Err(e) => {
            let first = &found[0];
            diags.push(Diagnostic::error(
                "Incorrect attribute value type",
                format!(
                    "Inappropriate value for attribute {}: {e}.",
                    addrs::go_quote(name)
                ),
                first.def_range.clone(),
            ));
            Value::unknown(ty.clone())
        }
    }
}
