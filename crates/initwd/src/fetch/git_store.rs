//! Bare git stores, one per repository URL: each fetched at most once a
//! run (all branches, as `refs/remotes/origin/*`, and all tags, pruned as
//! the remote prunes), then read by every package that needs a commit of
//! that repository. With a module cache they live in the cache and
//! persist, so a later run fetches only what is new; without one they
//! live in a staging directory under the modules directory (swept like
//! any staging directory if the run is killed), removed when the run's
//! session ends.
//!
//! A store is used under an in-process mutex (threads of one run) and,
//! in the cache, an OS file lock (other runs). Code holding a store never
//! waits for a cache entry's lock: entries are locked first, stores
//! second.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use git2::{AutotagOption, Direction, FetchOptions, FetchPrune, Oid, Repository};

use super::git::{callbacks, git_err, GitSource};
use super::session::FetchStats;
use crate::module_cache::ModuleCache;

/// The refs a remote advertised, and the branch its HEAD names.
#[derive(Debug, Clone)]
pub(crate) struct Advert {
    pub(crate) heads: Vec<(String, Oid)>,
    pub(crate) default_branch: Option<String>,
}

impl Advert {
    pub(crate) fn has(&self, name: &str) -> bool {
        self.heads.iter().any(|(n, _)| n == name)
    }
}

/// What this run did with one repository.
#[derive(Default)]
pub(crate) struct RepoRun {
    /// Set once the store was brought up to date with the remote.
    advert: Option<Advert>,
}

/// Every store a session uses.
pub(crate) struct GitStores {
    cache: Option<ModuleCache>,
    /// Without a cache: the run's own directory of stores.
    staging: Mutex<Option<tempfile::TempDir>>,
    repos: Mutex<HashMap<String, Arc<Mutex<RepoRun>>>>,
}

/// One store, held: its repository and what this run knows of it.
pub(crate) struct Store<'a> {
    pub(crate) repo: Repository,
    run: &'a mut RepoRun,
    src: &'a GitSource,
    stats: &'a FetchStats,
    upgrade: bool,
}

impl GitStores {
    pub(crate) fn new(cache: Option<ModuleCache>) -> GitStores {
        GitStores {
            cache,
            staging: Mutex::new(None),
            repos: Mutex::new(HashMap::new()),
        }
    }

    /// Runs `f` on the store for `src.url`, held. `near` is where a
    /// staging directory for stores goes when there is no cache.
    pub(crate) fn with_store<T>(
        &self,
        src: &GitSource,
        near: &Path,
        stats: &FetchStats,
        upgrade: bool,
        f: impl FnOnce(&mut Store<'_>) -> Result<T, String>,
    ) -> Result<T, String> {
        self.locked(src, near, |run, path| {
            let (repo, fresh) = open_or_init(path, &src.url)?;
            if fresh {
                // A store that had to be made anew (a swept staging
                // directory) holds nothing this run fetched.
                run.advert = None;
            }
            f(&mut Store {
                repo,
                run,
                src,
                stats,
                upgrade,
            })
        })
    }

    /// Runs `f` on the run's state and the path of the store for
    /// `src.url`, holding the store's locks: this process's, then (with a
    /// cache) the file lock other processes respect.
    fn locked<T>(
        &self,
        src: &GitSource,
        near: &Path,
        f: impl FnOnce(&mut RepoRun, &Path) -> Result<T, String>,
    ) -> Result<T, String> {
        let run = self
            .repos
            .lock()
            .expect("git store map lock poisoned")
            .entry(src.url.clone())
            .or_default()
            .clone();
        let mut run = run.lock().expect("git store lock poisoned");
        let _file_lock = match &self.cache {
            Some(c) => Some(crate::module_cache::lock_file(&c.git_store_lock(&src.url))?),
            None => None,
        };
        let path = self.store_path(&src.url, near)?;
        f(&mut run, &path)
    }

    /// Removes the store for `src.url` (found damaged: objects its refs
    /// need are missing), so the next use makes and fetches it anew.
    pub(crate) fn discard(&self, src: &GitSource, near: &Path) -> Result<(), String> {
        self.locked(src, near, |run, path| {
            run.advert = None;
            match std::fs::remove_dir_all(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(
                    crate::pathutil::path_error("remove", &path.display().to_string(), &e),
                ),
                _ => Ok(()),
            }
        })
    }

    fn store_path(&self, url: &str, near: &Path) -> Result<PathBuf, String> {
        if let Some(c) = &self.cache {
            return Ok(c.git_store(url));
        }
        let mut staging = self.staging.lock().expect("git staging lock poisoned");
        if !staging.as_ref().is_some_and(|d| d.path().is_dir()) {
            std::fs::create_dir_all(near).map_err(|e| {
                crate::pathutil::path_error("mkdir", &near.display().to_string(), &e)
            })?;
            let dir = tempfile::Builder::new()
                .prefix(crate::fetcher::STAGING_PREFIX)
                .tempdir_in(near)
                .map_err(|e| format!("failed to create temporary directory: {e}"))?;
            *staging = Some(dir);
        }
        let dir = staging.as_ref().expect("created above").path();
        Ok(dir.join(format!(
            "{}.git",
            crate::module_cache::sha256_hex(url.as_bytes())
        )))
    }
}

/// The file a store is complete with: made last by [`open_or_init`], it
/// holds the repository's URL (any password redacted) for whoever looks.
const STORE_MARKER: &str = "tofu-rs-url";

/// Opens the bare store at `path`, or makes it when it is missing or
/// was never finished (a run killed while making it). The flag says it
/// was made now. The URL is not written into the store's configuration
/// (fetches use an anonymous remote), so a password in it stays off disk.
fn open_or_init(path: &Path, url: &str) -> Result<(Repository, bool), String> {
    if path.join(STORE_MARKER).is_file() {
        if let Ok(repo) = Repository::open_bare(path) {
            return Ok((repo, false));
        }
    }
    let _ = std::fs::remove_dir_all(path);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| crate::pathutil::path_error("mkdir", &parent.display().to_string(), &e))?;
    }
    let repo = Repository::init_bare(path).map_err(|e| git_err("git init", e))?;
    let marker = path.join(STORE_MARKER);
    std::fs::write(&marker, super::redact(url) + "\n")
        .map_err(|e| crate::pathutil::path_error("open", &marker.display().to_string(), &e))?;
    Ok((repo, true))
}

/// Where a store keeps what it fetched.
const REF_GLOBS: [&str; 2] = ["refs/remotes/origin/*", "refs/tags/*"];

const REFSPECS: [&str; 2] = [
    "+refs/heads/*:refs/remotes/origin/*",
    "+refs/tags/*:refs/tags/*",
];

impl Store<'_> {
    /// The remote's refs, the store brought up to date with them first
    /// (once a run): a connection to list them, and a fetch only when
    /// they differ from what the store has, or when upgrading.
    pub(crate) fn sync(&mut self) -> Result<Advert, String> {
        if let Some(a) = &self.run.advert {
            return Ok(a.clone());
        }
        let advert = self.list_remote()?;
        let damaged = self.forget_refs_if_damaged();
        if damaged || self.upgrade || !self.matches(&advert) {
            self.fetch(&REFSPECS, true)?;
        }
        // HEAD (a ref some users name) at the default branch, as in a clone.
        if let Some(b) = &advert.default_branch {
            if let Some(oid) = self.ref_target(&format!("refs/remotes/origin/{b}")) {
                let _ = self.repo.set_head_detached(oid);
            }
        }
        self.run.advert = Some(advert.clone());
        Ok(advert)
    }

    /// Whether the store holds `oid` as a commit.
    pub(crate) fn has_commit(&self, oid: Oid) -> bool {
        self.repo.find_commit(oid).is_ok()
    }

    /// Makes sure the store holds commit `oid`: the refs synced first,
    /// then the commit fetched by ID (as `git submodule update` does for
    /// a commit no ref reaches). `false` if the remote will not give it.
    pub(crate) fn ensure_commit(&mut self, oid: Oid) -> Result<bool, String> {
        if self.has_commit(oid) {
            return Ok(true);
        }
        self.sync()?;
        if self.has_commit(oid) {
            return Ok(true);
        }
        let id = oid.to_string();
        // Servers may refuse a want that no ref reaches; that is the
        // caller's "not found", not an error of its own.
        let _ = self.fetch(&[id.as_str()], false);
        Ok(self.has_commit(oid))
    }

    pub(crate) fn ref_target(&self, name: &str) -> Option<Oid> {
        self.repo
            .find_reference(name)
            .ok()
            .and_then(|r| r.peel_to_commit().ok())
            .map(|c| c.id())
    }

    fn list_remote(&mut self) -> Result<Advert, String> {
        FetchStats::bump(&self.stats.git_connects);
        let attempts = Cell::new(0);
        let mut remote = self
            .repo
            .remote_anonymous(&self.src.url)
            .map_err(|e| git_err("git remote", e))?;
        let conn = remote
            .connect_auth(
                Direction::Fetch,
                Some(callbacks(self.src.ssh_key.as_deref(), &attempts)),
                None,
            )
            .map_err(|e| git_err("git clone", e))?;
        let heads: Vec<(String, Oid)> = conn
            .list()
            .map_err(|e| git_err("git ls-remote", e))?
            .iter()
            .map(|h| (h.name().to_string(), h.oid()))
            .collect();
        let symref = conn
            .default_branch()
            .ok()
            .and_then(|b| b.as_str().ok().map(str::to_string));
        let default_branch = symref
            .as_deref()
            .and_then(|b| b.strip_prefix("refs/heads/"))
            .map(str::to_string)
            .or_else(|| {
                // No symref advertised: the branch HEAD points at.
                let head = heads.iter().find(|(n, _)| n == "HEAD").map(|(_, o)| *o)?;
                heads
                    .iter()
                    .find(|(n, o)| *o == head && n.starts_with("refs/heads/"))
                    .map(|(n, _)| n["refs/heads/".len()..].to_string())
            });
        Ok(Advert {
            heads,
            default_branch,
        })
    }

    /// Whether a branch or tag of the store names an object the store
    /// does not have (a damaged store: objects lost on disk). Such refs
    /// would be offered to the remote as "have"s, so a fetch would never
    /// bring the objects back; all of them are deleted instead, and the
    /// next fetch brings everything.
    fn forget_refs_if_damaged(&mut self) -> bool {
        let Ok(odb) = self.repo.odb() else {
            return false;
        };
        let mut names: Vec<String> = Vec::new();
        let mut damaged = false;
        for glob in REF_GLOBS {
            let Ok(refs) = self.repo.references_glob(glob) else {
                continue;
            };
            for r in refs.flatten() {
                if let Ok(name) = r.name() {
                    names.push(name.to_string());
                }
                if r.target().is_some_and(|oid| !odb.exists(oid)) {
                    damaged = true;
                }
            }
        }
        if damaged {
            for name in names {
                if let Ok(mut r) = self.repo.find_reference(&name) {
                    let _ = r.delete();
                }
            }
        }
        damaged
    }

    /// Whether the store's branches and tags are exactly the advertised
    /// ones, so a fetch would bring nothing.
    fn matches(&self, advert: &Advert) -> bool {
        let mut wanted = 0;
        for (name, oid) in &advert.heads {
            let local = if let Some(b) = name.strip_prefix("refs/heads/") {
                format!("refs/remotes/origin/{b}")
            } else if name.starts_with("refs/tags/") && !name.ends_with("^{}") {
                name.clone()
            } else {
                continue;
            };
            wanted += 1;
            let have = self
                .repo
                .find_reference(&local)
                .ok()
                .and_then(|r| r.target());
            if have != Some(*oid) {
                return false;
            }
        }
        let have = REF_GLOBS
            .iter()
            .map(|g| {
                self.repo
                    .references_glob(g)
                    .map(|refs| refs.count())
                    .unwrap_or(usize::MAX / 4)
            })
            .sum::<usize>();
        have == wanted
    }

    /// Fetches `refspecs`; `all` for every branch and tag (tags followed,
    /// refs the remote deleted pruned), else one commit by ID.
    fn fetch(&mut self, refspecs: &[&str], all: bool) -> Result<(), String> {
        FetchStats::bump(&self.stats.git_fetches);
        let attempts = Cell::new(0);
        let mut fo = FetchOptions::new();
        fo.remote_callbacks(callbacks(self.src.ssh_key.as_deref(), &attempts));
        if all {
            fo.download_tags(AutotagOption::All);
            fo.prune(FetchPrune::On);
        } else {
            fo.download_tags(AutotagOption::None);
        }
        let mut remote = self
            .repo
            .remote_anonymous(&self.src.url)
            .map_err(|e| git_err("git remote", e))?;
        remote
            .fetch(refspecs, Some(&mut fo), None)
            .map_err(|e| git_err("git clone", e))
    }
}
