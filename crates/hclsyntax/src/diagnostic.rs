//! HCL-level diagnostics: what the parser and the body decoder report.
//!
//! These mirror `hcl.Diagnostic`; `tfdiags` wraps them for rendering.

use crate::pos::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in source, with the range it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    /// The range the problem is about; shown underlined in snippets.
    pub subject: Option<Range>,
    /// A wider range giving context to the subject (e.g. a whole block).
    pub context: Option<Range>,
}

impl Diagnostic {
    pub fn error(summary: impl Into<String>, detail: impl Into<String>, subject: Range) -> Self {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            subject: Some(subject),
            context: None,
        }
    }

    pub fn warning(summary: impl Into<String>, detail: impl Into<String>, subject: Range) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            summary: summary.into(),
            detail: detail.into(),
            subject: Some(subject),
            context: None,
        }
    }

    pub fn with_context(mut self, context: Range) -> Self {
        self.context = Some(context);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A list of diagnostics, as HCL's `hcl.Diagnostics`.
pub type Diagnostics = Vec<Diagnostic>;

/// Whether any of `diags` is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
