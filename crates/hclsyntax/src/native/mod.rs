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
    with_stack_for(source.text(), || {
        let name = source.name().clone();
        let (toks, mut diags, base) = lex(source.text(), &name, Pos::START, ScanMode::Normal);
        let eof_end = toks.last().expect("token list ends with Eof").range.end;
        let mut p = Parser::new(source.text(), toks);
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
    with_stack_for(text, || {
        let name: Arc<str> = Arc::from(filename);
        let (toks, mut diags, _) = lex(text, &name, start, ScanMode::Normal);
        let mut p = Parser::new(text, toks);
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
    with_stack_for(text, || {
        let name: Arc<str> = Arc::from(filename);
        let (toks, mut diags, _) = lex(text, &name, start, ScanMode::Template);
        let mut p = Parser::new(text, toks);
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
    let name: Arc<str> = Arc::from(filename);
    let (toks, mut diags, _) = lex(text, &name, start, ScanMode::Normal);
    let mut p = Parser::new(text, toks);
    p.push_newlines(false);
    let (trav, d) = p.parse_traversal_abs();
    diags.extend(d);
    (trav, diags)
}

/// Scans `text` (skipping a UTF-8 BOM, whose bytes still count in
/// offsets) and reports characters the language never uses. Returns the
/// tokens, those diagnostics and the position of the first scanned byte.
fn lex(text: &str, name: &Arc<str>, start: Pos, mode: ScanMode) -> (Vec<Token>, Diagnostics, Pos) {
    let first = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let base = Pos {
        byte: start.byte + first,
        ..start
    };
    let raw = scan::scan(text, first, mode);
    let toks = token::locate(text, first, base, name, raw);
    let diags = invalid::check_invalid_tokens(&toks);
    (toks, diags, base)
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

/// An upper bound on the recursion `text` can cause: bracket nesting plus
/// every construct that recurses without a bracket.
fn estimated_depth(text: &str) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut unary = 0usize;
    let mut prev = 0u8;
    for &b in text.as_bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
                // `%{if}` nests without its brace staying open.
                if b == b'{' && prev == b'%' {
                    unary += 1;
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            // Unary operands, conditional branches and full splats recurse
            // without brackets.
            b'!' | b'-' | b'?' => unary += 1,
            b'*' if prev == b'[' => unary += 1,
            _ => {}
        }
        prev = b;
    }
    max + unary
}

/// Runs `f` directly for shallow input, else on a thread whose stack fits
/// [`MAX_NESTING_DEPTH`] levels.
fn with_stack_for<R: Send>(text: &str, f: impl FnOnce() -> R + Send) -> R {
    let est = estimated_depth(text);
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
