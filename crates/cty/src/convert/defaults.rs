//! Default values of optional object attributes (`optional(T, default)` in a
//! type constraint), applied to a value before it is converted to the
//! constraint: HCL's `typeexpr.Defaults`.

use std::collections::BTreeMap;

use crate::types::Type;
use crate::value::Value;

use super::{convert, unify_unsafe};

/// A type tree holding the default values of optional object attributes at
/// any depth (`typeexpr.Defaults`).
#[derive(Debug, Clone, PartialEq)]
pub struct Defaults {
    /// The type of the node these defaults apply to; it decides how
    /// `children` is keyed.
    pub ty: Type,
    /// Attribute name to default value (object types only).
    pub default_values: BTreeMap<String, Value>,
    /// Defaults for nested values: by attribute name (objects), by element
    /// index as a string (tuples), or under `""` (lists, sets and maps).
    pub children: BTreeMap<String, Defaults>,
}

/// The key a nested value is found under while walking a value.
enum ChildKey<'a> {
    Index(usize),
    Name(&'a str),
}

impl Defaults {
    /// Walks `value`, filling in defaults wherever an optional attribute is
    /// missing or null (`Defaults.Apply`). The result may still need
    /// conversion to the final type; mismatches are left for that
    /// conversion to report.
    pub fn apply(&self, value: &Value) -> Value {
        // A null or unknown value stays as it is; only its missing or null
        // attributes get defaults.
        if !value.is_known() || value.is_null() {
            return value.clone();
        }
        if self.default_values.is_empty() && self.children.is_empty() {
            return value.clone();
        }
        let (v, marks) = value.unmark_with_marks();
        let ty = v.ty().clone();
        let out = if ty.is_set() || ty.is_list() || ty.is_tuple() {
            let values = self.apply_as_slice(&v);
            self.rebuild_sequence(&ty, values)
        } else if ty.is_object() || ty.is_map() {
            let mut values = self.apply_as_map(&v);
            for (key, default) in &self.default_values {
                if values.get(key).is_none_or(Value::is_null) {
                    let filled = match self.children.get(key) {
                        Some(child) => child.apply(default),
                        None => default.clone(),
                    };
                    values.insert(key.clone(), filled);
                }
            }
            self.rebuild_mapping(&ty, values)
        } else {
            v
        };
        out.with_marks(marks)
    }

    fn rebuild_sequence(&self, ty: &Type, values: Vec<Value>) -> Value {
        if let Some(elem) = ty.element_type() {
            if values.is_empty() {
                return if ty.is_set() {
                    Value::set_empty(elem.clone())
                } else {
                    Value::list_empty(elem.clone())
                };
            }
            if let Some(converted) = unify_values(&values) {
                let built = if ty.is_set() {
                    Value::set_infer(converted)
                } else {
                    Value::list_infer(converted)
                };
                if let Ok(v) = built {
                    return v;
                }
            }
        }
        Value::tuple(values)
    }

    fn rebuild_mapping(&self, ty: &Type, values: BTreeMap<String, Value>) -> Value {
        if let Some(elem) = ty.element_type() {
            if values.is_empty() {
                return Value::map_empty(elem.clone());
            }
            let keys: Vec<String> = values.keys().cloned().collect();
            let list: Vec<Value> = values.values().cloned().collect();
            if let Some(converted) = unify_values(&list) {
                if let Ok(v) = Value::map_infer(keys.into_iter().zip(converted).collect()) {
                    return v;
                }
            }
        }
        Value::object(values)
    }

    fn apply_as_slice(&self, value: &Value) -> Vec<Value> {
        let elems = value.as_elements().unwrap_or_default();
        elems
            .iter()
            .enumerate()
            .map(|(i, e)| match self.child(ChildKey::Index(i)) {
                Some(child) => child.apply(e),
                None => e.clone(),
            })
            .collect()
    }

    fn apply_as_map(&self, value: &Value) -> BTreeMap<String, Value> {
        let Some(attrs) = value.as_attrs() else {
            return BTreeMap::new();
        };
        attrs
            .iter()
            .map(|(k, e)| {
                let e = match self.child(ChildKey::Name(k)) {
                    Some(child) => child.apply(e),
                    None => e.clone(),
                };
                (k.clone(), e)
            })
            .collect()
    }

    /// `getChild`: tuple defaults are keyed by index and object defaults by
    /// name; anything else (collections, or a value whose shape does not
    /// match the defaults' type) looks under `""`.
    fn child(&self, key: ChildKey<'_>) -> Option<&Defaults> {
        match key {
            ChildKey::Index(i) if self.ty.is_tuple() => self.children.get(&i.to_string()),
            ChildKey::Name(n) if self.ty.is_object() => self.children.get(n),
            _ => self.children.get(""),
        }
    }
}

/// `unifyAsSlice` / `unifyAsMap`: the values converted to their unsafe
/// unified type, or `None` if there is none or a conversion fails.
fn unify_values(values: &[Value]) -> Option<Vec<Value>> {
    let types: Vec<Type> = values.iter().map(|v| v.ty().clone()).collect();
    let unified = unify_unsafe(&types)?;
    values
        .iter()
        .map(|v| {
            if v.ty() == &unified {
                Some(v.clone())
            } else if unified.is_dynamic() {
                // cty's unifyAllAsDynamic: nothing useful is known.
                Some(Value::dynamic())
            } else {
                convert(v, &unified).ok()
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "defaults_tests.rs"]
mod tests;
