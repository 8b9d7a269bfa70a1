//! Provider `for_each` (`provider "aws" { alias = "by_region" for_each =
//! ... }`): evaluated statically into instance keys, with OpenTofu's
//! `Invalid for_each argument` rules (a map, an object or a set of strings;
//! known, not null, not sensitive or ephemeral).

use std::collections::BTreeMap;

use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Range};

use super::evaluator::{has_mark_deep, StaticEvaluator};
use crate::provider::Provider;

const INVALID: &str = "Invalid for_each argument";

fn invalid(detail: impl Into<String>, range: &Range) -> Diagnostics {
    vec![Diagnostic::error(INVALID, detail, range.clone())]
}

/// The instances of an aliased provider configuration with `for_each`:
/// instance key to `each.value`. `None` when there is no for_each or it
/// could not be evaluated.
pub fn provider_for_each_instances(
    eval: &StaticEvaluator,
    provider: &Provider,
) -> (Option<BTreeMap<String, Value>>, Diagnostics) {
    let (Some(expr), Some(alias)) = (&provider.for_each, &provider.alias) else {
        return (None, Vec::new());
    };
    let ident = eval.identifier(
        format!("provider.{}.{alias}.for_each", provider.name),
        expr.range.clone(),
    );
    let (val, mut diags) = eval.evaluate(expr, &ident);
    if has_errors(&diags) {
        return (None, diags);
    }
    match for_each_instances(&val, &expr.range) {
        Ok(instances) => (Some(instances), diags),
        Err(more) => {
            diags.extend(more);
            (None, diags)
        }
    }
}

/// Checks a for_each value and lists its instances (key to `each.value`).
pub fn for_each_instances(
    val: &Value,
    range: &Range,
) -> Result<BTreeMap<String, Value>, Diagnostics> {
    if has_mark_deep(val, &Mark::Sensitive) {
        return Err(invalid(
            "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.",
            range,
        ));
    }
    if has_mark_deep(val, &Mark::Ephemeral) {
        return Err(invalid(
            "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.",
            range,
        ));
    }
    if val.is_null() {
        return Err(invalid(
            "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null.",
            range,
        ));
    }
    let ty = val.ty().clone();
    let is_set = matches!(ty, Type::Set(_));
    let collection = is_set || matches!(ty, Type::Map(_) | Type::Object(_));
    if !(collection || ty.is_dynamic()) {
        return Err(invalid(
            format!(
                "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.",
                ty.friendly_name()
            ),
            range,
        ));
    }
    if !val.is_known() || ty.is_dynamic() {
        let what = if is_set {
            "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource."
        } else {
            "The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource."
        };
        return Err(invalid(what, range));
    }
    let mut out = BTreeMap::new();
    if val.length_int() == Some(0) {
        // Empty collections (`{}`, `toset([])`) have no instances, whatever
        // their element type.
        return Ok(out);
    }
    if let Type::Set(elem) = &ty {
        if **elem != Type::String {
            return Err(invalid(
                format!(
                    "The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing type {}.",
                    elem.friendly_name()
                ),
                range,
            ));
        }
        for (_, v) in val.elements() {
            if v.is_null() {
                return Err(invalid(
                    "The given \"for_each\" argument value is unsuitable: \"for_each\" sets must not contain null values.",
                    range,
                ));
            }
            if !v.is_known() {
                return Err(invalid(
                    "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.",
                    range,
                ));
            }
            let key = v.unmark_deep().0.as_str().unwrap_or_default().to_string();
            out.insert(key, v);
        }
        return Ok(out);
    }
    for (k, v) in val.elements() {
        let key = k.unmark_deep().0.as_str().unwrap_or_default().to_string();
        out.insert(key, v);
    }
    Ok(out)
}
