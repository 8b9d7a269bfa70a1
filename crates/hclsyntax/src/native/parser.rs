//! The parser state shared by the body, expression and template parsers:
//! a token peeker with HCL's newline-sensitivity stack (`peeker.go`), the
//! recovery flag and the nesting-depth guard, plus HCL's recovery helpers.

use super::token::{Locator, Token, T};
use super::{MAX_NESTING_DEPTH, MAX_TREE_DEPTH};
use crate::ast::{Expr, ExprKind, Literal};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::Range;

/// A token as the parser sees it: its type and where it is in the token
/// list. A line comment seen while newlines matter reads as a `Newline`
/// with the comment's index (HCL's "fake newline").
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub ty: T,
    pub idx: usize,
}

pub(super) struct Parser<'a> {
    pub text: &'a str,
    pub toks: Vec<Token>,
    /// Line/column positions for token ranges.
    pub loc: Locator<'a>,
    next: usize,
    newlines: Vec<bool>,
    /// Set once the parser has reported an error and skipped ahead: later
    /// errors are likely consequences and are suppressed, as in HCL.
    pub recovery: bool,
    /// Current syntactic nesting (each level is parser recursion).
    depth: usize,
    /// Binary operators chained around the current position: they deepen
    /// the tree (and every recursive walk of it) without recursion here.
    ops: usize,
}

pub(super) const TOO_DEEP_SUMMARY: &str = "Nesting too deep";

impl<'a> Parser<'a> {
    pub fn new(text: &'a str, toks: Vec<Token>, loc: Locator<'a>) -> Parser<'a> {
        Parser {
            text,
            toks,
            loc,
            next: 0,
            newlines: vec![true],
            recovery: false,
            depth: 0,
            ops: 0,
        }
    }

    fn including_newlines(&self) -> bool {
        *self.newlines.last().unwrap_or(&true)
    }

    pub fn push_newlines(&mut self, include: bool) {
        self.newlines.push(include);
    }

    pub fn pop_newlines(&mut self) {
        self.newlines.pop();
    }

    fn next_token(&self) -> Tok {
        let include = self.including_newlines();
        let mut i = self.next;
        while i < self.toks.len() {
            let t = &self.toks[i];
            match t.ty {
                T::Comment => {
                    if include && t.end() > t.start() && self.text.as_bytes()[t.end() - 1] == b'\n'
                    {
                        return Tok {
                            ty: T::Newline,
                            idx: i,
                        };
                    }
                    i += 1;
                    continue;
                }
                T::Newline if !include => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            return Tok { ty: t.ty, idx: i };
        }
        let last = self.toks.len() - 1;
        Tok {
            ty: self.toks[last].ty,
            idx: last,
        }
    }

    pub fn peek(&self) -> Tok {
        self.next_token()
    }

    pub fn read(&mut self) -> Tok {
        let t = self.next_token();
        self.next = t.idx + 1;
        t
    }

    pub fn range(&self, t: Tok) -> Range {
        self.loc.token_range(&self.toks[t.idx])
    }

    pub fn bytes(&self, t: Tok) -> &'a str {
        let tok = &self.toks[t.idx];
        &self.text[tok.start()..tok.end()]
    }

    pub fn next_range(&self) -> Range {
        self.range(self.peek())
    }

    pub fn prev_range(&self) -> Range {
        if self.next == 0 {
            return self.next_range();
        }
        let i = (self.next - 1).min(self.toks.len() - 1);
        self.loc.token_range(&self.toks[i])
    }

    /// Whether the next token is the identifier `kw`.
    pub fn peek_keyword(&self, kw: &str) -> bool {
        let t = self.peek();
        t.ty == T::Ident && self.bytes(t) == kw
    }

    pub fn set_recovery(&mut self) {
        self.recovery = true;
    }

    /// Enters one nesting level; false beyond [`MAX_NESTING_DEPTH`] (or a
    /// tree deeper than [`MAX_TREE_DEPTH`]), leaving the parser in recovery
    /// (see [`Parser::too_deep_here`]).
    pub fn enter(&mut self) -> bool {
        if self.depth >= MAX_NESTING_DEPTH || self.depth + self.ops >= MAX_TREE_DEPTH {
            self.set_recovery();
            return false;
        }
        self.depth += 1;
        true
    }

    /// The placeholder and error for a failed [`Parser::enter`].
    pub fn too_deep_here(&self) -> (Expr, Diagnostics) {
        let at = self.next_range();
        (placeholder(at.clone()), vec![too_deep(at)])
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Counts one more chained binary operator; false when the tree would
    /// get deeper than [`MAX_TREE_DEPTH`].
    pub fn deepen(&mut self) -> bool {
        if self.depth + self.ops + 1 > MAX_TREE_DEPTH {
            return false;
        }
        self.ops += 1;
        true
    }

    pub fn undeepen(&mut self, n: usize) {
        self.ops -= n;
    }

    /// The bracket that closes (or opens) `ty`.
    pub fn opposite(ty: T) -> Option<T> {
        Some(match ty {
            T::OBrace => T::CBrace,
            T::OBrack => T::CBrack,
            T::OParen => T::CParen,
            T::OQuote => T::CQuote,
            T::OHeredoc => T::CHeredoc,
            T::CBrace => T::OBrace,
            T::CBrack => T::OBrack,
            T::CParen => T::OParen,
            T::CQuote => T::OQuote,
            T::CHeredoc => T::OHeredoc,
            T::TemplateControl | T::TemplateInterp => T::TemplateSeqEnd,
            T::TemplateSeqEnd => T::TemplateInterp,
            _ => return None,
        })
    }

    /// Skips to just after the `end` that closes the current construct,
    /// counting nested brackets of the same kind (HCL's `recover`).
    pub fn recover(&mut self, end: T) -> Tok {
        let start = Self::opposite(end);
        self.recovery = true;
        let mut nest = 0usize;
        loop {
            let tok = self.read();
            let mut ty = tok.ty;
            if end == T::TemplateSeqEnd && ty == T::TemplateControl {
                ty = T::TemplateInterp;
            }
            if Some(ty) == start {
                nest += 1;
            } else if ty == end {
                if nest < 1 {
                    return tok;
                }
                nest -= 1;
            } else if ty == T::Eof {
                return tok;
            }
        }
    }

    /// Skips to the next `start` bracket and past its matching close.
    pub fn recover_over(&mut self, start: T) {
        let end = Self::opposite(start).expect("recover_over needs a bracket");
        loop {
            let tok = self.read();
            if tok.ty == start || tok.ty == T::Eof {
                break;
            }
        }
        self.recover(end);
    }

    /// Skips to the newline that ends the current body item, ignoring
    /// newlines inside brackets (HCL's `recoverAfterBodyItem`).
    pub fn recover_after_body_item(&mut self) {
        self.recovery = true;
        let mut open: Vec<T> = Vec::new();
        loop {
            let tok = self.read();
            match tok.ty {
                T::Newline if open.is_empty() => break,
                T::Eof => break,
                T::OBrace
                | T::OBrack
                | T::OParen
                | T::OQuote
                | T::OHeredoc
                | T::TemplateInterp
                | T::TemplateControl => open.push(tok.ty),
                T::CBrace | T::CBrack | T::CParen | T::CQuote | T::CHeredoc => {
                    let opener = Self::opposite(tok.ty);
                    while open.last().is_some() && open.last().copied() != opener {
                        open.pop();
                    }
                    open.pop();
                }
                T::TemplateSeqEnd => {
                    while let Some(&top) = open.last() {
                        if top == T::TemplateInterp || top == T::TemplateControl {
                            break;
                        }
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }
}

/// The stand-in for an expression that failed to parse (HCL uses a
/// `DynamicVal` literal; callers never evaluate it because of the error).
pub(super) fn placeholder(range: Range) -> Expr {
    Expr::new(ExprKind::Literal(Literal::Null), range)
}

/// The error for input nested beyond the parser's limits.
pub(super) fn too_deep(at: Range) -> Diagnostic {
    Diagnostic::error(
        TOO_DEEP_SUMMARY,
        format!(
            "Expressions, templates and blocks may be nested at most {MAX_NESTING_DEPTH} levels deep, and an expression may be at most {MAX_TREE_DEPTH} levels deep counting its chained operators."
        ),
        at,
    )
}
