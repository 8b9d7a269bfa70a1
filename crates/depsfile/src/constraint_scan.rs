//! The first layer of go-versions' constraint parsing: a scanner (a Ragel
//! machine in the original) splitting `>= 1.2.3-beta+meta` into operator,
//! separator, numbers, prerelease and metadata, and returning whatever it
//! could not consume. Both the exact-version parser and the Ruby-style
//! constraint parser give their errors from these pieces, so the scanner's
//! exact stopping points decide which message a user sees.

use crate::constraints::{NumConstraint, VersionSpec};

pub(crate) const NUM_NAMES: [&str; 3] = ["major", "minor", "patch"];

/// One scanned constraint. Numbers beyond the third are counted, not kept.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawConstraint<'a> {
    pub op: &'a str,
    pub sep: &'a str,
    pub nums: [&'a str; 3],
    pub num_count: usize,
    pub pre: &'a str,
    pub meta: &'a str,
}

impl RawConstraint<'_> {
    /// Numbers that are missing or wildcards become unconstrained.
    pub fn version_spec(&self) -> VersionSpec {
        let num = |s: &str| match s {
            "" | "*" | "x" | "X" => NumConstraint::Unconstrained,
            // The scanner only lets digits through, so this fails only on
            // overflow, which go-versions would panic on; saturate instead.
            digits => NumConstraint::Num(digits.parse().unwrap_or(u64::MAX)),
        };
        VersionSpec {
            major: num(self.nums[0]),
            minor: num(self.nums[1]),
            patch: num(self.nums[2]),
            prerelease: self.pre.to_string(),
            metadata: self.meta.to_string(),
        }
    }
}

// Ragel's `space` class.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

fn is_op_byte(b: u8) -> bool {
    !(b.is_ascii_digit() || is_space(b) || b.is_ascii_alphabetic() || b == b'.' || b == b'*')
}

fn is_extra_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

/// Scans one constraint from the start of `data`: `op sep nums pre? meta?`.
/// Returns the pieces and the unconsumed rest (empty when the input ran
/// out, even in the middle of a piece, as the Ragel machine's EOF action
/// does).
pub(crate) fn scan_constraint(data: &str) -> (RawConstraint<'_>, &str) {
    let b = data.as_bytes();
    let mut raw = RawConstraint::default();
    let mut p = 0;
    while p < b.len() && is_op_byte(b[p]) {
        p += 1;
    }
    raw.op = &data[..p];
    let start = p;
    while p < b.len() && (is_space(b[p]) || b[p] == b'v') {
        p += 1;
    }
    raw.sep = &data[start..p];

    // nums = num ('.' num)*
    loop {
        let start = p;
        if p < b.len() && b[p].is_ascii_digit() {
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
        } else if p < b.len() && matches!(b[p], b'*' | b'x' | b'X') {
            p += 1;
        } else {
            // No number here: an error (or the end of the input).
            return (raw, &data[p..]);
        }
        if raw.num_count < 3 {
            raw.nums[raw.num_count] = &data[start..p];
        }
        raw.num_count += 1;
        if p < b.len() && b[p] == b'.' {
            p += 1;
            continue;
        }
        break;
    }

    if p < b.len() && b[p] == b'-' {
        p += 1;
        let start = p;
        while p < b.len() && is_extra_byte(b[p]) {
            p += 1;
        }
        if p == start {
            return (raw, &data[p..]);
        }
        raw.pre = &data[start..p];
    }
    if p < b.len() && b[p] == b'+' {
        p += 1;
        let start = p;
        while p < b.len() && is_extra_byte(b[p]) {
            p += 1;
        }
        if p == start {
            return (raw, &data[p..]);
        }
        raw.meta = &data[start..p];
    }
    (raw, &data[p..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces() {
        let (raw, rest) = scan_constraint(">= 1.2.3-beta.1+abc, < 2");
        assert_eq!(raw.op, ">=");
        assert_eq!(raw.sep, " ");
        assert_eq!(raw.nums, ["1", "2", "3"]);
        assert_eq!(raw.num_count, 3);
        assert_eq!(raw.pre, "beta.1");
        assert_eq!(raw.meta, "abc");
        assert_eq!(rest, ", < 2");

        let (raw, rest) = scan_constraint("~>1.x");
        assert_eq!(
            (raw.op, raw.sep, raw.nums, rest),
            ("~>", "", ["1", "x", ""], "")
        );

        let (raw, rest) = scan_constraint("1.2.3.4 foo");
        assert_eq!((raw.num_count, rest), (4, " foo"));

        let (raw, rest) = scan_constraint("= v1");
        assert_eq!((raw.op, raw.sep, raw.nums[0], rest), ("=", " v", "1", ""));
    }
}
