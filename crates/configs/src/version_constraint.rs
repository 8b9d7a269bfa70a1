//! The decoding of version constraint arguments (`">= 1.0, < 2"`,
//! `"~> 1.2"`) with OpenTofu's `Invalid version constraint` messages. The
//! constraints themselves are hashicorp/go-version's, ported once in
//! `gocompat::version`.

use hclsyntax::{Attribute, Diagnostic, Diagnostics, Range};

use crate::decode_value::{const_value, ConstValue};

/// go-version itself lives in `gocompat`; these are its names here.
pub use gocompat::version::{Constraint, Constraints, Operator, Version};

/// A version constraint with the range of the argument that declared it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionConstraint {
    pub required: Constraints,
    pub decl_range: Range,
}

/// Decodes a constant version constraint argument (`version = "~> 1.0"`),
/// as OpenTofu's `decodeVersionConstraint`.
pub fn decode_version_constraint(attr: &Attribute) -> (VersionConstraint, Diagnostics) {
    let ret = VersionConstraint {
        required: Constraints::default(),
        decl_range: attr.range.clone(),
    };
    match const_value(&attr.expr) {
        Ok(v) => decode_version_constraint_value(attr, Some(&v)),
        Err(diags) => {
            // A computed value without references (a list, an object) is a
            // value of the wrong type rather than an evaluation failure.
            if diags.len() == 1 && diags[0].summary == "Unsuitable value type" {
                return decode_version_constraint_value(attr, None);
            }
            (ret, diags)
        }
    }
}

/// The part of `decodeVersionConstraintValue` after evaluation: `value` is
/// the constant value, or `None` for a value that is not a primitive (which
/// cannot convert to a string). Sensitive and ephemeral values are the
/// static evaluator's to reject before calling this.
pub fn decode_version_constraint_value(
    attr: &Attribute,
    value: Option<&ConstValue>,
) -> (VersionConstraint, Diagnostics) {
    let mut ret = VersionConstraint {
        required: Constraints::default(),
        decl_range: attr.range.clone(),
    };
    let s = match value {
        None => {
            return (
                ret,
                vec![Diagnostic::error(
                    "Invalid version constraint",
                    format!("A string value is required for {}.", attr.name),
                    attr.expr.range.clone(),
                )],
            )
        }
        Some(ConstValue::Null) => return (ret, Vec::new()),
        Some(ConstValue::String(s)) | Some(ConstValue::Number(s)) => s.clone(),
        Some(ConstValue::Bool(b)) => b.to_string(),
    };
    match Constraints::parse(&s) {
        Ok(c) => {
            ret.required = c;
            (ret, Vec::new())
        }
        Err(_) => (
            ret,
            vec![Diagnostic::error(
                "Invalid version constraint",
                "This string does not use correct version constraint syntax.",
                attr.expr.range.clone(),
            )],
        ),
    }
}
