//! `tofu-rs affected [-git-base=REF] [-json] [FILE ...]`: the root modules
//! under the current directory whose configuration includes a changed file
//! (tofu-rs's own command; OpenTofu has none).
//!
//! The changed files are the arguments, or the files changed since REF
//! (`git_changes`), or, with neither, the lines of standard input (`git
//! diff --name-only … | tofu-rs affected`). Roots and ownership are
//! `configs::roots`'s: a file belongs to the nearest configuration
//! directory above it, and a root is affected when such a directory is in
//! its configuration, through local module calls. A remote module is never
//! affected by a local change.

use std::io::Read;
use std::path::{Path, PathBuf};

use configs::roots::{affected_roots, Affected, ConfigTree};
use serde_json::{json, Map, Value};
use tfdiags::{Diagnostic, Diagnostics, SourceMap};

use crate::flags::options;
use crate::git_changes::changed_since;
use crate::view::{Streams, View};

options! {
    /// `tofu-rs affected`'s flags.
    pub struct AffectedOptions {
        /// `-git-base=REF`: the files changed since the merge base of REF
        /// and HEAD, working tree included.
        git_base: Option<String> => ["git-base"],
        /// `-json`: one document for CI matrices.
        json: bool => ["json"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match AffectedOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let view = View::new(opts.no_color);
    let changed = match changed_files(&opts) {
        Ok(files) => files,
        Err(detail) => {
            let mut diags = Diagnostics::new();
            diags.push(Diagnostic::error_sourceless(
                "Failed to list the changed files",
                detail,
            ));
            view.diagnostics(streams, &diags, &SourceMap::new());
            return 1;
        }
    };
    let base = Path::new(".");
    let tree = ConfigTree::scan(base);
    let roots = tree.roots();
    let hits = affected_roots(&tree, base, &roots, &changed);
    if opts.json {
        streams.print(&tfdiags::to_go_json_pretty(&document(&hits)));
        streams.print("\n");
    } else {
        for hit in &hits {
            streams.print(&format!("{}\n", shown(&hit.root)));
        }
        let warnings = undecided_warnings(&tree, &hits);
        if !warnings.is_empty() {
            view.diagnostics(streams, &warnings, &SourceMap::new());
            // The rendered diagnostics end without a line break; the
            // output ends with one.
            streams.print("\n");
        }
    }
    0
}

/// The changed files the options name, in the order given.
fn changed_files(opts: &AffectedOptions) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = opts.args.iter().map(PathBuf::from).collect();
    if let Some(base) = &opts.git_base {
        files.extend(changed_since(Path::new("."), base)?);
    } else if files.is_empty() {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("reading the changed files from standard input: {e}"))?;
        files.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(PathBuf::from),
        );
    }
    Ok(files)
}

/// A path relative to the current directory as shown: forward slashes,
/// the directory itself as `.`.
fn shown(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    if s.is_empty() {
        ".".into()
    } else {
        s
    }
}

/// The `-json` document: the affected roots (for a matrix), and for each
/// the changed files of its configuration and the directories whose
/// module sources could not be decided.
fn document(hits: &[Affected]) -> Value {
    let mut reasons = Map::new();
    for hit in hits {
        reasons.insert(
            shown(&hit.root),
            json!({
                "changed_files": hit.files.iter().map(|f| shown(f)).collect::<Vec<_>>(),
                "undecided_module_sources": hit.undecided.iter().map(|d| shown(d)).collect::<Vec<_>>(),
            }),
        );
    }
    json!({
        "format_version": "1.0",
        "affected": hits.iter().map(|h| shown(&h.root)).collect::<Vec<_>>(),
        "reasons": reasons,
    })
}

/// One warning per directory whose module sources were not decided and
/// that made a root affected.
fn undecided_warnings(tree: &ConfigTree, hits: &[Affected]) -> Diagnostics {
    let mut dirs: Vec<&PathBuf> = hits.iter().flat_map(|h| &h.undecided).collect();
    dirs.sort();
    dirs.dedup();
    let mut diags = Diagnostics::new();
    for dir in dirs {
        let calls = tree
            .dirs
            .get(dir)
            .map(|d| d.undecided_calls.join(", module."));
        diags.push(Diagnostic::warning_sourceless(
            "Module source not decided",
            format!(
                "The source of module.{} in {} could not be evaluated without input variables, so the roots that use {} are listed for any change.",
                calls.unwrap_or_default(),
                shown(dir),
                shown(dir)
            ),
        ));
    }
    diags
}
