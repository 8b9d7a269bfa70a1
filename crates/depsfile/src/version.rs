//! Provider versions as OpenTofu's `getproviders.Version` reads them
//! (apparentlymart/go-versions): exactly `major.minor.patch`, missing parts
//! zero, optional `-prerelease` and `+metadata`, no `v` prefix.

use std::cmp::Ordering;
use std::fmt;

use crate::constraint_scan::{scan_constraint, RawConstraint, NUM_NAMES};

/// A single provider version.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Dot-separated prerelease identifiers (`beta.1`), empty if none.
    pub prerelease: String,
    /// Build metadata (`abc`), empty if none; no precedence meaning.
    pub metadata: String,
}

impl Version {
    /// `versions.ParseVersion`; the error is the library's message, meant to
    /// be shown to whoever wrote the version.
    pub fn parse(s: &str) -> Result<Version, String> {
        if s.trim().is_empty() {
            return Err("empty specification".into());
        }
        let (raw, remain) = scan_constraint(s);
        match raw.op.trim() {
            ">" | ">=" | "<" | "<=" | "!" | "!=" | "~>" | "^" | "~" => {
                return Err(format!(
                    "can't use constraint operator {}; an exact version is required",
                    addrs::go_quote(raw.op)
                ));
            }
            "" => {
                if !raw.sep.is_empty() {
                    if raw.sep.contains('v') {
                        return Err(r#"a "v" prefix should not be used"#.into());
                    }
                    return Err("extraneous spaces at start of specification".into());
                }
            }
            _ => {
                return Err(format!(
                    "invalid sequence {} at start of specification",
                    addrs::go_quote(raw.op)
                ))
            }
        }
        if !remain.is_empty() {
            let remain = remain.trim();
            return Err(if remain.is_empty() {
                "extraneous spaces at end of specification".into()
            } else if s.starts_with('v') {
                r#"a "v" prefix should not be used"#.into()
            } else if remain.starts_with(',') || remain.starts_with('|') {
                "can't specify multiple versions; a single exact version is required".into()
            } else if remain.starts_with('-') {
                "can't specify version range; a single exact version is required".into()
            } else if s.trim().starts_with(remain) {
                "invalid specification; required format is three positive integers separated by periods".into()
            } else {
                format!("invalid characters {}", addrs::go_quote(remain))
            });
        }
        if raw.num_count > 3 {
            return Err(
                "too many numbered portions; only three are allowed (major, minor, patch)".into(),
            );
        }
        let mut nums = raw.nums;
        for n in nums.iter_mut().skip(raw.num_count) {
            *n = "0";
        }
        for (i, n) in nums.iter().enumerate() {
            if is_wildcard(n) {
                return Err(format!(
                    "can't use wildcard for {} number; an exact version is required",
                    NUM_NAMES[i]
                ));
            }
        }
        let spec = RawConstraint { nums, ..raw }.version_spec();
        Ok(spec.constrain_to_zero())
    }

    /// Semver precedence as go-versions' `LessThan` computes it (metadata
    /// ignored).
    pub fn precedence(&self, other: &Version) -> Ordering {
        let by_numbers =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if by_numbers != Ordering::Equal || self.prerelease == other.prerelease {
            return by_numbers;
        }
        // A release outranks its prereleases.
        if self.prerelease.is_empty() {
            Ordering::Greater
        } else if other.prerelease.is_empty()
            || extra_less_than(&self.prerelease, &other.prerelease)
        {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    }

    /// Same precedence: numbers and prerelease equal (`Version.Same`).
    pub fn same(&self, other: &Version) -> bool {
        self.precedence(other) == Ordering::Equal
    }
}

pub(crate) fn is_wildcard(s: &str) -> bool {
    matches!(s, "*" | "x" | "X")
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.prerelease.is_empty() {
            write!(f, "-{}", self.prerelease)?;
        }
        if !self.metadata.is_empty() {
            write!(f, "+{}", self.metadata)?;
        }
        Ok(())
    }
}

/// `VersionExtra.LessThan`, kept exactly as go-versions has it (it also
/// orders build metadata in `VersionConstraintsString`).
pub(crate) fn extra_less_than(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    let (mut s1, mut s2) = (a, b);
    loop {
        match (s1.find('.'), s2.find('.')) {
            (None, Some(_)) => return true,
            (Some(_), None) => return false,
            (None, None) => return less_than_str(s1, s2),
            (Some(d1), Some(d2)) => {
                let (p1, p2) = (&s1[..d1], &s2[..d2]);
                if p1 != p2 {
                    return less_than_str(p1, p2);
                }
                s1 = &s1[d1 + 1..];
                s2 = &s2[d2 + 1..];
            }
        }
    }
}

fn less_than_str(s1: &str, s2: &str) -> bool {
    let numeric = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    match (numeric(s1), numeric(s2)) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => (s1.len(), s1) < (s2.len(), s2),
        (false, false) => s1 < s2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_normalizes() {
        let cases = [
            ("1.2.3", "1.2.3"),
            ("1.2", "1.2.0"),
            ("1", "1.0.0"),
            ("1.0.0-beta.1", "1.0.0-beta.1"),
            ("1.0.0+abc", "1.0.0+abc"),
            ("01.2.3", "1.2.3"),
        ];
        for (given, want) in cases {
            assert_eq!(Version::parse(given).unwrap().to_string(), want, "{given}");
        }
    }

    #[test]
    fn parse_errors() {
        let cases = [
            ("", "empty specification"),
            ("v1.2.3", r#"a "v" prefix should not be used"#),
            (">= 1.0.0", r#"can't use constraint operator ">="; an exact version is required"#),
            ("1.2.3.4", "too many numbered portions; only three are allowed (major, minor, patch)"),
            ("1.*.0", "can't use wildcard for minor number; an exact version is required"),
            ("1.0.0, 2.0.0", "can't specify multiple versions; a single exact version is required"),
            ("1.0.0 ", "extraneous spaces at end of specification"),
            (" 1.0.0", "extraneous spaces at start of specification"),
            ("banana", "invalid specification; required format is three positive integers separated by periods"),
            ("1.0.0 x", r#"invalid characters "x""#),
        ];
        for (given, want) in cases {
            assert_eq!(Version::parse(given).unwrap_err(), want, "{given:?}");
        }
    }

    #[test]
    fn precedence() {
        let v = |s| Version::parse(s).unwrap();
        assert_eq!(v("1.0.0").precedence(&v("1.0.1")), Ordering::Less);
        assert_eq!(
            v("1.0.0-alpha").precedence(&v("1.0.0-beta")),
            Ordering::Less
        );
        assert_eq!(v("1.0.0-2").precedence(&v("1.0.0-10")), Ordering::Less);
        assert_eq!(v("1.0.0-a.1").precedence(&v("1.0.0-a")), Ordering::Greater);
        assert_eq!(v("1.0.0").precedence(&v("1.0.0-rc")), Ordering::Greater);
        assert!(v("1.0.0+x").same(&v("1.0.0+y")));
    }
}
