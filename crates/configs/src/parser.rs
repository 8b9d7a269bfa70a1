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
    parse_read(display_name, std::fs::read(path))
}

/// Parses what reading a file gave (see [`read_and_parse`]).
fn parse_read(
    display_name: &str,
    read: std::io::Result<Vec<u8>>,
) -> (hclsyntax::File, Diagnostics) {
    match read {
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
const PARALLEL_PARSE_BYTES: usize = 64 * 1024;

/// Loads files (in parallel when there is enough to parse), keeping the
/// given order in the result. Every file is read first: how much there is
/// to parse decides whether the thread pool is worth starting.
pub fn load_files(paths: &[(PathBuf, String)], override_file: bool) -> Vec<LoadedFile> {
    let read: Vec<_> = paths.iter().map(|(path, _)| std::fs::read(path)).collect();
    let total: usize = read.iter().map(|r| r.as_ref().map_or(0, Vec::len)).sum();
    let jobs = paths.iter().zip(read);
    let load = |((path, display), read): (&(PathBuf, String), std::io::Result<Vec<u8>>)| {
        decode_parsed(path, display, parse_read(display, read), override_file)
    };
    if paths.len() > 1 && total >= PARALLEL_PARSE_BYTES {
        jobs.collect::<Vec<_>>().into_par_iter().map(load).collect()
    } else {
        jobs.map(load).collect()
    }
}

/// Loads one file: parse, then decode its blocks.
pub fn load_file(path: &Path, display_name: &str, override_file: bool) -> LoadedFile {
    decode_parsed(
        path,
        display_name,
        read_and_parse(path, display_name),
        override_file,
    )
}

/// A parsed file's blocks decoded ([`load_file`] after the parse).
fn decode_parsed(
    path: &Path,
    display_name: &str,
    (file, mut diagnostics): (hclsyntax::File, Diagnostics),
    override_file: bool,
) -> LoadedFile {
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
