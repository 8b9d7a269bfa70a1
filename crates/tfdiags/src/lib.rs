//! Diagnostics for tofu-rs, as OpenTofu's `internal/tfdiags` plus its
//! diagnostic views.
//!
//! A [`Diagnostic`] is a value: severity, summary, detail, subject and
//! context ranges, a resource address and extra data (deprecation cause,
//! expression values, function call). Rendering is separate: the human box
//! and plain forms ([`format_diagnostic`], [`format_diagnostic_plain`]), the
//! `validate -json` document ([`validate_json`]), miette reports, and the
//! view pipeline that sorts, filters and consolidates ([`render_diagnostics`]).
//!
//! This crate knows source text and ranges (through `hclsyntax`) but nothing
//! of configurations, values or evaluation: callers supply expression-value
//! statements and whether a module is local.

mod consolidate;
mod context;
mod diagnostic;
mod diagnostics;
mod entity;
mod human;
mod json;
mod report;
mod sources;
mod text;
mod view;

pub use consolidate::{
    consolidate, consolidation_key, dedupe_deprecations, filter_deprecations, prepare_for_view,
    DeprecationLevel,
};
pub use context::context_string;
pub use diagnostic::{
    DeprecationCause, Diagnostic, ExpressionValue, Extra, FunctionCall, FunctionParam,
    FunctionSignature, Severity,
};
pub use diagnostics::{compare_for_display, Diagnostics};
pub use entity::{
    prepare_ranges, DiagnosticEntity, FunctionCallEntity, FunctionEntity, FunctionParamEntity,
    PosEntity, RangeEntity, SnippetEntity, ValueEntity,
};
pub use human::{
    format_diagnostic, format_diagnostic_plain, format_entity, format_entity_plain,
    format_warnings_compact, DEFAULT_WIDTH,
};
pub use json::{
    diagnostic_json, to_go_json_compact, to_go_json_pretty, validate_json, validate_json_value,
};
pub use report::{SourceText, SourcedDiagnostic};
pub use sources::SourceMap;
pub use text::{replace_control_chars, strip_ansi, wrap_string};
pub use view::{render_diagnostics, Message, Stream, ViewOptions};
