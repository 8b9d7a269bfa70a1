//! Attribute access, indexing and traversals: HCL's `hcl.GetAttr`,
//! `hcl.Index`, `Traversal.TraverseAbs` and `TraverseRel`, with their
//! messages.

use cty::{convert::convert, Type, Value};
use hclsyntax::{Diagnostic, Diagnostics, Literal, Range, StepKind, Traversal, TraversalStep};

use crate::context::EvalContext;

const INVALID_INDEX: &str = "Invalid index";
const UNSUPPORTED_ATTR: &str = "Unsupported attribute";

/// The value of a literal (numbers are read at 512-bit precision).
pub fn literal_value(lit: &Literal) -> Result<Value, String> {
    Ok(match lit {
        Literal::Null => Value::null(Type::Dynamic),
        Literal::Bool(b) => Value::bool(*b),
        Literal::String(s) => Value::string(s),
        Literal::Number(text) => Value::parse_number(text).map_err(|_| {
            format!("Failed to recognize the value of this number literal: {text:?}.")
        })?,
    })
}

fn err(summary: &str, detail: impl Into<String>, range: &Range) -> (Value, Diagnostics) {
    (
        Value::dynamic(),
        vec![Diagnostic::error(summary, detail, range.clone())],
    )
}

/// Looks up the root of `t` in `ctx` and applies its steps (HCL's
/// `TraverseAbs`).
pub fn traverse_abs(t: &Traversal, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    match ctx.lookup_variable(&t.root) {
        Some(Some(v)) => traverse_rel(v, &t.steps),
        None => err(
            "Variables not allowed",
            "Variables may not be used here.",
            &t.root_range,
        ),
        Some(None) => {
            let names = ctx.variable_names();
            let suggestion = suggest(&t.root, names)
                .map(|s| format!(" Did you mean {}?", go_quote(s)))
                .unwrap_or_default();
            err(
                "Unknown variable",
                format!(
                    "There is no variable named {}.{suggestion}",
                    go_quote(&t.root)
                ),
                &t.root_range,
            )
        }
    }
}

/// Applies traversal steps to a value, stopping at the first error (HCL's
/// `TraverseRel`).
pub fn traverse_rel(val: &Value, steps: &[TraversalStep]) -> (Value, Diagnostics) {
    let mut current = val.clone();
    let mut diags = Diagnostics::new();
    for step in steps {
        let (next, d) = match &step.kind {
            StepKind::Attr(name) => get_attr(&current, name, &step.range),
            StepKind::Index(lit) => match literal_value(lit) {
                Ok(key) => index_value(&current, &key, &step.range),
                Err(msg) => err("Invalid number literal", msg, &step.range),
            },
        };
        let failed = hclsyntax::has_errors(&d);
        diags.extend(d);
        if failed {
            return (Value::dynamic(), diags);
        }
        current = next;
    }
    (current, diags)
}

/// cty `HasIndex`: `None` when it cannot be known yet.
fn has_index(coll: &Value, key: &Value) -> Option<bool> {
    let (coll, key) = (coll.unmark(), key.unmark());
    let ty = coll.ty();
    if ty.is_dynamic() || key.ty().is_dynamic() {
        return None;
    }
    match ty {
        Type::List(_) | Type::Tuple(_) => {
            if key.ty() != &Type::Number {
                return Some(false);
            }
            if !key.is_known() || (ty.is_list() && !coll.is_known()) {
                return None;
            }
            let n = key.as_number()?;
            let len = match ty {
                Type::Tuple(t) => t.len(),
                _ => coll.length_int()?,
            };
            Some(n.is_int() && n.sign() >= 0 && n.to_i64().is_some_and(|i| (i as u64) < len as u64))
        }
        Type::Map(_) => {
            if key.ty() != &Type::String {
                return Some(false);
            }
            if !key.is_known() || !coll.is_known() {
                return None;
            }
            Some(coll.as_attrs()?.contains_key(key.as_str()?))
        }
        _ => Some(false),
    }
}

/// `collection[key]` as HCL's `hcl.Index` does it; `range` is where
/// problems are reported (the brackets, or the traversal step).
pub fn index_value(collection: &Value, key: &Value, range: &Range) -> (Value, Diagnostics) {
    if collection.is_null() {
        return err(
            "Attempt to index null value",
            "This value is null, so it does not have any indices.",
            range,
        );
    }
    if key.is_null() {
        return err(
            INVALID_INDEX,
            "Can't use a null value as an indexing key.",
            range,
        );
    }
    let ty = collection.ty();
    if key.ty().is_dynamic() || ty.is_dynamic() {
        return (
            Value::dynamic().with_marks(collection.marks().iter().cloned()),
            Vec::new(),
        );
    }
    match ty {
        Type::Map(_) if collection.is_known() && number_key_misses(key, map_keys(collection)) => {
            err(INVALID_INDEX, index_miss_detail(collection, key), range)
        }
        Type::Map(elem) if !collection.is_known() && key.ty() == &Type::Number => (
            Value::unknown((**elem).clone()).with_marks(collection.marks().iter().cloned()),
            Vec::new(),
        ),
        Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
            let want = if ty.is_map() { Type::String } else { Type::Number };
            let key = match convert(key, &want) {
                Ok(k) => k,
                Err(e) => {
                    return err(
                        INVALID_INDEX,
                        format!("The given key does not identify an element in this collection value: {e}."),
                        range,
                    )
                }
            };
            match has_index(collection, &key) {
                None => {
                    let v = match ty {
                        Type::Tuple(_) => Value::dynamic(),
                        _ => Value::unknown(ty.element_type().cloned().unwrap_or(Type::Dynamic)),
                    };
                    (v.with_marks(collection.marks().iter().cloned()), Vec::new())
                }
                Some(false) => err(INVALID_INDEX, index_miss_detail(collection, &key), range),
                Some(true) => match collection.index(&key) {
                    Some(v) => (v, Vec::new()),
                    None => err(
                        INVALID_INDEX,
                        "The given key does not identify an element in this collection value.",
                        range,
                    ),
                },
            }
        }
        Type::Object(attrs) => {
            let was_number = key.ty() == &Type::Number;
            if number_key_misses(key, attrs.attrs.keys().map(String::as_str)) {
                return err(
                    INVALID_INDEX,
                    "The given key does not identify an element in this collection value. An object only supports looking up attributes by name, not by numeric index.",
                    range,
                );
            }
            let key = match convert(key, &Type::String) {
                Ok(k) => k,
                Err(e) => {
                    return err(
                        INVALID_INDEX,
                        format!("The given key does not identify an element in this collection value: {e}."),
                        range,
                    )
                }
            };
            if !key.is_known() {
                return (
                    Value::dynamic().with_marks(collection.marks().iter().cloned()),
                    Vec::new(),
                );
            }
            let key = key.unmark();
            let name = key.as_str().unwrap_or_default();
            if !ty.has_attribute(name) {
                let suggestion = if was_number {
                    " An object only supports looking up attributes by name, not by numeric index."
                } else {
                    ""
                };
                return err(
                    INVALID_INDEX,
                    format!("The given key does not identify an element in this collection value.{suggestion}"),
                    range,
                );
            }
            match collection.get_attr(name) {
                Some(v) => (v, Vec::new()),
                None => err(INVALID_INDEX, "The given key does not identify an element in this collection value.", range),
            }
        }
        Type::Set(_) => err(
            INVALID_INDEX,
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
            range,
        ),
        _ => err(INVALID_INDEX, "This value does not have any indices.", range),
    }
}

/// Whether `key` is a known number whose text (the string a map or object
/// key converts to) is longer than every one of `names`, judged from its
/// magnitude without building the text: `9e62446362` would convert to a
/// 62-million-digit string, which HCL spends minutes building only to miss
/// every key (a fuzz time-out; Terraform hangs on `{a=1}[9e62446362]`).
fn number_key_misses<'a>(key: &Value, names: impl Iterator<Item = &'a str>) -> bool {
    let key = key.unmark();
    if key.ty() != &Type::Number || !key.is_known() || key.is_null() {
        return false;
    }
    let Some(n) = key.as_number() else {
        return false;
    };
    if n.sign() == 0 {
        return false;
    }
    let longest = names.map(str::len).max().unwrap_or(0);
    // |n| >= 10^L has more than L integer digits; 0 < |n| < 10^-L needs
    // "0." and L zeros before its first digit.
    let (Ok(big), Ok(small)) = (
        cty::Number::parse(&format!("1e{longest}")),
        cty::Number::parse(&format!("1e-{longest}")),
    ) else {
        return false;
    };
    let abs = n.abs();
    abs.compare(&big) != std::cmp::Ordering::Less || abs.compare(&small) == std::cmp::Ordering::Less
}

/// The keys of a known map.
fn map_keys(map: &Value) -> impl Iterator<Item = &str> {
    map.as_attrs()
        .into_iter()
        .flat_map(|m| m.keys().map(String::as_str))
}

/// HCL's specialised messages for a sequence index that misses.
fn index_miss_detail(collection: &Value, key: &Value) -> String {
    const BASE: &str = "The given key does not identify an element in this collection value";
    let ty = collection.ty();
    if (ty.is_list() || ty.is_tuple())
        && key.ty() == &Type::Number
        && key.is_known()
        && !key.is_null()
    {
        let key = key.unmark();
        if let Some(n) = key.as_number() {
            if !n.is_int() {
                return format!("{BASE}: indexing a sequence requires a whole number, but the given index has a fractional part.");
            }
            if n.sign() < 0 {
                return format!("{BASE}: a negative number is not a valid index for a sequence.");
            }
            let len = collection.length();
            if len.is_known() && !len.is_marked() {
                if let Some(l) = len.as_number() {
                    if n.compare(l) != std::cmp::Ordering::Less {
                        if l.sign() == 0 {
                            return format!("{BASE}: the collection has no elements.");
                        }
                        return format!("{BASE}: the given index is greater than or equal to the length of the collection.");
                    }
                }
            }
        }
    }
    format!("{BASE}.")
}

/// `obj.name` as HCL's `hcl.GetAttr` does it.
pub fn get_attr(obj: &Value, name: &str, range: &Range) -> (Value, Diagnostics) {
    if obj.is_null() {
        return err(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            range,
        );
    }
    let ty = obj.ty();
    match ty {
        Type::Object(_) => {
            if !ty.has_attribute(name) {
                return err(
                    UNSUPPORTED_ATTR,
                    format!("This object does not have an attribute named {}.", go_quote(name)),
                    range,
                );
            }
            match obj.get_attr(name) {
                Some(v) => (v, Vec::new()),
                None => err(
                    UNSUPPORTED_ATTR,
                    format!("This object does not have an attribute named {}.", go_quote(name)),
                    range,
                ),
            }
        }
        Type::Map(ety) => {
            if !obj.is_known() {
                return (
                    Value::unknown((**ety).clone()).with_marks(obj.marks().iter().cloned()),
                    Vec::new(),
                );
            }
            let idx = Value::string(name);
            if has_index(obj, &idx) == Some(false) {
                return err(
                    "Missing map element",
                    format!("This map does not have an element with the key {}.", go_quote(name)),
                    range,
                );
            }
            match obj.index(&idx) {
                Some(v) => (v, Vec::new()),
                None => (Value::unknown((**ety).clone()), Vec::new()),
            }
        }
        Type::Dynamic => (
            Value::dynamic().with_marks(obj.marks().iter().cloned()),
            Vec::new(),
        ),
        Type::List(ety) if ety.is_object() => {
            if ety.has_attribute(name) {
                err(
                    UNSUPPORTED_ATTR,
                    format!(
                        "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                        go_quote(name)
                    ),
                    range,
                )
            } else {
                err(
                    UNSUPPORTED_ATTR,
                    "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?",
                    range,
                )
            }
        }
        Type::Set(ety) if ety.is_object() => err(
            UNSUPPORTED_ATTR,
            "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?",
            range,
        ),
        _ if ty.is_primitive() => err(
            UNSUPPORTED_ATTR,
            format!(
                "Can't access attributes on a primitive-typed value ({}).",
                ty.friendly_name()
            ),
            range,
        ),
        _ => err(UNSUPPORTED_ATTR, "This value does not have any attributes.", range),
    }
}

/// HCL's "did you mean" choice: a candidate less than 3 edits away; the
/// closest one (HCL takes whichever its map yields first), ties by order.
pub(crate) fn suggest<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(given, c), c))
        .filter(|(d, _)| *d < 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

pub(crate) use hclsyntax::go_quote;
