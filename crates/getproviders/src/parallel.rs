//! Resolving and installing many providers at once (the selection and
//! install steps of `providercache.Installer.EnsureProviderVersions`),
//! one rayon task per provider.

use std::path::PathBuf;

use addrs::Provider;
use rayon::prelude::*;

use crate::cache::{CacheOutcome, PluginCache};
use crate::constraints::VersionConstraints;
use crate::hash::{hash_matches, package_hash_v1, Hash, LocalPackage};
use crate::http::HttpClient;
use crate::install::{install_package, InstallError, Installed};
use crate::meta::unpacked_directory_path;
use crate::platform::Platform;
use crate::source::{Source, Warnings};
use crate::version::Version;

/// What the lock file says about a provider.
#[derive(Debug, Clone)]
pub struct LockedProvider {
    pub version: Version,
    pub hashes: Vec<Hash>,
}

/// One provider to install.
#[derive(Debug, Clone)]
pub struct ProviderRequest {
    pub provider: Provider,
    /// The configuration's merged constraints.
    pub constraints: VersionConstraints,
    /// The lock file's entry, if any.
    pub locked: Option<LockedProvider>,
}

/// Where and how to install.
pub struct InstallSettings<'a> {
    pub source: &'a dyn Source,
    pub platform: Platform,
    /// Usually `.terraform/providers`.
    pub target_dir: PathBuf,
    pub cache: Option<PluginCache>,
    pub http: HttpClient,
    /// `init -upgrade`: ignore locked versions (but still honor constraints).
    pub upgrade: bool,
}

/// What happened to one provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstallAction {
    /// The locked version was already there and matched its hashes.
    AlreadyInstalled,
    /// Fetched (or unpacked, or linked from a mirror) into the target.
    Installed,
    /// Linked from the plugin cache without fetching.
    LinkedFromCache,
}

/// A provider installed, with what `init` reports and locks.
#[derive(Debug, Clone)]
pub struct ProviderInstalled {
    pub version: Version,
    pub action: InstallAction,
    pub installed: Installed,
    pub warnings: Warnings,
}

/// Resolves and installs every request in parallel. Results are in the
/// order of `requests`; one provider's failure does not stop the others.
pub fn install_all(
    settings: &InstallSettings<'_>,
    requests: &[ProviderRequest],
) -> Vec<(Provider, Result<ProviderInstalled, InstallError>)> {
    requests
        .par_iter()
        .map(|r| (r.provider.clone(), install_one(settings, r)))
        .collect()
}

/// The provider types built into OpenTofu.
pub const BUILT_IN_PROVIDER_TYPES: &[&str] = &["terraform"];

/// For a built-in provider (`terraform.io/builtin/…`), OpenTofu's verdict:
/// `Some(Ok(()))` — available, nothing to install — or why it cannot be
/// used. `None` for providers that must be installed. [`install_all`]
/// expects callers to take built-in providers out first with this.
pub fn built_in_provider_check(
    provider: &Provider,
    constraints: &VersionConstraints,
) -> Option<Result<(), InstallError>> {
    if !provider.is_built_in() {
        return None;
    }
    if !BUILT_IN_PROVIDER_TYPES.contains(&provider.type_name.as_str()) {
        return Some(Err(InstallError(format!(
            "this OpenTofu release has no built-in provider named {}",
            addrs::go_quote(&provider.type_name)
        ))));
    }
    if !constraints.is_empty() {
        return Some(Err(InstallError(
            "built-in providers do not support explicit version constraints".to_string(),
        )));
    }
    Some(Ok(()))
}

/// The version to install: the locked one, or the newest the constraints
/// request.
pub fn select_version(
    request: &ProviderRequest,
    available: &[Version],
    upgrade: bool,
) -> Result<Version, InstallError> {
    let locked = request.locked.as_ref().filter(|_| !upgrade);
    if let Some(lock) = locked {
        if !request.constraints.allowed(&lock.version) {
            return Err(InstallError(format!(
                "locked provider {} {} does not match configured version constraint {}; must use tofu init -upgrade to allow selection of new versions",
                request.provider, lock.version, request.constraints
            )));
        }
        if !available.contains(&lock.version) {
            return Err(InstallError(format!(
                "the previously-selected version {} is no longer available",
                lock.version
            )));
        }
        return Ok(lock.version.clone());
    }
    request
        .constraints
        .newest_allowed(available)
        .cloned()
        .ok_or_else(|| {
            InstallError(format!(
                "no available releases match the given constraints {}",
                request.constraints
            ))
        })
}

fn install_one(
    s: &InstallSettings<'_>,
    r: &ProviderRequest,
) -> Result<ProviderInstalled, InstallError> {
    let (available, warnings) = s
        .source
        .available_versions(&r.provider)
        .map_err(|e| InstallError(e.to_string()))?;
    let version = select_version(r, &available, s.upgrade)?;
    // Hash changes are expected only when the version changes.
    let allowed: Vec<Hash> = r
        .locked
        .as_ref()
        .filter(|l| l.version == version)
        .map(|l| l.hashes.clone())
        .unwrap_or_default();
    let existing = unpacked_directory_path(&s.target_dir, &r.provider, &version, &s.platform);
    if !allowed.is_empty()
        && existing.is_dir()
        && hash_matches(LocalPackage::Dir(&existing), &allowed).unwrap_or(false)
    {
        let hash = package_hash_v1(&existing).map_err(InstallError)?;
        // Nothing new was learned: the lock file keeps what it had.
        let lock_hashes = allowed.clone();
        return Ok(ProviderInstalled {
            version,
            action: InstallAction::AlreadyInstalled,
            installed: Installed {
                dir: existing,
                hash,
                auth: None,
                lock_hashes,
            },
            warnings,
        });
    }
    let meta = s
        .source
        .package_meta(&r.provider, &version, &s.platform)
        .map_err(|e| InstallError(e.to_string()))?;
    let (installed, action) = match &s.cache {
        Some(cache) => {
            let (i, outcome) = cache.install(&meta, &s.target_dir, &allowed, &s.http)?;
            let action = match outcome {
                CacheOutcome::Linked => InstallAction::LinkedFromCache,
                CacheOutcome::Fetched => InstallAction::Installed,
            };
            (i, action)
        }
        None => (
            install_package(&meta, &s.target_dir, &allowed, &s.http)?,
            InstallAction::Installed,
        ),
    };
    Ok(ProviderInstalled {
        version,
        action,
        installed,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_providers() {
        let any = VersionConstraints::any();
        assert!(built_in_provider_check(&Provider::default_for("aws"), &any).is_none());
        let tf = Provider::built_in("terraform");
        assert_eq!(built_in_provider_check(&tf, &any), Some(Ok(())));
        let pinned = VersionConstraints::parse("1.0").unwrap();
        assert_eq!(
            built_in_provider_check(&tf, &pinned)
                .unwrap()
                .unwrap_err()
                .0,
            "built-in providers do not support explicit version constraints"
        );
        assert_eq!(
            built_in_provider_check(&Provider::built_in("nope"), &any)
                .unwrap()
                .unwrap_err()
                .0,
            r#"this OpenTofu release has no built-in provider named "nope""#
        );
    }
}
