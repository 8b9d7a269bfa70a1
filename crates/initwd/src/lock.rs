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
        Ok(WorkDirLock { _lock: lock, path })
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
