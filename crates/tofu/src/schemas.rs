//! The provider schemas a walk knows, and the provider's own checks of a
//! configuration (the `Validate*` calls of the plugin protocol), as the
//! walk sees them: by provider address, resource mode and type name. Where
//! a provider is not here, its resources are planned from their
//! configuration alone, as before schemas existed. Knows nothing of
//! plugins or caches: the command fills these in.

use std::collections::HashMap;
use std::sync::Arc;

use addrs::{Provider, ResourceMode};
use configschema::{ProviderSchema, Schema, SchemaMap};
use cty::{Path, Value};

/// Every provider schema one walk can use.
#[derive(Default, Clone)]
pub struct Schemas {
    providers: HashMap<Provider, Arc<ProviderSchema>>,
    validator: Option<Arc<dyn ProviderValidator>>,
}

impl Schemas {
    /// No schemas: every resource is planned from its configuration alone.
    pub fn none() -> Schemas {
        Schemas::default()
    }

    /// Adds (or replaces) one provider's schemas.
    pub fn insert(&mut self, provider: Provider, schema: Arc<ProviderSchema>) {
        self.providers.insert(provider, schema);
    }

    /// Sets who answers the provider's `Validate*` calls.
    pub fn set_validator(&mut self, validator: Arc<dyn ProviderValidator>) {
        self.validator = Some(validator);
    }

    /// Whether no provider's schema is known.
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }

    /// One provider's schemas, when known.
    pub fn provider(&self, provider: &Provider) -> Option<&Arc<ProviderSchema>> {
        self.providers.get(provider)
    }

    /// The schema of a resource type, when its provider is known and has
    /// the type. `Some(None)` is a known provider without the type (an
    /// "Invalid resource type"); `None` is a provider whose schema is not
    /// known.
    pub fn resource_type(
        &self,
        provider: &Provider,
        mode: ResourceMode,
        type_name: &str,
    ) -> Option<Option<&Schema>> {
        Some(self.types_of(provider, mode)?.get(type_name))
    }

    /// [`Schemas::resource_type`], shared rather than borrowed.
    pub fn resource_type_shared(
        &self,
        provider: &Provider,
        mode: ResourceMode,
        type_name: &str,
    ) -> Option<Option<Arc<Schema>>> {
        Some(self.types_of(provider, mode)?.get_shared(type_name))
    }

    /// A known provider's resource types of one mode.
    fn types_of(&self, provider: &Provider, mode: ResourceMode) -> Option<&SchemaMap> {
        let schema = self.providers.get(provider)?;
        Some(match mode {
            ResourceMode::Managed => &schema.resources,
            ResourceMode::Data => &schema.data_sources,
            ResourceMode::Ephemeral => &schema.ephemeral_resources,
        })
    }

    /// Who answers the `Validate*` calls, if anyone.
    pub fn validator(&self) -> Option<&Arc<dyn ProviderValidator>> {
        self.validator.as_ref()
    }
}

/// Whether a provider's diagnostic is an error or a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderSeverity {
    Error,
    Warning,
}

/// A diagnostic a provider returned, with the path of the attribute it is
/// about (the walk turns that path into a source range).
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderDiagnostic {
    pub severity: ProviderSeverity,
    pub summary: String,
    pub detail: String,
    pub attribute: Option<Path>,
}

/// The provider's own checks of a configuration, which only a running
/// plugin (or a record of its earlier answers) can give. Each call gets the
/// configuration value decoded against the type's schema (unknown where
/// it is not yet known); a failure to reach the provider is itself
/// returned as a diagnostic.
pub trait ProviderValidator: Send + Sync {
    /// `ValidateProviderConfig`.
    fn validate_provider_config(
        &self,
        provider: &Provider,
        config: &Value,
    ) -> Vec<ProviderDiagnostic>;

    /// `ValidateResourceConfig`, `ValidateDataResourceConfig` or
    /// `ValidateEphemeralResourceConfig`, by `mode`.
    fn validate_resource_config(
        &self,
        provider: &Provider,
        mode: ResourceMode,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic>;
}
