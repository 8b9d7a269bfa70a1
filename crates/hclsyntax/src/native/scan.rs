//! The scanner: a hand-written equivalent of HCL's Ragel machine
//! (`scan_tokens.rl`), with the same modes (normal, quoted string, heredoc,
//! bare template), the same brace bookkeeping for `${ ... }` sequences and
//! the same heredoc end-marker rule. It never recurses, so deeply nested
//! input cannot overflow the stack here.

use super::token::{is_id_continue, is_id_start, Token, T};

/// What the scanner starts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScanMode {
    /// Configuration or expression source.
    Normal,
    /// A bare template (`ParseTemplate`): literal text with `${` and `%{`.
    Template,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    Main,
    Str,
    Heredoc,
    Bare,
}

struct HeredocInProgress {
    marker: (usize, usize),
    start_of_line: bool,
}

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    p: usize,
    out: Vec<Token>,
    stack: Vec<Frame>,
    braces: i64,
    ret_braces: Vec<i64>,
    heredocs: Vec<HeredocInProgress>,
}

/// Scans `text` from byte `first` (past any BOM) to the end. The result
/// always ends with an `Eof` token.
pub(super) fn scan(text: &str, first: usize, mode: ScanMode) -> Vec<Token> {
    let mut s = Scanner {
        text,
        b: text.as_bytes(),
        p: first,
        out: Vec::with_capacity(text.len() / 4 + 4),
        stack: vec![match mode {
            ScanMode::Normal => Frame::Main,
            ScanMode::Template => Frame::Bare,
        }],
        braces: 0,
        ret_braces: Vec::new(),
        heredocs: Vec::new(),
    };
    while s.p < s.b.len() {
        match *s.stack.last().expect("scanner frame stack never empties") {
            Frame::Main => s.main(),
            Frame::Str => s.string(),
            Frame::Heredoc => s.heredoc(),
            Frame::Bare => s.bare(),
        }
    }
    let end = s.b.len();
    s.out.push(Token::new(T::Eof, end, end));
    s.out
}

impl Scanner<'_> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    fn emit(&mut self, ty: T, len: usize) {
        self.out.push(Token::new(ty, self.p, self.p + len));
        self.p += len;
    }

    fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..).and_then(|s| s.chars().next())
    }

    fn pop_frame(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn main(&mut self) {
        let p = self.p;
        let c = self.b[p];
        let n = self.at(p + 1);
        match c {
            b' ' | b'\t' => {
                let mut q = p;
                while matches!(self.at(q), b' ' | b'\t') {
                    q += 1;
                }
                self.p = q;
            }
            b'0'..=b'9' => {
                let len = self.number_len(p);
                self.emit(T::NumberLit, len);
            }
            b'#' => {
                let len = self.line_comment_len(p);
                self.emit(T::Comment, len);
            }
            b'/' if n == b'/' => {
                let len = self.line_comment_len(p);
                self.emit(T::Comment, len);
            }
            b'/' if n == b'*' => match self.text[p + 2..].find("*/") {
                Some(i) => self.emit(T::Comment, i + 4),
                None => self.emit(T::Slash, 1),
            },
            b'\n' => self.emit(T::Newline, 1),
            b'\r' if n == b'\n' => self.emit(T::Newline, 2),
            b'=' if n == b'=' => self.emit(T::EqualOp, 2),
            b'=' if n == b'>' => self.emit(T::FatArrow, 2),
            b'=' => self.emit(T::Equal, 1),
            b'!' if n == b'=' => self.emit(T::NotEqual, 2),
            b'!' => self.emit(T::Bang, 1),
            b'>' if n == b'=' => self.emit(T::GreaterThanEq, 2),
            b'>' => self.emit(T::GreaterThan, 1),
            b'<' if n == b'=' => self.emit(T::LessThanEq, 2),
            b'<' if n == b'<' => {
                if !self.heredoc_start() {
                    self.emit(T::LessThan, 1);
                }
            }
            b'<' => self.emit(T::LessThan, 1),
            b'&' if n == b'&' => self.emit(T::And, 2),
            b'&' => self.emit(T::BitwiseAnd, 1),
            b'|' if n == b'|' => self.emit(T::Or, 2),
            b'|' => self.emit(T::BitwiseOr, 1),
            b':' if n == b':' => self.emit(T::DoubleColon, 2),
            b':' => self.emit(T::Colon, 1),
            b'.' if n == b'.' && self.at(p + 2) == b'.' => self.emit(T::Ellipsis, 3),
            b'.' => self.emit(T::Dot, 1),
            b'~' if n == b'}' => {
                // A `~}` always ends a template sequence, even when the
                // braces do not balance: the parser reports the misuse.
                self.emit(T::TemplateSeqEnd, 2);
                self.braces -= 1;
                if self.ret_braces.last() == Some(&(self.braces + 1)) {
                    self.ret_braces.pop();
                    self.pop_frame();
                }
            }
            b'~' => self.emit(T::BitwiseNot, 1),
            b'{' => {
                self.emit(T::OBrace, 1);
                self.braces += 1;
            }
            b'}' => {
                if self.ret_braces.last() == Some(&self.braces) {
                    self.emit(T::TemplateSeqEnd, 1);
                    self.braces -= 1;
                    self.ret_braces.pop();
                    self.pop_frame();
                } else {
                    self.emit(T::CBrace, 1);
                    self.braces -= 1;
                }
            }
            b'"' => {
                self.emit(T::OQuote, 1);
                self.stack.push(Frame::Str);
            }
            b'[' => self.emit(T::OBrack, 1),
            b']' => self.emit(T::CBrack, 1),
            b'(' => self.emit(T::OParen, 1),
            b')' => self.emit(T::CParen, 1),
            b',' => self.emit(T::Comma, 1),
            b'*' => self.emit(T::Star, 1),
            b'/' => self.emit(T::Slash, 1),
            b'%' => self.emit(T::Percent, 1),
            b'+' => self.emit(T::Plus, 1),
            b'-' => self.emit(T::Minus, 1),
            b'?' => self.emit(T::Question, 1),
            b'^' => self.emit(T::BitwiseXor, 1),
            b';' => self.emit(T::Semicolon, 1),
            b'`' => self.emit(T::Backtick, 1),
            b'\'' => self.emit(T::Apostrophe, 1),
            _ => {
                let ch = self.char_at(p).expect("scanner stays on char boundaries");
                if is_id_start(ch) {
                    let len = self.ident_len(p);
                    self.emit(T::Ident, len);
                } else {
                    self.emit(T::Invalid, ch.len_utf8());
                }
            }
        }
    }

    /// `digit (digit | '.' | [eE][+-]?digit)*`, not ending in a dot.
    fn number_len(&self, p: usize) -> usize {
        let mut q = p + 1;
        let mut last_good = q;
        loop {
            match self.at(q) {
                b'0'..=b'9' => {
                    q += 1;
                    last_good = q;
                }
                b'.' => q += 1,
                b'e' | b'E' => {
                    let mut r = q + 1;
                    if matches!(self.at(r), b'+' | b'-') {
                        r += 1;
                    }
                    if self.at(r).is_ascii_digit() {
                        q = r + 1;
                        last_good = q;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        last_good - p
    }

    fn line_comment_len(&self, p: usize) -> usize {
        match self.b[p..].iter().position(|&c| c == b'\n') {
            Some(i) => i + 1,
            None => self.b.len() - p,
        }
    }

    fn ident_len(&self, p: usize) -> usize {
        let mut q = p;
        let mut first = true;
        while let Some(ch) = self.char_at(q) {
            let ok = if first {
                is_id_start(ch)
            } else {
                is_id_continue(ch)
            };
            if !ok {
                break;
            }
            first = false;
            q += ch.len_utf8();
        }
        q - p
    }

    /// `<<` `-`? identifier newline: opens a heredoc. Returns false (and
    /// consumes nothing) when the introducer is incomplete.
    fn heredoc_start(&mut self) -> bool {
        let p = self.p;
        let mut q = p + 2;
        if self.at(q) == b'-' {
            q += 1;
        }
        match self.char_at(q) {
            Some(ch) if is_id_start(ch) => {}
            _ => return false,
        }
        let ilen = self.ident_len(q);
        let marker = (q, q + ilen);
        let mut r = q + ilen;
        if self.at(r) == b'\r' {
            r += 1;
        }
        if self.at(r) != b'\n' {
            return false;
        }
        r += 1;
        self.emit(T::OHeredoc, r - p);
        self.heredocs.push(HeredocInProgress {
            marker,
            start_of_line: true,
        });
        self.stack.push(Frame::Heredoc);
        true
    }

    /// `${`/`%{` (with optional `~`) at the current position: opens a
    /// template sequence and switches to normal scanning inside it.
    fn template_seq_start(&mut self) -> bool {
        let ty = match (self.b[self.p], self.at(self.p + 1)) {
            (b'$', b'{') => T::TemplateInterp,
            (b'%', b'{') => T::TemplateControl,
            _ => return false,
        };
        let len = if self.at(self.p + 2) == b'~' { 3 } else { 2 };
        self.emit(ty, len);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        if let Some(h) = self.heredocs.last_mut() {
            h.start_of_line = false;
        }
        self.stack.push(Frame::Main);
        true
    }

    /// `$` or `%` not starting a sequence: the length of the literal it
    /// forms (`$${`/`%%{` escapes are three or four bytes).
    fn not_seq_len(&self) -> usize {
        let c = self.b[self.p];
        if self.at(self.p + 1) == c && self.at(self.p + 2) == b'{' {
            if self.at(self.p + 3) == b'~' {
                4
            } else {
                3
            }
        } else {
            1
        }
    }

    fn string(&mut self) {
        if self.template_seq_start() {
            return;
        }
        let p = self.p;
        match self.b[p] {
            b'"' => {
                self.emit(T::CQuote, 1);
                self.pop_frame();
            }
            b'\r' | b'\n' => {
                let mut q = p;
                while matches!(self.at(q), b'\r' | b'\n') {
                    q += 1;
                }
                self.emit(T::QuotedNewline, q - p);
            }
            b'$' | b'%' => {
                let len = self.not_seq_len();
                self.emit(T::QuotedLit, len);
            }
            _ => {
                let mut q = p;
                loop {
                    match self.at(q) {
                        b'\\' => match self.char_at(q + 1) {
                            Some(c) if c != '\r' && c != '\n' => q += 1 + c.len_utf8(),
                            _ => break,
                        },
                        0 if q >= self.b.len() => break,
                        b'$' | b'%' | b'"' | b'\r' | b'\n' => break,
                        _ => q += 1,
                    }
                }
                if q == p {
                    // A backslash at the end of a line or of the input.
                    self.emit(T::Invalid, 1);
                } else {
                    self.emit(T::QuotedLit, q - p);
                }
            }
        }
    }

    /// A run of literal text up to `$`, `%` or a newline (a lone `\r`
    /// counts as text).
    fn literal_run_end(&self, p: usize) -> usize {
        let mut q = p;
        while q < self.b.len() {
            match self.b[q] {
                b'$' | b'%' | b'\n' => break,
                b'\r' if self.at(q + 1) == b'\n' => break,
                _ => q += 1,
            }
        }
        q
    }

    fn newline_len(&self, q: usize) -> usize {
        match (self.at(q), self.at(q + 1)) {
            (b'\n', _) => 1,
            (b'\r', b'\n') => 2,
            _ => 0,
        }
    }

    fn heredoc(&mut self) {
        if self.template_seq_start() {
            return;
        }
        let p = self.p;
        let (q, nl) = match self.b[p] {
            b'$' | b'%' => (p + self.not_seq_len(), 0),
            _ => {
                let q = self.literal_run_end(p);
                (q, self.newline_len(q))
            }
        };
        if nl == 0 {
            if let Some(h) = self.heredocs.last_mut() {
                h.start_of_line = false;
            }
            self.emit(T::StringLit, q - p);
            return;
        }
        let te = q + nl;
        let top = self
            .heredocs
            .last_mut()
            .expect("heredoc frame has a heredoc");
        if top.start_of_line {
            let (ms, me) = top.marker;
            if self.text[p..te].trim() == &self.text[ms..me] {
                self.heredocs.pop();
                self.emit(T::CHeredoc, q - p);
                self.emit(T::Newline, nl);
                self.pop_frame();
                return;
            }
        }
        top.start_of_line = true;
        self.emit(T::StringLit, te - p);
    }

    fn bare(&mut self) {
        if self.template_seq_start() {
            return;
        }
        let p = self.p;
        let q = match self.b[p] {
            b'$' | b'%' => p + self.not_seq_len(),
            _ => {
                let q = self.literal_run_end(p);
                q + self.newline_len(q)
            }
        };
        self.emit(T::StringLit, q - p);
    }
}
