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
    /// Colour on (no `-no-color`, no `NO_COLOR`): the box; off: the plain form.
    pub color: bool,
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
/// each (the box with colour, the plain form without), or the compact list
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
            text: if opts.color {
                format_diagnostic(d, sources, true, opts.width)
            } else {
                format_diagnostic_plain(d, sources, opts.width)
            },
        })
        .collect()
}
