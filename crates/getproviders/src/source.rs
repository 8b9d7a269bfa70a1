//! The `Source` interface every installation method implements.

use addrs::Provider;

use crate::errors::SourceError;
use crate::meta::PackageMeta;
use crate::platform::Platform;
use crate::version::Version;

/// Registry warnings about a provider (deprecations and the like).
pub type Warnings = Vec<String>;

/// Somewhere provider packages can be found.
pub trait Source: Send + Sync {
    /// Every version of `provider` this source has, sorted ascending.
    fn available_versions(
        &self,
        provider: &Provider,
    ) -> Result<(Vec<Version>, Warnings), SourceError>;

    /// The package of `version` for `platform`.
    fn package_meta(
        &self,
        provider: &Provider,
        version: &Version,
        platform: &Platform,
    ) -> Result<PackageMeta, SourceError>;

    /// How `init` names this source in "not found" messages.
    fn for_display(&self, provider: &Provider) -> String;
}
