//! Helpers shared by the command tests: finding the reference
//! `terraform`, copying a fixture into a scratch directory, and
//! committing to a test git repository.
#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};

/// `TERRAFORM=path`, else `terraform` on PATH; `None` means skip.
pub fn terraform() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TERRAFORM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("terraform"))
        .find(|p| p.is_file())
}

/// Copies the files and directories below `from` into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Writes `main.tf` in the work tree of `repo` (at `dir`) and commits it
/// on HEAD after `parent`; the new commit's id.
pub fn commit_main_tf(
    repo: &git2::Repository,
    dir: &Path,
    content: &str,
    parent: Option<git2::Oid>,
    message: &str,
) -> git2::Oid {
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    std::fs::write(dir.join("main.tf"), content).unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("main.tf")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let parents: Vec<git2::Commit<'_>> = parent
        .map(|p| repo.find_commit(p).unwrap())
        .into_iter()
        .collect();
    let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &refs)
        .unwrap()
}

/// What of a `validate -json` document both must agree on (severity,
/// summary, detail, address, range).
pub fn validate_view(doc: &serde_json::Value) -> serde_json::Value {
    let mut diags: Vec<serde_json::Value> = doc["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|d| {
            let mut view = serde_json::json!({
                "severity": d["severity"],
                "summary": d["summary"],
                "detail": d["detail"],
                "range": d.get("range").cloned().unwrap_or(serde_json::Value::Null),
            });
            // The object a provider's diagnostic is about (absent on the
            // others); a provider configuration's names each tool's
            // default registry.
            if let Some(a) = d["address"].as_str() {
                let a = a.replace("registry.terraform.io/", "registry.opentofu.org/");
                view["address"] = serde_json::Value::String(a);
            }
            view
        })
        .collect();
    diags.sort_by_key(|d| d.to_string());
    serde_json::json!({
        "valid": doc["valid"],
        "error_count": doc["error_count"],
        "warning_count": doc["warning_count"],
        "diagnostics": diags,
    })
}

pub mod testprovider;
