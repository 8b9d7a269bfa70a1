//! Instance keys (`internal/addrs/instance_key.go`): which instance of a
//! `count` or `for_each` object an address means.

use std::fmt;

use hclsyntax::Literal;

/// The key of one instance: none (a single-instance object), an integer
/// (`count`) or a string (`for_each`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum InstanceKey {
    #[default]
    None,
    Int(i64),
    String(String),
}

impl InstanceKey {
    /// `ParseInstanceKey` for a literal index step: strings become string
    /// keys, whole numbers integer keys; anything else is an error with
    /// OpenTofu's message.
    pub fn from_literal(key: &Literal) -> Result<InstanceKey, String> {
        match key {
            Literal::String(s) => Ok(InstanceKey::String(s.clone())),
            Literal::Number(n) => parse_whole_number(n).map(InstanceKey::Int).ok_or_else(|| {
                format!(
                    "value must be a whole number, between {} and {}",
                    i64::MIN,
                    i64::MAX
                )
            }),
            Literal::Bool(_) | Literal::Null => {
                Err("either a string or an integer is required".to_string())
            }
        }
    }

    /// Whether this is [`InstanceKey::None`].
    pub fn is_none(&self) -> bool {
        matches!(self, InstanceKey::None)
    }
}

fn parse_whole_number(n: &str) -> Option<i64> {
    if let Ok(i) = n.parse::<i64>() {
        return Some(i);
    }
    let f: f64 = n.parse().ok()?;
    (f.fract() == 0.0 && f >= i64::MIN as f64 && f < i64::MAX as f64).then_some(f as i64)
}

/// `[0]`, `["a"]` (HCL quoting, template introducers doubled), or nothing.
impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::None => Ok(()),
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::String(s) => write!(f, "[{}]", hcl_quoted_string(s)),
        }
    }
}

/// `toHCLQuotedString`: a string as an HCL quoted template that evaluates
/// to exactly `s` (hclwrite's `escapeQuotedStringLit`, which Go's addrs
/// copies).
pub fn hcl_quoted_string(s: &str) -> String {
    hclsyntax::hclwrite_quote::quoted_string_lit(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let cases = [
            (InstanceKey::None, ""),
            (InstanceKey::Int(0), "[0]"),
            (InstanceKey::Int(-3), "[-3]"),
            (InstanceKey::String("a".into()), r#"["a"]"#),
            (InstanceKey::String("".into()), r#"[""]"#),
            (InstanceKey::String("a\"b\\c\n".into()), r#"["a\"b\\c\n"]"#),
            (
                InstanceKey::String("${x}%{y}$z".into()),
                r#"["$${x}%%{y}$z"]"#,
            ),
            (InstanceKey::String("\u{1}é".into()), "[\"\\u0001é\"]"),
        ];
        for (key, want) in cases {
            assert_eq!(key.to_string(), want);
        }
    }

    #[test]
    fn from_literal() {
        let cases = [
            (Literal::String("a".into()), Ok(InstanceKey::String("a".into()))),
            (Literal::Number("2".into()), Ok(InstanceKey::Int(2))),
            (Literal::Number("2.0".into()), Ok(InstanceKey::Int(2))),
            (
                Literal::Number("2.5".into()),
                Err("value must be a whole number, between -9223372036854775808 and 9223372036854775807"),
            ),
            (
                Literal::Bool(true),
                Err("either a string or an integer is required"),
            ),
        ];
        for (lit, want) in cases {
            assert_eq!(
                InstanceKey::from_literal(&lit),
                want.map_err(str::to_string),
                "{lit:?}"
            );
        }
    }
}
