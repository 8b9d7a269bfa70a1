//! The planned new value of a resource instance from its configuration,
//! minimal for now: what the configuration leaves null in a computed
//! attribute the provider decides, so it is unknown, and write-only
//! attributes are null (OpenTofu's
//! `objchange.ProposedNew` with no prior state, before the provider's
//! `PlanResourceChange`). The full shaping replaces this file.

use std::collections::BTreeMap;

use configschema::{Attribute, AttributeType, Block, NestingMode, ObjectNesting};
use cty::Value;

/// `config` (an object of `schema`'s implied type) with every null
/// computed attribute unknown, in nested blocks and nested attribute
/// types too.
pub fn planned_new(schema: &Block, config: &Value) -> Value {
    if !config.is_known() || config.is_null() {
        return config.clone();
    }
    let (plain, marks) = config.unmark_with_marks();
    let Some(attrs) = plain.as_attrs() else {
        return config.clone();
    };
    let mut out: BTreeMap<String, Value> = attrs.clone();
    for (name, attr) in &schema.attributes {
        if let Some(v) = out.get_mut(name) {
            *v = attribute_value(attr, v);
        }
    }
    for (name, nested) in &schema.block_types {
        if schema.attributes.contains_key(name) {
            continue;
        }
        if let Some(v) = out.get_mut(name) {
            *v = match nested.nesting {
                NestingMode::Single | NestingMode::Group => planned_new(&nested.block, v),
                _ => map_elements(v, |e| planned_new(&nested.block, e)),
            };
        }
    }
    Value::object(out).marked_with(marks)
}

fn attribute_value(attr: &Attribute, v: &Value) -> Value {
    // The provider never returns a write-only attribute: planned null, so
    // that the value set in configuration appears in no plan.
    if attr.write_only {
        return Value::null(attr.implied_type());
    }
    if v.is_known() && v.is_null() && attr.computed {
        return Value::unknown(attr.implied_type());
    }
    let AttributeType::Nested(object) = &attr.ty else {
        return v.clone();
    };
    let one = |e: &Value| {
        let block = Block {
            attributes: object.attributes.clone(),
            ..Block::default()
        };
        planned_new(&block, e)
    };
    match object.nesting {
        ObjectNesting::Single => one(v),
        _ => map_elements(v, one),
    }
}

/// A list, set, map, tuple or object with `f` applied to each element.
fn map_elements(v: &Value, f: impl Fn(&Value) -> Value) -> Value {
    if !v.is_known() || v.is_null() {
        return v.clone();
    }
    let (plain, marks) = v.unmark_with_marks();
    let ty = plain.ty().clone();
    let out = if let Some(elems) = plain.as_elements() {
        let mapped: Vec<Value> = elems.iter().map(&f).collect();
        if ty.is_tuple() {
            Value::tuple(mapped)
        } else if ty.is_set() {
            Value::set_infer(mapped).unwrap_or(plain.clone())
        } else if ty.is_list() {
            Value::list_infer(mapped).unwrap_or(plain.clone())
        } else {
            plain.clone()
        }
    } else if let Some(attrs) = plain.as_attrs() {
        let mapped: BTreeMap<String, Value> =
            attrs.iter().map(|(k, e)| (k.clone(), f(e))).collect();
        if ty.is_map() {
            Value::map_infer(mapped).unwrap_or(plain.clone())
        } else {
            Value::object(mapped)
        }
    } else {
        plain.clone()
    };
    out.marked_with(marks)
}
