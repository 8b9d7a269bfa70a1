//! A list of diagnostics, as OpenTofu's `tfdiags.Diagnostics`.

use std::cmp::Ordering;
use std::fmt;

use crate::diagnostic::{Diagnostic, Severity};

/// An ordered list of diagnostics; empty means "all went well".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics(Vec::new())
    }

    pub fn push(&mut self, diag: impl Into<Diagnostic>) {
        self.0.push(diag.into());
    }

    /// Appends HCL diagnostics (or anything convertible).
    pub fn append<I>(&mut self, diags: I)
    where
        I: IntoIterator,
        I::Item: Into<Diagnostic>,
    {
        self.0.extend(diags.into_iter().map(Into::into));
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Diagnostic> {
        self.0.iter_mut()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    pub fn as_slice(&self) -> &[Diagnostic] {
        &self.0
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.0
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    pub fn error_count(&self) -> usize {
        self.0.iter().filter(|d| d.is_error()).count()
    }

    pub fn warning_count(&self) -> usize {
        self.0.iter().filter(|d| d.is_warning()).count()
    }

    /// Sorts in place as `Diagnostics.Sort`: warnings before errors,
    /// sourceless before sourced, files with fewer path segments first, then
    /// by file name, start byte and end byte. Stable otherwise.
    pub fn sort(&mut self) {
        self.0.sort_by(compare_for_display);
    }
}

/// The ordering of `tfdiags.sortDiagnostics`.
pub fn compare_for_display(a: &Diagnostic, b: &Diagnostic) -> Ordering {
    if a.severity != b.severity {
        return if a.severity == Severity::Warning {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    match (&a.subject, &b.subject) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => {
            if x.filename != y.filename {
                let sep = std::path::MAIN_SEPARATOR;
                let xc = x.filename.matches(sep).count();
                let yc = y.filename.matches(sep).count();
                return xc.cmp(&yc).then_with(|| x.filename.cmp(&y.filename));
            }
            x.start
                .byte
                .cmp(&y.start.byte)
                .then(x.end.byte.cmp(&y.end.byte))
        }
    }
}

impl std::ops::Deref for Diagnostics {
    type Target = [Diagnostic];
    fn deref(&self) -> &[Diagnostic] {
        &self.0
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(v: Vec<Diagnostic>) -> Self {
        Diagnostics(v)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl From<Vec<hclsyntax::Diagnostic>> for Diagnostics {
    fn from(v: Vec<hclsyntax::Diagnostic>) -> Self {
        Diagnostics(v.into_iter().map(Diagnostic::from).collect())
    }
}

impl<D: Into<Diagnostic>> FromIterator<D> for Diagnostics {
    fn from_iter<T: IntoIterator<Item = D>>(iter: T) -> Self {
        Diagnostics(iter.into_iter().map(Into::into).collect())
    }
}

impl<D: Into<Diagnostic>> Extend<D> for Diagnostics {
    fn extend<T: IntoIterator<Item = D>>(&mut self, iter: T) {
        self.0.extend(iter.into_iter().map(Into::into));
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The message of `Diagnostics.Err()`: one diagnostic as `summary: detail`,
/// several as `N problems:` followed by one `- summary: detail` line each.
impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = |d: &Diagnostic| {
            if d.detail.is_empty() {
                d.summary.clone()
            } else {
                format!("{}: {}", d.summary, d.detail)
            }
        };
        match self.0.as_slice() {
            [] => f.write_str("no errors"),
            [d] => f.write_str(&one(d)),
            all => {
                writeln!(f, "{} problems:", all.len())?;
                for d in all {
                    write!(f, "\n- {}", one(d))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;
    use hclsyntax::SourceFile;

    #[test]
    fn sort_orders_like_opentofu() {
        let a = SourceFile::new("a.tf", "0123456789");
        let nested = SourceFile::new("mod/a.tf", "0123456789");
        let mut diags: Diagnostics = vec![
            Diagnostic::error("e-late", "", a.range(5, 6)),
            Diagnostic::error("e-nested", "", nested.range(0, 1)),
            Diagnostic::error("e-early", "", a.range(1, 2)),
            Diagnostic::error_sourceless("e-none", ""),
            Diagnostic::warning("w", "", a.range(9, 10)),
            Diagnostic::error("e-early-longer", "", a.range(1, 4)),
        ]
        .into();
        diags.sort();
        let order: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
        assert_eq!(
            order,
            [
                "w",
                "e-none",
                "e-early",
                "e-early-longer",
                "e-late",
                "e-nested"
            ]
        );
    }

    #[test]
    fn counts_and_errors() {
        let f = SourceFile::new("a.tf", "x");
        let mut diags = Diagnostics::new();
        assert!(!diags.has_errors());
        diags.push(Diagnostic::warning("w", "", f.range(0, 1)));
        diags.append(vec![hclsyntax::Diagnostic::error("e", "d", f.range(0, 1))]);
        assert!(diags.has_errors());
        assert_eq!((diags.error_count(), diags.warning_count()), (1, 1));
        assert_eq!(diags.to_string(), "2 problems:\n\n- w\n- e: d");
    }
}
