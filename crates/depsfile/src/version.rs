//! Provider versions as apparentlymart/go-versions parses and orders them
//! (OpenTofu's `getproviders.Version`): strict `MAJOR.MINOR.PATCH` with
//! optional `-prerelease` and `+metadata`, missing minor/patch read as 0.

use std::cmp::Ordering;
use std::fmt;

use crate::version_scan::{scan_constraint, WILDCARD_NAMES};

/// One provider version.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// Without the leading `-`; empty for a release.
    pub prerelease: String,
    /// Build metadata, without the leading `+`; never affects precedence.
    pub metadata: String,
}

impl Version {
    /// A release version.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            ..Version::default()
        }
    }

    /// `versions.ParseVersion`: one exact version, with go-versions' errors.
    pub fn parse(s: &str) -> Result<Version, String> {
        if s.trim().is_empty() {
            return Err("empty specification".to_string());
        }
        let (raw, remain) = scan_constraint(s);
        match raw.op.trim() {
            ">" | ">=" | "<" | "<=" | "!" | "!=" | "~>" | "^" | "~" => {
                return Err(format!(
                    "can't use constraint operator {}; an exact version is required",
                    addrs::go_quote(&raw.op)
                ))
            }
            "" => {
                if !raw.sep.is_empty() {
                    if raw.sep.contains('v') {
                        return Err(r#"a "v" prefix should not be used"#.to_string());
                    }
                    return Err("extraneous spaces at start of specification".to_string());
                }
            }
            _ => {
                return Err(format!(
                    "invalid sequence {} at start of specification",
                    addrs::go_quote(&raw.op)
                ))
            }
        }
        if !remain.is_empty() {
            let trimmed = remain.trim();
            return Err(if trimmed.is_empty() {
                "extraneous spaces at end of specification".to_string()
            } else if s.starts_with('v') {
                r#"a "v" prefix should not be used"#.to_string()
            } else if trimmed.starts_with(',') || trimmed.starts_with('|') {
                "can't specify multiple versions; a single exact version is required".to_string()
            } else if trimmed.starts_with('-') {
                "can't specify version range; a single exact version is required".to_string()
            } else if s.trim().starts_with(trimmed) {
                "invalid specification; required format is three positive integers separated by periods".to_string()
            } else {
                format!("invalid characters {}", addrs::go_quote(trimmed))
            });
        }
        if raw.num_count > 3 {
            return Err(
                "too many numbered portions; only three are allowed (major, minor, patch)"
                    .to_string(),
            );
        }
        let mut nums = [0u64; 3];
        for (i, n) in raw.nums.iter().enumerate() {
            if i >= raw.num_count {
                break;
            }
            if is_wildcard(n) {
                return Err(format!(
                    "can't use wildcard for {} number; an exact version is required",
                    WILDCARD_NAMES[i]
                ));
            }
            nums[i] = parse_num(n)?;
        }
        Ok(Version {
            major: nums[0],
            minor: nums[1],
            patch: nums[2],
            prerelease: raw.pre,
            metadata: raw.meta,
        })
    }

    /// Whether this is a prerelease (`1.0.0-beta1`).
    pub fn is_prerelease(&self) -> bool {
        !self.prerelease.is_empty()
    }

    /// go-versions' `Same`: equal precedence, metadata ignored.
    pub fn same(&self, other: &Version) -> bool {
        self.precedence_cmp(other) == Ordering::Equal
    }

    /// Semver precedence as go-versions orders provider versions: a
    /// release sorts above its own prereleases; two prereleases compare
    /// with go-versions' `VersionExtra.LessThan` (numeric parts below
    /// alphanumeric ones, numbers by value, and a prerelease with fewer
    /// dot-parts first). Metadata never counts.
    pub fn precedence_cmp(&self, other: &Version) -> Ordering {
        self.major
            .cmp(&other.major)
            .then(self.minor.cmp(&other.minor))
            .then(self.patch.cmp(&other.patch))
            .then_with(
                || match (self.prerelease.is_empty(), other.prerelease.is_empty()) {
                    _ if self.prerelease == other.prerelease => Ordering::Equal,
                    (true, false) => Ordering::Greater,
                    (false, true) => Ordering::Less,
                    _ if extra_less(&self.prerelease, &other.prerelease) => Ordering::Less,
                    _ => Ordering::Greater,
                },
            )
    }
}

pub(crate) fn is_wildcard(s: &str) -> bool {
    matches!(s, "*" | "x" | "X")
}

pub(crate) fn parse_num(s: &str) -> Result<u64, String> {
    s.parse::<u64>()
        .map_err(|_| format!("invalid version number {}", addrs::go_quote(s)))
}

/// go-versions' `VersionExtra.LessThan`.
fn extra_less(e1: &str, e2: &str) -> bool {
    if e1 == e2 {
        return false;
    }
    let (mut s1, mut s2) = (e1, e2);
    loop {
        let d1 = s1.find('.');
        let d2 = s2.find('.');
        match (d1, d2) {
            (None, Some(_)) => return true,
            (Some(_), None) => return false,
            (None, None) => return str_less(s1, s2),
            (Some(d1), Some(d2)) => {
                let (p1, p2) = (&s1[..d1], &s2[..d2]);
                if p1 != p2 {
                    return str_less(p1, p2);
                }
                s1 = &s1[d1 + 1..];
                s2 = &s2[d2 + 1..];
            }
        }
    }
}

fn str_less(s1: &str, s2: &str) -> bool {
    let n1 = s1.bytes().all(|c| c.is_ascii_digit());
    let n2 = s2.bytes().all(|c| c.is_ascii_digit());
    match (n1, n2) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => s1.len() < s2.len() || (s1.len() == s2.len() && s1 < s2),
        (false, false) => s1 < s2,
    }
}

/// Precedence first, then metadata, so that `Ord` agrees with `Eq`.
impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.precedence_cmp(other)
            .then_with(|| self.metadata.cmp(&other.metadata))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The canonical semver form.
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

impl std::str::FromStr for Version {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_ok() {
        for (input, want) in [
            ("1.2.3", "1.2.3"),
            ("1.2", "1.2.0"),
            ("1", "1.0.0"),
            ("1.0.0-beta.1", "1.0.0-beta.1"),
            ("1.0.0+abc", "1.0.0+abc"),
            ("1.0.0-rc1+x.y", "1.0.0-rc1+x.y"),
        ] {
            assert_eq!(Version::parse(input).unwrap().to_string(), want, "{input}");
        }
    }

    #[test]
    fn parse_errors() {
        for (input, want) in [
            ("", "empty specification"),
            ("v1.0.0", r#"a "v" prefix should not be used"#),
            (">= 1.0.0", r#"can't use constraint operator ">="; an exact version is required"#),
            (" 1.0.0", "extraneous spaces at start of specification"),
            ("1.0.0 ", "extraneous spaces at end of specification"),
            ("1.0.0, 2.0.0", "can't specify multiple versions; a single exact version is required"),
            ("1.0.0.0", "too many numbered portions; only three are allowed (major, minor, patch)"),
            ("1.*", "can't use wildcard for minor number; an exact version is required"),
            ("foo", "invalid specification; required format is three positive integers separated by periods"),
            ("1.0.0 foo", r#"invalid characters "foo""#),
        ] {
            assert_eq!(Version::parse(input).unwrap_err(), want, "{input:?}");
        }
    }

    #[test]
    fn ordering() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert!(v("1.2.3") < v("1.10.0"));
        assert!(v("1.0.0-alpha") < v("1.0.0-beta"));
        assert!(v("1.0.0-2") < v("1.0.0-10"));
        assert!(v("1.0.0-1") < v("1.0.0-a"));
        assert!(v("1.0.0-a") < v("1.0.0-a.1"));
        assert!(v("1.0.0-beta") < v("1.0.0"));
        assert!(v("0.9.9") < v("1.0.0-beta"));
        assert!(v("1.0.0+a").same(&v("1.0.0+b")));
        assert_ne!(v("1.0.0+a"), v("1.0.0+b"));
    }
}

/// The lock file's own cases (written for the lock-file reader before the
/// two copies of these types were merged).
#[cfg(test)]
mod lock_file_cases {
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
        assert_eq!(v("1.0.0").precedence_cmp(&v("1.0.1")), Ordering::Less);
        assert_eq!(
            v("1.0.0-alpha").precedence_cmp(&v("1.0.0-beta")),
            Ordering::Less
        );
        assert_eq!(v("1.0.0-2").precedence_cmp(&v("1.0.0-10")), Ordering::Less);
        assert_eq!(
            v("1.0.0-a.1").precedence_cmp(&v("1.0.0-a")),
            Ordering::Greater
        );
        assert_eq!(v("1.0.0").precedence_cmp(&v("1.0.0-rc")), Ordering::Greater);
        assert!(v("1.0.0+x").same(&v("1.0.0+y")));
    }
}
