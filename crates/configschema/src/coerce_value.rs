//! `CoerceValue` (`internal/configs/configschema/coerce_value.go`): a value
//! made to conform to a block's implied type, for values that did not come
//! from decoding configuration (a provider's response, an upgraded state).
//! Also `UnknownValue` (`unknown_value.go`).

use std::collections::BTreeMap;

use cty::{ConvertError, Path, PathStep, Type, Value};

use crate::schema::{Block, NestedBlock, NestingMode};

fn error(path: &[PathStep], msg: impl Into<String>) -> ConvertError {
    ConvertError {
        path: Path(path.to_vec()),
        msg: msg.into(),
    }
}

fn can_iterate(v: &Value) -> bool {
    matches!(
        v.ty(),
        Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_)
    )
}

impl Block {
    /// `Block.CoerceValue`: `val` converted to the block's implied type:
    /// absent optional or computed attributes become null, absent nested
    /// blocks their empty values, each attribute converted to its type.
    /// The error names one problem and where it is.
    pub fn coerce_value(&self, val: &Value) -> Result<Value, ConvertError> {
        coerce(self, val, Vec::new())
    }

    /// `Block.UnknownValue`: an object whose attributes and nested blocks
    /// are all unknown (what an unknown block decodes to).
    pub fn unknown_value(&self) -> Value {
        let mut vals: BTreeMap<String, Value> = self
            .attributes
            .iter()
            .map(|(name, a)| (name.clone(), Value::unknown(a.implied_type())))
            .collect();
        vals.extend(
            self.block_types
                .iter()
                .map(|(name, b)| (name.clone(), b.unknown_value())),
        );
        Value::object(vals)
    }
}

impl NestedBlock {
    /// `NestedBlock.UnknownValue`: an unknown of the nested block type's
    /// collection type (a list, set or map even where dynamic content
    /// would make it a tuple or an object, as in OpenTofu).
    pub fn unknown_value(&self) -> Value {
        let ty = self.block.implied_type();
        Value::unknown(match self.nesting {
            NestingMode::Single | NestingMode::Group => ty,
            NestingMode::List => Type::list(ty),
            NestingMode::Set => Type::set(ty),
            NestingMode::Map => Type::map(ty),
        })
    }
}

/// One block. `path` grows as OpenTofu's does: once a list, set or map of
/// blocks has elements, its name stays on the path of every later problem
/// in the same block (Go appends to the function's own `path`); kept so
/// that error paths are OpenTofu's.
fn coerce(block: &Block, val: &Value, mut path: Vec<PathStep>) -> Result<Value, ConvertError> {
    let conv_type = block.spec_type();
    let implied = conv_type.without_optional_attributes_deep();
    if val.is_null() {
        return Ok(Value::null(implied));
    }
    if !val.is_known() {
        return Ok(Value::unknown(implied));
    }
    let Some(given) = val.ty().attribute_types() else {
        return Err(error(&path, "an object is required"));
    };
    if let Some(name) = given
        .keys()
        .find(|n| !block.attributes.contains_key(*n) && !block.block_types.contains_key(*n))
    {
        return Err(error(
            &path,
            format!("unexpected attribute {}", gocompat::quote::quote(name)),
        ));
    }
    let mut attrs = BTreeMap::new();
    for (name, attr) in &block.attributes {
        let attr_conv = conv_type
            .attribute_type(name)
            .cloned()
            .unwrap_or(Type::Dynamic);
        let v = match val.get_attr(name) {
            Some(v) if given.contains_key(name) => v,
            _ if attr.computed || attr.optional => Value::null(attr.implied_type()),
            _ => {
                return Err(error(
                    &path,
                    format!("attribute {} is required", gocompat::quote::quote(name)),
                ))
            }
        };
        let v = cty::convert(&v, &attr_conv).map_err(|e| {
            let mut p = path.clone();
            p.push(PathStep::GetAttr(name.clone()));
            p.extend(e.path.0);
            error(&p, e.msg)
        })?;
        attrs.insert(name.clone(), v);
    }
    for (name, nested) in &block.block_types {
        let ety = || nested.block.implied_type();
        let present = given.contains_key(name);
        let coll = val.get_attr(name).filter(|_| present);
        let v = match nested.nesting {
            NestingMode::Single | NestingMode::Group => match coll {
                Some(v) => {
                    let mut p = path.clone();
                    p.push(PathStep::GetAttr(name.clone()));
                    coerce(&nested.block, &v, p)?
                }
                None => nested.empty_value(),
            },
            NestingMode::List | NestingMode::Set | NestingMode::Map => {
                let Some(coll) = coll else {
                    attrs.insert(name.clone(), empty_collection(nested.nesting, ety()));
                    continue;
                };
                let collection_type = |t: Type| match nested.nesting {
                    NestingMode::List => Type::list(t),
                    NestingMode::Set => Type::set(t),
                    _ => Type::map(t),
                };
                if coll.is_null() {
                    attrs.insert(name.clone(), Value::null(collection_type(ety())));
                    continue;
                }
                if !coll.is_known() {
                    attrs.insert(name.clone(), Value::unknown(collection_type(ety())));
                    continue;
                }
                let kind = match nested.nesting {
                    NestingMode::List => "list",
                    NestingMode::Set => "set",
                    _ => "map",
                };
                if !can_iterate(&coll) {
                    return Err(error(&path, format!("must be a {kind}")));
                }
                let elems = coll.elements();
                if elems.is_empty() {
                    attrs.insert(name.clone(), empty_collection(nested.nesting, ety()));
                    continue;
                }
                path.push(PathStep::GetAttr(name.clone()));
                coerce_elements(nested, &coll, elems, &path)?
            }
        };
        attrs.insert(name.clone(), v);
    }
    Ok(Value::object(attrs))
}

fn empty_collection(nesting: NestingMode, ety: Type) -> Value {
    match nesting {
        NestingMode::List => Value::list_empty(ety),
        NestingMode::Set => Value::set_empty(ety),
        _ => Value::map_empty(ety),
    }
}

/// The elements of a non-empty list, set or map of blocks, each coerced.
fn coerce_elements(
    nested: &NestedBlock,
    coll: &Value,
    elems: Vec<(Value, Value)>,
    path: &[PathStep],
) -> Result<Value, ConvertError> {
    let at = |key: &Value| {
        let mut p = path.to_vec();
        p.push(PathStep::Index(key.clone()));
        p
    };
    let made = match nested.nesting {
        NestingMode::Map => {
            let mut vals = BTreeMap::new();
            for (key, elem) in &elems {
                let Some(k) = key.as_str() else {
                    return Err(error(path, "must be a map"));
                };
                vals.insert(k.to_owned(), coerce(&nested.block, elem, at(key))?);
            }
            // A map of blocks with dynamic content is an object.
            let use_object = coll.ty().is_object()
                || coll
                    .ty()
                    .element_type()
                    .is_some_and(|ety| vals.values().any(|v| v.ty() != ety));
            if use_object {
                Ok(Value::object(vals))
            } else {
                Value::map_infer(vals)
            }
        }
        _ => {
            let mut vals = Vec::with_capacity(elems.len());
            for (key, elem) in &elems {
                vals.push(coerce(&nested.block, elem, at(key))?);
            }
            if nested.nesting == NestingMode::List {
                Value::list_infer(vals)
            } else {
                Value::set_infer(vals)
            }
        }
    };
    // Go's ListVal, SetVal and MapVal panic on elements of different types.
    made.map_err(|e| error(path, e.msg))
}

#[cfg(test)]
#[path = "coerce_value_tests.rs"]
mod tests;
