//! The `depends_on` meta-argument: a static list of references.

use hclsyntax::static_expr::expr_list;
use hclsyntax::{Attribute, Diagnostics, Traversal};

use crate::compat_shim::shim_abs_traversal;

/// Decodes `depends_on = [a.b, ...]` into its traversals. Quoted references
/// are accepted with a deprecation warning.
pub fn decode_depends_on(attr: &Attribute) -> (Vec<Traversal>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let exprs = match expr_list(&attr.expr) {
        Ok(exprs) => exprs,
        Err(more) => return (Vec::new(), more),
    };
    let mut out = Vec::new();
    for expr in &exprs {
        let (traversal, more) = shim_abs_traversal(expr);
        diags.extend(more);
        if let Some(t) = traversal {
            out.push(t);
        }
    }
    (out, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_block, parse};

    #[test]
    fn quoted_reference_warns() {
        let file = parse("resource \"a\" \"b\" {\n  depends_on = [\"null_resource.a\", x.y]\n}\n");
        let block = first_block(&file);
        let (content, _, _) = block
            .body
            .partial_content(&hclsyntax::BodySchema::new(&["depends_on"], &[]));
        let (deps, diags) = decode_depends_on(content.attribute("depends_on").unwrap());
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].summary, "Quoted references are deprecated");
        assert_eq!(diags[0].subject.as_ref().unwrap().start.line, 2);
        assert_eq!(deps.len(), 2);
        assert_eq!(deps[0].display(), "null_resource.a");
        assert_eq!(deps[1].display(), "x.y");
    }

    #[test]
    fn not_a_list() {
        let file = parse("resource \"a\" \"b\" {\n  depends_on = x.y\n}\n");
        let block = first_block(&file);
        let (content, _, _) = block
            .body
            .partial_content(&hclsyntax::BodySchema::new(&["depends_on"], &[]));
        let (deps, diags) = decode_depends_on(content.attribute("depends_on").unwrap());
        assert!(deps.is_empty());
        assert_eq!(diags[0].summary, "Invalid expression");
        assert_eq!(diags[0].detail, "A static list expression is required.");
    }
}
