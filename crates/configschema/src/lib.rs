//! configschema: provider schemas as OpenTofu models them
//! (`internal/configs/configschema`): blocks, attributes, nested blocks and
//! nested attribute types, the object type a block decodes to
//! ([`Block::implied_type`]) and the checks OpenTofu runs on a schema a
//! provider sends ([`Block::internal_validate`]); the `providers schema
//! -json` document of one provider ([`json`]); and go-cty's msgpack
//! encoding of values ([`msgpack`]), the form values take in the plugin
//! protocol. Knows nothing of plugins, gRPC, configuration files or
//! commands.
//!
//! ```
//! use configschema::{json, msgpack};
//!
//! let doc = r#"{"provider":{"version":0,"block":{"attributes":{"name":{"type":"string","description_kind":"plain","required":true}},"description_kind":"plain"}}}"#;
//! let schema = json::decode_provider(doc).unwrap();
//! assert_eq!(json::encode_provider(&schema), doc);
//!
//! let block = schema.provider.block.as_ref().unwrap();
//! let ty = block.implied_type();
//! let value = cty::Value::object_from([("name", cty::Value::string("x"))]);
//! let bytes = msgpack::marshal(&value, &ty).unwrap();
//! assert_eq!(bytes, b"\x81\xa4name\xa1x");
//! assert_eq!(msgpack::unmarshal(&bytes, &ty).unwrap(), value);
//! ```

mod coerce_value;
mod empty_value;
pub mod function;
pub mod internal_validate;
pub mod json;
mod marks;
pub mod msgpack;
mod path;
pub mod provider;
pub mod schema;
mod schema_map;
mod write_only;

pub use function::{Function, FunctionParameter};
pub use internal_validate::{InvalidSchema, ProblemKind, SchemaProblem};
pub use marks::DeprecationMarker;
pub use provider::{InvalidProviderSchema, ProviderSchema, ProviderSchemas, Schema, SchemaKind};
pub use schema::{
    Attribute, AttributeType, Block, NestedBlock, NestingMode, Object, ObjectNesting, StringKind,
};
pub use schema_map::SchemaMap;
