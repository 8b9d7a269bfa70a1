//! Filesystem mirrors (`filesystem_mirror_source.go`,
//! `filesystem_search.go`): `HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`
//! (packed) and `HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/` (unpacked).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use addrs::{Hostname, Provider};

use crate::errors::SourceError;
use crate::meta::{package_filename, PackageLocation, PackageMeta};
use crate::platform::Platform;
use crate::source::{Source, Warnings};
use crate::version::Version;

/// Every package found under a mirror directory, per provider.
pub type PackageIndex = BTreeMap<Provider, Vec<PackageMeta>>;

/// A local directory of provider packages.
pub struct FilesystemMirrorSource {
    base: PathBuf,
    index: OnceLock<Result<PackageIndex, String>>,
}

impl FilesystemMirrorSource {
    pub fn new(base: impl Into<PathBuf>) -> FilesystemMirrorSource {
        FilesystemMirrorSource {
            base: base.into(),
            index: OnceLock::new(),
        }
    }

    /// `AllAvailablePackages`, scanned once.
    pub fn all_available_packages(&self) -> Result<&PackageIndex, SourceError> {
        self.index
            .get_or_init(|| search_local_directory(&self.base))
            .as_ref()
            .map_err(|e| SourceError::Other(e.clone()))
    }
}

impl Source for FilesystemMirrorSource {
    fn available_versions(
        &self,
        provider: &Provider,
    ) -> Result<(Vec<Version>, Warnings), SourceError> {
        let index = self.all_available_packages()?;
        let mut out: Vec<Version> = index
            .get(provider)
            .into_iter()
            .flatten()
            .map(|m| m.version.clone())
            .collect();
        out.sort();
        out.dedup();
        Ok((out, Vec::new()))
    }

    fn package_meta(
        &self,
        provider: &Provider,
        version: &Version,
        target: &Platform,
    ) -> Result<PackageMeta, SourceError> {
        let index = self.all_available_packages()?;
        let found = index
            .get(provider)
            .into_iter()
            .flatten()
            .find(|m| m.version == *version && m.target_platform == *target);
        found
            .cloned()
            .ok_or_else(|| SourceError::PlatformNotSupported {
                provider: provider.to_string(),
                version: version.to_string(),
                platform: target.to_string(),
                mirror_url: None,
            })
    }

    fn for_display(&self, _provider: &Provider) -> String {
        self.base.display().to_string()
    }
}

/// `SearchLocalDirectory`: walks `base` for both layouts. The base may be
/// a symlink; symlinks below it are followed only at the package level,
/// so the walk cannot loop. Malformed paths are skipped, as OpenTofu
/// skips them (with a log line we do not have).
pub fn search_local_directory(base: &Path) -> Result<PackageIndex, String> {
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let mut out = PackageIndex::new();
    for (host_name, host_dir) in subdirs(&base)? {
        let Ok(hostname) = Hostname::for_comparison(&host_name) else {
            continue;
        };
        for (ns, ns_dir) in subdirs(&host_dir)? {
            let legacy = ns == addrs::LEGACY_PROVIDER_NAMESPACE;
            if !legacy && addrs::parse_provider_part(&ns).is_err() {
                continue;
            }
            if legacy && hostname.as_str() != addrs::DEFAULT_PROVIDER_REGISTRY_HOST {
                continue;
            }
            for (ty, type_dir) in subdirs(&ns_dir)? {
                if addrs::parse_provider_part(&ty).is_err() {
                    continue;
                }
                let provider = Provider::new(hostname.clone(), &ns, &ty);
                let metas = scan_type_dir(&provider, &type_dir)?;
                if !metas.is_empty() {
                    out.entry(provider).or_default().extend(metas);
                }
            }
        }
    }
    for list in out.values_mut() {
        list.sort_by(|a, b| {
            a.target_platform
                .cmp(&b.target_platform)
                .then(a.version.cmp(&b.version))
        });
    }
    Ok(out)
}

/// Real directories (not symlinks) under `dir`, by name.
fn subdirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let mut out = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("cannot search {}: {e}", dir.display())),
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot search {}: {e}", dir.display()))?;
        if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            out.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            ));
        }
    }
    out.sort();
    Ok(out)
}

fn scan_type_dir(provider: &Provider, dir: &Path) -> Result<Vec<PackageMeta>, String> {
    let mut out = Vec::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot search {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot search {}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        // Stat, not Lstat: a package may be a link into another cache.
        let Ok(md) = std::fs::metadata(&path) else {
            continue;
        };
        if md.is_dir() {
            let Ok(version) = Version::parse(&name) else {
                continue;
            };
            for (plat, plat_dir) in linked_dirs(&path) {
                let Ok(platform) = Platform::parse(&plat) else {
                    continue;
                };
                out.push(PackageMeta {
                    provider: provider.clone(),
                    filename: package_filename(provider, &version, &platform),
                    version: version.clone(),
                    protocol_versions: Vec::new(),
                    target_platform: platform,
                    location: PackageLocation::LocalDir(plat_dir),
                    authentication: None,
                });
            }
        } else if let Some(meta) = packed_meta(provider, &name, &path) {
            out.push(meta);
        }
    }
    Ok(out)
}

/// Directories (following links) under a version directory.
fn linked_dirs(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            std::fs::metadata(e.path())
                .map(|m| m.is_dir())
                .unwrap_or(false)
        })
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    out
}

/// A packed `terraform-provider-TYPE_VERSION_OS_ARCH.zip`, matched
/// case-insensitively.
fn packed_meta(provider: &Provider, name: &str, path: &Path) -> Option<PackageMeta> {
    let norm = name.to_lowercase();
    let prefix = format!("terraform-provider-{}_", provider.type_name);
    let info = norm.strip_prefix(&prefix)?.strip_suffix(".zip")?;
    let parts: Vec<&str> = info.split('_').collect();
    if parts.len() < 3 {
        return None;
    }
    let version = Version::parse(parts[0]).ok()?;
    let platform = Platform::parse(&format!("{}_{}", parts[1], parts[2])).ok()?;
    Some(PackageMeta {
        provider: provider.clone(),
        version,
        protocol_versions: Vec::new(),
        target_platform: platform,
        filename: norm.clone(),
        location: PackageLocation::LocalArchive(path.to_path_buf()),
        authentication: None,
    })
}
