//! A small JSON tree written the way Go's `encoding/json` writes it:
//! compact, object members in the order given (struct fields in
//! declaration order, Go maps sorted by key), HTML-safe string escapes, and
//! numbers as the exact decimal text cty gives them. `serde_json::Value`
//! cannot carry cty's 512-bit numbers without loss, hence this tree.

use cty::json::quote_string;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number's exact decimal text.
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in output order.
    Object(Vec<(String, Json)>),
    /// Text that is already compact JSON (a cty type's JSON form).
    Raw(String),
}

impl Json {
    /// A string value.
    pub fn str(s: impl Into<String>) -> Json {
        Json::String(s.into())
    }

    /// An empty object (`{}`).
    pub fn empty_object() -> Json {
        Json::Object(Vec::new())
    }

    /// Whether this is `{}` or `[]`, which `omitempty` drops for Go maps
    /// and slices.
    pub fn is_empty_collection(&self) -> bool {
        match self {
            Json::Array(a) => a.is_empty(),
            Json::Object(o) => o.is_empty(),
            _ => false,
        }
    }

    /// Compact text, as `json.Marshal`.
    pub fn to_compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// Indented text, as `json.MarshalIndent(v, "", "  ")`: for reading
    /// documents in tests and snapshots.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, 0);
        out
    }

    fn write_pretty(&self, out: &mut String, depth: usize) {
        let pad = |out: &mut String, d: usize| {
            out.push('\n');
            out.push_str(&"  ".repeat(d));
        };
        match self {
            Json::Array(items) if !items.is_empty() => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    item.write_pretty(out, depth + 1);
                }
                pad(out, depth);
                out.push(']');
            }
            Json::Object(members) if !members.is_empty() => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    out.push_str(&quote_string(k));
                    out.push_str(": ");
                    v.write_pretty(out, depth + 1);
                }
                pad(out, depth);
                out.push('}');
            }
            other => other.write(out),
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(true) => out.push_str("true"),
            Json::Bool(false) => out.push_str("false"),
            Json::Number(n) | Json::Raw(n) => out.push_str(n),
            Json::String(s) => out.push_str(&quote_string(s)),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&quote_string(k));
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Reads the first JSON value at the start of `s`, as Go's `json.Decoder`
/// with `UseNumber` does when the human renderer checks whether a string
/// holds JSON: numbers keep their text, later duplicate keys win, and
/// whatever follows the first value is not looked at.
pub fn parse_json_prefix(s: &str) -> Option<Json> {
    let mut p = Parser {
        b: s.as_bytes(),
        s,
        i: 0,
    };
    p.value(0)
}

/// Nesting beyond this is not worth rendering as JSON (Go's decoder stops
/// at 10,000 levels).
const MAX_JSON_DEPTH: usize = 10_000;

struct Parser<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> Option<()> {
        if self.s[self.i..].starts_with(lit) {
            self.i += lit.len();
            Some(())
        } else {
            None
        }
    }

    fn value(&mut self, depth: usize) -> Option<Json> {
        if depth > MAX_JSON_DEPTH {
            return None;
        }
        self.ws();
        match *self.b.get(self.i)? {
            b'{' => {
                self.i += 1;
                let mut members: Vec<(String, Json)> = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Some(Json::Object(members));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    self.ws();
                    self.eat(":")?;
                    let v = self.value(depth + 1)?;
                    match members.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = v,
                        None => members.push((key, v)),
                    }
                    self.ws();
                    match *self.b.get(self.i)? {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            return Some(Json::Object(members));
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Some(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match *self.b.get(self.i)? {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            return Some(Json::Array(items));
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string().map(Json::String),
            b't' => self.eat("true").map(|_| Json::Bool(true)),
            b'f' => self.eat("false").map(|_| Json::Bool(false)),
            b'n' => self.eat("null").map(|_| Json::Null),
            _ => self.number(),
        }
    }

    fn number(&mut self) -> Option<Json> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let from = p.i;
            while p.b.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i > from
        };
        if self.b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        if self.b.get(self.i) == Some(&b'0') {
            self.i += 1;
        } else if !digits(self) {
            return None;
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            if !digits(self) {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.b.get(self.i) {
            self.i += 1;
            if let Some(b'+' | b'-') = self.b.get(self.i) {
                self.i += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        Some(Json::Number(self.s[start..self.i].to_string()))
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.s.get(self.i..self.i + 4)?;
        let v = u32::from_str_radix(h, 16).ok()?;
        self.i += 4;
        Some(v)
    }

    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out = String::new();
        loop {
            let c = self.s[self.i..].chars().next()?;
            self.i += c.len_utf8();
            match c {
                '"' => return Some(out),
                '\\' => {
                    let e = *self.b.get(self.i)?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi)
                                && self.s[self.i..].starts_with("\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                match self.hex4() {
                                    Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                    }
                                    _ => {
                                        self.i = save;
                                        0xFFFD
                                    }
                                }
                            } else {
                                hi
                            };
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                        }
                        _ => return None,
                    }
                }
                c if (c as u32) < 0x20 => return None,
                c => out.push(c),
            }
        }
    }
}

/// Builds a JSON object member by member, with Go's `omitempty` rules
/// available per member.
#[derive(Default)]
pub struct ObjectBuilder(Vec<(String, Json)>);

impl ObjectBuilder {
    pub fn new() -> ObjectBuilder {
        ObjectBuilder(Vec::new())
    }

    /// A member that is always written.
    pub fn field(mut self, key: &str, value: Json) -> ObjectBuilder {
        self.0.push((key.to_string(), value));
        self
    }

    /// A member written only when present (`omitempty` on a pointer or
    /// raw message).
    pub fn opt(self, key: &str, value: Option<Json>) -> ObjectBuilder {
        match value {
            Some(v) => self.field(key, v),
            None => self,
        }
    }

    /// A string member dropped when empty (`omitempty` on a string).
    pub fn nonempty_str(self, key: &str, value: &str) -> ObjectBuilder {
        if value.is_empty() {
            self
        } else {
            self.field(key, Json::str(value))
        }
    }

    /// A map or slice member dropped when empty (`omitempty`).
    pub fn nonempty(self, key: &str, value: Json) -> ObjectBuilder {
        if value.is_empty_collection() {
            self
        } else {
            self.field(key, value)
        }
    }

    /// A bool member dropped when false (`omitempty` on a bool).
    pub fn true_only(self, key: &str, value: bool) -> ObjectBuilder {
        if value {
            self.field(key, Json::Bool(true))
        } else {
            self
        }
    }

    pub fn build(self) -> Json {
        Json::Object(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_json_prefix_like_go() {
        let j = parse_json_prefix(r#"{"b": [1.50, true, null], "a": "x\u00e9", "b": 2} trailing"#);
        assert_eq!(j.unwrap().to_compact(), r#"{"b":2,"a":"xé"}"#);
        assert_eq!(
            parse_json_prefix("[1e3, -0.5]").unwrap().to_compact(),
            "[1e3,-0.5]"
        );
        assert!(parse_json_prefix("{not json").is_none());
        assert!(parse_json_prefix("[01]").is_none());
    }

    #[test]
    fn compact_like_go() {
        let j = ObjectBuilder::new()
            .field("a", Json::Array(vec![Json::Null, Json::Bool(true)]))
            .field("b<", Json::str("x&y\n"))
            .field("n", Json::Number("1.5".into()))
            .nonempty("skipped", Json::empty_object())
            .nonempty_str("empty", "")
            .true_only("f", false)
            .build();
        assert_eq!(
            j.to_compact(),
            r#"{"a":[null,true],"b\u003c":"x\u0026y\n","n":1.5}"#
        );
    }
}
