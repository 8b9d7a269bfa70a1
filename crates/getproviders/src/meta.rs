//! What a source says about one package: where it is and how to check it
//! (`getproviders.PackageMeta` and `PackageLocation`).

use std::fmt;
use std::path::PathBuf;

use addrs::Provider;

use crate::auth::PackageAuthentication;
use crate::platform::Platform;
use crate::version::Version;

/// Where a provider package can be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageLocation {
    /// A `.zip` distribution archive on disk.
    LocalArchive(PathBuf),
    /// An already-unpacked package directory on disk.
    LocalDir(PathBuf),
    /// An `http:`/`https:` URL of a `.zip` archive.
    HttpUrl(String),
}

impl fmt::Display for PackageLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackageLocation::LocalArchive(p) | PackageLocation::LocalDir(p) => {
                write!(f, "{}", p.display())
            }
            PackageLocation::HttpUrl(u) => f.write_str(u),
        }
    }
}

/// One provider package for one platform.
#[derive(Debug, Clone)]
pub struct PackageMeta {
    pub provider: Provider,
    pub version: Version,
    /// Plugin protocol versions the registry reported, if any.
    pub protocol_versions: Vec<Version>,
    pub target_platform: Platform,
    /// The distribution file name (`terraform-provider-null_3.2.0_linux_amd64.zip`).
    pub filename: String,
    pub location: PackageLocation,
    /// What to verify once the package is local; `None` for packages
    /// already on disk that no source can vouch for.
    pub authentication: Option<PackageAuthentication>,
}

impl PackageMeta {
    /// The hashes a source offers for trust-on-first-use in the lock file.
    pub fn acceptable_hashes(&self) -> Vec<crate::Hash> {
        self.authentication
            .as_ref()
            .map(PackageAuthentication::acceptable_hashes)
            .unwrap_or_default()
    }
}

/// `UnpackedDirectoryPathForPackage`: `<base>/<host>/<ns>/<type>/<version>/<os_arch>`.
pub fn unpacked_directory_path(
    base: &std::path::Path,
    provider: &Provider,
    version: &Version,
    platform: &Platform,
) -> PathBuf {
    base.join(provider.hostname.for_display())
        .join(&provider.namespace)
        .join(&provider.type_name)
        .join(version.to_string())
        .join(platform.to_string())
}

/// `PackedFilePathForPackage`: `<base>/<host>/<ns>/<type>/terraform-provider-<type>_<version>_<os_arch>.zip`.
pub fn packed_file_path(
    base: &std::path::Path,
    provider: &Provider,
    version: &Version,
    platform: &Platform,
) -> PathBuf {
    base.join(provider.hostname.for_display())
        .join(&provider.namespace)
        .join(&provider.type_name)
        .join(package_filename(provider, version, platform))
}

/// The conventional distribution file name.
pub fn package_filename(provider: &Provider, version: &Version, platform: &Platform) -> String {
    format!(
        "terraform-provider-{}_{version}_{platform}.zip",
        provider.type_name
    )
}
