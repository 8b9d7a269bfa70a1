//! Unpacking module archives and provider zips into a directory, with
//! the escape checks in one place: OpenTofu unpacks both with go-getter
//! v1.8.6's decompressors, and so does every caller here (`initwd` for
//! module packages, `getproviders` for provider packages).
//!
//! The answers to hostile archives are go-getter's: a name with a `..`
//! element is refused (`entry contains '..': NAME`), an absolute name
//! lands under the destination, and no link is ever created — symbolic
//! links, hard links, devices and FIFOs all become regular files — so no
//! entry can reach outside the destination, directly or through an
//! earlier entry. OpenTofu sets no size or file-count limits, so there
//! are none here; archives are streamed from disk, never held whole in
//! memory, and malformed ones end in an error, never a panic.
//!
//! Knows archives and file systems; knows nothing of modules, providers,
//! hashes or HTTP.
//!
//! Start reading at [`unpack_file`].

mod dest;
mod error;
mod format;
mod name;
mod tar;
#[cfg(feature = "test-support")]
pub mod testing;
mod zip;

use std::path::Path;

pub use error::{go_io_text, UnpackError};
pub use format::{unpack_file, unpack_reader, Format, FORMAT_NAMES};
pub use name::{contains_dot_dot, entry_rel_path, link_stays_inside};
pub use tar::unpack_tar;
pub use zip::unpack_zip;

/// What an entry becomes on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file with the entry's data.
    File,
    Dir,
    /// A link, device or FIFO entry, written as a regular file.
    Other,
}

/// Sees each entry as it is unpacked, in the same pass: a caller that
/// needs a digest of what was written (`getproviders`' `h1:` hash) gets
/// it without reading the files back.
pub trait Watch {
    /// An entry named `name` in the archive is about to be unpacked at
    /// `rel` under the destination (the empty path for the destination
    /// itself).
    fn entry(&mut self, name: &str, rel: &Path, kind: EntryKind) {
        let _ = (name, rel, kind);
    }

    /// The next bytes of the entry last announced, as they are written.
    fn data(&mut self, chunk: &[u8]) {
        let _ = chunk;
    }
}

/// Watches nothing.
impl Watch for () {}
