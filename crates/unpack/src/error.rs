//! Why an archive could not be unpacked, worded as go-getter's errors
//! are (they reach the user unwrapped, inside OpenTofu's "Failed to
//! download module" diagnostic or a provider installation error).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// An unpacking failure. Nothing here is a panic: every malformed,
/// truncated or hostile archive ends as one of these.
#[derive(Debug)]
pub enum UnpackError {
    /// go-getter's `entry contains '..': NAME`: a name that would climb
    /// out of the destination.
    DotDot(String),
    /// go-getter's `empty archive: SRC`: a zip without entries, or a tar
    /// stream without a single non-directory entry.
    Empty(String),
    /// A later entry would be written through a symbolic link already in
    /// the destination. go-getter never creates links, so only a
    /// destination that held one beforehand gets here.
    ThroughLink(String),
    /// A file system operation failed, as Go's `*fs.PathError` prints:
    /// `open .terraform/modules/m/l/x: not a directory`.
    Path {
        op: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    /// The archive itself is malformed: the text is what Go's readers
    /// say (`unexpected EOF`, `zip: not a valid zip file`,
    /// `archive/tar: invalid tar header`, `gzip: invalid header`).
    Malformed(String),
    /// A format OpenTofu accepts that this build cannot read, or a
    /// single-file compressor asked to produce a directory.
    Unsupported(String),
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackError::DotDot(name) => write!(f, "entry contains '..': {name}"),
            UnpackError::Empty(src) => write!(f, "empty archive: {src}"),
            UnpackError::ThroughLink(name) => {
                write!(f, "entry passes through a symbolic link: {name}")
            }
            UnpackError::Path { op, path, source } => {
                write!(f, "{op} {}: {}", path.display(), go_io_text(source))
            }
            UnpackError::Malformed(text) | UnpackError::Unsupported(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for UnpackError {}

impl UnpackError {
    /// A failed operation on `path`, as `*fs.PathError` words it.
    pub(crate) fn path(op: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        UnpackError::Path {
            op,
            path: path.into(),
            source,
        }
    }
}

/// Go's text for an I/O error: the lower-case `strerror` without Rust's
/// ` (os error N)` suffix.
pub fn go_io_text(e: &io::Error) -> String {
    let s = e.to_string();
    let s = match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    };
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().collect::<String>() + chars.as_str(),
        None => s,
    }
}

/// A reader's failure in the words of Go's readers: a short stream is
/// `unexpected EOF` whichever layer noticed it.
pub(crate) fn malformed(e: &io::Error) -> UnpackError {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        return UnpackError::Malformed("unexpected EOF".to_string());
    }
    let text = e.to_string();
    let go = match text.as_str() {
        "invalid gzip header" => "gzip: invalid header".to_string(),
        "corrupt deflate stream" => "flate: corrupt input".to_string(),
        t if t.starts_with("archive header checksum mismatch")
            || t.starts_with("numeric field") =>
        {
            "archive/tar: invalid tar header".to_string()
        }
        t if t.starts_with("failed to read entire block") => "unexpected EOF".to_string(),
        t if t.contains("during skip") => "unexpected EOF".to_string(),
        _ => go_io_text(e),
    };
    UnpackError::Malformed(go)
}
