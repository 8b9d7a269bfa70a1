//! The JSON token scanner, as HCL's `json/scanner.go`: lax about the
//! multi-byte tokens (keywords, strings, numbers) so that the parser can
//! give better messages about what was meant, and stopping at the first
//! byte that cannot start any token.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    BraceO,
    BraceC,
    BrackO,
    BrackC,
    Comma,
    Colon,
    /// `=`: only scanned to remind users of JSON syntax.
    Equals,
    Keyword,
    String,
    Number,
    Eof,
    Invalid,
}

/// A token: its kind and its bytes `start..end` in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

/// Scans the whole buffer. The last token is always [`TokenKind::Eof`]; an
/// invalid byte ends the scan (with a synthetic end of file after it).
pub(crate) fn scan(text: &str) -> Vec<Token> {
    let buf = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    loop {
        while i < buf.len() && matches!(buf[i], b' ' | b'\n' | b'\r' | b'\t') {
            i += 1;
        }
        if i >= buf.len() {
            tokens.push(Token {
                kind: TokenKind::Eof,
                start: buf.len(),
                end: buf.len(),
            });
            return tokens;
        }
        let start = i;
        let first = buf[i];
        let kind = match first {
            b'{' => TokenKind::BraceO,
            b'}' => TokenKind::BraceC,
            b'[' => TokenKind::BrackO,
            b']' => TokenKind::BrackC,
            b',' => TokenKind::Comma,
            b':' => TokenKind::Colon,
            b'=' => TokenKind::Equals,
            b'"' => TokenKind::String,
            b'-' | b'+' | b'.' | b'0'..=b'9' => TokenKind::Number,
            b if b.is_ascii_alphabetic() => TokenKind::Keyword,
            _ => TokenKind::Invalid,
        };
        match kind {
            TokenKind::String => i = scan_string(buf, i),
            TokenKind::Number => {
                while i < buf.len()
                    && matches!(buf[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
            }
            TokenKind::Keyword => {
                while i < buf.len() && (buf[i].is_ascii_alphabetic() || buf[i] == b'_') {
                    i += 1;
                }
            }
            TokenKind::Invalid => {
                // The whole character, so that ranges stay on boundaries.
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                tokens.push(Token {
                    kind,
                    start,
                    end: i + len,
                });
                tokens.push(Token {
                    kind: TokenKind::Eof,
                    start: i + len,
                    end: i + len,
                });
                return tokens;
            }
            _ => i += 1,
        }
        tokens.push(Token {
            kind,
            start,
            end: i,
        });
    }
}

/// The end of a string token starting at `start` (on its opening quote):
/// after the closing quote, or before a control character, or at the end of
/// the buffer. Escapes matter only to find the closing quote.
fn scan_string(buf: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut escaping = false;
    while i < buf.len() {
        let b = buf[i];
        match b {
            b'\\' => {
                escaping = !escaping;
                i += 1;
            }
            b'"' => {
                i += 1;
                if !escaping {
                    break;
                }
                escaping = false;
            }
            b if b < 32 => break,
            _ => {
                escaping = false;
                i += 1;
            }
        }
    }
    i
}

/// Decodes a string token (quotes included) as Go's `encoding/json` does.
/// On a syntax error, returns the offset Go's decoder reports: one past
/// the offending byte, or the token length when the string is unterminated.
pub(crate) fn decode_string(tok: &str) -> Result<String, usize> {
    let b = tok.as_bytes();
    // Validation, as encoding/json's scanner.
    let mut i = 1;
    let mut closed = false;
    while i < b.len() {
        match b[i] {
            b'"' => {
                closed = i + 1 == b.len();
                if !closed {
                    return Err(i + 2);
                }
                break;
            }
            b'\\' => {
                i += 1;
                match b.get(i) {
                    None => break,
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 1,
                    Some(b'u') => {
                        i += 1;
                        for _ in 0..4 {
                            match b.get(i) {
                                None => break,
                                Some(c) if c.is_ascii_hexdigit() => i += 1,
                                Some(_) => return Err(i + 1),
                            }
                        }
                    }
                    Some(_) => return Err(i + 1),
                }
            }
            c if c < 0x20 => return Err(i + 1),
            _ => i += 1,
        }
    }
    if !closed {
        return Err(b.len());
    }

    // Unquoting, as encoding/json's unquoteBytes.
    let inner = &tok[1..tok.len() - 1];
    let ib = inner.as_bytes();
    let mut out = String::with_capacity(inner.len());
    let mut r = 0;
    while r < ib.len() {
        if ib[r] != b'\\' {
            let next = inner[r..].find('\\').map_or(ib.len(), |n| r + n);
            out.push_str(&inner[r..next]);
            r = next;
            continue;
        }
        let c = ib[r + 1];
        r += 2;
        match c {
            b'"' => out.push('"'),
            b'\\' => out.push('\\'),
            b'/' => out.push('/'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            _ => {
                // 'u', validated above.
                let rr = hex4(&inner[r..r + 4]);
                r += 4;
                if (0xD800..0xE000).contains(&rr) {
                    let rr1 = if inner[r..].starts_with("\\u") && r + 6 <= inner.len() {
                        Some(hex4(&inner[r + 2..r + 6]))
                    } else {
                        None
                    };
                    if let Some(rr1) = rr1 {
                        if (0xD800..0xDC00).contains(&rr) && (0xDC00..0xE000).contains(&rr1) {
                            let cp = 0x10000 + ((rr - 0xD800) << 10) + (rr1 - 0xDC00);
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                            r += 6;
                            continue;
                        }
                    }
                    out.push('\u{FFFD}');
                } else {
                    out.push(char::from_u32(rr).unwrap_or('\u{FFFD}'));
                }
            }
        }
    }
    Ok(out)
}

fn hex4(s: &str) -> u32 {
    u32::from_str_radix(s, 16).unwrap_or(0xFFFD)
}

/// Whether `s` is a number as JSON's grammar allows:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
pub(crate) fn valid_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind> {
        scan(s).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn scans_tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("{\"a\": [1, -2.5e3, true]}\n"),
            vec![
                BraceO, String, Colon, BrackO, Number, Comma, Number, Comma, Keyword, BrackC,
                BraceC, Eof
            ]
        );
        assert_eq!(kinds("a = 1"), vec![Keyword, Equals, Number, Eof]);
        assert_eq!(kinds("{ # }"), vec![BraceO, Invalid, Eof]);
        assert_eq!(kinds(""), vec![Eof]);
        let t = scan("  \"a\\\"b\" x");
        assert_eq!((t[0].start, t[0].end), (2, 8));
        // A control character ends a string token.
        let t = scan("\"ab\ncd\"");
        assert_eq!((t[0].start, t[0].end), (0, 3));
        let t = scan("{ é");
        assert_eq!((t[1].kind, t[1].start, t[1].end), (Invalid, 2, 4));
    }

    #[test]
    fn decodes_strings_as_go() {
        assert_eq!(decode_string(r#""a\nb\t\"\\\/""#).unwrap(), "a\nb\t\"\\/");
        assert_eq!(decode_string(r#""\u00e9\ud83d\ude00""#).unwrap(), "é😀");
        assert_eq!(decode_string(r#""\ud83dx""#).unwrap(), "\u{FFFD}x");
        assert_eq!(decode_string(r#""\udc00\u0041""#).unwrap(), "\u{FFFD}A");
        assert_eq!(decode_string(r#""\ud83d\u0041""#).unwrap(), "\u{FFFD}A");
        assert_eq!(decode_string("\"🤷\"").unwrap(), "🤷");
        // Invalid escape: one past the offending byte.
        assert_eq!(decode_string(r#""a\x""#), Err(4));
        assert_eq!(decode_string(r#""\u12g4""#), Err(6));
        // Unterminated: the token length.
        assert_eq!(decode_string("\"abc"), Err(4));
        assert_eq!(decode_string("\""), Err(1));
        assert_eq!(decode_string("\"a\\\""), Err(4));
    }

    #[test]
    fn validates_numbers() {
        for ok in ["0", "-0", "12", "1.5", "-1.5e10", "1E+2", "3.14159265359"] {
            assert!(valid_number(ok), "{ok}");
        }
        for bad in [
            "+1", ".5", "01", "1.", "-", "1e", "1e+", "--1", "1.2.3", "1-",
        ] {
            assert!(!valid_number(bad), "{bad}");
        }
    }
}
