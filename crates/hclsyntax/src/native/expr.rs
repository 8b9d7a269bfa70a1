//! Expressions: conditionals, binary operators (left-associative, HCL's
//! six precedence levels), unary operators, terms and their traversals,
//! splats and indexes. A port of the expression half of HCL's `parser.go`;
//! collections and calls are in `collections.rs`, templates in
//! `template.rs`.

use super::exact::push_short;
use super::parser::{placeholder, too_deep, Parser, TOO_DEEP_SUMMARY};
use super::token::T;
use crate::ast::{BinaryOp, Expr, ExprKind, Literal, StepKind, Traversal, TraversalStep, UnaryOp};
use crate::diagnostic::{has_errors, Diagnostic, Diagnostics};
use crate::pos::Range;

/// The operator a token stands for and its precedence (higher binds
/// tighter), as HCL's `binaryOps` table.
fn binary_op(ty: T) -> Option<(BinaryOp, u8)> {
    Some(match ty {
        T::Or => (BinaryOp::Or, 1),
        T::And => (BinaryOp::And, 2),
        T::EqualOp => (BinaryOp::Equal, 3),
        T::NotEqual => (BinaryOp::NotEqual, 3),
        T::GreaterThan => (BinaryOp::Greater, 4),
        T::GreaterThanEq => (BinaryOp::GreaterOrEqual, 4),
        T::LessThan => (BinaryOp::Less, 4),
        T::LessThanEq => (BinaryOp::LessOrEqual, 4),
        T::Plus => (BinaryOp::Add, 5),
        T::Minus => (BinaryOp::Subtract, 5),
        T::Star => (BinaryOp::Multiply, 6),
        T::Slash => (BinaryOp::Divide, 6),
        T::Percent => (BinaryOp::Modulo, 6),
        _ => return None,
    })
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let range = lhs.range.to(&rhs.range);
    Expr::new(
        ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        range,
    )
}

/// Appends a traversal step to `expr`, extending a traversal in place or
/// starting a relative one (HCL's `makeRelativeTraversal`).
pub(super) fn make_relative_traversal(mut expr: Expr, step: TraversalStep) -> Expr {
    let range = expr.range.to(&step.range);
    match &mut expr.kind {
        ExprKind::ScopeTraversal(t) => {
            push_short(&mut t.steps, step);
            expr.range = range;
            expr
        }
        ExprKind::RelativeTraversal { steps, .. } => {
            push_short(steps, step);
            expr.range = range;
            expr
        }
        _ => Expr::new(
            ExprKind::RelativeTraversal {
                source: Box::new(expr),
                steps: vec![step],
            },
            range,
        ),
    }
}

impl Parser<'_> {
    /// One expression (HCL's `ParseExpression`), one nesting level deeper.
    pub fn parse_expression(&mut self) -> (Expr, Diagnostics) {
        if !self.enter() {
            return self.too_deep_here();
        }
        let r = self.parse_ternary();
        self.leave();
        r
    }

    fn parse_ternary(&mut self) -> (Expr, Diagnostics) {
        // The range is only needed for a conditional: most expressions
        // are not one, so it is computed from the token when it is.
        let start = self.peek();
        let (cond, mut diags) = self.parse_binary_ops();
        if self.recovery && has_errors(&diags) {
            return (cond, diags);
        }
        if self.peek().ty != T::Question {
            return (cond, diags);
        }
        self.read();
        let start_range = self.range(start);
        let (true_result, td) = self.parse_expression();
        let failed = has_errors(&td);
        diags.extend(td);
        if self.recovery && failed {
            return (cond, diags);
        }
        let colon = self.peek();
        if colon.ty != T::Colon {
            let cr = self.range(colon);
            diags.push(
                Diagnostic::error(
                    "Missing false expression in conditional",
                    "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                    cr.clone(),
                )
                .with_context(start_range.to(&cr)),
            );
            return (cond, diags);
        }
        self.read();
        let (false_result, fd) = self.parse_expression();
        let failed = has_errors(&fd);
        diags.extend(fd);
        if self.recovery && failed {
            return (cond, diags);
        }
        let range = start_range.to(&false_result.range);
        let expr = Expr::new(
            ExprKind::Conditional {
                condition: Box::new(cond),
                true_result: Box::new(true_result),
                false_result: Box::new(false_result),
            },
            range,
        );
        (expr, diags)
    }

    /// Operator precedence by an explicit stack rather than HCL's one
    /// recursive call per precedence level; the trees are the same.
    fn parse_binary_ops(&mut self) -> (Expr, Diagnostics) {
        let (first, mut diags) = self.parse_expression_with_traversals();
        if self.recovery && has_errors(&diags) {
            return (first, diags);
        }
        if binary_op(self.peek().ty).is_none() {
            // Most operands stand alone: no operator stack to build.
            return (first, diags);
        }
        // Room for the usual `a op b` and `a op b op c` without regrowing.
        let mut operands = Vec::with_capacity(3);
        operands.push(first);
        let mut ops: Vec<(BinaryOp, u8)> = Vec::with_capacity(2);
        let mut deepened = 0;
        while let Some((op, prec)) = binary_op(self.peek().ty) {
            if !self.deepen() {
                if !diags.iter().any(|d| d.summary == TOO_DEEP_SUMMARY) {
                    diags.push(too_deep(self.next_range()));
                }
                self.set_recovery();
                break;
            }
            deepened += 1;
            while let Some(&(_, top)) = ops.last() {
                if top < prec {
                    break;
                }
                reduce(&mut operands, &mut ops);
            }
            ops.push((op, prec));
            self.read();
            let (rhs, rd) = self.parse_expression_with_traversals();
            let failed = has_errors(&rd);
            diags.extend(rd);
            operands.push(rhs);
            if self.recovery && failed {
                break;
            }
        }
        while !ops.is_empty() {
            reduce(&mut operands, &mut ops);
        }
        self.undeepen(deepened);
        let expr = operands.pop().expect("one operand remains after reducing");
        (expr, diags)
    }

    pub fn parse_expression_with_traversals(&mut self) -> (Expr, Diagnostics) {
        let (term, mut diags) = self.parse_expression_term();
        let (ret, more) = self.parse_expression_traversals(term);
        diags.extend(more);
        (ret, diags)
    }

    fn parse_expression_traversals(&mut self, from: Expr) -> (Expr, Diagnostics) {
        let mut diags = Diagnostics::new();
        let from_range = from.range.clone();
        let mut ret = from;
        let mut deepened = 0;
        loop {
            let next = self.peek();
            // Indexes and splats wrap what came before: each deepens the tree.
            if matches!(next.ty, T::OBrack | T::Dot) {
                if !self.deepen() {
                    if !self.recovery {
                        diags.push(too_deep(self.range(next)));
                    }
                    self.set_recovery();
                    break;
                }
                deepened += 1;
            }
            match next.ty {
                T::Dot => {
                    let dot = self.read();
                    let dot_range = self.range(dot);
                    let attr_tok = self.peek();
                    match attr_tok.ty {
                        T::Ident => {
                            let t = self.read();
                            let step = TraversalStep {
                                kind: StepKind::Attr(self.bytes(t).to_string()),
                                range: dot_range.to(&self.range(t)),
                            };
                            ret = make_relative_traversal(ret, step);
                        }
                        T::NumberLit => {
                            let num = self.read();
                            let (key, d) = self.legacy_index_key(num, false);
                            diags.extend(d);
                            let step = TraversalStep {
                                kind: StepKind::Index(key),
                                range: dot_range.to(&self.range(num)),
                            };
                            ret = make_relative_traversal(ret, step);
                        }
                        T::Star => {
                            let (splat, d) = self.finish_attr_splat(ret, &from_range, dot_range);
                            diags.extend(d);
                            ret = splat;
                        }
                        _ => {
                            diags.push(Diagnostic::error(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                self.range(attr_tok),
                            ));
                            ret = placeholder(from_range.to(&dot_range));
                            self.set_recovery();
                        }
                    }
                }
                T::OBrack => {
                    let open = self.read();
                    let open_range = self.range(open);
                    if self.peek().ty == T::Star {
                        self.read();
                        let mut close = self.read();
                        if close.ty != T::CBrack && !self.recovery {
                            diags.push(Diagnostic::error(
                                "Missing close bracket on splat index",
                                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                                self.range(close),
                            ));
                            close = self.recover(T::CBrack);
                        }
                        let marker_range = open_range.to(&self.range(close));
                        let item = Expr::new(ExprKind::AnonSymbol, marker_range.clone());
                        // The full splat takes every following step.
                        if !self.enter() {
                            diags.extend(self.too_deep_here().1);
                            break;
                        }
                        let (each, nd) = self.parse_expression_traversals(item);
                        self.leave();
                        diags.extend(nd);
                        let range = from_range.to(&each.range);
                        ret = Expr::new(
                            ExprKind::Splat {
                                source: Box::new(ret),
                                each: Box::new(each),
                                marker_range,
                            },
                            range,
                        );
                    } else {
                        self.push_newlines(false);
                        let (key, kd) = self.parse_expression();
                        let failed = has_errors(&kd);
                        diags.extend(kd);
                        let close = if self.recovery && failed {
                            self.recover(T::CBrack)
                        } else {
                            let mut close = self.read();
                            if close.ty != T::CBrack && !self.recovery {
                                diags.push(Diagnostic::error(
                                    "Missing close bracket on index",
                                    "The index operator must end with a closing bracket (\"]\").",
                                    self.range(close),
                                ));
                                close = self.recover(T::CBrack);
                            }
                            close
                        };
                        self.pop_newlines();
                        let rng = open_range.to(&self.range(close));
                        ret = match key.kind {
                            ExprKind::Literal(lit) => make_relative_traversal(
                                ret,
                                TraversalStep {
                                    kind: StepKind::Index(lit),
                                    range: rng,
                                },
                            ),
                            _ => {
                                let range = from_range.to(&rng);
                                Expr::new(
                                    ExprKind::Index {
                                        collection: Box::new(ret),
                                        key: Box::new(key),
                                        open_bracket_range: open_range,
                                    },
                                    range,
                                )
                            }
                        };
                    }
                }
                _ => break,
            }
        }
        self.undeepen(deepened);
        (ret, diags)
    }

    /// The key of a legacy `.0` index; `0.1` (two chained indexes read as
    /// one number) is an error.
    fn legacy_index_key(&self, num: super::parser::Tok, in_splat: bool) -> (Literal, Diagnostics) {
        let text = self.bytes(num);
        match text.split_once('.') {
            Some((first, second)) => {
                let proper = if in_splat {
                    "Use the proper index syntax with a full splat expression [*] instead"
                } else {
                    "Use the proper index syntax instead"
                };
                let d = Diagnostic::error(
                    "Invalid legacy index syntax",
                    format!(
                        "When using the legacy index syntax, chaining two indexes together is not permitted. {proper}, like [{first}][{second}]."
                    ),
                    self.range(num),
                );
                (Literal::Null, vec![d])
            }
            None => (Literal::Number(text.to_string()), Vec::new()),
        }
    }

    /// `.*` followed by attribute (and legacy index) steps only.
    fn finish_attr_splat(
        &mut self,
        source: Expr,
        from_range: &Range,
        dot_range: Range,
    ) -> (Expr, Diagnostics) {
        let mut diags = Diagnostics::new();
        let marker = self.read();
        let marker_range = dot_range.to(&self.range(marker));
        let mut steps: Vec<TraversalStep> = Vec::new();
        let first_range = self.next_range();
        let mut last_range = self.range(marker);
        while self.peek().ty == T::Dot {
            let dot = self.read();
            let dr = self.range(dot);
            let next = self.peek();
            if next.ty == T::NumberLit {
                let num = self.read();
                let (key, d) = self.legacy_index_key(num, true);
                diags.extend(d);
                last_range = self.range(num);
                steps.push(TraversalStep {
                    kind: StepKind::Index(key),
                    range: dr.to(&last_range),
                });
                continue;
            }
            if next.ty != T::Ident {
                if !self.recovery {
                    diags.push(if next.ty == T::Star {
                        Diagnostic::error(
                            "Nested splat expression not allowed",
                            "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                            self.range(next),
                        )
                    } else {
                        Diagnostic::error(
                            "Invalid attribute name",
                            "An attribute name is required after a dot.",
                            self.range(marker),
                        )
                    });
                }
                self.set_recovery();
                break;
            }
            let attr = self.read();
            last_range = self.range(attr);
            steps.push(TraversalStep {
                kind: StepKind::Attr(self.bytes(attr).to_string()),
                range: dr.to(&last_range),
            });
        }
        let item = Expr::new(ExprKind::AnonSymbol, marker_range.clone());
        let each = if steps.is_empty() {
            item
        } else {
            Expr::new(
                ExprKind::RelativeTraversal {
                    source: Box::new(item),
                    steps,
                },
                first_range.to(&last_range),
            )
        };
        let splat = Expr::new(
            ExprKind::Splat {
                source: Box::new(source),
                each: Box::new(each),
                marker_range,
            },
            from_range.to(&last_range),
        );
        (splat, diags)
    }

    fn parse_expression_term(&mut self) -> (Expr, Diagnostics) {
        let start = self.peek();
        match start.ty {
            T::OParen => {
                let open = self.read();
                self.push_newlines(false);
                let (expr, mut diags) = self.parse_expression();
                if has_errors(&diags) {
                    self.recover(T::CParen);
                    self.pop_newlines();
                    return (expr, diags);
                }
                let close = self.peek();
                if close.ty != T::CParen {
                    let cr = self.range(close);
                    diags.push(
                        Diagnostic::error(
                            "Unbalanced parentheses",
                            "Expected a closing parenthesis to terminate the expression.",
                            cr.clone(),
                        )
                        .with_context(self.range(start).to(&cr)),
                    );
                    self.set_recovery();
                }
                let cparen = self.read();
                self.pop_newlines();
                let range = self.range(open).to(&self.range(cparen));
                (Expr::new(ExprKind::Parens(Box::new(expr)), range), diags)
            }
            T::NumberLit => {
                let tok = self.read();
                let lit = Literal::Number(self.bytes(tok).to_string());
                (
                    Expr::new(ExprKind::Literal(lit), self.range(tok)),
                    Vec::new(),
                )
            }
            T::Ident => {
                let tok = self.read();
                if matches!(self.peek().ty, T::OParen | T::DoubleColon) {
                    return self.finish_function_call(tok);
                }
                let range = self.range(tok);
                let kind = match self.bytes(tok) {
                    "true" => ExprKind::Literal(Literal::Bool(true)),
                    "false" => ExprKind::Literal(Literal::Bool(false)),
                    "null" => ExprKind::Literal(Literal::Null),
                    name => ExprKind::ScopeTraversal(Traversal {
                        root: name.to_string(),
                        root_range: range.clone(),
                        steps: Vec::new(),
                    }),
                };
                (Expr::new(kind, range), Vec::new())
            }
            T::OQuote | T::OHeredoc => self.parse_template_term(),
            T::Minus | T::Bang => {
                let tok = self.read();
                let op = if start.ty == T::Minus {
                    UnaryOp::Negate
                } else {
                    UnaryOp::Not
                };
                // Only the term and its traversals: `-46+5` is `(-46)+5`.
                let (operand, diags) = if self.enter() {
                    let r = self.parse_expression_with_traversals();
                    self.leave();
                    r
                } else {
                    self.too_deep_here()
                };
                let range = self.range(tok).to(&operand.range);
                let expr = Expr::new(
                    ExprKind::Unary {
                        op,
                        operand: Box::new(operand),
                    },
                    range,
                );
                (expr, diags)
            }
            T::OBrack => self.parse_tuple_cons(),
            T::OBrace => self.parse_object_cons(),
            _ => {
                let mut diags = Diagnostics::new();
                let range = self.range(start);
                if !self.recovery {
                    diags.push(if start.ty == T::Eof {
                        Diagnostic::error(
                            "Missing expression",
                            "Expected the start of an expression, but found the end of the file.",
                            range.clone(),
                        )
                    } else {
                        Diagnostic::error(
                            "Invalid expression",
                            "Expected the start of an expression, but found an invalid expression token.",
                            range.clone(),
                        )
                    });
                }
                self.set_recovery();
                (placeholder(range), diags)
            }
        }
    }
}

fn reduce(operands: &mut Vec<Expr>, ops: &mut Vec<(BinaryOp, u8)>) {
    let (op, _) = ops.pop().expect("reduce called with an operator");
    let rhs = operands.pop().expect("binary operator has a right operand");
    let lhs = operands.pop().expect("binary operator has a left operand");
    operands.push(binary(op, lhs, rhs));
}
