//! One diagnostic as a value: what went wrong, where, and the extra data the
//! views use to filter, consolidate and annotate it.

use std::fmt;

use hclsyntax::Range;
pub use hclsyntax::Severity;

/// A problem (error) or a note of caution (warning) found while working on a
/// configuration, as OpenTofu's `tfdiags.Diagnostic`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// One line saying what is wrong; never wrapped.
    pub summary: String,
    /// The explanation, word-wrapped by the human view; may be empty.
    pub detail: String,
    /// The source range the problem is about; underlined in snippets.
    pub subject: Option<Range>,
    /// A wider range the snippet must include (e.g. a whole expression).
    pub context: Option<Range>,
    /// The resource instance address the problem is about, shown as
    /// `with <address>,` and as the JSON `address` field.
    pub address: Option<String>,
    /// Data that does not show as text but steers the views.
    pub extra: Extra,
}

/// Additional data attached to a diagnostic (OpenTofu keeps these in
/// `ExtraInfo` and in the `FromExpr` expression/evaluation context).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extra {
    /// Set on deprecation warnings for module variables and outputs; used by
    /// `-deprecation` filtering, de-duplication and consolidation.
    pub deprecation: Option<DeprecationCause>,
    /// Values of the references in the failing expression, rendered below
    /// the snippet and as the JSON `snippet.values`.
    pub values: Vec<ExpressionValue>,
    /// The function call whose failure this diagnostic reports.
    pub function_call: Option<FunctionCall>,
    /// Opts out of consolidation (`DoNotConsolidateDiagnostic`).
    pub do_not_consolidate: bool,
    /// Appended to the summary to form the consolidation key.
    pub consolidation_key: Option<String>,
    /// Subjects of the diagnostics a consolidated group swallowed (filled by
    /// [`crate::consolidate`]; empty otherwise).
    pub consolidated: Vec<Option<Range>>,
}

/// Where a deprecation warning comes from: a deprecated variable or output of
/// the module at `module`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeprecationCause {
    /// The module instance path declaring the deprecated item, e.g.
    /// `module.call` or `module.a["x"].module.b`; empty for the root.
    pub module: String,
    /// The deprecated variable or output name.
    pub subject: String,
    /// The author's `deprecated` message.
    pub message: String,
    /// The source address of the module call (e.g. `./mod1`) when known;
    /// two calls of the same source consolidate together.
    pub module_source: Option<String>,
}

/// A statement about one reference's value while the expression was
/// evaluated, e.g. `var.x` / `is "foo"`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExpressionValue {
    pub traversal: String,
    pub statement: String,
}

impl ExpressionValue {
    pub fn new(traversal: impl Into<String>, statement: impl Into<String>) -> ExpressionValue {
        ExpressionValue {
            traversal: traversal.into(),
            statement: statement.into(),
        }
    }
}

/// A function call a diagnostic is about (`snippet.function_call`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCall {
    /// The name as written in the call, with any namespace prefix.
    pub called_as: String,
    /// The called function's signature, when the function exists.
    pub signature: Option<FunctionSignature>,
}

/// A function signature as `jsonentities.Function` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionSignature {
    pub name: String,
    pub params: Vec<FunctionParam>,
    pub variadic_param: Option<FunctionParam>,
    /// The return type in cty's JSON type notation (e.g. `"string"`).
    pub return_type: serde_json::Value,
}

/// One parameter of a [`FunctionSignature`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionParam {
    pub name: String,
    /// The type constraint in cty's JSON type notation.
    pub type_json: serde_json::Value,
}

impl Diagnostic {
    /// A diagnostic of any severity about `subject`.
    pub fn new(
        severity: Severity,
        summary: impl Into<String>,
        detail: impl Into<String>,
        subject: Option<Range>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            summary: summary.into(),
            detail: detail.into(),
            subject,
            context: None,
            address: None,
            extra: Extra::default(),
        }
    }

    /// An error about the source range `subject`.
    pub fn error(summary: impl Into<String>, detail: impl Into<String>, subject: Range) -> Self {
        Diagnostic::new(Severity::Error, summary, detail, Some(subject))
    }

    /// A warning about the source range `subject`.
    pub fn warning(summary: impl Into<String>, detail: impl Into<String>, subject: Range) -> Self {
        Diagnostic::new(Severity::Warning, summary, detail, Some(subject))
    }

    /// A diagnostic about the whole command rather than a place in the
    /// source (`tfdiags.Sourceless`).
    pub fn sourceless(
        severity: Severity,
        summary: impl Into<String>,
        detail: impl Into<String>,
    ) -> Self {
        Diagnostic::new(severity, summary, detail, None)
    }

    /// A sourceless error.
    pub fn error_sourceless(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic::sourceless(Severity::Error, summary, detail)
    }

    /// A sourceless warning.
    pub fn warning_sourceless(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic::sourceless(Severity::Warning, summary, detail)
    }

    pub fn with_context(mut self, context: Range) -> Self {
        self.context = Some(context);
        self
    }

    pub fn with_address(mut self, address: impl Into<String>) -> Self {
        self.address = Some(address.into());
        self
    }

    pub fn with_deprecation(mut self, cause: DeprecationCause) -> Self {
        self.extra.deprecation = Some(cause);
        self
    }

    pub fn with_values(mut self, values: Vec<ExpressionValue>) -> Self {
        self.extra.values = values;
        self
    }

    pub fn with_function_call(mut self, call: FunctionCall) -> Self {
        self.extra.function_call = Some(call);
        self
    }

    /// Keeps this diagnostic out of consolidation.
    pub fn do_not_consolidate(mut self) -> Self {
        self.extra.do_not_consolidate = true;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    /// HCL's compact rendering used by OpenTofu's Go tests
    /// (`hcl.Diagnostic.Error()`): `file:line,col-[line,]col: summary; detail`,
    /// or `summary; detail` without a subject.
    pub fn to_hcl_string(&self) -> String {
        match &self.subject {
            Some(r) => format!("{}: {}; {}", r, self.summary, self.detail),
            None => format!("{}; {}", self.summary, self.detail),
        }
    }
}

/// Same as [`Diagnostic::to_hcl_string`].
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hcl_string())
    }
}

impl std::error::Error for Diagnostic {}

impl From<hclsyntax::Diagnostic> for Diagnostic {
    fn from(d: hclsyntax::Diagnostic) -> Self {
        Diagnostic {
            severity: d.severity,
            summary: d.summary,
            detail: d.detail,
            subject: d.subject,
            context: d.context,
            address: None,
            extra: Extra::default(),
        }
    }
}

impl From<&hclsyntax::Diagnostic> for Diagnostic {
    fn from(d: &hclsyntax::Diagnostic) -> Self {
        Diagnostic::from(d.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclsyntax::SourceFile;

    #[test]
    fn hcl_string_matches_go_tests() {
        let f = SourceFile::new("main.tf", "a = 1\nbb = 2\n");
        let d = Diagnostic::error("Bad", "Very bad.", f.range(6, 8));
        assert_eq!(d.to_hcl_string(), "main.tf:2,1-3: Bad; Very bad.");
        let multi = Diagnostic::warning("W", "", f.range(0, 8));
        assert_eq!(multi.to_string(), "main.tf:1,1-2,3: W; ");
        let none = Diagnostic::error_sourceless("No config", "Nothing here.");
        assert_eq!(none.to_string(), "No config; Nothing here.");
    }

    #[test]
    fn converts_hcl_diagnostics() {
        let f = SourceFile::new("x.tf", "abc");
        let h = hclsyntax::Diagnostic::warning("S", "D", f.range(0, 1)).with_context(f.range(0, 3));
        let d: Diagnostic = h.into();
        assert!(d.is_warning());
        assert_eq!(d.context, Some(f.range(0, 3)));
        assert_eq!(d.address, None);
    }
}
