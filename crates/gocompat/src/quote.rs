//! Go's `strconv.Quote` (what `%q` prints for a string), `strconv.QuoteRune`
//! (`%q` of a rune) and `unicode.IsPrint`, the one implementation every crate
//! uses: OpenTofu quotes names, addresses and values this way in its
//! messages, and each copy of it that was written separately differed from
//! Go somewhere (U+200B left raw, invalid UTF-8 unhandled).
//!
//! `is_print` is exact for Go's Unicode version: the table is generated from
//! the Unicode Character Database by `scripts/gen_isprint.py`.

use std::fmt::Write as _;

#[path = "isprint_table.rs"]
mod table;

/// Go's `unicode.IsPrint` (and `strconv.IsPrint`, the same set): letters,
/// marks, numbers, punctuation, symbols and the ASCII space U+0020. Other
/// spaces (U+00A0, U+3000), format characters (U+200B, U+FEFF), controls,
/// private use and unassigned code points are not printable.
pub fn is_print(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    table::PRINT_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < u {
                std::cmp::Ordering::Less
            } else if lo > u {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `strconv.Quote(s)`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_escaped(&mut out, s, '"');
    out.push('"');
    out
}

/// `strconv.Quote` of Go string bytes that need not be UTF-8: each byte of
/// an invalid sequence is written `\xNN`, as Go does.
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        push_escaped(&mut out, chunk.valid(), '"');
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}

/// `strconv.QuoteRune(c)`: what `%q` prints for a rune, in single quotes.
pub fn quote_rune(c: char) -> String {
    let mut out = String::with_capacity(6);
    out.push('\'');
    push_escaped(&mut out, c.encode_utf8(&mut [0; 4]), '\'');
    out.push('\'');
    out
}

/// Go's `appendEscapedRune` for each character of `s`, `quote` being the
/// delimiter that must be escaped.
fn push_escaped(out: &mut String, s: &str, quote: char) {
    for c in s.chars() {
        match c {
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\\\"),
            c if is_print(c) => out.push(c),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_strconv_quote() {
        let cases = [
            ("", "\"\""),
            ("plain", "\"plain\""),
            ("a\"b\\c", "\"a\\\"b\\\\c\""),
            ("it's", "\"it's\""),
            ("\x07\x08\x0c\n\r\t\x0b", "\"\\a\\b\\f\\n\\r\\t\\v\""),
            ("\x00\x01\x1f\x7f", "\"\\x00\\x01\\x1f\\x7f\""),
            ("\u{80}\u{9f}", "\"\\u0080\\u009f\""),
            ("zero\u{200b}width", "\"zero\\u200bwidth\""),
            ("nbsp\u{a0}", "\"nbsp\\u00a0\""),
            ("soft\u{ad}hyphen", "\"soft\\u00adhyphen\""),
            ("ideographic\u{3000}space", "\"ideographic\\u3000space\""),
            ("bom\u{feff}", "\"bom\\ufeff\""),
            ("line\u{2028}para\u{2029}", "\"line\\u2028para\\u2029\""),
            ("private\u{e000}", "\"private\\ue000\""),
            ("héllo 世界", "\"héllo 世界\""),
            ("emoji \u{1f600}", "\"emoji \u{1f600}\""),
            ("tag\u{e0001}", "\"tag\\U000e0001\""),
            ("tag\u{e0041}", "\"tag\\U000e0041\""),
            ("variation\u{e0100}", "\"variation\u{e0100}\""),
            ("unassigned\u{50000}", "\"unassigned\\U00050000\""),
        ];
        for (s, want) in cases {
            assert_eq!(quote(s), want, "{s:?}");
        }
    }

    #[test]
    fn invalid_utf8_bytes_are_hex_escaped() {
        assert_eq!(quote_bytes(b"urn:\xc3"), "\"urn:\\xc3\"");
        assert_eq!(quote_bytes("é".as_bytes()), "\"é\"");
        assert_eq!(quote_bytes(b"\xff\xfe"), "\"\\xff\\xfe\"");
        assert_eq!(quote_bytes(b"a\xe2\x82b"), "\"a\\xe2\\x82b\"");
        assert_eq!(quote_bytes(b"\xed\xa0\x80"), "\"\\xed\\xa0\\x80\"");
    }

    #[test]
    fn quotes_runes_as_strconv_quote_rune() {
        let cases = [
            ('a', "'a'"),
            ('\'', "'\\''"),
            ('"', "'\"'"),
            ('\\', "'\\\\'"),
            ('\n', "'\\n'"),
            ('\x01', "'\\x01'"),
            ('\u{200b}', "'\\u200b'"),
            ('☺', "'☺'"),
            ('\u{e0001}', "'\\U000e0001'"),
        ];
        for (c, want) in cases {
            assert_eq!(quote_rune(c), want, "{c:?}");
        }
    }

    #[test]
    fn is_print_follows_go_categories() {
        for c in [
            ' ',
            '~',
            '¡',
            'é',
            '\u{301}',
            '٣',
            '€',
            '𝔸',
            '\u{1f600}',
            '\u{31350}',
        ] {
            assert!(is_print(c), "{c:?}");
        }
        for c in [
            '\t',
            '\x7f',
            '\u{85}',
            '\u{a0}',
            '\u{ad}',
            '\u{200b}',
            '\u{2028}',
            '\u{3000}',
            '\u{feff}',
            '\u{fffe}',
            '\u{e0001}',
            '\u{f0000}',
        ] {
            assert!(!is_print(c), "{c:?}");
        }
    }
}
