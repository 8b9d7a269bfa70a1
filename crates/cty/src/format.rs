//! Text renderings of values: the `terraform console` formatter and Go's
//! `strconv.Quote` string quoting.

use crate::marks::Mark;
use crate::types::Type;
use crate::value::Value;

/// Go `strconv.Quote` (one implementation, in hclsyntax).
pub use hclsyntax::go_quote;

/// Renders a value exactly as `terraform console` prints it (without the
/// trailing newline), like Terraform's `repl.FormatValue(v, 0)`.
pub fn console_format(v: &Value) -> String {
    format_value(v, 0)
}

fn format_value(v: &Value, indent: usize) -> String {
    if !v.is_known() {
        return "(known after apply)".into();
    }
    if v.has_mark(&Mark::Sensitive) {
        return "(sensitive value)".into();
    }
    let ty = v.ty();
    if v.is_null() {
        return match ty {
            Type::Dynamic => "null".into(),
            Type::String => "tostring(null)".into(),
            Type::Number => "tonumber(null)".into(),
            Type::Bool => "tobool(null)".into(),
            Type::List(e) => format!("tolist(null) /* of {} */", e.friendly_name()),
            Type::Set(e) => format!("toset(null) /* of {} */", e.friendly_name()),
            Type::Map(e) => format!("tomap(null) /* of {} */", e.friendly_name()),
            other => format!("null /* {} */", other.friendly_name()),
        };
    }
    match ty {
        Type::String => {
            let s = v.as_str().unwrap_or_default();
            format_multiline(s, indent).unwrap_or_else(|| go_quote(s))
        }
        Type::Number => v.as_number().map(|n| n.to_text()).unwrap_or_default(),
        Type::Bool => if v.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }
        .into(),
        Type::Object(_) => format_mapping(v, indent),
        Type::Tuple(_) => format_sequence(v, indent),
        Type::List(_) => format!("tolist({})", format_sequence(v, indent)),
        Type::Set(_) => format!("toset({})", format_sequence(v, indent)),
        Type::Map(_) => format!("tomap({})", format_mapping(v, indent)),
        Type::Dynamic => "null".into(),
    }
}

fn format_multiline(s: &str, indent: usize) -> Option<String> {
    let lines: Vec<&str> = s.split('\n').collect();
    if lines.len() < 2 {
        return None;
    }
    let op = if indent > 0 { "<<-" } else { "<<" };
    let mut delim = String::from("EOT");
    while lines.iter().any(|l| l.trim() == delim) {
        delim.push('_');
    }
    let pad = " ".repeat(indent);
    let mut buf = format!("{op}{delim}");
    for line in lines {
        buf.push('\n');
        buf.push_str(&pad);
        buf.push_str(line);
    }
    buf.push('\n');
    buf.push_str(&pad);
    buf.push_str(&delim);
    Some(buf)
}

fn format_mapping(v: &Value, indent: usize) -> String {
    let mut buf = String::from("{");
    let inner = indent + 2;
    let elems = v.elements();
    for (k, e) in &elems {
        buf.push('\n');
        buf.push_str(&" ".repeat(inner));
        buf.push_str(&format_value(k, inner));
        buf.push_str(" = ");
        buf.push_str(&format_value(e, inner));
    }
    if !elems.is_empty() {
        buf.push('\n');
        buf.push_str(&" ".repeat(indent));
    }
    buf.push('}');
    buf
}

fn format_sequence(v: &Value, indent: usize) -> String {
    let mut buf = String::from("[");
    let inner = indent + 2;
    let elems = v.elements();
    for (_, e) in &elems {
        buf.push('\n');
        buf.push_str(&" ".repeat(inner));
        buf.push_str(&format_value(e, inner));
        buf.push(',');
    }
    if !elems.is_empty() {
        buf.push('\n');
        buf.push_str(&" ".repeat(indent));
    }
    buf.push(']');
    buf
}

#[cfg(test)]
mod tests;
