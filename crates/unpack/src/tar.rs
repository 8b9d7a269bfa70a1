//! A tar stream into a directory, as go-getter v1.8.6's `untar` does it
//! for OpenTofu (no size or count limits: OpenTofu sets none).
//!
//! Directories are made as they come and get their mode and time at the
//! end. Every other entry — regular files, but also symbolic links, hard
//! links, devices and FIFOs — becomes a regular file holding the entry's
//! data (empty for links and devices), with the entry's permission bits:
//! go-getter has no case for links, so no link an archive names is ever
//! created and none can lead a later entry out of the destination.

use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::dest::{Dest, Parent};
use crate::error::{malformed, UnpackError};
use crate::name::entry_rel_path;
use crate::{EntryKind, Watch};

/// Unpacks the (already decompressed) tar stream `input` into `dst`.
/// `label` names the archive in `empty archive: LABEL`.
pub fn unpack_tar(
    input: impl Read,
    label: &str,
    dst: &std::path::Path,
    watch: &mut dyn Watch,
) -> Result<(), UnpackError> {
    let mut dest = Dest::new(dst)?;
    let mut archive = tar::Archive::new(input);
    let entries = archive.entries().map_err(|e| malformed(&e))?;
    let mut wrote_a_file = false;
    let mut dirs: Vec<(PathBuf, u32, Option<SystemTime>)> = Vec::new();
    for entry in entries {
        let mut entry = entry.map_err(|e| malformed(&e))?;
        let header = entry.header();
        let kind = header.entry_type();
        if kind.is_pax_global_extensions()
            || kind.is_pax_local_extensions()
            || kind.is_gnu_longname()
            || kind.is_gnu_longlink()
        {
            continue;
        }
        let perm = header.mode().map_err(|e| malformed(&e))?;
        let mtime = header
            .mtime()
            .ok()
            .filter(|t| *t > 0)
            .map(|t| UNIX_EPOCH + Duration::from_secs(t));
        let size = entry.size();
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let rel = entry_rel_path(&name)?;
        dest.check_way(&rel, &name)?;
        if kind.is_dir() {
            watch.entry(&name, &rel, EntryKind::Dir);
            dest.mkdir(&rel)?;
            dirs.push((rel, perm, mtime));
            continue;
        }
        let entry_kind = if kind.is_file() || kind.is_contiguous() || kind.is_gnu_sparse() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        watch.entry(&name, &rel, entry_kind);
        wrote_a_file = true;
        let written = dest.write_file(&rel, Parent::IfMissing, &mut entry, perm, mtime, watch)?;
        // The tar reader stops quietly at the end of a truncated stream;
        // Go's reports it.
        if written < size && entry_kind == EntryKind::File {
            return Err(UnpackError::Malformed("unexpected EOF".to_string()));
        }
    }
    if !wrote_a_file {
        return Err(UnpackError::Empty(label.to_string()));
    }
    for (rel, perm, mtime) in dirs {
        dest.finish_dir(&rel, perm, mtime)?;
    }
    Ok(())
}
