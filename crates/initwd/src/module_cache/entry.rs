//! One cache entry: filled once under its lock in a staging directory,
//! made read-only, described by a manifest written last, renamed into
//! place whole; checked against its manifest on every hit and linked out.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::file_lock::FileLock;
use super::link::link_out;
use super::{CacheKey, ModuleCache};
use crate::pathutil::go_io_error_text;

const MANIFEST: &str = "manifest.json";
const FILES: &str = "files";
const MANIFEST_VERSION: u64 = 1;

/// Whether a package came from the cache or was fetched into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filled {
    Hit,
    Fetched,
}

/// What the manifest says about one path of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Item {
    Dir,
    File {
        size: u64,
        exec: bool,
        mtime_ns: i128,
        sha256: String,
    },
    Symlink {
        target: String,
    },
}

/// An entry's manifest: slash-separated relative paths, parents first.
pub(super) struct EntryManifest {
    pub(super) items: Vec<(String, Item)>,
}

impl ModuleCache {
    /// Installs the entry for `key` into `dst` (which must not exist),
    /// filling the entry first with `fill` (given a directory that does
    /// not exist yet) when it is missing, partial or damaged, or when
    /// `refresh` asks for a fresh copy.
    pub fn get_or_fill(
        &self,
        key: &CacheKey,
        dst: &Path,
        refresh: bool,
        fill: impl FnOnce(&Path) -> Result<(), String>,
    ) -> Result<Filled, String> {
        let _lock = FileLock::exclusive(&self.lock_path(key))?;
        let hash = key.hash();
        self.sweep_staging(&hash);
        let entry = self.entry_dir(key);
        if !refresh {
            if let Ok(manifest) = self.verify(key, &entry) {
                link_out(&entry.join(FILES), &manifest, dst)?;
                return Ok(Filled::Hit);
            }
        }
        remove_entry(&entry)?;
        let tmp = self.tmp_dir();
        std::fs::create_dir_all(&tmp).map_err(|e| cache_io("mkdir", &tmp, &e))?;
        let staging = tempfile::Builder::new()
            .prefix(&format!("{hash}-"))
            .tempdir_in(&tmp)
            .map_err(|e| cache_io("mkdir", &tmp, &e))?;
        let files = staging.path().join(FILES);
        fill(&files)?;
        if !std::fs::symlink_metadata(&files).is_ok_and(|m| m.is_dir()) {
            // A fetch that created nothing: an empty package.
            std::fs::create_dir_all(&files).map_err(|e| cache_io("mkdir", &files, &e))?;
        }
        let manifest = seal(&files)?;
        let text = manifest_json(key, &manifest);
        let manifest_path = staging.path().join(MANIFEST);
        crate::atomic_file::write_atomic(&manifest_path, text.as_bytes())
            .map_err(|e| cache_io("write", &manifest_path, &e))?;
        let staged = staging.keep();
        if let Some(parent) = entry.parent() {
            std::fs::create_dir_all(parent).map_err(|e| cache_io("mkdir", parent, &e))?;
        }
        std::fs::rename(&staged, &entry).map_err(|e| {
            let _ = std::fs::remove_dir_all(&staged);
            cache_io("rename", &entry, &e)
        })?;
        link_out(&entry.join(FILES), &manifest, dst)?;
        Ok(Filled::Fetched)
    }

    /// Installs the entry for `key` into `dst` if the cache holds it
    /// whole and undamaged; `Ok(false)` (and a damaged entry removed)
    /// otherwise.
    pub fn get(&self, key: &CacheKey, dst: &Path) -> Result<bool, String> {
        let _lock = FileLock::exclusive(&self.lock_path(key))?;
        self.sweep_staging(&key.hash());
        let entry = self.entry_dir(key);
        match self.verify(key, &entry) {
            Ok(manifest) => {
                link_out(&entry.join(FILES), &manifest, dst)?;
                Ok(true)
            }
            Err(_) => {
                remove_entry(&entry)?;
                Ok(false)
            }
        }
    }

    /// Removes what fills of this entry killed halfway left. Only for the
    /// holder of the entry's lock: no one else can be filling it.
    fn sweep_staging(&self, hash: &str) {
        let Ok(entries) = std::fs::read_dir(self.tmp_dir()) else {
            return;
        };
        let prefix = format!("{hash}-");
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = make_writable_and_remove(&e.path());
            }
        }
    }

    /// The entry's manifest if the entry is complete and every file is as
    /// the manifest recorded it; why not otherwise.
    pub(super) fn verify(&self, key: &CacheKey, entry: &Path) -> Result<EntryManifest, String> {
        let text = std::fs::read(entry.join(MANIFEST)).map_err(|e| go_io_error_text(&e))?;
        let manifest = parse_manifest(key, &text)?;
        let files = entry.join(FILES);
        for (rel, item) in &manifest.items {
            let path = under(&files, rel);
            let md = std::fs::symlink_metadata(&path)
                .map_err(|e| format!("{rel}: {}", go_io_error_text(&e)))?;
            let ok = match item {
                Item::Dir => md.is_dir(),
                Item::Symlink { target } => {
                    md.file_type().is_symlink()
                        && std::fs::read_link(&path)
                            .is_ok_and(|t| t.to_string_lossy() == target.as_str())
                }
                Item::File {
                    size,
                    exec,
                    mtime_ns,
                    sha256,
                } => {
                    md.is_file()
                        && md.len() == *size
                        && is_exec(&md) == *exec
                        && mtime_of(&md) == *mtime_ns
                        && (!self.full_verification || file_sha256(&path)? == *sha256)
                }
            };
            if !ok {
                return Err(format!("{rel} changed since it was cached"));
            }
        }
        Ok(manifest)
    }
}

fn cache_io(op: &str, path: &Path, e: &std::io::Error) -> String {
    format!(
        "module cache: {op} {}: {}",
        path.display(),
        go_io_error_text(e)
    )
}

fn remove_entry(entry: &Path) -> Result<(), String> {
    match make_writable_and_remove(entry) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(cache_io("remove", entry, &e)),
        _ => Ok(()),
    }
}

/// `remove_dir_all` of an entry, whose files are read-only. On Unix that
/// does not matter (the directories stay writable); Windows refuses to
/// remove a read-only file, so the flag is cleared first there.
fn make_writable_and_remove(path: &Path) -> std::io::Result<()> {
    #[cfg(not(unix))]
    clear_read_only(path);
    std::fs::remove_dir_all(path)
}

#[cfg(not(unix))]
fn clear_read_only(path: &Path) {
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => clear_read_only(&p),
            Ok(_) => {
                if let Ok(md) = std::fs::metadata(&p) {
                    let mut perms = md.permissions();
                    #[allow(clippy::permissions_set_readonly_false)]
                    perms.set_readonly(false);
                    let _ = std::fs::set_permissions(&p, perms);
                }
            }
            Err(_) => {}
        }
    }
}

#[cfg(unix)]
fn is_exec(md: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    md.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_exec(_: &std::fs::Metadata) -> bool {
    false
}

/// Modification time in nanoseconds since the epoch (0 if unknown).
fn mtime_of(md: &std::fs::Metadata) -> i128 {
    md.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

pub(crate) fn file_sha256(path: &Path) -> Result<String, String> {
    let mut f = std::fs::File::open(path).map_err(|e| go_io_error_text(&e))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = f.read(&mut buf).map_err(|e| go_io_error_text(&e))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(gocompat::hex::encode_to_string(&h.finalize()))
}

/// Makes every file under `files` read-only (so an editor refuses to
/// write through a hard link; root is not stopped, which the check on
/// every hit catches) and describes the tree.
fn seal(files: &Path) -> Result<EntryManifest, String> {
    let mut items = Vec::new();
    walk(files, "", &mut items)?;
    Ok(EntryManifest { items })
}

fn walk(dir: &Path, prefix: &str, items: &mut Vec<(String, Item)>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| cache_io("read", dir, &e))?
        .filter_map(Result::ok)
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let path = e.path();
        let md = std::fs::symlink_metadata(&path).map_err(|e| cache_io("lstat", &path, &e))?;
        if md.is_dir() {
            items.push((rel.clone(), Item::Dir));
            walk(&path, &rel, items)?;
        } else if md.file_type().is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| cache_io("readlink", &path, &e))?;
            items.push((
                rel,
                Item::Symlink {
                    target: target.to_string_lossy().into_owned(),
                },
            ));
        } else if !md.is_file() {
            // A device or pipe: nothing a package should hold, and
            // hashing a pipe would wait forever.
            return Err(format!(
                "module cache: {} is not a regular file",
                path.display()
            ));
        } else {
            let exec = is_exec(&md);
            make_read_only(&path, exec)?;
            let md = std::fs::symlink_metadata(&path).map_err(|e| cache_io("lstat", &path, &e))?;
            items.push((
                rel,
                Item::File {
                    size: md.len(),
                    exec,
                    mtime_ns: mtime_of(&md),
                    sha256: file_sha256(&path)?,
                },
            ));
        }
    }
    Ok(())
}

fn make_read_only(path: &Path, exec: bool) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = if exec { 0o555 } else { 0o444 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .map_err(|e| cache_io("chmod", path, &e))
    }
    #[cfg(not(unix))]
    {
        let _ = exec;
        let mut p = std::fs::metadata(path)
            .map_err(|e| cache_io("stat", path, &e))?
            .permissions();
        p.set_readonly(true);
        std::fs::set_permissions(path, p).map_err(|e| cache_io("chmod", path, &e))
    }
}

fn manifest_json(key: &CacheKey, m: &EntryManifest) -> String {
    let items: Vec<Value> = m
        .items
        .iter()
        .map(|(path, item)| match item {
            Item::Dir => json!({"path": path, "kind": "dir"}),
            Item::Symlink { target } => json!({"path": path, "kind": "symlink", "target": target}),
            Item::File {
                size,
                exec,
                mtime_ns,
                sha256,
            } => json!({
                "path": path,
                "kind": "file",
                "size": size,
                "exec": exec,
                "mtime_ns": mtime_ns.to_string(),
                "sha256": sha256,
            }),
        })
        .collect();
    let doc = json!({
        "version": MANIFEST_VERSION,
        "key": redacted_key(key),
        "key_sha256": key.hash(),
        "items": items,
    });
    serde_json::to_string_pretty(&doc).expect("a JSON value always serialises")
}

/// The key as shown in the manifest, a password in a URL replaced (the
/// hash still names the real key).
fn redacted_key(key: &CacheKey) -> String {
    crate::fetch::redact_in(&key.text().replace('\0', " "))
}

fn parse_manifest(key: &CacheKey, text: &[u8]) -> Result<EntryManifest, String> {
    let bad = || "malformed manifest".to_string();
    let doc: Value = serde_json::from_slice(text).map_err(|_| bad())?;
    if doc["version"].as_u64() != Some(MANIFEST_VERSION)
        || doc["key_sha256"].as_str() != Some(key.hash().as_str())
    {
        return Err(bad());
    }
    let mut items = Vec::new();
    for v in doc["items"].as_array().ok_or_else(bad)? {
        let path = v["path"].as_str().ok_or_else(bad)?;
        if path.is_empty()
            || path.starts_with('/')
            || path
                .split('/')
                .any(|p| p.is_empty() || p == "." || p == "..")
        {
            return Err(bad());
        }
        let item = match v["kind"].as_str() {
            Some("dir") => Item::Dir,
            Some("symlink") => Item::Symlink {
                target: v["target"].as_str().ok_or_else(bad)?.to_string(),
            },
            Some("file") => Item::File {
                size: v["size"].as_u64().ok_or_else(bad)?,
                exec: v["exec"].as_bool().ok_or_else(bad)?,
                mtime_ns: v["mtime_ns"]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(bad)?,
                sha256: v["sha256"].as_str().ok_or_else(bad)?.to_string(),
            },
            _ => return Err(bad()),
        };
        items.push((path.to_string(), item));
    }
    Ok(EntryManifest { items })
}

/// The path of `rel` (slash-separated) under `base`.
pub(super) fn under(base: &Path, rel: &str) -> PathBuf {
    rel.split('/')
        .fold(base.to_path_buf(), |p, part| p.join(part))
}
