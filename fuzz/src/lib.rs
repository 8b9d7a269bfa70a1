//! What the fuzz targets share: rendering diagnostics the way the CLI does
//! (a range that points outside its file, or into the middle of a
//! multibyte character, must not panic the renderer), the expression and
//! type generators, and the evaluation context of `eval`.
//!
//! The targets themselves are one file each under `fuzz_targets/`.

pub mod eval_data;
pub mod expr_gen;
pub mod text_gen;
pub mod type_gen;

use tfdiags::{Diagnostics, SourceMap, ViewOptions};

/// Diagnostics rendered per input. Each rendering scans its whole file
/// for the snippet's context (`tfdiags::context_string`), which under the
/// fuzzer's comparison tracing is tens of milliseconds for a 26 KB seed:
/// a seed with many errors ran for 30 s, while its later diagnostics are
/// rendered no differently from its first.
const MAX_RENDERED: usize = 8;

/// Renders the diagnostics as the views do (the box, with consolidation)
/// and as `-json` does: both quote source text through the ranges.
pub fn render_diagnostics(diags: &Diagnostics, sources: &SourceMap) {
    let diags: Diagnostics = diags
        .iter()
        .take(MAX_RENDERED)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    let opts = ViewOptions::default();
    let all_local = |_: &tfdiags::DeprecationCause| true;
    std::hint::black_box(tfdiags::render_diagnostics(
        &diags, sources, &opts, &all_local,
    ));
    std::hint::black_box(tfdiags::validate_json(&diags, sources));
}
