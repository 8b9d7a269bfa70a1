//! Module installation for `tofu init` (OpenTofu's `internal/initwd`,
//! `internal/getmodules`, `internal/modsdir` and `internal/registry`):
//! the `.terraform/modules/modules.json` manifest, fetching remote module
//! packages (git, HTTP archives, local `file://` directories), the module
//! registry protocol, the per-call install rules the configuration
//! walker applies, and the module cache shared by roots and runs
//! ([`module_cache`]).
//!
//! Knows module source addresses and file systems; knows nothing of the
//! configuration language. The CLI configuration, credentials and service
//! discovery are `cliconfig`'s. Loading each installed module is the
//! caller's (`configs`) job.

pub mod atomic_file;
pub mod cancel;
pub mod fetch;
mod fetcher;
pub mod goversion;
mod installer;
mod lock;
pub mod manifest;
pub mod module_cache;
pub mod pathutil;
pub mod registry;

pub use cancel::{Cancel, Canceled, CANCELED_TEXT};
pub use cliconfig::{RegistryHosts, RegistryOptions};
pub use fetch::{FetchSession, HttpSettings};
pub use fetcher::{FetchError, PackageFetcher, RegistryPackage, STAGING_PREFIX};
pub use goversion::{Constraints, Version};
pub use installer::{
    download_line, install_line, local_escape_diagnostic, InstallHooks, InstallRequest,
    InstalledModule, InstallerConfig, ModuleInstaller, NoHooks, PackageContext,
};
pub use lock::{LockError, WorkDirLock, LOCK_FILENAME};
pub use manifest::{module_key, Manifest, ManifestError, Record, MANIFEST_FILENAME};
pub use module_cache::ModuleCache;
pub use registry::{RegistryClient, RegistryError, MODULES_SERVICE_ID};
