//! Filling a module directory from a cache entry: directories made,
//! symbolic links recreated, files hard-linked where the file system
//! allows (same device) and copied where it does not. Only what the
//! entry's manifest lists is installed, so a stray file in an entry is
//! never picked up.

use std::path::Path;

use super::entry::{under, EntryManifest, Item};
use crate::pathutil::go_io_error_text;

/// Installs the entry files at `files` into `dst` (which must not exist).
pub(super) fn link_out(files: &Path, manifest: &EntryManifest, dst: &Path) -> Result<(), String> {
    let err = |op: &str, p: &Path, e: std::io::Error| {
        format!(
            "failed to install from the module cache: {op} {}: {}",
            p.display(),
            go_io_error_text(&e)
        )
    };
    std::fs::create_dir_all(dst).map_err(|e| err("mkdir", dst, e))?;
    // Once a link fails (another device, or a file system without hard
    // links) every other file is copied without trying again.
    let mut link = true;
    for (rel, item) in &manifest.items {
        let to = under(dst, rel);
        match item {
            Item::Dir => std::fs::create_dir(&to).map_err(|e| err("mkdir", &to, e))?,
            Item::Symlink { target } => {
                #[cfg(unix)]
                std::os::unix::fs::symlink(target, &to).map_err(|e| err("symlink", &to, e))?;
                #[cfg(not(unix))]
                let _ = target;
            }
            Item::File { .. } => {
                let from = under(files, rel);
                if link && std::fs::hard_link(&from, &to).is_ok() {
                    continue;
                }
                link = false;
                std::fs::copy(&from, &to).map_err(|e| err("copy", &from, e))?;
            }
        }
    }
    Ok(())
}
