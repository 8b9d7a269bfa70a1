//! One provider's schemas (`providers.ProviderSchema`, as
//! `providers schema -json` shows them): the provider's own configuration
//! schema and the schemas of its resource types, data sources and
//! ephemeral resources.

use std::collections::BTreeMap;
use std::fmt;

use crate::internal_validate::InvalidSchema;
use crate::schema::Block;
use crate::schema_map::SchemaMap;

/// A versioned block schema (`providers.Schema`, `jsonprovider.Schema`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    /// The schema version (resource types version their state with it).
    /// Signed as in the protocol, so that a negative version a provider
    /// sends reaches [`ProviderSchema::validate`]; the JSON document
    /// writes it as Go's `uint64` conversion does.
    pub version: i64,
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
    pub resources: SchemaMap,
    /// Data sources, by type name.
    pub data_sources: SchemaMap,
    /// Ephemeral resource types, by type name.
    pub ephemeral_resources: SchemaMap,
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

/// Which kind of type a schema describes, as OpenTofu's messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaKind {
    /// A managed resource type (`resource_schemas`).
    Managed,
    /// A data source (`data_source_schemas`).
    Data,
    /// An ephemeral resource type (`ephemeral_resource_schemas`).
    Ephemeral,
}

impl SchemaKind {
    fn as_str(self) -> &'static str {
        match self {
            SchemaKind::Managed => "managed",
            SchemaKind::Data => "data",
            SchemaKind::Ephemeral => "ephemeral",
        }
    }
}

/// Why OpenTofu refuses a provider's schemas (`ProviderSchema.Validate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidProviderSchema {
    /// The provider's configuration schema has a negative version.
    NegativeProviderVersion {
        /// The provider's source address.
        provider: String,
    },
    /// A type's block breaks the schema rules (or is absent).
    InvalidBlock {
        /// The provider's source address.
        provider: String,
        /// Which kind of type.
        kind: SchemaKind,
        /// The type's name.
        type_name: String,
        /// What is wrong; `None` when there is no block at all.
        problems: Option<InvalidSchema>,
    },
    /// A type's schema has a negative version.
    NegativeVersion {
        /// The provider's source address.
        provider: String,
        /// Which kind of type.
        kind: SchemaKind,
        /// The type's name.
        type_name: String,
    },
}

impl fmt::Display for InvalidProviderSchema {
    /// OpenTofu's texts (the first keeps its missing space after the comma).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidProviderSchema::NegativeProviderVersion { provider } => write!(
                f,
                "provider {provider} has invalid negative schema version for its configuration blocks,which is a bug in the provider"
            ),
            InvalidProviderSchema::InvalidBlock {
                provider,
                kind,
                type_name,
                problems,
            } => {
                write!(
                    f,
                    "provider {provider} has invalid schema for {} resource type {}, which is a bug in the provider: ",
                    kind.as_str(),
                    gocompat::quote::quote(type_name)
                )?;
                match problems {
                    Some(p) => write!(f, "{p}"),
                    None => f.write_str("top-level block schema is nil"),
                }
            }
            InvalidProviderSchema::NegativeVersion {
                provider,
                kind,
                type_name,
            } => write!(
                f,
                "provider {provider} has invalid negative schema version for {} resource type {}, which is a bug in the provider",
                kind.as_str(),
                gocompat::quote::quote(type_name)
            ),
        }
    }
}

impl std::error::Error for InvalidProviderSchema {}

impl ProviderSchema {
    /// `SchemaForResourceType`: the schema of a type of the given kind.
    pub fn schema_for(&self, kind: SchemaKind, type_name: &str) -> Option<&Schema> {
        match kind {
            SchemaKind::Managed => &self.resources,
            SchemaKind::Data => &self.data_sources,
            SchemaKind::Ephemeral => &self.ephemeral_resources,
        }
        .get(type_name)
    }

    /// `ProviderSchema.Validate`: the checks OpenTofu makes of every
    /// provider's schemas before using them (`provider` is the provider's
    /// source address, for the message). Like OpenTofu, it reports the
    /// first problem; managed resource types, then data sources, then
    /// ephemeral resource types, each by name (Go's order is a map's). The
    /// provider's own configuration block is not checked, as in OpenTofu.
    pub fn validate(&self, provider: &str) -> Result<(), InvalidProviderSchema> {
        if self.provider.version < 0 {
            return Err(InvalidProviderSchema::NegativeProviderVersion {
                provider: provider.to_owned(),
            });
        }
        for (kind, schemas) in [
            (SchemaKind::Managed, &self.resources),
            (SchemaKind::Data, &self.data_sources),
            (SchemaKind::Ephemeral, &self.ephemeral_resources),
        ] {
            for (type_name, schema) in schemas {
                let problems = match &schema.block {
                    Some(block) => block.internal_validate().err(),
                    None => None,
                };
                if schema.block.is_none() || problems.is_some() {
                    return Err(InvalidProviderSchema::InvalidBlock {
                        provider: provider.to_owned(),
                        kind,
                        type_name: type_name.clone(),
                        problems,
                    });
                }
                if schema.version < 0 {
                    return Err(InvalidProviderSchema::NegativeVersion {
                        provider: provider.to_owned(),
                        kind,
                        type_name: type_name.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use cty::Type;

    use super::*;
    use crate::schema::Attribute;

    #[test]
    fn validate_names_the_first_problem_in_opentofus_words() {
        let addr = "registry.opentofu.org/hashicorp/test";
        let good = Schema {
            version: 1,
            block: Some(Block {
                attributes: BTreeMap::from([(
                    "id".to_string(),
                    Attribute {
                        computed: true,
                        ..Attribute::new(Type::String)
                    },
                )]),
                ..Block::default()
            }),
        };
        let mut p = ProviderSchema {
            resources: SchemaMap::from([("test_a".to_string(), good.clone())]),
            ..ProviderSchema::default()
        };
        assert_eq!(p.validate(addr), Ok(()));
        assert!(p.schema_for(SchemaKind::Managed, "test_a").is_some());
        assert!(p.schema_for(SchemaKind::Data, "test_a").is_none());

        p.data_sources.insert(
            "test_d".into(),
            Schema {
                version: -1,
                ..good.clone()
            },
        );
        assert_eq!(
            p.validate(addr).unwrap_err().to_string(),
            "provider registry.opentofu.org/hashicorp/test has invalid negative schema version for data resource type \"test_d\", which is a bug in the provider"
        );

        let mut bad = good.clone();
        bad.block
            .as_mut()
            .expect("block")
            .attributes
            .get_mut("id")
            .expect("id")
            .computed = false;
        p.resources.insert("test_b".into(), bad);
        assert_eq!(
            p.validate(addr).unwrap_err().to_string(),
            "provider registry.opentofu.org/hashicorp/test has invalid schema for managed resource type \"test_b\", which is a bug in the provider: 1 error occurred:\n\t* id: must set Optional, Required or Computed\n\n"
        );

        p.ephemeral_resources
            .insert("test_e".into(), Schema::default());
        p.resources.remove("test_b");
        p.data_sources.clear();
        assert_eq!(
            p.validate(addr).unwrap_err().to_string(),
            "provider registry.opentofu.org/hashicorp/test has invalid schema for ephemeral resource type \"test_e\", which is a bug in the provider: top-level block schema is nil"
        );

        p.provider.version = -2;
        assert!(matches!(
            p.validate(addr),
            Err(InvalidProviderSchema::NegativeProviderVersion { .. })
        ));
    }
}
