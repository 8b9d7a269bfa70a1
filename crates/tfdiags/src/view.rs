//! `views.View.Diagnostics`: the whole human pipeline for one command's
//! diagnostics, returning the messages for the caller to print.

use crate::consolidate::{prepare_for_view, DeprecationLevel};
use crate::diagnostic::{DeprecationCause, Severity};
use crate::diagnostics::Diagnostics;
use crate::human::{
    format_diagnostic, format_diagnostic_plain, format_warnings_compact, DEFAULT_WIDTH,
};
use crate::sources::SourceMap;

/// The global view flags that shape diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewOptions {
    /// ANSI colour codes (off with `-no-color` or `NO_COLOR`).
    pub color: bool,
    /// The plain form instead of the box: `-no-color`, as OpenTofu's
    /// views choose `DiagnosticPlain` when colour is disabled by the flag.
    /// `NO_COLOR` only drops the colour codes (no-color.org's meaning), so
    /// output read by people and by scripts keeps the box.
    pub plain: bool,
    /// Terminal width of stderr ([`DEFAULT_WIDTH`] when not a terminal).
    pub width: usize,
    /// `-compact-warnings`.
    pub compact_warnings: bool,
    /// `-consolidate-warnings` (on by default).
    pub consolidate_warnings: bool,
    /// `-consolidate-errors`.
    pub consolidate_errors: bool,
    /// `-deprecation=module:<level>`.
    pub deprecation: DeprecationLevel,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            color: true,
            plain: false,
            width: DEFAULT_WIDTH,
            compact_warnings: false,
            consolidate_warnings: true,
            consolidate_errors: false,
            deprecation: DeprecationLevel::All,
        }
    }
}

/// Where a rendered message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// One piece of output: errors go to stderr, warnings to stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub stream: Stream,
    pub text: String,
}

/// Sorts, de-duplicates, filters and consolidates `diags`, then renders
/// each (the box, with or without colour; the plain form under `-no-color`), or the compact list
/// when `compact_warnings` is set and there are only warnings. `is_local`
/// tells whether a deprecation cause's module is local.
pub fn render_diagnostics(
    diags: &Diagnostics,
    sources: &SourceMap,
    opts: &ViewOptions,
    is_local: &dyn Fn(&DeprecationCause) -> bool,
) -> Vec<Message> {
    if diags.is_empty() {
        return Vec::new();
    }
    let diags = prepare_for_view(
        diags.clone(),
        opts.deprecation,
        is_local,
        opts.consolidate_warnings,
        opts.consolidate_errors,
    );
    if opts.compact_warnings && diags.iter().all(|d| d.severity == Severity::Warning) {
        let text = format!(
            "\n{}\nTo see the full warning notes, run OpenTofu without -compact-warnings.\n",
            format_warnings_compact(&diags, opts.color)
        );
        return vec![Message {
            stream: Stream::Stdout,
            text,
        }];
    }
    diags
        .iter()
        .map(|d| Message {
            stream: if d.is_error() {
                Stream::Stderr
            } else {
                Stream::Stdout
            },
            text: if opts.plain {
                format_diagnostic_plain(d, sources, opts.width)
            } else {
                format_diagnostic(d, sources, opts.color, opts.width)
            },
        })
        .collect()
}
