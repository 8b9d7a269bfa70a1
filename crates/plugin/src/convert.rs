//! Protocol messages to and from tofu-rs's own types, with OpenTofu's
//! semantics (`internal/plugin/convert`, `internal/plugin6/convert`):
//! schemas, provider functions, diagnostics, attribute paths and dynamic
//! values.
//!
//! Protocols 5 and 6 have the same messages under different packages, and
//! protocol 6 adds nested attribute types; one body of code, instantiated
//! per protocol by `protocol_conversions!`, serves both.

use std::collections::BTreeMap;
use std::fmt;

use configschema::{
    Attribute, AttributeType, Block, Function, FunctionParameter, NestedBlock, NestingMode, Object,
    ObjectNesting, ProviderSchema, Schema, StringKind,
};
use cty::{Path, PathStep, Type, Value};

/// A diagnostic a provider returned (`tfdiags` from `ProtoToDiagnostics`).
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderDiagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// One line saying what is wrong.
    pub summary: String,
    /// More about it; may be empty.
    pub detail: String,
    /// The attribute it is about, within the value sent; `None` for the
    /// whole containing body.
    pub attribute: Option<Path>,
}

/// How bad a [`ProviderDiagnostic`] is. Protocol's `INVALID` severity is
/// taken as an error, as tfdiags' zero value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The operation failed.
    Error,
    /// Worth telling the user; the operation went on.
    Warning,
}

/// A schema the provider sent that cannot be read. OpenTofu panics on the
/// first two; a nesting mode it does not know becomes an invalid block that
/// `InternalValidate` rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// Where: `resource_schemas.aws_instance.block.attributes.ami`, say.
    pub path: String,
    /// What is wrong there.
    pub problem: SchemaProblem,
}

/// What is wrong in a [`SchemaError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaProblem {
    /// A type's JSON does not parse as a cty type.
    InvalidType(String),
    /// An attribute has both a type and a nested type.
    TypeAndNestedType,
    /// An attribute has neither a type nor a nested type.
    NoType,
    /// A nesting mode number this protocol does not define (or `INVALID`).
    InvalidNesting(i32),
    /// A nested block type without a block.
    NoBlock,
    /// A function without a return type.
    NoReturnType,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.path)?;
        match &self.problem {
            SchemaProblem::InvalidType(e) => write!(f, "invalid type: {e}"),
            SchemaProblem::TypeAndNestedType => f.write_str("both Type and NestedType are set"),
            SchemaProblem::NoType => f.write_str("Type or NestedType must be set"),
            SchemaProblem::InvalidNesting(n) => write!(f, "invalid nesting mode {n}"),
            SchemaProblem::NoBlock => f.write_str("nested block type has no block"),
            SchemaProblem::NoReturnType => f.write_str("function has no return type"),
        }
    }
}

impl std::error::Error for SchemaError {}

fn parse_type(bytes: &[u8], path: &str) -> Result<Type, SchemaError> {
    let err = |msg: String| SchemaError {
        path: path.to_owned(),
        problem: SchemaProblem::InvalidType(msg),
    };
    let text = std::str::from_utf8(bytes).map_err(|e| err(e.to_string()))?;
    cty::json::unmarshal_type(text).map_err(|e| err(e.msg))
}

fn string_kind(k: i32) -> StringKind {
    // Anything but MARKDOWN is plain, as in schemaStringKind.
    if k == 1 {
        StringKind::Markdown
    } else {
        StringKind::Plain
    }
}

fn string_kind_to_proto(k: StringKind) -> i32 {
    match k {
        StringKind::Plain => 0,
        StringKind::Markdown => 1,
    }
}

/// `NestedBlock.NestingMode` numbers (the same in both protocols).
fn block_nesting(n: i32) -> Option<NestingMode> {
    Some(match n {
        1 => NestingMode::Single,
        2 => NestingMode::List,
        3 => NestingMode::Set,
        4 => NestingMode::Map,
        5 => NestingMode::Group,
        _ => return None,
    })
}

fn block_nesting_to_proto(n: NestingMode) -> i32 {
    match n {
        NestingMode::Single => 1,
        NestingMode::List => 2,
        NestingMode::Set => 3,
        NestingMode::Map => 4,
        NestingMode::Group => 5,
    }
}

/// `Schema.Object.NestingMode` numbers (protocol 6).
fn object_nesting(n: i32) -> Option<ObjectNesting> {
    Some(match n {
        1 => ObjectNesting::Single,
        2 => ObjectNesting::List,
        3 => ObjectNesting::Set,
        4 => ObjectNesting::Map,
        _ => return None,
    })
}

fn object_nesting_to_proto(n: ObjectNesting) -> i32 {
    match n {
        ObjectNesting::Single => 1,
        ObjectNesting::List => 2,
        ObjectNesting::Set => 3,
        ObjectNesting::Map => 4,
    }
}

fn severity(n: i32) -> Severity {
    if n == 2 {
        Severity::Warning
    } else {
        Severity::Error
    }
}

fn severity_to_proto(s: Severity) -> i32 {
    match s {
        Severity::Error => 1,
        Severity::Warning => 2,
    }
}

/// Why a value could not be sent or read.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueError {
    /// msgpack encoding or decoding failed (go-cty's message).
    Msgpack(configschema::msgpack::Error),
    /// The provider sent JSON that does not decode to the type.
    Json(String),
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Msgpack(e) => write!(f, "{}", e.message),
            ValueError::Json(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ValueError {}

macro_rules! protocol_conversions {
    ($pb:ident) => {
        use super::*;
        use crate::proto::$pb as pb;
        use pb::attribute_path::step::Selector;

        /// `ProtoToConfigSchema`.
        pub fn block_from_proto(b: &pb::schema::Block, path: &str) -> Result<Block, SchemaError> {
            let mut block = Block {
                description: b.description.clone(),
                description_kind: string_kind(b.description_kind),
                deprecated: b.deprecated,
                deprecation_message: b.deprecation_message.clone(),
                ..Block::default()
            };
            for a in &b.attributes {
                let apath = format!("{path}.attributes.{}", a.name);
                let ty = attribute_type(a, &apath)?;
                let attr = Attribute {
                    ty,
                    description: a.description.clone(),
                    description_kind: string_kind(a.description_kind),
                    required: a.required,
                    optional: a.optional,
                    computed: a.computed,
                    sensitive: a.sensitive,
                    deprecated: a.deprecated,
                    deprecation_message: a.deprecation_message.clone(),
                    write_only: a.write_only,
                };
                block.attributes.insert(a.name.clone(), attr);
            }
            for nb in &b.block_types {
                let bpath = format!("{path}.block_types.{}", nb.type_name);
                let nesting = block_nesting(nb.nesting).ok_or_else(|| SchemaError {
                    path: bpath.clone(),
                    problem: SchemaProblem::InvalidNesting(nb.nesting),
                })?;
                let inner = nb.block.as_ref().ok_or_else(|| SchemaError {
                    path: bpath.clone(),
                    problem: SchemaProblem::NoBlock,
                })?;
                let nested = NestedBlock {
                    block: block_from_proto(inner, &format!("{bpath}.block"))?,
                    nesting,
                    min_items: nb.min_items,
                    max_items: nb.max_items,
                };
                block.block_types.insert(nb.type_name.clone(), nested);
            }
            Ok(block)
        }

        /// `ProtoToProviderSchema`.
        pub fn schema_from_proto(s: &pb::Schema, path: &str) -> Result<Schema, SchemaError> {
            Ok(Schema {
                version: s.version,
                block: match &s.block {
                    Some(b) => Some(block_from_proto(b, &format!("{path}.block"))?),
                    None => None,
                },
            })
        }

        /// `ConfigSchemaToProto`.
        pub fn block_to_proto(b: &Block) -> pb::schema::Block {
            pb::schema::Block {
                version: 0,
                attributes: b
                    .attributes
                    .iter()
                    .map(|(name, a)| attribute_to_proto(name, a))
                    .collect(),
                block_types: b
                    .block_types
                    .iter()
                    .map(|(name, nb)| pb::schema::NestedBlock {
                        type_name: name.clone(),
                        block: Some(block_to_proto(&nb.block)),
                        nesting: block_nesting_to_proto(nb.nesting),
                        min_items: nb.min_items,
                        max_items: nb.max_items,
                    })
                    .collect(),
                description: b.description.clone(),
                description_kind: string_kind_to_proto(b.description_kind),
                deprecated: b.deprecated,
                deprecation_message: b.deprecation_message.clone(),
            }
        }

        /// A versioned schema for the wire.
        pub fn schema_to_proto(s: &Schema) -> pb::Schema {
            pb::Schema {
                version: s.version,
                block: s.block.as_ref().map(block_to_proto),
            }
        }

        /// `ProtoToFunctionSpec`, then OpenTofu's JSON form of it.
        pub fn function_from_proto(
            f: &pb::Function,
            path: &str,
        ) -> Result<serde_json::Value, SchemaError> {
            let param = |p: &pb::function::Parameter, i: String| -> Result<_, SchemaError> {
                Ok(FunctionParameter {
                    name: p.name.clone(),
                    description: p.description.clone(),
                    ty: parse_type(&p.r#type, &format!("{path}.{i}"))?,
                    is_nullable: p.allow_null_value,
                })
            };
            let ret = f.r#return.as_ref().ok_or_else(|| SchemaError {
                path: path.to_owned(),
                problem: SchemaProblem::NoReturnType,
            })?;
            let func = Function {
                description: f.description.clone(),
                summary: f.summary.clone(),
                deprecation_message: f.deprecation_message.clone(),
                return_type: parse_type(&ret.r#type, &format!("{path}.return"))?,
                parameters: f
                    .parameters
                    .iter()
                    .enumerate()
                    .map(|(i, p)| param(p, format!("parameters.{i}")))
                    .collect::<Result<_, _>>()?,
                variadic_parameter: match &f.variadic_parameter {
                    Some(p) => Some(param(p, "variadic_parameter".to_owned())?),
                    None => None,
                },
            };
            Ok(func.to_json())
        }

        /// A function read from `providers schema -json`'s form, for the wire.
        pub fn function_to_proto(f: &Function) -> pb::Function {
            let param = |p: &FunctionParameter| pb::function::Parameter {
                name: p.name.clone(),
                r#type: cty::json::marshal_type(&p.ty).into_bytes(),
                allow_null_value: p.is_nullable,
                allow_unknown_values: false,
                description: p.description.clone(),
                description_kind: 0,
            };
            pb::Function {
                parameters: f.parameters.iter().map(param).collect(),
                variadic_parameter: f.variadic_parameter.as_ref().map(param),
                r#return: Some(pb::function::Return {
                    r#type: cty::json::marshal_type(&f.return_type).into_bytes(),
                }),
                summary: f.summary.clone(),
                description: f.description.clone(),
                description_kind: 0,
                deprecation_message: f.deprecation_message.clone(),
            }
        }

        /// The schemas of a `GetProviderSchema` response.
        pub fn provider_schema_from_proto(
            r: &pb::get_provider_schema::Response,
        ) -> Result<ProviderSchema, SchemaError> {
            let mut out = ProviderSchema::default();
            if let Some(p) = &r.provider {
                out.provider = schema_from_proto(p, "provider")?;
            }
            let kinds = [
                (&r.resource_schemas, &mut out.resources, "resource_schemas"),
                (
                    &r.data_source_schemas,
                    &mut out.data_sources,
                    "data_source_schemas",
                ),
                (
                    &r.ephemeral_resource_schemas,
                    &mut out.ephemeral_resources,
                    "ephemeral_resource_schemas",
                ),
            ];
            for (from, to, what) in kinds {
                for (name, s) in from {
                    to.insert(
                        name.clone(),
                        schema_from_proto(s, &format!("{what}.{name}"))?,
                    );
                }
            }
            for (name, f) in &r.functions {
                out.functions.insert(
                    name.clone(),
                    function_from_proto(f, &format!("functions.{name}"))?,
                );
            }
            Ok(out)
        }

        /// `ProtoToDiagnostics`.
        pub fn diagnostics_from_proto(ds: &[pb::Diagnostic]) -> Vec<ProviderDiagnostic> {
            ds.iter()
                .map(|d| ProviderDiagnostic {
                    severity: severity(d.severity),
                    summary: d.summary.clone(),
                    detail: d.detail.clone(),
                    attribute: d.attribute.as_ref().map(path_from_proto),
                })
                .collect()
        }

        /// A diagnostic for the wire.
        pub fn diagnostic_to_proto(d: &ProviderDiagnostic) -> pb::Diagnostic {
            pb::Diagnostic {
                severity: severity_to_proto(d.severity),
                summary: d.summary.clone(),
                detail: d.detail.clone(),
                attribute: d.attribute.as_ref().map(path_to_proto),
            }
        }

        /// `AttributePathToPath`.
        pub fn path_from_proto(ap: &pb::AttributePath) -> Path {
            Path(
                ap.steps
                    .iter()
                    .filter_map(|s| {
                        Some(match s.selector.as_ref()? {
                            Selector::AttributeName(n) => PathStep::GetAttr(n.clone()),
                            Selector::ElementKeyString(k) => PathStep::Index(Value::string(k)),
                            Selector::ElementKeyInt(i) => PathStep::Index(Value::number_int(*i)),
                        })
                    })
                    .collect(),
            )
        }

        /// `PathToAttributePath`: stops at the first step it cannot express
        /// (an index that is neither a string nor an integer), keeping the
        /// valid prefix.
        pub fn path_to_proto(p: &Path) -> pb::AttributePath {
            let mut steps = Vec::new();
            for step in &p.0 {
                let selector = match step {
                    PathStep::GetAttr(n) => Selector::AttributeName(n.clone()),
                    PathStep::Index(k) => {
                        if let Some(s) = k.as_str() {
                            Selector::ElementKeyString(s.to_owned())
                        } else if let Some(i) = k.as_number().and_then(|n| n.to_i64()) {
                            Selector::ElementKeyInt(i)
                        } else {
                            break;
                        }
                    }
                };
                steps.push(pb::attribute_path::Step {
                    selector: Some(selector),
                });
            }
            pb::AttributePath { steps }
        }

        /// A value for the wire (msgpack, as OpenTofu sends them).
        pub fn dynamic_value(v: &Value, ty: &Type) -> Result<pb::DynamicValue, ValueError> {
            Ok(pb::DynamicValue {
                msgpack: configschema::msgpack::marshal(v, ty).map_err(ValueError::Msgpack)?,
                json: Vec::new(),
            })
        }

        /// A value from the wire: msgpack, or JSON when a provider sends that.
        pub fn value_from_dynamic(dv: &pb::DynamicValue, ty: &Type) -> Result<Value, ValueError> {
            if !dv.msgpack.is_empty() {
                return configschema::msgpack::unmarshal(&dv.msgpack, ty)
                    .map_err(ValueError::Msgpack);
            }
            if !dv.json.is_empty() {
                let text = String::from_utf8_lossy(&dv.json);
                return cty::json::unmarshal(&text, ty).map_err(ValueError::Json);
            }
            Ok(Value::null(ty.clone()))
        }
    };
}

/// Protocol 5 conversions.
pub mod v5 {
    protocol_conversions!(tfplugin5);

    fn attribute_type(a: &pb::schema::Attribute, path: &str) -> Result<AttributeType, SchemaError> {
        if a.r#type.is_empty() {
            return Err(SchemaError {
                path: path.to_owned(),
                problem: SchemaProblem::NoType,
            });
        }
        Ok(AttributeType::Type(parse_type(&a.r#type, path)?))
    }

    fn attribute_to_proto(name: &str, a: &Attribute) -> pb::schema::Attribute {
        pb::schema::Attribute {
            name: name.to_owned(),
            // Protocol 5 has no nested attribute types; send the implied type.
            r#type: cty::json::marshal_type(&a.implied_type()).into_bytes(),
            description: a.description.clone(),
            required: a.required,
            optional: a.optional,
            computed: a.computed,
            sensitive: a.sensitive,
            description_kind: string_kind_to_proto(a.description_kind),
            deprecated: a.deprecated,
            write_only: a.write_only,
            deprecation_message: a.deprecation_message.clone(),
        }
    }
}

/// Protocol 6 conversions.
pub mod v6 {
    protocol_conversions!(tfplugin6);

    fn attribute_type(a: &pb::schema::Attribute, path: &str) -> Result<AttributeType, SchemaError> {
        let problem = |problem| SchemaError {
            path: path.to_owned(),
            problem,
        };
        match (&a.nested_type, a.r#type.is_empty()) {
            (Some(_), false) => Err(problem(SchemaProblem::TypeAndNestedType)),
            (None, true) => Err(problem(SchemaProblem::NoType)),
            (None, false) => Ok(AttributeType::Type(parse_type(&a.r#type, path)?)),
            (Some(o), true) => Ok(AttributeType::Nested(object_from_proto(
                o,
                &format!("{path}.nested_type"),
            )?)),
        }
    }

    /// `protoObjectToConfigSchema`: like OpenTofu, nested attributes keep
    /// no deprecation message.
    fn object_from_proto(o: &pb::schema::Object, path: &str) -> Result<Object, SchemaError> {
        let nesting = object_nesting(o.nesting).ok_or_else(|| SchemaError {
            path: path.to_owned(),
            problem: SchemaProblem::InvalidNesting(o.nesting),
        })?;
        let mut attributes = BTreeMap::new();
        for a in &o.attributes {
            let apath = format!("{path}.attributes.{}", a.name);
            let attr = Attribute {
                ty: attribute_type(a, &apath)?,
                description: a.description.clone(),
                description_kind: string_kind(a.description_kind),
                required: a.required,
                optional: a.optional,
                computed: a.computed,
                sensitive: a.sensitive,
                deprecated: a.deprecated,
                deprecation_message: String::new(),
                write_only: a.write_only,
            };
            attributes.insert(a.name.clone(), attr);
        }
        Ok(Object {
            attributes,
            nesting,
        })
    }

    fn attribute_to_proto(name: &str, a: &Attribute) -> pb::schema::Attribute {
        let (ty, nested) = match &a.ty {
            AttributeType::Type(t) => (cty::json::marshal_type(t).into_bytes(), None),
            AttributeType::Nested(o) => (Vec::new(), Some(object_to_proto(o))),
        };
        pb::schema::Attribute {
            name: name.to_owned(),
            r#type: ty,
            nested_type: nested,
            description: a.description.clone(),
            required: a.required,
            optional: a.optional,
            computed: a.computed,
            sensitive: a.sensitive,
            description_kind: string_kind_to_proto(a.description_kind),
            deprecated: a.deprecated,
            write_only: a.write_only,
            deprecation_message: a.deprecation_message.clone(),
        }
    }

    #[allow(deprecated)]
    fn object_to_proto(o: &Object) -> pb::schema::Object {
        pb::schema::Object {
            attributes: o
                .attributes
                .iter()
                .map(|(name, a)| attribute_to_proto(name, a))
                .collect(),
            nesting: object_nesting_to_proto(o.nesting),
            min_items: 0,
            max_items: 0,
        }
    }
}

#[cfg(test)]
mod tests;
