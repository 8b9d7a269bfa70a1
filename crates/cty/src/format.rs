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
    let mut buf = String::new();
    format_value(&mut buf, v, 0);
    buf
}

/// Appends `v` to `buf`. Everything is written into the one buffer: a
/// nested value rendered to a string of its own and copied into its
/// parent would cost the depth times the output (cubic for a deep value).
fn format_value(buf: &mut String, v: &Value, indent: usize) {
    if !v.is_known() {
        return buf.push_str("(known after apply)");
    }
    if v.has_mark(&Mark::Sensitive) {
        return buf.push_str("(sensitive value)");
    }
    let ty = v.ty();
    if v.is_null() {
        return match ty {
            Type::Dynamic => buf.push_str("null"),
            Type::String => buf.push_str("tostring(null)"),
            Type::Number => buf.push_str("tonumber(null)"),
            Type::Bool => buf.push_str("tobool(null)"),
            Type::List(e) => push_fmt(
                buf,
                format_args!("tolist(null) /* of {} */", e.friendly_name()),
            ),
            Type::Set(e) => push_fmt(
                buf,
                format_args!("toset(null) /* of {} */", e.friendly_name()),
            ),
            Type::Map(e) => push_fmt(
                buf,
                format_args!("tomap(null) /* of {} */", e.friendly_name()),
            ),
            other => push_fmt(buf, format_args!("null /* {} */", other.friendly_name())),
        };
    }
    match ty {
        Type::String => {
            let s = v.as_str().unwrap_or_default();
            if !format_multiline(buf, s, indent) {
                buf.push_str(&go_quote(s));
            }
        }
        Type::Number => {
            if let Some(n) = v.as_number() {
                buf.push_str(&n.to_text());
            }
        }
        Type::Bool => buf.push_str(if v.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Type::Object(_) => format_mapping(buf, v, indent),
        Type::Tuple(_) => format_sequence(buf, v, indent),
        Type::List(_) => wrapped(buf, "tolist(", |buf| format_sequence(buf, v, indent)),
        Type::Set(_) => wrapped(buf, "toset(", |buf| format_sequence(buf, v, indent)),
        Type::Map(_) => wrapped(buf, "tomap(", |buf| format_mapping(buf, v, indent)),
        Type::Dynamic => buf.push_str("null"),
    }
}

fn push_fmt(buf: &mut String, args: std::fmt::Arguments<'_>) {
    use std::fmt::Write;
    let _ = buf.write_fmt(args);
}

fn wrapped(buf: &mut String, open: &str, inner: impl FnOnce(&mut String)) {
    buf.push_str(open);
    inner(buf);
    buf.push(')');
}

fn pad(buf: &mut String, indent: usize) {
    buf.extend(std::iter::repeat_n(' ', indent));
}

/// A string with a newline as a heredoc; false (nothing written) otherwise.
fn format_multiline(buf: &mut String, s: &str, indent: usize) -> bool {
    let lines: Vec<&str> = s.split('\n').collect();
    if lines.len() < 2 {
        return false;
    }
    let op = if indent > 0 { "<<-" } else { "<<" };
    let mut delim = String::from("EOT");
    while lines.iter().any(|l| l.trim() == delim) {
        delim.push('_');
    }
    buf.push_str(op);
    buf.push_str(&delim);
    for line in lines {
        buf.push('\n');
        pad(buf, indent);
        buf.push_str(line);
    }
    buf.push('\n');
    pad(buf, indent);
    buf.push_str(&delim);
    true
}

fn format_mapping(buf: &mut String, v: &Value, indent: usize) {
    buf.push('{');
    let inner = indent + 2;
    let elems = v.elements();
    for (k, e) in &elems {
        buf.push('\n');
        pad(buf, inner);
        format_value(buf, k, inner);
        buf.push_str(" = ");
        format_value(buf, e, inner);
    }
    if !elems.is_empty() {
        buf.push('\n');
        pad(buf, indent);
    }
    buf.push('}');
}

fn format_sequence(buf: &mut String, v: &Value, indent: usize) {
    buf.push('[');
    let inner = indent + 2;
    let elems = v.elements();
    for (_, e) in &elems {
        buf.push('\n');
        pad(buf, inner);
        format_value(buf, e, inner);
        buf.push(',');
    }
    if !elems.is_empty() {
        buf.push('\n');
        pad(buf, indent);
    }
    buf.push(']');
}

#[cfg(test)]
mod tests;
