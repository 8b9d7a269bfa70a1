//! `affected -git-base=REF`: the files that changed since a git revision,
//! read through libgit2 (no `git` executable needed).
//!
//! The comparison is CI's usual three-dot one: from the merge base of REF
//! and `HEAD` to the working tree (staged, unstaged and untracked files
//! included), so commits made on REF's branch after this branch left it do
//! not count. A rename counts as both of its paths.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use git2::{DiffOptions, Repository};

/// The changed files, as absolute paths under the repository's working
/// tree, or the reason they cannot be listed (in git's words where libgit2
/// gives them).
pub fn changed_since(dir: &Path, base: &str) -> Result<Vec<PathBuf>, String> {
    let repo = Repository::discover(dir).map_err(|e| {
        format!(
            "{} is not in a git repository: {}",
            dir.display(),
            e.message()
        )
    })?;
    let workdir = repo
        .workdir()
        .ok_or("the git repository is bare: it has no working tree to compare")?
        .to_path_buf();
    let base_commit = repo
        .revparse_single(base)
        .and_then(|o| o.peel_to_commit())
        .map_err(|e| format!("unknown git revision {base:?}: {}", e.message()))?;
    let from = match repo.head().and_then(|h| h.peel_to_commit()) {
        Ok(head) => {
            let oid = repo
                .merge_base(base_commit.id(), head.id())
                .map_err(|e| format!("no common ancestor of {base:?} and HEAD: {}", e.message()))?;
            repo.find_commit(oid).map_err(|e| e.message().to_string())?
        }
        // An unborn HEAD (no commit yet): compare with REF itself.
        Err(_) => base_commit,
    };
    let tree = from.tree().map_err(|e| e.message().to_string())?;
    let mut opts = DiffOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true);
    let diff = repo
        .diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts))
        .map_err(|e| format!("comparing with {base:?}: {}", e.message()))?;
    let mut files = BTreeSet::new();
    for delta in diff.deltas() {
        for file in [delta.old_file(), delta.new_file()] {
            if let Some(path) = file.path() {
                files.insert(workdir.join(path));
            }
        }
    }
    Ok(files.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Signature;

    fn commit_all(repo: &Repository, message: &str) -> git2::Oid {
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.update_all(["*"].iter(), None).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = Signature::now("t", "t@example.com").unwrap();
        let parents: Vec<git2::Commit<'_>> = repo
            .head()
            .ok()
            .and_then(|h| h.peel_to_commit().ok())
            .into_iter()
            .collect();
        let parents: Vec<&git2::Commit<'_>> = parents.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
            .unwrap()
    }

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn names(dir: &Path, files: &[PathBuf]) -> Vec<String> {
        let root = std::fs::canonicalize(dir).unwrap();
        files
            .iter()
            .map(|f| {
                let f = std::fs::canonicalize(f.parent().unwrap())
                    .unwrap()
                    .join(f.file_name().unwrap());
                f.strip_prefix(&root).unwrap().display().to_string()
            })
            .collect()
    }

    #[test]
    fn committed_staged_unstaged_untracked_and_deleted_files_since_the_merge_base() {
        let d = tempfile::tempdir().unwrap();
        let repo = Repository::init(d.path()).unwrap();
        write(d.path(), "a/main.tf", "# a\n");
        write(d.path(), "b/main.tf", "# b\n");
        write(d.path(), "gone.tf", "# gone\n");
        let first = commit_all(&repo, "first");
        repo.branch("base", &repo.find_commit(first).unwrap(), false)
            .unwrap();
        write(d.path(), "a/main.tf", "# a, committed\n");
        std::fs::remove_file(d.path().join("gone.tf")).unwrap();
        commit_all(&repo, "second");
        write(d.path(), "b/main.tf", "# b, unstaged\n");
        write(d.path(), "new/dir/main.tf", "# untracked\n");
        let files = changed_since(d.path(), "base").unwrap();
        assert_eq!(
            names(d.path(), &files),
            ["a/main.tf", "b/main.tf", "gone.tf", "new/dir/main.tf"]
        );
        // Nothing changed against HEAD's own commit but the working tree.
        let files = changed_since(&d.path().join("a"), "HEAD").unwrap();
        assert_eq!(names(d.path(), &files), ["b/main.tf", "new/dir/main.tf"]);
    }

    #[test]
    fn an_unknown_revision_and_a_directory_outside_git_are_errors() {
        let d = tempfile::tempdir().unwrap();
        let outside = changed_since(d.path(), "main").unwrap_err();
        assert!(outside.contains("is not in a git repository"), "{outside}");
        let repo = Repository::init(d.path()).unwrap();
        write(d.path(), "main.tf", "# x\n");
        commit_all(&repo, "first");
        let unknown = changed_since(d.path(), "no-such-branch").unwrap_err();
        assert!(
            unknown.starts_with("unknown git revision \"no-such-branch\""),
            "{unknown}"
        );
    }
}
