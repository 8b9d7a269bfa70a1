//! Provider installation for `tofu init` (OpenTofu's
//! `internal/getproviders` and `internal/providercache`): provider
//! versions and constraints, target platforms, package hashes (`h1:`,
//! `zh:`), the sources packages come from (the provider registry
//! protocol, network mirrors, filesystem mirrors, and the CLI
//! configuration's `provider_installation` rules that combine them),
//! signature and checksum verification, and safe, atomic installation
//! into `.terraform/providers` through an optional shared plugin cache.
//!
//! Knows provider addresses, HTTP and file systems; knows nothing of the
//! configuration language or of the dependency lock file: callers gather
//! requirements and pass the lock file's versions and hashes in.

mod auth;
mod cache;
mod errors;
mod hash;
mod http;
mod install;
mod installation_config;
mod meta;
mod mirror_fs;
mod mirror_http;
mod multi_source;
mod parallel;
mod platform;
mod registry_source;
mod signature;
mod source;
#[cfg(feature = "test-support")]
pub mod testing;
mod unzip;

pub use auth::{
    should_enforce_gpg_validation, sums_document_hashes, AuthResult, AuthSummary, HashDisposition,
    PackageAuthentication, RegistryAuthentication, RegistryPlatformData,
    ENFORCE_GPG_VALIDATION_ENV,
};
pub use cache::{CacheOutcome, PluginCache};
// Provider versions and constraints live with the lock file that records
// them; re-exported so installer users need one import.
pub use depsfile::constraints;
pub use depsfile::version;
pub use depsfile::Version;
pub use depsfile::{ConstraintOp, Selection, VersionConstraints};
pub use errors::SourceError;
pub use hash::{
    hash_matches, hash_v1_zip_reader, hex_lower, package_hash_legacy_zip, package_hash_v1,
    package_hash_v1_zip, preferred_hashes, Hash, LocalPackage, SCHEME_H1, SCHEME_ZIP,
};
pub use http::{HttpClient, HttpOptions};
pub use install::{
    install_package, remove_stale_staging, remove_stale_staging_in_tree, InstallError, Installed,
};
pub use installation_config::{
    build_source, implied_local_mirror_dirs, load_provider_cli_config, parse_provider_cli_config,
    plugin_dir_source, InstallationMethod, MethodConfig, NetworkSettings, ProviderCliConfig,
    ProviderInstallation,
};
pub use meta::{
    package_filename, packed_file_path, unpacked_directory_path, PackageLocation, PackageMeta,
};
pub use mirror_fs::{search_local_directory, FilesystemMirrorSource, PackageIndex};
pub use mirror_http::NetworkMirrorSource;
pub use multi_source::{
    parse_patterns, MultiSource, MultiSourceSelector, ProviderPattern, WILDCARD,
};
pub use parallel::{
    built_in_provider_check, install_all, select_version, InstallAction, InstallSettings,
    LockedProvider, ProviderInstalled, ProviderRequest, BUILT_IN_PROVIDER_TYPES,
};
pub use platform::Platform;
pub use registry_source::{RegistrySource, PROVIDERS_SERVICE_ID};
pub use signature::find_signing_key;
pub use source::{Source, Warnings};
pub use unzip::unpack_zip;
