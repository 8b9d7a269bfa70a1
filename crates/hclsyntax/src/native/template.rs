//! Templates: quoted strings, heredocs and bare templates. Template tokens
//! are first raised into literal/interpolation/directive parts (strip
//! markers applied, `<<-` heredocs dedented, adjacent literals melded),
//! then `%{if}` becomes a conditional and `%{for}` a join over a `for`
//! expression. A port of HCL's `parser_template.go`.

use super::exact::exact;
use super::parser::{placeholder, Parser, Tok};
use super::strings::decode_literal;
use super::token::T;
use crate::ast::{Expr, ExprKind, ForExpr, Literal};
use crate::body::name_suggestion;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::pos::{Pos, Range};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctrl {
    EndIf,
    Else,
    EndFor,
}

impl Ctrl {
    fn name(self) -> &'static str {
        match self {
            Ctrl::EndIf => "endif",
            Ctrl::Else => "else",
            Ctrl::EndFor => "endfor",
        }
    }
}

enum Part {
    Literal {
        val: String,
        range: Range,
    },
    Interp {
        expr: Expr,
    },
    If {
        cond: Expr,
        range: Range,
    },
    For {
        key_var: Option<String>,
        value_var: String,
        coll: Expr,
        range: Range,
    },
    EndCtrl {
        kind: Ctrl,
        range: Range,
    },
    End {
        range: Range,
    },
}

/// A template expression from its parts: a single literal string stays a
/// plain string literal (HCL's `IsStringLiteral` templates).
pub(super) fn make_template(mut parts: Vec<Expr>, range: Range) -> Expr {
    if parts.len() == 1 && matches!(parts[0].kind, ExprKind::Literal(Literal::String(_))) {
        let only = parts.pop().expect("one part");
        return Expr::new(only.kind, range);
    }
    Expr::new(ExprKind::Template(exact(parts)), range)
}

fn literal(val: String, range: Range) -> Expr {
    Expr::new(ExprKind::Literal(Literal::String(val)), range)
}

impl Parser<'_> {
    /// A quoted template or heredoc in expression position.
    pub fn parse_template_term(&mut self) -> (Expr, Diagnostics) {
        let open = self.read();
        if open.ty == T::OQuote {
            if let Some(plain) = self.parse_plain_quoted(open) {
                return plain;
            }
        }
        let flush = open.ty == T::OHeredoc && self.bytes(open).starts_with("<<-");
        let closer = Parser::opposite(open.ty).expect("template opener has a closer");
        let (exprs, passthru, _, diags) = self.parse_template_inner(closer, flush);
        let range = self.range(open).to(&self.prev_range());
        (wrap(exprs, passthru, range), diags)
    }

    /// `""` or a quoted string of one literal chunk (most strings): the
    /// literal the general template path would make of it, without its
    /// part lists.
    fn parse_plain_quoted(&mut self, open: Tok) -> Option<(Expr, Diagnostics)> {
        let first = self.peek();
        let (value, diags) = match first.ty {
            T::CQuote => {
                self.read();
                (String::new(), Diagnostics::new())
            }
            // Inside a quoted string no comment or newline tokens are
            // skipped, so the closing quote is the very next token.
            T::QuotedLit if self.toks.get(first.idx + 1).map(|t| t.ty) == Some(T::CQuote) => {
                self.read();
                self.read();
                decode_literal(self.bytes(first), true, &self.range(first))
            }
            _ => return None,
        };
        let range = self.range(open).to(&self.prev_range());
        Some((literal(value, range), diags))
    }

    /// A whole bare template, up to the end of input (`ParseTemplate`).
    pub fn parse_bare_template(&mut self) -> (Expr, Diagnostics) {
        let (exprs, passthru, range, diags) = self.parse_template_inner(T::Eof, false);
        (wrap(exprs, passthru, range), diags)
    }

    fn parse_template_inner(
        &mut self,
        end: T,
        flush: bool,
    ) -> (Vec<Expr>, bool, Range, Diagnostics) {
        let (mut parts, range, mut diags) = self.parse_template_parts(end);
        if flush {
            flush_heredoc(&mut parts);
        }
        meld_literals(&mut parts);
        let passthru = parts.len() == 2 && matches!(parts[0], Part::Interp { .. });
        let mut tp = TemplateParser {
            parts: parts.into_iter().map(Some).collect(),
            pos: 0,
        };
        let mut exprs = Vec::new();
        while !tp.at_end() {
            let (e, d) = tp.parse_expr(self);
            diags.extend(d);
            exprs.push(e);
        }
        (exprs, passthru, range, diags)
    }

    fn parse_template_parts(&mut self, end: T) -> (Vec<Part>, Range, Diagnostics) {
        let mut parts: Vec<Part> = Vec::new();
        let mut diags = Diagnostics::new();
        let start_range = self.next_range();
        let mut ltrim_next = false;
        let mut next_can_trim_prev = false;
        let end_range;
        loop {
            let next = self.read();
            if next.ty == end {
                end_range = self.range(next);
                break;
            }
            let ltrim = std::mem::take(&mut ltrim_next);
            let can_trim_prev = std::mem::take(&mut next_can_trim_prev);
            let next_bytes = self.bytes(next);
            let next_range = self.range(next);
            match next.ty {
                T::StringLit | T::QuotedLit => {
                    let (mut s, d) =
                        decode_literal(next_bytes, next.ty == T::QuotedLit, &next_range);
                    diags.extend(d);
                    if ltrim {
                        s = s.trim_start().to_string();
                    }
                    parts.push(Part::Literal {
                        val: s,
                        range: next_range,
                    });
                    next_can_trim_prev = true;
                }
                T::TemplateInterp => {
                    if can_trim_prev && next_bytes.ends_with('~') {
                        trim_prev_literal(&mut parts);
                    }
                    self.push_newlines(false);
                    let (expr, ed) = self.parse_expression();
                    diags.extend(ed);
                    let close = self.peek();
                    if close.ty != T::TemplateSeqEnd {
                        if !self.recovery {
                            let cr = self.range(close);
                            diags.push(match close.ty {
                                T::Eof => Diagnostic::error(
                                    "Unclosed template interpolation sequence",
                                    "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                                    start_range.clone(),
                                ),
                                T::Colon => Diagnostic::error(
                                    "Extra characters after interpolation expression",
                                    "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                                    cr.clone(),
                                )
                                .with_context(start_range.to(&cr)),
                                T::CQuote | T::OQuote if end == T::CQuote => Diagnostic::error(
                                    "Unclosed template interpolation sequence",
                                    "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                                    start_range.clone(),
                                ),
                                _ => Diagnostic::error(
                                    "Extra characters after interpolation expression",
                                    "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                                    cr.clone(),
                                )
                                .with_context(start_range.to(&cr)),
                            });
                        }
                        self.recover(T::TemplateSeqEnd);
                    } else {
                        self.read();
                        if self.bytes(close).starts_with('~') {
                            ltrim_next = true;
                        }
                    }
                    self.pop_newlines();
                    parts.push(Part::Interp { expr });
                }
                T::TemplateControl => {
                    if can_trim_prev && next_bytes.ends_with('~') {
                        trim_prev_literal(&mut parts);
                    }
                    self.push_newlines(false);
                    let (part, kw, d) = self.parse_template_directive(next_range);
                    diags.extend(d);
                    if let Some(p) = part {
                        parts.push(p);
                    }
                    if let Some(kw) = kw {
                        let close = self.peek();
                        if close.ty != T::TemplateSeqEnd {
                            if !self.recovery {
                                let cr = self.range(close);
                                diags.push(
                                    Diagnostic::error(
                                        format!("Extra characters in {kw} marker"),
                                        "Expected a closing brace to end the sequence, but found extra characters.",
                                        cr.clone(),
                                    )
                                    .with_context(start_range.to(&cr)),
                                );
                            }
                            self.recover(T::TemplateSeqEnd);
                        } else {
                            self.read();
                            if self.bytes(close).starts_with('~') {
                                ltrim_next = true;
                            }
                        }
                    }
                    self.pop_newlines();
                }
                _ => {
                    if !self.recovery {
                        diags.push(
                            Diagnostic::error(
                                "Unterminated template string",
                                "No closing marker was found for the string.",
                                next_range.clone(),
                            )
                            .with_context(start_range.to(&next_range)),
                        );
                    }
                    let fin = self.recover(end);
                    end_range = self.range(fin);
                    break;
                }
            }
        }
        if parts.is_empty() {
            // `""` is an empty string, located just after the open quote.
            parts.push(Part::Literal {
                val: String::new(),
                range: start_range.start_range(),
            });
        }
        parts.push(Part::End {
            range: end_range.clone(),
        });
        (parts, start_range.to(&end_range), diags)
    }

    /// After `%{`: the directive keyword and its operands. Returns the
    /// part, and the keyword when the closing brace is still to be checked
    /// (none when recovery already skipped the sequence).
    fn parse_template_directive(
        &mut self,
        open_range: Range,
    ) -> (Option<Part>, Option<&'static str>, Diagnostics) {
        let mut diags = Diagnostics::new();
        let kw = self.peek();
        if kw.ty != T::Ident {
            if !self.recovery {
                let kr = self.range(kw);
                diags.push(
                    Diagnostic::error(
                        "Invalid template directive",
                        "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                        kr.clone(),
                    )
                    .with_context(open_range.to(&kr)),
                );
            }
            self.recover(T::TemplateSeqEnd);
            return (None, None, diags);
        }
        self.read();
        let word = self.bytes(kw);
        let ctrl = |p: &Parser, kind| Part::EndCtrl {
            kind,
            range: open_range.to(&p.next_range()),
        };
        let part = match word {
            "if" => {
                let (cond, d) = self.parse_expression();
                diags.extend(d);
                Part::If {
                    cond,
                    range: open_range.to(&self.next_range()),
                }
            }
            "else" => ctrl(self, Ctrl::Else),
            "endif" => ctrl(self, Ctrl::EndIf),
            "endfor" => ctrl(self, Ctrl::EndFor),
            "for" => {
                let fail = |p: &mut Parser, detail: &str, diags: &mut Diagnostics| {
                    if !p.recovery {
                        diags.push(Diagnostic::error(
                            "Invalid 'for' directive",
                            detail,
                            p.next_range(),
                        ));
                    }
                    p.recover(T::TemplateSeqEnd);
                };
                if self.peek().ty != T::Ident {
                    fail(
                        self,
                        "For directive requires variable name after 'for'.",
                        &mut diags,
                    );
                    return (None, None, diags);
                }
                let first = self.read();
                let mut value_var = self.bytes(first).to_string();
                let mut key_var = None;
                if self.peek().ty == T::Comma {
                    key_var = Some(value_var);
                    self.read();
                    if self.peek().ty != T::Ident {
                        fail(
                            self,
                            "For directive requires value variable name after comma.",
                            &mut diags,
                        );
                        return (None, None, diags);
                    }
                    let second = self.read();
                    value_var = self.bytes(second).to_string();
                }
                if !self.peek_keyword("in") {
                    fail(
                        self,
                        "For directive requires 'in' keyword after names.",
                        &mut diags,
                    );
                    return (None, None, diags);
                }
                self.read();
                let (coll, d) = self.parse_expression();
                diags.extend(d);
                Part::For {
                    key_var,
                    value_var,
                    coll,
                    range: open_range.to(&self.next_range()),
                }
            }
            given => {
                if !self.recovery {
                    let suggestion =
                        name_suggestion(given, ["if", "for", "else", "endif", "endfor"])
                            .map(|s| format!(" Did you mean \"{s}\"?"))
                            .unwrap_or_default();
                    let kr = self.range(kw);
                    diags.push(
                        Diagnostic::error(
                            "Invalid template control keyword",
                            format!(
                                "\"{given}\" is not a valid template control keyword.{suggestion}"
                            ),
                            kr.clone(),
                        )
                        .with_context(open_range.to(&kr)),
                    );
                }
                self.recover(T::TemplateSeqEnd);
                return (None, None, diags);
            }
        };
        let kw_name = match word {
            "if" => "if",
            "else" => "else",
            "endif" => "endif",
            "endfor" => "endfor",
            _ => "for",
        };
        (Some(part), Some(kw_name), diags)
    }
}

fn wrap(mut exprs: Vec<Expr>, passthru: bool, range: Range) -> Expr {
    if passthru && exprs.len() == 1 {
        let inner = exprs.pop().expect("one part");
        return Expr::new(ExprKind::TemplateWrap(Box::new(inner)), range);
    }
    make_template(exprs, range)
}

fn trim_prev_literal(parts: &mut [Part]) {
    if let Some(Part::Literal { val, .. }) = parts.last_mut() {
        let trimmed = val.trim_end().len();
        val.truncate(trimmed);
    }
}

/// The `<<-` rule: remove from every line-leading literal the smallest
/// indentation of any non-blank line (a line starting with an
/// interpolation counts as unindented).
fn flush_heredoc(parts: &mut [Part]) {
    let mut min_spaces = usize::MAX;
    let mut newline = true;
    let mut adjust = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if newline {
            newline = false;
            let mut spaces = 0;
            match part {
                Part::Literal { val, .. } => {
                    let trimmed = val.trim_start();
                    if trimmed.is_empty() && val.ends_with('\n') {
                        spaces = usize::MAX;
                    } else {
                        spaces = val[..val.len() - trimmed.len()].chars().count();
                        adjust.push(i);
                    }
                }
                Part::End { .. } => break,
                _ => {}
            }
            min_spaces = min_spaces.min(spaces);
        }
        if let Part::Literal { val, .. } = part {
            if val.ends_with('\n') {
                newline = true;
            }
        }
    }
    if min_spaces == usize::MAX {
        return;
    }
    for i in adjust {
        if let Part::Literal { val, range } = &mut parts[i] {
            let cut: usize = val.chars().take(min_spaces).map(char::len_utf8).sum();
            val.drain(..cut);
            range.start = Pos::at(
                range.start.line as usize,
                range.start.column as usize + min_spaces,
                range.start.offset() + cut,
            );
        }
    }
}

fn meld_literals(parts: &mut Vec<Part>) {
    let mut out: Vec<Part> = Vec::with_capacity(parts.len());
    for part in parts.drain(..) {
        if let Part::Literal { val, range } = &part {
            if let Some(Part::Literal { val: pv, range: pr }) = out.last_mut() {
                pv.push_str(val);
                pr.end = range.end;
                continue;
            }
        }
        out.push(part);
    }
    *parts = out;
}

/// Turns the flat part list into expressions, nesting `if` and `for`.
struct TemplateParser {
    parts: Vec<Option<Part>>,
    pos: usize,
}

impl TemplateParser {
    fn at_end(&self) -> bool {
        matches!(self.parts[self.pos], Some(Part::End { .. }))
    }

    fn peek(&self) -> &Part {
        self.parts[self.pos]
            .as_ref()
            .expect("template part read once")
    }

    /// Takes the next part (the end marker stays in place).
    fn take(&mut self) -> Part {
        if self.at_end() {
            let Some(Part::End { range }) = &self.parts[self.pos] else {
                unreachable!("at_end checked the end marker")
            };
            return Part::End {
                range: range.clone(),
            };
        }
        let p = self.parts[self.pos]
            .take()
            .expect("template part read once");
        self.pos += 1;
        p
    }

    fn parse_expr(&mut self, p: &mut Parser) -> (Expr, Diagnostics) {
        match self.peek() {
            Part::If { .. } | Part::For { .. } => {
                if !p.enter() {
                    self.take();
                    return p.too_deep_here();
                }
                let r = if matches!(self.peek(), Part::If { .. }) {
                    self.parse_if(p)
                } else {
                    self.parse_for(p)
                };
                p.leave();
                return r;
            }
            _ => {}
        }
        match self.take() {
            Part::Literal { val, range } => (literal(val, range), Vec::new()),
            Part::Interp { expr } => (expr, Vec::new()),
            Part::End { range } => {
                let d = Diagnostic::error(
                    "Unexpected end of template",
                    "The control directives within this template are unbalanced.",
                    range.clone(),
                );
                (placeholder(range), vec![d])
            }
            Part::EndCtrl { kind, range } => {
                let d = Diagnostic::error(
                    format!("Unexpected {} directive", kind.name()),
                    "The control directives within this template are unbalanced.",
                    range.clone(),
                );
                (placeholder(range), vec![d])
            }
            Part::If { .. } | Part::For { .. } => unreachable!("handled above"),
        }
    }

    fn parse_if(&mut self, p: &mut Parser) -> (Expr, Diagnostics) {
        let Part::If {
            cond,
            range: if_range,
        } = self.take()
        else {
            unreachable!("parse_if called on an if part")
        };
        let mut if_exprs = Vec::new();
        let mut else_exprs = Vec::new();
        let mut in_else = false;
        let mut diags = Diagnostics::new();
        let endif_range;
        loop {
            if self.at_end() {
                let Part::End { range } = self.take() else {
                    unreachable!()
                };
                diags.push(Diagnostic::error(
                    "Unexpected end of template",
                    format!("The if directive at {if_range} is missing its corresponding endif directive."),
                    range.clone(),
                ));
                return (placeholder(range), diags);
            }
            if let Part::EndCtrl { .. } = self.peek() {
                let Part::EndCtrl { kind, range } = self.take() else {
                    unreachable!()
                };
                match kind {
                    Ctrl::Else if !in_else => {
                        in_else = true;
                        continue;
                    }
                    Ctrl::Else => diags.push(Diagnostic::error(
                        "Unexpected else directive",
                        format!("Already in the else clause for the if started at {if_range}."),
                        range.clone(),
                    )),
                    Ctrl::EndIf => {
                        endif_range = range;
                        break;
                    }
                    Ctrl::EndFor => diags.push(Diagnostic::error(
                        format!("Unexpected {} directive", kind.name()),
                        format!("Expecting an endif directive for the if started at {if_range}."),
                        range.clone(),
                    )),
                }
                return (placeholder(range), diags);
            }
            let (e, d) = self.parse_expr(p);
            diags.extend(d);
            if in_else {
                else_exprs.push(e);
            } else {
                if_exprs.push(e);
            }
        }
        if if_exprs.is_empty() {
            if_exprs.push(literal(String::new(), if_range.end_range()));
        }
        if else_exprs.is_empty() {
            else_exprs.push(literal(String::new(), endif_range.start_range()));
        }
        let t_range = span(&if_exprs);
        let f_range = span(&else_exprs);
        let range = if_range.to(&endif_range);
        let expr = Expr::new(
            ExprKind::Conditional {
                condition: Box::new(cond),
                true_result: Box::new(make_template(if_exprs, t_range)),
                false_result: Box::new(make_template(else_exprs, f_range)),
            },
            range,
        );
        (expr, diags)
    }

    fn parse_for(&mut self, p: &mut Parser) -> (Expr, Diagnostics) {
        let Part::For {
            key_var,
            value_var,
            coll,
            range: for_range,
        } = self.take()
        else {
            unreachable!("parse_for called on a for part")
        };
        let mut content = Vec::new();
        let mut diags = Diagnostics::new();
        let endfor_range;
        loop {
            if self.at_end() {
                let Part::End { range } = self.take() else {
                    unreachable!()
                };
                diags.push(Diagnostic::error(
                    "Unexpected end of template",
                    format!("The for directive at {for_range} is missing its corresponding endfor directive."),
                    range.clone(),
                ));
                return (placeholder(range), diags);
            }
            if let Part::EndCtrl { .. } = self.peek() {
                let Part::EndCtrl { kind, range } = self.take() else {
                    unreachable!()
                };
                match kind {
                    Ctrl::EndFor => {
                        endfor_range = range;
                        break;
                    }
                    Ctrl::Else => diags.push(Diagnostic::error(
                        "Unexpected else directive",
                        "An else clause is not expected for a for directive.",
                        range.clone(),
                    )),
                    Ctrl::EndIf => diags.push(Diagnostic::error(
                        format!("Unexpected {} directive", kind.name()),
                        format!("Expecting an endfor directive corresponding to the for directive at {for_range}."),
                        range.clone(),
                    )),
                }
                return (placeholder(range), diags);
            }
            let (e, d) = self.parse_expr(p);
            diags.extend(d);
            content.push(e);
        }
        if content.is_empty() {
            content.push(literal(String::new(), for_range.end_range()));
        }
        let c_range = span(&content);
        let range = for_range.to(&endfor_range);
        let f = ForExpr {
            key_var,
            value_var,
            collection: Box::new(coll),
            key_expr: None,
            value_expr: Box::new(make_template(content, c_range)),
            condition: None,
            group: false,
            open_range: for_range,
            close_range: endfor_range,
        };
        let for_expr = Expr::new(ExprKind::For(Box::new(f)), range.clone());
        (
            Expr::new(ExprKind::TemplateJoin(Box::new(for_expr)), range),
            diags,
        )
    }
}

fn span(exprs: &[Expr]) -> Range {
    let first = &exprs[0].range;
    let last = &exprs[exprs.len() - 1].range;
    first.to(last)
}
