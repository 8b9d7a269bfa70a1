//! Files replaced whole — `.terraform/modules/modules.json`,
//! `.terraform/terraform.tfstate`, `.terraform/plugin_path`: the bytes go
//! to a synced temporary file beside the target, renamed over it, so a
//! reader (or the next run, after a crash) sees the old file or the new
//! one, never part of either. A run killed between the two steps leaves
//! its temporary file, `.NAME.tmp-XXXXXX`, which nothing reads and
//! [`remove_stale_temp_files`] removes.

use std::io::Write as _;
use std::path::Path;

/// The prefix of the temporary files that stand in for `path` while it
/// is written.
fn temp_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(".{}.tmp-", name.trim_start_matches('.'))
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` (mode 0644) through a synced temporary file
/// in the same directory, renamed into place; the directory is synced too
/// where the platform allows it, so the rename itself is durable.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = parent_dir(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(&temp_prefix(path))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A temporary file starts 0600; OpenTofu writes these 0644.
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes the temporary files an interrupted [`write_atomic`] of `path`
/// left. Only for callers holding the lock that serialises the writers
/// of `path`: a live writer's file would go too, and its rename fail.
pub fn remove_stale_temp_files(path: &Path) {
    let prefix = temp_prefix(path);
    let Ok(entries) = std::fs::read_dir(parent_dir(path)) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_sweeps_what_a_killed_writer_left() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("terraform.tfstate");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644);
        }
        // What a writer killed before its rename leaves.
        let left = d.path().join(".terraform.tfstate.tmp-AbC123");
        std::fs::write(&left, b"half").unwrap();
        let other = d.path().join(".modules.json.tmp-AbC123");
        std::fs::write(&other, b"").unwrap();
        remove_stale_temp_files(&path);
        assert!(!left.exists());
        assert!(other.exists(), "only path's own temporaries go");
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
    }
}
