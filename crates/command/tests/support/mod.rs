//! Helpers shared by the differential tests: finding the reference
//! `terraform` and copying a fixture into a scratch directory.
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
