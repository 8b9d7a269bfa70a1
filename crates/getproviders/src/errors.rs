//! Why a source could not answer, with OpenTofu's messages
//! (`internal/getproviders/errors.go`). Callers tell "does not exist"
//! (try the next source) from "broken" (stop) with [`SourceError::is_not_exist`].

use std::fmt;

/// A failed source query. Providers, versions and platforms are kept in
/// their display forms: an error is for reporting, and the caller knows
/// what it asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceError {
    /// The host answers discovery but offers no provider registry.
    HostNoProviders {
        hostname: String,
        has_other_version: bool,
    },
    /// Discovery failed: DNS, connection, or a bad discovery document.
    HostUnreachable { hostname: String, wrapped: String },
    /// 401/403 from a registry or mirror.
    Unauthorized {
        hostname: String,
        have_credentials: bool,
    },
    /// No configured source offers the provider.
    ProviderNotFound {
        provider: String,
        sources: Vec<String>,
    },
    /// The registry answered 404 for the provider.
    RegistryProviderNotKnown { hostname: String, provider: String },
    /// The version has no package for the platform.
    PlatformNotSupported {
        provider: String,
        version: String,
        platform: String,
        mirror_url: Option<String>,
    },
    /// The version speaks a plugin protocol this OpenTofu does not.
    ProtocolNotSupported {
        provider: String,
        version: String,
        suggestion: Option<String>,
    },
    /// Any other failure talking to a registry or mirror.
    QueryFailed {
        provider: String,
        wrapped: String,
        mirror_url: Option<String>,
    },
    /// A local problem (unreadable mirror directory, bad response URL, ...).
    Other(String),
}

impl SourceError {
    /// `ErrIsNotExist`: an affirmative "not here", as opposed to a failure.
    pub fn is_not_exist(&self) -> bool {
        matches!(
            self,
            SourceError::ProviderNotFound { .. }
                | SourceError::RegistryProviderNotKnown { .. }
                | SourceError::PlatformNotSupported { .. }
        )
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::HostNoProviders {
                hostname,
                has_other_version: true,
            } => write!(f, "host {hostname} does not support the provider registry protocol required by this OpenTofu version, but may be compatible with a different OpenTofu version"),
            SourceError::HostNoProviders { hostname, .. } => {
                write!(f, "host {hostname} does not offer a OpenTofu provider registry")
            }
            SourceError::HostUnreachable { hostname, wrapped } => {
                write!(f, "could not connect to {hostname}: {wrapped}")
            }
            SourceError::Unauthorized {
                hostname,
                have_credentials: true,
            } => write!(f, "host {hostname} rejected the given authentication credentials"),
            SourceError::Unauthorized { hostname, .. } => {
                write!(f, "host {hostname} requires authentication credentials")
            }
            SourceError::ProviderNotFound { provider, .. } => write!(
                f,
                "provider {provider} was not found in any of the search locations"
            ),
            SourceError::RegistryProviderNotKnown { hostname, provider } => write!(
                f,
                "provider registry {hostname} does not have a provider named {provider}"
            ),
            SourceError::PlatformNotSupported {
                provider,
                version,
                platform,
                mirror_url: Some(url),
            } => write!(
                f,
                "provider mirror {url} does not have a package of {provider} {version} for {platform}"
            ),
            SourceError::PlatformNotSupported {
                provider,
                version,
                platform,
                ..
            } => write!(f, "provider {provider} {version} is not available for {platform}"),
            SourceError::ProtocolNotSupported {
                provider, version, ..
            } => write!(
                f,
                "provider {provider} {version} is not supported by this version of OpenTofu"
            ),
            SourceError::QueryFailed {
                provider,
                wrapped,
                mirror_url: Some(url),
            } => write!(
                f,
                "failed to query provider mirror {url} for {provider}: {wrapped}"
            ),
            SourceError::QueryFailed {
                provider, wrapped, ..
            } => write!(
                f,
                "could not query provider registry for {provider}: {wrapped}"
            ),
            SourceError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SourceError {}
