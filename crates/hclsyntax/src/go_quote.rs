//! Go's `strconv.Quote` (what `%q` prints), the one implementation every
//! crate uses: OpenTofu quotes names, addresses and values this way in its
//! messages, and each copy of it that was written separately differed from
//! Go somewhere (U+200B left raw, invalid UTF-8 unhandled).

/// Go's `unicode.IsPrint`, for the characters configurations meet:
/// graphic characters and the ASCII space; not controls, other spaces,
/// format characters (Cf), private use or unassigned planes.
pub fn go_is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(c as u32,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E
        | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF
        | 0xE0000..=0xE007F | 0xF0000..=0x10FFFF)
}

/// `strconv.Quote(s)`.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_escaped(&mut out, s);
    out.push('"');
    out
}

/// `strconv.Quote` of Go string bytes that need not be UTF-8: each byte of
/// an invalid sequence is written `\xNN`, as Go does.
pub fn go_quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        push_escaped(&mut out, chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if go_is_print(c) => out.push(c),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_strconv_quote() {
        let cases = [
            ("plain", "\"plain\""),
            ("a\"b\\c", "\"a\\\"b\\\\c\""),
            ("tab\tnl\n", "\"tab\\tnl\\n\""),
            ("\x07\x08\x0b\x0c\r", "\"\\a\\b\\v\\f\\r\""),
            ("\x01\x7f", "\"\\x01\\x7f\""),
            ("zero\u{200b}width", "\"zero\\u200bwidth\""),
            ("bom\u{feff}", "\"bom\\ufeff\""),
            ("nbsp\u{a0}", "\"nbsp\\u00a0\""),
            ("héllo 世界", "\"héllo 世界\""),
            ("tag\u{e0041}", "\"tag\\U000e0041\""),
        ];
        for (s, want) in cases {
            assert_eq!(go_quote(s), want, "{s:?}");
        }
    }

    #[test]
    fn invalid_utf8_bytes_are_hex_escaped() {
        assert_eq!(go_quote_bytes(b"urn:\xc3"), "\"urn:\\xc3\"");
        assert_eq!(go_quote_bytes("é".as_bytes()), "\"é\"");
        assert_eq!(go_quote_bytes(b"\xff\xfe"), "\"\\xff\\xfe\"");
    }
}
