//! `moved` blocks: a resource or module renamed in place.

use hclsyntax::static_expr::abs_traversal;
use hclsyntax::{has_errors, Block, BodySchema, Diagnostic, Diagnostics, Range};

use crate::local_addrs::{parse_target, TargetAddr};
use crate::resource::ResourceMode;

/// A `moved` block.
#[derive(Debug, Clone)]
pub struct Moved {
    /// The old address, relative to the declaring module.
    pub from: Option<TargetAddr>,
    pub from_range: Option<Range>,
    /// The new address.
    pub to: Option<TargetAddr>,
    pub to_range: Option<Range>,
    pub decl_range: Range,
}

fn moved_schema() -> BodySchema {
    BodySchema::new(&["from", "to"], &[]).require(&["from", "to"])
}

/// Decodes a `moved` block.
pub fn decode_moved_block(block: &Block) -> (Moved, Diagnostics) {
    let mut moved = Moved {
        from: None,
        from_range: None,
        to: None,
        to_range: None,
        decl_range: block.def_range(),
    };
    let (content, mut diags) = block.body.content(&moved_schema());

    for (arg, slot, range) in [
        ("from", &mut moved.from, &mut moved.from_range),
        ("to", &mut moved.to, &mut moved.to_range),
    ] {
        let Some(attr) = content.attribute(arg) else {
            continue;
        };
        match abs_traversal(&attr.expr) {
            Ok(t) => match parse_target(&t) {
                Ok(addr) => {
                    *slot = Some(addr);
                    *range = Some(t.range());
                }
                Err(more) => diags.extend(more),
            },
            Err(more) => diags.extend(more),
        }
    }

    // `MoveEndpoint.SubjectAllowed` (internal/addrs/move_endpoint.go):
    // ephemeral resources have no state to move, and a nil endpoint (the
    // argument missing or not parsed) is not allowed either, so OpenTofu
    // adds this error after every refused address.
    for (arg, addr) in [("from", &moved.from), ("to", &moved.to)] {
        let allowed = match addr {
            None => false,
            Some(TargetAddr::Resource(r)) => r.mode != ResourceMode::Ephemeral,
            Some(TargetAddr::Module(_)) => true,
        };
        if !allowed {
            diags.push(Diagnostic::error(
                "Invalid \"moved\" address",
                format!("The resource referenced by the \"{arg}\" attribute is not allowed to be moved."),
                moved.decl_range.clone(),
            ));
        }
    }

    if !has_errors(&diags) {
        let unify = matches!(
            (&moved.from, &moved.to),
            (Some(TargetAddr::Module(_)), Some(TargetAddr::Module(_)))
                | (Some(TargetAddr::Resource(_)), Some(TargetAddr::Resource(_)))
        );
        if !unify {
            diags.push(Diagnostic::error(
                "Invalid \"moved\" addresses",
                "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.",
                moved.decl_range.clone(),
            ));
        }
    }
    (moved, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_block, parse};

    fn decode(src: &str) -> (Moved, Diagnostics) {
        let file = parse(src);
        decode_moved_block(&first_block(&file))
    }

    #[test]
    fn valid_pairs() {
        for (from, to) in [
            ("test.foo", "test.bar"),
            ("test.foo", "test.bar[\"bloop\"]"),
            ("module.a", "module.b"),
            ("module.a", "module.a[\"foo\"]"),
            ("test.foo", "module.a.test.foo"),
            ("data.test.foo", "data.test.bar"),
        ] {
            let (m, diags) = decode(&format!("moved {{\n  from = {from}\n  to   = {to}\n}}\n"));
            assert!(diags.is_empty(), "{from} -> {to}: {diags:?}");
            assert!(m.from.is_some() && m.to.is_some());
        }
    }

    #[test]
    fn module_to_resource() {
        let (_, diags) = decode("moved {\n  from = module.a\n  to   = test.b\n}\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid \"moved\" addresses");
        assert_eq!(
            diags[0].detail,
            "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules."
        );
        assert_eq!(diags[0].subject.as_ref().unwrap().start.line, 1);
    }

    #[test]
    fn ephemeral_not_movable() {
        let (_, diags) = decode("moved {\n  from = ephemeral.a.b\n  to   = ephemeral.a.c\n}\n");
        let summaries: Vec<_> = diags.iter().map(|d| d.detail.as_str()).collect();
        assert_eq!(
            summaries,
            [
                "The resource referenced by the \"from\" attribute is not allowed to be moved.",
                "The resource referenced by the \"to\" attribute is not allowed to be moved."
            ]
        );
    }

    /// A `from` that does not parse leaves OpenTofu's `moved.From` nil,
    /// and `SubjectAllowed` refuses nil: two errors.
    #[test]
    fn unparsed_from_is_not_movable() {
        for (from, first) in [
            ("self", "Resource specification must include a resource type and name."),
            ("a.b.c", "Resource instance key must be given in square brackets."),
            ("a.b[*].c", "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here."),
        ] {
            let (m, diags) = decode(&format!("moved {{\n  from = {from}\n  to   = a.c\n}}\n"));
            assert!(m.from.is_none());
            let details: Vec<_> = diags.iter().map(|d| d.detail.as_str()).collect();
            assert_eq!(
                details,
                [
                    first,
                    "The resource referenced by the \"from\" attribute is not allowed to be moved."
                ],
                "{from}"
            );
            let at = diags[1].subject.as_ref().unwrap();
            assert_eq!((at.start.line, at.start.column, at.end.column), (1, 1, 6));
        }
    }

    /// OpenTofu reserves no first word: `var.v` is a resource of type var.
    #[test]
    fn no_reserved_words() {
        let (m, diags) = decode("moved {\n  from = count.index\n  to   = var.v\n}\n");
        assert!(diags.is_empty(), "{diags:?}");
        assert!(matches!(m.from, Some(TargetAddr::Resource(_))));
    }

    #[test]
    fn missing_to() {
        let (_, diags) = decode("moved {\n  from = a.b\n}\n");
        assert_eq!(diags[0].summary, "Missing required argument");
        assert_eq!(
            diags[0].detail,
            "The argument \"to\" is required, but no definition was found."
        );
        // The missing endpoint is nil, which SubjectAllowed refuses.
        assert_eq!(
            diags[1].detail,
            "The resource referenced by the \"to\" attribute is not allowed to be moved."
        );
        assert_eq!(diags.len(), 2);
    }
}
