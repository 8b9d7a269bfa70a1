//! A scratch area for the hostile-archive tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub use unpack::testing::*;

/// A scratch area: `dst` to unpack into and a `sentinel` directory
/// beside it holding one file, so a test can tell nothing outside the
/// destination was written.
pub struct Scratch {
    pub tmp: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("sentinel")).unwrap();
        std::fs::write(tmp.path().join("sentinel/keep"), "keep").unwrap();
        Scratch { tmp }
    }

    pub fn dst(&self) -> PathBuf {
        self.tmp.path().join("dst")
    }

    pub fn sentinel(&self) -> PathBuf {
        self.tmp.path().join("sentinel")
    }

    /// Asserts that only `dst` and the untouched sentinel exist.
    pub fn assert_nothing_outside(&self) {
        let mut top: Vec<String> = std::fs::read_dir(self.tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        top.sort();
        top.retain(|n| n != "dst" && n != "archive");
        assert_eq!(top, ["sentinel"], "something was written beside dst");
        let inside: Vec<_> = std::fs::read_dir(self.sentinel()).unwrap().collect();
        assert_eq!(inside.len(), 1, "something was written into the sentinel");
        assert_eq!(
            std::fs::read_to_string(self.sentinel().join("keep")).unwrap(),
            "keep"
        );
    }

    /// Writes `bytes` as the archive file and unpacks it with `format`.
    pub fn unpack(&self, format: unpack::Format, bytes: &[u8]) -> Result<(), String> {
        let archive = self.tmp.path().join("archive");
        std::fs::write(&archive, bytes).unwrap();
        unpack::unpack_file(format, &archive, &self.dst(), &mut ()).map_err(|e| e.to_string())
    }

    pub fn archive_label(&self) -> String {
        self.tmp.path().join("archive").display().to_string()
    }
}

pub fn is_regular_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_file())
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}
