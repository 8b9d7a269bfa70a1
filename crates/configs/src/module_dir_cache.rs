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
}

impl ModuleDirCache {
    pub fn new() -> ModuleDirCache {
        ModuleDirCache::default()
    }

    /// [`load_module_dir`], reading `dir` only the first time. Two threads
    /// asking at once may both read it; either result is the same.
    pub fn load(&self, dir: &Path) -> Loaded {
        let hit = self.lock().get(dir).cloned();
        if let Some(hit) = hit {
            return (*hit).clone();
        }
        let loaded = load_module_dir(dir);
        self.lock()
            .insert(dir.to_path_buf(), Arc::new(loaded.clone()));
        loaded
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
