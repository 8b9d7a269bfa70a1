//! OpenTofu's CLI configuration (`internal/command/cliconfig`) and
//! terraform-svchost's service discovery (`disco`): which CLI configuration
//! files are read and in what order, their `host` and `credentials` blocks
//! and the `TF_TOKEN_…` variables (per-host services and bearer tokens),
//! the registry timeouts and retries read from the environment, the
//! module cache directory (`module_cache_dir`, `TF_MODULE_CACHE_DIR`), and
//! the discovery of a host's services (`modules.v1`, `providers.v1`, …).
//!
//! Shared by the module installer (`initwd`), the provider installer
//! (`getproviders`) and the cloud backend, so none of them depends on
//! another for it. Must not know: the registry protocols themselves
//! (modules, providers), the configuration language beyond reading these
//! files' static strings.

mod config;
pub mod disco;
mod hosts;
mod module_settings;

pub use config::{
    cli_config_dir, cli_config_files, cli_config_path, load_registry_hosts, parse_registry_hosts,
    static_string, tokens_from_env,
};
pub use disco::{Disco, DiscoError};
pub use hosts::{RegistryHosts, RegistryOptions};
pub use module_settings::{
    load_module_settings, parse_module_settings, ModuleSettings, MODULE_CACHE_DIR_ENV,
};
