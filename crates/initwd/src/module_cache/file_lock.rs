//! An exclusive OS file lock held for as long as the value lives: what
//! serialises two runs (two processes, or two fetchers in one process)
//! working on one cache entry or one git store. `flock`-style locks
//! belong to an open file, so two opens in one process exclude each other
//! too. The lock files stay in place: removing one would let a waiter and
//! a newcomer hold "the" lock at once (see `lock.rs`).

use std::fs::{File, OpenOptions};
use std::path::Path;

use crate::pathutil::go_io_error_text;

/// A held lock; dropping it releases the lock.
pub(crate) struct FileLock {
    // The guard is forgotten: the lock lasts while the file is open.
    _lock: fd_lock::RwLock<File>,
}

impl FileLock {
    /// Locks `path` (created, with its directory, if missing), waiting
    /// for another holder as long as it takes: fills end by themselves,
    /// and a killed holder's lock goes with its process.
    pub(crate) fn exclusive(path: &Path) -> Result<FileLock, String> {
        let err = |e: std::io::Error| {
            format!(
                "failed to lock module cache file {}: {}",
                path.display(),
                go_io_error_text(&e)
            )
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(err)?;
        let mut lock = fd_lock::RwLock::new(file);
        let guard = lock.write().map_err(err)?;
        std::mem::forget(guard);
        Ok(FileLock { _lock: lock })
    }
}
