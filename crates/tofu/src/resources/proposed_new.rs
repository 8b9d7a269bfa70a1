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
        // The collection keeps its element type: planning makes values
        // unknown, never changes their types.
        match ty.element_type().cloned() {
            _ if ty.is_tuple() => Value::tuple(mapped),
            Some(ety) if ty.is_set() => Value::set(ety, mapped).unwrap_or(plain.clone()),
            Some(ety) if ty.is_list() => Value::list(ety, mapped).unwrap_or(plain.clone()),
            _ => plain.clone(),
        }
    } else if let Some(attrs) = plain.as_attrs() {
        let mapped: BTreeMap<String, Value> =
            attrs.iter().map(|(k, e)| (k.clone(), f(e))).collect();
        if let (true, Some(ety)) = (ty.is_map(), ty.element_type()) {
            Value::map(ety.clone(), mapped).unwrap_or(plain.clone())
        } else {
            Value::object(mapped)
        }
    } else {
        plain.clone()
    };
    out.marked_with(marks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use configschema::{NestedBlock, Object};
    use cty::Type;

    fn attr(ty: Type, optional: bool, computed: bool) -> Attribute {
        let mut a = Attribute::new(ty);
        a.optional = optional;
        a.computed = computed;
        a
    }

    fn schema() -> Block {
        let mut inner = Block::default();
        inner
            .attributes
            .insert("kind".into(), attr(Type::String, false, true));
        let mut disks = Attribute::nested(Object {
            attributes: [("serial".to_string(), attr(Type::String, false, true))].into(),
            nesting: ObjectNesting::List,
        });
        disks.optional = true;
        let mut wo = attr(Type::String, true, false);
        wo.write_only = true;
        let mut b = Block::default();
        b.attributes
            .insert("id".into(), attr(Type::String, false, true));
        b.attributes
            .insert("zone".into(), attr(Type::String, true, true));
        b.attributes
            .insert("name".into(), attr(Type::String, true, false));
        b.attributes.insert("disks".into(), disks);
        b.attributes.insert("secret".into(), wo);
        b.block_types
            .insert("dev".into(), NestedBlock::new(NestingMode::List, inner));
        b
    }

    #[test]
    fn null_computed_attributes_become_unknown_everywhere() {
        let schema = schema();
        let config = Value::object_from([
            ("id", Value::null(Type::String)),
            ("zone", Value::string("set")),
            ("name", Value::null(Type::String)),
            (
                "disks",
                Value::list_infer(vec![Value::object_from([(
                    "serial",
                    Value::null(Type::String),
                )])])
                .unwrap(),
            ),
            ("secret", Value::string("hush")),
            (
                "dev",
                Value::list_infer(vec![Value::object_from([(
                    "kind",
                    Value::null(Type::String),
                )])])
                .unwrap(),
            ),
        ]);
        let got = planned_new(&schema, &config);
        // (attribute, known?, null?) for each case.
        let cases: [(&str, Value, bool, bool); 4] = [
            ("id", got.get_attr("id").unwrap(), false, false),
            (
                "zone set in configuration",
                got.get_attr("zone").unwrap(),
                true,
                false,
            ),
            ("optional only", got.get_attr("name").unwrap(), true, true),
            ("write-only", got.get_attr("secret").unwrap(), true, true),
        ];
        for (what, v, known, null) in cases {
            assert_eq!(v.is_known(), known, "{what}: {v:?}");
            if known {
                assert_eq!(v.is_null(), null, "{what}: {v:?}");
            }
        }
        let disks = got.get_attr("disks").unwrap();
        let disk = &disks.as_elements().unwrap()[0];
        assert!(!disk.get_attr("serial").unwrap().is_known());
        let devs = got.get_attr("dev").unwrap();
        let dev = &devs.as_elements().unwrap()[0];
        assert!(!dev.get_attr("kind").unwrap().is_known());
    }

    #[test]
    fn unknown_and_null_configurations_are_kept() {
        let schema = schema();
        let unknown = Value::unknown(schema.implied_type());
        assert!(!planned_new(&schema, &unknown).is_known());
        let null = Value::null(schema.implied_type());
        assert!(planned_new(&schema, &null).is_null());
    }
}
