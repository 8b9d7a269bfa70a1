//! Which commit a git package address names, read from a synced store as
//! go-getter reads it from a fresh clone: with `?depth=`, `git clone
//! --depth N --branch REF` (a branch, else a tag, of the advertisement);
//! otherwise the default branch when there is no ref, else go-getter's
//! `checkout`, which tries `REF`, `refs/remotes/origin/REF` and
//! `refs/tags/REF` as `git rev-parse` would. The store keeps branches
//! where a clone keeps them (`refs/remotes/origin/*`), so the same names
//! resolve the same way.

use git2::Oid;

use super::git::{looks_like_commit_id, GitSource};
use super::git_store::Store;
use crate::module_cache::RefKind;

/// A resolved ref.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub(crate) commit: Oid,
    pub(crate) kind: RefKind,
}

/// The commit `src` names, or `None` for a repository with no default
/// branch and no ref asked for (an empty package, as a clone of an empty
/// repository leaves).
pub(crate) fn resolve(store: &mut Store<'_>, src: &GitSource) -> Result<Option<Resolved>, String> {
    let advert = store.sync()?;
    if src.depth > 0 {
        let want = if src.reference.is_empty() {
            advert
                .default_branch
                .clone()
                .unwrap_or_else(|| "master".to_string())
        } else {
            src.reference.clone()
        };
        let (local, kind) = if advert.has(&format!("refs/heads/{want}")) {
            let kind = if src.reference.is_empty() {
                RefKind::DefaultBranch
            } else {
                RefKind::Branch
            };
            (format!("refs/remotes/origin/{want}"), kind)
        } else if advert.has(&format!("refs/tags/{want}")) {
            (format!("refs/tags/{want}"), RefKind::Tag)
        } else {
            let mut msg = format!("git clone: Remote branch {want} not found in upstream origin");
            if !src.reference.is_empty() && looks_like_commit_id(&src.reference) {
                msg.push_str(
                    " (note that setting 'depth' requires 'ref' to be a branch or tag name)",
                );
            }
            return Err(msg);
        };
        let commit = store
            .ref_target(&local)
            .ok_or_else(|| format!("git clone: {local} not found after fetching"))?;
        return Ok(Some(Resolved { commit, kind }));
    }
    if src.reference.is_empty() {
        let Some(branch) = &advert.default_branch else {
            return Ok(None);
        };
        return Ok(store
            .ref_target(&format!("refs/remotes/origin/{branch}"))
            .map(|commit| Resolved {
                commit,
                kind: RefKind::DefaultBranch,
            }));
    }
    let r = src.reference.as_str();
    let commit = checkout_target(store, r)?;
    Ok(Some(Resolved {
        commit,
        kind: classify(store, r, commit),
    }))
}

/// go-getter's `checkout` target: `REF`, `refs/remotes/origin/REF`, then
/// `refs/tags/REF`, each as `git rev-parse --verify --end-of-options
/// REF^{commit}`; anything else is `invalid ref: "REF"`. A ref is never
/// an option (`?ref=--upload-pack=...` is a ref that does not resolve).
fn checkout_target(store: &Store<'_>, r: &str) -> Result<Oid, String> {
    let candidates = [
        r.to_string(),
        format!("refs/remotes/origin/{r}"),
        format!("refs/tags/{r}"),
    ];
    for candidate in &candidates {
        // revparse would read `-x` or `a..b` as syntax; only names and
        // commit IDs are refs here.
        if candidate.starts_with('-') || candidate.contains("..") {
            continue;
        }
        if let Ok(commit) = store
            .repo
            .revparse_single(candidate)
            .and_then(|o| o.peel_to_commit())
        {
            return Ok(commit.id());
        }
    }
    Err(format!("invalid ref: {}", addrs::go_quote(r)))
}

/// Whether `r`, resolved to `commit`, can move: a full commit ID and a
/// tag cannot (by the cache's contract; `-upgrade` re-reads them), a
/// branch can, and anything unclear is treated as moving.
fn classify(store: &Store<'_>, r: &str, commit: Oid) -> RefKind {
    if r.len() == 40 && looks_like_commit_id(r) && commit.to_string() == r.to_ascii_lowercase() {
        return RefKind::Commit;
    }
    if store.ref_target(&format!("refs/tags/{r}")) == Some(commit) {
        return RefKind::Tag;
    }
    if store.ref_target(&format!("refs/remotes/origin/{r}")) == Some(commit) {
        return RefKind::Branch;
    }
    RefKind::Other
}
