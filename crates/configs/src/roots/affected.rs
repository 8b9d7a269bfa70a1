//! The roots a change touches: a root is affected when a changed file
//! belongs to a directory of its configuration (itself, or a directory it
//! reaches through local module calls, test files' calls included).
//!
//! A file belongs to the nearest configuration directory above it, so a
//! module's `templates/` and a root's `tests/`, `.tfvars` and
//! `.terraform.lock.hcl` count for it. Files under hidden directories
//! (`.terraform/`, `.git/`, `.github/`) belong to no configuration, and
//! remote module sources are never affected by a local change.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::tree::{clean, ConfigTree};

/// A root and why it is affected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Affected {
    pub root: PathBuf,
    /// The changed files of its configuration (relative to the base).
    pub files: Vec<PathBuf>,
    /// Directories of its configuration whose module sources could not be
    /// decided: the root is listed for any change, since one of them may
    /// call what changed.
    pub undecided: Vec<PathBuf>,
}

/// The roots of `roots` affected by `changed` (paths relative to the base
/// of `tree`, or absolute under `base`), in root order.
pub fn affected_roots(
    tree: &ConfigTree,
    base: &Path,
    roots: &[PathBuf],
    changed: &[PathBuf],
) -> Vec<Affected> {
    // Resolved once: every absolute changed path is compared with it.
    let canonical_base = std::fs::canonicalize(base).ok();
    let owners: Vec<(PathBuf, PathBuf)> = changed
        .iter()
        .filter_map(|f| relative_to(canonical_base.as_deref(), f))
        .filter_map(|f| owner(tree, &f).map(|o| (f, o)))
        .collect();
    let any_change = !owners.is_empty();
    let mut out = Vec::new();
    for root in roots {
        let closure = tree.closure(root);
        let files: BTreeSet<PathBuf> = owners
            .iter()
            .filter(|(_, o)| closure.contains(o))
            .map(|(f, _)| f.clone())
            .collect();
        let undecided: Vec<PathBuf> = if any_change {
            closure
                .iter()
                .filter(|d| {
                    tree.dirs
                        .get(*d)
                        .is_some_and(|c| !c.undecided_calls.is_empty())
                })
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        if !files.is_empty() || !undecided.is_empty() {
            out.push(Affected {
                root: root.clone(),
                files: files.into_iter().collect(),
                undecided,
            });
        }
    }
    out
}

/// `file` relative to the base (given resolved), cleaned: an absolute path outside the base
/// gets leading `..` (a module the base's roots call from beside it, such
/// as `../modules/net`, is part of their configuration too).
fn relative_to(canonical_base: Option<&Path>, file: &Path) -> Option<PathBuf> {
    if !file.is_absolute() {
        return Some(clean(file));
    }
    let base = canonical_base?;
    let file = canonical_parent(file);
    let common = base
        .components()
        .zip(file.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in base.components().skip(common) {
        rel.push("..");
    }
    for c in file.components().skip(common) {
        rel.push(c);
    }
    Some(clean(&rel))
}

/// `file` with its existing parent directories resolved (the file itself
/// may have been deleted).
fn canonical_parent(file: &Path) -> PathBuf {
    match (file.parent(), file.file_name()) {
        (Some(parent), Some(name)) => std::fs::canonicalize(parent)
            .map(|p| p.join(name))
            .unwrap_or_else(|_| file.to_path_buf()),
        _ => file.to_path_buf(),
    }
}

/// The configuration directory `file` belongs to: the nearest one above
/// it. A hidden directory on the way (`.terraform`, `.git`) belongs to no
/// configuration; of hidden files only the lock file counts.
fn owner(tree: &ConfigTree, file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?;
    if name.starts_with('.') && name != ".terraform.lock.hcl" {
        return None;
    }
    // Above `../x`, only `..` (or the base, for a file outside it) is
    // left: no configuration directory there holds the file.
    let ups = file
        .components()
        .take_while(|c| matches!(c, std::path::Component::ParentDir))
        .count();
    let mut dir = file.parent();
    while let Some(d) = dir {
        if ups > 0 && d.components().count() <= ups {
            return None;
        }
        if hidden(d.file_name()) {
            return None;
        }
        if tree.dirs.contains_key(d) {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// A hidden directory name (`..` on a path leading outside the base is
/// not one).
fn hidden(name: Option<&std::ffi::OsStr>) -> bool {
    name.and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') && n != "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(base: &Path, rel: &str, text: &str) {
        let p = base.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// live/a and live/b call modules/net; live/c calls a remote module
    /// only; modules/net calls its sub-module.
    fn repo() -> (tempfile::TempDir, ConfigTree, Vec<PathBuf>) {
        let d = tempfile::tempdir().unwrap();
        let b = d.path();
        write(
            b,
            "live/a/main.tf",
            "module \"n\" { source = \"../../modules/net\" }\n",
        );
        write(
            b,
            "live/b/main.tf",
            "module \"n\" { source = \"../../modules/net\" }\n",
        );
        write(
            b,
            "live/c/main.tf",
            "module \"r\" { source = \"git::https://example.com/r.git\" }\n",
        );
        write(
            b,
            "modules/net/main.tf",
            "module \"s\" { source = \"./sub\" }\n",
        );
        write(
            b,
            "modules/net/sub/main.tf",
            "variable \"x\" { default = 1 }\n",
        );
        let tree = ConfigTree::scan(b);
        let roots = tree.roots();
        (d, tree, roots)
    }

    fn names(list: &[Affected]) -> Vec<String> {
        list.iter().map(|a| a.root.display().to_string()).collect()
    }

    fn changed(files: &[&str]) -> Vec<PathBuf> {
        files.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn a_shared_module_change_affects_every_root_that_calls_it() {
        let (d, tree, roots) = repo();
        let hit = affected_roots(
            &tree,
            d.path(),
            &roots,
            &changed(&["modules/net/sub/main.tf"]),
        );
        assert_eq!(names(&hit), ["live/a", "live/b"]);
        assert_eq!(hit[0].files, changed(&["modules/net/sub/main.tf"]));
    }

    #[test]
    fn tfvars_tests_lock_files_and_templates_count_for_their_directory() {
        let (d, tree, roots) = repo();
        for f in [
            "live/a/prod.tfvars",
            "live/a/.terraform.lock.hcl",
            "live/a/tests/main.tftest.hcl",
            "live/a/templates/user_data.tpl",
        ] {
            let hit = affected_roots(&tree, d.path(), &roots, &changed(&[f]));
            assert_eq!(names(&hit), ["live/a"], "{f}");
        }
    }

    #[test]
    fn hidden_directories_and_files_outside_configurations_affect_nothing() {
        let (d, tree, roots) = repo();
        // Even when the base is a configuration directory itself, a file
        // beside it is not in it.
        write(d.path(), "main.tf", "variable \"top\" { default = 1 }\n");
        let with_top = ConfigTree::scan(d.path());
        let top_roots = with_top.roots();
        let hit = affected_roots(
            &with_top,
            d.path(),
            &top_roots,
            &changed(&["../outside/main.tf"]),
        );
        assert!(hit.is_empty(), "{hit:?}");
        for f in [
            "live/a/.terraform/modules/r/main.tf",
            ".github/workflows/ci.yml",
            "README.md",
            "live/a/.gitignore",
            "/elsewhere/main.tf",
            "../outside/main.tf",
        ] {
            let hit = affected_roots(&tree, d.path(), &roots, &changed(&[f]));
            assert!(hit.is_empty(), "{f}: {hit:?}");
        }
    }

    #[test]
    fn absolute_paths_under_the_base_and_deleted_files_count() {
        let (d, tree, roots) = repo();
        let abs = d.path().join("live/b/variables.tf");
        let hit = affected_roots(&tree, d.path(), &roots, &[abs]);
        assert_eq!(names(&hit), ["live/b"]);
        // From a subdirectory: a module beside it, reached by its roots.
        let live = d.path().join("live");
        let sub_tree = ConfigTree::scan(&live);
        let sub_roots = sub_tree.roots();
        let shared = d.path().join("modules/net/sub/main.tf");
        let hit = affected_roots(&sub_tree, &live, &sub_roots, &[shared]);
        assert_eq!(names(&hit), ["a", "b"]);
        let gone = affected_roots(
            &tree,
            d.path(),
            &roots,
            &changed(&["modules/net/removed.tf"]),
        );
        assert_eq!(names(&gone), ["live/a", "live/b"]);
    }

    #[test]
    fn an_undecided_source_makes_its_root_affected_by_any_change() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            "x/main.tf",
            "variable \"src\" { type = string }\nmodule \"m\" { source = var.src }\n",
        );
        write(d.path(), "y/main.tf", "variable \"v\" { default = 1 }\n");
        let tree = ConfigTree::scan(d.path());
        let roots = tree.roots();
        let hit = affected_roots(&tree, d.path(), &roots, &changed(&["y/main.tf"]));
        assert_eq!(names(&hit), ["x", "y"]);
        assert_eq!(hit[0].undecided, changed(&["x"]));
        assert!(affected_roots(&tree, d.path(), &roots, &[]).is_empty());
    }
}
