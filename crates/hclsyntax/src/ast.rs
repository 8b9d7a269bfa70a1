//! The lowered expression tree, shared by native and JSON syntax.
//!
//! The shapes mirror HCL's `hclsyntax` expression types, so that evaluation
//! rules can be taken from HCL one for one: templates hold their parts as
//! expressions (`%{if}` is a [`ExprKind::Conditional`], `%{for}` a
//! [`ExprKind::TemplateJoin`] over a `for` expression), strip markers are
//! already applied to literal parts, heredocs are already dedented.

use crate::pos::Range;

/// An expression with the range of source it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub range: Range,
}

/// A literal value as written. Numbers keep their source text so that the
/// evaluator can read them at full (512-bit) precision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literal {
    Null,
    Bool(bool),
    Number(String),
    String(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Equal,
    NotEqual,
    Greater,
    GreaterOrEqual,
    Less,
    LessOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

impl BinaryOp {
    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterOrEqual => ">=",
            BinaryOp::Less => "<",
            BinaryOp::LessOrEqual => "<=",
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Negate,
    Not,
}

/// One step of a traversal: `.name`, `[key]` with a literal key, or the
/// legacy `.0` index.
#[derive(Debug, Clone, PartialEq)]
pub struct TraversalStep {
    pub kind: StepKind,
    pub range: Range,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StepKind {
    Attr(String),
    Index(Literal),
}

/// A variable name followed by attribute and literal-index steps, as
/// `var.x.y[0]`: what references are made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Traversal {
    pub root: String,
    pub root_range: Range,
    pub steps: Vec<TraversalStep>,
}

impl Traversal {
    /// The range of the whole traversal.
    pub fn range(&self) -> Range {
        match self.steps.last() {
            Some(last) => self.root_range.to(&last.range),
            None => self.root_range.clone(),
        }
    }

    /// The traversal as HCL prints it (`var.x["k"][0]`).
    pub fn display(&self) -> String {
        let mut s = self.root.clone();
        for step in &self.steps {
            push_step(&mut s, &step.kind);
        }
        s
    }
}

/// Appends one traversal step as written in canonical form.
pub fn push_step(s: &mut String, step: &StepKind) {
    match step {
        StepKind::Attr(name) => {
            s.push('.');
            s.push_str(name);
        }
        StepKind::Index(Literal::String(k)) => {
            s.push('[');
            s.push_str(&quote_string(k));
            s.push(']');
        }
        StepKind::Index(Literal::Number(n)) => {
            s.push('[');
            s.push_str(n);
            s.push(']');
        }
        StepKind::Index(Literal::Bool(b)) => {
            s.push_str(if *b { "[true]" } else { "[false]" });
        }
        StepKind::Index(Literal::Null) => s.push_str("[null]"),
    }
}

/// A string quoted as HCL writes a string literal in a traversal's
/// canonical form (`a["k"]`): quotes, backslashes and `\n \r \t` escaped,
/// other controls as `\u00XX`. Not Go's `%q` (that is [`crate::go_quote`],
/// for messages) nor hclwrite's escaping ([`crate::hclwrite_quote`]).
pub fn quote_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A function call `name(args...)`, with `...` expansion of the last
/// argument when `expand_final` is set. `name` includes any namespace
/// (`provider::aws::arn_parse`, `core::max`).
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCall {
    pub name: String,
    pub name_range: Range,
    pub args: Vec<Expr>,
    pub expand_final: bool,
    pub open_paren_range: Range,
    pub close_paren_range: Range,
}

/// A `for` expression: `[for k, v in coll : val if cond]` or
/// `{for k, v in coll : key => val... if cond}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ForExpr {
    /// `k` in `for k, v in ...`; `None` for `for v in ...`.
    pub key_var: Option<String>,
    pub value_var: String,
    pub collection: Box<Expr>,
    /// Present for object results (`{for ...}`).
    pub key_expr: Option<Box<Expr>>,
    pub value_expr: Box<Expr>,
    pub condition: Option<Box<Expr>>,
    /// The `...` grouping mode of object results.
    pub group: bool,
    pub open_range: Range,
    pub close_range: Range,
}

/// One `key = value` item of an object constructor.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: Expr,
}

/// An object key. A bare identifier (`foo = 1`) is the literal string
/// `"foo"` unless `force_non_literal` (it was parenthesized), in which case
/// it is evaluated as a reference.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectKey {
    pub expr: Expr,
    pub force_non_literal: bool,
}

impl ObjectKey {
    /// The literal name of a bare-identifier key, if this is one.
    pub fn as_bare_name(&self) -> Option<&str> {
        if self.force_non_literal {
            return None;
        }
        match &self.expr.kind {
            ExprKind::ScopeTraversal(t) if t.steps.is_empty() => Some(&t.root),
            _ => None,
        }
    }
}

/// A JSON value with ranges, as found in a `.tf.json` file. What it means
/// depends on where it is used: strings are templates in expression
/// positions and traversals where HCL wants a static reference.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonNode {
    pub value: JsonValue,
    pub range: Range,
}

#[derive(Debug, Clone, PartialEq)]
pub enum JsonValue {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    String(String),
    Array(Vec<JsonNode>),
    /// Properties in source order; duplicates kept.
    Object(Vec<JsonProperty>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct JsonProperty {
    pub name: String,
    pub name_range: Range,
    pub value: JsonNode,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Literal(Literal),
    /// A quoted string or heredoc with interpolations or directives.
    Template(Vec<Expr>),
    /// `"${x}"`: a template of exactly one interpolation, which yields `x`'s
    /// value itself, unconverted.
    TemplateWrap(Box<Expr>),
    /// The result of a `%{for}` directive: the `for` expression's tuple of
    /// strings, joined.
    TemplateJoin(Box<Expr>),
    ScopeTraversal(Traversal),
    /// Traversal steps applied to the result of another expression
    /// (`f(x).a[0]`, `(x).y`).
    RelativeTraversal {
        source: Box<Expr>,
        steps: Vec<TraversalStep>,
    },
    /// `collection[key]` with a non-literal key.
    Index {
        collection: Box<Expr>,
        key: Box<Expr>,
        open_bracket_range: Range,
    },
    /// `source[*].each` or `source.*.each`: `each` is evaluated once per
    /// element with [`ExprKind::AnonSymbol`] standing for the element.
    Splat {
        source: Box<Expr>,
        each: Box<Expr>,
        marker_range: Range,
    },
    /// The element placeholder inside a splat's `each`.
    AnonSymbol,
    /// Boxed, as is [`ExprKind::For`], to keep every expression small.
    FunctionCall(Box<FunctionCall>),
    Conditional {
        condition: Box<Expr>,
        true_result: Box<Expr>,
        false_result: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Tuple(Vec<Expr>),
    Object(Vec<ObjectItem>),
    For(Box<ForExpr>),
    Parens(Box<Expr>),
    /// A value from a JSON file; see [`JsonNode`].
    Json(JsonNode),
}

impl Expr {
    pub fn new(kind: ExprKind, range: Range) -> Expr {
        Expr { kind, range }
    }

    /// Every scope traversal this expression reads, in source order,
    /// excluding the variables bound by `for` expressions inside it (HCL's
    /// `Variables()`).
    ///
    /// JSON values are read as expressions whose strings are templates.
    pub fn variables(&self) -> Vec<Traversal> {
        let mut out = Vec::new();
        self.each_variable(&mut |t| out.push(t.clone()));
        out
    }

    /// Calls `f` with each traversal [`Expr::variables`] returns, in the
    /// same order, without copying them: evaluation asks this of every
    /// expression of every instance.
    pub fn each_variable(&self, f: &mut dyn FnMut(&Traversal)) {
        visit_variables(self, &mut Vec::new(), f);
    }

    /// Whether this is a `null` literal.
    pub fn is_null_literal(&self) -> bool {
        match &self.kind {
            ExprKind::Literal(Literal::Null) => true,
            ExprKind::Json(node) => node.value == JsonValue::Null,
            _ => false,
        }
    }

    /// Removes any number of wrapping parentheses.
    pub fn unwrap_parens(&self) -> &Expr {
        let mut e = self;
        while let ExprKind::Parens(inner) = &e.kind {
            e = inner;
        }
        e
    }
}

fn visit_variables(expr: &Expr, bound: &mut Vec<String>, out: &mut dyn FnMut(&Traversal)) {
    match &expr.kind {
        ExprKind::Literal(_) | ExprKind::AnonSymbol => {}
        ExprKind::Json(node) => {
            // JSON strings in expression positions are templates.
            let (e, _) = crate::json::to_expression(node, crate::json::StringMode::Template);
            if !matches!(e.kind, ExprKind::Json(_)) {
                visit_variables(&e, bound, out);
            }
        }
        ExprKind::Template(parts) | ExprKind::Tuple(parts) => {
            for p in parts {
                visit_variables(p, bound, out);
            }
        }
        ExprKind::TemplateWrap(e) | ExprKind::TemplateJoin(e) | ExprKind::Parens(e) => {
            visit_variables(e, bound, out)
        }
        ExprKind::ScopeTraversal(t) => {
            if !bound.contains(&t.root) {
                out(t);
            }
        }
        ExprKind::RelativeTraversal { source, .. } => visit_variables(source, bound, out),
        ExprKind::Index {
            collection, key, ..
        } => {
            visit_variables(collection, bound, out);
            visit_variables(key, bound, out);
        }
        ExprKind::Splat { source, each, .. } => {
            visit_variables(source, bound, out);
            visit_variables(each, bound, out);
        }
        ExprKind::FunctionCall(call) => {
            for a in &call.args {
                visit_variables(a, bound, out);
            }
        }
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => {
            visit_variables(condition, bound, out);
            visit_variables(true_result, bound, out);
            visit_variables(false_result, bound, out);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            visit_variables(lhs, bound, out);
            visit_variables(rhs, bound, out);
        }
        ExprKind::Unary { operand, .. } => visit_variables(operand, bound, out),
        ExprKind::Object(items) => {
            for item in items {
                if item.key.as_bare_name().is_none() {
                    visit_variables(&item.key.expr, bound, out);
                }
                visit_variables(&item.value, bound, out);
            }
        }
        ExprKind::For(f) => {
            visit_variables(&f.collection, bound, out);
            let before = bound.len();
            if let Some(k) = &f.key_var {
                bound.push(k.clone());
            }
            bound.push(f.value_var.clone());
            if let Some(k) = &f.key_expr {
                visit_variables(k, bound, out);
            }
            visit_variables(&f.value_expr, bound, out);
            if let Some(c) = &f.condition {
                visit_variables(c, bound, out);
            }
            bound.truncate(before);
        }
    }
}
