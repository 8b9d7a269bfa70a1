//! `for_each` (`evalchecks.EvaluateForEachExpression`).

use std::collections::BTreeMap;

use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr};
use lang::Scope;

use super::shell_quote::posix_shell_quote;

const UNKNOWN_MAP: &str = "The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\n";
const UNKNOWN_SET: &str = "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\n";

/// What a `for_each` argument gave.
#[derive(Debug, Clone, PartialEq)]
pub enum ForEachValue {
    /// Instance keys and their `each.value`.
    Known(BTreeMap<String, Value>),
    /// Not known yet (only returned when unknowns are allowed).
    Unknown,
    /// An error was reported.
    Invalid,
}

fn exclude_suggestion(excludable: Option<&str>) -> String {
    match excludable {
        None => "Alternatively, you could use the -target option to first apply only the resources that for_each depends on, and then apply normally to converge.".into(),
        Some(addr) => format!("Alternatively, you could use the planning option -exclude={} to first apply without this object, and then apply normally to converge.", posix_shell_quote(addr)),
    }
}

/// Evaluates `expr` as a `for_each` (maps, objects and sets of strings).
pub fn evaluate_for_each(
    expr: &Expr,
    scope: &Scope<'_>,
    allow_unknown: bool,
    excludable: Option<&str>,
) -> (ForEachValue, Diagnostics) {
    let (val, mut diags) = scope.eval_expr(expr, &Type::Dynamic);
    if has_errors(&diags) {
        return (ForEachValue::Invalid, diags);
    }
    let err =
        |detail: String| Diagnostic::error("Invalid for_each argument", detail, expr.range.clone());
    if val.has_mark(&Mark::Sensitive) {
        diags.push(err("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.".into()));
    }
    let ty = val.ty().clone();
    let allowed = ty.is_map() || ty.is_set() || ty.is_object();
    if val.is_known() && !allowed {
        diags.push(err(format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", ty.friendly_name())));
    }
    if has_errors(&diags) {
        return (ForEachValue::Invalid, diags);
    }
    let val = val.unmark();
    if val.is_null() {
        diags.push(err("The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.".into()));
        return (ForEachValue::Invalid, diags);
    }
    let unknown_detail = |set: bool| {
        format!(
            "{}{}",
            if set { UNKNOWN_SET } else { UNKNOWN_MAP },
            exclude_suggestion(excludable)
        )
    };
    if !val.is_known() {
        if allow_unknown {
            if ty.is_set() {
                if let Some(d) = set_element_type_error(&ty, expr, true) {
                    diags.push(d);
                    return (ForEachValue::Invalid, diags);
                }
            }
            return (ForEachValue::Unknown, diags);
        }
        diags.push(err(unknown_detail(ty.is_set())));
        return (ForEachValue::Invalid, diags);
    }
    // An empty collection has no keys to check (an empty set may not even
    // know its element type).
    if val.length_int() == Some(0) {
        return (ForEachValue::Known(BTreeMap::new()), diags);
    }
    if ty.is_set() {
        if !val.is_wholly_known() {
            if allow_unknown {
                if let Some(d) = set_element_type_error(&ty, expr, true) {
                    diags.push(d);
                    return (ForEachValue::Invalid, diags);
                }
                return (ForEachValue::Unknown, diags);
            }
            diags.push(err(unknown_detail(true)));
            return (ForEachValue::Invalid, diags);
        }
        if let Some(d) = set_element_type_error(&ty, expr, false) {
            diags.push(d);
            return (ForEachValue::Invalid, diags);
        }
        let mut map = BTreeMap::new();
        for elem in val.as_elements().unwrap_or_default() {
            let (plain, _) = elem.unmark_with_marks();
            if plain.is_null() {
                diags.push(err("The given \"for_each\" argument value is unsuitable: \"for_each\" sets must not contain null values.".into()));
                return (ForEachValue::Invalid, diags);
            }
            let key = plain.as_str().unwrap_or_default().to_string();
            map.insert(key, elem.clone());
        }
        return (ForEachValue::Known(map), diags);
    }
    // A map or object: its keys must be known (a map's are, once the map
    // is known), its values may be anything.
    let map = val
        .elements()
        .into_iter()
        .map(|(k, v)| (k.unmark().as_str().unwrap_or_default().to_string(), v))
        .collect();
    (ForEachValue::Known(map), diags)
}

fn set_element_type_error(ty: &Type, expr: &Expr, partially_unknown: bool) -> Option<Diagnostic> {
    let elem = ty.element_type()?;
    if *elem == Type::String || (partially_unknown && elem.is_dynamic()) {
        return None;
    }
    let detail = if partially_unknown {
        format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing a {}.", elem.friendly_name())
    } else {
        format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing type {}.", elem.friendly_name())
    };
    Some(Diagnostic::error(
        "Invalid for_each argument",
        detail,
        expr.range.clone(),
    ))
}
