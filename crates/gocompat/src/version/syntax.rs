//! The syntax of go-version's versions and single constraints, read by hand.
//!
//! go-version matches `^v?([0-9]+(\.[0-9]+)*?)(-(...)|(-?(...)))?(\+(...))??$`
//! (`VersionRegexpRaw`) and, for a constraint, an operator and a version
//! between optional spaces. Compiling that regex took a quarter of a
//! millisecond of every run that reads a `required_version` (or checks the
//! running version against one): more than the rest of validating a small
//! module. The grammar has no real ambiguity (see [`split_version`]), so a
//! scan gives the regex's groups exactly; a test checks the two agree.

/// The parts of a version as the regex's groups give them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionParts<'a> {
    /// `1.2.3`: dot-separated digit runs, at least one.
    pub segments: &'a str,
    /// The prerelease (`beta` of `1.0-beta`, `-.x` of `1.0-.x`); empty if none.
    pub pre: &'a str,
    /// The build metadata after `+`; empty if none.
    pub metadata: &'a str,
}

/// go-version's identifier characters (`[0-9A-Za-z\-~]`).
fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'~'
}

/// What may open a non-numeric prerelease (`[A-Za-z\-~]`).
fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'-' || c == b'~'
}

/// Go's `\s`: ASCII space, tab, newline, form feed, carriage return.
fn is_go_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r')
}

/// Splits a whole string as go-version's version regex would, or `None`
/// where it does not match.
///
/// Each part is read greedily, which gives the regex's own answer: the
/// lazy `(\.[0-9]+)*?` can only stop where the rest starts with `-`, `+`,
/// a letter, `~` or nothing, which is never inside a run of `.digits`;
/// the prerelease's alternatives (`-` then a digit, else an optional `-`
/// then `[A-Za-z\-~]`) accept the same tails, so the first that can start
/// is the one the regex keeps, taking the dash when a letter, `-` or `~`
/// follows it and otherwise reading the dash itself as the prerelease's
/// first character (`1.0-` has the prerelease `-`).
pub fn split_version(s: &str) -> Option<VersionParts<'_>> {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'v'));
    let seg_start = i;
    i = digits(b, i)?;
    while b.get(i) == Some(&b'.') {
        match digits(b, i + 1) {
            Some(end) => i = end,
            None => break,
        }
    }
    let segments = &s[seg_start..i];
    let mut pre = "";
    if let Some(&c) = b.get(i) {
        if c != b'+' {
            // `-` then a digit (a numeric prerelease) or a letter, `-` or
            // `~`: the dash is the separator. Otherwise a dash is itself the
            // prerelease's first character.
            let start = if c == b'-'
                && b.get(i + 1)
                    .is_some_and(|&n| n.is_ascii_digit() || is_ident_start(n))
            {
                i + 1
            } else if is_ident_start(c) {
                i
            } else {
                return None;
            };
            let end = dotted_idents(b, start)?;
            pre = &s[start..end];
            i = end;
        }
    }
    let mut metadata = "";
    if b.get(i) == Some(&b'+') {
        let end = dotted_idents(b, i + 1)?;
        metadata = &s[i + 1..end];
        i = end;
    }
    (i == b.len()).then_some(VersionParts {
        segments,
        pre,
        metadata,
    })
}

/// Splits one constraint (`>= 1.2`, ` ~>1.0 `) into its operator (empty
/// for a bare version) and version text, as go-version's
/// `^\s*(|=|!=|>|<|>=|<=|~>)\s*(VERSION)\s*$`. No version starts with an
/// operator's character, so the operator is the longest one written.
pub fn split_constraint(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_matches(is_go_space);
    let op_len = ["!=", ">=", "<=", "~>", "=", ">", "<"]
        .iter()
        .find(|op| s.starts_with(*op))
        .map_or(0, |op| op.len());
    let (op, rest) = s.split_at(op_len);
    let version = rest.trim_start_matches(is_go_space);
    split_version(version)?;
    Some((op, version))
}

/// The end of a run of at least one ASCII digit starting at `i`.
fn digits(b: &[u8], i: usize) -> Option<usize> {
    let end = i + b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    (end > i).then_some(end)
}

/// The end of `ident+ (\. ident+)*` starting at `i` (the prerelease's first
/// character class was checked by the caller, and is a subset of `ident`).
fn dotted_idents(b: &[u8], i: usize) -> Option<usize> {
    let run = |from: usize| {
        from + b[from.min(b.len())..]
            .iter()
            .take_while(|&&c| is_ident(c))
            .count()
    };
    let mut end = run(i);
    if end == i {
        return None;
    }
    while b.get(end) == Some(&b'.') {
        let next = run(end + 1);
        if next == end + 1 {
            break;
        }
        end = next;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use regex::Regex;

    /// go-version's `VersionRegexpRaw`, the reference for the scan.
    const VERSION_RAW: &str = r"v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))??";

    fn by_regex(s: &str) -> Option<VersionParts<'_>> {
        let re = Regex::new(&format!("^{VERSION_RAW}$")).unwrap();
        let caps = re.captures(s)?;
        let group = |i: usize| caps.get(i).map_or("", |m| m.as_str());
        Some(VersionParts {
            segments: group(1),
            pre: if group(7).is_empty() {
                group(4)
            } else {
                group(7)
            },
            metadata: group(10),
        })
    }

    fn constraint_by_regex(s: &str) -> Option<(&str, &str)> {
        let re = Regex::new(&format!(
            r"^[\t\n\f\r ]*(|=|!=|>|<|>=|<=|~>)[\t\n\f\r ]*({VERSION_RAW})[\t\n\f\r ]*$"
        ))
        .unwrap();
        let caps = re.captures(s)?;
        Some((caps.get(1).unwrap().as_str(), caps.get(2).unwrap().as_str()))
    }

    #[test]
    fn agrees_with_the_regex_on_the_corner_cases() {
        for s in [
            "1",
            "1.2.3",
            "v1.2",
            "1.2.3.4.5",
            "1.0-beta",
            "1.0-beta.1+meta.2",
            "1.0-1a",
            "1.0-.x",
            "1.0-",
            "1.0-+x",
            "1.0--x",
            "1.0~x",
            "1.0a",
            "1.0.",
            "1.0..1",
            "1.2.x",
            "1.0+",
            "1.0+a.",
            "1.0-a.",
            "1.0-a..b",
            "v",
            "",
            "x1",
            "1.0-~",
            "1.0 ",
            "01.002",
            "1.0-1.2.3",
            "1.0-rc1+x-y~z",
            "1.0+a+b",
            "1.2-3-4",
            "1.0-a+b.c",
        ] {
            assert_eq!(split_version(s), by_regex(s), "{s:?}");
        }
        for s in [
            ">= 1.0", " ~>1.2 ", "=> 1.0", ">> 1", "!=1", "", " ", "<=v1.0-x", "1.0 1.1",
        ] {
            assert_eq!(split_constraint(s), constraint_by_regex(s), "{s:?}");
        }
    }

    proptest! {
        #[test]
        fn agrees_with_the_regex(s in "v?[0-9.a~+\\-]{0,10}") {
            prop_assert_eq!(split_version(&s), by_regex(&s));
        }

        #[test]
        fn constraints_agree_with_the_regex(s in "[ ]?[=!<>~]{0,2}[ ]?v?[0-9.a+\\-]{0,8}[ ]?") {
            prop_assert_eq!(split_constraint(&s), constraint_by_regex(&s));
        }
    }
}
