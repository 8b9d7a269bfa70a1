//! Tokens of the native syntax, as HCL's scanner (`scan_tokens.rl`) emits
//! them, and the position bookkeeping that turns byte offsets into ranges.

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

use crate::pos::{Pos, Range};

/// A token type; the names follow `hclsyntax.TokenType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum T {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    Star,
    Slash,
    Plus,
    Minus,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,
    And,
    Or,
    Bang,
    Dot,
    Comma,
    Ellipsis,
    FatArrow,
    Question,
    Colon,
    DoubleColon,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    /// A literal chunk of a quoted string (may contain backslash escapes).
    QuotedLit,
    /// A literal chunk of a heredoc or bare template (no backslash escapes).
    StringLit,
    NumberLit,
    Ident,
    Comment,
    Newline,
    Eof,
    BitwiseAnd,
    BitwiseOr,
    BitwiseNot,
    BitwiseXor,
    Apostrophe,
    Backtick,
    Semicolon,
    Invalid,
    QuotedNewline,
}

/// A scanned token: its type and byte span in the scanned text. Line and
/// column positions are computed only for the tokens whose ranges end up
/// in the tree or in a diagnostic (see [`Locator`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Token {
    pub ty: T,
    start: u32,
    end: u32,
    /// Index of the line the token starts on (see [`Locator::assign_lines`]),
    /// so that ranges need no search of the line index.
    line: u32,
}

impl Token {
    /// A token spanning `start..end`; offsets fit in `u32` because
    /// [`scannable_len`] bounds the text scanned.
    pub fn new(ty: T, start: usize, end: usize) -> Token {
        debug_assert!(end <= u32::MAX as usize);
        Token {
            ty,
            start: start as u32,
            end: end as u32,
            line: 0,
        }
    }

    pub fn start(&self) -> usize {
        self.start as usize
    }

    pub fn end(&self) -> usize {
        self.end as usize
    }
}

/// How much of `text` the scanner reads: all of it, unless it is too large
/// for token offsets (4 GiB), in which case the longest prefix that fits.
pub(super) fn scannable_len(text: &str) -> usize {
    let mut len = text.len().min(u32::MAX as usize);
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    len
}

/// Byte offsets where the lines of `text` start (always begins with 0).
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::with_capacity(text.len() / 32 + 1);
    starts.push(0);
    starts.extend(
        text.bytes()
            .enumerate()
            .filter(|(_, b)| *b == b'\n')
            .map(|(i, _)| i + 1),
    );
    starts
}

/// Turns byte offsets of the scanned text into line/column positions, as
/// walking the text from byte `first` (at position `base`) would: lines
/// count `\n`, columns count characters.
///
/// `base` is the position of byte `first` of `text` (HCL's `start` for
/// `ParseExpression`); columns count characters, as [`crate::SourceFile`]
/// does. Lookups use a line index, starting from the line of the previous
/// lookup, since the parser mostly moves forward.
pub(super) struct Locator<'a> {
    text: &'a str,
    first: usize,
    base: Pos,
    filename: Arc<str>,
    lines: Cow<'a, [usize]>,
    hint: Cell<Hint>,
    /// The text from `first` on is ASCII, so a column is a byte distance.
    ascii: bool,
}

/// The previous lookup: its line index, byte offset and the characters
/// between the start of its line and it.
#[derive(Debug, Clone, Copy)]
struct Hint {
    line: usize,
    byte: usize,
    chars: usize,
}

impl<'a> Locator<'a> {
    /// `lines` is the line index of `text` when the caller has one
    /// (a [`crate::SourceFile`]'s); otherwise it is built here.
    pub fn new(
        text: &'a str,
        first: usize,
        base: Pos,
        filename: Arc<str>,
        lines: Option<&'a [usize]>,
    ) -> Locator<'a> {
        let lines = match lines {
            Some(l) => Cow::Borrowed(l),
            None => Cow::Owned(line_starts(text)),
        };
        Locator {
            text,
            first,
            base,
            filename,
            lines,
            ascii: text.as_bytes()[first.min(text.len())..].is_ascii(),
            hint: Cell::new(Hint {
                line: 0,
                byte: first,
                chars: 0,
            }),
        }
    }

    /// Index of the line holding `byte`.
    fn line_of(&self, byte: usize) -> usize {
        let lines = &*self.lines;
        let holds = |i: usize| lines[i] <= byte && lines.get(i + 1).is_none_or(|&n| byte < n);
        let h = self.hint.get().line;
        if holds(h) {
            return h;
        }
        if h + 1 < lines.len() && holds(h + 1) {
            return h + 1;
        }
        lines.partition_point(|&s| s <= byte).saturating_sub(1)
    }

    /// The position of byte offset `byte` (a character boundary at or
    /// after `first`).
    ///
    /// Columns are counted from the previous lookup when it was on the
    /// same line, so walking a long line token by token stays linear.
    pub fn pos(&self, byte: usize) -> Pos {
        let byte = byte.clamp(self.first, self.text.len());
        self.pos_on_line(self.line_of(byte), byte)
    }

    /// Records in each token the line it starts on, walking the tokens
    /// (in source order) and the line index together.
    pub fn assign_lines(&self, toks: &mut [Token]) {
        let lines = &*self.lines;
        let mut cur = 0;
        for t in toks {
            let b = t.start();
            while cur + 1 < lines.len() && lines[cur + 1] <= b {
                cur += 1;
            }
            t.line = u32::try_from(cur).unwrap_or(u32::MAX);
        }
    }

    /// The position of `byte`, at or after the start of line `from`
    /// (the token's own line): found by walking forward over the few lines
    /// a token may span.
    fn pos_from_line(&self, from: usize, byte: usize) -> Pos {
        let byte = byte.clamp(self.first, self.text.len());
        let lines = &*self.lines;
        if from >= lines.len() || lines[from] > byte {
            return self.pos_on_line(self.line_of(byte), byte);
        }
        let mut idx = from;
        while idx + 1 < lines.len() && lines[idx + 1] <= byte {
            idx += 1;
        }
        self.pos_on_line(idx, byte)
    }

    /// The position of `byte`, which is on line `idx`.
    fn pos_on_line(&self, idx: usize, byte: usize) -> Pos {
        let line_start = if idx == 0 {
            self.first
        } else {
            self.lines[idx]
        };
        if self.ascii {
            let chars = byte - line_start;
            self.hint.set(Hint {
                line: idx,
                byte,
                chars,
            });
            return self.position(idx, chars, byte);
        }
        let bytes = self.text.as_bytes();
        let last = self.hint.get();
        // Characters from the start of the line to `byte`.
        let chars = if last.line == idx && last.byte <= byte {
            last.chars + count_chars(&bytes[last.byte..byte])
        } else if last.line == idx {
            last.chars - count_chars(&bytes[byte..last.byte])
        } else {
            count_chars(&bytes[line_start..byte])
        };
        self.hint.set(Hint {
            line: idx,
            byte,
            chars,
        });
        self.position(idx, chars, byte)
    }

    /// The position `chars` characters into line `idx`, at `byte`.
    fn position(&self, idx: usize, chars: usize, byte: usize) -> Pos {
        Pos::at(
            self.base.line as usize + idx,
            if idx == 0 {
                self.base.column as usize + chars
            } else {
                1 + chars
            },
            self.base.offset() + (byte - self.first),
        )
    }

    /// The range of byte offsets `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.filename.clone(), self.pos(start), self.pos(end))
    }

    /// The range of a token.
    pub fn token_range(&self, tok: &Token) -> Range {
        let line = tok.line as usize;
        Range::new(
            self.filename.clone(),
            self.pos_from_line(line, tok.start()),
            self.pos_from_line(line, tok.end()),
        )
    }
}

/// Characters in valid UTF-8 `bytes` (bytes that do not continue one).
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The position `len` bytes into `text` starting from `start` (used for
/// sub-ranges inside one token, such as a bad escape sequence).
pub(super) fn pos_after(start: Pos, text: &str) -> Pos {
    let (mut line, mut column) = (start.line as usize, start.column as usize);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    Pos::at(line, column, start.offset() + text.len())
}

/// Whether `c` may start an identifier (`ID_Start` or `_`).
pub(super) fn is_id_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

/// Whether `c` may continue an identifier (`ID_Continue` or `-`).
pub(super) fn is_id_continue(c: char) -> bool {
    c == '-' || unicode_ident::is_xid_continue(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::native::scan::{scan, ScanMode};

    /// Token ranges found from each token's recorded line must equal the
    /// ones found by searching the line index, for ASCII and non-ASCII
    /// text, tokens spanning lines (heredocs, comments) and a BOM.
    #[test]
    fn token_ranges_from_recorded_lines_match_the_search() {
        let texts = [
            "a = 1\nb = \"x\"\n",
            "\u{feff}héllo = \"wörld ${x}\"\n/* multi\nline */ c = [1,\n2]\n",
            "s = <<-EOT\n  ünï\n  ${a}\n  EOT\nt = \"\"\n# end",
            "x = {\n  k = \"v\" // note\n}\n\n\nz = a.b[0] ? 1 : 2",
        ];
        for text in texts {
            let first = if text.starts_with('\u{feff}') { 3 } else { 0 };
            let mut toks = scan(text, first, ScanMode::Normal);
            let loc = Locator::new(text, first, Pos::START, Arc::from("t.tf"), None);
            loc.assign_lines(&mut toks);
            for tok in &toks {
                let searched = Locator::new(text, first, Pos::START, Arc::from("t.tf"), None)
                    .range(tok.start(), tok.end());
                assert_eq!(loc.token_range(tok), searched, "{text:?} {tok:?}");
            }
        }
    }
}
