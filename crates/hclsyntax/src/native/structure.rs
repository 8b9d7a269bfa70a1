//! Bodies, blocks and attributes: a port of `ParseBody`,
//! `ParseBodyItem`, `finishParsingBodyAttribute`, `finishParsingBodyBlock`
//! and `parseSingleAttrBody` from HCL's `parser.go`, with its messages.

use std::collections::HashMap;
use std::sync::Arc;

use super::parser::{Parser, Tok};
use super::token::T;
use crate::body::{Attribute, Block, Body, Label};
use crate::diagnostic::{has_errors, Diagnostic, Diagnostics};
use crate::pos::Range;

/// What a body holds, before it becomes a [`Body`].
pub(super) struct BodyParts {
    pub attrs: Vec<Arc<Attribute>>,
    pub blocks: Vec<Arc<Block>>,
    pub range: Range,
}

impl BodyParts {
    /// The body, with HCL's `MissingItemRange`: an empty range at its start.
    pub fn into_body(self) -> Body {
        let missing = self.range.start_range();
        Body::native(self.attrs, self.blocks, self.range, missing)
    }
}

enum Item {
    Attr(Attribute),
    Block(Block),
}

const ITEM_REQUIRED: &str = "Argument or block definition required";

impl Parser<'_> {
    /// Parses body items up to the `end` token (`CBrace` for a block,
    /// `Eof` for a file).
    pub fn parse_body(&mut self, end: T) -> (BodyParts, Diagnostics) {
        let mut attrs: Vec<Arc<Attribute>> = Vec::new();
        let mut seen: HashMap<String, Range> = HashMap::new();
        let mut blocks = Vec::new();
        let mut diags = Diagnostics::new();
        let start_range = self.prev_range();
        let end_range;
        loop {
            let next = self.peek();
            if next.ty == end {
                end_range = self.next_range();
                self.read();
                break;
            }
            match next.ty {
                T::Newline => {
                    self.read();
                }
                T::Ident => {
                    let (item, item_diags) = self.parse_body_item();
                    diags.extend(item_diags);
                    match item {
                        Some(Item::Block(b)) => blocks.push(Arc::new(b)),
                        Some(Item::Attr(a)) => {
                            if let Some(existing) = seen.get(&a.name) {
                                diags.push(Diagnostic::error(
                                    "Attribute redefined",
                                    format!(
                                        "The argument \"{}\" was already set at {existing}. Each argument may be set only once.",
                                        a.name
                                    ),
                                    a.name_range.clone(),
                                ));
                            } else {
                                seen.insert(a.name.clone(), a.name_range.clone());
                                attrs.push(Arc::new(a));
                            }
                        }
                        None => {}
                    }
                }
                _ => {
                    let bad = self.read();
                    if !self.recovery {
                        let subject = self.range(bad);
                        diags.push(match bad.ty {
                            T::OQuote => Diagnostic::error(
                                "Invalid argument name",
                                "Argument names must not be quoted.",
                                subject,
                            ),
                            T::Eof if end == T::CBrace => Diagnostic::error(
                                "Unclosed configuration block",
                                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                start_range.clone(),
                            ),
                            T::Eof => Diagnostic::error(
                                "Unclosed configuration body",
                                "Found end of file before the end of this configuration body.",
                                start_range.clone(),
                            ),
                            _ => Diagnostic::error(
                                ITEM_REQUIRED,
                                "An argument or block definition is required here.",
                                subject,
                            ),
                        });
                    }
                    end_range = self.prev_range();
                    self.recover(end);
                    break;
                }
            }
        }
        let parts = BodyParts {
            attrs,
            blocks,
            range: start_range.to(&end_range),
        };
        (parts, diags)
    }

    fn parse_body_item(&mut self) -> (Option<Item>, Diagnostics) {
        let ident = self.read();
        if ident.ty != T::Ident {
            self.recover_after_body_item();
            let d = Diagnostic::error(
                ITEM_REQUIRED,
                "An argument or block definition is required here.",
                self.range(ident),
            );
            return (None, vec![d]);
        }
        match self.peek().ty {
            T::Equal => {
                let (attr, diags) = self.finish_attribute(ident, false);
                (Some(Item::Attr(attr)), diags)
            }
            T::OQuote | T::OBrace | T::Ident => {
                let (block, diags) = self.finish_block(ident);
                (Some(Item::Block(block)), diags)
            }
            _ => {
                self.recover_after_body_item();
                let d = Diagnostic::error(
                    ITEM_REQUIRED,
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    self.range(ident),
                );
                (None, vec![d])
            }
        }
    }

    fn finish_attribute(&mut self, ident: Tok, single_line: bool) -> (Attribute, Diagnostics) {
        self.read(); // the equals sign
        let (expr, mut diags) = self.parse_expression();
        let end_range;
        if self.recovery && has_errors(&diags) {
            end_range = self.prev_range();
            self.recover_after_body_item();
        } else {
            end_range = self.prev_range();
            if !single_line {
                let end = self.peek();
                if end.ty != T::Newline && end.ty != T::Eof {
                    if !self.recovery {
                        let (summary, detail) = if end.ty == T::Comma {
                            ("Unexpected comma after argument", "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.")
                        } else {
                            (
                                "Missing newline after argument",
                                "An argument definition must end with a newline.",
                            )
                        };
                        let end_r = self.range(end);
                        diags.push(
                            Diagnostic::error(summary, detail, end_r.clone())
                                .with_context(self.range(ident).to(&end_r)),
                        );
                    }
                    self.recover_after_body_item();
                } else {
                    self.read(); // the newline
                }
            }
        }
        let name_range = self.range(ident);
        let attr = Attribute {
            name: self.bytes(ident).to_string(),
            range: name_range.to(&end_range),
            name_range,
            expr,
        };
        (attr, diags)
    }

    fn finish_block(&mut self, ident: Tok) -> (Block, Diagnostics) {
        let type_range = self.range(ident);
        let type_name = self.bytes(ident).to_string();
        let mut diags = Diagnostics::new();
        let mut labels: Vec<Label> = Vec::new();
        let o_brace;
        loop {
            let tok = self.peek();
            match tok.ty {
                T::OBrace => {
                    o_brace = self.read();
                    break;
                }
                T::OQuote => {
                    let (value, range, label_diags) = self.parse_quoted_string_literal();
                    diags.extend(label_diags);
                    labels.push(Label { value, range });
                }
                T::Ident => {
                    let t = self.read();
                    labels.push(Label {
                        value: self.bytes(t).to_string(),
                        range: self.range(t),
                    });
                }
                _ => {
                    let tr = self.range(tok);
                    let ctx = type_range.to(&tr);
                    let detail = match tok.ty {
                        T::Equal => Some("The equals sign \"=\" indicates an argument definition, and must not be used when defining a block."),
                        T::Newline => Some("A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."),
                        _ if !self.recovery => Some("Either a quoted string block label or an opening brace (\"{\") is expected here."),
                        _ => None,
                    };
                    if let Some(detail) = detail {
                        diags.push(
                            Diagnostic::error("Invalid block definition", detail, tr)
                                .with_context(ctx),
                        );
                    }
                    self.recover_after_body_item();
                    let end_range = labels
                        .last()
                        .map(|l| l.range.clone())
                        .unwrap_or_else(|| type_range.clone());
                    let block = Block {
                        type_name,
                        labels,
                        body: Body::empty(type_range.clone()),
                        open_brace_range: type_range.clone(),
                        close_brace_range: end_range,
                        type_range,
                    };
                    return (block, diags);
                }
            }
        }
        let open_brace_range = self.range(o_brace);

        if !self.enter() {
            diags.extend(self.too_deep_here().1);
            let close = self.recover(T::CBrace);
            let close_brace_range = self.range(close);
            let body = Body::empty(open_brace_range.to(&close_brace_range));
            let block = Block {
                type_name,
                type_range,
                labels,
                body,
                open_brace_range,
                close_brace_range,
            };
            return (block, diags);
        }
        let (body, body_diags) = match self.peek().ty {
            T::Newline | T::Eof | T::CBrace => {
                let (parts, d) = self.parse_body(T::CBrace);
                (Some(parts.into_body()), d)
            }
            _ => {
                let (body, d) = self.parse_single_attr_body();
                let next = self.peek();
                match next.ty {
                    T::CBrace => {
                        self.read();
                    }
                    T::Comma => {
                        diags.push(Diagnostic::error(
                            "Invalid single-argument block definition",
                            "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                            self.range(next),
                        ));
                        self.recover(T::CBrace);
                    }
                    T::Newline => {
                        diags.push(Diagnostic::error(
                            "Invalid single-argument block definition",
                            "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                            self.range(next),
                        ));
                        self.recover(T::CBrace);
                    }
                    _ => {
                        if !self.recovery {
                            if next.ty == T::Eof {
                                diags.push(
                                    Diagnostic::error(
                                        "Unclosed configuration block",
                                        "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                        open_brace_range.clone(),
                                    )
                                    .with_context(type_range.to(&open_brace_range)),
                                );
                            } else {
                                diags.push(Diagnostic::error(
                                    "Invalid single-argument block definition",
                                    "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                                    self.range(next),
                                ));
                            }
                        }
                        self.recover(T::CBrace);
                    }
                }
                (body, d)
            }
        };
        self.leave();
        diags.extend(body_diags);
        let close_brace_range = self.prev_range();

        let eol = self.peek();
        if eol.ty == T::Newline || eol.ty == T::Eof {
            self.read();
        } else {
            if !self.recovery {
                let r = self.range(eol);
                diags.push(
                    Diagnostic::error(
                        "Missing newline after block definition",
                        "A block definition must end with a newline.",
                        r.clone(),
                    )
                    .with_context(type_range.to(&r)),
                );
            }
            self.recover_after_body_item();
        }

        let body = body.unwrap_or_else(|| {
            let range = open_brace_range.to(&close_brace_range);
            let missing = range.start_range();
            Body::native(Vec::new(), Vec::new(), range, missing)
        });
        let block = Block {
            type_name,
            type_range,
            labels,
            body,
            open_brace_range,
            close_brace_range,
        };
        (block, diags)
    }

    /// `foo { bar = baz }`: a block body of exactly one attribute on the
    /// header's line.
    fn parse_single_attr_body(&mut self) -> (Option<Body>, Diagnostics) {
        let ident = self.read();
        if ident.ty != T::Ident {
            self.recover_after_body_item();
            let d = Diagnostic::error(
                ITEM_REQUIRED,
                "An argument or block definition is required here.",
                self.range(ident),
            );
            return (None, vec![d]);
        }
        let next = self.peek();
        match next.ty {
            T::Equal => {
                let (attr, diags) = self.finish_attribute(ident, true);
                let range = attr.range.clone();
                let missing = range.start_range();
                let body = Body::native(vec![Arc::new(attr)], Vec::new(), range, missing);
                (Some(body), diags)
            }
            T::OQuote | T::OBrace | T::Ident => {
                self.recover_after_body_item();
                let d = Diagnostic::error(
                    "Argument definition required",
                    format!(
                        "A single-line block definition can contain only a single argument. If you meant to define argument \"{}\", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
                        self.bytes(ident)
                    ),
                    self.range(ident).to(&self.range(next)),
                );
                (None, vec![d])
            }
            _ => {
                self.recover_after_body_item();
                let d = Diagnostic::error(
                    ITEM_REQUIRED,
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    self.range(ident),
                );
                (None, vec![d])
            }
        }
    }
}
