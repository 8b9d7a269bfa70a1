//! The shared plugin cache (`plugin_cache_dir` / `TF_PLUGIN_CACHE_DIR`):
//! a package is installed into the cache once, verified, and linked (or
//! copied) into each working directory's `.terraform/providers`.

use std::path::{Path, PathBuf};

use crate::hash::{hash_matches, package_hash_v1, Hash, LocalPackage};
use crate::http::HttpClient;
use crate::install::{install_package, link_or_copy, InstallError, Installed};
use crate::meta::{unpacked_directory_path, PackageMeta};

/// A global provider cache directory.
#[derive(Debug, Clone)]
pub struct PluginCache {
    pub dir: PathBuf,
    /// `plugin_cache_may_break_dependency_lock_file`: use a cached package
    /// even when nothing is locked to check it against.
    pub may_break_lock_file: bool,
}

/// How a package reached the working directory through the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    /// It was already cached and matched the lock file.
    Linked,
    /// It was fetched into the cache first.
    Fetched,
}

impl PluginCache {
    pub fn new(dir: impl Into<PathBuf>) -> PluginCache {
        PluginCache {
            dir: dir.into(),
            may_break_lock_file: false,
        }
    }

    /// `TF_PLUGIN_CACHE_DIR` if set, else the CLI configuration's
    /// `plugin_cache_dir`.
    pub fn from_env_or(configured: Option<PathBuf>) -> Option<PluginCache> {
        let from_env = std::env::var_os("TF_PLUGIN_CACHE_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        from_env.or(configured).map(PluginCache::new)
    }

    /// Installs `meta` into `target_base` through the cache. A cached copy
    /// is used only if it matches the lock file's hashes (so a first
    /// install still fetches and records the origin's checksums).
    pub fn install(
        &self,
        meta: &PackageMeta,
        target_base: &Path,
        allowed: &[Hash],
        http: &HttpClient,
    ) -> Result<(Installed, CacheOutcome), InstallError> {
        let mut lock = self.lock_file(meta)?;
        let _guard = lock
            .write()
            .map_err(|e| InstallError(format!("failed to lock the plugin cache: {e}")))?;
        let cached = unpacked_directory_path(
            &self.dir,
            &meta.provider,
            &meta.version,
            &meta.target_platform,
        );
        let final_dir = unpacked_directory_path(
            target_base,
            &meta.provider,
            &meta.version,
            &meta.target_platform,
        );
        if cached.is_dir() {
            let acceptable = (!allowed.is_empty()
                && hash_matches(LocalPackage::Dir(&cached), allowed).unwrap_or(false))
                || self.may_break_lock_file;
            if acceptable {
                link_or_copy(&cached, &final_dir)?;
                let hash = package_hash_v1(&cached).map_err(|e| {
                    format!(
                        "after linking {} from provider cache at {}, failed to compute a checksum for it: {e}",
                        meta.provider,
                        self.dir.display()
                    )
                })?;
                let mut lock_hashes = allowed.to_vec();
                lock_hashes.push(hash.clone());
                lock_hashes.sort();
                lock_hashes.dedup();
                return Ok((
                    Installed {
                        dir: final_dir,
                        hash,
                        auth: None,
                        lock_hashes,
                    },
                    CacheOutcome::Linked,
                ));
            }
        }
        let in_cache = install_package(meta, &self.dir, allowed, http)?;
        link_or_copy(&in_cache.dir, &final_dir)?;
        Ok((
            Installed {
                dir: final_dir,
                ..in_cache
            },
            CacheOutcome::Fetched,
        ))
    }

    /// Another process sharing the cache may be installing the same
    /// version; one lock file per provider version serializes them.
    fn lock_file(
        &self,
        meta: &PackageMeta,
    ) -> Result<fd_lock::RwLock<std::fs::File>, InstallError> {
        let dir = self
            .dir
            .join(meta.provider.hostname.for_display())
            .join(&meta.provider.namespace)
            .join(&meta.provider.type_name);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("failed to create {}: {e}", dir.display()))?;
        let path = dir.join(format!(".{}.lock", meta.version));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("failed to lock {}: {e}", path.display()))?;
        Ok(fd_lock::RwLock::new(file))
    }
}
