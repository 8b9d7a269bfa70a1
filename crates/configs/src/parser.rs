//! Reading files: bytes to parsed bodies (in parallel, each file once) and
//! bodies to [`ConfigFile`]s, the per-file decode OpenTofu's
//! `loadConfigFile` does.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hclsyntax::{Diagnostic, Diagnostics, SourceFile};
use rayon::prelude::*;

use crate::config_file::{decode_file, ConfigFile};

/// A file read and parsed: its source (for diagnostics) and its decoded
/// contents.
#[derive(Debug)]
pub struct LoadedFile {
    pub path: PathBuf,
    pub source: Arc<SourceFile>,
    pub config: ConfigFile,
    pub diagnostics: Diagnostics,
}

/// `dir` joined with `name` the way Go's `filepath.Join` cleans it, so
/// file names in diagnostics read `main.tf` for the current directory and
/// `modules/a/main.tf` below it.
pub fn display_path(dir: &Path, name: &str) -> String {
    let d = dir.to_string_lossy();
    let d = d.trim_end_matches('/');
    if d.is_empty() || d == "." {
        name.to_string()
    } else if let Some(rest) = d.strip_prefix("./") {
        format!("{}/{name}", rest.trim_start_matches('/'))
    } else {
        format!("{d}/{name}")
    }
}

/// Reads and parses one file. A file that cannot be read is an error
/// diagnostic without a range, as OpenTofu's "Failed to read file".
pub fn read_and_parse(path: &Path, display_name: &str) -> (hclsyntax::File, Diagnostics) {
    match std::fs::read(path) {
        Ok(bytes) => hclsyntax::parse_file(display_name, &bytes),
        Err(e) => {
            let source = Arc::new(SourceFile::new(display_name, ""));
            let diag = Diagnostic {
                severity: hclsyntax::Severity::Error,
                summary: "Failed to read file".into(),
                detail: format!("The file {display_name:?} could not be read: {e}"),
                subject: None,
                context: None,
            };
            let body = hclsyntax::Body::empty(source.range(0, 0));
            (hclsyntax::File { source, body }, vec![diag])
        }
    }
}

/// Below this many bytes in all, a directory's files are parsed on the
/// calling thread: the pool's first use (a thread per core) costs about a
/// millisecond, while parsing 64 KiB takes about as long.
const PARALLEL_PARSE_BYTES: u64 = 64 * 1024;

/// Loads files (in parallel when there is enough to parse), keeping the
/// given order in the result.
pub fn load_files(paths: &[(PathBuf, String)], override_file: bool) -> Vec<LoadedFile> {
    let load = |(path, display): &(PathBuf, String)| load_file(path, display, override_file);
    if paths.len() > 1 && total_size(paths) >= PARALLEL_PARSE_BYTES {
        paths.par_iter().map(load).collect()
    } else {
        paths.iter().map(load).collect()
    }
}

/// The files' sizes added up; a file whose size cannot be read counts as
/// empty (reading it reports the error).
fn total_size(paths: &[(PathBuf, String)]) -> u64 {
    paths
        .iter()
        .map(|(path, _)| std::fs::metadata(path).map_or(0, |m| m.len()))
        .sum()
}

/// Loads one file: parse, then decode its blocks.
pub fn load_file(path: &Path, display_name: &str, override_file: bool) -> LoadedFile {
    let (file, mut diagnostics) = read_and_parse(path, display_name);
    let is_tofu = display_name.ends_with(".tofu") || display_name.ends_with(".tofu.json");
    let (config, more) = decode_file(&file.body, override_file, is_tofu);
    diagnostics.extend(more);
    LoadedFile {
        path: path.to_path_buf(),
        source: file.source,
        config,
        diagnostics,
    }
}
