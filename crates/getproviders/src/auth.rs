//! Package authentication (`package_authentication.go`): what a source
//! asks to be checked once a package is local, and what the checks
//! established about each hash, which decides both the `init` message
//! ("signed, key ID …") and which hashes the lock file may record.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use addrs::Provider;

use crate::hash::{hash_matches, parse_sha256_hex, preferred_hashes, Hash, LocalPackage};
use crate::signature::find_signing_key;

/// Set to `true` to require signatures from the default registry too.
pub const ENFORCE_GPG_VALIDATION_ENV: &str = "OPENTOFU_ENFORCE_GPG_VALIDATION";

/// The checks a source attaches to a [`crate::PackageMeta`].
#[derive(Debug, Clone)]
pub enum PackageAuthentication {
    /// A registry's `download` answer: the archive's SHA-256, the signed
    /// SHA256SUMS document and the keys that may have signed it.
    Registry(Box<RegistryAuthentication>),
    /// A network mirror's hash list: the package must match one of them.
    Hashes(Vec<Hash>),
}

/// What a registry vouched for one package.
#[derive(Debug, Clone)]
pub struct RegistryAuthentication {
    pub provider: Provider,
    pub filename: String,
    /// The `shasum` the registry reported for this archive.
    pub sha256: [u8; 32],
    /// The SHA256SUMS document.
    pub document: Vec<u8>,
    /// Its detached signature.
    pub signature: Vec<u8>,
    /// ASCII-armored public keys from `signing_keys.gpg_public_keys`.
    pub keys: Vec<String>,
    /// The `packages` extension of the download response: per platform,
    /// every hash the registry knows and the archive size. Empty when the
    /// registry does not send it.
    pub package_data: BTreeMap<String, RegistryPlatformData>,
    /// The platform this package is for (`linux_amd64`).
    pub platform: String,
}

/// One platform's entry in a registry's `packages` map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryPlatformData {
    pub hashes: Vec<Hash>,
    pub package_size: i64,
}

/// What authentication established about one hash.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HashDisposition {
    /// We computed it from the package we have.
    pub verified_locally: bool,
    /// The provider's origin registry reported it.
    pub reported_by_registry: bool,
    /// Key IDs whose valid signature covered it.
    pub signed_by_key_ids: BTreeSet<String>,
}

impl HashDisposition {
    fn merge(&mut self, other: &HashDisposition) {
        self.verified_locally |= other.verified_locally;
        self.reported_by_registry |= other.reported_by_registry;
        self.signed_by_key_ids
            .extend(other.signed_by_key_ids.iter().cloned());
    }
}

/// The overall verdict, as `init` prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthSummary {
    Unauthenticated,
    VerifiedChecksum,
    SigningSkipped,
    Signed,
}

impl fmt::Display for AuthSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AuthSummary::Unauthenticated => "unauthenticated",
            AuthSummary::VerifiedChecksum => "verified checksum",
            AuthSummary::SigningSkipped => "signing skipped",
            AuthSummary::Signed => "signed",
        })
    }
}

/// `PackageAuthenticationResult`: each hash seen and what backs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthResult {
    pub hashes: BTreeMap<Hash, HashDisposition>,
}

impl AuthResult {
    fn add(&mut self, hash: Hash, disp: HashDisposition) {
        self.hashes.entry(hash).or_default().merge(&disp);
    }

    fn merge(&mut self, other: AuthResult) {
        for (h, d) in other.hashes {
            self.add(h, d);
        }
    }

    /// Signed beats reported-by-registry beats locally verified.
    pub fn summary(&self) -> AuthSummary {
        let d = self.hashes.values();
        if d.clone().any(|d| !d.signed_by_key_ids.is_empty()) {
            AuthSummary::Signed
        } else if d.clone().any(|d| d.reported_by_registry) {
            AuthSummary::SigningSkipped
        } else if d.clone().any(|d| d.verified_locally) {
            AuthSummary::VerifiedChecksum
        } else {
            AuthSummary::Unauthenticated
        }
    }

    /// Whether a valid signature covered any hash.
    pub fn signed(&self) -> bool {
        self.summary() == AuthSummary::Signed
    }

    /// `GPGKeyIDsString`: every signing key ID, sorted, comma-separated.
    pub fn key_ids_string(&self) -> String {
        let ids: BTreeSet<&String> = self
            .hashes
            .values()
            .flat_map(|d| d.signed_by_key_ids.iter())
            .collect();
        ids.into_iter().cloned().collect::<Vec<_>>().join(", ")
    }

    /// The hashes the origin vouched for that the lock file may trust:
    /// every hash the registry reported (signed SHA256SUMS lines, the
    /// `packages` extension), but only when the package was signed or
    /// signing was legitimately skipped, as OpenTofu's installer decides.
    pub fn trusted_upstream_hashes(&self) -> Vec<Hash> {
        if !matches!(
            self.summary(),
            AuthSummary::Signed | AuthSummary::SigningSkipped
        ) {
            return Vec::new();
        }
        self.hashes
            .iter()
            .filter(|(_, d)| d.reported_by_registry || !d.signed_by_key_ids.is_empty())
            .map(|(h, _)| h.clone())
            .collect()
    }
}

/// `ShouldEnforceGPGValidationForProvider`: always, except on the default
/// registry, which may serve providers it holds no key for, unless the
/// operator opts in through the environment.
pub fn should_enforce_gpg_validation(provider: &Provider) -> bool {
    if provider.hostname.as_str() != addrs::DEFAULT_PROVIDER_REGISTRY_HOST {
        return true;
    }
    std::env::var(ENFORCE_GPG_VALIDATION_ENV).as_deref() == Ok("true")
}

impl PackageAuthentication {
    /// Runs every check against the local copy of the package.
    pub fn authenticate(&self, local: LocalPackage<'_>) -> Result<AuthResult, String> {
        match self {
            PackageAuthentication::Registry(r) => r.authenticate(local),
            PackageAuthentication::Hashes(h) => authenticate_hashes(h, local),
        }
    }

    /// `AcceptableHashes`: what the source vouches for, for any platform.
    pub fn acceptable_hashes(&self) -> Vec<Hash> {
        match self {
            PackageAuthentication::Registry(r) => sums_document_hashes(&r.document),
            PackageAuthentication::Hashes(h) => h.clone(),
        }
    }
}

impl RegistryAuthentication {
    /// Whether a valid signature is required for this package.
    pub fn signature_required(&self) -> bool {
        !self.keys.is_empty() || should_enforce_gpg_validation(&self.provider)
    }

    fn authenticate(&self, local: LocalPackage<'_>) -> Result<AuthResult, String> {
        let mut result = AuthResult::default();
        result.merge(self.check_package_data(local)?);
        self.check_matching_checksum()?;
        result.merge(self.check_archive(local)?);
        result.merge(self.check_signature()?);
        Ok(result)
    }

    /// `registryPackageAuthentication`: the `packages` extension must agree
    /// with the archive's size and reported checksum; then every hash it
    /// lists, for every platform, counts as reported by the registry.
    fn check_package_data(&self, local: LocalPackage<'_>) -> Result<AuthResult, String> {
        let mut r = AuthResult::default();
        if self.package_data.is_empty() {
            return Ok(r);
        }
        let Some(data) = self.package_data.get(&self.platform) else {
            return Err(format!(
                "registry response missing package with platform {}",
                addrs::go_quote(&self.platform)
            ));
        };
        if data.package_size <= 0 {
            return Err(format!(
                "registry response has invalid package size {}",
                data.package_size
            ));
        }
        let path = local.path();
        let size = std::fs::metadata(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .len();
        if i64::try_from(size).ok() != Some(data.package_size) {
            return Err(format!(
                "registry response indicates a package of size {}, but recieved a package of size {size}",
                data.package_size
            ));
        }
        let want = crate::hash::hex_lower(&self.sha256);
        let mut found = false;
        for h in data
            .hashes
            .iter()
            .filter(|h| h.scheme() == crate::hash::SCHEME_ZIP)
        {
            if h.value() != want {
                return Err(format!(
                    "registry response expected sha256sum is {}, which does not match the platform's value of {}",
                    addrs::go_quote(&want),
                    addrs::go_quote(h.value())
                ));
            }
            found = true;
        }
        if !found {
            return Err(
                "registry response does not contain matching sha256sum package entry and is invalid"
                    .to_string(),
            );
        }
        for d in self.package_data.values() {
            for h in &d.hashes {
                r.add(
                    h.clone(),
                    HashDisposition {
                        reported_by_registry: true,
                        ..HashDisposition::default()
                    },
                );
            }
        }
        Ok(r)
    }

    /// `matchingChecksumAuthentication`: the signed document must list the
    /// same hash the registry reported, or a valid signature proves nothing.
    fn check_matching_checksum(&self) -> Result<(), String> {
        let text = String::from_utf8_lossy(&self.document);
        let found = text.split('\n').find_map(|line| {
            let mut parts = line.split_whitespace();
            let sum = parts.next()?;
            (parts.next()? == self.filename).then_some(sum)
        });
        let Some(sum) = found else {
            return Err(format!(
                "checksum list has no SHA-256 hash for {}",
                addrs::go_quote(&self.filename)
            ));
        };
        let Some(got) = parse_sha256_hex(sum) else {
            return Err(format!(
                "checksum list has invalid SHA256 hash {}: encoding/hex: invalid byte",
                addrs::go_quote(sum)
            ));
        };
        if got != self.sha256 {
            return Err(format!(
                "checksum list has unexpected SHA-256 hash {} (expected {})",
                crate::hash::hex_lower(&got),
                crate::hash::hex_lower(&self.sha256)
            ));
        }
        Ok(())
    }

    /// `archiveHashAuthentication`: the zip we have is the one reported.
    fn check_archive(&self, local: LocalPackage<'_>) -> Result<AuthResult, String> {
        let Some(got) = local.zip_hash() else {
            return Err(format!(
                "cannot check archive hash for non-archive location {}",
                local.path().display()
            ));
        };
        let got = got.map_err(|e| {
            format!(
                "failed to compute checksum for {}: {e}",
                local.path().display()
            )
        })?;
        let want = Hash::zip_from_sha256(&self.sha256);
        if got != want {
            return Err(format!(
                "archive has incorrect checksum {got} (expected {want})"
            ));
        }
        let mut r = AuthResult::default();
        r.add(
            got,
            HashDisposition {
                verified_locally: true,
                ..HashDisposition::default()
            },
        );
        Ok(r)
    }

    /// `signatureAuthentication`: every hash of the document is reported
    /// by the registry, and signed by the key that verified.
    fn check_signature(&self) -> Result<AuthResult, String> {
        let mut signed_by = BTreeSet::new();
        if self.signature_required() {
            let key_id = find_signing_key(&self.document, &self.signature, &self.keys).map_err(
                |e| {
                    format!(
                        "the provider is not signed with a valid signing key; please contact the provider author ({e})"
                    )
                },
            )?;
            signed_by.insert(key_id);
        }
        let mut r = AuthResult::default();
        for h in sums_document_hashes(&self.document) {
            r.add(
                h,
                HashDisposition {
                    reported_by_registry: true,
                    signed_by_key_ids: signed_by.clone(),
                    ..HashDisposition::default()
                },
            );
        }
        Ok(r)
    }
}

/// `acceptableHashes`: `zh:` for every line of a SHA256SUMS document, or
/// nothing if it does not look like one.
pub fn sums_document_hashes(document: &[u8]) -> Vec<Hash> {
    let mut out = Vec::new();
    for line in String::from_utf8_lossy(document).lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts.is_empty() {
            continue;
        }
        if parts.len() < 2 {
            return Vec::new();
        }
        match parse_sha256_hex(parts[0]) {
            Some(sum) => out.push(Hash::zip_from_sha256(&sum)),
            None => return Vec::new(),
        }
    }
    out
}

/// `packageHashAuthentication`: one of the preferred hashes must match.
fn authenticate_hashes(all: &[Hash], local: LocalPackage<'_>) -> Result<AuthResult, String> {
    let required = preferred_hashes(all);
    if required.is_empty() {
        return Err(
            "this version of OpenTofu does not support any of the checksum formats given for this provider"
                .to_string(),
        );
    }
    let mut r = AuthResult::default();
    for h in &required {
        let ok = hash_matches(local, std::slice::from_ref(h))
            .map_err(|e| format!("failed to verify provider package checksums: {e}"))?;
        if ok {
            r.add(
                h.clone(),
                HashDisposition {
                    verified_locally: true,
                    ..HashDisposition::default()
                },
            );
        }
    }
    if !r.hashes.is_empty() {
        return Ok(r);
    }
    if required.len() == 1 {
        return Err(format!(
            "provider package doesn't match the expected checksum {}",
            addrs::go_quote(required[0].as_str())
        ));
    }
    Err("provider package doesn't match the any of the expected checksums".to_string())
}
