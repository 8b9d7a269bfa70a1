//! The destination directory: every write of an unpack goes through
//! here, so the escape checks live in one place.
//!
//! go-getter v1.8.6 never creates a link from an archive (every
//! non-directory entry becomes a regular file), so nothing an archive
//! holds can make a later write leave the destination. We still look
//! at each existing path on the way with `lstat` and refuse a symbolic
//! link, so a destination that held one beforehand is not written
//! through either.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{malformed, UnpackError};
use crate::Watch;

/// Reads and writes in large pieces: provider binaries are tens of MB.
const CHUNK: usize = 1 << 20;

/// How an entry's parent directory is made: go-getter's tar reader
/// creates it only when `stat` says it is missing, its zip reader always
/// calls `MkdirAll`. The two differ only in which path a failure names.
#[derive(Clone, Copy)]
pub(crate) enum Parent {
    IfMissing,
    Always,
}

pub(crate) struct Dest {
    root: PathBuf,
    buf: Vec<u8>,
}

impl Dest {
    /// The destination, created if needed (go-getter's `MkdirAll(dst)`).
    pub(crate) fn new(root: &Path) -> Result<Dest, UnpackError> {
        mkdir_all(root)?;
        Ok(Dest {
            root: root.to_path_buf(),
            buf: Vec::new(),
        })
    }

    pub(crate) fn path(&self, rel: &Path) -> PathBuf {
        self.root.join(rel)
    }

    /// Refuses `rel` when it, or a directory on the way to it, is a
    /// symbolic link.
    pub(crate) fn check_way(&self, rel: &Path, name: &str) -> Result<(), UnpackError> {
        let mut cur = self.root.clone();
        for part in rel.iter() {
            cur.push(part);
            match std::fs::symlink_metadata(&cur) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(UnpackError::ThroughLink(name.to_string()))
                }
                Ok(m) if m.is_dir() => {}
                // Missing or a file: nothing further down exists to follow.
                _ => break,
            }
        }
        Ok(())
    }

    pub(crate) fn mkdir(&self, rel: &Path) -> Result<PathBuf, UnpackError> {
        let path = self.path(rel);
        mkdir_all(&path)?;
        Ok(path)
    }

    /// Writes a regular file at `rel` from `data`, with permission bits
    /// `perm`, returning how many bytes were written. A file already
    /// there is replaced (go-getter opens with `O_TRUNC`).
    pub(crate) fn write_file(
        &mut self,
        rel: &Path,
        parent: Parent,
        data: &mut dyn Read,
        perm: u32,
        mtime: Option<SystemTime>,
        watch: &mut dyn Watch,
    ) -> Result<u64, UnpackError> {
        let path = self.path(rel);
        if let Some(dir) = path.parent() {
            let missing = matches!(parent, Parent::Always)
                || matches!(std::fs::metadata(dir), Err(e) if e.kind() == io::ErrorKind::NotFound);
            if missing {
                mkdir_all(dir)?;
            }
        }
        let mut out =
            open_for_write(&path, perm).map_err(|e| UnpackError::path("open", &path, e))?;
        if self.buf.is_empty() {
            self.buf = vec![0u8; CHUNK];
        }
        let mut written = 0u64;
        loop {
            let n = match data.read(&mut self.buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    drop(out);
                    let _ = std::fs::remove_file(&path);
                    return Err(malformed(&e));
                }
            };
            watch.data(&self.buf[..n]);
            out.write_all(&self.buf[..n])
                .map_err(|e| UnpackError::path("write", &path, e))?;
            written += n as u64;
        }
        if let Some(t) = mtime {
            let times = std::fs::FileTimes::new().set_modified(t);
            out.set_times(times)
                .map_err(|e| UnpackError::path("chtimes", &path, e))?;
        }
        drop(out);
        set_perm(&path, perm)?;
        Ok(written)
    }

    /// go-getter's last pass over a tar's directories: their own mode
    /// and time, once everything inside them is written.
    pub(crate) fn finish_dir(
        &self,
        rel: &Path,
        perm: u32,
        mtime: Option<SystemTime>,
    ) -> Result<(), UnpackError> {
        let path = self.path(rel);
        set_perm(&path, perm)?;
        if let Some(t) = mtime {
            let dir = File::open(&path).map_err(|e| UnpackError::path("chtimes", &path, e))?;
            dir.set_times(std::fs::FileTimes::new().set_modified(t))
                .map_err(|e| UnpackError::path("chtimes", &path, e))?;
        }
        Ok(())
    }
}

fn open_for_write(path: &Path, perm: u32) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.read(true).write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(perm & 0o777);
    }
    #[cfg(not(unix))]
    let _ = perm;
    opts.open(path)
}

/// The archive's permission bits exactly, as go-getter sets them with
/// OpenTofu's zero umask, except setuid, setgid and sticky: a file from
/// the network never becomes a setuid program (go-getter keeps those
/// bits; we drop them on purpose).
fn set_perm(path: &Path, perm: u32) -> Result<(), UnpackError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(perm & 0o777))
            .map_err(|e| UnpackError::path("chmod", path, e))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, perm);
        Ok(())
    }
}

/// Go's `os.MkdirAll(path, 0755)`, naming in its error the path that
/// could not be made (`mkdir .terraform/modules/m/l: not a directory`).
fn mkdir_all(path: &Path) -> Result<(), UnpackError> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => {
            return Err(UnpackError::path(
                "mkdir",
                path,
                io::Error::from(io::ErrorKind::NotADirectory),
            ))
        }
        Err(_) => {}
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        mkdir_all(parent)?;
    }
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o755);
    }
    match builder.create(path) {
        Ok(()) => Ok(()),
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) => Ok(()),
        Err(e) => Err(UnpackError::path("mkdir", path, e)),
    }
}
