//! One provider's schemas (`providers.ProviderSchema`, as
//! `providers schema -json` shows them): the provider's own configuration
//! schema and the schemas of its resource types, data sources and
//! ephemeral resources.

use std::collections::BTreeMap;

use crate::schema::Block;

/// A versioned block schema (`providers.Schema`, `jsonprovider.Schema`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    /// The schema version (resource types version their state with it).
    pub version: u64,
    /// The block; `None` where the provider sent none (terraform's builtin
    /// provider has no configuration block).
    pub block: Option<Block>,
}

/// Everything `providers schema -json` shows of one provider
/// (`jsonprovider.Provider`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProviderSchema {
    /// The provider's configuration block.
    pub provider: Schema,
    /// Managed resource types, by type name.
    pub resources: BTreeMap<String, Schema>,
    /// Data sources, by type name.
    pub data_sources: BTreeMap<String, Schema>,
    /// Ephemeral resource types, by type name.
    pub ephemeral_resources: BTreeMap<String, Schema>,
    /// Provider functions, by name, kept as the document has them: OpenTofu
    /// and terraform print functions in different shapes (terraform omits
    /// empty parameter descriptions, OpenTofu does not), so a document
    /// round-trips whoever wrote it. [`crate::Function::from_json`] reads
    /// either shape, [`crate::Function::to_json`] makes OpenTofu's.
    pub functions: BTreeMap<String, serde_json::Value>,
    /// Resource identity schemas (`resource_identity_schemas`), by resource
    /// type, kept as the document has them, like [`ProviderSchema::functions`].
    pub resource_identities: BTreeMap<String, serde_json::Value>,
}

/// The whole `providers schema -json` document (`jsonprovider.Providers`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProviderSchemas {
    /// `format_version`: "1.0" in every OpenTofu and terraform release so far.
    pub format_version: String,
    /// Each provider's schemas, by provider source address
    /// (`registry.opentofu.org/hashicorp/aws`).
    pub providers: BTreeMap<String, ProviderSchema>,
}
