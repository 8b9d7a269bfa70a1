//! What a git ref resolved to, kept in the cache so that a ref that
//! cannot move (a tag, a full commit ID) needs no network on a later run.
//! Moving refs (branches, the default branch) are recorded too, for
//! inspection, but never trusted: they are resolved against the remote on
//! every run. Each record is one small JSON file replaced whole.

use serde_json::{json, Value};

use super::{sha256_hex, ModuleCache};

/// How a ref resolved, which says whether the answer can be reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RefKind {
    Tag,
    Commit,
    Branch,
    DefaultBranch,
    /// Anything else (an abbreviated commit ID, `HEAD~1`, a name both a
    /// branch and a tag use): re-resolved every run.
    Other,
}

impl RefKind {
    /// Whether the resolution can be reused without asking the remote.
    pub(crate) fn is_immutable(self) -> bool {
        matches!(self, RefKind::Tag | RefKind::Commit)
    }

    fn name(self) -> &'static str {
        match self {
            RefKind::Tag => "tag",
            RefKind::Commit => "commit",
            RefKind::Branch => "branch",
            RefKind::DefaultBranch => "default-branch",
            RefKind::Other => "other",
        }
    }

    fn from_name(s: &str) -> Option<RefKind> {
        Some(match s {
            "tag" => RefKind::Tag,
            "commit" => RefKind::Commit,
            "branch" => RefKind::Branch,
            "default-branch" => RefKind::DefaultBranch,
            "other" => RefKind::Other,
            _ => return None,
        })
    }
}

/// A recorded resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RefRecord {
    pub(crate) commit: String,
    pub(crate) kind: RefKind,
}

impl ModuleCache {
    fn ref_path(&self, url: &str, reference: &str, shallow: bool) -> std::path::PathBuf {
        // `?depth=` resolves branches before tags, so it is part of the key.
        let mode = if shallow { "shallow" } else { "full" };
        let h = sha256_hex(format!("{url}\0{reference}\0{mode}").as_bytes());
        self.root.join("git").join("refs").join(format!("{h}.json"))
    }

    /// The recorded resolution of `reference` in `url`, if any.
    pub(crate) fn git_ref(&self, url: &str, reference: &str, shallow: bool) -> Option<RefRecord> {
        let text = std::fs::read(self.ref_path(url, reference, shallow)).ok()?;
        let v: Value = serde_json::from_slice(&text).ok()?;
        if v["ref"].as_str() != Some(reference) {
            return None;
        }
        let commit = v["commit"].as_str()?;
        if commit.len() != 40 || !commit.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        Some(RefRecord {
            commit: commit.to_string(),
            kind: RefKind::from_name(v["kind"].as_str()?)?,
        })
    }

    /// Records a resolution; failing to is only a missed shortcut later.
    pub(crate) fn record_git_ref(
        &self,
        url: &str,
        reference: &str,
        shallow: bool,
        rec: &RefRecord,
    ) {
        let path = self.ref_path(url, reference, shallow);
        let doc = json!({
            "url": crate::fetch::redact_in(url),
            "ref": reference,
            "shallow": shallow,
            "commit": rec.commit,
            "kind": rec.kind.name(),
        });
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = crate::atomic_file::write_atomic(&path, doc.to_string().as_bytes());
    }
}
