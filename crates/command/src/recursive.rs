//! `-recursive` (`init` and `validate`): one command over every root module
//! below the current directory, in one process. The roots are
//! `configs::roots`'s (directories with configuration that nothing else in
//! the tree calls as a local module; hidden directories and `.terraform`
//! skipped), or the directories given as arguments. They run in parallel
//! and share what the process has read: a module directory many roots call
//! is parsed once. Each root's outcome is kept and printed in root order,
//! whatever order the roots finished in, so the output is stable.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde_json::{json, Value};
use tfdiags::{Diagnostic, Diagnostics, SourceMap};

use configs::module_dir_cache::ModuleDirCache;

use crate::view::{Streams, View};

/// What one root's run gave: its exit status, and what is shown for it.
pub struct RootOutcome {
    /// The root as shown: relative to the current directory, `.` for the
    /// current directory itself.
    pub root: String,
    /// The command's exit status for this root alone.
    pub code: i32,
    /// Error and warning counts of what the root reported.
    pub errors: usize,
    pub warnings: usize,
    /// The rendered warnings (standard output) and errors (standard
    /// error), as the command run in that root would print them.
    pub stdout: String,
    pub stderr: String,
    /// The root's `-json` result.
    pub json: Value,
}

/// The roots to run: the arguments when there are any (each must be a
/// directory), otherwise those found below the current directory.
pub fn roots(args: &[String]) -> Result<Vec<PathBuf>, Diagnostics> {
    if args.is_empty() {
        let tree = configs::roots::ConfigTree::scan(Path::new("."));
        return Ok(tree.roots());
    }
    let mut diags = Diagnostics::new();
    let mut roots = Vec::new();
    for arg in args {
        let path = configs::roots::tree::clean(Path::new(arg));
        if Path::new(arg).is_dir() {
            roots.push(path);
        } else {
            diags.push(Diagnostic::error_sourceless(
                "Invalid root module directory",
                format!(
                    "{} is not a directory: -recursive runs each directory given as an argument as a root module.",
                    cty::format::go_quote(arg)
                ),
            ));
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    // One directory given twice (`live/a live/a/`, or relative and
    // absolute) is one root: two runs in it at once would only wait for
    // each other's lock and report it twice.
    let mut seen = std::collections::HashSet::new();
    roots.retain(|r| seen.insert(std::fs::canonicalize(work_dir(r)).unwrap_or_else(|_| r.clone())));
    Ok(roots)
}

/// The working directory of root `root` (as [`roots`] gives it) as the
/// process sees it.
pub fn work_dir(root: &Path) -> PathBuf {
    if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root.to_path_buf()
    }
}

/// `root` as shown in the output.
pub fn shown(root: &Path) -> String {
    let s = work_dir(root).to_string_lossy().replace('\\', "/");
    s.trim_end_matches('/').to_string()
}

/// Runs `one` on every root, in parallel; the outcomes in root order.
pub fn run_all<F>(roots: &[PathBuf], one: F) -> Vec<RootOutcome>
where
    F: Fn(&Path) -> RootOutcome + Sync,
{
    roots.par_iter().map(|r| one(r)).collect()
}

/// The directory of every module in `config` (as loaded), for
/// [`own_paths`].
pub fn module_dirs(config: Option<&configs::config::Config>) -> Vec<PathBuf> {
    config
        .map(|c| c.all().into_iter().map(|n| n.dir.clone()).collect())
        .unwrap_or_default()
}

/// Shows a root, whose modules were loaded from `module_dirs`, its own
/// copies of the modules it shares with other roots. A module directory found identical to one read for another
/// root ([`ModuleDirCache::sharing_identical`]) was answered with that
/// root's module, whose ranges name files in the other root's
/// `.terraform`; the diagnostics' file names are moved back to this root's
/// copy, and the copies' sources added under those names for the snippets.
pub fn own_paths(
    module_dirs: &[PathBuf],
    dirs: &ModuleDirCache,
    diags: &mut Diagnostics,
    sources: &mut SourceMap,
) {
    // (the first copy's directory, this root's), each with a final `/`.
    let mut moves: Vec<(String, String)> = Vec::new();
    for dir in module_dirs {
        if let Some(first) = dirs.alias_of(dir) {
            moves.push((
                format!("{}/", first.to_string_lossy()),
                format!("{}/", dir.to_string_lossy()),
            ));
        }
    }
    if moves.is_empty() {
        return;
    }
    let mut renamed: Vec<(Arc<str>, Arc<str>)> = Vec::new();
    let mut move_range = |range: &mut Option<hclsyntax::Range>| {
        let Some(r) = range else {
            return;
        };
        if let Some((from, to)) = moves
            .iter()
            .find(|(f, _)| r.filename.starts_with(f.as_str()))
        {
            let new: Arc<str> = format!("{to}{}", &r.filename[from.len()..]).into();
            renamed.push((r.filename.clone(), new.clone()));
            r.filename = new;
        }
    };
    for d in diags.iter_mut() {
        move_range(&mut d.subject);
        move_range(&mut d.context);
    }
    for (old, new) in renamed {
        if sources.get(&new).is_none() {
            if let Some(text) = sources.get(&old).map(|f| f.text().to_string()) {
                sources.add(new, text);
            }
        }
    }
}

/// The diagnostics of one root rendered as the command prints them:
/// warnings for standard output, errors for standard error.
pub fn rendered(
    view: &View,
    diags: &Diagnostics,
    sources: &SourceMap,
    config: Option<&configs::config::Config>,
) -> (String, String) {
    let (mut out, mut err) = (String::new(), String::new());
    for msg in view.messages(diags, sources, config) {
        match msg.stream {
            tfdiags::Stream::Stdout => out.push_str(&msg.text),
            tfdiags::Stream::Stderr => err.push_str(&msg.text),
        }
    }
    (out, err)
}

/// Prints every root's outcome, then the summary (human), or one JSON
/// document per line (`-json`); the exit status: 1 when any root failed.
pub fn report(
    outcomes: &[RootOutcome],
    json: bool,
    verb: &str,
    view: &View,
    streams: &mut Streams,
) -> i32 {
    let failed = outcomes.iter().filter(|o| o.code != 0).count();
    if json {
        let mut out = String::new();
        for o in outcomes {
            let doc = json!({ "root": o.root, "result": o.json });
            out.push_str(&tfdiags::to_go_json_compact(&doc));
            out.push('\n');
        }
        streams.print(&out);
    } else {
        for o in outcomes {
            streams.print(&status_line(o, view.options.color));
            streams.print(&o.stdout);
            streams.eprint(&o.stderr);
        }
        streams.print(&summary(outcomes.len(), failed, verb, view.options.color));
    }
    i32::from(failed > 0)
}

/// `live/app: ok`, `live/app: ok, 2 warnings` or `live/app: failed, 1 error`.
fn status_line(o: &RootOutcome, color: bool) -> String {
    let counts = |n: usize, what: &str| match n {
        0 => String::new(),
        1 => format!(", 1 {what}"),
        n => format!(", {n} {what}s"),
    };
    let (word, paint) = if o.code == 0 {
        ("ok", "\x1b[32m")
    } else {
        ("failed", "\x1b[1m\x1b[31m")
    };
    let word = if color {
        format!("{paint}{word}\x1b[0m")
    } else {
        word.to_string()
    };
    format!(
        "{}: {word}{}{}\n",
        o.root,
        counts(o.errors, "error"),
        counts(o.warnings, "warning")
    )
}

/// `3 root modules validated: 2 ok, 1 failed.`
fn summary(total: usize, failed: usize, verb: &str, color: bool) -> String {
    let noun = if total == 1 {
        "root module"
    } else {
        "root modules"
    };
    let line = format!(
        "{total} {noun} {verb}: {} ok, {failed} failed.",
        total - failed
    );
    match (color, failed) {
        (false, _) => format!("\n{line}\n"),
        (true, 0) => format!("\n\x1b[1m\x1b[32m{line}\x1b[0m\n"),
        (true, _) => format!("\n\x1b[1m\x1b[31m{line}\x1b[0m\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(root: &str, code: i32, errors: usize, warnings: usize) -> RootOutcome {
        RootOutcome {
            root: root.to_string(),
            code,
            errors,
            warnings,
            stdout: String::new(),
            stderr: String::new(),
            json: json!({}),
        }
    }

    #[test]
    fn status_lines_count_what_each_root_reported() {
        assert_eq!(
            status_line(&outcome("live/a", 0, 0, 0), false),
            "live/a: ok\n"
        );
        assert_eq!(
            status_line(&outcome("live/a", 0, 0, 2), false),
            "live/a: ok, 2 warnings\n"
        );
        assert_eq!(
            status_line(&outcome(".", 1, 1, 1), false),
            ".: failed, 1 error, 1 warning\n"
        );
    }

    #[test]
    fn the_summary_counts_roots() {
        assert_eq!(
            summary(1, 0, "validated", false),
            "\n1 root module validated: 1 ok, 0 failed.\n"
        );
        assert_eq!(
            summary(3, 1, "initialized", false),
            "\n3 root modules initialized: 2 ok, 1 failed.\n"
        );
    }

    #[test]
    fn roots_as_shown() {
        assert_eq!(shown(Path::new("")), ".");
        assert_eq!(shown(Path::new("live/prod")), "live/prod");
        assert_eq!(work_dir(Path::new("")), PathBuf::from("."));
    }

    #[test]
    fn a_directory_given_twice_is_one_root() {
        let d = tempfile::tempdir().unwrap();
        let abs = d.path().to_string_lossy().into_owned();
        let twice = roots(&[abs.clone(), format!("{abs}/"), format!("{abs}/.")]).unwrap();
        assert_eq!(twice.len(), 1);
    }

    #[test]
    fn an_argument_that_is_not_a_directory_is_an_error() {
        let diags = roots(&["/nonexistent/tofu-rs-root".to_string()]).unwrap_err();
        let d = diags.iter().next().unwrap();
        assert_eq!(d.summary, "Invalid root module directory");
    }
}
