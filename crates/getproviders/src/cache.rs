//! The shared plugin cache (`plugin_cache_dir` / `TF_PLUGIN_CACHE_DIR`):
//! a package is installed into the cache once, verified, and linked (or
//! copied) into each working directory's `.terraform/providers`.

use std::path::{Path, PathBuf};

use crate::hash::{package_hash_v1, Hash};
use crate::http::HttpClient;
use crate::install::{
    install_package, link_or_copy, remove_stale_staging, InstallError, Installed,
};
use crate::meta::{unpacked_directory_path, PackageMeta};
use crate::platform::Platform;
use crate::version::Version;
use addrs::Provider;

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

    /// Links the cached copy of `provider` `version` for `platform` into
    /// `target_base` if the cache has one that matches the lock file's
    /// hashes (or `may_break_lock_file` is set); `None` if it must be
    /// fetched. Needs no source: OpenTofu checks the cache before asking
    /// for the package's metadata.
    pub fn link_cached(
        &self,
        provider: &Provider,
        version: &Version,
        platform: &Platform,
        target_base: &Path,
        allowed: &[Hash],
    ) -> Result<Option<Installed>, InstallError> {
        let mut lock = self.lock_file(provider, version)?;
        let _guard = lock
            .write()
            .map_err(|e| InstallError(format!("failed to lock the plugin cache: {e}")))?;
        self.link_cached_locked(provider, version, platform, target_base, allowed)
    }

    fn link_cached_locked(
        &self,
        provider: &Provider,
        version: &Version,
        platform: &Platform,
        target_base: &Path,
        allowed: &[Hash],
    ) -> Result<Option<Installed>, InstallError> {
        let cached = unpacked_directory_path(&self.dir, provider, version, platform);
        // Holding the version's lock: any staging here is a dead run's.
        if let Some(version_dir) = cached.parent() {
            remove_stale_staging(version_dir);
        }
        if !cached.is_dir() || (allowed.is_empty() && !self.may_break_lock_file) {
            return Ok(None);
        }
        // One read of the cached copy: its h1: hash both decides whether
        // it may be used and is what the lock records. (A `zh:` hash can
        // never match an unpacked directory.)
        let cached_hash = package_hash_v1(&cached);
        let matches = cached_hash.as_ref().is_ok_and(|h| allowed.contains(h));
        if !matches && !self.may_break_lock_file {
            return Ok(None);
        }
        let hash = cached_hash.map_err(|e| {
            format!(
                "after linking {provider} from provider cache at {}, failed to compute a checksum for it: {e}",
                self.dir.display()
            )
        })?;
        let final_dir = unpacked_directory_path(target_base, provider, version, platform);
        link_or_copy(&cached, &final_dir)?;
        let mut lock_hashes = allowed.to_vec();
        lock_hashes.push(hash.clone());
        lock_hashes.sort();
        lock_hashes.dedup();
        Ok(Some(Installed {
            dir: final_dir,
            hash,
            auth: None,
            lock_hashes,
        }))
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
        let mut lock = self.lock_file(&meta.provider, &meta.version)?;
        let _guard = lock
            .write()
            .map_err(|e| InstallError(format!("failed to lock the plugin cache: {e}")))?;
        if let Some(linked) = self.link_cached_locked(
            &meta.provider,
            &meta.version,
            &meta.target_platform,
            target_base,
            allowed,
        )? {
            return Ok((linked, CacheOutcome::Linked));
        }
        let final_dir = unpacked_directory_path(
            target_base,
            &meta.provider,
            &meta.version,
            &meta.target_platform,
        );
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
        provider: &Provider,
        version: &Version,
    ) -> Result<fd_lock::RwLock<std::fs::File>, InstallError> {
        let dir = self
            .dir
            .join(provider.hostname.for_display())
            .join(&provider.namespace)
            .join(&provider.type_name);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("failed to create {}: {e}", dir.display()))?;
        let path = dir.join(format!(".{version}.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("failed to lock {}: {e}", path.display()))?;
        Ok(fd_lock::RwLock::new(file))
    }
}
