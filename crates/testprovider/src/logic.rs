//! What the test provider does with values, the same in both protocols:
//! reject "INVALID", plan computed attributes as unknown, fill unknown or
//! null computed values with zero values.

use std::collections::BTreeMap;

use configschema::{Attribute, AttributeType, Block, NestingMode, ObjectNesting};
use cty::{Path, PathStep, Type, Value};
use plugin::{ProviderDiagnostic, Severity};

/// The string that every Validate* call rejects.
pub const INVALID: &str = "INVALID";

/// An error diagnostic for every known string "INVALID" within `v`, with
/// its path (attributes, then element keys: list indexes, map keys, set
/// elements).
pub fn invalid_diagnostics(v: &Value) -> Vec<ProviderDiagnostic> {
    let mut out = Vec::new();
    walk_invalid(v, &mut Vec::new(), &mut out);
    out
}

fn walk_invalid(v: &Value, path: &mut Vec<PathStep>, out: &mut Vec<ProviderDiagnostic>) {
    if !v.is_known() || v.is_null() {
        return;
    }
    if v.as_str() == Some(INVALID) {
        out.push(ProviderDiagnostic {
            severity: Severity::Error,
            summary: "Invalid value".into(),
            detail: "The test provider rejects the value INVALID.".into(),
            attribute: Some(Path(path.clone())),
        });
        return;
    }
    let is_object = v.ty().is_object();
    for (key, elem) in v.elements() {
        let step = match (is_object, key.as_str()) {
            (true, Some(name)) => PathStep::GetAttr(name.to_owned()),
            _ => PathStep::Index(key),
        };
        path.push(step);
        walk_invalid(&elem, path, out);
        path.pop();
    }
}

/// What to do with a computed attribute the configuration leaves null.
#[derive(Clone, Copy)]
pub enum Fill {
    /// Make it unknown (planning).
    Unknown,
    /// Give it its type's zero value (reading a data source).
    Zero,
}

/// `schema` as protocol 5 carries it: every nested attribute type
/// replaced by its implied object type (`convert.ConfigSchemaToProto`).
pub fn without_nested_types(
    mut schema: configschema::ProviderSchema,
) -> configschema::ProviderSchema {
    fn flatten(b: &mut Block) {
        for a in b.attributes.values_mut() {
            if let AttributeType::Nested(_) = a.ty {
                a.ty = AttributeType::Type(a.implied_type());
            }
        }
        for nb in b.block_types.values_mut() {
            flatten(&mut nb.block);
        }
    }
    let blocks = std::iter::once(&mut schema.provider)
        .chain(schema.resources.values_mut())
        .chain(schema.data_sources.values_mut())
        .chain(schema.ephemeral_resources.values_mut());
    for s in blocks {
        if let Some(b) = s.block.as_mut() {
            flatten(b);
        }
    }
    schema
}

/// `value` with every computed attribute that is null in `value` and in
/// `config` filled, through nested blocks and nested attribute types.
pub fn fill_computed(block: &Block, value: &Value, config: &Value, fill: Fill) -> Value {
    if !value.is_known() || value.is_null() {
        return value.clone();
    }
    let Some(attrs) = value.as_attrs() else {
        return value.clone();
    };
    let mut out = attrs.clone();
    for (name, attr) in &block.attributes {
        let (Some(v), c) = (attrs.get(name), config.get_attr(name)) else {
            continue;
        };
        let c = c.unwrap_or_else(|| Value::null(v.ty().clone()));
        out.insert(name.clone(), fill_attribute(attr, v, &c, fill));
    }
    for (name, nb) in &block.block_types {
        let Some(v) = attrs.get(name) else { continue };
        let c = config
            .get_attr(name)
            .unwrap_or_else(|| Value::null(v.ty().clone()));
        let inner = |ev: &Value, ec: &Value| fill_computed(&nb.block, ev, ec, fill);
        let filled = match nb.nesting {
            NestingMode::Single | NestingMode::Group => inner(v, &c),
            _ => map_elements(v, &c, inner),
        };
        out.insert(name.clone(), filled);
    }
    Value::object(out)
}

fn fill_attribute(attr: &Attribute, v: &Value, c: &Value, fill: Fill) -> Value {
    // A write-only attribute is never planned or stored: always null.
    if attr.write_only {
        return Value::null(v.ty().clone());
    }
    if attr.computed && v.is_null() && c.is_null() {
        return match fill {
            Fill::Unknown => Value::unknown(v.ty().clone()),
            Fill::Zero => zero_value(v.ty()),
        };
    }
    match &attr.ty {
        AttributeType::Nested(o) => {
            let inner = |ev: &Value, ec: &Value| {
                let block = Block {
                    attributes: o.attributes.clone(),
                    ..Block::default()
                };
                fill_computed(&block, ev, ec, fill)
            };
            match o.nesting {
                ObjectNesting::Single => inner(v, c),
                _ => map_elements(v, c, inner),
            }
        }
        AttributeType::Type(_) => v.clone(),
    }
}

/// Applies `f` to each element of a list, set, map or tuple with the
/// configuration's element at the same key (null where there is none).
fn map_elements(v: &Value, c: &Value, f: impl Fn(&Value, &Value) -> Value) -> Value {
    if !v.is_known() || v.is_null() {
        return v.clone();
    }
    let c_elems: Vec<(Value, Value)> = if c.is_known() && !c.is_null() {
        c.elements()
    } else {
        Vec::new()
    };
    let elems: Vec<(Value, Value)> = v
        .elements()
        .into_iter()
        .enumerate()
        .map(|(i, (k, e))| {
            // Sets have no stable keys; pair by position.
            let ce = if v.ty().is_set() {
                c_elems.get(i).map(|(_, ce)| ce.clone())
            } else {
                c_elems
                    .iter()
                    .find(|(ck, _)| *ck == k)
                    .map(|(_, ce)| ce.clone())
            };
            let ce = ce.unwrap_or_else(|| Value::null(e.ty().clone()));
            (k, f(&e, &ce))
        })
        .collect();
    rebuild(v.ty(), elems)
}

/// A collection or structure of `ty` from (key, element) pairs.
fn rebuild(ty: &Type, elems: Vec<(Value, Value)>) -> Value {
    let vals = || elems.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>();
    let by_name = || {
        elems
            .iter()
            .map(|(k, e)| (k.as_str().unwrap_or_default().to_owned(), e.clone()))
            .collect::<BTreeMap<_, _>>()
    };
    let elem_ty = || ty.element_type().cloned().unwrap_or(Type::Dynamic);
    let built = match ty {
        Type::List(_) => Value::list(elem_ty(), vals()),
        Type::Set(_) => Value::set(elem_ty(), vals()),
        Type::Map(_) => Value::map(elem_ty(), by_name()),
        Type::Tuple(_) => Ok(Value::tuple(vals())),
        Type::Object(_) => Ok(Value::object(by_name())),
        _ => Ok(Value::null(ty.clone())),
    };
    built.expect("elements keep their types, so the collection rebuilds")
}

/// `value` with every unknown replaced by its type's zero value.
pub fn unknowns_to_zero(v: &Value) -> Value {
    if !v.is_known() {
        return zero_value(v.ty());
    }
    if v.is_null() || v.ty().is_primitive() {
        return v.clone();
    }
    let elems = v
        .elements()
        .into_iter()
        .map(|(k, e)| (k, unknowns_to_zero(&e)))
        .collect();
    rebuild(v.ty(), elems)
}

/// The zero value of a type: "", 0, false, empty collections, objects and
/// tuples of zero values; null for `dynamic`.
pub fn zero_value(ty: &Type) -> Value {
    match ty {
        Type::String => Value::string(""),
        Type::Number => Value::number_int(0),
        Type::Bool => Value::bool(false),
        Type::List(e) => Value::list_empty((**e).clone()),
        Type::Set(e) => Value::set_empty((**e).clone()),
        Type::Map(e) => Value::map_empty((**e).clone()),
        Type::Object(o) => Value::object(
            o.attrs
                .iter()
                .map(|(k, t)| (k.clone(), zero_value(t)))
                .collect(),
        ),
        Type::Tuple(ts) => Value::tuple(ts.iter().map(zero_value).collect()),
        Type::Dynamic => Value::null(Type::Dynamic),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Block {
        let doc = r#"{"provider":{"version":0,"block":{"attributes":{
          "id":{"type":"string","description_kind":"plain","computed":true},
          "name":{"type":"string","description_kind":"plain","optional":true},
          "tags":{"type":["map","string"],"description_kind":"plain","optional":true,"computed":true}
        },"block_types":{"b":{"nesting_mode":"list","block":{"attributes":{
          "x":{"type":"string","description_kind":"plain","optional":true},
          "y":{"type":"number","description_kind":"plain","computed":true}},"description_kind":"plain"}}},
        "description_kind":"plain"}}}"#;
        configschema::json::decode_provider(doc)
            .unwrap()
            .provider
            .block
            .unwrap()
    }

    fn config(x: &str) -> Value {
        let ty = schema().implied_type();
        let b_ty = ty
            .attribute_type("b")
            .unwrap()
            .element_type()
            .unwrap()
            .clone();
        Value::object_from([
            ("id", Value::null(Type::String)),
            ("name", Value::string("n")),
            ("tags", Value::null(Type::map(Type::String))),
            (
                "b",
                Value::list(
                    b_ty,
                    vec![Value::object_from([
                        ("x", Value::string(x)),
                        ("y", Value::null(Type::Number)),
                    ])],
                )
                .unwrap(),
            ),
        ])
    }

    #[test]
    fn invalid_strings_are_reported_with_paths() {
        assert!(invalid_diagnostics(&config("ok")).is_empty());
        let d = invalid_diagnostics(&config(INVALID));
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].attribute,
            Some(Path(vec![
                PathStep::GetAttr("b".into()),
                PathStep::Index(Value::number_int(0)),
                PathStep::GetAttr("x".into()),
            ]))
        );
    }

    #[test]
    fn plan_makes_null_computed_unknown() {
        let c = config("ok");
        let planned = fill_computed(&schema(), &c, &c, Fill::Unknown);
        assert!(!planned.get_attr("id").unwrap().is_known());
        assert!(!planned.get_attr("tags").unwrap().is_known());
        assert_eq!(planned.get_attr("name").unwrap(), Value::string("n"));
        let b0 = planned
            .get_attr("b")
            .unwrap()
            .index(&Value::number_int(0))
            .unwrap();
        assert!(!b0.get_attr("y").unwrap().is_known());
        let applied = unknowns_to_zero(&planned);
        assert_eq!(applied.get_attr("id").unwrap(), Value::string(""));
        assert!(applied.is_wholly_known());
    }
}

#[cfg(test)]
mod write_only_and_protocol_5 {
    use super::*;

    #[test]
    fn write_only_attributes_are_planned_null() {
        let schema = configschema::json::decode_provider(
            r#"{"provider":{"version":0,"block":{"description_kind":"plain"}},"resource_schemas":{"t":{"version":0,"block":{"attributes":{"pw":{"type":"string","description_kind":"plain","optional":true,"write_only":true}},"description_kind":"plain"}}}}"#,
        )
        .unwrap();
        let block = schema.resources["t"].block.clone().unwrap();
        let config = Value::object_from([("pw", Value::string("secret"))]);
        let planned = fill_computed(&block, &config, &config, Fill::Unknown);
        assert_eq!(planned.get_attr("pw"), Some(Value::null(Type::String)));
    }

    #[test]
    fn protocol_5_flattens_nested_types() {
        let schema = configschema::json::decode_provider(
            r#"{"provider":{"version":0,"block":{"description_kind":"plain"}},"resource_schemas":{"t":{"version":0,"block":{"attributes":{"o":{"nested_type":{"attributes":{"b":{"type":"string","description_kind":"plain","computed":true}},"nesting_mode":"single"},"description_kind":"plain","optional":true}},"description_kind":"plain"}}}}"#,
        )
        .unwrap();
        let flat = without_nested_types(schema);
        let attr = &flat.resources["t"].block.as_ref().unwrap().attributes["o"];
        assert!(matches!(attr.ty, AttributeType::Type(_)));
        // Nothing inside a plain object attribute is computed any more.
        let block = flat.resources["t"].block.clone().unwrap();
        let o = Value::object_from([("b", Value::null(Type::String))]);
        let config = Value::object_from([("o", o.clone())]);
        let planned = fill_computed(&block, &config, &config, Fill::Unknown);
        assert_eq!(planned.get_attr("o"), Some(o));
    }
}
