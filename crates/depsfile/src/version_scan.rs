//! The tokenizer go-versions generates with Ragel (`raw_scan.rl`), written
//! by hand: `op sep nums pre? meta?` from the front of a string, and the
//! unconsumed rest. Both the version and the constraint parsers build on
//! it, so their error messages see the same tokens OpenTofu's do.

/// The names go-versions gives the three numbered parts.
pub(crate) const WILDCARD_NAMES: [&str; 3] = ["major", "minor", "patch"];

/// One scanned constraint, before interpretation.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct RawConstraint {
    pub op: String,
    pub sep: String,
    /// The first three numbered parts as written (`*`, `x`, `X` kept).
    pub nums: Vec<String>,
    /// How many numbered parts there were, even past three.
    pub num_count: usize,
    pub pre: String,
    pub meta: String,
}

fn is_op_char(c: char) -> bool {
    !(c.is_ascii_digit() || c.is_whitespace() || c.is_alphabetic() || c == '.' || c == '*')
}

fn is_extra_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '.' || c == '-'
}

/// Length of a `num` token at the start of `s`, if any.
fn num_len(s: &str) -> Option<usize> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        return Some(digits);
    }
    match s.as_bytes().first() {
        Some(b'*' | b'x' | b'X') => Some(1),
        _ => None,
    }
}

/// Scans one constraint from the front of `data`; returns it and the rest.
pub(crate) fn scan_constraint(data: &str) -> (RawConstraint, &str) {
    let mut raw = RawConstraint::default();
    let op_len: usize = data
        .chars()
        .take_while(|c| is_op_char(*c))
        .map(char::len_utf8)
        .sum();
    raw.op = data[..op_len].to_string();
    let mut rest = &data[op_len..];
    let sep_len: usize = rest
        .chars()
        .take_while(|c| c.is_whitespace() || *c == 'v')
        .map(char::len_utf8)
        .sum();
    raw.sep = rest[..sep_len].to_string();
    rest = &rest[sep_len..];
    let Some(n) = num_len(rest) else {
        return (raw, rest);
    };
    push_num(&mut raw, &rest[..n]);
    rest = &rest[n..];
    while let Some(after_dot) = rest.strip_prefix('.') {
        match num_len(after_dot) {
            Some(n) => {
                push_num(&mut raw, &after_dot[..n]);
                rest = &after_dot[n..];
            }
            None => return (raw, rest),
        }
    }
    if let Some((pre, r)) = extra(rest, '-') {
        raw.pre = pre.to_string();
        rest = r;
    }
    if let Some((meta, r)) = extra(rest, '+') {
        raw.meta = meta.to_string();
        rest = r;
    }
    (raw, rest)
}

fn push_num(raw: &mut RawConstraint, n: &str) {
    raw.num_count += 1;
    if raw.nums.len() < 3 {
        raw.nums.push(n.to_string());
    }
}

/// `-extra` or `+extra` at the front of `s`.
fn extra(s: &str, lead: char) -> Option<(&str, &str)> {
    let body = s.strip_prefix(lead)?;
    let len = body.chars().take_while(|c| is_extra_char(*c)).count();
    if len == 0 {
        return None;
    }
    Some((&body[..len], &body[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans() {
        let (raw, rest) = scan_constraint(">= 1.2.3-beta+x, < 2");
        assert_eq!(raw.op, ">=");
        assert_eq!(raw.sep, " ");
        assert_eq!(raw.nums, ["1", "2", "3"]);
        assert_eq!(raw.pre, "beta");
        assert_eq!(raw.meta, "x");
        assert_eq!(rest, ", < 2");
        let (raw, rest) = scan_constraint("~>v1.*");
        assert_eq!((raw.op.as_str(), raw.sep.as_str()), ("~>", "v"));
        assert_eq!(raw.nums, ["1", "*"]);
        assert_eq!(rest, "");
    }
}
