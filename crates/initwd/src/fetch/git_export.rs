//! Writing a commit's tree into a package directory straight from a bare
//! store, as a checkout would leave the work tree but without `.git`
//! (nothing after `init` reads it): blobs as files (the executable bit
//! from the tree's mode), symbolic links as links, and each gitlink as
//! an empty directory that the caller fills with the submodule's tree,
//! as `git submodule update --init --recursive` would.

use std::path::Path;

use git2::{ObjectType, Oid, Repository, Tree};

use super::git::git_err;
use crate::pathutil::path_error;

/// A submodule found in an exported tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Gitlink {
    /// Slash-separated path in the package.
    pub(crate) path: String,
    pub(crate) commit: Oid,
}

/// Why an export failed.
#[derive(Debug)]
pub(crate) enum ExportError {
    /// An object the tree needs is not in the store (a damaged store).
    MissingObject(String),
    /// Anything else: a tree git would refuse, a file that cannot be
    /// written.
    Failed(String),
}

impl From<String> for ExportError {
    fn from(e: String) -> ExportError {
        ExportError::Failed(e)
    }
}

impl ExportError {
    pub(crate) fn into_text(self) -> String {
        match self {
            ExportError::MissingObject(e) | ExportError::Failed(e) => e,
        }
    }
}

fn missing(e: git2::Error) -> ExportError {
    ExportError::MissingObject(git_err("git checkout", e))
}

/// Writes commit `commit`'s tree into `dst` (created if missing; files
/// already there are not expected) and returns its gitlinks.
pub(crate) fn export_commit(
    repo: &Repository,
    commit: Oid,
    dst: &Path,
) -> Result<Vec<Gitlink>, ExportError> {
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree())
        .map_err(missing)?;
    std::fs::create_dir_all(dst)
        .map_err(|e| path_error("mkdir", &dst.display().to_string(), &e))?;
    let mut links = Vec::new();
    write_tree(repo, &tree, dst, "", &mut links)?;
    Ok(links)
}

fn write_tree(
    repo: &Repository,
    tree: &Tree<'_>,
    dir: &Path,
    prefix: &str,
    links: &mut Vec<Gitlink>,
) -> Result<(), ExportError> {
    for entry in tree.iter() {
        let name = entry.name().map_err(|_| {
            format!(
                "git checkout: invalid path {}",
                String::from_utf8_lossy(entry.name_bytes())
            )
        })?;
        let rel = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}/{name}")
        };
        // What a checkout refuses: a name that would leave the directory
        // or write into `.git` (libgit2 and git reject these trees too).
        if name.is_empty()
            || name == "."
            || name == ".."
            || name.contains(['/', '\0'])
            || name.eq_ignore_ascii_case(".git")
        {
            return Err(format!("git checkout: invalid path '{rel}'").into());
        }
        let path = dir.join(name);
        let io = |op: &str, e: std::io::Error| path_error(op, &path.display().to_string(), &e);
        match (entry.kind(), entry.filemode()) {
            (Some(ObjectType::Tree), _) => {
                std::fs::create_dir(&path).map_err(|e| io("mkdir", e))?;
                let sub = repo.find_tree(entry.id()).map_err(missing)?;
                write_tree(repo, &sub, &path, &rel, links)?;
            }
            (Some(ObjectType::Commit), _) => {
                std::fs::create_dir(&path).map_err(|e| io("mkdir", e))?;
                links.push(Gitlink {
                    path: rel,
                    commit: entry.id(),
                });
            }
            (Some(ObjectType::Blob), mode) => {
                let blob = repo.find_blob(entry.id()).map_err(missing)?;
                if mode == 0o120000 {
                    write_symlink(blob.content(), &path).map_err(|e| io("symlink", e))?;
                } else {
                    std::fs::write(&path, blob.content()).map_err(|e| io("open", e))?;
                    if mode == 0o100755 {
                        set_executable(&path).map_err(|e| io("chmod", e))?;
                    }
                }
            }
            _ => return Err(format!("git checkout: invalid object at '{rel}'").into()),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn write_symlink(target: &[u8], path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(target), path)
}

/// Where links need privileges, git writes the target as a plain file
/// (`core.symlinks = false`).
#[cfg(not(unix))]
fn write_symlink(target: &[u8], path: &Path) -> std::io::Result<()> {
    std::fs::write(path, target)
}

/// As git checks out a `100755` blob: executable where readable.
#[cfg(unix)]
fn set_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode();
    std::fs::set_permissions(
        path,
        std::fs::Permissions::from_mode(mode | ((mode & 0o444) >> 2)),
    )
}

#[cfg(not(unix))]
fn set_executable(_: &Path) -> std::io::Result<()> {
    Ok(())
}
