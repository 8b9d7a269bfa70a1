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

/// Renders the diagnostics as the views do (the box, with consolidation)
/// and as `-json` does: both quote source text through the ranges.
pub fn render_diagnostics(diags: &Diagnostics, sources: &SourceMap) {
    let opts = ViewOptions::default();
    std::hint::black_box(tfdiags::render_diagnostics(diags, sources, &opts, &|_| {
        true
    }));
    std::hint::black_box(tfdiags::validate_json(diags, sources));
}
