//! A minimal absolute-traversal parser for tests (`a.b["c"][0]`), with
//! ranges as HCL reports them, so tests need not wait on the native parser.

use std::sync::Arc;

use hclsyntax::{Literal, Pos, Range, StepKind, Traversal, TraversalStep};

fn pos(byte: usize) -> Pos {
    Pos::at(1, byte + 1, byte)
}

/// A range on line 1 of the unnamed file, as Go tests write them.
pub(crate) fn range(start: usize, end: usize) -> Range {
    Range::new(Arc::from(""), pos(start), pos(end))
}

/// Parses ASCII `src` as an absolute traversal.
pub(crate) fn traversal(src: &str) -> Traversal {
    let b = src.as_bytes();
    let ident_end = |mut i: usize| {
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
            i += 1;
        }
        i
    };
    let root_end = ident_end(0);
    let mut t = Traversal {
        root: src[..root_end].to_string(),
        root_range: range(0, root_end),
        steps: Vec::new(),
    };
    let mut i = root_end;
    while i < b.len() {
        let start = i;
        let kind = if b[i] == b'.' {
            let end = ident_end(i + 1);
            let name = src[i + 1..end].to_string();
            i = end;
            StepKind::Attr(name)
        } else {
            assert_eq!(b[i], b'[', "unexpected {src:?} at {i}");
            let close = src[i..].find(']').expect("closing bracket") + i;
            let inner = &src[i + 1..close];
            i = close + 1;
            StepKind::Index(match inner.strip_prefix('"') {
                Some(s) => Literal::String(s.trim_end_matches('"').to_string()),
                None if inner == "true" => Literal::Bool(true),
                None => Literal::Number(inner.to_string()),
            })
        };
        t.steps.push(TraversalStep {
            kind,
            range: range(start, i),
        });
    }
    t
}
