//! HCL's `hclwrite` string literal escaping (`escapeQuotedStringLit`), which
//! OpenTofu's output inherits wherever it writes a string as HCL: the lock
//! file, instance keys in addresses (`toHCLQuotedString`), and the
//! `provider::terraform::encode_tfvars`-style functions. One implementation
//! so the three agree with hclwrite, including its use of Go's
//! `unicode.IsPrint` for what is escaped.

use std::fmt::Write as _;

/// `escapeQuotedStringLit(s)`: the body of a quoted HCL string literal
/// (without the quotes) that evaluates to exactly `s`: `\n \r \t " \`
/// escaped, `${` and `%{` doubled, non-printable characters as `\uXXXX` or
/// `\UXXXXXXXX`.
pub fn escape_quoted_string_lit(s: &str) -> String {
    let mut buf = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => buf.push_str("\\n"),
            '\r' => buf.push_str("\\r"),
            '\t' => buf.push_str("\\t"),
            '"' => buf.push_str("\\\""),
            '\\' => buf.push_str("\\\\"),
            '$' | '%' => {
                buf.push(c);
                if chars.peek() == Some(&'{') {
                    buf.push(c);
                }
            }
            c if !gocompat::quote::is_print(c) => {
                let u = c as u32;
                if u < 0x10000 {
                    let _ = write!(buf, "\\u{u:04x}");
                } else {
                    let _ = write!(buf, "\\U{u:08x}");
                }
            }
            c => buf.push(c),
        }
    }
    buf
}

/// `escapeQuotedStringLit` between double quotes: the whole literal.
pub fn quoted_string_lit(s: &str) -> String {
    format!("\"{}\"", escape_quoted_string_lit(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_hclwrite() {
        let cases = [
            ("plain", "\"plain\""),
            ("a\"b\\c\n\r\t", "\"a\\\"b\\\\c\\n\\r\\t\""),
            ("${x} %{y} $ % $$", "\"$${x} %%{y} $ % $$\""),
            ("\x01\x7f", "\"\\u0001\\u007f\""),
            (
                "zero\u{200b}width nbsp\u{a0}",
                "\"zero\\u200bwidth nbsp\\u00a0\"",
            ),
            (
                "tag\u{e0001} 世界 \u{1f600}",
                "\"tag\\U000e0001 世界 \u{1f600}\"",
            ),
        ];
        for (s, want) in cases {
            assert_eq!(quoted_string_lit(s), want, "{s:?}");
        }
    }
}
