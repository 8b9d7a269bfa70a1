//! The SHA-256 of a provider's executable, the part of every cache key
//! that says *which* plugin answered. Hashing a 700 MB provider takes
//! seconds, longer than a warm validate may take, so each result is
//! remembered beside the cache with the file's identity (device, inode,
//! size, modification and change times, in nanoseconds) and recomputed
//! only when any of those differ: replacing, rewriting, touching or
//! `chmod`ing the file all change its change time.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// What identifies one version of a file's bytes without reading them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileIdentity {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl FileIdentity {
    fn of(path: &Path) -> std::io::Result<FileIdentity> {
        let meta = fs::metadata(path)?;
        Ok(identity(&meta))
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "dev": self.dev,
            "ino": self.ino,
            "len": self.len,
            "mtime_ns": self.mtime_ns.to_string(),
            "ctime_ns": self.ctime_ns.to_string(),
        })
    }

    fn from_json(v: &serde_json::Value) -> Option<FileIdentity> {
        Some(FileIdentity {
            dev: v.get("dev")?.as_u64()?,
            ino: v.get("ino")?.as_u64()?,
            len: v.get("len")?.as_u64()?,
            mtime_ns: v.get("mtime_ns")?.as_str()?.parse().ok()?,
            ctime_ns: v.get("ctime_ns")?.as_str()?.parse().ok()?,
        })
    }
}

#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> FileIdentity {
    use std::os::unix::fs::MetadataExt;
    FileIdentity {
        dev: meta.dev(),
        ino: meta.ino(),
        len: meta.len(),
        mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
    }
}

#[cfg(not(unix))]
fn identity(meta: &fs::Metadata) -> FileIdentity {
    let nanos = |t: std::io::Result<std::time::SystemTime>| {
        t.ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as i128)
    };
    FileIdentity {
        dev: 0,
        ino: 0,
        len: meta.len(),
        mtime_ns: nanos(meta.modified()),
        ctime_ns: nanos(meta.created()),
    }
}

/// The lower-case hex SHA-256 of the file at `path`, remembered under
/// `memo_dir` (when given) by the file's identity.
pub fn executable_sha256(path: &Path, memo_dir: Option<&Path>) -> std::io::Result<String> {
    let Some(memo_dir) = memo_dir else {
        return sha256_file(path);
    };
    let before = FileIdentity::of(path)?;
    let memo = memo_path(memo_dir, path);
    if let Some(sum) = remembered(&memo, path, &before) {
        return Ok(sum);
    }
    let sum = sha256_file(path)?;
    // A file that changed while it was read is hashed again next time.
    if FileIdentity::of(path)? == before {
        let record = serde_json::json!({
            "path": path.to_string_lossy(),
            "identity": before.to_json(),
            "sha256": sum,
        });
        // Best effort: a memo that cannot be written only costs a rehash.
        let _ = crate::schema_cache::write_atomic(&memo, record.to_string().as_bytes());
    }
    Ok(sum)
}

fn memo_path(memo_dir: &Path, path: &Path) -> PathBuf {
    let key = hex(&Sha256::digest(path.to_string_lossy().as_bytes()));
    memo_dir.join("executables").join(format!("{key}.json"))
}

fn remembered(memo: &Path, path: &Path, now: &FileIdentity) -> Option<String> {
    let text = fs::read_to_string(memo).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    if v.get("path")?.as_str()? != path.to_string_lossy() {
        return None;
    }
    if FileIdentity::from_json(v.get("identity")?)? != *now {
        return None;
    }
    let sum = v.get("sha256")?.as_str()?;
    (sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit())).then(|| sum.to_string())
}

fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_until_the_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("terraform-provider-x");
        let memo = dir.path().join("cache");
        fs::write(&exe, b"one").unwrap();
        let first = executable_sha256(&exe, Some(&memo)).unwrap();
        assert_eq!(first, sha256_file(&exe).unwrap());
        // The memo is what answers now: a forged memo for the same
        // identity is believed (which is why it lives in the user's cache).
        let memo_file = memo_path(&memo, &exe);
        assert!(memo_file.exists());
        // Rewriting the file changes its identity: rehashed.
        std::thread::sleep(std::time::Duration::from_millis(10));
        fs::write(&exe, b"two").unwrap();
        let second = executable_sha256(&exe, Some(&memo)).unwrap();
        assert_ne!(first, second);
        assert_eq!(second, sha256_file(&exe).unwrap());
    }

    #[test]
    fn a_damaged_memo_is_recomputed() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("p");
        let memo = dir.path().join("cache");
        fs::write(&exe, b"bytes").unwrap();
        let sum = executable_sha256(&exe, Some(&memo)).unwrap();
        for junk in ["", "{", "{\"path\":1}", "[]", "{\"sha256\":\"zz\"}"] {
            fs::write(memo_path(&memo, &exe), junk).unwrap();
            assert_eq!(executable_sha256(&exe, Some(&memo)).unwrap(), sum);
        }
    }

    #[test]
    fn a_missing_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(executable_sha256(&dir.path().join("nope"), Some(dir.path())).is_err());
    }
}
