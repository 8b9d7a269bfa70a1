//! A zip archive into a directory, as go-getter v1.8.6's
//! `ZipDecompressor` does it for OpenTofu's module packages and provider
//! zips (no size or count limits: OpenTofu sets none).
//!
//! An entry named with a trailing `/` (or whose mode says directory) is
//! a directory; every other entry becomes a regular file with the
//! entry's permission bits. A symbolic link entry is written as a file
//! holding its target's text, as Go's `archive/zip` hands it over: no
//! link is ever created.

use std::io::{self, Read, Seek};
use std::path::Path;

use crate::dest::{Dest, Parent};
use crate::error::{go_io_text, malformed, UnpackError};
use crate::name::entry_rel_path;
use crate::{EntryKind, Watch};

const S_IFMT: u32 = 0o170000;
const S_IFDIR: u32 = 0o040000;
const S_IFREG: u32 = 0o100000;

/// Unpacks the zip archive `input` into `dst`. `label` names the
/// archive in `empty archive: LABEL`.
pub fn unpack_zip(
    input: impl Read + Seek,
    label: &str,
    dst: &Path,
    watch: &mut dyn Watch,
) -> Result<(), UnpackError> {
    let mut dest = Dest::new(dst)?;
    // Go finds no end-of-central-directory record in a file too short to
    // hold one: that, too, is "not a valid zip file".
    let mut archive = zip::ZipArchive::new(input).map_err(|e| match e {
        zip::result::ZipError::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
            UnpackError::Malformed("zip: not a valid zip file".into())
        }
        e => zip_error(e),
    })?;
    if archive.is_empty() {
        return Err(UnpackError::Empty(label.to_string()));
    }
    for i in 0..archive.len() {
        let file = archive.by_index(i).map_err(zip_error)?;
        let name = String::from_utf8_lossy(file.name_raw()).into_owned();
        let rel = entry_rel_path(&name)?;
        dest.check_way(&rel, &name)?;
        let mode = file.unix_mode();
        if name.ends_with('/') || mode.is_some_and(|m| m & S_IFMT == S_IFDIR) {
            watch.entry(&name, &rel, EntryKind::Dir);
            dest.mkdir(&rel)?;
            continue;
        }
        let kind = match mode {
            Some(m) if m & S_IFMT != S_IFREG && m & S_IFMT != 0 => EntryKind::Other,
            _ => EntryKind::File,
        };
        watch.entry(&name, &rel, kind);
        // Go's default for an entry made without unix modes (MS-DOS
        // attributes only) is 0666.
        let perm = mode.unwrap_or(0o666);
        let declared = file.size();
        let mut data = Declared {
            inner: file,
            declared,
            read: 0,
        };
        dest.write_file(&rel, Parent::Always, &mut data, perm, None, watch)?;
    }
    Ok(())
}

/// Holds an entry to the size the central directory declares, as Go's
/// `archive/zip` does: more data is `zip: not a valid zip file`, less is
/// `unexpected EOF`. (The zip crate checks the CRC but not the size.)
struct Declared<R> {
    inner: R,
    declared: u64,
    read: u64,
}

impl<R: Read> Read for Declared<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match self.inner.read(buf) {
            Ok(n) => n,
            Err(e) if is_checksum_error(&e) => {
                return Err(io::Error::other("zip: checksum error"));
            }
            Err(e) => return Err(e),
        };
        self.read += n as u64;
        if self.read > self.declared {
            return Err(io::Error::other("zip: not a valid zip file"));
        }
        if n == 0 && !buf.is_empty() && self.read < self.declared {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(n)
    }
}

fn is_checksum_error(e: &io::Error) -> bool {
    e.to_string().to_ascii_lowercase().contains("checksum")
}

/// The zip crate's errors in the words of Go's `archive/zip`.
fn zip_error(e: zip::result::ZipError) -> UnpackError {
    use zip::result::ZipError;
    match e {
        ZipError::Io(e) => malformed(&e),
        ZipError::InvalidArchive(_) => UnpackError::Malformed("zip: not a valid zip file".into()),
        ZipError::UnsupportedArchive(_) => {
            UnpackError::Malformed("zip: unsupported compression algorithm".into())
        }
        other => UnpackError::Malformed(go_io_text(&io::Error::other(other.to_string()))),
    }
}
