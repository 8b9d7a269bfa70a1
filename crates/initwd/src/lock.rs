//! An exclusive lock on a working directory's `.terraform` for the length
//! of an `init`, so two runs in one directory cannot interleave their
//! deletes, downloads and manifest writes. (OpenTofu itself has none; this
//! is tofu-rs's own safety net.) The lock is an OS file lock, released
//! when the holder exits however it exits.

use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The lock file's name inside the directory being locked.
pub const LOCK_FILENAME: &str = ".tofu-rs-init.lock";

/// A held lock; dropping it releases the lock.
pub struct WorkDirLock {
    // The lock lives as long as the file stays open: the guard is
    // forgotten on purpose and closing the file releases it.
    _lock: fd_lock::RwLock<File>,
    path: PathBuf,
    /// The locked file's identity, to tell it from a file created at the
    /// same path after this one was removed.
    identity: Option<FileIdentity>,
}

/// Device and inode (where the platform has them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity(u64, u64);

#[cfg(unix)]
fn identity(md: &std::fs::Metadata) -> Option<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    Some(FileIdentity(md.dev(), md.ino()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<FileIdentity> {
    None
}

/// Why a lock could not be had.
#[derive(Debug)]
pub enum LockError {
    /// Another process (or another run in this one) holds it.
    Busy { path: PathBuf, waited: Duration },
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl LockError {
    /// The summary and detail for a diagnostic.
    pub fn diagnostic_text(&self) -> (&'static str, String) {
        match self {
            LockError::Busy { path, waited } => (
                "Working directory is locked",
                format!(
                    "Another \"tofu init\" is using {} (waited {}s). Wait for it to finish, then run this command again.",
                    path.display(),
                    waited.as_secs()
                ),
            ),
            LockError::Io { path, error } => (
                "Failed to lock working directory",
                format!(
                    "Could not lock {}: {}.",
                    path.display(),
                    crate::pathutil::go_io_error_text(error)
                ),
            ),
        }
    }
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (summary, detail) = self.diagnostic_text();
        write!(f, "{summary}: {detail}")
    }
}

impl std::error::Error for LockError {}

impl WorkDirLock {
    /// Locks `dir` (created if missing), waiting up to `wait` for another
    /// holder to finish; `Duration::ZERO` fails at once when busy.
    pub fn acquire(dir: &Path, wait: Duration) -> Result<WorkDirLock, LockError> {
        let path = dir.join(LOCK_FILENAME);
        let io = |error| LockError::Io {
            path: path.clone(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io)?;
        let identity = file.metadata().ok().as_ref().and_then(identity);
        let mut lock = fd_lock::RwLock::new(file);
        let start = Instant::now();
        loop {
            match lock.try_write() {
                Ok(guard) => {
                    std::mem::forget(guard);
                    break;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if start.elapsed() >= wait {
                        return Err(LockError::Busy {
                            path,
                            waited: start.elapsed(),
                        });
                    }
                    std::thread::sleep(Duration::from_millis(50).min(wait));
                }
                Err(e) => return Err(io(e)),
            }
        }
        Ok(WorkDirLock {
            _lock: lock,
            path,
            identity,
        })
    }

    /// Whether the locked file is still the one at [`WorkDirLock::path`].
    /// A holder that is done removes the file before it lets go; a run
    /// that was waiting on it then holds a lock nobody else sees, while a
    /// third run may have created and locked a new file at the path. Such
    /// a lock must be dropped and taken again.
    pub fn is_current(&self) -> bool {
        match std::fs::metadata(&self.path) {
            Err(_) => false,
            Ok(md) => match (self.identity, identity(&md)) {
                (Some(mine), Some(there)) => mine == there,
                _ => true,
            },
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_fails_then_succeeds_after_release() {
        let d = tempfile::tempdir().unwrap();
        let first = WorkDirLock::acquire(d.path(), Duration::ZERO).unwrap();
        let err = WorkDirLock::acquire(d.path(), Duration::from_millis(120))
            .err()
            .unwrap();
        assert!(matches!(err, LockError::Busy { .. }));
        assert_eq!(err.diagnostic_text().0, "Working directory is locked");
        drop(first);
        WorkDirLock::acquire(d.path(), Duration::ZERO).unwrap();
    }

    /// The holder removes the file and lets go; a waiter then locks the
    /// removed file while a newcomer locks the new one at the same path.
    /// Only the newcomer's lock is current.
    #[test]
    fn a_lock_on_a_removed_file_is_not_current() {
        let d = tempfile::tempdir().unwrap();
        let stale = WorkDirLock::acquire(d.path(), Duration::ZERO).unwrap();
        assert!(stale.is_current());
        std::fs::remove_file(stale.path()).unwrap();
        assert!(!stale.is_current());
        let newcomer = WorkDirLock::acquire(d.path(), Duration::ZERO).unwrap();
        assert!(newcomer.is_current());
        assert!(!stale.is_current());
    }

    #[test]
    fn waiter_gets_lock_when_holder_finishes() {
        let d = tempfile::tempdir().unwrap();
        let first = WorkDirLock::acquire(d.path(), Duration::ZERO).unwrap();
        let dir = d.path().to_path_buf();
        let waiter =
            std::thread::spawn(move || WorkDirLock::acquire(&dir, Duration::from_secs(10)).is_ok());
        std::thread::sleep(Duration::from_millis(150));
        drop(first);
        assert!(waiter.join().unwrap());
    }
}
