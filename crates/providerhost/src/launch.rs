//! Starting a provider plugin and talking to it, as the host needs it: a
//! schema, and the `Validate*` calls. The CLI's launcher speaks the plugin
//! protocol; tests give fakes that count their starts.

use std::path::Path;

use addrs::Provider;
use configschema::ProviderSchema;
use cty::{Type, Value};
use tofu::schemas::ProviderDiagnostic;

/// Which `Validate*` call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValidateKind {
    /// `ValidateProviderConfig` (protocol 5: `PrepareProviderConfig`).
    Provider,
    /// `ValidateResourceConfig`.
    Managed,
    /// `ValidateDataResourceConfig`.
    Data,
    /// `ValidateEphemeralResourceConfig`.
    Ephemeral,
}

impl ValidateKind {
    /// The name the answer cache files the kind under.
    pub fn as_str(self) -> &'static str {
        match self {
            ValidateKind::Provider => "provider",
            ValidateKind::Managed => "managed",
            ValidateKind::Data => "data",
            ValidateKind::Ephemeral => "ephemeral",
        }
    }
}

/// A running plugin. Dropping it ends the process.
pub trait RunningProvider: Send + Sync {
    /// `GetProviderSchema`: the schema, with the provider's diagnostics
    /// (an error among them means there is no usable schema).
    fn schema(&self) -> Result<(ProviderSchema, Vec<ProviderDiagnostic>), String>;

    /// One `Validate*` call with `config` of type `ty` (`type_name` is
    /// empty for the provider's own configuration).
    fn validate(
        &self,
        kind: ValidateKind,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, String>;
}

/// Starts plugins, or attaches to running ones. The error is the text
/// OpenTofu puts after `failed to instantiate provider "…" to obtain
/// schema: `.
pub trait Launcher: Send + Sync {
    /// Starts the plugin `executable`.
    fn launch(&self, executable: &Path) -> Result<Box<dyn RunningProvider>, String>;

    /// Connects to `provider`'s plugin, which runs already (an unmanaged
    /// provider: the launcher knows where it listens).
    fn attach(&self, provider: &Provider) -> Result<Box<dyn RunningProvider>, String>;
}
