//! hashicorp/go-version as OpenTofu uses it for module versions: parsing
//! (`NewVersion`), the canonical string form written to `modules.json`,
//! ordering, and `>= 1.0, < 2.0`-style constraints (`NewConstraint`).

use std::cmp::Ordering;
use std::fmt;

/// A go-version `Version`: numeric segments (at least three, zero padded),
/// an optional prerelease and optional build metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    segments: Vec<i64>,
    /// How many segments were written (`~>` looks at this).
    specified: usize,
    pre: String,
    metadata: String,
    original: String,
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'~'
}

/// Length of a `[0-9A-Za-z-~]+(\.[0-9A-Za-z-~]+)*` run at the start of `s`
/// (a trailing dot is not part of it).
fn dotted_ident_len(s: &[u8]) -> usize {
    let mut i = 0;
    loop {
        let start = i;
        while i < s.len() && is_ident_char(s[i]) {
            i += 1;
        }
        if i == start {
            // Empty part: back off the dot that introduced it.
            return start.saturating_sub(1);
        }
        if i < s.len() && s[i] == b'.' && i + 1 < s.len() && is_ident_char(s[i + 1]) {
            i += 1;
            continue;
        }
        return i;
    }
}

impl Version {
    /// `version.NewVersion`.
    pub fn parse(v: &str) -> Result<Version, String> {
        let malformed = || format!("Malformed version: {v}");
        let b = v.as_bytes();
        let mut i = 0;
        if b.first() == Some(&b'v') {
            i = 1;
        }
        let seg_start = i;
        loop {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == start {
                return Err(malformed());
            }
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                i += 1;
                continue;
            }
            break;
        }
        let seg_text = &v[seg_start..i];
        let mut pre = String::new();
        if i < b.len() && b[i] == b'-' && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            let n = dotted_ident_len(&b[i + 1..]);
            pre = v[i + 1..i + 1 + n].to_string();
            i += 1 + n;
        } else if i < b.len() && (b[i] == b'-' || b[i].is_ascii_alphabetic() || b[i] == b'~') {
            let mut j = i;
            if b[j] == b'-'
                && j + 1 < b.len()
                && (b[j + 1].is_ascii_alphabetic() || b[j + 1] == b'-' || b[j + 1] == b'~')
            {
                j += 1;
            }
            if j < b.len() && (b[j].is_ascii_alphabetic() || b[j] == b'-' || b[j] == b'~') {
                let n = dotted_ident_len(&b[j..]);
                pre = v[j..j + n].to_string();
                i = j + n;
            }
        }
        let mut metadata = String::new();
        if i < b.len() && b[i] == b'+' {
            let n = dotted_ident_len(&b[i + 1..]);
            if n == 0 {
                return Err(malformed());
            }
            metadata = v[i + 1..i + 1 + n].to_string();
            i += 1 + n;
        }
        if i != b.len() {
            return Err(malformed());
        }
        let mut segments = Vec::new();
        for s in seg_text.split('.') {
            let n: i64 = s.parse().map_err(|_| {
                format!(
                    "Error parsing version: strconv.ParseInt: parsing {}: value out of range",
                    addrs::go_quote(s)
                )
            })?;
            segments.push(n);
        }
        let specified = segments.len();
        while segments.len() < 3 {
            segments.push(0);
        }
        Ok(Version {
            segments,
            specified,
            pre,
            metadata,
            original: v.to_string(),
        })
    }

    /// The prerelease part (`alpha.1`), empty for a release.
    pub fn prerelease(&self) -> &str {
        &self.pre
    }

    /// The numeric segments, padded to at least three.
    pub fn segments(&self) -> &[i64] {
        &self.segments
    }

    /// The text this version was parsed from.
    pub fn original(&self) -> &str {
        &self.original
    }

    fn compare(&self, other: &Version) -> Ordering {
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

fn compare_prereleases(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let ap: Vec<&str> = a.split('.').collect();
    let bp: Vec<&str> = b.split('.').collect();
    for i in 0..ap.len().max(bp.len()) {
        let x = ap.get(i).copied().unwrap_or("");
        let y = bp.get(i).copied().unwrap_or("");
        match compare_part(x, y) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    Ordering::Equal
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    Pessimistic,
}

/// One `op version` term of a constraint.
#[derive(Debug, Clone)]
struct Constraint {
    op: Op,
    version: Version,
}

/// go-version `Constraints`: comma-separated terms that must all hold.
/// An empty list (no `version` argument) accepts everything.
#[derive(Debug, Clone, Default)]
pub struct Constraints {
    terms: Vec<Constraint>,
    original: String,
}

impl Constraints {
    /// `version.NewConstraint`.
    pub fn parse(v: &str) -> Result<Constraints, String> {
        let mut terms = Vec::new();
        for single in v.split(',') {
            terms.push(parse_single(single)?);
        }
        Ok(Constraints {
            terms,
            original: v.to_string(),
        })
    }

    /// No constraint at all.
    pub fn none() -> Constraints {
        Constraints::default()
    }

    /// Whether no term was given.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// `Constraints.Check`.
    pub fn check(&self, v: &Version) -> bool {
        self.terms.iter().all(|c| c.check(v))
    }

    /// The constraint as written.
    pub fn as_str(&self) -> &str {
        &self.original
    }
}

fn parse_single(s: &str) -> Result<Constraint, String> {
    let malformed = || format!("Malformed constraint: {s}");
    let t = s.trim_start();
    let ops: [(&str, Op); 7] = [
        ("!=", Op::Ne),
        (">=", Op::Ge),
        ("<=", Op::Le),
        ("~>", Op::Pessimistic),
        ("=", Op::Eq),
        (">", Op::Gt),
        ("<", Op::Lt),
    ];
    let (op, rest) = ops
        .iter()
        .find_map(|(p, op)| t.strip_prefix(p).map(|r| (*op, r)))
        .unwrap_or((Op::Eq, t));
    let version = Version::parse(rest.trim()).map_err(|_| malformed())?;
    Ok(Constraint { op, version })
}

/// go-version's `prereleaseCheck`.
fn prerelease_check(v: &Version, c: &Version) -> bool {
    match (!v.pre.is_empty(), !c.pre.is_empty()) {
        (true, true) => v.segments == c.segments,
        (true, false) => false,
        _ => true,
    }
}

impl Constraint {
    fn check(&self, v: &Version) -> bool {
        let c = &self.version;
        let ord = v.compare(c);
        match self.op {
            Op::Eq => ord == Ordering::Equal,
            Op::Ne => ord != Ordering::Equal,
            Op::Gt => prerelease_check(v, c) && ord == Ordering::Greater,
            Op::Lt => prerelease_check(v, c) && ord == Ordering::Less,
            Op::Ge => prerelease_check(v, c) && ord != Ordering::Less,
            Op::Le => prerelease_check(v, c) && ord != Ordering::Greater,
            Op::Pessimistic => {
                if !prerelease_check(v, c) || (!c.pre.is_empty() && v.pre.is_empty()) {
                    return false;
                }
                if ord == Ordering::Less {
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
        }
    }
}

/// Whether a prerelease `v` was requested exactly, as OpenTofu decides it
/// with apparentlymart/go-versions' npm-style parser: the constraint may
/// not use commas (that parser rejects them, which excludes every
/// prerelease) and one of its space-separated terms must be the exact
/// version, written bare or with `=` (a `v` prefix tolerated).
pub fn prerelease_exactly_requested(constraint: &str, v: &Version) -> bool {
    if constraint.contains(',') || constraint.trim().is_empty() {
        return false;
    }
    let mut tokens = constraint.split_whitespace().peekable();
    let mut found = false;
    while let Some(tok) = tokens.next() {
        let (op, ver) = match tok.trim_start_matches(['=', '>', '<', '~', '^', '!']) {
            "" => {
                // Operator separated from its version by spaces.
                (tok, tokens.next().unwrap_or(""))
            }
            rest => (&tok[..tok.len() - rest.len()], rest),
        };
        if !op.is_empty() && op != "=" {
            continue;
        }
        let ver = ver.strip_prefix('v').unwrap_or(ver);
        if let Ok(want) = Version::parse(ver) {
            if want.segments == v.segments && want.pre == v.pre {
                found = true;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn parse_and_display() {
        let cases = [
            ("1.0", "1.0.0"),
            ("v1.2.3", "1.2.3"),
            ("1.2.3-alpha.1", "1.2.3-alpha.1"),
            ("1.2.3.4", "1.2.3.4"),
            ("1.2-beta+x.y", "1.2.0-beta+x.y"),
            ("1.0beta", "1.0.0-beta"),
            ("01.002.3", "1.2.3"),
        ];
        for (input, want) in cases {
            assert_eq!(v(input).to_string(), want, "{input}");
        }
        for bad in ["", "x", "1.", "1..2", "1.0.0+", " 1.0", "1.0.0-beta."] {
            assert!(Version::parse(bad).is_err(), "{bad:?} should fail");
        }
    }

    #[test]
    fn ordering() {
        assert!(v("1.0.0") > v("1.0.0-beta"));
        assert!(v("1.0.0-beta.2") > v("1.0.0-beta.1"));
        assert!(v("1.0.0-beta.11") > v("1.0.0-beta.2"));
        assert!(v("1.0.0-beta") > v("1.0.0-alpha"));
        assert!(v("1.10.0") > v("1.9.9"));
        assert_eq!(
            v("1.0.0").partial_cmp(&v("1.0.0+meta")),
            Some(Ordering::Equal)
        );
    }

    #[test]
    fn constraints() {
        let cases = [
            (">= 1.0, < 2.0", "1.5.0", true),
            (">= 1.0, < 2.0", "2.0.0", false),
            ("~> 1.2", "1.9.0", true),
            ("~> 1.2", "2.0.0", false),
            ("~> 1.2.3", "1.2.9", true),
            ("~> 1.2.3", "1.3.0", false),
            ("1.0.0", "1.0.0", true),
            ("=1.0.0", "1.0.1", false),
            ("!= 1.0.0", "1.0.1", true),
            (">= 1.0.0", "1.1.0-beta", false),
            (">= 1.1.0-alpha", "1.1.0-beta", true),
            ("<=0.0.3-alpha.1", "0.0.2", true),
            ("0.0.3-alpha.1", "0.0.3-alpha.1", true),
        ];
        for (c, ver, want) in cases {
            assert_eq!(
                Constraints::parse(c).unwrap().check(&v(ver)),
                want,
                "{c} {ver}"
            );
        }
        assert_eq!(
            Constraints::parse(">= x").unwrap_err(),
            "Malformed constraint: >= x"
        );
        assert!(Constraints::none().check(&v("0.0.1-beta")));
    }

    #[test]
    fn prerelease_selection() {
        let pre = v("0.0.3-alpha.1");
        let cases = [
            ("<=0.0.3-alpha.1", false),
            ("=0.0.3-alpha.1", true),
            (">=0.0.3-alpha.1", false),
            ("0.0.3-alpha.1", true),
            ("0.0.3-alpha.1, >=0.0.2", false),
            ("<=v0.0.3-alpha.1", false),
            ("=v0.0.3-alpha.1", true),
            ("v0.0.3-alpha.1", true),
            ("= 0.0.3-alpha.1", true),
            ("", false),
        ];
        for (c, want) in cases {
            assert_eq!(prerelease_exactly_requested(c, &pre), want, "{c:?}");
        }
    }
}
