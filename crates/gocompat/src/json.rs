//! Go's `encoding/json` string encoding as `json.Marshal` writes it (HTML
//! escaping on, the default): what `modules.json`, `validate -json`, plan
//! JSON and the plugin directory list all print. One implementation; the
//! documents themselves are written by the crates that own them.

use std::fmt::Write as _;

/// Appends `s` as a JSON string: `"` and `\` escaped, `\b \f \n \r \t`
/// in short form, other controls and `<`, `>`, `&`, U+2028, U+2029 as
/// `\uXXXX`; everything else, DEL included, raw.
pub fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `s` as a JSON string (see [`push_string`]).
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_string(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_as_encoding_json() {
        let cases = [
            ("plain", r#""plain""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("\n\r\t\u{8}\u{c}", r#""\n\r\t\b\f""#),
            ("\u{0}\u{1}\u{1f}\u{7f}", "\"\\u0000\\u0001\\u001f\u{7f}\""),
            ("<a&b>", r#""\u003ca\u0026b\u003e""#),
            ("\u{2028}\u{2029}\u{200b}é", "\"\\u2028\\u2029\u{200b}é\""),
        ];
        for (s, want) in cases {
            assert_eq!(string(s), want, "{s:?}");
        }
    }
}
