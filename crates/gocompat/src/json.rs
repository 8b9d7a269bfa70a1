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

/// The word Go's `*json.UnmarshalTypeError` names a JSON value's kind by.
pub fn value_kind(v: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `*json.UnmarshalTypeError`'s text: `value` (a [`value_kind`], or
/// `number 1.5` for a number out of the type's range) could not be stored
/// in Go type `go_type`, at `field` (the struct's name and the dotted path
/// of fields within it) when inside a struct.
pub fn unmarshal_type_error(value: &str, field: Option<(&str, &str)>, go_type: &str) -> String {
    match field {
        Some((owner, path)) => format!(
            "json: cannot unmarshal {value} into Go struct field {owner}.{path} of type {go_type}"
        ),
        None => format!("json: cannot unmarshal {value} into Go value of type {go_type}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_errors_read_as_go_s() {
        let v: serde_json::Value = serde_json::json!([1]);
        assert_eq!(
            unmarshal_type_error(value_kind(&v), None, "map[string]int"),
            "json: cannot unmarshal array into Go value of type map[string]int"
        );
        assert_eq!(
            unmarshal_type_error("number 1.5", Some(("T", "A.B")), "int"),
            "json: cannot unmarshal number 1.5 into Go struct field T.A.B of type int"
        );
    }

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
