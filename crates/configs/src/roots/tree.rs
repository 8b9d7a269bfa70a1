//! The configuration directories under a base directory, each with the
//! local modules it calls, and the roots among them.
//!
//! Paths are kept relative to the base and cleaned lexically (as Go's
//! `filepath.Join` cleans a local module source against its caller), so a
//! call may lead outside the base (`../shared/x`); such directories are
//! loaded to follow their own calls, but are never roots.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use addrs::ModuleSource;
use rayon::prelude::*;

use crate::file_names::{file_role, FileRole};
use crate::module::load_module_dir_with_tests;
use crate::static_eval::{RootVariables, StaticModuleCall, WorkDir};

/// A call of a local module from a configuration directory.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct LocalCall {
    /// The called directory, relative to the base, cleaned.
    pub dir: PathBuf,
    /// Made by a test file's `run` block rather than a `module` block.
    pub from_test: bool,
}

/// One configuration directory.
#[derive(Debug, Clone, Default)]
pub struct ConfigDir {
    /// Local modules it calls, in name order.
    pub calls: Vec<LocalCall>,
    /// `module` blocks whose source could not be decided statically (a
    /// variable without a default, an error): which directory they call is
    /// unknown, so a change anywhere may concern this directory.
    pub undecided_calls: Vec<String>,
    /// Found by the walk under the base (rather than only reached through a
    /// call).
    pub walked: bool,
}

/// The configuration directories under a base directory.
#[derive(Debug, Clone, Default)]
pub struct ConfigTree {
    /// Directories by their path relative to the base (`""` is the base).
    pub dirs: BTreeMap<PathBuf, ConfigDir>,
}

impl ConfigTree {
    /// Walks `base` for configuration directories (hidden directories and
    /// symlinked directories are not entered) and loads each, with the
    /// directories their local calls reach, in parallel.
    pub fn scan(base: &Path) -> ConfigTree {
        let mut walked = Vec::new();
        walk(base, Path::new(""), &mut walked);
        Self::from_dirs(base, walked, true)
    }

    /// The tree of the given directories (relative to `base`) and what
    /// they call, for an explicit list of roots instead of a walk.
    pub fn of_dirs(base: &Path, dirs: &[PathBuf]) -> ConfigTree {
        let dirs = dirs.iter().map(|d| clean(d)).collect();
        Self::from_dirs(base, dirs, true)
    }

    fn from_dirs(base: &Path, start: Vec<PathBuf>, walked: bool) -> ConfigTree {
        let mut tree = ConfigTree::default();
        let mut pending: Vec<PathBuf> = start;
        let mut first = true;
        while !pending.is_empty() {
            let loaded: Vec<(PathBuf, ConfigDir)> = pending
                .par_iter()
                .map(|rel| (rel.clone(), load_dir(base, rel)))
                .collect();
            let mut next = BTreeSet::new();
            for (rel, mut dir) in loaded {
                dir.walked = walked && first;
                for call in &dir.calls {
                    if !tree.dirs.contains_key(&call.dir) && call.dir != rel {
                        next.insert(call.dir.clone());
                    }
                }
                tree.dirs.insert(rel, dir);
            }
            next.retain(|d| !tree.dirs.contains_key(d));
            pending = next.into_iter().collect();
            first = false;
        }
        tree
    }

    /// The walked directories that no other directory calls, in path
    /// order. A directory that calls itself is still a root.
    pub fn roots(&self) -> Vec<PathBuf> {
        let called: BTreeSet<&PathBuf> = self
            .dirs
            .iter()
            .flat_map(|(from, d)| d.calls.iter().map(|c| &c.dir).filter(move |c| *c != from))
            .collect();
        self.dirs
            .iter()
            .filter(|(path, d)| d.walked && !called.contains(path))
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// `root` and every directory it reaches through local calls.
    pub fn closure(&self, root: &Path) -> BTreeSet<PathBuf> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            if !seen.insert(dir.clone()) {
                continue;
            }
            if let Some(d) = self.dirs.get(&dir) {
                stack.extend(d.calls.iter().map(|c| c.dir.clone()));
            }
        }
        seen
    }
}

/// Collects the configuration directories under `base/rel`.
fn walk(base: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(base.join(rel)) else {
        return;
    };
    let mut has_config = false;
    let mut subdirs = Vec::new();
    for entry in entries.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !name.starts_with('.') {
                subdirs.push(rel.join(&name));
            }
        } else if matches!(
            file_role(&name),
            Some(FileRole::Primary | FileRole::Override)
        ) {
            has_config = true;
        }
    }
    if has_config {
        out.push(rel.to_path_buf());
    }
    subdirs.sort();
    for sub in subdirs {
        walk(base, &sub, out);
    }
}

/// Loads one directory and decides its local calls. Sources that need
/// static evaluation are evaluated as the root module's would be with no
/// variables given (defaults apply), which is what a call from a CI job
/// with no `-var` sees.
fn load_dir(base: &Path, rel: &Path) -> ConfigDir {
    let mut dir = ConfigDir::default();
    let (module, _) = load_module_dir_with_tests(&base.join(rel), "tests");
    let Some(mut module) = module else {
        return dir;
    };
    let needs_eval = module
        .module_calls
        .values()
        .any(|c| !c.has_constant_static_fields());
    if needs_eval {
        // As a run in that directory would: relative paths in `file()`
        // and `path.*` are the directory's.
        let here = base.join(rel).to_string_lossy().into_owned();
        let call = StaticModuleCall::root(RootVariables::default(), ".", "default")
            .in_work_dir(WorkDir::at(&addrs::clean_path(&here)));
        let _ = module.with_static_call(call);
    }
    let mut calls = BTreeSet::new();
    for call in module.module_calls.values() {
        match &call.source_addr {
            Some(ModuleSource::Local(path)) => {
                calls.insert(LocalCall {
                    dir: clean(&rel.join(path)),
                    from_test: false,
                });
            }
            Some(_) => {}
            // A source built from input that has no value here. (A
            // constant that is not a valid source calls nothing: loading
            // the directory reports it.)
            None if call.source.is_some() && !call.has_constant_static_fields() => {
                dir.undecided_calls.push(call.name.clone())
            }
            None => {}
        }
    }
    for test in module.tests.iter().flat_map(|t| t.values()) {
        for run in &test.runs {
            if let Some(ModuleSource::Local(path)) =
                run.module.as_ref().and_then(|m| m.source.as_ref())
            {
                calls.insert(LocalCall {
                    dir: clean(&rel.join(path)),
                    from_test: true,
                });
            }
        }
    }
    dir.calls = calls.into_iter().collect();
    dir
}

/// Lexical cleaning with Go's `path.Clean` (`addrs::clean_path`, what
/// local module sources are joined with), the base itself as `""`.
pub fn clean(path: &Path) -> PathBuf {
    match addrs::clean_path(&path.to_string_lossy()).as_str() {
        "." => PathBuf::new(),
        cleaned => PathBuf::from(cleaned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(base: &Path, rel: &str, text: &str) {
        let p = base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn paths(list: &[&str]) -> Vec<PathBuf> {
        list.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn roots_are_directories_no_one_calls() {
        let d = tempfile::tempdir().unwrap();
        let b = d.path();
        write(
            b,
            "live/a/main.tf",
            "module \"n\" { source = \"../../modules/net\" }\n",
        );
        write(b, "live/b/main.tf", "module \"n\" { source = \"../../modules/net\" }\nmodule \"r\" { source = \"git::https://example.com/r.git\" }\n");
        write(
            b,
            "modules/net/main.tf",
            "module \"s\" { source = \"./sub\" }\n",
        );
        write(b, "modules/net/sub/main.tf", "variable \"x\" {}\n");
        write(b, "modules/unused/main.tf", "variable \"x\" {}\n");
        write(
            b,
            "live/a/.terraform/modules/n/main.tf",
            "variable \"x\" {}\n",
        );
        write(b, ".hidden/main.tf", "variable \"x\" {}\n");
        write(b, "docs/README.md", "not configuration\n");
        let tree = ConfigTree::scan(b);
        assert_eq!(tree.roots(), paths(&["live/a", "live/b", "modules/unused"]));
        let closure: Vec<PathBuf> = tree.closure(Path::new("live/a")).into_iter().collect();
        assert_eq!(
            closure,
            paths(&["live/a", "modules/net", "modules/net/sub"])
        );
    }

    #[test]
    fn a_module_called_only_by_a_test_file_is_not_a_root() {
        let d = tempfile::tempdir().unwrap();
        let b = d.path();
        write(b, "main.tf", "variable \"x\" { default = 1 }\n");
        write(b, "tests/setup/main.tf", "output \"y\" { value = 1 }\n");
        write(
            b,
            "tests/a.tftest.hcl",
            "run \"setup\" {\n  module {\n    source = \"./tests/setup\"\n  }\n}\n",
        );
        let tree = ConfigTree::scan(b);
        assert_eq!(tree.roots(), paths(&[""]));
        let calls = &tree.dirs[Path::new("")].calls;
        assert_eq!(
            calls,
            &[LocalCall {
                dir: PathBuf::from("tests/setup"),
                from_test: true
            }]
        );
    }

    #[test]
    fn sources_from_variables_and_locals_are_followed() {
        let d = tempfile::tempdir().unwrap();
        let b = d.path();
        write(b, "root/main.tf", "variable \"dir\" {\n  type = string\n  default = \"../mods\"\n}\nlocals { name = \"x\" }\nmodule \"m\" { source = \"${var.dir}/${local.name}\" }\n");
        write(b, "mods/x/main.tf", "variable \"v\" { default = 1 }\n");
        write(
            b,
            "other/main.tf",
            "variable \"dir\" { type = string }\nmodule \"m\" { source = var.dir }\n",
        );
        let tree = ConfigTree::scan(b);
        assert_eq!(tree.roots(), paths(&["other", "root"]));
        assert_eq!(
            tree.dirs[Path::new("root")].calls[0].dir,
            PathBuf::from("mods/x")
        );
        assert_eq!(
            tree.dirs[Path::new("other")].undecided_calls,
            vec!["m".to_string()]
        );
    }

    #[test]
    fn calls_outside_the_base_are_followed_but_never_roots() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            "shared/m/main.tf",
            "module \"deeper\" { source = \"../n\" }\n",
        );
        write(
            d.path(),
            "shared/n/main.tf",
            "variable \"x\" { default = 1 }\n",
        );
        write(
            d.path(),
            "repo/live/main.tf",
            "module \"m\" { source = \"../../shared/m\" }\n",
        );
        let tree = ConfigTree::scan(&d.path().join("repo"));
        assert_eq!(tree.roots(), paths(&["live"]));
        let closure: Vec<PathBuf> = tree.closure(Path::new("live")).into_iter().collect();
        assert_eq!(closure, paths(&["../shared/m", "../shared/n", "live"]));
    }

    #[test]
    fn a_cycle_of_local_calls_ends() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            "a/main.tf",
            "module \"b\" { source = \"../b\" }\n",
        );
        write(
            d.path(),
            "b/main.tf",
            "module \"a\" { source = \"../a\" }\n",
        );
        write(
            d.path(),
            "c/main.tf",
            "module \"self\" { source = \"./\" }\n",
        );
        let tree = ConfigTree::scan(d.path());
        // a and b call each other: neither is a root; c calls only itself.
        assert_eq!(tree.roots(), paths(&["c"]));
        assert_eq!(tree.closure(Path::new("a")).len(), 2);
    }

    #[test]
    fn unreadable_and_broken_directories_do_not_stop_the_scan() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "bad/main.tf", "module \"m\" {\n");
        write(
            d.path(),
            "good/main.tf",
            "module \"m\" { source = \"../missing\" }\n",
        );
        write(
            d.path(),
            "invalid/main.tf",
            "module \"m\" { source = \"ext::sh -c x\" }\n",
        );
        let tree = ConfigTree::scan(d.path());
        assert_eq!(tree.roots(), paths(&["bad", "good", "invalid"]));
        assert!(tree.dirs.contains_key(Path::new("missing")));
        // An invalid constant source calls nothing and is not undecided.
        assert!(tree.dirs[Path::new("invalid")].undecided_calls.is_empty());
        assert!(tree.dirs[Path::new("invalid")].calls.is_empty());
    }

    #[test]
    fn cleaning_is_lexical() {
        assert_eq!(clean(Path::new("a/./b/../c")), PathBuf::from("a/c"));
        assert_eq!(clean(Path::new("a/../../x")), PathBuf::from("../x"));
        assert_eq!(clean(Path::new("./")), PathBuf::from(""));
    }
}
