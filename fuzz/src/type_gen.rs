//! Generated type constraints (`list(object({a = optional(string, "x")}))`)
//! and constant values to convert to them: what variable declarations,
//! `-var` values and `.tfvars` files are made of.

use arbitrary::Arbitrary;

use crate::text_gen::{hcl_quote, Text};

/// Attribute names: few, so that generated values and types meet.
const NAMES: &[&str] = &["a", "b", "c", "name", "tags", "é", "with-dash", "count"];

/// Deeper types add nothing the fuzzer cannot find at this depth.
const MAX_DEPTH: usize = 5;

/// A type constraint.
#[derive(Arbitrary, Debug, Clone)]
pub enum TypeExpr {
    String,
    Number,
    Bool,
    Any,
    List(Box<TypeExpr>),
    Set(Box<TypeExpr>),
    Map(Box<TypeExpr>),
    Tuple(Vec<TypeExpr>),
    Object(Vec<ObjectAttr>),
}

/// One attribute of an object type: required, optional, or optional with
/// a default.
#[derive(Arbitrary, Debug, Clone)]
pub struct ObjectAttr {
    pub name: u8,
    pub ty: TypeExpr,
    pub optional: Option<Option<ValueLit>>,
}

impl TypeExpr {
    /// The type constraint as written in a `variable` block.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0);
        out
    }

    fn render_into(&self, out: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            out.push_str("any");
            return;
        }
        let inner = |out: &mut String, word: &str, t: &TypeExpr| {
            out.push_str(word);
            out.push('(');
            t.render_into(out, depth + 1);
            out.push(')');
        };
        match self {
            TypeExpr::String => out.push_str("string"),
            TypeExpr::Number => out.push_str("number"),
            TypeExpr::Bool => out.push_str("bool"),
            TypeExpr::Any => out.push_str("any"),
            TypeExpr::List(t) => inner(out, "list", t),
            TypeExpr::Set(t) => inner(out, "set", t),
            TypeExpr::Map(t) => inner(out, "map", t),
            TypeExpr::Tuple(ts) => {
                out.push_str("tuple([");
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    t.render_into(out, depth + 1);
                }
                out.push_str("])");
            }
            TypeExpr::Object(attrs) => {
                out.push_str("object({");
                for a in attrs {
                    out.push_str(&name(a.name));
                    out.push_str(" = ");
                    match &a.optional {
                        None => a.ty.render_into(out, depth + 1),
                        Some(default) => {
                            out.push_str("optional(");
                            a.ty.render_into(out, depth + 1);
                            if let Some(d) = default {
                                out.push_str(", ");
                                d.render_into(out, depth + 1);
                            }
                            out.push(')');
                        }
                    }
                    out.push_str(", ");
                }
                out.push_str("})");
            }
        }
    }
}

/// An attribute name of [`NAMES`], quoted where it is not an identifier.
fn name(i: u8) -> String {
    let n = NAMES[i as usize % NAMES.len()];
    if hclsyntax::valid_identifier(n) {
        n.to_string()
    } else {
        hcl_quote(n)
    }
}

/// A constant value: what a `.tfvars` file or an HCL-mode `-var` holds.
#[derive(Arbitrary, Debug, Clone)]
pub enum ValueLit {
    Null,
    Bool(bool),
    Int(i64),
    /// Written as decimal text: huge, tiny and fractional numbers.
    Number(NumberText),
    Str(Text),
    List(Vec<ValueLit>),
    Object(Vec<(u8, ValueLit)>),
}

/// Number spellings that stress the arbitrary-precision numbers.
#[derive(Arbitrary, Debug, Clone)]
pub enum NumberText {
    Float(f64),
    /// `9` repeated: integers past 64 bits (at most 400 digits).
    Digits(u16),
    /// `1e<exp>`, `1e-<exp>` (exponent at most 9999).
    Exponent(bool, u16),
}

impl NumberText {
    pub fn render(&self) -> String {
        match self {
            NumberText::Float(f) if f.is_finite() => format!("{f:?}"),
            NumberText::Float(_) => "0".to_string(),
            NumberText::Digits(n) => "9".repeat((*n as usize % 400) + 1),
            NumberText::Exponent(neg, e) => {
                format!("1e{}{}", if *neg { "-" } else { "" }, e % 10000)
            }
        }
    }
}

impl ValueLit {
    /// The value in HCL native syntax.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out, 0);
        out
    }

    fn render_into(&self, out: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            out.push_str("null");
            return;
        }
        match self {
            ValueLit::Null => out.push_str("null"),
            ValueLit::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            ValueLit::Int(i) => out.push_str(&i.to_string()),
            ValueLit::Number(n) => out.push_str(&n.render()),
            ValueLit::Str(t) => out.push_str(&hcl_quote(&t.value())),
            ValueLit::List(items) => {
                out.push('[');
                for v in items {
                    v.render_into(out, depth + 1);
                    out.push_str(", ");
                }
                out.push(']');
            }
            ValueLit::Object(items) => {
                out.push('{');
                for (k, v) in items {
                    out.push_str(&name(*k));
                    out.push_str(" = ");
                    v.render_into(out, depth + 1);
                    out.push('\n');
                }
                out.push('}');
            }
        }
    }

    /// The value in JSON (for `.tfvars.json`).
    pub fn render_json(&self) -> String {
        let mut out = String::new();
        self.render_json_into(&mut out, 0);
        out
    }

    fn render_json_into(&self, out: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            out.push_str("null");
            return;
        }
        match self {
            ValueLit::Null => out.push_str("null"),
            ValueLit::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            ValueLit::Int(i) => out.push_str(&i.to_string()),
            ValueLit::Number(n) => out.push_str(&n.render()),
            ValueLit::Str(t) => out.push_str(&json_quote(&t.value())),
            ValueLit::List(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.render_json_into(out, depth + 1);
                }
                out.push(']');
            }
            ValueLit::Object(items) => {
                out.push('{');
                for (i, (k, v)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&json_quote(NAMES[*k as usize % NAMES.len()]));
                    out.push(':');
                    v.render_json_into(out, depth + 1);
                }
                out.push('}');
            }
        }
    }
}

/// `s` as a JSON string (template sequences are left as they are: in a
/// `.tfvars.json` they are templates, which is worth fuzzing too).
pub fn json_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
