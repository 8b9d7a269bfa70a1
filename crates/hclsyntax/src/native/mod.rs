//! Native syntax (`.tf`, `.tofu`, `.tfvars`): scanned and parsed into the
//! shared tree by a port of HCL's own `hclsyntax` scanner and parser, so
//! that what OpenTofu accepts is accepted (a UTF-8 BOM, deep nesting, long
//! operator chains, duplicate object keys) and errors carry HCL's
//! summaries, details and ranges, with HCL's recovery (several errors per
//! file where HCL reports several).
//!
//! Nothing here recurses without a bound: nesting beyond
//! [`MAX_NESTING_DEPTH`] is a diagnostic, and input deep enough to need it
//! is parsed on a thread with a stack sized for the limit.

mod collections;
mod exact;
mod expr;
mod invalid;
mod parser;
mod scan;
mod strings;
mod structure;
mod template;
mod token;
mod traversal;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_body;

use std::sync::Arc;

use crate::ast::{Expr, Traversal};
use crate::body::Body;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::{Pos, Range, SourceFile};

use parser::{Parser, TOO_DEEP_SUMMARY};
use scan::ScanMode;
use token::{Token, T};

/// How deeply expressions, templates and blocks may nest in source.
/// Terraform has no limit; real configurations stay far below this.
pub const MAX_NESTING_DEPTH: usize = 1_000;

/// How deep an expression tree may get, counting each chained binary
/// operator as a level (`a || b || ...` builds a left-deep tree). A tree
/// this deep still drops safely on a 2 MiB thread.
pub const MAX_TREE_DEPTH: usize = 10_000;

/// Inputs whose estimated depth is below this are parsed on the caller's
/// thread; deeper ones on a thread with a large stack.
const INLINE_DEPTH: usize = 24;

/// Stack reserved per nesting level on the big-stack thread (debug builds
/// use several kilobytes per level; the memory is only touched as used).
const STACK_PER_LEVEL: usize = 64 * 1024;

/// Parses a whole file body.
pub fn parse_body(source: &SourceFile) -> (Body, Diagnostics) {
    let lexed = Lexed::scan(source.text(), Pos::START, Top::Body);
    let base = lexed.base;
    with_stack_for(estimated_depth(&lexed), || {
        let name = source.name().clone();
        let (mut p, mut diags) = lexed.parser(name.clone(), Some(source.line_starts()));
        let eof = *p.toks.last().expect("token list ends with Eof");
        let eof_end = p.loc.pos(eof.end());
        let (parts, d) = p.parse_body(T::Eof);
        diags.extend(d);
        let range = Range::new(name, base, eof_end);
        let missing = range.start_range();
        let body = Body::native(parts.attrs, parts.blocks, range, missing);
        (body, dedupe(diags))
    })
}

/// Parses `text` as a single expression; ranges are reported in the file
/// `filename` as if `text` started at `start` there.
pub fn parse_expression(text: &str, filename: &str, start: Pos) -> (Expr, Diagnostics) {
    let lexed = Lexed::scan(text, start, Top::Expression);
    with_stack_for(estimated_depth(&lexed), || {
        let (mut p, mut diags) = lexed.parser(Arc::from(filename), None);
        // A bare expression ignores newlines, as if it were in parentheses.
        p.push_newlines(false);
        let (expr, d) = p.parse_expression();
        diags.extend(d);
        let next = p.peek();
        if next.ty != T::Eof && !p.recovery {
            diags.push(Diagnostic::error(
                "Extra characters after expression",
                "An expression was successfully parsed, but extra characters were found after it.",
                p.range(next),
            ));
        }
        p.pop_newlines();
        (expr, dedupe(diags))
    })
}

/// Parses `text` as a bare template (HCL's `ParseTemplate`): literal text
/// with `${...}` interpolations and `%{...}` directives, where backslashes
/// are literal and newlines allowed. This is how JSON strings are read.
pub fn parse_template(text: &str, filename: &str, start: Pos) -> (Expr, Diagnostics) {
    let lexed = Lexed::scan(text, start, Top::Template);
    with_stack_for(estimated_depth(&lexed), || {
        let (mut p, mut diags) = lexed.parser(Arc::from(filename), None);
        let (expr, d) = p.parse_bare_template();
        diags.extend(d);
        (expr, dedupe(diags))
    })
}

/// Parses `text` as an absolute traversal (`aws_instance.foo[0].id`).
pub fn parse_traversal_abs(
    text: &str,
    filename: &str,
    start: Pos,
) -> (Option<Traversal>, Diagnostics) {
    let lexed = Lexed::scan(text, start, Top::Expression);
    let (mut p, mut diags) = lexed.parser(Arc::from(filename), None);
    p.push_newlines(false);
    let (trav, d) = p.parse_traversal_abs();
    diags.extend(d);
    (trav, diags)
}

/// What a text is parsed as.
#[derive(Debug, Clone, Copy)]
enum Top {
    Body,
    Expression,
    Template,
}

/// Scanned source: the tokens of `text` (skipping a UTF-8 BOM, whose bytes
/// still count in offsets) and the position of the first scanned byte.
struct Lexed<'a> {
    text: &'a str,
    top: Top,
    /// The full text was longer than token offsets allow.
    truncated: bool,
    first: usize,
    base: Pos,
    toks: Vec<Token>,
}

impl<'a> Lexed<'a> {
    fn scan(text: &'a str, start: Pos, top: Top) -> Lexed<'a> {
        let mode = match top {
            Top::Template => ScanMode::Template,
            Top::Body | Top::Expression => ScanMode::Normal,
        };
        let scannable = &text[..token::scannable_len(text)];
        let first = if scannable.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let base = Pos::at(
            start.line as usize,
            start.column as usize,
            start.offset() + first,
        );
        Lexed {
            text: scannable,
            top,
            truncated: scannable.len() < text.len(),
            first,
            base,
            toks: scan::scan(scannable, first, mode),
        }
    }

    /// A parser over the tokens (which it takes), and the diagnostics for
    /// characters the language never uses. `lines` is the line index of
    /// the text, when the caller has one.
    fn parser(self, name: Arc<str>, lines: Option<&'a [usize]>) -> (Parser<'a>, Diagnostics) {
        let loc = token::Locator::new(self.text, self.first, self.base, name, lines);
        let mut toks = self.toks;
        loc.assign_lines(&mut toks);
        let mut diags = invalid::check_invalid_tokens(&toks, &loc);
        if self.truncated {
            let end = self.text.len();
            diags.push(Diagnostic::error(
                "File too large",
                "Configuration files larger than 4 GiB are not supported; the rest of this file was ignored.",
                loc.range(end, end),
            ));
        }
        (Parser::new(self.text, toks, loc), diags)
    }
}

/// Keeps only the first "nesting too deep" error: every enclosing level
/// reports the one it ran into.
fn dedupe(mut diags: Diagnostics) -> Diagnostics {
    let mut seen = false;
    diags.retain(|d| {
        if d.summary != TOO_DEEP_SUMMARY {
            return true;
        }
        !std::mem::replace(&mut seen, true)
    });
    diags
}

/// An upper bound on the recursion the tokens can cause: bracket nesting
/// plus the constructs that recurse without a bracket (unary operators,
/// conditionals, full splats, template directives). String, heredoc and
/// comment contents are single tokens and count for nothing.
///
/// Bracketless recursion ends with the expression: a comma ends one at
/// any bracket level, a newline one in a body or object. So each open
/// level counts the bracketless constructs of its current item only.
fn estimated_depth(lexed: &Lexed<'_>) -> usize {
    // Open brackets (by opening token type) and the count of bracketless
    // constructs in the current item of each; `levels[0]` is the top level.
    // The top level ends items like a body (newlines), a bare expression
    // (newlines ignored) or a bare template (nothing ends them).
    let top = match lexed.top {
        Top::Body => T::OBrace,
        Top::Expression => T::OParen,
        Top::Template => T::OHeredoc,
    };
    let mut levels: Vec<(T, usize)> = vec![(top, 0)];
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut prev = T::Eof;
    for tok in &lexed.toks {
        match tok.ty {
            T::OBrace
            | T::OBrack
            | T::OParen
            | T::OQuote
            | T::OHeredoc
            | T::TemplateInterp
            | T::TemplateControl => {
                if tok.ty == T::TemplateControl {
                    // `%{if}` and `%{for}` nest until their end directive,
                    // past the `}`: count it for the whole template.
                    if let Some(l) = levels.last_mut() {
                        l.1 += 1;
                        depth += 1;
                    }
                }
                levels.push((tok.ty, 0));
                depth += 1;
            }
            T::CBrace | T::CBrack | T::CParen | T::CQuote | T::CHeredoc | T::TemplateSeqEnd => {
                let opens = |open: T| match tok.ty {
                    T::TemplateSeqEnd => open == T::TemplateInterp || open == T::TemplateControl,
                    close => Parser::opposite(close) == Some(open),
                };
                // A stray closer closes nothing (over-estimating is safe).
                if levels.len() > 1 && opens(levels[levels.len() - 1].0) {
                    let (_, n) = levels.pop().expect("checked above");
                    depth -= n + 1;
                }
            }
            T::Bang | T::Minus | T::Question => {
                if let Some(l) = levels.last_mut() {
                    l.1 += 1;
                    depth += 1;
                }
            }
            // `[*]`: the full splat's operand recurses around the bracket.
            T::Star if prev == T::OBrack && levels.len() > 1 => {
                let i = levels.len() - 2;
                levels[i].1 += 1;
                depth += 1;
            }
            T::Comma | T::Newline => {
                let top = levels.len() - 1;
                let (open, n) = levels[top];
                let ends_item = match open {
                    T::OBrace => true,
                    T::OBrack | T::OParen => tok.ty == T::Comma,
                    _ => false,
                };
                if ends_item {
                    levels[top].1 = 0;
                    depth -= n;
                }
            }
            _ => {}
        }
        max = max.max(depth);
        if tok.ty != T::Comment {
            prev = tok.ty;
        }
    }
    max
}

/// Runs `f` directly for shallow input, else on a thread whose stack fits
/// [`MAX_NESTING_DEPTH`] levels.
fn with_stack_for<R: Send>(est: usize, f: impl FnOnce() -> R + Send) -> R {
    if est < INLINE_DEPTH {
        return f();
    }
    let levels = est.min(MAX_NESTING_DEPTH) + 64;
    let stack = levels * STACK_PER_LEVEL + (1 << 20);
    let job = std::sync::Mutex::new(Some(f));
    let take = || {
        job.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .expect("the parse job runs once")
    };
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("hcl-parse".into())
            .stack_size(stack)
            .spawn_scoped(s, || take()());
        match spawned {
            Ok(h) => match h.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            // No thread to be had: parse here, within the depth limits.
            Err(_) => take()(),
        }
    })
}
