//! The human renderings of `internal/command/format/diagnostic.go`: the box
//! OpenTofu prints on a colour terminal, the plain form it prints under
//! `-no-color`, and the compact warnings list.

use crate::diagnostic::Diagnostic;
use crate::entity::{DiagnosticEntity, SnippetEntity};
use crate::sources::SourceMap;
use crate::text::{replace_control_chars, wrap_string, Colorize};

/// The width OpenTofu wraps to when the output is not a terminal.
pub const DEFAULT_WIDTH: usize = 78;

/// The box (`format.Diagnostic`):
///
/// ```text
/// ╷
/// │ Error: <summary>
/// │
/// │   on main.tf line 3, in resource "a" "b":
/// │    3: <source line>
/// │
/// │ <detail word-wrapped to width>
/// ╵
/// ```
///
/// With `color`, exactly the bytes OpenTofu writes to a colour terminal
/// (bold red `Error: `, yellow `Warning: `, the subject underlined). Without,
/// the same text with the escape codes removed, which is what OpenTofu's
/// own tests compare (note that OpenTofu itself switches to
/// [`format_diagnostic_plain`] under `-no-color`). `width` is the terminal
/// width ([`DEFAULT_WIDTH`] when not a terminal; 0 disables wrapping).
pub fn format_diagnostic(
    diag: &Diagnostic,
    sources: &SourceMap,
    color: bool,
    width: usize,
) -> String {
    render_box(
        &DiagnosticEntity::new(diag, sources),
        Colorize { enabled: color },
        width,
    )
}

/// The box for an already-built entity.
pub fn format_entity(entity: &DiagnosticEntity, color: bool, width: usize) -> String {
    render_box(entity, Colorize { enabled: color }, width)
}

fn render_box(diag: &DiagnosticEntity, color: Colorize, width: usize) -> String {
    let mut buf = String::new();
    let (tone, label) = match diag.severity {
        "error" => ("red", "Error"),
        _ => ("yellow", "Warning"),
    };
    buf.push_str(&color.color(&format!("[bold][{tone}]{label}: [reset]")));
    let left_rule_line = color.color(&format!("[{tone}]│[reset] "));
    let left_rule_start = color.color(&format!("[{tone}]╷[reset]"));
    let left_rule_end = color.color(&format!("[{tone}]╵[reset]"));
    let left_rule_width = 2isize;

    buf.push_str(&color.colorf(
        "[bold]%s[reset]\n\n",
        &[&replace_control_chars(&diag.summary)],
    ));
    append_source_snippets(&mut buf, diag, color);

    if !diag.detail.is_empty() {
        let para_width = width as isize - left_rule_width - 1;
        if para_width > 0 {
            for line in replace_control_chars(&diag.detail).split('\n') {
                push_wrapped(&mut buf, line, para_width as usize);
            }
        } else {
            buf.push_str(&diag.detail);
            buf.push('\n');
        }
    }

    // OpenTofu drops the space after the rule on empty lines, but only when
    // colour is off: coloured, the rule ends in an escape code that
    // `strings.TrimSpace` keeps, so the space stays. The uncoloured box here
    // mirrors the coloured one with its escapes removed.
    let mut out = String::with_capacity(buf.len() + 64);
    out.push_str(&left_rule_start);
    out.push('\n');
    for line in scan_lines(&buf) {
        out.push_str(&left_rule_line);
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&left_rule_end);
    out.push('\n');
    out
}

fn push_wrapped(buf: &mut String, line: &str, width: usize) {
    if line.starts_with(' ') {
        buf.push_str(line);
    } else {
        buf.push_str(&wrap_string(line, width));
    }
    buf.push('\n');
}

/// Lines as `bufio.Scanner` with `ScanLines` yields them: no trailing empty
/// line after a final newline, a `\r` before each newline dropped.
fn scan_lines(s: &str) -> impl Iterator<Item = &str> {
    let body = s.strip_suffix('\n').unwrap_or(s);
    let empty = s.is_empty();
    body.split('\n')
        .filter(move |_| !empty)
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// The plain form (`format.DiagnosticPlain`) OpenTofu prints when colour is
/// disabled: no box, no escape codes, detail wrapped to `width - 1`.
///
/// ```text
///
/// Error: <summary>
///
///   on main.tf line 3, in resource "a" "b":
///    3: <source line>
///
/// <detail>
/// ```
pub fn format_diagnostic_plain(diag: &Diagnostic, sources: &SourceMap, width: usize) -> String {
    format_entity_plain(&DiagnosticEntity::new(diag, sources), width)
}

/// The plain form for an already-built entity.
pub fn format_entity_plain(diag: &DiagnosticEntity, width: usize) -> String {
    let mut buf = String::new();
    buf.push_str(match diag.severity {
        "error" => "\nError: ",
        _ => "\nWarning: ",
    });
    buf.push_str(&diag.summary);
    buf.push_str("\n\n");
    append_source_snippets(&mut buf, diag, Colorize { enabled: false });
    if !diag.detail.is_empty() {
        if width > 1 {
            for line in diag.detail.split('\n') {
                push_wrapped(&mut buf, line, width - 1);
            }
        } else {
            buf.push_str(&diag.detail);
            buf.push('\n');
        }
    }
    buf
}

/// `appendSourceSnippets`: the `with <address>,` line, the `on <file> line
/// <n>, in <context>:` line, the numbered code lines and the expression
/// values, then an empty line.
fn append_source_snippets(buf: &mut String, diag: &DiagnosticEntity, color: Colorize) {
    if let Some(address) = &diag.address {
        buf.push_str(&format!("  with {address},\n"));
    }
    let Some(range) = &diag.range else { return };
    let filename = replace_control_chars(&range.filename);
    match &diag.snippet {
        None => {
            buf.push_str(&format!(
                "  on {filename} line {}:\n  (source code not available)\n",
                range.start.line
            ));
        }
        Some(snippet) => {
            let context = snippet
                .context
                .as_ref()
                .map(|c| format!(", in {c}"))
                .unwrap_or_default();
            buf.push_str(&format!(
                "  on {filename} line {}{context}:\n",
                range.start.line
            ));
            append_code(buf, snippet, color);
            append_values(buf, snippet, color);
        }
    }
    buf.push('\n');
}

fn append_code(buf: &mut String, snippet: &SnippetEntity, color: Colorize) {
    let code = &snippet.code;
    let mut start = snippet.highlight_start_offset;
    let mut end = snippet.highlight_end_offset;
    if end < start {
        end = (start + 1).min(code.len());
    }
    start = start.min(code.len());
    end = end.min(code.len());
    // Offsets are bytes; keep them on character boundaries.
    while !code.is_char_boundary(start) {
        start -= 1;
    }
    while !code.is_char_boundary(end) {
        end += 1;
    }
    let end = end.max(start);
    let rendered = color.colorf(
        "%s[underline]%s[reset]%s",
        &[
            &replace_control_chars(&code[..start]),
            &replace_control_chars(&code[start..end]),
            &replace_control_chars(&code[end..]),
        ],
    );
    for (i, line) in rendered.split('\n').enumerate() {
        buf.push_str(&format!("{:>4}: {}\n", snippet.start_line + i, line));
    }
}

fn append_values(buf: &mut String, snippet: &SnippetEntity, color: Colorize) {
    let signature = snippet
        .function_call
        .as_ref()
        .and_then(|c| c.signature.as_ref().map(|s| (c, s)));
    if snippet.values.is_empty() && signature.is_none() {
        return;
    }
    buf.push_str(&color.color("    [dark_gray]├────────────────[reset]\n"));
    if let Some((call, sig)) = signature {
        buf.push_str(&color.colorf(
            "    [dark_gray]│[reset] while calling [bold]%s[reset](",
            &[&call.called_as],
        ));
        let mut names: Vec<String> = sig.params.iter().map(|p| p.name.clone()).collect();
        if let Some(v) = &sig.variadic_param {
            names.push(format!("{}...", v.name));
        }
        buf.push_str(&names.join(", "));
        buf.push_str(")\n");
    }
    let mut values = snippet.values.clone();
    values.sort_by(|a, b| a.traversal.cmp(&b.traversal));
    for v in &values {
        buf.push_str(&color.colorf(
            "    [dark_gray]│[reset] [bold]%s[reset] %s\n",
            &[&v.traversal, &v.statement],
        ));
    }
}

/// The compact list `-compact-warnings` prints when there are only warnings
/// (`format.DiagnosticWarningsCompact`); consolidated groups report how many
/// places they cover.
pub fn format_warnings_compact(diags: &[Diagnostic], color: bool) -> String {
    let color = Colorize { enabled: color };
    let mut b = color.color("[bold][yellow]Warnings:[reset]\n\n");
    for diag in diags {
        let count = 1 + diag.extra.consolidated.len();
        b.push_str(&format!("- {}\n", diag.summary));
        match &diag.subject {
            Some(subject) if count > 1 => b.push_str(&format!(
                "  on {} line {} (and {} more)\n",
                subject.filename,
                subject.start.line,
                count - 1
            )),
            Some(subject) => b.push_str(&format!(
                "  on {} line {}\n",
                subject.filename, subject.start.line
            )),
            None if count > 1 => b.push_str(&format!("  ({count} occurrences of this warning)\n")),
            None => {}
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{
        ExpressionValue, FunctionCall, FunctionParam, FunctionSignature, Severity,
    };

    fn sources() -> SourceMap {
        let mut s = SourceMap::new();
        s.add("test.tf", "test source code");
        s
    }

    fn subject() -> hclsyntax::Range {
        sources().get("test.tf").unwrap().range(5, 11)
    }

    /// OpenTofu's format tests use a Colorize without colours, so the tags
    /// pass through; rebuild that view from our escape codes.
    fn tags(s: &str) -> String {
        s.replace("\x1b[1m", "[bold]")
            .replace("\x1b[31m", "[red]")
            .replace("\x1b[33m", "[yellow]")
            .replace("\x1b[4m", "[underline]")
            .replace("\x1b[90m", "[dark_gray]")
            .replace("\x1b[0m", "[reset]")
    }

    #[test]
    fn sourceless_error_matches_opentofu_test() {
        let d = Diagnostic::error_sourceless(
            "A sourceless error",
            "It has no source references but it does have a pretty long detail that should wrap over multiple lines.",
        );
        let got = format_diagnostic(&d, &sources(), false, 40);
        assert_eq!(
            got,
            "╷\n│ Error: A sourceless error\n│ \n│ It has no source references but it\n│ does have a pretty long detail that\n│ should wrap over multiple lines.\n╵\n"
        );
    }

    #[test]
    fn error_with_subject_and_values_in_colour() {
        let d = Diagnostic::error("Bad bad bad", "Whatever shall we do?", subject())
            .with_values(vec![ExpressionValue::new("boop.beep", "is \"blah\"")]);
        let got = tags(&format_diagnostic(&d, &sources(), true, 40));
        // Go's test Colorize has no Reset; ours appends one per coloured
        // template, as OpenTofu's real Colorize does.
        let want = "[red]╷[reset][reset]\n\
[red]│[reset] [reset][bold][red]Error: [reset][reset][bold]Bad bad bad[reset]\n\
[red]│[reset] [reset]\n\
[red]│[reset] [reset][reset]  on test.tf line 1:\n\
[red]│[reset] [reset]   1: test [underline]source[reset] code[reset]\n\
[red]│[reset] [reset]    [dark_gray]├────────────────[reset]\n\
[red]│[reset] [reset][reset]    [dark_gray]│[reset] [bold]boop.beep[reset] is \"blah\"\n\
[red]│[reset] [reset][reset]\n\
[red]│[reset] [reset]Whatever shall we do?\n\
[red]╵[reset][reset]\n";
        assert_eq!(got, want);
    }

    #[test]
    fn function_call_line() {
        let d = Diagnostic::error("Bad bad bad", "Whatever shall we do?", subject())
            .with_function_call(FunctionCall {
                called_as: "beep".into(),
                signature: Some(FunctionSignature {
                    name: "beep".into(),
                    params: vec![
                        FunctionParam {
                            name: "pos_param_0".into(),
                            type_json: "string".into(),
                        },
                        FunctionParam {
                            name: "pos_param_1".into(),
                            type_json: "number".into(),
                        },
                    ],
                    variadic_param: Some(FunctionParam {
                        name: "var_param".into(),
                        type_json: "bool".into(),
                    }),
                    return_type: "dynamic".into(),
                }),
            });
        let got = format_diagnostic_plain(&d, &sources(), 40);
        assert_eq!(
            got,
            "\nError: Bad bad bad\n\n  on test.tf line 1:\n   1: test source code\n    ├────────────────\n    │ while calling beep(pos_param_0, pos_param_1, var_param...)\n\nWhatever shall we do?\n"
        );
    }

    #[test]
    fn plain_matches_opentofu_test() {
        let d = Diagnostic::sourceless(
            Severity::Warning,
            "A sourceless warning",
            "It has no source references but it does have a pretty long detail that should wrap over multiple lines.",
        );
        assert_eq!(
            format_diagnostic_plain(&d, &sources(), 40),
            "\nWarning: A sourceless warning\n\nIt has no source references but it does\nhave a pretty long detail that should\nwrap over multiple lines.\n"
        );
    }

    #[test]
    fn missing_source_says_so() {
        let d = Diagnostic::error(
            "Bad",
            "",
            hclsyntax::SourceFile::new("gone.tf", "x").range(0, 1),
        )
        .with_address("aws_instance.a");
        assert_eq!(
            format_diagnostic_plain(&d, &SourceMap::new(), 78),
            "\nError: Bad\n\n  with aws_instance.a,\n  on gone.tf line 1:\n  (source code not available)\n\n"
        );
    }

    #[test]
    fn compact_warnings() {
        let mut d = Diagnostic::warning("W", "", subject());
        d.extra.consolidated = vec![None, None];
        let plain = Diagnostic::warning_sourceless("Lonely", "");
        assert_eq!(
            format_warnings_compact(&[d, plain], false),
            "Warnings:\n\n- W\n  on test.tf line 1 (and 2 more)\n- Lonely\n"
        );
    }
}
