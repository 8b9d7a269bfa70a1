//! Graph nodes: what they stand for and how OpenTofu names them.

use std::fmt;

use addrs::{Module as ModulePath, Resource};

/// The kind of object a node evaluates.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// An input variable: root variables take the values given; a child
    /// module's take the argument of the calling `module` block.
    Variable(String),
    Local(String),
    Output(String),
    /// A `module` block: expands into the child's instances.
    ModuleCall(String),
    Resource(Resource),
    Check(String),
    /// A `provider` block, by its address in the module (`aws`, `aws.west`).
    Provider(addrs::LocalProviderConfig),
}

/// One object in one static module path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node {
    pub module: ModulePath,
    pub kind: NodeKind,
}

/// The vertex names OpenTofu's plan graph prints (in cycle errors):
/// `var.a`, `local.b (expand)`, `module.m.output.c (expand)`,
/// `module.m (expand)`, `terraform_data.d (expand)`.
impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if self.module.is_root() {
            String::new()
        } else {
            format!("{}.", self.module)
        };
        match &self.kind {
            NodeKind::Variable(n) if self.module.is_root() => write!(f, "var.{n}"),
            NodeKind::Variable(n) => write!(f, "{prefix}var.{n} (expand)"),
            NodeKind::Local(n) => write!(f, "{prefix}local.{n} (expand)"),
            NodeKind::Output(n) => write!(f, "{prefix}output.{n} (expand)"),
            NodeKind::ModuleCall(n) => write!(f, "{prefix}module.{n} (expand)"),
            NodeKind::Resource(r) => write!(f, "{prefix}{r} (expand)"),
            NodeKind::Check(n) => write!(f, "{prefix}check.{n} (expand)"),
            NodeKind::Provider(addr) => write!(f, "{prefix}{addr}"),
        }
    }
}
