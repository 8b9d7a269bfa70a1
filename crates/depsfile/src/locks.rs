//! The information a dependency lock file holds (`depsfile.Locks`): for
//! each provider, the version selected, the constraints it was selected
//! under and the hashes of its packages.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use addrs::Provider;
use hclsyntax::SourceFile;

use crate::constraints::VersionConstraints;
use crate::hash::normalize_hashes;
use crate::version::Version;

/// Every lock of a lock file, by provider. Iteration is in the order the
/// file is written in (by host, namespace, type).
#[derive(Debug, Clone, Default)]
pub struct Locks {
    providers: BTreeMap<Provider, ProviderLock>,
    /// Providers this run uses from elsewhere (development overrides,
    /// `-plugin-dir` unmanaged providers); never written to the file.
    overridden: BTreeSet<Provider>,
    /// The file the locks were read from, for quoting in diagnostics.
    pub source: Option<Arc<SourceFile>>,
}

/// The lock of one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderLock {
    pub provider: Provider,
    /// The selected version: authoritative for later installs.
    pub version: Version,
    /// The constraints the version was selected under: only a hint for
    /// messages (`init -upgrade` suggestions), never used to select.
    pub constraints: VersionConstraints,
    /// Sorted and deduplicated `h1:`/`zh:` hashes for every platform seen.
    pub hashes: Vec<String>,
}

impl ProviderLock {
    /// A lock with its hashes normalized. Only lockable providers have locks.
    pub fn new(
        provider: Provider,
        version: Version,
        constraints: VersionConstraints,
        mut hashes: Vec<String>,
    ) -> ProviderLock {
        assert!(
            is_lockable(&provider),
            "ProviderLock::new with non-lockable provider {provider}"
        );
        normalize_hashes(&mut hashes);
        ProviderLock {
            provider,
            version,
            constraints,
            hashes,
        }
    }
}

/// `ProviderIsLockable`: built-in and legacy providers have no versions to
/// lock.
pub fn is_lockable(provider: &Provider) -> bool {
    !(provider.is_built_in() || provider.is_legacy())
}

impl Locks {
    pub fn new() -> Locks {
        Locks::default()
    }

    /// The lock of `provider`, if any.
    pub fn provider(&self, provider: &Provider) -> Option<&ProviderLock> {
        self.providers.get(provider)
    }

    /// Every lock, in file order.
    pub fn all_providers(&self) -> impl Iterator<Item = &ProviderLock> {
        self.providers.values()
    }

    /// Adds or replaces the lock of a provider (`SetProvider`).
    pub fn set_provider(&mut self, lock: ProviderLock) {
        self.providers.insert(lock.provider.clone(), lock);
    }

    /// Forgets a provider's lock.
    pub fn remove_provider(&mut self, provider: &Provider) {
        self.providers.remove(provider);
    }

    /// Marks a provider whose lock this run disregards.
    pub fn set_provider_overridden(&mut self, provider: Provider) {
        self.overridden.insert(provider);
    }

    pub fn provider_is_overridden(&self, provider: &Provider) -> bool {
        self.overridden.contains(provider)
    }

    /// No locks at all (a lock file about to be written the first time).
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }

    /// Same providers, versions and hashes. Constraints do not count: they
    /// are only hints (`Locks.Equal`).
    pub fn equal(&self, other: &Locks) -> bool {
        self.providers.len() == other.providers.len()
            && self.providers.iter().all(|(addr, lock)| {
                other.providers.get(addr).is_some_and(|o| {
                    // Exact equality: build metadata makes a different package.
                    o.version == lock.version && o.hashes == lock.hashes
                })
            })
    }

    /// Same set of providers, whatever their versions.
    pub fn equal_provider_addresses(&self, other: &Locks) -> bool {
        self.providers.len() == other.providers.len()
            && self
                .providers
                .keys()
                .all(|k| other.providers.contains_key(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock(ty: &str, version: &str, hashes: &[&str]) -> ProviderLock {
        ProviderLock::new(
            Provider::default_for(ty),
            Version::parse(version).unwrap(),
            VersionConstraints::parse(">= 1.0").unwrap(),
            hashes.iter().map(|h| h.to_string()).collect(),
        )
    }

    #[test]
    fn equality_ignores_constraints() {
        let mut a = Locks::new();
        a.set_provider(lock("null", "3.2.0", &["zh:b", "h1:a"]));
        let mut b = Locks::new();
        let mut l = lock("null", "3.2.0", &["h1:a", "zh:b", "h1:a"]);
        l.constraints = VersionConstraints::default();
        b.set_provider(l);
        assert!(a.equal(&b));
        b.set_provider(lock("null", "3.2.0+x", &["h1:a", "zh:b"]));
        assert!(!a.equal(&b));
        assert!(a.equal_provider_addresses(&b));
        b.set_provider(lock("random", "1.0.0", &[]));
        assert!(!a.equal_provider_addresses(&b));
    }

    #[test]
    fn lockable() {
        assert!(is_lockable(&Provider::default_for("null")));
        assert!(!is_lockable(&Provider::built_in("terraform")));
    }
}
