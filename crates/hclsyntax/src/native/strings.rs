//! Decoding of string literal tokens: backslash escapes in quoted strings,
//! `$${` and `%%{` everywhere (HCL's `ParseStringLiteralToken`).

use super::token::pos_after;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::Range;

/// The value of a literal chunk. `quoted` enables backslash escapes (quoted
/// strings); heredocs and bare templates keep backslashes as written.
/// `range` is the chunk's range, used to place errors on the bad escape.
pub(super) fn decode_literal(raw: &str, quoted: bool, range: &Range) -> (String, Diagnostics) {
    let special = |b: &u8| matches!(b, b'$' | b'%') || (quoted && *b == b'\\');
    if !raw.as_bytes().iter().any(special) {
        // Nothing to decode: the text is the value.
        return (raw.to_string(), Diagnostics::new());
    }
    let mut out = String::with_capacity(raw.len());
    let mut diags = Diagnostics::new();
    let mut rest = raw;
    let mut pos = range.start;
    while !rest.is_empty() {
        let len = slice_len(rest, quoted);
        let slice = &rest[..len];
        let end = pos_after(pos, slice);
        let here = || Range::new(range.filename.clone(), pos, end);
        decode_slice(slice, quoted, &mut out, &mut diags, here);
        rest = &rest[len..];
        pos = end;
    }
    (out, diags)
}

/// Length of the next slice as HCL's `scanStringLit` splits a literal: one
/// escape sequence, one `$${`/`%%{`, or a run of ordinary text.
fn slice_len(s: &str, quoted: bool) -> usize {
    let b = s.as_bytes();
    if quoted && b[0] == b'\\' {
        let Some(sel) = s[1..].chars().next() else {
            return 1;
        };
        let digits = match sel {
            'u' => 4,
            'U' => 8,
            _ => return 1 + sel.len_utf8(),
        };
        let hex = b[2..]
            .iter()
            .take(digits)
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        return 2 + hex;
    }
    if (b[0] == b'$' || b[0] == b'%') && b.len() >= 3 && b[1] == b[0] && b[2] == b'{' {
        return 3;
    }
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => break,
            b'$' | b'%' => break,
            _ => i += 1,
        }
    }
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

fn decode_slice(
    slice: &str,
    quoted: bool,
    out: &mut String,
    diags: &mut Diagnostics,
    here: impl Fn() -> Range,
) {
    let b = slice.as_bytes();
    if quoted && b[0] == b'\\' {
        let Some(sel) = slice[1..].chars().next() else {
            diags.push(Diagnostic::error(
                "Invalid escape sequence",
                "Backslash must be followed by an escape sequence selector character.",
                here(),
            ));
            out.push_str(slice);
            return;
        };
        match sel {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            'u' | 'U' => {
                let want = if sel == 'u' { 6 } else { 10 };
                if slice.len() != want {
                    let detail = if sel == 'u' {
                        "The \\u escape sequence must be followed by four hexadecimal digits."
                    } else {
                        "The \\U escape sequence must be followed by eight hexadecimal digits."
                    };
                    diags.push(Diagnostic::error("Invalid escape sequence", detail, here()));
                    out.push_str(slice);
                    return;
                }
                let num = u32::from_str_radix(&slice[2..], 16)
                    .expect("scanner matched only hexadecimal digits");
                match char::from_u32(num) {
                    Some(c) => out.push(c),
                    None => diags.push(Diagnostic::error(
                        "Invalid escape sequence",
                        format!("Cannot encode character U+{num:04x} in UTF-8."),
                        here(),
                    )),
                }
            }
            other => {
                diags.push(Diagnostic::error(
                    "Invalid escape sequence",
                    format!("The symbol \"{other}\" is not a valid escape sequence selector."),
                    here(),
                ));
                out.push(other);
            }
        }
        return;
    }
    if slice.len() == 3 && (b[0] == b'$' || b[0] == b'%') && b[1] == b[0] && b[2] == b'{' {
        out.push(b[0] as char);
        out.push('{');
        return;
    }
    out.push_str(slice);
}
