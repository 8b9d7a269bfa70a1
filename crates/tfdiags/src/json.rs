//! The JSON renderings: one diagnostic as OpenTofu's JSON views embed it,
//! and the whole `validate -json` document.

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::diagnostics::Diagnostics;
use crate::entity::DiagnosticEntity;
use crate::sources::SourceMap;

/// One diagnostic as a JSON value (`jsonentities.Diagnostic`): `severity`,
/// `summary`, `detail`, then `address`, `range` and `snippet` when present.
pub fn diagnostic_json(diag: &Diagnostic, sources: &SourceMap) -> Value {
    serde_json::to_value(DiagnosticEntity::new(diag, sources))
        .expect("DiagnosticEntity holds only strings, numbers and JSON values")
}

/// The `validate -json` document: `format_version`, `valid`,
/// `error_count`, `warning_count`, `diagnostics` (never null), the
/// diagnostics in the order given.
pub fn validate_json_value(diags: &Diagnostics, sources: &SourceMap) -> Value {
    let mut doc = Map::new();
    doc.insert("format_version".into(), "1.0".into());
    doc.insert("valid".into(), (!diags.has_errors()).into());
    doc.insert("error_count".into(), diags.error_count().into());
    doc.insert("warning_count".into(), diags.warning_count().into());
    doc.insert(
        "diagnostics".into(),
        Value::Array(diags.iter().map(|d| diagnostic_json(d, sources)).collect()),
    );
    Value::Object(doc)
}

/// The `validate -json` output exactly as OpenTofu prints it: 2-space
/// indent, Go's escaping, trailing newline.
pub fn validate_json(diags: &Diagnostics, sources: &SourceMap) -> String {
    let mut s = to_go_json_pretty(&validate_json_value(diags, sources));
    s.push('\n');
    s
}

/// Serialises like Go's `json.MarshalIndent(v, "", "  ")`: `<`, `>`, `&`,
/// U+2028 and U+2029 escaped as `\u003c` etc., empty arrays and objects as
/// `[]` / `{}`. No trailing newline.
pub fn to_go_json_pretty(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v, 0);
    out
}

/// Serialises like Go's `json.Marshal` (compact, Go's escaping).
pub fn to_go_json_compact(v: &Value) -> String {
    let mut out = String::new();
    write_compact(&mut out, v);
    out
}

fn indent(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_value(out: &mut String, v: &Value, level: usize) {
    match v {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_value(out, item, level + 1);
            }
            indent(out, level);
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_string(out, k);
                out.push_str(": ");
                write_value(out, item, level + 1);
            }
            indent(out, level);
            out.push('}');
        }
        other => write_compact(out, other),
    }
}

fn write_compact(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_compact(out, item);
            }
            out.push('}');
        }
    }
}

/// Go's `encoding/json` string encoding with HTML escaping on.
fn write_string(out: &mut String, s: &str) {
    gocompat::json::push_string(out, s);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn go_escaping_and_layout() {
        let v = json!({"a": "<b> & \u{2028}\u{1}", "e": [], "o": {}, "n": [1, {"x": null}]});
        assert_eq!(
            to_go_json_pretty(&v),
            "{\n  \"a\": \"\\u003cb\\u003e \\u0026 \\u2028\\u0001\",\n  \"e\": [],\n  \"o\": {},\n  \"n\": [\n    1,\n    {\n      \"x\": null\n    }\n  ]\n}"
        );
        assert_eq!(
            to_go_json_compact(&json!({"a": [1, "x"]})),
            "{\"a\":[1,\"x\"]}"
        );
    }

    #[test]
    fn empty_document_has_empty_list() {
        let out = validate_json(&Diagnostics::new(), &SourceMap::new());
        assert_eq!(
            out,
            "{\n  \"format_version\": \"1.0\",\n  \"valid\": true,\n  \"error_count\": 0,\n  \"warning_count\": 0,\n  \"diagnostics\": []\n}\n"
        );
    }
}
