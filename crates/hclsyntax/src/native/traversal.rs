//! Absolute traversals alone (`aws_instance.foo[0]["k"]`), as HCL's
//! `ParseTraversalAbs` reads them: a root name, then attribute and literal
//! index steps only, up to the end of input.

use super::parser::Parser;
use super::token::T;
use crate::ast::{Literal, StepKind, Traversal, TraversalStep};
use crate::diagnostic::{has_errors, Diagnostic, Diagnostics};

impl Parser<'_> {
    pub fn parse_traversal_abs(&mut self) -> (Option<Traversal>, Diagnostics) {
        let mut diags = Diagnostics::new();
        let var = self.read();
        let var_range = self.range(var);
        if var.ty != T::Ident {
            diags.push(Diagnostic::error(
                "Variable name required",
                "Must begin with a variable name.",
                var_range,
            ));
            return (None, diags);
        }
        let mut trav = Traversal {
            root: self.bytes(var).to_string(),
            root_range: var_range.clone(),
            steps: Vec::new(),
        };
        loop {
            let next = self.peek();
            match next.ty {
                T::Eof => return (Some(trav), diags),
                T::Dot => {
                    let dot = self.read();
                    let name = self.read();
                    let nr = self.range(name);
                    if name.ty != T::Ident {
                        let detail = if name.ty == T::Star {
                            "Splat expressions (.*) may not be used here."
                        } else {
                            "Dot must be followed by attribute name."
                        };
                        diags.push(
                            Diagnostic::error("Attribute name required", detail, nr.clone())
                                .with_context(var_range.to(&nr)),
                        );
                        return (Some(trav), diags);
                    }
                    trav.steps.push(TraversalStep {
                        kind: StepKind::Attr(self.bytes(name).to_string()),
                        range: self.range(dot).to(&nr),
                    });
                }
                T::OBrack => {
                    let open = self.read();
                    let open_range = self.range(open);
                    let key_tok = self.peek();
                    let key = match key_tok.ty {
                        T::NumberLit => {
                            let t = self.read();
                            Literal::Number(self.bytes(t).to_string())
                        }
                        T::OQuote => {
                            let (s, _, d) = self.parse_quoted_string_literal();
                            diags.extend(d);
                            Literal::String(s)
                        }
                        _ => {
                            let kr = self.range(key_tok);
                            let (summary, detail) = if key_tok.ty == T::Star {
                                (
                                    "Attribute name required",
                                    "Splat expressions ([*]) may not be used here.",
                                )
                            } else {
                                ("Index value required", "Index brackets must contain either a literal number or a literal string.")
                            };
                            diags.push(
                                Diagnostic::error(summary, detail, kr.clone())
                                    .with_context(var_range.to(&kr)),
                            );
                            return (Some(trav), diags);
                        }
                    };
                    let close = self.read();
                    let cr = self.range(close);
                    if close.ty != T::CBrack {
                        diags.push(
                            Diagnostic::error(
                                "Unclosed index brackets",
                                "Index key must be followed by a closing bracket.",
                                cr.clone(),
                            )
                            .with_context(open_range.to(&cr)),
                        );
                    }
                    trav.steps.push(TraversalStep {
                        kind: StepKind::Index(key),
                        range: open_range.to(&cr),
                    });
                    if has_errors(&diags) {
                        return (Some(trav), diags);
                    }
                }
                _ => {
                    let nr = self.range(next);
                    diags.push(
                        Diagnostic::error(
                            "Invalid character",
                            "Expected an attribute access or an index operator.",
                            nr.clone(),
                        )
                        .with_context(var_range.to(&nr)),
                    );
                    return (Some(trav), diags);
                }
            }
        }
    }
}
