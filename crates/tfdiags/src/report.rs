//! miette integration, so library users get ordinary miette reports.

use std::fmt;
use std::sync::Arc;

use hclsyntax::SourceFile;
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::diagnostic::{Diagnostic, Severity};
use crate::sources::SourceMap;

/// The summary is the message, the detail the help text, the subject a
/// label. No source code: use [`Diagnostic::with_source`] for snippets.
impl miette::Diagnostic for Diagnostic {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.severity))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.detail.is_empty()).then(|| Box::new(&self.detail) as Box<dyn fmt::Display + 'a>)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        labels(self)
    }
}

fn miette_severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    }
}

fn labels(d: &Diagnostic) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
    let subject = d.subject.as_ref()?;
    let span =
        SourceSpan::from(subject.start.offset()..subject.end.offset().max(subject.start.offset()));
    Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
        None, span,
    ))))
}

impl Diagnostic {
    /// This diagnostic with the source file its subject points into, for a
    /// miette report with a snippet.
    pub fn with_source(&self, sources: &SourceMap) -> SourcedDiagnostic {
        let source = self
            .subject
            .as_ref()
            .and_then(|s| sources.get(&s.filename))
            .cloned();
        SourcedDiagnostic {
            diag: self.clone(),
            source: source.map(SourceText),
        }
    }
}

/// A [`Diagnostic`] together with its source file, for miette.
#[derive(Debug, Clone)]
pub struct SourcedDiagnostic {
    pub diag: Diagnostic,
    source: Option<SourceText>,
}

impl fmt::Display for SourcedDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.summary)
    }
}

impl std::error::Error for SourcedDiagnostic {}

impl miette::Diagnostic for SourcedDiagnostic {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.diag.severity))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        miette::Diagnostic::help(&self.diag)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        labels(&self.diag)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }
}

/// A [`SourceFile`] as miette source code, named after the file.
#[derive(Debug, Clone)]
pub struct SourceText(pub Arc<SourceFile>);

impl SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .0
            .text()
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.0.name().to_string(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::Diagnostic as _;

    #[test]
    fn miette_fields() {
        let mut sources = SourceMap::new();
        let f = sources.add("main.tf", "a = 1\nb = oops\n");
        let d = crate::Diagnostic::error("Bad value", "Use a number.", f.range(10, 14));
        assert_eq!(d.severity(), Some(miette::Severity::Error));
        assert_eq!(d.help().unwrap().to_string(), "Use a number.");
        let label = d.labels().unwrap().next().unwrap();
        assert_eq!((label.offset(), label.len()), (10, 4));

        let s = d.with_source(&sources);
        let code = s.source_code().unwrap();
        let span = code.read_span(&label.inner().clone(), 0, 0).unwrap();
        assert_eq!(span.name(), Some("main.tf"));
        assert_eq!(std::str::from_utf8(span.data()).unwrap(), "oops");

        let mut out = String::new();
        miette::NarratableReportHandler::new()
            .render_report(&mut out, &s)
            .unwrap();
        assert!(out.contains("Bad value"), "{out}");
        assert!(out.contains("main.tf"), "{out}");
    }
}
