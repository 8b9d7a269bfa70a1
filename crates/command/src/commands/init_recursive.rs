//! `tofu-rs init -recursive`: `init` in every root module below the current
//! directory (or in each directory given), in one process
//! ([`crate::recursive`]). Each root is initialized as `tofu init` run in
//! it would be: its own `.terraform`, lock file and manifest. What the
//! roots have in common is done once: a module directory is parsed once,
//! and a remote package many roots use is fetched once (and, with a module
//! cache, not at all once cached).

use std::path::Path;
use std::time::Duration;

use tfdiags::{Diagnostics, SourceMap};

use super::init::{InitOptions, InitView, RootInit, SharedInit};
use crate::interrupt::InterruptScope;
use crate::recursive::{self, RootOutcome};
use crate::view::Streams;

/// Roots initialized at once. Most of a root's init is waiting (on the
/// file system, git and the registry), so more roots run than there are
/// cores.
fn parallel_roots() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get() * 4)
        .unwrap_or(8)
        .clamp(4, 32)
}

pub(crate) fn run(
    opts: &InitOptions,
    view: &InitView,
    lock_wait: Duration,
    streams: &mut Streams,
) -> i32 {
    let roots = match recursive::roots(&opts.args) {
        Ok(r) => r,
        Err(diags) => {
            view.diagnostics(streams, &diags, &SourceMap::new());
            return 1;
        }
    };
    if let Some(d) = shared_data_dir() {
        let mut diags = Diagnostics::new();
        diags.push(d);
        view.diagnostics(streams, &diags, &SourceMap::new());
        return 1;
    }
    // SIGINT cancels every root's installation at once; a second one
    // kills the process.
    let interrupt = InterruptScope::start();
    // Each root installs its own copy of every remote module: identical
    // copies are parsed once.
    let shared = SharedInit::new(Some(interrupt.cancel().clone()), true);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(parallel_roots())
        .build();
    let one = |root: &Path| init_one(root, opts, view, lock_wait, &shared);
    let outcomes = match pool {
        Ok(pool) => pool.install(|| recursive::run_all(&roots, one)),
        Err(_) => recursive::run_all(&roots, one),
    };
    recursive::report(&outcomes, opts.json, "initialized", &view.view, streams)
}

/// An absolute `TF_DATA_DIR` would be every root's data directory: the
/// roots would overwrite each other's manifests.
fn shared_data_dir() -> Option<tfdiags::Diagnostic> {
    let data = crate::loader::data_dir();
    data.is_absolute().then(|| {
        tfdiags::Diagnostic::error_sourceless(
            "Shared data directory",
            format!(
                "TF_DATA_DIR is the absolute path {}, which every root module would share. init -recursive needs a data directory per root: unset TF_DATA_DIR or make it relative.",
                cty::format::go_quote(&data.to_string_lossy())
            ),
        )
    })
}

/// One root's init, its output captured: its progress lines are dropped,
/// its warnings and errors kept as init prints them.
fn init_one(
    root: &Path,
    opts: &InitOptions,
    view: &InitView,
    lock_wait: Duration,
    shared: &SharedInit,
) -> RootOutcome {
    let mut captured = Streams::captured();
    let mut init = RootInit::new(recursive::work_dir(root), lock_wait);
    init.quiet = true;
    let code = match init.run(opts, view, &mut captured, shared) {
        Ok(()) => 0,
        Err(stop) => stop.0,
    };
    let (_, stderr) = captured.into_text();
    // The warnings are shown whether or not the root failed; its errors
    // are in what it printed to standard error.
    let mut warnings = Diagnostics::new();
    for d in init.diags.iter() {
        if d.severity == tfdiags::Severity::Warning {
            warnings.push(d.clone());
        }
    }
    let mut out = Streams::captured();
    view.diagnostics(&mut out, &warnings, &init.sources);
    let (stdout, _) = out.into_text();
    RootOutcome {
        root: recursive::shown(root),
        code,
        errors: init.diags.error_count(),
        warnings: init.diags.warning_count(),
        stdout,
        stderr,
        json: tfdiags::validate_json_value(&init.diags, &init.sources),
    }
}
