//! What a static evaluation is computing (`StaticIdentifier`): printed in
//! the "which is required by ..." and "... depends on ..." messages, and
//! compared to detect reference cycles.

use std::fmt;

use hclsyntax::Range;

/// One statically evaluated thing: `local.x`, `var.x`, `module.m.source`,
/// `backend.s3`, `provider.aws.by_region.for_each`, ... in a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticIdentifier {
    /// The module it belongs to (root = empty).
    pub module: addrs::Module,
    /// What it is within the module (`local.x`).
    pub subject: String,
    /// Where it is declared: the subject of the "Unable to compute static
    /// value" and "Circular reference" errors about it.
    pub decl_range: Range,
}

impl StaticIdentifier {
    /// An identifier in `module`.
    pub fn new(module: &addrs::Module, subject: impl Into<String>, decl_range: Range) -> Self {
        StaticIdentifier {
            module: module.clone(),
            subject: subject.into(),
            decl_range,
        }
    }
}

/// `local.x` in the root module, `module.a.module.b:local.x` elsewhere.
impl fmt::Display for StaticIdentifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_root() {
            write!(f, "{}:", self.module)?;
        }
        f.write_str(&self.subject)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_module_prefix_outside_root() {
        let rng = hclsyntax::SourceFile::new("a.tf", "x").range(0, 1);
        let root = StaticIdentifier::new(&addrs::Module::root(), "local.x", rng.clone());
        assert_eq!(root.to_string(), "local.x");
        let child = addrs::Module::root().child("a").child("b");
        let id = StaticIdentifier::new(&child, "module.c.source", rng);
        assert_eq!(id.to_string(), "module.a.module.b:module.c.source");
    }
}
