//! hashicorp/go-version, the one port: versions (`NewVersion`), their
//! canonical form (`String`, what `modules.json` records), ordering
//! (`Compare`) and constraints (`NewConstraint`, `Check`), with go-version's
//! error texts. OpenTofu uses this library for module versions and for
//! `required_version`.
//!
//! Provider versions are NOT this library: OpenTofu reads them with
//! apparentlymart/go-versions (npm-style constraints, different errors and
//! prerelease rules), ported separately in `depsfile` (`version.rs`,
//! `constraints.rs`).

use std::cmp::Ordering;
use std::fmt;

pub mod syntax;

use syntax::{split_constraint, split_version, VersionParts};

/// A go-version `Version`: numeric segments (at least three, zero padded),
/// an optional prerelease and optional build metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    segments: Vec<i64>,
    /// How many segments were written (go-version's `si`; `~>` looks at it).
    specified: usize,
    pre: String,
    metadata: String,
    original: String,
}

/// Why `NewVersion` refused a string; `Display` is go-version's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionError {
    /// The string is not a version: `Malformed version: 1.x`.
    Malformed(String),
    /// A segment does not fit an int64: `Error parsing version:
    /// strconv.ParseInt: parsing "99999999999999999999": value out of range`.
    SegmentOutOfRange(String),
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionError::Malformed(v) => write!(f, "Malformed version: {v}"),
            VersionError::SegmentOutOfRange(s) => write!(
                f,
                "Error parsing version: strconv.ParseInt: parsing {}: value out of range",
                crate::quote::quote(s)
            ),
        }
    }
}

impl std::error::Error for VersionError {}

impl Version {
    /// `version.NewVersion` (`1.2.3`, `v1.2`, `1.0.0-beta+abc`).
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        let parts = split_version(s).ok_or_else(|| VersionError::Malformed(s.to_string()))?;
        Version::from_parts(parts, s)
    }

    fn from_parts(parts: VersionParts<'_>, original: &str) -> Result<Version, VersionError> {
        let mut segments = Vec::new();
        for part in parts.segments.split('.') {
            // Only digits reach here, so the one failure is overflow.
            let n = part
                .parse::<i64>()
                .map_err(|_| VersionError::SegmentOutOfRange(part.to_string()))?;
            segments.push(n);
        }
        let specified = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        Ok(Version {
            segments,
            specified,
            pre: parts.pre.to_string(),
            metadata: parts.metadata.to_string(),
            original: original.to_string(),
        })
    }

    /// The prerelease part (`beta` in `1.0.0-beta`), empty for a release.
    pub fn prerelease(&self) -> &str {
        &self.pre
    }

    /// The build metadata (`abc` in `1.0.0+abc`), empty if none.
    pub fn metadata(&self) -> &str {
        &self.metadata
    }

    /// The numeric segments, padded to at least three.
    pub fn segments(&self) -> &[i64] {
        &self.segments
    }

    /// The text this version was parsed from.
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
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.compare(other))
    }
}

/// go-version's `String()`: segments joined by dots (`v` prefix dropped,
/// padding kept), then `-pre` and `+metadata`.
impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.segments.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{s}")?;
        }
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        if !self.metadata.is_empty() {
            write!(f, "+{}", self.metadata)?;
        }
        Ok(())
    }
}

/// go-version's `comparePrereleases`: dot-separated parts, the first that
/// differs decides, a missing part counting as empty.
fn compare_prereleases(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let pa: Vec<&str> = a.split('.').collect();
    let pb: Vec<&str> = b.split('.').collect();
    for i in 0..pa.len().max(pb.len()) {
        let x = pa.get(i).copied().unwrap_or("");
        let y = pb.get(i).copied().unwrap_or("");
        match compare_part(x, y) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    Ordering::Equal
}

/// go-version's `comparePart`, quirks included: an empty part is less than
/// a numeric one and greater than any other; numbers sort before words;
/// two different parts that are equal as numbers (`01`, `1`) compare less.
fn compare_part(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let ai = a.parse::<i64>().ok();
    let bi = b.parse::<i64>().ok();
    if a.is_empty() {
        return if bi.is_some() {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    if b.is_empty() {
        return if ai.is_some() {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    }
    match (ai, bi) {
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) if a > b => Ordering::Greater,
        (Some(x), Some(y)) if x > y => Ordering::Greater,
        _ => Ordering::Less,
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

/// Why `NewConstraint` refused a string; `Display` is go-version's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstraintError {
    /// One comma-separated part is not `op version`: `Malformed
    /// constraint: >= x`.
    Malformed(String),
    /// The part's version has a segment too large for an int64.
    Version(VersionError),
}

impl fmt::Display for ConstraintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstraintError::Malformed(c) => write!(f, "Malformed constraint: {c}"),
            ConstraintError::Version(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConstraintError {}

impl Constraint {
    /// Whether the constraint's version has a prerelease part.
    pub fn prerelease(&self) -> bool {
        !self.version.pre.is_empty()
    }

    /// `Constraint.Check`: whether `v` satisfies this constraint.
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

/// go-version's `prereleaseCheck`: a prerelease version only matches a
/// constraint on a prerelease of the same segments.
fn prerelease_check(v: &Version, c: &Version) -> bool {
    match (v.pre.is_empty(), c.pre.is_empty()) {
        (false, false) => v.segments == c.segments,
        (false, true) => false,
        _ => true,
    }
}

/// go-version's `constraintPessimistic` (`~>`).
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

/// go-version `Constraints`: comma-separated constraints that must all
/// hold (`">= 1.0, < 2"`). An empty list (no constraint given) accepts
/// every version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constraints(pub Vec<Constraint>);

impl Constraints {
    /// `version.NewConstraint`.
    pub fn parse(s: &str) -> Result<Constraints, ConstraintError> {
        let mut out = Vec::new();
        for single in s.split(',') {
            let (op_text, vtext) = split_constraint(single)
                .ok_or_else(|| ConstraintError::Malformed(single.to_string()))?;
            let op = match op_text {
                "" | "=" => Operator::Equal,
                "!=" => Operator::NotEqual,
                ">" => Operator::Greater,
                "<" => Operator::Less,
                ">=" => Operator::GreaterOrEqual,
                "<=" => Operator::LessOrEqual,
                "~>" => Operator::Pessimistic,
                _ => return Err(ConstraintError::Malformed(single.to_string())),
            };
            let version = Version::parse(vtext).map_err(ConstraintError::Version)?;
            out.push(Constraint {
                op,
                version,
                original: single.to_string(),
            });
        }
        Ok(Constraints(out))
    }

    /// No constraint at all: every version satisfies it.
    pub fn none() -> Constraints {
        Constraints::default()
    }

    /// `Constraints.Check`: whether `v` satisfies every constraint.
    pub fn check(&self, v: &Version) -> bool {
        self.0.iter().all(|c| c.check(v))
    }

    /// Whether no constraint was given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// go-version's `Constraints.String()`: the parts as written, joined by
/// commas (so the text that was parsed, exactly).
impl fmt::Display for Constraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(&c.original)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
