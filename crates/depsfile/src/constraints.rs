//! Provider version constraints: go-versions' "Ruby-style" multi
//! constraints (`>= 1.0, ~> 2.1, != 1.3`) as OpenTofu's
//! `getproviders.ParseVersionConstraints` reads them, the set of versions
//! they allow (`versions.MeetingConstraints`), the newest requested
//! version (`RequestedByConstraints`: prereleases only when pinned) and
//! the canonical string the lock file stores (`VersionConstraintsString`).

use std::cmp::Ordering;
use std::fmt;

use crate::version::{is_wildcard, parse_num, Version};
use crate::version_scan::{scan_constraint, WILDCARD_NAMES};

/// A constraint operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConstraintOp {
    Equal,
    NotEqual,
    GreaterThan,
    GreaterThanOrEqual,
    LessThan,
    LessThanOrEqual,
    /// `~> 1.2` / `~> 1`: same major version.
    PessimisticMinor,
    /// `~> 1.2.3`: same major and minor version.
    PessimisticPatch,
}

impl ConstraintOp {
    /// OpenTofu's display order: lower bounds first, upper bounds last.
    fn display_priority(self) -> u8 {
        match self {
            ConstraintOp::GreaterThan => 1,
            ConstraintOp::GreaterThanOrEqual => 2,
            ConstraintOp::Equal => 3,
            ConstraintOp::PessimisticPatch => 4,
            ConstraintOp::PessimisticMinor => 5,
            ConstraintOp::LessThanOrEqual => 6,
            ConstraintOp::LessThan => 7,
            ConstraintOp::NotEqual => 8,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            ConstraintOp::GreaterThan => "> ",
            ConstraintOp::LessThan => "< ",
            ConstraintOp::GreaterThanOrEqual => ">= ",
            ConstraintOp::PessimisticMinor | ConstraintOp::PessimisticPatch => "~> ",
            ConstraintOp::LessThanOrEqual => "<= ",
            ConstraintOp::Equal => "",
            ConstraintOp::NotEqual => "!= ",
        }
    }
}

/// One `op version` term. Missing version parts are `None` as written
/// (`>= 2` leaves minor and patch unconstrained); they count as zero.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Selection {
    pub op: ConstraintOp,
    pub nums: [Option<u64>; 3],
    pub prerelease: String,
    pub metadata: String,
}

impl Selection {
    /// The boundary with unconstrained parts as zero (`ConstrainToZero`).
    pub fn boundary(&self) -> Version {
        Version {
            major: self.nums[0].unwrap_or(0),
            minor: self.nums[1].unwrap_or(0),
            patch: self.nums[2].unwrap_or(0),
            prerelease: self.prerelease.clone(),
            metadata: self.metadata.clone(),
        }
    }

    /// Whether `v` is in the set this term allows (`MeetingConstraints`).
    pub fn allows(&self, v: &Version) -> bool {
        let mut lower = self.boundary();
        if !matches!(self.op, ConstraintOp::Equal | ConstraintOp::NotEqual) {
            // Metadata only counts for exact matches.
            lower.metadata.clear();
        }
        let cmp = v.precedence_cmp(&lower);
        match self.op {
            ConstraintOp::Equal => *v == lower,
            ConstraintOp::NotEqual => *v != lower,
            ConstraintOp::GreaterThan => cmp == Ordering::Greater,
            ConstraintOp::GreaterThanOrEqual => cmp != Ordering::Less,
            ConstraintOp::LessThan => cmp == Ordering::Less,
            ConstraintOp::LessThanOrEqual => cmp != Ordering::Greater,
            ConstraintOp::PessimisticMinor => {
                let upper = Version::new(lower.major + 1, 0, 0);
                cmp != Ordering::Less && v.precedence_cmp(&upper) == Ordering::Less
            }
            ConstraintOp::PessimisticPatch => {
                let upper = Version::new(lower.major, lower.minor + 1, 0);
                cmp != Ordering::Less && v.precedence_cmp(&upper) == Ordering::Less
            }
        }
    }

    fn normalized(&self) -> Selection {
        Selection {
            nums: [
                Some(self.nums[0].unwrap_or(0)),
                Some(self.nums[1].unwrap_or(0)),
                Some(self.nums[2].unwrap_or(0)),
            ],
            ..self.clone()
        }
    }
}

/// An intersection of terms; empty allows every version.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VersionConstraints {
    pub selections: Vec<Selection>,
}

impl VersionConstraints {
    /// No constraint: any version.
    pub fn any() -> VersionConstraints {
        VersionConstraints::default()
    }

    /// `constraints.ParseRubyStyleMulti`, with its error messages.
    pub fn parse(s: &str) -> Result<VersionConstraints, String> {
        let mut selections = Vec::new();
        let mut remain = s.trim();
        while !remain.is_empty() {
            let (sel, new_remain) = parse_one(remain);
            let consumed = &remain[..remain.len() - new_remain.len()];
            let sel = sel
                .map_err(|e| format!("invalid specification {}: {e}", addrs::go_quote(consumed)))?;
            remain = new_remain.trim();
            if !remain.is_empty() {
                if remain.starts_with('v') {
                    return Err(
                        r#"a "v" prefix should not be used when specifying versions"#.to_string(),
                    );
                }
                let Some(after) = remain.strip_prefix(',') else {
                    return Err(format!("missing comma after {}", addrs::go_quote(consumed)));
                };
                remain = after.trim();
            }
            selections.push(sel);
        }
        Ok(VersionConstraints { selections })
    }

    /// Whether no term was given.
    pub fn is_empty(&self) -> bool {
        self.selections.is_empty()
    }

    /// Adds the terms of `other` (`Requirements.Merge`).
    pub fn extend(&mut self, other: &VersionConstraints) {
        self.selections.extend(other.selections.iter().cloned());
    }

    /// Whether every term allows `v` (OpenTofu's `MeetingConstraints(..).Has`,
    /// which is what it checks a locked version against).
    pub fn allowed(&self, v: &Version) -> bool {
        self.selections.iter().all(|s| s.allows(v))
    }

    /// Whether `v` may be chosen when selecting the newest version
    /// (go-versions' `RequestedByConstraints`): allowed, and a release
    /// unless an exact `=` term makes the allowed set finite.
    pub fn requested(&self, v: &Version) -> bool {
        if !self.allowed(v) {
            return false;
        }
        !v.is_prerelease() || self.selections.iter().any(|s| s.op == ConstraintOp::Equal)
    }

    /// The newest version in `available` this constraint requests.
    pub fn newest_allowed<'a>(&self, available: &'a [Version]) -> Option<&'a Version> {
        available
            .iter()
            .filter(|v| self.requested(v))
            .max_by(|a, b| a.precedence_cmp(b))
    }
}

fn parse_one(s: &str) -> (Result<Selection, String>, &str) {
    let (raw, remain) = scan_constraint(s);
    let op = match raw.op.as_str() {
        "=" | "" => ConstraintOp::Equal,
        "!=" => ConstraintOp::NotEqual,
        ">" => ConstraintOp::GreaterThan,
        ">=" => ConstraintOp::GreaterThanOrEqual,
        "<" => ConstraintOp::LessThan,
        "<=" => ConstraintOp::LessThanOrEqual,
        "~>" if raw.num_count == 3 => ConstraintOp::PessimisticPatch,
        "~>" => ConstraintOp::PessimisticMinor,
        "=<" => {
            return (
                Err(r#"invalid constraint operator "=<"; did you mean "<="?"#.to_string()),
                remain,
            )
        }
        "=>" => {
            return (
                Err(r#"invalid constraint operator "=>"; did you mean ">="?"#.to_string()),
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
    let err = |m: String| (Err(m), remain);
    match raw.sep.as_str() {
        "" => {}
        " " if !raw.op.is_empty() => {}
        " " => return err("extraneous spaces at start of specification".to_string()),
        sep if sep.contains('v') => {
            return err(r#"a "v" prefix should not be used when specifying versions"#.to_string())
        }
        _ if raw.op.is_empty() => {
            return err("extraneous spaces at start of specification".to_string())
        }
        _ => {
            return err(format!(
                "only one space is expected after the operator {}",
                addrs::go_quote(&raw.op)
            ))
        }
    }
    if raw.num_count > 3 {
        return err(
            "too many numbered portions; only three are allowed (major, minor, patch)".to_string(),
        );
    }
    let mut nums = [None; 3];
    for (i, n) in raw.nums.iter().enumerate() {
        if is_wildcard(n) {
            return err(format!(
                "can't use wildcard for {} number; omit segments that should be unconstrained",
                WILDCARD_NAMES[i]
            ));
        }
        match parse_num(n) {
            Ok(v) => nums[i] = Some(v),
            Err(e) => return err(e),
        }
    }
    if !raw.pre.is_empty() || !raw.meta.is_empty() {
        for n in &mut nums {
            n.get_or_insert(0);
        }
    }
    (
        Ok(Selection {
            op,
            nums,
            prerelease: raw.pre,
            metadata: raw.meta,
        }),
        remain,
    )
}

/// `getproviders.VersionConstraintsString`: deduplicated, sorted, and
/// written in the canonical form the dependency lock file requires.
impl fmt::Display for VersionConstraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sels: Vec<Selection> = Vec::new();
        for s in &self.selections {
            let n = s.normalized();
            if !sels.contains(&n) {
                sels.push(n);
            }
        }
        sels.sort_by(|a, b| {
            let (av, bv) = (a.boundary(), b.boundary());
            let by_boundary = if av.same(&bv) {
                av.metadata.cmp(&bv.metadata)
            } else {
                av.precedence_cmp(&bv)
            };
            by_boundary.then(a.op.display_priority().cmp(&b.op.display_priority()))
        });
        for (i, s) in sels.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let b = s.boundary();
            f.write_str(s.op.symbol())?;
            if s.op == ConstraintOp::PessimisticMinor {
                write!(f, "{}.{}", b.major, b.minor)?;
            } else {
                write!(f, "{}.{}.{}", b.major, b.minor, b.patch)?;
            }
            if !b.prerelease.is_empty() {
                write!(f, "-{}", b.prerelease)?;
            }
            if !b.metadata.is_empty() {
                write!(f, "+{}", b.metadata)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn allowed_sets() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (">= 1.0, < 2", &["1.0.0", "1.9.9"], &["0.9.0", "2.0.0"]),
            ("~> 2.1", &["2.1.0", "2.9.0"], &["2.0.9", "3.0.0"]),
            ("~> 2.1.3", &["2.1.3", "2.1.9"], &["2.2.0", "2.1.2"]),
            ("~> 2", &["2.0.0", "2.5.0"], &["3.0.0", "1.9.0"]),
            ("!= 1.3", &["1.2.0", "1.3.1"], &["1.3.0"]),
            ("1.2", &["1.2.0"], &["1.2.1"]),
            ("= 1.0.0+abc", &["1.0.0+abc"], &["1.0.0", "1.0.0+def"]),
            ("> 1.0.0+abc", &["1.0.1"], &["1.0.0+def"]),
            ("", &["0.0.1", "9.9.9"], &[]),
        ];
        for (c, yes, no) in cases {
            let vc = VersionConstraints::parse(c).unwrap();
            for y in *yes {
                assert!(vc.allowed(&v(y)), "{c} should allow {y}");
            }
            for n in *no {
                assert!(!vc.allowed(&v(n)), "{c} should not allow {n}");
            }
        }
    }

    #[test]
    fn newest_ignores_prereleases_unless_pinned() {
        let avail: Vec<Version> = ["1.0.0", "1.1.0", "2.0.0-beta1", "1.2.0-rc1"]
            .iter()
            .map(|s| v(s))
            .collect();
        let pick = |c: &str| {
            VersionConstraints::parse(c)
                .unwrap()
                .newest_allowed(&avail)
                .map(|v| v.to_string())
        };
        assert_eq!(pick(">= 1.0").as_deref(), Some("1.1.0"));
        assert_eq!(pick("").as_deref(), Some("1.1.0"));
        assert_eq!(pick("2.0.0-beta1").as_deref(), Some("2.0.0-beta1"));
        assert_eq!(pick("= 1.2.0-rc1, >= 1.0").as_deref(), Some("1.2.0-rc1"));
        assert_eq!(pick("> 5"), None);
    }

    #[test]
    fn parse_errors() {
        for (c, want) in [
            (
                "=> 1.0",
                r#"invalid specification "=> 1.0": invalid constraint operator "=>"; did you mean ">="?"#,
            ),
            (
                "=< 1.0",
                r#"invalid specification "=< 1.0": invalid constraint operator "=<"; did you mean "<="?"#,
            ),
            (
                ">= v1.0",
                r#"invalid specification ">= v1.0": a "v" prefix should not be used when specifying versions"#,
            ),
            (
                ">=  1.0",
                r#"invalid specification ">=  1.0": only one space is expected after the operator ">=""#,
            ),
            (
                "1.*",
                r#"invalid specification "1.*": can't use wildcard for minor number; omit segments that should be unconstrained"#,
            ),
            (
                "1.0.0.1",
                r#"invalid specification "1.0.0.1": too many numbered portions; only three are allowed (major, minor, patch)"#,
            ),
            (">= 1.0 < 2.0", r#"missing comma after ">= 1.0""#),
            (
                "~ 1.0",
                r#"invalid specification "~ 1.0": invalid constraint operator "~""#,
            ),
        ] {
            assert_eq!(VersionConstraints::parse(c).unwrap_err(), want, "{c}");
        }
    }

    #[test]
    fn canonical_string() {
        for (c, want) in [
            ("< 2, >= 1.0", ">= 1.0.0, < 2.0.0"),
            ("~> 2", "~> 2.0"),
            ("~> 2.1, ~> 2.1.0", "~> 2.1.0, ~> 2.1"),
            (">= 2.0, >= 2.0.0, 1.2.3", "1.2.3, >= 2.0.0"),
            ("!= 1.3, > 1.0", "> 1.0.0, != 1.3.0"),
            ("1.0.0-beta", "1.0.0-beta"),
            ("", ""),
        ] {
            assert_eq!(
                VersionConstraints::parse(c).unwrap().to_string(),
                want,
                "{c}"
            );
        }
    }
}

/// The lock file's own cases (written for the lock-file reader before the
/// two copies of these types were merged).
#[cfg(test)]
mod lock_file_cases {
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
                .allowed(&Version::parse(v).unwrap());
            assert_eq!(got, want, "{c} vs {v}");
        }
    }
}
