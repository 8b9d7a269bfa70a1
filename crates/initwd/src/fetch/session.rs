//! What the package fetches of one run share: the module cache (if one
//! is configured), the bare git stores, and counters that tests and
//! benchmarks read.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::git_store::GitStores;
use crate::module_cache::ModuleCache;

/// Shared by every fetch of a run (and by every root a process installs).
pub struct FetchSession {
    pub(crate) cache: Option<ModuleCache>,
    pub(crate) stores: GitStores,
    pub(crate) stats: FetchStats,
}

/// How much work the fetches of a run did.
#[derive(Debug, Default)]
pub struct FetchStats {
    /// Git fetches (object transfers), of all refs or of one commit.
    pub(crate) git_fetches: AtomicUsize,
    /// Connections to a git remote to list its refs (`ls-remote`).
    pub(crate) git_connects: AtomicUsize,
    /// Packages installed from the module cache.
    pub(crate) cache_hits: AtomicUsize,
}

impl FetchStats {
    pub(crate) fn bump(counter: &AtomicUsize) {
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

impl FetchSession {
    /// A session using `cache` (or none: git stores then live in a
    /// staging directory of the run's own, removed when it ends).
    pub fn new(cache: Option<ModuleCache>) -> FetchSession {
        FetchSession {
            stores: GitStores::new(cache.clone()),
            cache,
            stats: FetchStats::default(),
        }
    }

    /// The module cache, if any.
    pub fn cache(&self) -> Option<&ModuleCache> {
        self.cache.as_ref()
    }

    /// Git fetches so far.
    pub fn git_fetch_count(&self) -> usize {
        self.stats.git_fetches.load(Ordering::SeqCst)
    }

    /// Connections to git remotes so far (each lists the remote's refs).
    pub fn git_connect_count(&self) -> usize {
        self.stats.git_connects.load(Ordering::SeqCst)
    }

    /// Packages installed from the module cache so far.
    pub fn cache_hit_count(&self) -> usize {
        self.stats.cache_hits.load(Ordering::SeqCst)
    }
}
