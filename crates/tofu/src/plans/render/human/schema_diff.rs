//! jsonformat's differ with a provider schema (`differ.ComputeDiffForBlock`,
//! `ComputeDiffForAttribute`, `ComputeDiffForType`) for a value being
//! created: attributes as their schema types render them (maps with quoted
//! keys, objects without their null attributes, nested attribute types,
//! write-only attributes), then nested blocks in their nesting modes.

use std::collections::BTreeMap;

use configschema::{Attribute, AttributeType, Block, NestingMode, ObjectNesting};
use cty::Type;

use super::{compare_actions, transform, Action, Change, Diff, Json, Shape};

/// `ComputeDiffForBlock`: the block's attributes (null ones left out, the
/// write-only ones last, as OpenTofu visits them) and its nested blocks.
pub(super) fn block(change: &Change<'_>, schema: &Block) -> Diff {
    if let Some(d) = sensitive_or_unknown(change) {
        return d;
    }
    let mut current = Action::Create;
    let mut attrs = BTreeMap::new();
    let ordered = schema
        .attributes
        .iter()
        .filter(|(_, a)| !a.write_only)
        .chain(schema.attributes.iter().filter(|(_, a)| a.write_only));
    for (name, attr) in ordered {
        let mut child = change.child_key(name);
        if child.after == Some(&Json::String(String::new())) {
            child.after = None;
        }
        child.explicit = false;
        let d = attribute(&child, attr, current);
        if d.action == Action::NoOp && child.is_null() && !attr.write_only {
            continue;
        }
        current = compare_actions(current, d.action);
        attrs.insert(name.clone(), d);
    }
    let mut blocks = Vec::new();
    for (name, nested) in &schema.block_types {
        let child = change.child_key(name);
        if child.unknown == Some(&Json::Bool(true)) {
            blocks.push((name.clone(), vec![(String::new(), unknown())]));
            continue;
        }
        if child.is_null() {
            continue;
        }
        let one = |c: &Change<'_>| block(c, &nested.block);
        let diffs: Vec<(String, Diff)> = match nested.nesting {
            NestingMode::Single | NestingMode::Group => vec![(String::new(), one(&child))],
            NestingMode::List | NestingMode::Set => match child.after {
                Some(Json::Array(items)) => (0..items.len())
                    .map(|i| (String::new(), one(&child.child_index(i))))
                    .collect(),
                _ => Vec::new(),
            },
            NestingMode::Map => match child.after {
                Some(Json::Object(members)) => {
                    let keys: std::collections::BTreeSet<&str> =
                        members.iter().map(|(k, _)| k.as_str()).collect();
                    keys.into_iter()
                        .map(|k| (format!(" {}", addrs::go_quote(k)), one(&child.child_key(k))))
                        .collect()
                }
                _ => Vec::new(),
            },
        };
        for (_, d) in &diffs {
            current = compare_actions(current, d.action);
        }
        if !diffs.is_empty() {
            blocks.push((name.clone(), diffs));
        }
    }
    Diff {
        shape: Shape::SchemaBlock { attrs, blocks },
        action: current,
    }
}

/// `ComputeDiffForAttribute`.
fn attribute(change: &Change<'_>, attr: &Attribute, parent: Action) -> Diff {
    if attr.write_only {
        return Diff {
            shape: Shape::WriteOnly,
            action: parent,
        };
    }
    match &attr.ty {
        AttributeType::Type(ty) => typed(change, ty),
        AttributeType::Nested(object) => {
            if let Some(d) = sensitive_or_unknown(change) {
                return d;
            }
            if change.is_null() {
                return null(change);
            }
            let nested = |c: &Change<'_>| nested_object(c, &object.attributes);
            match object.nesting {
                ObjectNesting::Single => nested(change),
                ObjectNesting::List | ObjectNesting::Set => list_of(change, nested),
                ObjectNesting::Map => map_of(change, false, nested),
            }
        }
    }
}

/// `computeAttributeDiffAsNestedObject`: the attributes of a nested type,
/// null ones left out.
fn nested_object(change: &Change<'_>, attrs: &BTreeMap<String, Attribute>) -> Diff {
    if let Some(d) = sensitive_or_unknown(change) {
        return d;
    }
    if change.is_null() {
        return null(change);
    }
    let mut current = Action::Create;
    let mut out = BTreeMap::new();
    for (name, attr) in attrs {
        let mut child = change.child_key(name);
        child.explicit = false;
        let d = attribute(&child, attr, current);
        if d.action == Action::NoOp && child.is_null() && !attr.write_only {
            continue;
        }
        current = compare_actions(current, d.action);
        out.insert(name.clone(), d);
    }
    Diff {
        shape: Shape::Object(out),
        action: current,
    }
}

/// `ComputeDiffForType`.
fn typed(change: &Change<'_>, ty: &Type) -> Diff {
    if let Some(d) = sensitive_or_unknown(change) {
        return d;
    }
    if *ty == Type::Dynamic || change.is_null() {
        return transform(change, false);
    }
    if let Some(attr_types) = ty.attribute_types().filter(|_| ty.is_object()) {
        let mut current = Action::Create;
        let mut out = BTreeMap::new();
        for (name, aty) in attr_types {
            let mut child = change.child_key(name);
            child.explicit = false;
            let d = typed(&child, aty);
            if d.action == Action::NoOp && child.is_null() {
                continue;
            }
            current = compare_actions(current, d.action);
            out.insert(name.clone(), d);
        }
        return Diff {
            shape: Shape::Object(out),
            action: current,
        };
    }
    if ty.is_map() {
        let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
        return map_of(change, true, |c| typed(c, &ety));
    }
    if ty.is_list() || ty.is_set() {
        let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
        return list_of(change, |c| typed(c, &ety));
    }
    transform(change, false)
}

fn list_of(change: &Change<'_>, each: impl Fn(&Change<'_>) -> Diff) -> Diff {
    let Some(Json::Array(items)) = change.after else {
        return transform(change, false);
    };
    let mut action = Action::Create;
    let elems: Vec<Diff> = (0..items.len())
        .map(|i| {
            let mut c = change.child_index(i);
            c.explicit = true;
            let d = each(&c);
            action = compare_actions(action, d.action);
            d
        })
        .collect();
    Diff {
        shape: Shape::List(elems),
        action,
    }
}

/// A map: keys quoted; `align` for maps of a type, not for nested maps.
fn map_of(change: &Change<'_>, align: bool, each: impl Fn(&Change<'_>) -> Diff) -> Diff {
    let Some(Json::Object(members)) = change.after else {
        return transform(change, false);
    };
    let keys: std::collections::BTreeSet<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
    let mut action = Action::Create;
    let mut elems = BTreeMap::new();
    for key in keys {
        let mut c = change.child_key(key);
        c.explicit = true;
        let d = each(&c);
        action = compare_actions(action, d.action);
        elems.insert(key.to_string(), d);
    }
    Diff {
        shape: Shape::Map { elems, align },
        action,
    }
}

fn sensitive_or_unknown(change: &Change<'_>) -> Option<Diff> {
    if change.sensitive == Some(&Json::Bool(true)) || change.unknown == Some(&Json::Bool(true)) {
        return Some(transform(change, false));
    }
    None
}

fn unknown() -> Diff {
    Diff {
        shape: Shape::Unknown,
        action: Action::Create,
    }
}

fn null(change: &Change<'_>) -> Diff {
    transform(change, false)
}
