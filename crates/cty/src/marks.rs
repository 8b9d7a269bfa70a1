//! Value marks: annotations such as sensitivity that travel with values
//! through operations without being part of them.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::path::Path;

/// Why a value is deprecated: where it came from and what to tell the user.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeprecationCause {
    /// Module instance address the deprecated value belongs to ("" for root).
    pub module_instance: String,
    /// The deprecated object, e.g. `output.foo` or `var.bar`.
    pub name: String,
    /// The author's deprecation message.
    pub message: String,
}

/// One mark. `Custom` lets other crates add their own marks.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// Terraform/OpenTofu `marks.Sensitive`.
    Sensitive,
    /// `marks.Ephemeral`.
    Ephemeral,
    /// A deprecation with its cause.
    Deprecated(Arc<DeprecationCause>),
    /// A mark defined elsewhere, identified by name.
    Custom(Arc<str>),
}

/// A set of marks (Go `cty.ValueMarks`).
pub type ValueMarks = BTreeSet<Mark>;

/// Marks found at one path inside a value (Go `cty.PathValueMarks`).
#[derive(Clone, Debug, PartialEq)]
pub struct PathValueMarks {
    /// Where the marks were found.
    pub path: Path,
    /// The marks at that path.
    pub marks: ValueMarks,
}
