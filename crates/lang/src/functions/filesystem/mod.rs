//! Filesystem functions (OpenTofu `internal/lang/funcs/filesystem.go` and
//! the file hashing functions of `crypto.go`). Relative paths are taken
//! from a base directory: OpenTofu uses the process working directory
//! (`.`), which [`register`] does; [`register_with_base_dir`] takes another.

mod glob;
pub(crate) mod paths;
mod template;

#[cfg(test)]
mod tests;

use std::io::Read;
use std::sync::Arc;

use base64::Engine;
use cty::{Mark, Type, Value, ValueMarks};
use sha2::Digest;

use crate::functions::framework::{FnError, Function, FunctionTable, Param};
use paths::go_error_text;

pub use template::TEMPLATE_MAX_RECURSION_DEPTH;

/// Registers this family's functions, relative to the working directory.
pub fn register(table: &mut FunctionTable) {
    register_with_base_dir(table, ".");
}

/// Registers this family's functions with relative paths taken from
/// `base_dir`.
pub fn register_with_base_dir(table: &mut FunctionTable, base_dir: &str) {
    let base: Arc<str> = Arc::from(base_dir);
    table.insert("abspath", abspath(base.clone()));
    table.insert("basename", string_fn(|p| Ok(paths::base(p))));
    table.insert("dirname", string_fn(|p| Ok(paths::dir(p))));
    table.insert("pathexpand", string_fn(paths::expand_home));
    table.insert("file", file_fn(base.clone(), false));
    table.insert("filebase64", file_fn(base.clone(), true));
    table.insert("fileexists", fileexists(base.clone()));
    table.insert("fileset", fileset(base.clone()));
    table.insert(
        "filebase64sha256",
        hash_fn(base.clone(), |d| b64(&sha2::Sha256::digest(d))),
    );
    table.insert(
        "filebase64sha512",
        hash_fn(base.clone(), |d| b64(&sha2::Sha512::digest(d))),
    );
    table.insert(
        "filemd5",
        hash_fn(base.clone(), |d| hex(&md5::Md5::digest(d))),
    );
    table.insert(
        "filesha1",
        hash_fn(base.clone(), |d| hex(&sha1::Sha1::digest(d))),
    );
    table.insert(
        "filesha256",
        hash_fn(base.clone(), |d| hex(&sha2::Sha256::digest(d))),
    );
    table.insert(
        "filesha512",
        hash_fn(base.clone(), |d| hex(&sha2::Sha512::digest(d))),
    );
    table.insert("templatefile", template::templatefile(base, 0));
}

fn b64(d: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(d)
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// OpenTofu `redactIfSensitive` for a string.
pub(crate) fn redact(s: &str, marks: &ValueMarks) -> String {
    if marks.contains(&Mark::Sensitive) {
        "(sensitive value)".to_string()
    } else {
        super::collection::quote(s)
    }
}

/// A pure string-to-string function of one `path` parameter.
fn string_fn(f: impl Fn(&str) -> Result<String, String> + Send + Sync + 'static) -> Function {
    Function::new(
        vec![Param::new("path", Type::String)],
        None,
        |_| Ok(Type::String),
        move |args, _| {
            let p = args[0].as_str().unwrap_or_default();
            f(p).map(Value::string).map_err(FnError::general)
        },
    )
}

/// OpenTofu `AbsPathFunc`.
/// `filepath.Abs` from the base directory: the process's working directory
/// itself when the base is `.`, as in OpenTofu.
fn abspath(base: Arc<str>) -> Function {
    string_fn(move |p| {
        if &*base == "." || paths::is_abs(p) {
            paths::abs(p)
        } else {
            paths::abs(&paths::join(&[&base, p]))
        }
    })
}

/// OpenTofu `openFile`'s path: `~` expanded, joined to the base directory
/// when relative, cleaned.
fn resolve(base: &str, path: &str) -> Result<String, String> {
    let path = paths::expand_home(path).map_err(|e| format!("failed to expand ~: {e}"))?;
    let path = if paths::is_abs(&path) {
        path
    } else {
        paths::join(&[base, &path])
    };
    Ok(paths::clean(&path))
}

/// Why reading a file failed: `Missing` gets OpenTofu's extra hint.
enum ReadError {
    Missing,
    Other(String),
}

/// Opens and reads a whole file as OpenTofu's `readFileBytes` does,
/// with Go's error texts.
fn read_file(base: &str, path: &str) -> Result<Vec<u8>, ReadError> {
    let full = resolve(base, path).map_err(ReadError::Other)?;
    let mut f = match std::fs::File::open(&full) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => {
            return Err(ReadError::Other(format!(
                "open {full}: {}",
                go_error_text(&e)
            )))
        }
    };
    let mut buf = Vec::new();
    f.read_to_end(&mut buf).map_err(|e| {
        ReadError::Other(format!(
            "failed to read file: read {full}: {}",
            go_error_text(&e)
        ))
    })?;
    Ok(buf)
}

/// The text of a file as `file` reads it: UTF-8 required.
pub(crate) fn read_text(base: &str, path: &str, marks: &ValueMarks) -> Result<String, FnError> {
    let src = read_file(base, path).map_err(|e| read_error(path, marks, e))?;
    String::from_utf8(src).map_err(|_| {
        FnError::general(format!(
            "contents of {} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead",
            redact(path, marks)
        ))
    })
}

fn read_error(path: &str, marks: &ValueMarks, e: ReadError) -> FnError {
    match e {
        ReadError::Missing => FnError::arg(
            0,
            format!(
                "no file exists at {}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource",
                redact(path, marks)
            ),
        ),
        ReadError::Other(msg) => FnError::arg(0, msg),
    }
}

/// OpenTofu `MakeFileFunc`.
fn file_fn(base: Arc<str>, enc_base64: bool) -> Function {
    Function::new(
        vec![Param::new("path", Type::String).allow_marked()],
        None,
        |_| Ok(Type::String),
        move |args, _| {
            let (path, marks) = args[0].unmark_with_marks();
            let path = path.as_str().unwrap_or_default();
            if enc_base64 {
                let src = read_file(&base, path).map_err(|e| read_error(path, &marks, e))?;
                let enc = base64::engine::general_purpose::STANDARD.encode(src);
                return Ok(Value::string(enc).with_marks(marks));
            }
            let text = read_text(&base, path, &marks)?;
            Ok(Value::string(text).with_marks(marks))
        },
    )
}

/// OpenTofu `makeFileHashFunction`: errors are the plain `os.Open` /
/// read errors.
fn hash_fn(base: Arc<str>, digest: fn(&[u8]) -> String) -> Function {
    Function::new(
        vec![Param::new("path", Type::String).allow_marked()],
        None,
        |_| Ok(Type::String),
        move |args, _| {
            let (path, marks) = args[0].unmark_with_marks();
            let path = path.as_str().unwrap_or_default();
            let full = resolve(&base, path).map_err(FnError::general)?;
            let mut f = std::fs::File::open(&full)
                .map_err(|e| FnError::general(format!("open {full}: {}", go_error_text(&e))))?;
            let mut buf = Vec::new();
            f.read_to_end(&mut buf)
                .map_err(|e| FnError::general(format!("read {full}: {}", go_error_text(&e))))?;
            Ok(Value::string(digest(&buf)).with_marks(marks))
        },
    )
}

/// OpenTofu `MakeFileExistsFunc`.
fn fileexists(base: Arc<str>) -> Function {
    Function::new(
        vec![Param::new("path", Type::String).allow_marked()],
        None,
        |_| Ok(Type::Bool),
        move |args, _| {
            let (path, marks) = args[0].unmark_with_marks();
            let path = path.as_str().unwrap_or_default();
            let full = resolve(&base, path).map_err(FnError::general)?;
            let meta = match std::fs::metadata(&full) {
                Ok(m) => m,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(Value::bool(false).with_marks(marks))
                }
                // Go's os.IsNotExist is also true for ENOTDIR.
                Err(e) if e.raw_os_error() == Some(20) => {
                    return Ok(Value::bool(false).with_marks(marks))
                }
                Err(_) => {
                    return Err(FnError::general(format!(
                        "failed to stat {}",
                        redact(&full, &marks)
                    )))
                }
            };
            if meta.is_file() {
                return Ok(Value::bool(true).with_marks(marks));
            }
            let name = redact(&full, &marks);
            let what = file_type_text(&meta);
            // OpenTofu reports these at argument 1, which does not exist,
            // so they show as errors of the call.
            Err(FnError::arg(1, format!("{name} {what}")))
        },
    )
}

#[cfg(unix)]
fn file_type_text(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let ft = meta.file_type();
    if ft.is_dir() {
        "is a directory, not a file"
    } else if ft.is_block_device() || ft.is_char_device() {
        "is a device node, not a regular file"
    } else if ft.is_fifo() {
        "is a named pipe, not a regular file"
    } else if ft.is_socket() {
        "is a unix domain socket, not a regular file"
    } else {
        "is not a regular file"
    }
}

#[cfg(not(unix))]
fn file_type_text(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "is a directory, not a file"
    } else {
        "is not a regular file"
    }
}

/// OpenTofu `MakeFileSetFunc`.
fn fileset(base: Arc<str>) -> Function {
    Function::new(
        vec![
            Param::new("path", Type::String).allow_marked(),
            Param::new("pattern", Type::String).allow_marked(),
        ],
        None,
        |_| Ok(Type::set(Type::String)),
        move |args, _| {
            let (path, path_marks) = args[0].unmark_with_marks();
            let (pattern, pattern_marks) = args[1].unmark_with_marks();
            let marks: ValueMarks = path_marks.into_iter().chain(pattern_marks).collect();
            let mut path = path.as_str().unwrap_or_default().to_string();
            if !paths::is_abs(&path) {
                path = paths::join(&[&base, &path]);
            }
            let pattern = paths::join(&[&path, pattern.as_str().unwrap_or_default()]);
            let matches = glob::filepath_glob(&pattern).map_err(|e| {
                FnError::general(format!(
                    "failed to glob pattern {}: {e}",
                    redact(&pattern, &marks)
                ))
            })?;
            let mut vals = Vec::new();
            for m in matches {
                let meta = std::fs::metadata(&m).map_err(|e| {
                    FnError::general(format!(
                        "failed to stat {}: stat {m}: {}",
                        redact(&m, &marks),
                        go_error_text(&e)
                    ))
                })?;
                if !meta.is_file() {
                    continue;
                }
                let rel = paths::rel(&path, &m).map_err(|e| {
                    FnError::general(format!(
                        "failed to trim path of match {}: {e}",
                        redact(&m, &marks)
                    ))
                })?;
                vals.push(Value::string(rel));
            }
            Ok(Value::set(Type::String, vals)?.with_marks(marks))
        },
    )
}
