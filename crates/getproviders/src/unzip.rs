//! Unpacking a provider zip (through the `unpack` crate, which holds the
//! escape checks for every archive tofu-rs unpacks) while computing the
//! package's `h1:` hash in the same pass, from the bytes as they are
//! written, so a freshly unpacked package is never read back.

use std::collections::HashSet;
use std::path::Path;

use sha2::{Digest, Sha256};
use unpack::{EntryKind, Format, Watch};

use crate::hash::{hash1, Hash};

/// Unpacks the zip at `zip_path` into `dst`, which must exist and be empty.
pub fn unpack_zip(zip_path: &Path, dst: &Path) -> Result<(), String> {
    unpack_zip_hashed(zip_path, dst).map(|_| ())
}

/// [`unpack_zip`], returning the `h1:` hash when it is the same for the
/// archive and for the unpacked directory, which is so when the archive
/// holds only regular files under plain names (no directory entries,
/// links, `./` or duplicates): what provider packages hold. `None`
/// otherwise, and the caller hashes the way OpenTofu does.
pub fn unpack_zip_hashed(zip_path: &Path, dst: &Path) -> Result<Option<Hash>, String> {
    let mut hasher = Hasher {
        sums: Some(Vec::new()),
        names: HashSet::new(),
        current: None,
    };
    unpack::unpack_file(Format::Zip, zip_path, dst, &mut hasher).map_err(|e| e.to_string())?;
    hasher.finish();
    hasher.sums.map(hash1).transpose()
}

/// The `(name, SHA-256)` list `h1:` is made of, given up (`None`) at the
/// first entry that would make the archive's and the directory's hash
/// differ.
struct Hasher {
    sums: Option<Vec<(String, [u8; 32])>>,
    names: HashSet<String>,
    current: Option<(String, Sha256)>,
}

impl Hasher {
    fn finish(&mut self) {
        if let (Some((name, h)), Some(sums)) = (self.current.take(), self.sums.as_mut()) {
            sums.push((name, h.finalize().into()));
        }
    }
}

impl Watch for Hasher {
    fn entry(&mut self, name: &str, rel: &Path, kind: EntryKind) {
        self.finish();
        let plain = kind == EntryKind::File
            && rel.to_str() == Some(name)
            && !name.contains('\\')
            && self.names.insert(name.to_string());
        if plain && self.sums.is_some() {
            self.current = Some((name.to_string(), Sha256::new()));
        } else {
            self.sums = None;
        }
    }

    fn data(&mut self, chunk: &[u8]) {
        if let Some((_, h)) = &mut self.current {
            h.update(chunk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash computed while unpacking is the one OpenTofu computes from
    /// the archive and from the directory; archives where those could
    /// differ get no hash.
    #[test]
    fn hash_in_the_same_pass() {
        use crate::hash::{package_hash_v1, package_hash_v1_zip};
        use crate::testing::{zip_of, ZipEntry};
        let plain = zip_of(&[
            ZipEntry::file("terraform-provider-x_v1.0.0", b"#!/bin/sh\n", 0o755),
            ZipEntry::file("docs/README.md", &[7u8; 3 << 20], 0o644),
        ]);
        let with_dir = zip_of(&[
            ZipEntry::file("terraform-provider-x_v1.0.0", b"#!/bin/sh\n", 0o755),
            ZipEntry::file("./README.md", b"x", 0o644),
        ]);
        let with_link = zip_of(&[
            ZipEntry::file("terraform-provider-x_v1.0.0", b"#!/bin/sh\n", 0o755),
            ZipEntry::link("alias", "terraform-provider-x_v1.0.0"),
        ]);
        for (zip, want_hash) in [(plain, true), (with_dir, false), (with_link, false)] {
            let tmp = tempfile::tempdir().unwrap();
            let zip_path = tmp.path().join("p.zip");
            std::fs::write(&zip_path, &zip).unwrap();
            let dst = tmp.path().join("out");
            std::fs::create_dir(&dst).unwrap();
            let got = unpack_zip_hashed(&zip_path, &dst).unwrap();
            assert_eq!(got.is_some(), want_hash);
            if let Some(h) = got {
                assert_eq!(h, package_hash_v1(&dst).unwrap());
                assert_eq!(h, package_hash_v1_zip(&zip_path).unwrap());
            }
        }
    }
}
