//! The JSON parser, as HCL's `json/parser.go`: the same messages, the same
//! subjects and the same recovery, so that one mistake does not hide the
//! rest of the file. Values that failed to parse are left out of their
//! container (HCL keeps an "invalid" placeholder there).
//!
//! The parser recurses once per nesting level; past [`MAX_DEPTH`] levels
//! the nested value is skipped with an error instead.

use crate::ast::{JsonNode, JsonProperty, JsonValue};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::{Range, SourceFile};

use super::scanner::{decode_string, scan, valid_number, Token, TokenKind};
use super::start_range;

/// How deeply arrays and objects may nest.
pub const MAX_DEPTH: usize = 128;

/// A parsed value, or the range of one that could not be parsed.
pub(crate) type Parsed = Result<JsonNode, Range>;

/// Parses the whole of `source` as one JSON value. Data after the value is
/// an error when the value itself had none.
pub(crate) fn parse_value(source: &SourceFile) -> (Parsed, Diagnostics) {
    let mut p = Parser {
        source,
        tokens: scan(source.text()),
        pos: 0,
        depth: 0,
        diags: Diagnostics::new(),
    };
    let node = p.parse_value();
    if p.diags.is_empty() && p.peek().kind != TokenKind::Eof {
        let subject = p.range(p.peek());
        p.diags.push(Diagnostic::error(
            "Extraneous data after value",
            "Extra characters appear after the JSON value.",
            subject,
        ));
    }
    (node, p.diags)
}

struct Parser<'a> {
    source: &'a SourceFile,
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    diags: Diagnostics,
}

const VALUE_START: &str =
    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.tokens[self.pos]
    }

    fn read(&mut self) -> Token {
        let t = self.tokens[self.pos];
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    fn range(&self, t: Token) -> Range {
        self.source.range(t.start, t.end)
    }

    fn error(&mut self, summary: &str, detail: impl Into<String>, subject: Range) {
        self.diags.push(Diagnostic::error(summary, detail, subject));
    }

    fn parse_value(&mut self) -> Parsed {
        let tok = self.peek();
        let node = match tok.kind {
            TokenKind::BraceO | TokenKind::BrackO if self.depth >= MAX_DEPTH => {
                self.skip_nested();
                self.error(
                    "JSON value nested too deeply",
                    format!("Arrays and objects may be nested at most {MAX_DEPTH} levels deep."),
                    self.range(tok),
                );
                None
            }
            TokenKind::BraceO => {
                self.depth += 1;
                let n = self.parse_object();
                self.depth -= 1;
                n
            }
            TokenKind::BrackO => {
                self.depth += 1;
                let n = self.parse_array();
                self.depth -= 1;
                n
            }
            TokenKind::Number => self.parse_number(),
            TokenKind::String => self.parse_string(),
            TokenKind::Keyword => self.parse_keyword(),
            TokenKind::BraceC => {
                self.error("Missing JSON value", VALUE_START, self.range(tok));
                None
            }
            TokenKind::BrackC => {
                self.error("Missing array element value", VALUE_START, self.range(tok));
                None
            }
            TokenKind::Eof => {
                self.error(
                    "Missing value",
                    "The JSON data ends prematurely.",
                    self.range(tok),
                );
                None
            }
            _ => {
                self.error("Invalid start of value", VALUE_START, self.range(tok));
                None
            }
        };
        node.ok_or_else(|| self.range(tok))
    }

    /// Skips one array or object, however deeply nested, without recursing.
    fn skip_nested(&mut self) {
        let mut open = 0usize;
        loop {
            let t = self.read();
            match t.kind {
                TokenKind::BraceO | TokenKind::BrackO => open += 1,
                TokenKind::BraceC | TokenKind::BrackC => {
                    open = open.saturating_sub(1);
                    if open == 0 {
                        return;
                    }
                }
                TokenKind::Eof => return,
                _ => {}
            }
        }
    }

    /// HCL's recovery: moves on to what seems to be the end of the current
    /// object or array, starting from the already-read `tok`.
    fn recover(&mut self, mut tok: Token, open_kind: TokenKind, close_kind: TokenKind) {
        let mut open = 1usize;
        loop {
            if tok.kind == open_kind {
                open += 1;
            } else if tok.kind == close_kind {
                open -= 1;
                if open <= 1 {
                    return;
                }
            } else if tok.kind == TokenKind::Eof {
                return;
            }
            tok = self.read();
        }
    }

    fn parse_object(&mut self) -> Option<JsonNode> {
        let open = self.read();
        let mut props = Vec::new();
        let recover = |p: &mut Self, t| p.recover(t, TokenKind::BraceO, TokenKind::BraceC);
        loop {
            if self.peek().kind == TokenKind::BraceC {
                break;
            }
            let key = self.parse_value();
            let (name, name_range) = match key {
                Ok(JsonNode {
                    value: JsonValue::String(s),
                    range,
                }) => (s, range),
                other => {
                    let subject = match &other {
                        Ok(n) => start_range(n),
                        Err(r) => r.clone(),
                    };
                    self.error(
                        "Invalid object property name",
                        "A JSON object property name must be a string",
                        subject,
                    );
                    return None;
                }
            };

            let colon = self.read();
            if colon.kind != TokenKind::Colon {
                recover(self, colon);
                let subject = self.range(colon);
                match colon.kind {
                    TokenKind::BraceC | TokenKind::Comma => self.error(
                        "Missing object value",
                        "A JSON object attribute must have a value, introduced by a colon.",
                        subject,
                    ),
                    TokenKind::Equals => self.error(
                        "Missing property value colon",
                        "JSON uses a colon as its name/value delimiter, not an equals sign.",
                        subject,
                    ),
                    _ => self.error(
                        "Missing property value colon",
                        "A colon must appear between an object property's name and its value.",
                        subject,
                    ),
                }
                return None;
            }

            if let Ok(value) = self.parse_value() {
                props.push(JsonProperty {
                    name,
                    name_range,
                    value,
                });
            }

            match self.peek().kind {
                TokenKind::Comma => {
                    let comma = self.read();
                    if self.peek().kind == TokenKind::BraceC {
                        self.error(
                            "Trailing comma in object",
                            "JSON does not permit a trailing comma after the final property in an object.",
                            self.range(comma),
                        );
                        return None;
                    }
                }
                TokenKind::Eof => {
                    self.error(
                        "Unclosed object",
                        "No closing brace was found for this JSON object.",
                        self.range(open),
                    );
                    return None;
                }
                TokenKind::BrackC => {
                    let tok = self.read();
                    self.error(
                        "Mismatched braces",
                        "A JSON object must be closed with a brace, not a bracket.",
                        self.range(tok),
                    );
                    return None;
                }
                TokenKind::BraceC => break,
                _ => {
                    let t = self.read();
                    recover(self, t);
                    self.error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each property definition in an object.",
                        self.range(self.peek()),
                    );
                    return None;
                }
            }
        }
        let close = self.read();
        Some(JsonNode {
            value: JsonValue::Object(props),
            range: self.source.range(open.start, close.end),
        })
    }

    fn parse_array(&mut self) -> Option<JsonNode> {
        let open = self.read();
        let mut values = Vec::new();
        let recover = |p: &mut Self, t| p.recover(t, TokenKind::BrackO, TokenKind::BrackC);
        loop {
            if self.peek().kind == TokenKind::BrackC {
                break;
            }
            if let Ok(v) = self.parse_value() {
                values.push(v);
            }
            match self.peek().kind {
                TokenKind::Comma => {
                    let comma = self.read();
                    if self.peek().kind == TokenKind::BrackC {
                        self.error(
                            "Trailing comma in array",
                            "JSON does not permit a trailing comma after the final value in an array.",
                            self.range(comma),
                        );
                        return None;
                    }
                }
                TokenKind::Colon => {
                    let t = self.read();
                    recover(self, t);
                    self.error(
                        "Invalid array value",
                        "A colon is not used to introduce values in a JSON array.",
                        self.range(self.peek()),
                    );
                    return None;
                }
                TokenKind::Eof => {
                    let t = self.read();
                    recover(self, t);
                    self.error(
                        "Unclosed object",
                        "No closing bracket was found for this JSON array.",
                        self.range(open),
                    );
                    return None;
                }
                TokenKind::BraceC => {
                    let tok = self.read();
                    recover(self, tok);
                    self.error(
                        "Mismatched brackets",
                        "A JSON array must be closed with a bracket, not a brace.",
                        self.range(tok),
                    );
                    return None;
                }
                TokenKind::BrackC => break,
                _ => {
                    let t = self.read();
                    recover(self, t);
                    self.error(
                        "Missing attribute seperator comma",
                        "A comma must appear between each value in an array.",
                        self.range(self.peek()),
                    );
                    return None;
                }
            }
        }
        let close = self.read();
        Some(JsonNode {
            value: JsonValue::Array(values),
            range: self.source.range(open.start, close.end),
        })
    }

    fn parse_number(&mut self) -> Option<JsonNode> {
        let tok = self.read();
        let text = &self.source.text()[tok.start..tok.end];
        if !valid_number(text) {
            self.error(
                "Invalid JSON number",
                "There is a syntax error in the given JSON number.",
                self.range(tok),
            );
            return None;
        }
        Some(JsonNode {
            value: JsonValue::Number(text.to_string()),
            range: self.range(tok),
        })
    }

    fn parse_string(&mut self) -> Option<JsonNode> {
        let tok = self.read();
        let tok_range = self.range(tok);
        match decode_string(&self.source.text()[tok.start..tok.end]) {
            Ok(s) => Some(JsonNode {
                value: JsonValue::String(s),
                range: tok_range,
            }),
            Err(offset) => {
                let at = tok.start + offset;
                let subject = self.source.range(at, at + 1);
                let mut d = Diagnostic::error(
                    "Invalid JSON string",
                    "There is a syntax error in the given JSON string.",
                    subject.clone(),
                );
                if subject != tok_range {
                    d = d.with_context(tok_range);
                }
                self.diags.push(d);
                None
            }
        }
    }

    fn parse_keyword(&mut self) -> Option<JsonNode> {
        let tok = self.read();
        let s = &self.source.text()[tok.start..tok.end];
        let value = match s {
            "true" => JsonValue::Bool(true),
            "false" => JsonValue::Bool(false),
            "null" => JsonValue::Null,
            "undefined" | "NaN" | "Infinity" => {
                let detail = format!("The JavaScript identifier \"{s}\" cannot be used in JSON.");
                self.error("Invalid JSON keyword", detail, self.range(tok));
                return None;
            }
            _ => {
                let dym = match crate::body::name_suggestion(s, ["false", "true", "null"]) {
                    Some(k) => format!(" Did you mean \"{k}\"?"),
                    None => String::new(),
                };
                let detail = format!("\"{s}\" is not a valid JSON keyword.{dym}");
                self.error("Invalid JSON keyword", detail, self.range(tok));
                return None;
            }
        };
        Some(JsonNode {
            value,
            range: self.range(tok),
        })
    }
}
