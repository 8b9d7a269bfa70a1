//! The cloud backend's diagnostics before they meet the configuration:
//! OpenTofu builds most of them with `tfdiags.AttributeValue` (a path, no
//! range) and places them with `InConfigBody` only when the block itself
//! is being initialized; from the recorded configuration they stay
//! sourceless.

use hclsyntax::{Body, BodySchema};
use tfdiags::{Diagnostic, Severity};

/// A diagnostic about the cloud configuration, maybe about one argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloudDiag {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    /// The top-level argument (or block) it is about.
    pub attr: Option<&'static str>,
}

impl CloudDiag {
    pub fn attr(attr: &'static str, summary: impl Into<String>, detail: impl Into<String>) -> Self {
        CloudDiag {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            attr: Some(attr),
        }
    }

    pub fn sourceless(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        CloudDiag {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            attr: None,
        }
    }

    /// `ElaborateFromConfigBody` with `body` (the `cloud` block's), or a
    /// sourceless diagnostic without one: an argument the body sets is the
    /// subject, anything else (a block, an unset argument) the body's
    /// missing-item range.
    pub fn into_diagnostic(self, body: Option<&Body>) -> Diagnostic {
        let subject = match (self.attr, body) {
            (Some(name), Some(body)) => {
                let (content, _, _) = body.partial_content(&BodySchema::new(&[name], &[]));
                Some(
                    content
                        .attribute(name)
                        .map(|a| a.expr.range.clone())
                        .unwrap_or_else(|| body.missing_item_range.clone()),
                )
            }
            _ => None,
        };
        let mut d = match subject {
            Some(r) => Diagnostic::error(self.summary, self.detail, r),
            None => Diagnostic::error_sourceless(self.summary, self.detail),
        };
        d.severity = self.severity;
        d
    }
}
