//! Tokens of the native syntax, as HCL's scanner (`scan_tokens.rl`) emits
//! them, and the position bookkeeping that turns byte offsets into ranges.

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

/// A scanned token: its type, byte span in the scanned text and range.
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub ty: T,
    pub start: usize,
    pub end: usize,
    pub range: Range,
}

/// Attaches line/column ranges to raw `(type, start, end)` tokens, walking
/// the text once (tokens come in source order, never overlapping).
///
/// `base` is the position of byte `first` of `text` (HCL's `start` for
/// `ParseExpression`); columns count characters, as [`crate::SourceFile`]
/// does.
pub(super) fn locate(
    text: &str,
    first: usize,
    base: Pos,
    filename: &Arc<str>,
    raw: Vec<(T, usize, usize)>,
) -> Vec<Token> {
    let mut cursor = Cursor {
        text,
        off: first,
        pos: base,
    };
    let mut out = Vec::with_capacity(raw.len());
    for (ty, start, end) in raw {
        let s = cursor.advance_to(start);
        let e = cursor.advance_to(end);
        out.push(Token {
            ty,
            start,
            end,
            range: Range::new(filename.clone(), s, e),
        });
    }
    out
}

struct Cursor<'a> {
    text: &'a str,
    off: usize,
    pos: Pos,
}

impl Cursor<'_> {
    fn advance_to(&mut self, target: usize) -> Pos {
        if target > self.off {
            for c in self.text[self.off..target].chars() {
                if c == '\n' {
                    self.pos.line += 1;
                    self.pos.column = 1;
                } else {
                    self.pos.column += 1;
                }
            }
            self.pos.byte += target - self.off;
            self.off = target;
        }
        self.pos
    }
}

/// The position `len` bytes into `text` starting from `start` (used for
/// sub-ranges inside one token, such as a bad escape sequence).
pub(super) fn pos_after(start: Pos, text: &str) -> Pos {
    let mut pos = start;
    for c in text.chars() {
        if c == '\n' {
            pos.line += 1;
            pos.column = 1;
        } else {
            pos.column += 1;
        }
    }
    pos.byte += text.len();
    pos
}

/// Whether `c` may start an identifier (`ID_Start` or `_`).
pub(super) fn is_id_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

/// Whether `c` may continue an identifier (`ID_Continue` or `-`).
pub(super) fn is_id_continue(c: char) -> bool {
    c == '-' || unicode_ident::is_xid_continue(c)
}
