//! `getmodules.PackageFetcher`: fetches remote packages into install
//! directories, each distinct package address at most once per run. A
//! later request for a package already fetched copies the first install
//! (dot files skipped, as OpenTofu's copy does); a request that arrives
//! while the same package is being fetched on another thread waits for
//! that fetch instead of starting its own. Every fetch can be cancelled
//! ([`Cancel`]) and lands in its install directory whole or not at all.
//!
//! One fetcher may serve many roots in a process (share it in an `Arc`):
//! its [`FetchSession`] keeps one git store per repository for the whole
//! run and, with [`PackageFetcher::with_cache`], the module cache.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::cancel::{Cancel, Canceled, CANCELED_TEXT};
use crate::fetch::{self, FetchEnv, FetchSession, FetchStats, HttpSettings};
use crate::module_cache::{CacheKey, Filled, ModuleCache};
use crate::pathutil::{go_io_error_text, path_error};

/// How often a request waiting for another thread's fetch of the same
/// package looks at the cancellation flag.
const WAIT_POLL: std::time::Duration = std::time::Duration::from_millis(20);

enum SlotState {
    Fetching,
    Done(PathBuf),
    Failed,
}

struct Slot {
    state: Mutex<SlotState>,
    ready: Condvar,
}

/// Fetches whole module packages, deduplicated by package address.
/// Shareable between threads (`&PackageFetcher` is `Sync`).
pub struct PackageFetcher {
    settings: HttpSettings,
    session: Arc<FetchSession>,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    downloads: AtomicUsize,
}

impl Default for PackageFetcher {
    fn default() -> Self {
        PackageFetcher::new(HttpSettings::default())
    }
}

impl PackageFetcher {
    pub fn new(settings: HttpSettings) -> PackageFetcher {
        PackageFetcher {
            settings,
            session: Arc::new(FetchSession::new(None)),
            slots: Mutex::new(HashMap::new()),
            downloads: AtomicUsize::new(0),
        }
    }

    /// The same fetcher using `cache` (`None`: no module cache). Set
    /// before the first fetch: it starts a new session.
    pub fn with_cache(mut self, cache: Option<ModuleCache>) -> PackageFetcher {
        self.session = Arc::new(FetchSession::new(cache));
        self
    }

    /// The module cache in use, if any.
    pub fn cache(&self) -> Option<&ModuleCache> {
        self.session.cache()
    }

    /// How many packages were actually fetched (not copied from an
    /// earlier install of the run) so far, from the network or the
    /// module cache.
    pub fn download_count(&self) -> usize {
        self.downloads.load(Ordering::SeqCst)
    }

    /// How many packages (or git trees, or archives) came from the
    /// module cache so far.
    pub fn cache_hit_count(&self) -> usize {
        self.session.cache_hit_count()
    }

    /// How many git fetches (object transfers) were made so far.
    pub fn git_fetch_count(&self) -> usize {
        self.session.git_fetch_count()
    }

    /// How many connections to git remotes listed their refs so far.
    pub fn git_connect_count(&self) -> usize {
        self.session.git_connect_count()
    }

    /// `FetchPackage`: the package at `package` (normalized, no subdir)
    /// into `inst_dir`, which must not exist yet. The package is fetched
    /// into a staging directory beside `inst_dir` and renamed into place
    /// when complete, so `inst_dir` never holds half a package, even when
    /// the run is cancelled (or killed) halfway.
    pub fn fetch_package(
        &self,
        inst_dir: &Path,
        package: &str,
        cancel: &Cancel,
    ) -> Result<(), FetchError> {
        self.fetch_package_with(inst_dir, package, false, None, cancel)
    }

    /// [`PackageFetcher::fetch_package`] for `init`'s installer: with
    /// `upgrade`, the cache's reusable answers (a tag's commit, a
    /// registry package) are fetched again; `registry` names the registry
    /// module version `package` was returned for, which keys its cache
    /// entry.
    pub fn fetch_package_with(
        &self,
        inst_dir: &Path,
        package: &str,
        upgrade: bool,
        registry: Option<&RegistryPackage>,
        cancel: &Cancel,
    ) -> Result<(), FetchError> {
        loop {
            cancel.check()?;
            let (slot, owner) = {
                let mut slots = self.slots.lock().expect("package fetcher lock poisoned");
                match slots.get(package) {
                    Some(s) => (s.clone(), false),
                    None => {
                        let s = Arc::new(Slot {
                            state: Mutex::new(SlotState::Fetching),
                            ready: Condvar::new(),
                        });
                        slots.insert(package.to_string(), s.clone());
                        (s, true)
                    }
                }
            };
            if owner {
                self.downloads.fetch_add(1, Ordering::SeqCst);
                let settings = self.settings.clone();
                let session = self.session.clone();
                let near = inst_dir.parent().unwrap_or(Path::new(".")).to_path_buf();
                let pkg = package.to_string();
                let registry = registry.cloned();
                let result = staged(inst_dir, cancel, move |dst| {
                    let env = FetchEnv {
                        settings: &settings,
                        session: &session,
                        upgrade,
                        staging_near: &near,
                    };
                    fetch_one(&pkg, dst, &env, registry.as_ref())
                });
                let mut state = slot.state.lock().expect("package slot lock poisoned");
                match &result {
                    Ok(()) => *state = SlotState::Done(inst_dir.to_path_buf()),
                    Err(_) => {
                        // Forget failures: a later request tries again,
                        // as OpenTofu only remembers successful fetches.
                        *state = SlotState::Failed;
                        self.slots
                            .lock()
                            .expect("package fetcher lock poisoned")
                            .remove(package);
                    }
                }
                slot.ready.notify_all();
                return result;
            }
            let mut state = slot.state.lock().expect("package slot lock poisoned");
            while matches!(*state, SlotState::Fetching) {
                cancel.check()?;
                state = slot
                    .ready
                    .wait_timeout(state, WAIT_POLL)
                    .expect("package slot lock poisoned")
                    .0;
            }
            match &*state {
                SlotState::Done(prev) => {
                    let prev = prev.clone();
                    drop(state);
                    return staged(inst_dir, cancel, move |dst| copy_previous(&prev, dst));
                }
                SlotState::Failed => continue,
                SlotState::Fetching => unreachable!("waited until the fetch finished"),
            }
        }
    }
}

/// A registry module version, whose package the cache keeps by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryPackage {
    /// The module's registry address (`registry.opentofu.org/ns/name/system`).
    pub module: String,
    pub version: String,
}

/// Fetches `pkg` into `dst`; a registry package through its cache entry
/// when there is a cache (a local directory is only ever linked).
fn fetch_one(
    pkg: &str,
    dst: &Path,
    env: &FetchEnv<'_>,
    registry: Option<&RegistryPackage>,
) -> Result<(), String> {
    let (Some(cache), Some(reg)) = (env.session.cache(), registry) else {
        return fetch::fetch_package_in(pkg, dst, env);
    };
    if fetch::is_local_directory(pkg) {
        return fetch::fetch_package_in(pkg, dst, env);
    }
    let key = CacheKey::Registry {
        module: reg.module.clone(),
        version: reg.version.clone(),
        package: pkg.to_string(),
    };
    let filled = cache.get_or_fill(&key, dst, env.upgrade, |d| {
        fetch::fetch_package_in(pkg, d, env)
    })?;
    if filled == Filled::Hit {
        FetchStats::bump(&env.session.stats.cache_hits);
    }
    Ok(())
}

/// Why a package could not be fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// The run was cancelled while the package was being fetched.
    Canceled,
    /// The fetch failed; the text reads as go-getter's errors do.
    Failed(String),
}

impl From<Canceled> for FetchError {
    fn from(_: Canceled) -> FetchError {
        FetchError::Canceled
    }
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Canceled => f.write_str(CANCELED_TEXT),
            FetchError::Failed(e) => f.write_str(e),
        }
    }
}

/// The prefix of staging directories in a modules directory: what an
/// interrupted run may leave behind, removed by the next one.
pub const STAGING_PREFIX: &str = ".tofu-rs-fetch-";

/// Runs `fill` (on a thread, abandoned if the run is cancelled) to create
/// a directory at a staging path, then renames it to `inst_dir`.
fn staged(
    inst_dir: &Path,
    cancel: &Cancel,
    fill: impl FnOnce(&Path) -> Result<(), String> + Send + 'static,
) -> Result<(), FetchError> {
    let parent = inst_dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| FetchError::Failed(path_error("mkdir", &parent.display().to_string(), &e)))?;
    let staging = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempdir_in(parent)
        .map_err(|e| FetchError::Failed(format!("failed to create temporary directory: {e}")))?;
    // The staging directory goes with the work: abandoned work cleans up
    // after itself when it ends (or the next run does, if the process
    // exits first).
    let staging_path = staging.path().to_path_buf();
    let done = cancel.run(move || {
        let dst = staging.path().join("pkg");
        let r = fill(&dst);
        (staging, r)
    });
    let (staging, result) = match done {
        Ok(d) => d,
        Err(c) => {
            // Best effort: the abandoned work may still be writing there.
            let _ = std::fs::remove_dir_all(&staging_path);
            return Err(c.into());
        }
    };
    let from = staging.path().join("pkg");
    // Messages name the install directory, not the staging directory the
    // package was written in: OpenTofu writes in place.
    result.map_err(|e| {
        FetchError::Failed(e.replace(&from.display().to_string(), &inst_dir.display().to_string()))
    })?;
    if std::fs::symlink_metadata(&from).is_err() {
        // A fetch that created nothing (an empty package): an empty
        // directory, as go-getter leaves.
        std::fs::create_dir_all(&from).map_err(|e| FetchError::Failed(go_io_error_text(&e)))?;
    }
    std::fs::rename(&from, inst_dir).map_err(|e| {
        FetchError::Failed(format!(
            "failed to move the package into {}: {}",
            inst_dir.display(),
            go_io_error_text(&e)
        ))
    })
}

/// Removes the staging directories an interrupted run left in `dir`.
pub fn remove_stale_staging(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(STAGING_PREFIX) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

fn copy_previous(prev: &Path, inst_dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(inst_dir).map_err(|e| {
        format!(
            "failed to create directory {}: {}",
            inst_dir.display(),
            go_io_error_text(&e)
        )
    })?;
    fetch::copy_dir(prev, inst_dir).map_err(|e| {
        format!(
            "failed to copy from {} to {}: {e}",
            prev.display(),
            inst_dir.display()
        )
    })
}

#[cfg(test)]
mod tests {
    /// One fetcher serves every root of a run, from many threads.
    #[test]
    fn a_fetcher_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<super::PackageFetcher>();
    }
}
