//! HCL source text for values, laid out exactly as HCL's `hclwrite` lays
//! it out (`TokensForValue`, `Body.SetAttributeValue` and the `format`
//! pass every `File.Bytes` applies): the provider functions
//! `encode_expr` and `encode_tfvars` print what it prints.
//!
//! Values become a flat token list; `format` then only decides the spaces
//! before each token: indentation by bracket nesting, one space between
//! most tokens, and `=` aligned across consecutive single-line attributes.

use cty::{Type, Value};
use unicode_segmentation::UnicodeSegmentation;

/// The token kinds values need.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Ident,
    NumberLit,
    OQuote,
    QuotedLit,
    CQuote,
    OBrack,
    CBrack,
    OBrace,
    CBrace,
    Comma,
    Equal,
    Newline,
    /// The placeholder before the first and after the last token of a cell.
    Nil,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    text: String,
    spaces_before: usize,
}

impl Token {
    fn new(kind: Kind, text: impl Into<String>) -> Token {
        Token {
            kind,
            text: text.into(),
            spaces_before: 0,
        }
    }

    fn bracket_change(&self) -> i64 {
        match self.kind {
            Kind::OBrace | Kind::OBrack => 1,
            Kind::CBrace | Kind::CBrack => -1,
            _ => 0,
        }
    }
}

/// `hclwrite.TokensForValue(v).Bytes()`: `v` as an HCL expression.
/// `v` must be wholly known and unmarked.
pub fn expr_text(v: &Value) -> String {
    let mut toks = Vec::new();
    append_value(v, &mut toks);
    format(&mut toks);
    write(&toks)
}

/// A file body of `name = value` lines, as `Body.SetAttributeValue` for
/// each attribute in order and `File.Bytes` write it. Values must be
/// wholly known and unmarked.
pub fn attributes_text<'a>(attrs: impl IntoIterator<Item = (&'a str, &'a Value)>) -> String {
    let mut toks = Vec::new();
    for (name, v) in attrs {
        toks.push(Token::new(Kind::Ident, name));
        toks.push(Token::new(Kind::Equal, "="));
        append_value(v, &mut toks);
        toks.push(Token::new(Kind::Newline, "\n"));
    }
    format(&mut toks);
    write(&toks)
}

fn write(toks: &[Token]) -> String {
    let mut out = String::new();
    for t in toks {
        out.extend(std::iter::repeat_n(' ', t.spaces_before));
        out.push_str(&t.text);
    }
    out
}

/// `appendTokensForValue`.
fn append_value(v: &Value, toks: &mut Vec<Token>) {
    if v.is_null() {
        toks.push(Token::new(Kind::Ident, "null"));
        return;
    }
    match v.ty() {
        Type::Bool => {
            let b = v.as_bool() == Some(true);
            toks.push(Token::new(Kind::Ident, if b { "true" } else { "false" }));
        }
        Type::Number => {
            let text = v.as_number().map(|n| n.to_text()).unwrap_or_default();
            toks.push(Token::new(Kind::NumberLit, text));
        }
        Type::String => {
            let s = v.as_str().unwrap_or_default();
            toks.push(Token::new(Kind::OQuote, "\""));
            if !s.is_empty() {
                toks.push(Token::new(Kind::QuotedLit, escape_quoted(s)));
            }
            toks.push(Token::new(Kind::CQuote, "\""));
        }
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            toks.push(Token::new(Kind::OBrack, "["));
            for (i, e) in v.as_elements().unwrap_or_default().iter().enumerate() {
                if i > 0 {
                    toks.push(Token::new(Kind::Comma, ","));
                }
                append_value(e, toks);
            }
            toks.push(Token::new(Kind::CBrack, "]"));
        }
        Type::Map(_) | Type::Object(_) => {
            toks.push(Token::new(Kind::OBrace, "{"));
            let attrs = v.as_attrs();
            if attrs.is_some_and(|a| !a.is_empty()) {
                toks.push(Token::new(Kind::Newline, "\n"));
            }
            for (k, e) in attrs.into_iter().flatten() {
                if hclsyntax::valid_identifier(k) {
                    toks.push(Token::new(Kind::Ident, k.as_str()));
                } else {
                    append_value(&Value::string(k.as_str()), toks);
                }
                toks.push(Token::new(Kind::Equal, "="));
                append_value(e, toks);
                toks.push(Token::new(Kind::Newline, "\n"));
            }
            toks.push(Token::new(Kind::CBrace, "}"));
        }
        // Only an unknown value has the dynamic type, and callers check
        // for those first (hclwrite panics on them).
        Type::Dynamic => toks.push(Token::new(Kind::Ident, "null")),
    }
}

/// `escapeQuotedStringLit`.
fn escape_quoted(s: &str) -> String {
    hclsyntax::hclwrite_quote::escape_quoted_string_lit(s)
}

/// One line for formatting, as token index ranges: `lead` up to the `=`
/// of a single-line attribute, `assign` from it (empty when there is
/// none).
struct Line {
    lead: std::ops::Range<usize>,
    assign: Option<std::ops::Range<usize>>,
}

/// hclwrite's `format`: sets the spaces before every token.
fn format(toks: &mut [Token]) {
    let lines = lines_for_format(toks);
    format_indent(toks, &lines);
    format_spaces(toks, &lines);
    format_cells(toks, &lines);
}

fn lines_for_format(toks: &[Token]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.kind == Kind::Newline {
            lines.push(start..i + 1);
            start = i + 1;
        }
    }
    // A final line without a newline, or an empty one.
    lines.push(start..toks.len());
    lines
        .into_iter()
        .map(|lead| {
            // Move `= value` into the assign cell when the value closes
            // every bracket it opens (a single-line value).
            let eq = toks[lead.clone()]
                .iter()
                .enumerate()
                .skip(1)
                .find(|(_, t)| t.kind == Kind::Equal)
                .map(|(i, _)| lead.start + i);
            match eq {
                Some(eq)
                    if toks[eq..lead.end]
                        .iter()
                        .map(Token::bracket_change)
                        .sum::<i64>()
                        == 0 =>
                {
                    Line {
                        lead: lead.start..eq,
                        assign: Some(eq..lead.end),
                    }
                }
                _ => Line { lead, assign: None },
            }
        })
        .collect()
}

fn format_indent(toks: &mut [Token], lines: &[Line]) {
    let mut indents: Vec<i64> = Vec::new();
    for line in lines {
        if line.lead.is_empty() {
            continue;
        }
        let first = line.lead.start;
        if toks[first].kind == Kind::Newline {
            toks[first].spaces_before = 0;
            continue;
        }
        let cells = line.lead.clone().chain(line.assign.clone().unwrap_or(0..0));
        let net: i64 = cells.map(|i| toks[i].bracket_change()).sum();
        if net < 0 {
            let mut closed = -net;
            while closed > 0 {
                let Some(top) = indents.last_mut() else {
                    break;
                };
                if closed > *top {
                    closed -= *top;
                    indents.pop();
                } else if closed < *top {
                    *top -= closed;
                    closed = 0;
                } else {
                    indents.pop();
                    closed = 0;
                }
            }
        }
        toks[first].spaces_before = 2 * indents.len();
        if net > 0 {
            indents.push(net);
        }
    }
}

fn format_spaces(toks: &mut [Token], lines: &[Line]) {
    let nil = Token::new(Kind::Nil, "");
    for line in lines {
        let cells = [Some(line.lead.clone()), line.assign.clone()];
        for (c, cell) in cells.into_iter().enumerate() {
            let Some(cell) = cell else { continue };
            for i in cell.clone() {
                if c == 1 && i == cell.start {
                    // The `=` is separated from what it assigns.
                    toks[i].spaces_before = 1;
                }
                let before = if i > cell.start { &toks[i - 1] } else { &nil };
                let after = if i + 1 < cell.end { &toks[i + 1] } else { &nil };
                let space = space_after_token(&toks[i], before, after);
                if i + 1 < cell.end {
                    toks[i + 1].spaces_before = usize::from(space);
                }
            }
        }
    }
}

/// `spaceAfterToken`, for the tokens values produce.
fn space_after_token(subject: &Token, before: &Token, after: &Token) -> bool {
    match () {
        _ if matches!(after.kind, Kind::Newline | Kind::Nil) => false,
        _ if after.kind == Kind::Comma => false,
        _ if subject.kind == Kind::Comma => true,
        _ if matches!(subject.kind, Kind::QuotedLit | Kind::OQuote)
            || matches!(after.kind, Kind::QuotedLit | Kind::CQuote) =>
        {
            false
        }
        _ if subject.kind == Kind::Ident && subject.text == "in" && before.kind == Kind::Ident => {
            true
        }
        _ if after.kind == Kind::OBrack
            && (matches!(subject.kind, Kind::Ident | Kind::NumberLit)
                || subject.bracket_change() < 0) =>
        {
            false
        }
        _ if subject.kind == Kind::OBrace || after.kind == Kind::CBrace => {
            !(subject.kind == Kind::OBrace && after.kind == Kind::CBrace)
        }
        _ if subject.bracket_change() > 0 => false,
        _ if after.bracket_change() < 0 => false,
        _ => true,
    }
}

/// hclwrite's `Tokens.Columns`: spaces plus grapheme clusters.
fn columns(toks: &[Token]) -> usize {
    toks.iter()
        .map(|t| t.spaces_before + t.text.graphemes(true).count())
        .sum()
}

/// Aligns the `=` of consecutive lines that have an assign cell.
fn format_cells(toks: &mut [Token], lines: &[Line]) {
    let mut i = 0;
    while i < lines.len() {
        if lines[i].assign.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].assign.is_some() {
            i += 1;
        }
        let chain = &lines[start..i];
        let widest = chain
            .iter()
            .map(|l| columns(&toks[l.lead.clone()]))
            .max()
            .unwrap_or(0);
        for l in chain {
            let width = columns(&toks[l.lead.clone()]);
            if let Some(assign) = &l.assign {
                toks[assign.start].spaces_before = widest - width + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Value {
        Value::parse_number(s).unwrap()
    }

    fn obj(pairs: Vec<(&str, Value)>) -> Value {
        Value::object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// Each checked against `provider::terraform::encode_expr` in
    /// `terraform console`.
    #[test]
    fn expressions() {
        let s = Value::string;
        let cases: Vec<(Value, &str)> = vec![
            (s("test"), "\"test\""),
            (n("2"), "2"),
            (n("1e21"), "1000000000000000000000"),
            (n("-0.5"), "-0.5"),
            (Value::bool(true), "true"),
            (Value::null(Type::String), "null"),
            (s(""), "\"\""),
            (
                s("a\n\"b\"\\ ${x} %{y} $z\t\u{a0}"),
                "\"a\\n\\\"b\\\"\\\\ $${x} %%{y} $z\\t\\u00a0\"",
            ),
            (Value::tuple(vec![s("a"), n("1")]), "[\"a\", 1]"),
            (Value::empty_tuple(), "[]"),
            (Value::empty_object(), "{}"),
            (obj(vec![("a", n("1"))]), "{\n  a = 1\n}"),
            (
                obj(vec![
                    ("a", n("1")),
                    ("bbb", s("x")),
                    ("c d", Value::empty_tuple()),
                ]),
                "{\n  a     = 1\n  bbb   = \"x\"\n  \"c d\" = []\n}",
            ),
            (
                obj(vec![
                    ("a", n("1")),
                    ("long", obj(vec![("x", n("2"))])),
                    ("z", n("3")),
                ]),
                "{\n  a = 1\n  long = {\n    x = 2\n  }\n  z = 3\n}",
            ),
            (
                Value::tuple(vec![obj(vec![("a", n("1"))]), obj(vec![("b", n("2"))])]),
                "[{\n  a = 1\n  }, {\n  b = 2\n}]",
            ),
            (
                Value::tuple(vec![Value::tuple(vec![n("1")]), Value::empty_tuple()]),
                "[[1], []]",
            ),
        ];
        for (v, want) in cases {
            assert_eq!(expr_text(&v), want, "{v:?}");
        }
    }

    #[test]
    fn attributes() {
        let (a, bb, c, d) = (
            n("1"),
            Value::string("x"),
            Value::tuple(vec![n("1"), n("2")]),
            obj(vec![("e", Value::bool(true))]),
        );
        let got = attributes_text([("a", &a), ("bb", &bb), ("c", &c), ("d", &d), ("f", &a)]);
        assert_eq!(
            got,
            "a  = 1\nbb = \"x\"\nc  = [1, 2]\nd = {\n  e = true\n}\nf = 1\n"
        );
        assert_eq!(attributes_text([]), "");
    }
}
