//! Function calls, tuple and object constructors, `for` expressions and
//! quoted string literals without templates (block labels): ports of the
//! corresponding functions of HCL's `parser.go`.

use super::exact::exact;
use super::parser::{placeholder, Parser, Tok};
use super::strings::decode_literal;
use super::token::T;
use crate::ast::{Expr, ExprKind, ForExpr, FunctionCall, ObjectItem, ObjectKey};
use crate::diagnostic::{has_errors, Diagnostic, Diagnostics};
use crate::pos::Range;

impl Parser<'_> {
    /// After a function name: optional `::name` segments, then arguments.
    pub fn finish_function_call(&mut self, name: Tok) -> (Expr, Diagnostics) {
        let mut diags = Diagnostics::new();
        let name_tok_range = self.range(name);
        let mut open = self.read();
        let mut name_str = self.bytes(name).to_string();
        let mut name_end = name_tok_range.clone();
        while open.ty == T::DoubleColon {
            let next = self.read();
            if next.ty != T::Ident {
                let nr = self.range(next);
                diags.push(
                    Diagnostic::error(
                        "Missing function name",
                        "Function scope resolution symbol :: must be followed by a function name in this scope.",
                        nr.clone(),
                    )
                    .with_context(name_tok_range.to(&nr)),
                );
                self.recover_over(T::OParen);
                return (placeholder(name_tok_range.to(&nr)), diags);
            }
            name_str.push_str("::");
            name_str.push_str(self.bytes(next));
            name_end = self.range(next);
            open = self.read();
        }
        let name_range = name_tok_range.to(&name_end);
        let open_range = self.range(open);
        if open.ty != T::OParen {
            diags.push(
                Diagnostic::error(
                    "Missing open parenthesis",
                    "Function selector must be followed by an open parenthesis to begin the function call.",
                    open_range.clone(),
                )
                .with_context(name_tok_range.to(&open_range)),
            );
            self.recover_over(T::OParen);
            return (placeholder(name_tok_range.to(&open_range)), diags);
        }

        let mut args = Vec::new();
        let mut expand_final = false;
        let mut close: Option<Tok> = None;
        self.push_newlines(false);
        loop {
            if self.peek().ty == T::CParen {
                close = Some(self.read());
                break;
            }
            let (arg, ad) = self.parse_expression();
            let failed = has_errors(&ad);
            args.push(arg);
            diags.extend(ad);
            if self.recovery && failed {
                let t = self.recover(T::CParen);
                if t.ty == T::CParen {
                    close = Some(t);
                }
                break;
            }
            let sep = self.read();
            if sep.ty == T::CParen {
                close = Some(sep);
                break;
            }
            if sep.ty == T::Ellipsis {
                expand_final = true;
                if self.peek().ty != T::CParen {
                    if !self.recovery {
                        let sr = self.range(sep);
                        diags.push(
                            Diagnostic::error(
                                "Missing closing parenthesis",
                                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                                sr.clone(),
                            )
                            .with_context(name_range.to(&sr)),
                        );
                    }
                    close = Some(self.recover(T::CParen));
                } else {
                    close = Some(self.read());
                }
                break;
            }
            if sep.ty != T::Comma {
                let sr = self.range(sep);
                diags.push(if sep.ty == T::Eof {
                    Diagnostic::error(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                        name_range.to(&open_range),
                    )
                } else {
                    Diagnostic::error(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        sr.clone(),
                    )
                    .with_context(name_range.to(&sr))
                });
                close = Some(self.recover(T::CParen));
                break;
            }
            if self.peek().ty == T::CParen {
                close = Some(self.read());
                break;
            }
        }
        self.pop_newlines();
        let close_range = match close {
            Some(t) => self.range(t),
            None => self.prev_range(),
        };
        let range = name_range.to(&close_range);
        let call = FunctionCall {
            name: name_str,
            name_range,
            args: exact(args),
            expand_final,
            open_paren_range: open_range,
            close_paren_range: close_range,
        };
        (
            Expr::new(ExprKind::FunctionCall(Box::new(call)), range),
            diags,
        )
    }

    pub fn parse_tuple_cons(&mut self) -> (Expr, Diagnostics) {
        let open = self.read();
        self.push_newlines(false);
        let r = self.finish_tuple_cons(open);
        self.pop_newlines();
        r
    }

    fn finish_tuple_cons(&mut self, open: Tok) -> (Expr, Diagnostics) {
        if self.peek_keyword("for") {
            return self.finish_for_expr(open);
        }
        let open_range = self.range(open);
        let mut diags = Diagnostics::new();
        let mut exprs = Vec::new();
        let close;
        loop {
            if self.peek().ty == T::CBrack {
                close = self.read();
                break;
            }
            let (expr, ed) = self.parse_expression();
            let failed = has_errors(&ed);
            exprs.push(expr);
            diags.extend(ed);
            if self.recovery && failed {
                close = self.recover(T::CBrack);
                break;
            }
            let next = self.peek();
            if next.ty == T::CBrack {
                close = self.read();
                break;
            }
            if next.ty != T::Comma {
                if !self.recovery {
                    let nr = self.range(next);
                    diags.push(if next.ty == T::Eof {
                        Diagnostic::error(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open_range.clone(),
                        )
                    } else {
                        Diagnostic::error(
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            nr.clone(),
                        )
                        .with_context(open_range.to(&nr))
                    });
                }
                close = self.recover(T::CBrack);
                break;
            }
            self.read(); // comma
        }
        let range = open_range.to(&self.range(close));
        (Expr::new(ExprKind::Tuple(exact(exprs)), range), diags)
    }

    pub fn parse_object_cons(&mut self) -> (Expr, Diagnostics) {
        let open = self.read();
        // `for` expressions are not newline-sensitive; objects are.
        self.push_newlines(false);
        let is_for = self.peek_keyword("for");
        self.pop_newlines();
        if is_for {
            self.push_newlines(false);
            let r = self.finish_for_expr(open);
            self.pop_newlines();
            return r;
        }
        self.push_newlines(true);
        let r = self.finish_object_cons(open);
        self.pop_newlines();
        r
    }

    fn finish_object_cons(&mut self, open: Tok) -> (Expr, Diagnostics) {
        let open_range = self.range(open);
        let mut diags = Diagnostics::new();
        let mut items = Vec::new();
        let close;
        loop {
            let next = self.peek();
            if next.ty == T::Newline {
                self.read();
                continue;
            }
            if next.ty == T::CBrace {
                close = self.read();
                break;
            }
            // Parentheses make a bare name key an expression.
            let force_non_literal = next.ty == T::OParen;
            let (key, kd) = self.parse_expression();
            let failed = has_errors(&kd);
            diags.extend(kd);
            if self.recovery && failed {
                close = self.recover(T::CBrace);
                break;
            }
            let key = ObjectKey {
                expr: key,
                force_non_literal,
            };
            let next = self.peek();
            if next.ty != T::Equal && next.ty != T::Colon {
                if !self.recovery {
                    let nr = self.range(next);
                    let ctx = open_range.to(&nr);
                    diags.push(match next.ty {
                        T::Newline | T::Comma => Diagnostic::error(
                            "Missing attribute value",
                            "Expected an attribute value, introduced by an equals sign (\"=\").",
                            nr,
                        )
                        .with_context(ctx),
                        T::Ident => Diagnostic::error(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                            nr,
                        )
                        .with_context(ctx),
                        T::Eof => Diagnostic::error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open_range.clone(),
                        ),
                        _ => Diagnostic::error(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                            nr,
                        )
                        .with_context(ctx),
                    });
                }
                close = self.recover(T::CBrace);
                break;
            }
            self.read(); // equals sign or colon
            let (value, vd) = self.parse_expression();
            let failed = has_errors(&vd);
            diags.extend(vd);
            items.push(ObjectItem { key, value });
            if self.recovery && failed {
                close = self.recover(T::CBrace);
                break;
            }
            let next = self.peek();
            if next.ty == T::CBrace {
                close = self.read();
                break;
            }
            if next.ty != T::Comma && next.ty != T::Newline {
                if !self.recovery {
                    let nr = self.range(next);
                    diags.push(if next.ty == T::Eof {
                        Diagnostic::error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open_range.clone(),
                        )
                    } else {
                        Diagnostic::error(
                            "Missing attribute separator",
                            "Expected a newline or comma to mark the beginning of the next attribute.",
                            nr.clone(),
                        )
                        .with_context(open_range.to(&nr))
                    });
                }
                close = self.recover(T::CBrace);
                break;
            }
            self.read(); // comma or newline
        }
        let range = open_range.to(&self.range(close));
        (Expr::new(ExprKind::Object(exact(items)), range), diags)
    }

    fn for_error(&mut self, open: Tok, close_ty: T, detail: &str, diags: &mut Diagnostics) -> Expr {
        if !self.recovery {
            let nr = self.next_range();
            diags.push(
                Diagnostic::error("Invalid 'for' expression", detail, nr.clone())
                    .with_context(self.range(open).to(&nr)),
            );
        }
        let close = self.recover(close_ty);
        placeholder(self.range(open).to(&self.range(close)))
    }

    fn finish_for_expr(&mut self, open: Tok) -> (Expr, Diagnostics) {
        self.read(); // "for"
        let make_obj = open.ty == T::OBrace;
        let close_ty = if make_obj { T::CBrace } else { T::CBrack };
        let open_range = self.range(open);
        let mut diags = Diagnostics::new();

        if self.peek().ty != T::Ident {
            let e = self.for_error(
                open,
                close_ty,
                "For expression requires variable name after 'for'.",
                &mut diags,
            );
            return (e, diags);
        }
        let first = self.read();
        let mut val_name = self.bytes(first).to_string();
        let mut key_name = None;
        if self.peek().ty == T::Comma {
            key_name = Some(val_name);
            self.read();
            if self.peek().ty != T::Ident {
                let e = self.for_error(
                    open,
                    close_ty,
                    "For expression requires value variable name after comma.",
                    &mut diags,
                );
                return (e, diags);
            }
            let second = self.read();
            val_name = self.bytes(second).to_string();
        }
        if !self.peek_keyword("in") {
            let e = self.for_error(
                open,
                close_ty,
                "For expression requires the 'in' keyword after its name declarations.",
                &mut diags,
            );
            return (e, diags);
        }
        self.read();
        let (coll, cd) = self.parse_expression();
        let failed = has_errors(&cd);
        diags.extend(cd);
        if self.recovery && failed {
            let close = self.recover(close_ty);
            return (placeholder(open_range.to(&self.range(close))), diags);
        }
        if self.peek().ty != T::Colon {
            let e = self.for_error(
                open,
                close_ty,
                "For expression requires a colon after the collection expression.",
                &mut diags,
            );
            return (e, diags);
        }
        self.read();

        let (mut val_expr, mut vd) = self.parse_expression();
        let mut key_expr = None;
        let mut kd = Diagnostics::new();
        if self.peek().ty == T::FatArrow {
            self.read();
            key_expr = Some(val_expr);
            kd = vd;
            (val_expr, vd) = self.parse_expression();
        }
        let failed = has_errors(&kd) || has_errors(&vd);
        diags.extend(kd);
        diags.extend(vd);
        if self.recovery && failed {
            let close = self.recover(close_ty);
            return (placeholder(open_range.to(&self.range(close))), diags);
        }

        let mut ellipsis: Option<Range> = None;
        if self.peek().ty == T::Ellipsis {
            let e = self.read();
            ellipsis = Some(self.range(e));
        }

        let mut condition = None;
        if self.peek_keyword("if") {
            self.read();
            let (cond, cd) = self.parse_expression();
            let failed = has_errors(&cd);
            diags.extend(cd);
            if self.recovery && failed {
                let close = self.recover(close_ty);
                return (placeholder(open_range.to(&self.range(close))), diags);
            }
            condition = Some(Box::new(cond));
        }

        let close = if self.peek().ty == close_ty {
            self.read()
        } else {
            if !self.recovery {
                let nr = self.next_range();
                diags.push(
                    Diagnostic::error(
                        "Invalid 'for' expression",
                        "Extra characters after the end of the 'for' expression.",
                        nr.clone(),
                    )
                    .with_context(open_range.to(&nr)),
                );
            }
            self.recover(close_ty)
        };
        let close_range = self.range(close);
        let whole = open_range.to(&close_range);

        if !make_obj {
            if let Some(k) = &key_expr {
                diags.push(
                    Diagnostic::error(
                        "Invalid 'for' expression",
                        "Key expression is not valid when building a tuple.",
                        k.range.clone(),
                    )
                    .with_context(whole.clone()),
                );
            }
            if let Some(e) = &ellipsis {
                diags.push(
                    Diagnostic::error(
                        "Invalid 'for' expression",
                        "Grouping ellipsis (...) cannot be used when building a tuple.",
                        e.clone(),
                    )
                    .with_context(whole.clone()),
                );
            }
        } else if key_expr.is_none() {
            diags.push(
                Diagnostic::error(
                    "Invalid 'for' expression",
                    "Key expression is required when building an object.",
                    val_expr.range.clone(),
                )
                .with_context(whole.clone()),
            );
        }

        let f = ForExpr {
            key_var: key_name,
            value_var: val_name,
            collection: Box::new(coll),
            key_expr: key_expr.map(Box::new),
            value_expr: Box::new(val_expr),
            condition,
            group: ellipsis.is_some(),
            open_range,
            close_range,
        };
        (Expr::new(ExprKind::For(Box::new(f)), whole), diags)
    }

    /// A quoted string that may not contain template sequences (block
    /// labels, traversal index keys). Returns the value and its range.
    pub fn parse_quoted_string_literal(&mut self) -> (String, Range, Diagnostics) {
        let oquote = self.read();
        let oq_range = self.range(oquote);
        if oquote.ty != T::OQuote {
            let d = Diagnostic::error(
                "Invalid string literal",
                "A quoted string is required here.",
                oq_range.clone(),
            );
            return (String::new(), oq_range, vec![d]);
        }
        let mut diags = Diagnostics::new();
        let mut ret = String::new();
        let end_range;
        loop {
            let tok = self.read();
            let tr = self.range(tok);
            match tok.ty {
                T::CQuote => {
                    end_range = tr;
                    break;
                }
                T::QuotedLit => {
                    let (s, d) = decode_literal(self.bytes(tok), true, &tr);
                    diags.extend(d);
                    ret.push_str(&s);
                }
                T::TemplateControl | T::TemplateInterp => {
                    let which = if tok.ty == T::TemplateControl {
                        "%"
                    } else {
                        "$"
                    };
                    diags.push(
                        Diagnostic::error(
                            "Invalid string literal",
                            format!(
                                "Template sequences are not allowed in this string. To include a literal \"{which}\", double it (as \"{which}{which}\") to escape it."
                            ),
                            tr.clone(),
                        )
                        .with_context(oq_range.to(&tr)),
                    );
                    ret.push_str(which);
                    ret.push_str("{ ... }");
                    self.recover(T::TemplateSeqEnd);
                }
                T::Eof => {
                    diags.push(
                        Diagnostic::error(
                            "Unterminated string literal",
                            "Unable to find the closing quote mark before the end of the file.",
                            tr.clone(),
                        )
                        .with_context(oq_range.to(&tr)),
                    );
                    end_range = tr;
                    break;
                }
                _ => {
                    diags.push(
                        Diagnostic::error(
                            "Invalid string literal",
                            "This item is not valid in a string literal.",
                            tr.clone(),
                        )
                        .with_context(oq_range.to(&tr)),
                    );
                    self.recover(T::CQuote);
                    end_range = tr;
                    break;
                }
            }
        }
        (ret, oq_range.to(&end_range), diags)
    }
}
