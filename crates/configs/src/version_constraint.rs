//! Version constraints (`">= 1.0, < 2"`, `"~> 1.2"`) in hashicorp/go-version's
//! syntax and semantics, and their decoding from configuration arguments
//! with OpenTofu's `Invalid version constraint` messages.

use std::cmp::Ordering;
use std::fmt;

use hclsyntax::{Attribute, Diagnostic, Diagnostics, Range};

use crate::decode_value::{const_value, ConstValue};

use crate::version_syntax::{split_constraint, split_version, VersionParts};

/// A version as go-version reads it: any number of numeric segments (padded
/// to three), an optional prerelease and optional build metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    segments: Vec<i64>,
    /// How many segments were written.
    specified: usize,
    pre: String,
    metadata: String,
    original: String,
}

impl Version {
    /// Parses a version (`1.2.3`, `v1.2`, `1.0.0-beta+abc`).
    pub fn parse(s: &str) -> Option<Version> {
        Version::from_parts(split_version(s)?, s)
    }

    fn from_parts(parts: VersionParts<'_>, original: &str) -> Option<Version> {
        let mut segments = Vec::new();
        for part in parts.segments.split('.') {
            segments.push(part.parse::<i64>().ok()?);
        }
        let specified = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        Some(Version {
            segments,
            specified,
            pre: parts.pre.to_string(),
            metadata: parts.metadata.to_string(),
            original: original.to_string(),
        })
    }

    /// The prerelease part (`beta` in `1.0.0-beta`), empty if none.
    pub fn prerelease(&self) -> &str {
        &self.pre
    }

    /// The numeric segments, padded to at least three.
    pub fn segments(&self) -> &[i64] {
        &self.segments
    }

    /// The version as first written.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// go-version's `Compare`.
    pub fn compare(&self, other: &Version) -> Ordering {
        if self.to_string() == other.to_string() {
            return Ordering::Equal;
        }
        if self.segments == other.segments {
            return match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_prereleases(&self.pre, &other.pre),
            };
        }
        let (a, b) = (&self.segments, &other.segments);
        for i in 0..a.len().max(b.len()) {
            if i >= a.len() {
                return if b[i..].iter().all(|s| *s == 0) {
                    Ordering::Equal
                } else {
                    Ordering::Less
                };
            }
            if i >= b.len() {
                return if a[i..].iter().all(|s| *s == 0) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                };
            }
            match a[i].cmp(&b[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }

    fn equal_segments(&self, other: &Version) -> bool {
        self.segments == other.segments
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let segs: Vec<String> = self.segments.iter().map(|s| s.to_string()).collect();
        f.write_str(&segs.join("."))?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        if !self.metadata.is_empty() {
            write!(f, "+{}", self.metadata)?;
        }
        Ok(())
    }
}

fn compare_prereleases(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let pa: Vec<&str> = a.split('.').collect();
    let pb: Vec<&str> = b.split('.').collect();
    for i in 0..pa.len().max(pb.len()) {
        let x = pa.get(i).copied().unwrap_or("");
        let y = pb.get(i).copied().unwrap_or("");
        let o = compare_prerelease_part(x, y);
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

fn compare_prerelease_part(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    if a.is_empty() {
        return if b.is_empty() {
            Ordering::Equal
        } else {
            Ordering::Greater
        };
    }
    if b.is_empty() {
        return Ordering::Less;
    }
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

/// A constraint operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    Equal,
    NotEqual,
    Greater,
    Less,
    GreaterOrEqual,
    LessOrEqual,
    Pessimistic,
}

/// One constraint (`>= 1.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    pub op: Operator,
    pub version: Version,
    /// The constraint as written (go-version's `String()`).
    pub original: String,
}

impl Constraint {
    /// Whether the constraint's version has a prerelease part.
    pub fn prerelease(&self) -> bool {
        !self.version.pre.is_empty()
    }

    /// Whether `v` satisfies this constraint.
    pub fn check(&self, v: &Version) -> bool {
        let c = &self.version;
        match self.op {
            Operator::Equal => v.compare(c) == Ordering::Equal,
            Operator::NotEqual => v.compare(c) != Ordering::Equal,
            Operator::Greater => prerelease_check(v, c) && v.compare(c) == Ordering::Greater,
            Operator::Less => prerelease_check(v, c) && v.compare(c) == Ordering::Less,
            Operator::GreaterOrEqual => prerelease_check(v, c) && v.compare(c) != Ordering::Less,
            Operator::LessOrEqual => prerelease_check(v, c) && v.compare(c) != Ordering::Greater,
            Operator::Pessimistic => pessimistic(v, c),
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.original)
    }
}

fn prerelease_check(v: &Version, c: &Version) -> bool {
    match (v.pre.is_empty(), c.pre.is_empty()) {
        (false, false) => v.equal_segments(c),
        (false, true) => false,
        _ => true,
    }
}

fn pessimistic(v: &Version, c: &Version) -> bool {
    if !prerelease_check(v, c) || (!c.pre.is_empty() && v.pre.is_empty()) {
        return false;
    }
    if v.compare(c) == Ordering::Less {
        return false;
    }
    let cs = c.segments.len();
    if cs > v.segments.len() {
        return false;
    }
    for i in 0..c.specified.saturating_sub(1) {
        if v.segments[i] != c.segments[i] {
            return false;
        }
    }
    c.segments[cs - 1] <= v.segments[cs - 1]
}

/// A set of constraints that must all hold (`">= 1.0, < 2"`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constraints(pub Vec<Constraint>);

impl Constraints {
    /// Parses go-version constraint syntax; `None` if it is not valid.
    pub fn parse(s: &str) -> Option<Constraints> {
        let mut out = Vec::new();
        for single in s.split(',') {
            let (op_text, vtext) = split_constraint(single)?;
            let op = match op_text {
                "" | "=" => Operator::Equal,
                "!=" => Operator::NotEqual,
                ">" => Operator::Greater,
                "<" => Operator::Less,
                ">=" => Operator::GreaterOrEqual,
                "<=" => Operator::LessOrEqual,
                "~>" => Operator::Pessimistic,
                _ => return None,
            };
            let version = Version::parse(vtext)?;
            out.push(Constraint {
                op,
                version,
                original: single.to_string(),
            });
        }
        Some(Constraints(out))
    }

    /// Whether `v` satisfies every constraint.
    pub fn check(&self, v: &Version) -> bool {
        self.0.iter().all(|c| c.check(v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Constraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|c| c.original.clone()).collect();
        f.write_str(&parts.join(","))
    }
}

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
        Some(c) => {
            ret.required = c;
            (ret, Vec::new())
        }
        None => (
            ret,
            vec![Diagnostic::error(
                "Invalid version constraint",
                "This string does not use correct version constraint syntax.",
                attr.expr.range.clone(),
            )],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn parses_constraints() {
        for ok in [
            "1.0",
            ">= 1.0, < 2",
            "~> 1.2",
            "= 1.0",
            "!= 1.0",
            ">=1.0.0-beta",
            " v1.2.3+meta ",
            "~>0.12.0",
        ] {
            assert!(Constraints::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "", "1.0,", ">> 1", "banana", "1.0 1.1", "=> 1.0", "999.99.x",
        ] {
            assert!(Constraints::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn checks() {
        let cases = [
            (">= 1.12", "1.13.0", true),
            (">= 1.11", "1.11.0", true),
            (">= 1.12", "1.11.0", false),
            ("999.9", "1.13.0", false),
            ("~> 1.2", "1.9.0", true),
            ("~> 1.2", "2.0.0", false),
            ("~> 1.2.0", "1.2.9", true),
            ("~> 1.2.0", "1.3.0", false),
            ("~> 0.9.0", "1.13.0", false),
            ("< 2", "1.99.0", true),
            ("!= 1.0", "1.0.0", false),
            (">= 1.0.0-beta", "1.0.0-rc", true),
            (">= 1.0.0", "1.1.0-rc", false),
            ("= 1.0", "1.0.0", true),
        ];
        for (c, ver, want) in cases {
            assert_eq!(
                Constraints::parse(c).unwrap().check(&v(ver)),
                want,
                "{c} vs {ver}"
            );
        }
    }

    #[test]
    fn prerelease_and_display() {
        let c = Constraints::parse(">= 1.0.0-beta1").unwrap();
        assert!(c.0[0].prerelease());
        assert_eq!(c.0[0].to_string(), ">= 1.0.0-beta1");
        assert_eq!(v("1.2").to_string(), "1.2.0");
        assert_eq!(v("v1.2.3-x+y").to_string(), "1.2.3-x+y");
    }
}
