//! Go's `encoding/json` syntax check: the `checkValid` pass that
//! `json.Unmarshal` and `json.Valid` run before decoding, with the text of
//! the `*json.SyntaxError` it returns. OpenTofu prints that text for a
//! malformed JSON file, so this mirrors the byte-at-a-time state machine of
//! Go's `encoding/json/scanner.go` (Go 1.22+) state for state, quirks
//! included: at end of input the scanner is fed one space, so `tru` fails
//! with ``invalid character ' ' in literal true (expecting 'e')`` rather
//! than `unexpected end of JSON input`.
//!
//! Nesting is tracked on an explicit stack and capped at Go's depth of
//! 10000, so no input can overflow the call stack.

use crate::quote::quote;

/// Go's `maxNestingDepth`: one more open `[` or `{` is an error.
const MAX_NESTING_DEPTH: usize = 10000;

/// Go's `parseState` values: what the innermost open composite expects.
#[derive(Clone, Copy)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

/// Go's step functions, one variant each (the literal ones folded into
/// `Literal`, the `\u` ones into `InStringEscU`).
#[derive(Clone, Copy)]
enum State {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// After `\u` and this many hex digits (0..=3).
    InStringEscU(u8),
    Neg,
    Zero,
    NonZero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// Inside `true`, `false` or `null`: `rest` are the bytes still
    /// expected, `name` the literal Go names in its error.
    Literal {
        rest: &'static [u8],
        name: &'static str,
    },
}

struct Scanner {
    state: State,
    stack: Vec<Parse>,
    end_top: bool,
    err: Option<String>,
}

/// Go's `json.Valid` check with its error: `Ok(())` for well-formed JSON,
/// else the text of Go's `*json.SyntaxError` (what `err.Error()` prints).
pub fn check_valid(data: &[u8]) -> Result<(), String> {
    let mut s = Scanner {
        state: State::BeginValue,
        stack: Vec::new(),
        end_top: false,
        err: None,
    };
    for &c in data {
        s.step(c);
        // Go keeps the first error and stops at it (its error state
        // swallows every later byte).
        if let Some(err) = s.err.take() {
            return Err(err);
        }
    }
    s.eof()
}

impl Scanner {
    /// Go's `eof`: a space ends a pending number; anything still open is
    /// an error, and a state that rejects the space reports that instead.
    fn eof(mut self) -> Result<(), String> {
        if self.end_top {
            return Ok(());
        }
        self.step(b' ');
        if self.end_top {
            return Ok(());
        }
        Err(self
            .err
            .unwrap_or_else(|| "unexpected end of JSON input".to_string()))
    }

    fn step(&mut self, c: u8) {
        match self.state {
            State::BeginValueOrEmpty => {
                if is_space(c) {
                } else if c == b']' {
                    self.end_value(c);
                } else {
                    self.begin_value(c);
                }
            }
            State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty => {
                if is_space(c) {
                } else if c == b'}' {
                    // `{}`: close it as if a key:value pair had just ended.
                    if let Some(top) = self.stack.last_mut() {
                        *top = Parse::ObjectValue;
                    }
                    self.end_value(c);
                } else {
                    self.begin_string(c);
                }
            }
            State::BeginString => self.begin_string(c),
            State::EndValue => self.end_value(c),
            State::EndTop => self.end_top(c),
            State::InString => match c {
                b'"' => self.state = State::EndValue,
                b'\\' => self.state = State::InStringEsc,
                0..=0x1f => self.error(c, "in string literal"),
                _ => {}
            },
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {
                    self.state = State::InString;
                }
                b'u' => self.state = State::InStringEscU(0),
                _ => self.error(c, "in string escape code"),
            },
            State::InStringEscU(n) => {
                if !c.is_ascii_hexdigit() {
                    self.error(c, "in \\u hexadecimal character escape");
                } else if n == 3 {
                    self.state = State::InString;
                } else {
                    self.state = State::InStringEscU(n + 1);
                }
            }
            State::Neg => match c {
                b'0' => self.state = State::Zero,
                b'1'..=b'9' => self.state = State::NonZero,
                _ => self.error(c, "in numeric literal"),
            },
            State::NonZero => {
                if !c.is_ascii_digit() {
                    self.zero(c);
                }
            }
            State::Zero => self.zero(c),
            State::Dot => {
                if c.is_ascii_digit() {
                    self.state = State::Dot0;
                } else {
                    self.error(c, "after decimal point in numeric literal");
                }
            }
            State::Dot0 => match c {
                b'0'..=b'9' => {}
                b'e' | b'E' => self.state = State::E,
                _ => self.end_value(c),
            },
            State::E => {
                if c == b'+' || c == b'-' {
                    self.state = State::ESign;
                } else {
                    self.e_sign(c);
                }
            }
            State::ESign => self.e_sign(c),
            State::E0 => {
                if !c.is_ascii_digit() {
                    self.end_value(c);
                }
            }
            State::Literal { rest, name } => match rest {
                [want, more @ ..] if c == *want => {
                    self.state = if more.is_empty() {
                        State::EndValue
                    } else {
                        State::Literal { rest: more, name }
                    };
                }
                // `rest` is never empty: the last byte moves to EndValue.
                [want, ..] => self.error(
                    c,
                    &format!("in literal {name} (expecting '{}')", char::from(*want)),
                ),
                [] => {}
            },
        }
    }

    /// Go's `stateBeginValue`.
    fn begin_value(&mut self, c: u8) {
        self.state = match c {
            b' ' | b'\t' | b'\r' | b'\n' => return,
            b'{' => return self.push(c, Parse::ObjectKey, State::BeginStringOrEmpty),
            b'[' => return self.push(c, Parse::ArrayValue, State::BeginValueOrEmpty),
            b'"' => State::InString,
            b'-' => State::Neg,
            b'0' => State::Zero,
            b'1'..=b'9' => State::NonZero,
            b't' => State::Literal {
                rest: b"rue",
                name: "true",
            },
            b'f' => State::Literal {
                rest: b"alse",
                name: "false",
            },
            b'n' => State::Literal {
                rest: b"ull",
                name: "null",
            },
            _ => return self.error(c, "looking for beginning of value"),
        };
    }

    /// Go's `stateBeginString`: an object key must start here.
    fn begin_string(&mut self, c: u8) {
        if is_space(c) {
        } else if c == b'"' {
            self.state = State::InString;
        } else {
            self.error(c, "looking for beginning of object key string");
        }
    }

    /// Go's `stateEndValue`: what may follow a complete value depends on
    /// the innermost open composite.
    fn end_value(&mut self, c: u8) {
        let Some(top) = self.stack.last_mut() else {
            // The top-level value ended before this byte.
            self.state = State::EndTop;
            self.end_top = true;
            return self.end_top(c);
        };
        if is_space(c) {
            self.state = State::EndValue;
            return;
        }
        match *top {
            Parse::ObjectKey => {
                if c == b':' {
                    *top = Parse::ObjectValue;
                    self.state = State::BeginValue;
                } else {
                    self.error(c, "after object key");
                }
            }
            Parse::ObjectValue => match c {
                b',' => {
                    *top = Parse::ObjectKey;
                    self.state = State::BeginString;
                }
                b'}' => self.pop(),
                _ => self.error(c, "after object key:value pair"),
            },
            Parse::ArrayValue => match c {
                b',' => self.state = State::BeginValue,
                b']' => self.pop(),
                _ => self.error(c, "after array element"),
            },
        }
    }

    /// Go's `stateEndTop`: only whitespace may follow the value.
    fn end_top(&mut self, c: u8) {
        if !is_space(c) {
            self.error(c, "after top-level value");
        }
    }

    /// Go's `state0`, also where `state1` goes on a non-digit.
    fn zero(&mut self, c: u8) {
        match c {
            b'.' => self.state = State::Dot,
            b'e' | b'E' => self.state = State::E,
            _ => self.end_value(c),
        }
    }

    /// Go's `stateESign`: the exponent needs at least one digit.
    fn e_sign(&mut self, c: u8) {
        if c.is_ascii_digit() {
            self.state = State::E0;
        } else {
            self.error(c, "in exponent of numeric literal");
        }
    }

    /// Go's `pushParseState`: Go appends first and then checks, so the
    /// 10001st open bracket is the one reported.
    fn push(&mut self, c: u8, parse: Parse, next: State) {
        self.state = next;
        self.stack.push(parse);
        if self.stack.len() > MAX_NESTING_DEPTH {
            self.error(c, "exceeded max depth");
        }
    }

    /// Go's `popParseState`.
    fn pop(&mut self) {
        self.stack.pop();
        if self.stack.is_empty() {
            self.state = State::EndTop;
            self.end_top = true;
        } else {
            self.state = State::EndValue;
        }
    }

    /// Go's `scanner.error`: every message names the offending byte.
    fn error(&mut self, c: u8, context: &str) {
        self.err = Some(format!("invalid character {} {context}", quote_char(c)));
    }
}

/// Go's `isSpace`: JSON whitespace only, not Unicode or `\f`/`\v`.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`. Go converts the byte to a rune, so a byte of a UTF-8
/// sequence is shown as the Latin-1 character of that value (0xC3 is
/// `'Ã'`), not as `\xc3`.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_string(),
        b'"' => r#"'"'"#.to_string(),
        _ => {
            let q = quote(char::from(c).encode_utf8(&mut [0; 4]));
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(input: &str) -> String {
        check_valid(input.as_bytes()).expect_err(input)
    }

    #[test]
    fn accepts_valid_documents() {
        let docs = [
            "{}",
            "[]",
            "null",
            "true",
            "false",
            "0",
            "-0",
            "-0.5e+10",
            "1E-7",
            "123.456e0",
            "\"\"",
            r#""esc \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00""#,
            "\"raw é and \u{7f}\"",
            " \t\r\n{ \"a\" : [ 1 , 2.5 , { \"b\" : null } , [ ] ] , \"c\" : {} } \n",
            r#"{"a":{"b":{"c":[[[true,false]]]}}}"#,
        ];
        for doc in docs {
            assert_eq!(check_valid(doc.as_bytes()), Ok(()), "{doc}");
        }
    }

    #[test]
    fn empty_and_blank_input() {
        assert_eq!(err(""), "unexpected end of JSON input");
        assert_eq!(err(" \n\t\r"), "unexpected end of JSON input");
    }

    #[test]
    fn unexpected_end_inside_composites_and_strings() {
        for input in ["[", "[1,", "{", r#"{"a""#, r#"{"a":"#, r#"{"a":1"#, "\"abc"] {
            assert_eq!(err(input), "unexpected end of JSON input", "{input}");
        }
    }

    // Go feeds a space at end of input, so a state that rejects a space
    // reports that space rather than the end.
    #[test]
    fn end_inside_literal_or_number_reports_the_space() {
        let cases = [
            (
                "tru",
                "invalid character ' ' in literal true (expecting 'e')",
            ),
            ("-", "invalid character ' ' in numeric literal"),
            (
                "1.",
                "invalid character ' ' after decimal point in numeric literal",
            ),
            ("1e", "invalid character ' ' in exponent of numeric literal"),
            (
                "1e+",
                "invalid character ' ' in exponent of numeric literal",
            ),
            ("\"\\", "invalid character ' ' in string escape code"),
            (
                "\"\\u12",
                "invalid character ' ' in \\u hexadecimal character escape",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(err(input), want, "{input}");
        }
    }

    #[test]
    fn error_texts() {
        let cases = [
            ("x", "invalid character 'x' looking for beginning of value"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            (r#"{"a"}"#, "invalid character '}' after object key"),
            (
                r#"{"a":1 "b":2}"#,
                "invalid character '\"' after object key:value pair",
            ),
            (
                r#"{"a":1]"#,
                "invalid character ']' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            ("[1}", "invalid character '}' after array element"),
            (
                "{a:1}",
                "invalid character 'a' looking for beginning of object key string",
            ),
            (
                r#"{"a":1,}"#,
                "invalid character '}' looking for beginning of object key string",
            ),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("\"\\x\"", "invalid character 'x' in string escape code"),
            (
                "\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            ("-a", "invalid character 'a' in numeric literal"),
            ("01", "invalid character '1' after top-level value"),
            ("1x", "invalid character 'x' after top-level value"),
            ("{} x", "invalid character 'x' after top-level value"),
            ("[]]", "invalid character ']' after top-level value"),
            (
                "tx",
                "invalid character 'x' in literal true (expecting 'r')",
            ),
            (
                "trx",
                "invalid character 'x' in literal true (expecting 'u')",
            ),
            (
                "trux",
                "invalid character 'x' in literal true (expecting 'e')",
            ),
            (
                "fx",
                "invalid character 'x' in literal false (expecting 'a')",
            ),
            (
                "fals",
                "invalid character ' ' in literal false (expecting 'e')",
            ),
            (
                "nx",
                "invalid character 'x' in literal null (expecting 'u')",
            ),
            (
                "nux",
                "invalid character 'x' in literal null (expecting 'l')",
            ),
            (
                "nulx",
                "invalid character 'x' in literal null (expecting 'l')",
            ),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            (
                "1e+x",
                "invalid character 'x' in exponent of numeric literal",
            ),
            ("1.5.2", "invalid character '.' after top-level value"),
            // Go's isSpace has no form feed.
            (
                "\x0c1",
                "invalid character '\\f' looking for beginning of value",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(err(input), want, "{input:?}");
        }
    }

    #[test]
    fn first_error_wins() {
        assert_eq!(err("[1}x"), "invalid character '}' after array element");
    }

    #[test]
    fn non_ascii_bytes_are_quoted_as_latin1_runes() {
        // A UTF-8 BOM: Go names its first byte, 0xEF, as U+00EF.
        assert_eq!(
            check_valid(b"\xef\xbb\xbf{}"),
            Err("invalid character '\u{ef}' looking for beginning of value".to_string())
        );
        // Invalid UTF-8 inside a string is not the scanner's concern.
        assert_eq!(check_valid(b"\"\xff\xfe\""), Ok(()));
    }

    #[test]
    fn nesting_is_capped_at_go_depth() {
        let ok = format!("{}{}", "[".repeat(10000), "]".repeat(10000));
        assert_eq!(check_valid(ok.as_bytes()), Ok(()));
        let deep = "[".repeat(10001);
        assert_eq!(err(&deep), "invalid character '[' exceeded max depth");
        let objects = r#"{"a":"#.repeat(10001);
        assert_eq!(err(&objects), "invalid character '{' exceeded max depth");
    }

    #[test]
    fn very_deep_nesting_errors_without_overflow() {
        let deep = "[".repeat(100_000);
        assert_eq!(err(&deep), "invalid character '[' exceeded max depth");
    }

    #[test]
    fn quote_char_special_cases() {
        let cases: [(u8, &str); 11] = [
            (b'\'', r"'\''"),
            (b'"', r#"'"'"#),
            (b'\\', r"'\\'"),
            (b'x', "'x'"),
            (b'\n', r"'\n'"),
            (b'\t', r"'\t'"),
            (0x01, r"'\x01'"),
            (0x7f, r"'\x7f'"),
            (0xc3, "'\u{c3}'"),
            (0x80, r"'\u0080'"),
            (0xa0, r"'\u00a0'"),
        ];
        for (c, want) in cases {
            assert_eq!(quote_char(c), want, "{c:#x}");
        }
    }
}
