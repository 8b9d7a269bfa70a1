//! A small expression tree the fuzzer builds with `arbitrary` and renders
//! to HCL source: function calls by index into the function library,
//! literals of every kind, collections, references to variables bound to
//! unknown, null and sensitive values, templates, `for` expressions and
//! operators. Generating the tree rather than bytes means nearly every
//! input parses, so the time goes to evaluation.

use arbitrary::Arbitrary;

use crate::text_gen::{hcl_quote, Text};
use crate::type_gen::NumberText;

/// Rendering stops descending here (and after [`MAX_NODES`] nodes):
/// deep nesting is the `syntax` target's business.
const MAX_DEPTH: usize = 12;
const MAX_NODES: usize = 300;

/// An expression.
#[derive(Arbitrary, Debug, Clone)]
pub enum Expr {
    Call(Call),
    Lit(Lit),
    Ref(Ref),
    Tuple(Vec<Expr>),
    Object(Vec<(Key, Expr)>),
    Template(Vec<Part>),
    Index(Box<Expr>, Box<Expr>),
    Attr(Box<Expr>, Key),
    Splat(Box<Expr>, bool),
    For(Box<For>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Paren(Box<Expr>),
}

/// A function call: `func` indexes the function list; with `exact_arity`
/// the arguments are cut or padded to the function's parameter count, so
/// that most calls get past the arity check; `expand` spreads the last
/// argument (`f(a, b...)`); `core` calls it as `core::NAME`.
#[derive(Arbitrary, Debug, Clone)]
pub struct Call {
    pub func: u16,
    pub args: Vec<Expr>,
    pub exact_arity: bool,
    pub expand: bool,
    pub core: bool,
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    Number(NumberText),
    Str(Text),
    /// A heredoc (`<<EOT` / `<<-EOT`).
    Heredoc(bool, Text),
}

/// The variables of [`crate::eval_data`], and the `for` iterators.
#[derive(Arbitrary, Debug, Clone)]
pub enum Ref {
    Var(u8),
    Local(u8),
    Key,
    Value,
    Path(u8),
    Workspace,
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Key {
    Name(u8),
    Quoted(Text),
    Number(u8),
    Expr(Box<Expr>),
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Part {
    Text(Text),
    Interp(Expr, bool),
    If(Expr, Vec<Part>, Vec<Part>),
    For(Expr, Vec<Part>),
}

/// `[for k, v in coll : v if cond]` or `{for k, v in coll : k => v...}`.
#[derive(Arbitrary, Debug, Clone)]
pub struct For {
    pub object: bool,
    pub coll: Expr,
    pub key: Option<Expr>,
    pub value: Expr,
    pub cond: Option<Expr>,
    pub group: bool,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    And,
    Or,
}

/// The names [`Ref::Var`] and [`Ref::Local`] pick from (bound by
/// [`crate::eval_data`]), plus one that is not bound.
pub const VAR_NAMES: &[&str] = &[
    "str",
    "num",
    "big",
    "bool",
    "list",
    "map",
    "set",
    "tuple",
    "obj",
    "nested",
    "multibyte",
    "unknown_str",
    "unknown_num",
    "unknown_list",
    "unknown_obj",
    "unknown_dyn",
    "partly_unknown",
    "null_str",
    "null_list",
    "null_dyn",
    "secret",
    "secret_list",
    "secret_map",
    "secret_inside",
    "secret_unknown",
    "empty_list",
    "empty_map",
    "empty_obj",
    "undeclared",
];

/// What the renderer needs of the function library.
pub struct Functions<'a> {
    pub names: &'a [String],
    /// Parameter count of a function, and whether it takes more.
    pub arity: &'a dyn Fn(&str) -> Option<(usize, bool)>,
}

/// Renders `e` as HCL native syntax.
pub fn render(e: &Expr, funcs: &Functions<'_>) -> String {
    let mut r = Renderer {
        out: String::new(),
        nodes: 0,
        funcs,
    };
    r.expr(e, 0);
    r.out
}

struct Renderer<'a> {
    out: String,
    nodes: usize,
    funcs: &'a Functions<'a>,
}

impl Renderer<'_> {
    fn expr(&mut self, e: &Expr, depth: usize) {
        self.nodes += 1;
        if depth > MAX_DEPTH || self.nodes > MAX_NODES {
            self.out.push_str("null");
            return;
        }
        let d = depth + 1;
        match e {
            Expr::Call(c) => self.call(c, d),
            Expr::Lit(l) => self.lit(l),
            Expr::Ref(r) => self.reference(r),
            Expr::Tuple(items) => {
                self.out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(x, d);
                }
                self.out.push(']');
            }
            Expr::Object(items) => {
                self.out.push('{');
                for (k, v) in items {
                    self.key(k, d);
                    self.out.push_str(" = ");
                    self.expr(v, d);
                    self.out.push('\n');
                }
                self.out.push('}');
            }
            Expr::Template(parts) => {
                self.out.push('"');
                self.parts(parts, d);
                self.out.push('"');
            }
            Expr::Index(c, k) => {
                self.operand(c, d);
                self.out.push('[');
                self.expr(k, d);
                self.out.push(']');
            }
            Expr::Attr(c, k) => {
                self.operand(c, d);
                self.out.push('.');
                match k {
                    Key::Number(n) => self.out.push_str(&n.to_string()),
                    Key::Name(n) => self.out.push_str(attr_name(*n)),
                    _ => self.out.push_str("a"),
                }
            }
            Expr::Splat(c, full) => {
                self.operand(c, d);
                self.out.push_str(if *full { "[*].a" } else { ".*.a" });
            }
            Expr::For(f) => self.for_expr(f, d),
            Expr::Cond(c, a, b) => {
                self.operand(c, d);
                self.out.push_str(" ? ");
                self.operand(a, d);
                self.out.push_str(" : ");
                self.operand(b, d);
            }
            Expr::Binary(op, a, b) => {
                self.operand(a, d);
                self.out.push_str(op.symbol());
                self.operand(b, d);
            }
            Expr::Not(x) => {
                self.out.push('!');
                self.operand(x, d);
            }
            Expr::Neg(x) => {
                self.out.push('-');
                self.operand(x, d);
            }
            Expr::Paren(x) => self.operand(x, d),
        }
    }

    /// An operand in parentheses, so precedence never changes the tree.
    fn operand(&mut self, e: &Expr, depth: usize) {
        self.out.push('(');
        self.expr(e, depth);
        self.out.push(')');
    }

    fn call(&mut self, c: &Call, depth: usize) {
        let names = self.funcs.names;
        if names.is_empty() {
            self.out.push_str("null");
            return;
        }
        let name = &names[c.func as usize % names.len()];
        if c.core && !name.contains("::") {
            self.out.push_str("core::");
        }
        self.out.push_str(name);
        self.out.push('(');
        let mut args: Vec<Option<&Expr>> = c.args.iter().map(Some).collect();
        if c.exact_arity {
            if let Some((n, variadic)) = (self.funcs.arity)(name) {
                if args.len() < n {
                    args.resize(n, None);
                } else if !variadic {
                    args.truncate(n);
                }
            }
        }
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match a {
                Some(a) => self.expr(a, depth),
                // Padding: a string, the most common parameter type.
                None => self.out.push_str("\"a\""),
            }
        }
        if c.expand && !args.is_empty() {
            self.out.push_str("...");
        }
        self.out.push(')');
    }

    fn lit(&mut self, l: &Lit) {
        match l {
            Lit::Null => self.out.push_str("null"),
            Lit::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Lit::Int(i) => {
                // A negative literal is unary minus on a number.
                self.out.push_str(&format!("({i})"));
            }
            Lit::Number(n) => self.out.push_str(&n.render()),
            Lit::Str(t) => self.out.push_str(&hcl_quote(&t.value())),
            Lit::Heredoc(indent, t) => {
                let body = t.value().replace("EOT", "EOX");
                self.out
                    .push_str(if *indent { "<<-EOT\n" } else { "<<EOT\n" });
                for line in body.lines() {
                    self.out.push_str("  ");
                    self.out.push_str(line);
                    self.out.push('\n');
                }
                self.out.push_str("EOT\n");
            }
        }
    }

    fn reference(&mut self, r: &Ref) {
        match r {
            Ref::Var(i) => {
                self.out.push_str("var.");
                self.out.push_str(VAR_NAMES[*i as usize % VAR_NAMES.len()]);
            }
            Ref::Local(i) => {
                self.out.push_str("local.");
                self.out.push_str(VAR_NAMES[*i as usize % VAR_NAMES.len()]);
            }
            Ref::Key => self.out.push('k'),
            Ref::Value => self.out.push('v'),
            Ref::Path(i) => self
                .out
                .push_str(["path.module", "path.root", "path.cwd"][*i as usize % 3]),
            Ref::Workspace => self.out.push_str("terraform.workspace"),
        }
    }

    fn key(&mut self, k: &Key, depth: usize) {
        match k {
            Key::Name(n) => self.out.push_str(attr_name(*n)),
            Key::Quoted(t) => self.out.push_str(&hcl_quote(&t.value())),
            Key::Number(n) => self.out.push_str(&n.to_string()),
            Key::Expr(e) => self.operand(e, depth),
        }
    }

    fn parts(&mut self, parts: &[Part], depth: usize) {
        for p in parts {
            self.nodes += 1;
            if self.nodes > MAX_NODES {
                return;
            }
            match p {
                Part::Text(t) => {
                    let q = hcl_quote(&t.value());
                    self.out.push_str(&q[1..q.len() - 1]);
                }
                Part::Interp(e, strip) => {
                    self.out.push_str(if *strip { "${~" } else { "${" });
                    self.expr(e, depth + 1);
                    self.out.push_str(if *strip { "~}" } else { "}" });
                }
                Part::If(c, a, b) => {
                    self.out.push_str("%{ if ");
                    self.expr(c, depth + 1);
                    self.out.push_str(" }");
                    self.parts(a, depth + 1);
                    self.out.push_str("%{ else }");
                    self.parts(b, depth + 1);
                    self.out.push_str("%{ endif }");
                }
                Part::For(c, body) => {
                    self.out.push_str("%{ for k, v in ");
                    self.expr(c, depth + 1);
                    self.out.push_str(" }");
                    self.parts(body, depth + 1);
                    self.out.push_str("%{ endfor }");
                }
            }
        }
    }

    fn for_expr(&mut self, f: &For, depth: usize) {
        self.out.push_str(if f.object {
            "{for k, v in "
        } else {
            "[for k, v in "
        });
        self.expr(&f.coll, depth);
        self.out.push_str(" : ");
        if f.object {
            match &f.key {
                Some(k) => self.operand(k, depth),
                None => self.out.push('k'),
            }
            self.out.push_str(" => ");
        }
        self.operand(&f.value, depth);
        if f.object && f.group {
            self.out.push_str("...");
        }
        if let Some(c) = &f.cond {
            self.out.push_str(" if ");
            self.operand(c, depth);
        }
        self.out.push(if f.object { '}' } else { ']' });
    }
}

fn attr_name(i: u8) -> &'static str {
    ["a", "b", "name", "tags", "id", "k", "v", "0"][i as usize % 8]
}

impl BinOp {
    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => " + ",
            BinOp::Sub => " - ",
            BinOp::Mul => " * ",
            BinOp::Div => " / ",
            BinOp::Mod => " % ",
            BinOp::Eq => " == ",
            BinOp::Ne => " != ",
            BinOp::Lt => " < ",
            BinOp::Gt => " > ",
            BinOp::Le => " <= ",
            BinOp::Ge => " >= ",
            BinOp::And => " && ",
            BinOp::Or => " || ",
        }
    }
}
