//! Modules read once per directory for the length of one command.
//!
//! `init` loads every module twice (installing the tree, then loading it
//! for the providers and the backend) and a tree calls the same few
//! directories many times over (200 calls of 4 directories in a monorepo's
//! typical layout). Reading, parsing and decoding a directory is the bulk
//! of that work; a loaded module is kept here, before any call's static
//! evaluation is applied, and each request gets a copy.
//!
//! A cache lives as long as one command: files changed while it runs are
//! not seen again (OpenTofu's loader keeps no such promise either).
//!
//! `-recursive` runs many roots, and each root has its own copy of every
//! remote module it installed (`live/a/.terraform/modules/vpc`,
//! `live/b/.terraform/modules/vpc`, ...). A cache made with
//! [`ModuleDirCache::sharing_identical`] parses such copies once: a
//! directory whose module files have the same names and bytes as one
//! already read gets that module. Its ranges and `source_dir` then name the
//! first copy; [`ModuleDirCache::alias_of`] tells which, so that callers can
//! show each root its own paths.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use hclsyntax::Diagnostics;

use crate::module::{load_module_dir, Module};

/// What [`load_module_dir`] gave for a directory.
type Loaded = (Option<Module>, Diagnostics);

/// Modules by the directory they were loaded from (as given: two
/// spellings of one directory are read twice, which is only slower).
#[derive(Debug, Default)]
pub struct ModuleDirCache {
    loaded: Mutex<HashMap<PathBuf, Arc<Loaded>>>,
    /// [`crate::config_build::canonical`] answers by directory.
    canonical: Mutex<HashMap<PathBuf, PathBuf>>,
    /// With sharing on: the first directory read with each content
    /// fingerprint, and the directories answered from it.
    identical: Option<Mutex<Identical>>,
}

#[derive(Debug, Default)]
struct Identical {
    first: HashMap<[u8; 32], PathBuf>,
    alias: HashMap<PathBuf, PathBuf>,
}

impl ModuleDirCache {
    pub fn new() -> ModuleDirCache {
        ModuleDirCache::default()
    }

    /// A cache that also parses directories with identical module files
    /// once (see the module documentation).
    pub fn sharing_identical() -> ModuleDirCache {
        ModuleDirCache {
            identical: Some(Mutex::default()),
            ..ModuleDirCache::default()
        }
    }

    /// [`load_module_dir`], reading `dir` only the first time. Two threads
    /// asking at once may both read it; either result is the same.
    pub fn load(&self, dir: &Path) -> Loaded {
        (*self.load_shared(dir)).clone()
    }

    /// What [`ModuleDirCache::load`] gives, as kept here: a directory
    /// answered with another's module holds the same `Arc`, not a copy.
    fn load_shared(&self, dir: &Path) -> Arc<Loaded> {
        let hit = self.lock().get(dir).cloned();
        if let Some(hit) = hit {
            return hit;
        }
        let loaded = match self.identical_to(dir) {
            Some(first) => self.load_shared(&first),
            None => Arc::new(load_module_dir(dir)),
        };
        self.lock().insert(dir.to_path_buf(), loaded.clone());
        loaded
    }

    /// A directory read earlier with the same files as `dir`; `None` when
    /// there is none (`dir` is then recorded as the first of its content)
    /// or sharing is off.
    fn identical_to(&self, dir: &Path) -> Option<PathBuf> {
        let identical = self.identical.as_ref()?;
        let print = fingerprint(dir)?;
        let mut known = identical.lock().unwrap_or_else(PoisonError::into_inner);
        match known.first.get(&print) {
            Some(first) if first != dir => {
                let first = first.clone();
                known.alias.insert(dir.to_path_buf(), first.clone());
                Some(first)
            }
            Some(_) => None,
            None => {
                known.first.insert(print, dir.to_path_buf());
                None
            }
        }
    }

    /// The directory whose module `dir` was answered with, when sharing
    /// found them identical: the module's ranges name files there.
    pub fn alias_of(&self, dir: &Path) -> Option<PathBuf> {
        let identical = self.identical.as_ref()?;
        let known = identical.lock().unwrap_or_else(PoisonError::into_inner);
        known.alias.get(dir).cloned()
    }

    /// [`crate::config_build::canonical`], resolved once per directory.
    pub fn canonical(&self, dir: &Path) -> PathBuf {
        let mut known = self
            .canonical
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        known
            .entry(dir.to_path_buf())
            .or_insert_with(|| crate::config_build::canonical(dir))
            .clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Loaded>>> {
        self.loaded.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// SHA-256 over the names and bytes of the files [`load_module_dir`] reads
/// in `dir` (its primary and override files, in order); `None` when they
/// cannot be listed or read, which the load itself then reports.
fn fingerprint(dir: &Path) -> Option<[u8; 32]> {
    use sha2::Digest;
    let files = crate::file_names::dir_files(dir).ok()?;
    let mut hash = sha2::Sha256::new();
    for (kind, paths) in [("primary", &files.primary), ("override", &files.overrides)] {
        for path in paths {
            let name = path.file_name()?.to_string_lossy();
            let bytes = std::fs::read(path).ok()?;
            for part in [kind.as_bytes(), name.as_bytes(), &bytes] {
                hash.update((part.len() as u64).to_le_bytes());
                hash.update(part);
            }
        }
    }
    Some(hash.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_read_once() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("main.tf"), "variable \"a\" {}\n").unwrap();
        let cache = ModuleDirCache::new();
        let (first, diags) = cache.load(d.path());
        assert!(diags.is_empty());
        assert!(first.unwrap().variables.contains_key("a"));
        // Changed on disk: the cached module is still the one given.
        std::fs::write(d.path().join("main.tf"), "variable \"b\" {}\n").unwrap();
        let (again, _) = cache.load(d.path());
        let again = again.unwrap();
        assert!(again.variables.contains_key("a") && !again.variables.contains_key("b"));
        assert!(ModuleDirCache::new()
            .load(d.path())
            .0
            .unwrap()
            .variables
            .contains_key("b"));
    }

    #[test]
    fn identical_copies_are_parsed_once_when_sharing() {
        let d = tempfile::tempdir().unwrap();
        let (a, b, c) = (d.path().join("a"), d.path().join("b"), d.path().join("c"));
        for (dir, text) in [
            (&a, "variable \"x\" {}\n"),
            (&b, "variable \"x\" {}\n"),
            (&c, "variable \"y\" {}\n"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join("main.tf"), text).unwrap();
        }
        let cache = ModuleDirCache::sharing_identical();
        let first = cache.load(&a).0.unwrap();
        let copy = cache.load(&b).0.unwrap();
        // The copy is the first directory's module: its files are named there.
        assert_eq!(copy.source_dir, first.source_dir);
        assert_eq!(cache.alias_of(&b), Some(a.clone()));
        // Different bytes are a different module.
        let other = cache.load(&c).0.unwrap();
        assert!(other.variables.contains_key("y"));
        assert_eq!(cache.alias_of(&c), None);
        assert_eq!(cache.alias_of(&a), None);
        // Without sharing every directory is its own.
        let plain = ModuleDirCache::new();
        plain.load(&a);
        assert_ne!(plain.load(&b).0.unwrap().source_dir, first.source_dir);
        assert_eq!(plain.alias_of(&b), None);
    }

    #[test]
    fn an_unreadable_directory_is_an_error_each_time() {
        let cache = ModuleDirCache::new();
        let missing = Path::new("/nonexistent/tofu-rs/module");
        for _ in 0..2 {
            let (module, diags) = cache.load(missing);
            assert!(module.is_none());
            assert_eq!(diags[0].summary, "Failed to read module directory");
        }
    }
}
