//! Unpacking a provider zip safely: no entry may land outside the target
//! (`..`, absolute names), no symlink may point outside it, no entry may
//! be written through a symlink, and file modes (the executable bit of
//! the provider binary) are kept.
//!
//! The package's `h1:` hash is computed in the same pass, from the bytes
//! as they are written, so a freshly unpacked package is never read back.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::hash::{hash1, Hash};

/// Read and write in large pieces: provider binaries are tens of MB.
const CHUNK: usize = 1 << 20;

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
    let f = std::fs::File::open(zip_path).map_err(|e| format!("{}: {e}", zip_path.display()))?;
    let f = std::io::BufReader::with_capacity(CHUNK, f);
    let mut archive =
        zip::ZipArchive::new(f).map_err(|e| format!("{}: {e}", zip_path.display()))?;
    let mut sums: Option<Vec<(String, [u8; 32])>> = Some(Vec::with_capacity(archive.len()));
    let mut buf = vec![0u8; CHUNK];
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| format!("{}: {e}", zip_path.display()))?;
        let name = entry.name().to_string();
        let rel = entry_rel_path(&name)?;
        let Some(rel) = rel else { continue };
        refuse_links_on_the_way(dst, &rel, &name)?;
        let path = dst.join(&rel);
        let mode = entry.unix_mode();
        let plain = rel.to_str() == Some(name.as_str()) && !name.contains('\\');
        if entry.is_dir() {
            sums = None;
            std::fs::create_dir_all(&path).map_err(|e| io_err(&path, e))?;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io_err(parent, e))?;
        }
        if mode.is_some_and(|m| m & 0o170000 == 0o120000) {
            let mut target = String::new();
            std::io::Read::read_to_string(&mut entry, &mut target)
                .map_err(|e| format!("reading link {name}: {e}"))?;
            make_link(dst, &rel, &target, &name)?;
            sums = None;
            continue;
        }
        // create_new: a duplicate entry is an error, never an overwrite.
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| io_err(&path, e))?;
        let mut hasher = Sha256::new();
        loop {
            let n = match entry.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_err(&path, e)),
            };
            hasher.update(&buf[..n]);
            out.write_all(&buf[..n]).map_err(|e| io_err(&path, e))?;
        }
        out.flush().map_err(|e| io_err(&path, e))?;
        set_mode(&path, mode.unwrap_or(0o644))?;
        match (&mut sums, plain) {
            (Some(list), true) => list.push((name, hasher.finalize().into())),
            _ => sums = None,
        }
    }
    sums.map(hash1).transpose()
}

fn io_err(p: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", p.display())
}

/// The entry's path relative to the target, or why it is refused.
fn entry_rel_path(name: &str) -> Result<Option<PathBuf>, String> {
    if name.split(['/', '\\']).any(|p| p == "..") {
        return Err(format!("entry contains '..': {name}"));
    }
    let p = Path::new(name);
    if p.is_absolute() || name.starts_with('/') || name.starts_with('\\') {
        return Err(format!("entry has an absolute path: {name}"));
    }
    let rel: PathBuf = p
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s),
            _ => None,
        })
        .collect();
    Ok((!rel.as_os_str().is_empty()).then_some(rel))
}

/// A later entry must not be written through a link an earlier one made.
fn refuse_links_on_the_way(dst: &Path, rel: &Path, name: &str) -> Result<(), String> {
    let mut cur = dst.to_path_buf();
    let Some(parent) = rel.parent() else {
        return Ok(());
    };
    for comp in parent.components() {
        cur.push(comp);
        if std::fs::symlink_metadata(&cur).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "entry {} passes through a symbolic link",
                addrs::go_quote(name)
            ));
        }
    }
    Ok(())
}

/// Whether `target`, relative to the link at `link_rel`, stays in the root.
fn link_stays_inside(link_rel: &Path, target: &str) -> bool {
    if Path::new(target).is_absolute() || target.starts_with('/') {
        return false;
    }
    let mut depth: i64 = link_rel.components().count() as i64 - 1;
    for part in target.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => depth += 1,
        }
    }
    true
}

fn make_link(dst: &Path, rel: &Path, target: &str, name: &str) -> Result<(), String> {
    if !link_stays_inside(rel, target) {
        return Err(format!(
            "entry {} is a symbolic link to {}, outside the package",
            addrs::go_quote(name),
            addrs::go_quote(target)
        ));
    }
    let path = dst.join(rel);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, &path).map_err(|e| io_err(&path, e))
    }
    #[cfg(not(unix))]
    {
        // Without symlinks, copy what the link names if it already exists.
        let src = path.parent().unwrap_or(dst).join(target);
        std::fs::copy(&src, &path)
            .map(|_| ())
            .map_err(|e| io_err(&path, e))
    }
}

fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The archive's permission bits exactly, as go-getter applies them
        // with OpenTofu's zero umask; never setuid/setgid/sticky.
        let perm = std::fs::Permissions::from_mode(mode & 0o777);
        std::fs::set_permissions(path, perm).map_err(|e| io_err(path, e))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets() {
        assert!(link_stays_inside(Path::new("a/link"), "../b"));
        assert!(link_stays_inside(Path::new("link"), "b/c"));
        assert!(!link_stays_inside(Path::new("link"), "../x"));
        assert!(!link_stays_inside(Path::new("a/link"), "../../x"));
        assert!(!link_stays_inside(Path::new("link"), "/etc/passwd"));
    }

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

    #[test]
    fn rel_paths() {
        assert!(entry_rel_path("../x").is_err());
        assert!(entry_rel_path("a/../../x").is_err());
        assert!(entry_rel_path("/etc/x").is_err());
        assert_eq!(
            entry_rel_path("./a/b").unwrap().unwrap(),
            PathBuf::from("a/b")
        );
    }
}
