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
        self.skip_frames(vec![Frame::Close(closer)]);
    }

    /// Skips nested brackets and strings with an explicit stack, so that
    /// deeply nested input cannot overflow the call stack.
    fn skip_frames(&mut self, mut stack: Vec<Frame>) {
        while let Some(top) = stack.last().copied() {
            let Some(c) = self.peek() else { break };
            match top {
                Frame::Str => match c {
                    b'\\' => self.i += 2,
                    b'"' => {
                        self.i += 1;
                        stack.pop();
                    }
                    // An unterminated string ends at the line's end.
                    b'\n' => {
                        stack.pop();
                    }
                    b'$' | b'%' if self.at(b"$${") || self.at(b"%%{") => self.i += 3,
                    b'$' | b'%' if self.b.get(self.i + 1) == Some(&b'{') => {
                        self.i += 2;
                        stack.push(Frame::Close(b'}'));
                    }
                    _ => self.i += 1,
                },
                Frame::Close(closer) => match c {
                    _ if c == closer => {
                        self.i += 1;
                        stack.pop();
                    }
                    b'{' => {
                        self.i += 1;
                        stack.push(Frame::Close(b'}'));
                    }
                    b'[' => {
                        self.i += 1;
                        stack.push(Frame::Close(b']'));
                    }
                    b'(' => {
                        self.i += 1;
                        stack.push(Frame::Close(b')'));
                    }
                    b'"' => {
                        self.i += 1;
                        stack.push(Frame::Str);
                    }
                    b'<' if self.at(b"<<") => self.skip_heredoc(),
                    b'#' => self.skip_to_newline(),
                    b'/' if self.at(b"//") => self.skip_to_newline(),
                    b'/' if self.at(b"/*") => self.skip_block_comment(),
                    _ => self.i += 1,
                },
            }
        }
        self.i = self.i.min(self.b.len());
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
        self.skip_frames(vec![Frame::Str]);
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

/// What the scanner is inside of while skipping.
#[derive(Debug, Clone, Copy)]
enum Frame {
    /// Brackets, waiting for this closing byte.
    Close(u8),
    /// A quoted string.
    Str,
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

pub(crate) use hclsyntax::go_quote;

/// The path of object keys and array indexes (`resource.aws_instance.web`)
/// to the innermost object or array containing `offset`, found in one
/// forward scan with an explicit stack (no recursion, so any nesting depth
/// is safe). Gives up with `None` when the input is malformed before the
/// offset is reached.
fn json_context(src: &[u8], offset: isize) -> Option<String> {
    /// One open object or array and the step to the value being read in it.
    enum Frame {
        Object { key: Option<String>, want_key: bool },
        Array { index: usize },
    }
    let path = |stack: &[Frame]| -> String {
        let mut out = String::new();
        for f in &stack[..stack.len().saturating_sub(1)] {
            match f {
                Frame::Object { key, .. } => {
                    out.push('.');
                    out.push_str(key.as_deref().unwrap_or_default());
                }
                Frame::Array { index } => out.push_str(&format!("[{index}]")),
            }
        }
        out.strip_prefix('.').unwrap_or(&out).to_owned()
    };
    if offset < 0 {
        return None;
    }
    let offset = offset as usize;
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        if i == offset {
            match c {
                b'{' => stack.push(Frame::Object {
                    key: None,
                    want_key: true,
                }),
                b'[' => stack.push(Frame::Array { index: 0 }),
                _ => {}
            }
            return Some(path(&stack));
        }
        match c {
            b'{' => stack.push(Frame::Object {
                key: None,
                want_key: true,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
                if stack.is_empty() {
                    return None;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index }) => *index += 1,
                Some(Frame::Object { want_key, .. }) => *want_key = true,
                None => return None,
            },
            b':' => {
                if let Some(Frame::Object { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < src.len() && src[i] != b'"' {
                    if i == offset {
                        return Some(path(&stack));
                    }
                    i += if src[i] == b'\\' { 2 } else { 1 };
                }
                if i >= src.len() {
                    return None;
                }
                if i == offset {
                    return Some(path(&stack));
                }
                if let Some(Frame::Object {
                    key,
                    want_key: true,
                }) = stack.last_mut()
                {
                    let raw = std::str::from_utf8(&src[start..=i]).ok()?;
                    *key = Some(serde_json::from_str(raw).ok()?);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
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
