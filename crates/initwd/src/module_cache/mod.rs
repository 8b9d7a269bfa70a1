//! The module cache (`TF_MODULE_CACHE_DIR`, `module_cache_dir`): fetched
//! module packages kept for other roots and later runs, content-addressed,
//! and installed by hard-linking their files (copying across devices).
//! A tofu-rs addition; OpenTofu fetches every package into every root.
//!
//! Layout under the cache directory:
//! - `packages/<sha256(key)>/files/…` a package's tree, read-only, and
//!   `packages/<sha256(key)>/manifest.json`, written last: an entry
//!   without it was never completed and is never used.
//! - `locks/<sha256(key)>.lock`: held while an entry is checked, linked
//!   out or filled, so two runs never fill one entry at once.
//! - `tmp/<sha256(key)>-XXXXXX/`: an entry being filled, renamed into
//!   `packages/` when whole; one left by a killed run is removed by the
//!   next holder of the entry's lock.
//! - `git/<sha256(url)>.git` (bare stores, one per repository URL) with
//!   `git/<sha256(url)>.lock`, and `git/refs/<sha256(url, ref)>.json`,
//!   what an immutable ref (a tag, a full commit ID) resolved to.
//!
//! What keys an entry is [`CacheKey`]. On every hit each file of the
//! entry is checked against the manifest by one `lstat` (kind, size,
//! exec bit, modification time); a mismatch means the entry was changed
//! (a user's edit through a hard link in `.terraform/modules`, say), so it
//! is removed and filled again. The SHA-256 of each file is recorded too
//! and checked only when [`ModuleCache::with_full_verification`] asks,
//! since reading every file on every hit would cost what the cache saves.

mod entry;
mod file_lock;
mod git_refs;
mod link;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub(crate) use entry::file_sha256;
pub use entry::Filled;
pub(crate) use file_lock::FileLock;
pub(crate) use git_refs::{RefKind, RefRecord};

/// A module cache directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCache {
    root: PathBuf,
    full_verification: bool,
}

/// What a cache entry holds, and so what names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheKey {
    /// A git repository's tree (submodules included) at a commit.
    Git { url: String, commit: String },
    /// A registry module's package: the module address, the version and
    /// the package address the registry returned for it.
    Registry {
        module: String,
        version: String,
        package: String,
    },
    /// An archive (over HTTP or from a file), by its address and the
    /// SHA-256 of its bytes.
    Archive { url: String, sha256: String },
}

impl CacheKey {
    /// The key as text: what is hashed into the entry's name and recorded
    /// in its manifest. Fields are NUL-separated, which no URL contains.
    pub fn text(&self) -> String {
        match self {
            CacheKey::Git { url, commit } => format!("git\0{url}\0{commit}"),
            CacheKey::Registry {
                module,
                version,
                package,
            } => format!("registry\0{module}\0{version}\0{package}"),
            CacheKey::Archive { url, sha256 } => format!("archive\0{url}\0{sha256}"),
        }
    }

    fn hash(&self) -> String {
        sha256_hex(self.text().as_bytes())
    }
}

/// Locks `path` exclusively (see [`FileLock`]).
pub(crate) fn lock_file(path: &Path) -> Result<FileLock, String> {
    FileLock::exclusive(path)
}

/// Lower-case hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    gocompat::hex::encode_to_string(&Sha256::digest(bytes))
}

impl ModuleCache {
    /// A cache in `root` (created when first written).
    pub fn new(root: impl Into<PathBuf>) -> ModuleCache {
        ModuleCache {
            root: root.into(),
            full_verification: false,
        }
    }

    /// The cache the CLI configuration asks for (`TF_MODULE_CACHE_DIR`
    /// already applied by `cliconfig::load_module_settings`), if any.
    pub fn from_cli_config(settings: &cliconfig::ModuleSettings) -> Option<ModuleCache> {
        settings.module_cache_dir.clone().map(ModuleCache::new)
    }

    /// Whether every hit also re-hashes every file of the entry.
    pub fn with_full_verification(mut self, on: bool) -> ModuleCache {
        self.full_verification = on;
        self
    }

    /// The cache directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The bare git store for the repository at `url`.
    pub(crate) fn git_store(&self, url: &str) -> PathBuf {
        self.root
            .join("git")
            .join(format!("{}.git", sha256_hex(url.as_bytes())))
    }

    /// The lock file guarding [`ModuleCache::git_store`].
    pub(crate) fn git_store_lock(&self, url: &str) -> PathBuf {
        self.root
            .join("git")
            .join(format!("{}.lock", sha256_hex(url.as_bytes())))
    }

    fn entry_dir(&self, key: &CacheKey) -> PathBuf {
        self.root.join("packages").join(key.hash())
    }

    fn lock_path(&self, key: &CacheKey) -> PathBuf {
        self.root.join("locks").join(format!("{}.lock", key.hash()))
    }

    fn tmp_dir(&self) -> PathBuf {
        self.root.join("tmp")
    }
}

#[cfg(test)]
mod tests;
