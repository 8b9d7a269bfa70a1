//! The "in <context>" of a snippet: HCL's `hcled.ContextString`.
//!
//! For native syntax that is the header of the top-level block containing
//! the offset (`resource "a" "b"`; nothing at top level or before the first
//! byte of a block). For JSON syntax it is the dotted path of the object and
//! array properties containing the offset (`resource.a.b`). Both are computed
//! from the source text alone, tolerating syntax errors, so that a snippet can
//! be built for any file whatever state it is in.

/// The context string for byte `offset` of a file named `filename` with
/// text `text`; `None` where HCL would return the empty string.
pub fn context_string(filename: &str, text: &str, offset: isize) -> Option<String> {
    let s = if filename.ends_with(".json") {
        json_context(text.as_bytes(), offset)
    } else {
        native_context(text.as_bytes(), offset)
    };
    s.filter(|s| !s.is_empty())
}

/// A top-level block of a native-syntax file: its header and byte span.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TopBlock {
    start: usize,
    end: usize,
    type_name: String,
    labels: Vec<String>,
}

fn native_context(src: &[u8], offset: isize) -> Option<String> {
    let block = top_level_blocks(src)
        .into_iter()
        .find(|b| offset >= b.start as isize && offset < b.end as isize)?;
    let mut out = block.type_name;
    for l in &block.labels {
        out.push(' ');
        out.push_str(&go_quote(l));
    }
    Some(out)
}

fn top_level_blocks(src: &[u8]) -> Vec<TopBlock> {
    let mut sc = Scanner { b: src, i: 0 };
    let mut blocks = Vec::new();
    loop {
        sc.skip_trivia(true);
        let Some(c) = sc.peek() else { break };
        if !is_ident_start(c) {
            sc.skip_line();
            continue;
        }
        let start = sc.i;
        let type_name = sc.ident();
        let mut labels = Vec::new();
        loop {
            sc.skip_trivia(false);
            match sc.peek() {
                Some(b'"') => labels.push(sc.quoted_label()),
                Some(c) if is_ident_start(c) => labels.push(sc.ident()),
                Some(b'{') => {
                    sc.i += 1;
                    sc.skip_until(b'}');
                    blocks.push(TopBlock {
                        start,
                        end: sc.i,
                        type_name,
                        labels,
                    });
                    break;
                }
                Some(b'=') => {
                    sc.i += 1;
                    sc.skip_expression_line();
                    break;
                }
                _ => {
                    sc.skip_line();
                    break;
                }
            }
        }
    }
    blocks
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c >= 0x80
}

/// A forgiving scanner over HCL native syntax that knows just enough
/// (strings, templates, heredocs, comments, brackets) to find where things
/// end.
struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn at(&self, s: &[u8]) -> bool {
        self.b[self.i..].starts_with(s)
    }

    /// Skips spaces and comments; newlines too when `newlines`.
    fn skip_trivia(&mut self, newlines: bool) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' if newlines => self.i += 1,
                b'#' => self.skip_to_newline(),
                b'/' if self.at(b"//") => self.skip_to_newline(),
                b'/' if self.at(b"/*") => self.skip_block_comment(),
                _ => break,
            }
        }
    }

    fn skip_to_newline(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.i += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.i += 2;
        while self.i < self.b.len() && !self.at(b"*/") {
            self.i += 1;
        }
        self.i = (self.i + 2).min(self.b.len());
    }

    fn skip_line(&mut self) {
        self.skip_expression_line();
    }

    fn ident(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(is_ident_char) {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.b[start..self.i]).into_owned()
    }

    /// A quoted block label, decoded as HCL decodes string literals.
    fn quoted_label(&mut self) -> String {
        self.i += 1;
        let start = self.i;
        while let Some(c) = self.peek() {
            match c {
                b'\\' => self.i += 2,
                b'"' | b'\n' => break,
                _ => self.i += 1,
            }
        }
        let end = self.i.min(self.b.len());
        if self.peek() == Some(b'"') {
            self.i += 1;
        }
        decode_hcl_string(&String::from_utf8_lossy(&self.b[start..end]))
    }

    /// Skips nested constructs up to and including the `closer` matching
    /// an opener already consumed; stops at the end of input.
    fn skip_until(&mut self, closer: u8) {
        while let Some(c) = self.peek() {
            match c {
                _ if c == closer => {
                    self.i += 1;
                    return;
                }
                b'{' => {
                    self.i += 1;
                    self.skip_until(b'}');
                }
                b'[' => {
                    self.i += 1;
                    self.skip_until(b']');
                }
                b'(' => {
                    self.i += 1;
                    self.skip_until(b')');
                }
                b'"' => self.skip_string(),
                b'<' if self.at(b"<<") => self.skip_heredoc(),
                b'#' => self.skip_to_newline(),
                b'/' if self.at(b"//") => self.skip_to_newline(),
                b'/' if self.at(b"/*") => self.skip_block_comment(),
                _ => self.i += 1,
            }
        }
    }

    /// Skips the rest of an expression that ends at a newline outside any
    /// brackets.
    fn skip_expression_line(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b'\n' => {
                    self.i += 1;
                    return;
                }
                b'{' => {
                    self.i += 1;
                    self.skip_until(b'}');
                }
                b'[' => {
                    self.i += 1;
                    self.skip_until(b']');
                }
                b'(' => {
                    self.i += 1;
                    self.skip_until(b')');
                }
                b'"' => self.skip_string(),
                b'<' if self.at(b"<<") => self.skip_heredoc(),
                b'#' => self.skip_to_newline(),
                b'/' if self.at(b"//") => self.skip_to_newline(),
                b'/' if self.at(b"/*") => self.skip_block_comment(),
                _ => self.i += 1,
            }
        }
    }

    /// Skips a quoted template, including `${ … }` / `%{ … }` sequences.
    fn skip_string(&mut self) {
        self.i += 1;
        while let Some(c) = self.peek() {
            match c {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return;
                }
                b'\n' => return,
                b'$' | b'%' if self.at(b"$${") || self.at(b"%%{") => self.i += 3,
                b'$' | b'%' if self.b.get(self.i + 1) == Some(&b'{') => {
                    self.i += 2;
                    self.skip_until(b'}');
                }
                _ => self.i += 1,
            }
        }
        self.i = self.i.min(self.b.len());
    }

    /// Skips `<<ID` / `<<-ID` and the lines up to the one holding just `ID`.
    fn skip_heredoc(&mut self) {
        let save = self.i;
        self.i += 2;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let id = self.ident();
        if id.is_empty() {
            self.i = save + 2;
            return;
        }
        self.skip_to_newline();
        while self.i < self.b.len() {
            self.i += 1; // the newline
            let line_start = self.i;
            self.skip_to_newline();
            let line = String::from_utf8_lossy(&self.b[line_start..self.i]);
            if line.trim() == id {
                return;
            }
        }
    }
}

/// Decodes the escapes of an HCL quoted string literal.
fn decode_hcl_string(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some(u @ ('u' | 'U')) => {
                    let n = if u == 'u' { 4 } else { 8 };
                    let hex: String = chars.by_ref().take(n).collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(ch) => out.push(ch),
                        None => {
                            out.push('\\');
                            out.push(u);
                            out.push_str(&hex);
                        }
                    }
                }
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            '$' | '%' if chars.peek() == Some(&c) => {
                // `$${` and `%%{` are literal `${` / `%{`.
                let mut look = chars.clone();
                look.next();
                if look.peek() == Some(&'{') {
                    chars.next();
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Go's `strconv.Quote` (what `%q` prints).
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                if (c as u32) < 0x10000 {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON value with the byte span HCL's JSON parser gives it.
enum JsonNode {
    Object {
        start: usize,
        end: usize,
        attrs: Vec<(String, JsonNode)>,
    },
    Array {
        start: usize,
        end: usize,
        values: Vec<JsonNode>,
    },
    Scalar,
}

impl JsonNode {
    fn contains(&self, offset: isize) -> bool {
        match self {
            JsonNode::Object { start, end, .. } | JsonNode::Array { start, end, .. } => {
                offset >= *start as isize && offset < *end as isize
            }
            JsonNode::Scalar => false,
        }
    }
}

fn json_context(src: &[u8], offset: isize) -> Option<String> {
    let mut p = JsonParser { b: src, i: 0 };
    let root = p.value()?;
    let mut steps = Vec::new();
    let mut node = &root;
    loop {
        let next = match node {
            JsonNode::Object { attrs, .. } => attrs
                .iter()
                .find(|(_, v)| v.contains(offset))
                .map(|(k, v)| (format!(".{k}"), v)),
            JsonNode::Array { values, .. } => values
                .iter()
                .enumerate()
                .find(|(_, v)| v.contains(offset))
                .map(|(i, v)| (format!("[{i}]"), v)),
            JsonNode::Scalar => None,
        };
        match next {
            Some((step, v)) => {
                steps.push(step);
                node = v;
            }
            None => break,
        }
    }
    let joined = steps.concat();
    Some(joined.strip_prefix('.').unwrap_or(&joined).to_owned())
}

/// A small JSON reader that keeps the spans of objects and arrays; it gives
/// up (returning what it has) on malformed input.
struct JsonParser<'a> {
    b: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Option<JsonNode> {
        self.ws();
        match *self.b.get(self.i)? {
            b'{' => {
                let start = self.i;
                self.i += 1;
                let mut attrs = Vec::new();
                loop {
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b'}') => {
                            self.i += 1;
                            break;
                        }
                        Some(b',') => self.i += 1,
                        Some(b'"') => {
                            let key = self.string()?;
                            self.ws();
                            if self.b.get(self.i) != Some(&b':') {
                                return None;
                            }
                            self.i += 1;
                            let v = self.value()?;
                            attrs.push((key, v));
                        }
                        _ => return None,
                    }
                }
                Some(JsonNode::Object {
                    start,
                    end: self.i,
                    attrs,
                })
            }
            b'[' => {
                let start = self.i;
                self.i += 1;
                let mut values = Vec::new();
                loop {
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b']') => {
                            self.i += 1;
                            break;
                        }
                        Some(b',') => self.i += 1,
                        Some(_) => values.push(self.value()?),
                        None => return None,
                    }
                }
                Some(JsonNode::Array {
                    start,
                    end: self.i,
                    values,
                })
            }
            b'"' => {
                self.string()?;
                Some(JsonNode::Scalar)
            }
            _ => {
                let start = self.i;
                while self
                    .b
                    .get(self.i)
                    .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
                {
                    self.i += 1;
                }
                (self.i > start).then_some(JsonNode::Scalar)
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.i += 1;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    let raw = std::str::from_utf8(&self.b[start..self.i]).ok()?;
                    return serde_json::from_str(raw).ok();
                }
                _ => self.i += 1,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"# comment { not a block
variable "x" {
  default = "}" # brace in a string
}

locals {
  a = {
    b = "${var.x}"
  }
  h = <<EOT
}
EOT
}

resource aws_instance "web\"1" {
  tags = { Name = "w" }
}
top = "attr { ignored"
"#;

    fn ctx(offset: usize) -> Option<String> {
        context_string("main.tf", SRC, offset as isize)
    }

    #[test]
    fn native_context_is_the_top_level_block_header() {
        let at = |needle: &str| SRC.find(needle).unwrap();
        assert_eq!(ctx(at("default")), Some(r#"variable "x""#.into()));
        assert_eq!(ctx(at("${var.x}")), Some("locals".into()));
        assert_eq!(ctx(at("EOT\n}\n\nresource") + 4), Some("locals".into()));
        assert_eq!(
            ctx(at("tags")),
            Some(r#"resource "aws_instance" "web\"1""#.into())
        );
        assert_eq!(ctx(at("top =")), None);
        assert_eq!(ctx(0), None);
        // The block starts at its type name; the byte before it is outside.
        assert_eq!(ctx(at("locals") - 1), None);
        assert_eq!(ctx(at("locals")), Some("locals".into()));
        assert_eq!(context_string("main.tf", SRC, -1), None);
    }

    #[test]
    fn unclosed_block_runs_to_the_end() {
        let src = "module \"m\" {\n  source = \"./m\"\n";
        assert_eq!(context_string("m.tf", src, 20), Some("module \"m\"".into()));
    }

    #[test]
    fn json_context_is_a_property_path() {
        let src = r#"{"resource": {"aws_instance": {"web": {"ami": "x", "list": [{"a": 1}]}}}}"#;
        let at = src.find("\"x\"").unwrap() as isize;
        assert_eq!(
            context_string("main.tf.json", src, at),
            Some("resource.aws_instance.web".into())
        );
        let at = src.find("\"a\"").unwrap() as isize;
        assert_eq!(
            context_string("main.tf.json", src, at),
            Some("resource.aws_instance.web.list[0]".into())
        );
        assert_eq!(context_string("main.tf.json", src, 0), None);
    }

    #[test]
    fn go_quote_escapes_like_strconv() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}é"), r#""a\"b\\c\n\x01é""#);
    }
}
