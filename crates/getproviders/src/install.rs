//! Installing one package into a provider directory such as
//! `.terraform/providers` (`providercache/package_install.go`): fetch or
//! open it, verify it, and put it at
//! `<base>/<host>/<namespace>/<type>/<version>/<os_arch>` atomically —
//! unpacked (or linked) into a temporary sibling first and renamed into
//! place, so a failure at any step leaves the previous installation as
//! it was.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::auth::{AuthResult, PackageAuthentication};
use crate::hash::{hash_matches, package_hash_v1, Hash, HashingWriter, LocalPackage, SCHEME_ZIP};
use crate::http::HttpClient;
use crate::meta::{unpacked_directory_path, PackageLocation, PackageMeta};
use crate::unzip::unpack_zip_hashed;

/// Why a package was not installed, with OpenTofu's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallError(pub String);

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InstallError {}

impl From<String> for InstallError {
    fn from(s: String) -> Self {
        InstallError(s)
    }
}

/// A package in place.
#[derive(Debug, Clone)]
pub struct Installed {
    /// `<base>/<host>/<namespace>/<type>/<version>/<os_arch>`.
    pub dir: PathBuf,
    /// The `h1:` hash of what was installed.
    pub hash: Hash,
    /// What authentication established; `None` when the source offered
    /// nothing to check (a filesystem mirror).
    pub auth: Option<AuthResult>,
    /// The hashes the lock file should record for this version: the new
    /// `h1:`, the previously locked ones, and what a signed (or
    /// legitimately unsigned) registry reported, sorted.
    pub lock_hashes: Vec<Hash>,
}

impl Installed {
    /// `init`'s parenthesis: `signed, key ID 0C0AF313E5FD9F80`,
    /// `verified checksum`, `unauthenticated`, ...
    pub fn auth_description(&self) -> String {
        match &self.auth {
            Some(a) if a.signed() => format!("{}, key ID {}", a.summary(), a.key_ids_string()),
            Some(a) => a.summary().to_string(),
            None => "unauthenticated".to_string(),
        }
    }
}

/// Installs `meta` under `base`. `allowed_hashes` are the lock file's
/// hashes for this version (empty when nothing is locked yet).
pub fn install_package(
    meta: &PackageMeta,
    base: &Path,
    allowed_hashes: &[Hash],
    http: &HttpClient,
) -> Result<Installed, InstallError> {
    let final_dir =
        unpacked_directory_path(base, &meta.provider, &meta.version, &meta.target_platform);
    let parent = final_dir
        .parent()
        .expect("unpacked_directory_path always has a parent");
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("failed to create {}: {e}", parent.display()))?;
    let (auth, hash) = match &meta.location {
        PackageLocation::HttpUrl(url) => {
            // Downloaded beside the package directory under a staging
            // name (OpenTofu uses the system's temporary directory): a
            // killed run's partial download is then removed by the next
            // installation of this version instead of staying in /tmp.
            let mut tmp = tempfile::Builder::new()
                .prefix(".tmp-download-")
                .tempfile_in(parent)
                .map_err(|e| {
                    format!("failed to open temporary file to download from {url}: {e}")
                })?;
            // Hashed on the way in: checking it against SHA256SUMS then
            // needs no second read of the archive.
            let mut hashing = HashingWriter::new(tmp.as_file_mut());
            http.download(url, &mut hashing)?;
            let zh = hashing.zip_hash();
            let pkg = LocalPackage::HashedZip(tmp.path(), &zh);
            install_archive(meta, pkg, &final_dir, allowed_hashes, "current")?
        }
        PackageLocation::LocalArchive(zip) => install_archive(
            meta,
            LocalPackage::Zip(zip),
            &final_dir,
            allowed_hashes,
            "current",
        )?,
        PackageLocation::LocalDir(src) => {
            (install_dir(meta, src, &final_dir, allowed_hashes)?, None)
        }
    };
    finish(meta, final_dir, auth, allowed_hashes, hash)
}

fn authenticate(
    auth: Option<&PackageAuthentication>,
    local: LocalPackage<'_>,
) -> Result<Option<AuthResult>, InstallError> {
    Ok(auth.map(|a| a.authenticate(local)).transpose()?)
}

/// Verifies and unpacks an archive into a staging directory beside
/// `final_dir`, computing its `h1:` hash in the same pass; the lock
/// file's hashes are checked before the staged copy is moved into place
/// (a mismatch removes it). Returns what authentication established and
/// the hash, when unpacking could compute it.
fn install_archive(
    meta: &PackageMeta,
    pkg: LocalPackage<'_>,
    final_dir: &Path,
    allowed: &[Hash],
    which: &str,
) -> Result<(Option<AuthResult>, Option<Hash>), InstallError> {
    let zip = pkg.path();
    let auth = authenticate(meta.authentication.as_ref(), pkg)?;
    let parent = final_dir.parent().expect("package dir has a parent");
    let staged = staging_dir(parent)?;
    let h1 = unpack_zip_hashed(zip, staged.path()).map_err(|e| {
        InstallError(format!(
            "failed to unpack provider package {}: {e}",
            meta.location
        ))
    })?;
    if !allowed.is_empty() {
        let ok = match &h1 {
            Some(h) if allowed.contains(h) => Ok(true),
            // The h1: hash is known not to match; only zh: hashes can.
            Some(_) => {
                let zh: Vec<Hash> = allowed
                    .iter()
                    .filter(|h| h.scheme() == SCHEME_ZIP)
                    .cloned()
                    .collect();
                hash_matches(pkg, &zh)
            }
            None => hash_matches(pkg, allowed),
        }
        .map_err(|e| {
            format!(
                "failed to calculate checksum for {} {} package at {}: {e}",
                meta.provider, meta.version, meta.location
            )
        })?;
        if !ok {
            return Err(InstallError(format!(
                "the {which} package for {} {} doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification",
                meta.provider, meta.version
            )));
        }
    }
    set_dir_mode(staged.path())?;
    swap_into_place(staged.path(), final_dir)?;
    Ok((auth, h1))
}

fn install_dir(
    meta: &PackageMeta,
    src: &Path,
    final_dir: &Path,
    allowed: &[Hash],
) -> Result<Option<AuthResult>, InstallError> {
    let abs_src = std::fs::canonicalize(src)
        .map_err(|e| format!("failed to make source path {} absolute: {e}", src.display()))?;
    if std::fs::canonicalize(final_dir).is_ok_and(|p| p == abs_src) {
        return Err(InstallError(format!(
            "cannot install existing provider directory {} to itself",
            final_dir.display()
        )));
    }
    let auth = authenticate(meta.authentication.as_ref(), LocalPackage::Dir(src))?;
    // `zh:` hashes cannot be checked against a directory; a set of only
    // those is treated as no hashes, as OpenTofu does.
    if allowed.iter().any(|h| h.scheme() != SCHEME_ZIP) {
        let ok = hash_matches(LocalPackage::Dir(src), allowed).map_err(|e| {
            format!(
                "failed to calculate checksum for {} {} package at {}: {e}",
                meta.provider, meta.version, meta.location
            )
        })?;
        if !ok {
            return Err(InstallError(format!(
                "the local package for {} {} doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification",
                meta.provider, meta.version
            )));
        }
    }
    link_or_copy(&abs_src, final_dir)?;
    Ok(auth)
}

/// Symlinks `final_dir` to `src` (absolute, so moving the working
/// directory keeps it valid), or copies where links are not possible.
pub(crate) fn link_or_copy(src: &Path, final_dir: &Path) -> Result<(), InstallError> {
    let parent = final_dir.parent().expect("package dir has a parent");
    std::fs::create_dir_all(parent).map_err(|e| {
        format!(
            "failed to create parent directories leading to {}: {e}",
            final_dir.display()
        )
    })?;
    #[cfg(unix)]
    {
        let link = parent.join(format!(".tmp-link-{}", unique_suffix()));
        if std::os::unix::fs::symlink(src, &link).is_ok() {
            return swap_into_place(&link, final_dir).inspect_err(|_| {
                let _ = std::fs::remove_file(&link);
            });
        }
    }
    let staged = staging_dir(parent)?;
    copy_dir(src, staged.path()).map_err(|e| {
        format!(
            "failed to either symlink or copy {} to {}: {e}",
            src.display(),
            final_dir.display()
        )
    })?;
    set_dir_mode(staged.path())?;
    swap_into_place(staged.path(), final_dir)
}

/// `hash` is the package's `h1:` when unpacking computed it; otherwise
/// the installed directory is hashed.
fn finish(
    meta: &PackageMeta,
    dir: PathBuf,
    auth: Option<AuthResult>,
    prior: &[Hash],
    hash: Option<Hash>,
) -> Result<Installed, InstallError> {
    let hash = hash
        .map(Ok)
        .unwrap_or_else(|| package_hash_v1(&dir))
        .map_err(|e| {
            format!(
                "failed to compute a checksum for {} {} at {}: {e}",
                meta.provider,
                meta.version,
                dir.display()
            )
        })?;
    let mut lock_hashes = vec![hash.clone()];
    lock_hashes.extend(prior.iter().cloned());
    if let Some(a) = &auth {
        lock_hashes.extend(a.trusted_upstream_hashes());
    }
    lock_hashes.sort();
    lock_hashes.dedup();
    Ok(Installed {
        dir,
        hash,
        auth,
        lock_hashes,
    })
}

/// What installations put beside package directories while they work:
/// staging directories and links being swapped in (`.tmp-`), replaced
/// packages on their way out (`.old-`). None parses as a platform, so no
/// scan mistakes one for a package.
const WORK_PREFIXES: [&str; 2] = [".tmp-", ".old-"];

/// Removes what interrupted installations left in `version_dir`, the
/// directory holding a version's package directories. Only for callers
/// holding the lock that serialises installations there (the plugin
/// cache's per-version lock, `init`'s working-directory lock): another
/// installer's staging would go too.
pub fn remove_stale_staging(version_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(version_dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !WORK_PREFIXES.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        let path = e.path();
        let _ = match std::fs::symlink_metadata(&path) {
            Ok(md) if md.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
    }
}

/// [`remove_stale_staging`] in every version directory of a provider
/// directory such as `.terraform/providers`
/// (`<base>/<host>/<namespace>/<type>/<version>`), for a caller holding
/// the lock on all of it.
pub fn remove_stale_staging_in_tree(base: &Path) {
    let mut level = vec![base.to_path_buf()];
    for _ in 0..4 {
        level = level
            .iter()
            .filter_map(|d| std::fs::read_dir(d).ok())
            .flat_map(|rd| rd.flatten().map(|e| e.path()))
            .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
            .collect();
    }
    for version_dir in level {
        remove_stale_staging(&version_dir);
    }
}

/// A temporary directory beside the target, on the same file system so
/// the final rename is atomic. Its name never parses as a platform, so a
/// scan of the directory ignores it while it exists.
fn staging_dir(parent: &Path) -> Result<tempfile::TempDir, InstallError> {
    tempfile::Builder::new()
        .prefix(".tmp-")
        .tempdir_in(parent)
        .map_err(|e| {
            InstallError(format!(
                "failed to create a directory in {}: {e}",
                parent.display()
            ))
        })
}

fn unique_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{}-{nanos}", std::process::id())
}

/// Replaces whatever is at `dst` by `staged`: the old entry is renamed
/// aside, the new one renamed in, and the old one removed; if the second
/// rename fails the old entry is put back.
fn swap_into_place(staged: &Path, dst: &Path) -> Result<(), InstallError> {
    let rename_err = |e: std::io::Error| {
        InstallError(format!(
            "failed to move {} into place at {}: {e}",
            staged.display(),
            dst.display()
        ))
    };
    let Ok(old_md) = std::fs::symlink_metadata(dst) else {
        return std::fs::rename(staged, dst).map_err(rename_err);
    };
    let parent = dst.parent().expect("package dir has a parent");
    let backup = parent.join(format!(".old-{}", unique_suffix()));
    std::fs::rename(dst, &backup).map_err(rename_err)?;
    if let Err(e) = std::fs::rename(staged, dst) {
        let _ = std::fs::rename(&backup, dst);
        return Err(rename_err(e));
    }
    let _ = if old_md.is_dir() {
        std::fs::remove_dir_all(&backup)
    } else {
        std::fs::remove_file(&backup)
    };
    Ok(())
}

fn set_dir_mode(dir: &Path) -> Result<(), InstallError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| InstallError(format!("{}: {e}", dir.display())))?;
    }
    let _ = dir;
    Ok(())
}

/// A deep copy that keeps file modes and recreates links.
fn copy_dir(src: &Path, dst: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(src)? {
        let entry = entry?;
        let from = entry.path();
        let to = dst.join(entry.file_name());
        let ft = entry.file_type()?;
        if ft.is_dir() {
            std::fs::create_dir_all(&to)?;
            copy_dir(&from, &to)?;
        } else if ft.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(&from)?, &to)?;
            #[cfg(not(unix))]
            std::fs::copy(&from, &to).map(|_| ())?;
        } else {
            std::fs::copy(&from, &to)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a killed install leaves beside a package goes; the package
    /// and other versions' packages stay.
    #[test]
    fn stale_staging_is_swept_in_every_version_directory() {
        let d = tempfile::tempdir().unwrap();
        let version = d.path().join("registry.opentofu.org/hashicorp/null/1.0.0");
        let other = d.path().join("registry.opentofu.org/hashicorp/null/2.0.0");
        for dir in [
            version.join("linux_amd64"),
            version.join(".tmp-AbC123/inner"),
            version.join(".old-1-2"),
            other.join("linux_amd64"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(version.join(".tmp-download-XyZ"), b"half a zip").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(version.join("linux_amd64"), version.join(".tmp-link-1-2"))
            .unwrap();
        std::fs::write(other.join(".tmp-download-Q"), b"").unwrap();
        remove_stale_staging_in_tree(d.path());
        let names = |dir: &Path| {
            let mut v: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(&version), ["linux_amd64"]);
        assert_eq!(names(&other), ["linux_amd64"]);
    }
}
