//! Unpacking downloaded archives into a package directory (go-getter's
//! decompressors): zip, tar.gz / tgz, and plain tar.
//!
//! Unpacking is defensive: an entry whose name holds `..` is refused (as
//! go-getter refuses it), absolute names land under the target, and
//! symbolic links may only point inside the package; no entry may be
//! written through a link.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::pathutil::{path_error, symlink_stays_inside};

/// The archive formats this build can unpack (go-getter's names).
pub const SUPPORTED_FORMATS: [&str; 4] = ["zip", "tar.gz", "tgz", "tar"];

/// Unpacks `bytes`, an archive of `format`, into the directory `dst`.
pub fn unpack(format: &str, bytes: &[u8], dst: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dst)
        .map_err(|e| path_error("mkdir", &dst.display().to_string(), &e))?;
    match format {
        "zip" => unzip(bytes, dst),
        "tar.gz" | "tgz" => untar(flate2::read::GzDecoder::new(bytes), dst),
        "tar" => untar(bytes, dst),
        "gz" | "bz2" | "xz" => Err(format!(
            "{format}-compressed files can only unpack to a single file, not a module package directory"
        )),
        "tar.bz2" | "tar.tbz2" | "tar.xz" | "txz" => Err(format!(
            "archive format {} is not supported by this build of OpenTofu (supported: {})",
            addrs::go_quote(format),
            SUPPORTED_FORMATS.join(", ")
        )),
        other => Err(format!(
            "unknown archive format {}",
            addrs::go_quote(other)
        )),
    }
}

/// go-getter's `containsDotDot`.
fn contains_dot_dot(name: &str) -> bool {
    name.split(['/', '\\']).any(|p| p == "..")
}

/// Where an entry named `name` goes under `dst`, after the safety checks.
fn entry_path(dst: &Path, name: &str) -> Result<Option<(PathBuf, PathBuf)>, String> {
    if contains_dot_dot(name) {
        return Err(format!("entry contains '..': {name}"));
    }
    let rel: PathBuf = Path::new(name)
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p),
            _ => None,
        })
        .collect();
    if rel.as_os_str().is_empty() {
        return Ok(None);
    }
    // Refuse to write through a link an earlier entry created.
    let mut cur = dst.to_path_buf();
    if let Some(parent) = rel.parent() {
        for comp in parent.components() {
            cur.push(comp);
            if let Ok(m) = std::fs::symlink_metadata(&cur) {
                if m.file_type().is_symlink() {
                    return Err(format!(
                        "entry {} passes through a symbolic link",
                        addrs::go_quote(name)
                    ));
                }
            }
        }
    }
    Ok(Some((dst.join(&rel), rel)))
}

fn make_parent(path: &Path) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| path_error("mkdir", &parent.display().to_string(), &e))?;
    }
    Ok(())
}

fn write_file(path: &Path, mut r: impl Read, mode: Option<u32>) -> Result<(), String> {
    make_parent(path)?;
    let _ = std::fs::remove_file(path);
    let mut f = std::fs::File::create(path)
        .map_err(|e| path_error("open", &path.display().to_string(), &e))?;
    std::io::copy(&mut r, &mut f)
        .map_err(|e| format!("failed to write {}: {e}", path.display()))?;
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::PermissionsExt;
        let _ = f.set_permissions(std::fs::Permissions::from_mode(mode & 0o777 | 0o600));
    }
    #[cfg(not(unix))]
    let _ = mode;
    Ok(())
}

fn make_symlink(path: &Path, rel: &Path, target: &str, name: &str) -> Result<(), String> {
    if !symlink_stays_inside(rel, Path::new(target)) {
        return Err(format!(
            "symbolic link {} points to {}, outside of the module package",
            addrs::go_quote(name),
            addrs::go_quote(target)
        ));
    }
    make_parent(path)?;
    #[cfg(unix)]
    {
        let _ = std::fs::remove_file(path);
        std::os::unix::fs::symlink(target, path)
            .map_err(|e| path_error("symlink", &path.display().to_string(), &e))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Err(format!(
            "symbolic link {} cannot be created on this platform",
            addrs::go_quote(name)
        ))
    }
}

fn untar(r: impl Read, dst: &Path) -> Result<(), String> {
    let mut archive = tar::Archive::new(r);
    let entries = archive
        .entries()
        .map_err(|e| format!("failed to read tar archive: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("failed to read tar archive: {e}"))?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        if kind.is_pax_global_extensions()
            || kind.is_pax_local_extensions()
            || kind.is_gnu_longname()
            || kind.is_gnu_longlink()
        {
            continue;
        }
        let Some((path, rel)) = entry_path(dst, &name)? else {
            continue;
        };
        if kind.is_dir() {
            std::fs::create_dir_all(&path)
                .map_err(|e| path_error("mkdir", &path.display().to_string(), &e))?;
        } else if kind.is_symlink() {
            let target = entry
                .link_name()
                .map_err(|e| format!("failed to read tar archive: {e}"))?
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            make_symlink(&path, &rel, &target, &name)?;
        } else if kind.is_hard_link() {
            return Err(format!(
                "entry {} is a hard link, which module packages may not contain",
                addrs::go_quote(&name)
            ));
        } else if kind.is_file() || kind.is_contiguous() {
            let mode = entry.header().mode().ok();
            write_file(&path, &mut entry, mode)?;
        }
        // Devices, FIFOs and the like are skipped, as go-getter skips them.
    }
    Ok(())
}

fn unzip(bytes: &[u8], dst: &Path) -> Result<(), String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("failed to read zip archive: {e}"))?;
    if archive.is_empty() {
        return Err("empty archive".to_string());
    }
    for i in 0..archive.len() {
        let mut file = archive
            .by_index(i)
            .map_err(|e| format!("failed to read zip archive: {e}"))?;
        let name = file.name().to_string();
        let Some((path, rel)) = entry_path(dst, &name)? else {
            continue;
        };
        if file.is_dir() {
            std::fs::create_dir_all(&path)
                .map_err(|e| path_error("mkdir", &path.display().to_string(), &e))?;
        } else if file.is_symlink() {
            let mut target = String::new();
            file.read_to_string(&mut target)
                .map_err(|e| format!("failed to read zip archive: {e}"))?;
            make_symlink(&path, &rel, &target, &name)?;
        } else {
            let mode = file.unix_mode();
            write_file(&path, &mut file, mode)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn tar_gz(entries: &[(&str, tar::EntryType, &str)]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut b = tar::Builder::new(gz);
        for (name, kind, content) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(*kind);
            h.set_mode(0o644);
            // Write names raw so unsafe ones reach the unpacker.
            let bytes = name.as_bytes();
            h.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
            if kind.is_symlink() {
                h.set_link_name(content).unwrap();
                h.set_size(0);
                h.set_cksum();
                b.append(&h, std::io::empty()).unwrap();
            } else {
                h.set_size(content.len() as u64);
                h.set_cksum();
                b.append(&h, content.as_bytes()).unwrap();
            }
        }
        b.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn tar_gz_unpacks() {
        let bytes = tar_gz(&[
            ("mod/", tar::EntryType::Directory, ""),
            ("mod/main.tf", tar::EntryType::Regular, "# hi\n"),
            ("mod/link.tf", tar::EntryType::Symlink, "main.tf"),
        ]);
        let dir = tempfile::tempdir().unwrap();
        unpack("tgz", &bytes, dir.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("mod/main.tf")).unwrap(),
            "# hi\n"
        );
        #[cfg(unix)]
        assert_eq!(
            std::fs::read_to_string(dir.path().join("mod/link.tf")).unwrap(),
            "# hi\n"
        );
    }

    #[test]
    fn tar_refuses_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = tar_gz(&[("../evil.tf", tar::EntryType::Regular, "x")]);
        assert_eq!(
            unpack("tar.gz", &bytes, dir.path()).unwrap_err(),
            "entry contains '..': ../evil.tf"
        );
        let bytes = tar_gz(&[("link", tar::EntryType::Symlink, "../../etc")]);
        let err = unpack("tar.gz", &bytes, dir.path()).unwrap_err();
        assert!(err.contains("outside of the module package"), "{err}");
        let bytes = tar_gz(&[("abs", tar::EntryType::Symlink, "/etc/passwd")]);
        assert!(unpack("tar.gz", &bytes, dir.path()).is_err());
        // An absolute entry name lands inside the target.
        let bytes = tar_gz(&[("/abs.tf", tar::EntryType::Regular, "x")]);
        let dir2 = tempfile::tempdir().unwrap();
        unpack("tar.gz", &bytes, dir2.path()).unwrap();
        assert!(dir2.path().join("abs.tf").is_file());
    }

    #[cfg(unix)]
    #[test]
    fn tar_refuses_writing_through_links() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = tar_gz(&[
            ("l", tar::EntryType::Symlink, "."),
            ("l/x.tf", tar::EntryType::Regular, "x"),
        ]);
        let err = unpack("tar.gz", &bytes, dir.path()).unwrap_err();
        assert!(err.contains("passes through a symbolic link"), "{err}");
    }

    fn zip_bytes(entries: &[(&str, &str)]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default();
        for (name, content) in entries {
            w.start_file(*name, opts).unwrap();
            w.write_all(content.as_bytes()).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn zip_unpacks_and_refuses_dot_dot() {
        let dir = tempfile::tempdir().unwrap();
        unpack("zip", &zip_bytes(&[("a/main.tf", "y")]), dir.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/main.tf")).unwrap(),
            "y"
        );
        let err = unpack("zip", &zip_bytes(&[("a/../../x", "y")]), dir.path()).unwrap_err();
        assert_eq!(err, "entry contains '..': a/../../x");
        assert!(unpack("zip", b"garbage", dir.path()).is_err());
        assert!(unpack("tar.xz", b"", dir.path())
            .unwrap_err()
            .contains("not supported"));
    }
}
