//! Provider version constraints (`getproviders.VersionConstraints`): the
//! Ruby-style syntax of `required_providers` (`">= 1.0, ~> 1.2"`) parsed as
//! go-versions does, the canonical string OpenTofu writes to the lock file
//! and prints (`VersionConstraintsString`), and which versions they allow.

use std::cmp::Ordering;
use std::fmt;

use crate::constraint_scan::{scan_constraint, NUM_NAMES};
use crate::version::{extra_less_than, is_wildcard, Version};

/// One number of a constraint's boundary: given, or left out (`~> 2` leaves
/// minor and patch unconstrained).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumConstraint {
    Num(u64),
    Unconstrained,
}

impl NumConstraint {
    fn or_zero(self) -> u64 {
        match self {
            NumConstraint::Num(n) => n,
            NumConstraint::Unconstrained => 0,
        }
    }
}

/// The boundary version of a constraint.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VersionSpec {
    pub major: NumConstraint,
    pub minor: NumConstraint,
    pub patch: NumConstraint,
    pub prerelease: String,
    pub metadata: String,
}

impl VersionSpec {
    /// `ConstrainToZero`: unconstrained numbers read as zero.
    pub fn constrain_to_zero(&self) -> Version {
        Version {
            major: self.major.or_zero(),
            minor: self.minor.or_zero(),
            patch: self.patch.or_zero(),
            prerelease: self.prerelease.clone(),
            metadata: self.metadata.clone(),
        }
    }
}

/// A constraint operator. `~>` is two operators, told apart by how many
/// numbers follow it: `~> 1.2` allows new minor versions, `~> 1.2.3` only
/// new patch versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operator {
    Equal,
    NotEqual,
    GreaterThan,
    GreaterThanOrEqual,
    LessThan,
    LessThanOrEqual,
    /// `~> 1.2.3`
    PessimisticPatch,
    /// `~> 1.2`, `~> 1`
    PessimisticMinor,
}

impl Operator {
    /// The order OpenTofu sorts operators on the same boundary in
    /// (`versionSelectionsBoundaryPriority`): lower bounds first.
    fn priority(self) -> u8 {
        match self {
            Operator::GreaterThan => 1,
            Operator::GreaterThanOrEqual => 2,
            Operator::Equal => 3,
            Operator::PessimisticPatch => 4,
            Operator::PessimisticMinor => 5,
            Operator::LessThanOrEqual => 6,
            Operator::LessThan => 7,
            Operator::NotEqual => 8,
        }
    }
}

/// One constraint: an operator applied to a boundary version.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Selection {
    pub operator: Operator,
    pub boundary: VersionSpec,
}

impl Selection {
    /// Whether `v` meets this constraint (`versions.MeetingConstraints`).
    pub fn allows(&self, v: &Version) -> bool {
        let mut lower = self.boundary.constrain_to_zero();
        if !matches!(self.operator, Operator::Equal | Operator::NotEqual) {
            // Metadata only counts for exact matches.
            lower.metadata.clear();
        }
        let cmp = v.precedence(&lower);
        match self.operator {
            Operator::Equal => *v == lower,
            Operator::NotEqual => *v != lower,
            Operator::GreaterThan => cmp == Ordering::Greater,
            Operator::GreaterThanOrEqual => cmp != Ordering::Less,
            Operator::LessThan => cmp == Ordering::Less,
            Operator::LessThanOrEqual => cmp != Ordering::Greater,
            Operator::PessimisticMinor | Operator::PessimisticPatch => {
                let mut upper = lower.clone();
                if self.operator == Operator::PessimisticMinor {
                    upper.major += 1;
                    upper.minor = 0;
                } else {
                    upper.minor += 1;
                }
                upper.patch = 0;
                upper.prerelease.clear();
                cmp != Ordering::Less && v.precedence(&upper) == Ordering::Less
            }
        }
    }
}

/// Constraints that must all hold. Empty means any version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VersionConstraints(pub Vec<Selection>);

impl VersionConstraints {
    /// `getproviders.ParseVersionConstraints` (`ParseRubyStyleMulti`): one
    /// or more comma-separated constraints. The error is go-versions'
    /// message (`invalid specification "=> 1": invalid constraint operator
    /// "=>"; did you mean ">="?`).
    pub fn parse(s: &str) -> Result<VersionConstraints, String> {
        let mut out = Vec::new();
        let mut remain = s.trim();
        while !remain.is_empty() {
            let (sel, new_remain) = parse_ruby_style(remain);
            let consumed = &remain[..remain.len() - new_remain.len()];
            let sel = sel
                .map_err(|e| format!("invalid specification {}: {e}", addrs::go_quote(consumed)))?;
            remain = new_remain.trim();
            if !remain.is_empty() {
                if remain.starts_with('v') {
                    return Err(
                        r#"a "v" prefix should not be used when specifying versions"#.into(),
                    );
                }
                let Some(rest) = remain.strip_prefix(',') else {
                    return Err(format!("missing comma after {}", addrs::go_quote(consumed)));
                };
                remain = rest.trim();
            }
            out.push(sel);
        }
        Ok(VersionConstraints(out))
    }

    /// Whether every constraint allows `v`.
    pub fn allows(&self, v: &Version) -> bool {
        self.0.iter().all(|s| s.allows(v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These constraints and `other`'s, all of which must hold (what
    /// OpenTofu does when two modules constrain the same provider).
    pub fn merge(&mut self, other: &VersionConstraints) {
        self.0.extend(other.0.iter().cloned());
    }
}

/// `getproviders.VersionConstraintsString`: deduplicated, sorted by
/// boundary then operator, omitted numbers written as zero, `~> 1.2` kept
/// to two numbers. This is the normal form the lock file requires.
impl fmt::Display for VersionConstraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sels: Vec<(Operator, Version)> = Vec::new();
        for s in &self.0 {
            let item = (s.operator, s.boundary.constrain_to_zero());
            if !sels.contains(&item) {
                sels.push(item);
            }
        }
        sels.sort_by(|(op_a, a), (op_b, b)| {
            boundary_order(a, b).then(op_a.priority().cmp(&op_b.priority()))
        });
        for (i, (op, v)) in sels.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(match op {
                Operator::GreaterThan => "> ",
                Operator::LessThan => "< ",
                Operator::GreaterThanOrEqual => ">= ",
                Operator::PessimisticPatch | Operator::PessimisticMinor => "~> ",
                Operator::LessThanOrEqual => "<= ",
                Operator::Equal => "",
                Operator::NotEqual => "!= ",
            })?;
            if *op == Operator::PessimisticMinor {
                write!(f, "{}.{}", v.major, v.minor)?;
            } else {
                write!(f, "{}.{}.{}", v.major, v.minor, v.patch)?;
            }
            if !v.prerelease.is_empty() {
                write!(f, "-{}", v.prerelease)?;
            }
            if !v.metadata.is_empty() {
                write!(f, "+{}", v.metadata)?;
            }
        }
        Ok(())
    }
}

/// `versionSelectionBoundaryCompare`: precedence, then metadata so that
/// the order is total.
fn boundary_order(a: &Version, b: &Version) -> Ordering {
    if a.same(b) {
        if a.metadata == b.metadata {
            Ordering::Equal
        } else if extra_less_than(&a.metadata, &b.metadata) {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    } else {
        a.precedence(b)
    }
}

/// `parseRubyStyle`: one constraint from the start of `s`, and the rest.
fn parse_ruby_style(s: &str) -> (Result<Selection, String>, &str) {
    let (raw, remain) = scan_constraint(s);
    let operator = match raw.op {
        "=" | "" => Operator::Equal,
        "!=" => Operator::NotEqual,
        ">" => Operator::GreaterThan,
        ">=" => Operator::GreaterThanOrEqual,
        "<" => Operator::LessThan,
        "<=" => Operator::LessThanOrEqual,
        "~>" if raw.num_count == 3 => Operator::PessimisticPatch,
        "~>" => Operator::PessimisticMinor,
        "=<" => {
            return (
                Err(r#"invalid constraint operator "=<"; did you mean "<="?"#.into()),
                remain,
            )
        }
        "=>" => {
            return (
                Err(r#"invalid constraint operator "=>"; did you mean ">="?"#.into()),
                remain,
            )
        }
        other => {
            return (
                Err(format!(
                    "invalid constraint operator {}",
                    addrs::go_quote(other)
                )),
                remain,
            )
        }
    };
    match raw.sep {
        "" => {}
        " " if !raw.op.is_empty() => {}
        sep => {
            let msg = if sep.contains('v') {
                r#"a "v" prefix should not be used when specifying versions"#.to_string()
            } else if raw.op.is_empty() {
                "extraneous spaces at start of specification".to_string()
            } else {
                format!(
                    "only one space is expected after the operator {}",
                    addrs::go_quote(raw.op)
                )
            };
            return (Err(msg), remain);
        }
    }
    if raw.num_count > 3 {
        return (
            Err("too many numbered portions; only three are allowed (major, minor, patch)".into()),
            remain,
        );
    }
    for (i, n) in raw.nums.iter().enumerate() {
        if is_wildcard(n) {
            return (
                Err(format!(
                    "can't use wildcard for {} number; omit segments that should be unconstrained",
                    NUM_NAMES[i]
                )),
                remain,
            );
        }
    }
    let mut raw = raw;
    if !raw.pre.is_empty() || !raw.meta.is_empty() {
        // A prerelease or metadata pins the omitted numbers to zero.
        for n in raw.nums.iter_mut() {
            if n.is_empty() {
                *n = "0";
            }
        }
    }
    (
        Ok(Selection {
            operator,
            boundary: raw.version_spec(),
        }),
        remain,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        VersionConstraints::parse(s).unwrap().to_string()
    }

    #[test]
    fn canonical_strings() {
        // From OpenTofu's TestVersionConstraintsString and lock files.
        let cases = [
            ("", ""),
            (">= 3.0", ">= 3.0.0"),
            ("~> 3.0", "~> 3.0"),
            ("~> 3", "~> 3.0"),
            ("~> 1.2.0", "~> 1.2.0"),
            ("1.2.3", "1.2.3"),
            ("= 1.2.3", "1.2.3"),
            ("~> 3.0, >= 3.1.0", "~> 3.0, >= 3.1.0"),
            (">= 3.1.0, ~> 3.0", "~> 3.0, >= 3.1.0"),
            ("< 2, >= 1", ">= 1.0.0, < 2.0.0"),
            (">= 2.0, >= 2.0.0, >= 2", ">= 2.0.0"),
            ("!= 1.0.0, > 1.0.0", "> 1.0.0, != 1.0.0"),
            (">= 1.0.0, >= 1.0.0-beta", ">= 1.0.0-beta, >= 1.0.0"),
            ("2.0.0+b, 2.0.0+a", "2.0.0+a, 2.0.0+b"),
            ("<= 1.0.0, ~> 1.0.0, ~> 1.0", "~> 1.0.0, ~> 1.0, <= 1.0.0"),
        ];
        for (given, want) in cases {
            assert_eq!(canon(given), want, "{given:?}");
        }
    }

    #[test]
    fn parse_errors() {
        let cases = [
            (
                "=> 1.0",
                r#"invalid specification "=> 1.0": invalid constraint operator "=>"; did you mean ">="?"#,
            ),
            (
                ">=  1.0",
                r#"invalid specification ">=  1.0": only one space is expected after the operator ">=""#,
            ),
            (
                ">= v1.0",
                r#"invalid specification ">= v1.0": a "v" prefix should not be used when specifying versions"#,
            ),
            ("1.0 1.1", r#"missing comma after "1.0""#),
            (
                "1.0 v1.1",
                r#"a "v" prefix should not be used when specifying versions"#,
            ),
            (
                "~> 1.*",
                r#"invalid specification "~> 1.*": can't use wildcard for minor number; omit segments that should be unconstrained"#,
            ),
            (
                "1.2.3.4",
                r#"invalid specification "1.2.3.4": too many numbered portions; only three are allowed (major, minor, patch)"#,
            ),
            (
                "^1.0",
                r#"invalid specification "^1.0": invalid constraint operator "^""#,
            ),
        ];
        for (given, want) in cases {
            assert_eq!(
                VersionConstraints::parse(given).unwrap_err(),
                want,
                "{given:?}"
            );
        }
    }

    #[test]
    fn allows() {
        let cases = [
            (">= 3.0", "3.2.0", true),
            (">= 3.0", "2.9.9", false),
            ("~> 3.0", "3.9.0", true),
            ("~> 3.0", "4.0.0", false),
            ("~> 3.1.0", "3.1.9", true),
            ("~> 3.1.0", "3.2.0", false),
            ("~> 3", "3.5.0", true),
            ("!= 1.0.0", "1.0.0", false),
            ("< 2", "1.99.0", true),
            ("1.0.0", "1.0.0", true),
            ("1.0.0", "1.0.0+meta", false),
            ("~> 3.0, >= 3.1.0", "3.0.5", false),
            (">= 1.0.0-beta", "1.0.0", true),
            (">= 1.0.0", "1.0.0-rc1", false),
        ];
        for (c, v, want) in cases {
            let got = VersionConstraints::parse(c)
                .unwrap()
                .allows(&Version::parse(v).unwrap());
            assert_eq!(got, want, "{c} vs {v}");
        }
    }
}
