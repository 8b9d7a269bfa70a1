//! The `providers schema -json` document (`internal/command/jsonprovider`):
//! decoding one provider's entry of `provider_schemas` (or the whole
//! document) into [`ProviderSchema`], and encoding it back to the bytes
//! OpenTofu prints.
//!
//! Encoding follows `jsonprovider`'s structs field by field: fields in
//! struct order, map keys sorted, `omitempty` fields left out when empty,
//! `description_kind` always present on blocks and attributes (the
//! `marshalBlock`/`marshalAttribute` functions always set it), strings
//! escaped as Go's `encoding/json` escapes them (`<`, `>`, `&` as
//! `\u003c`...), no whitespace. A document OpenTofu printed therefore
//! decodes and encodes back to the same bytes; so does one terraform
//! printed (checked against terraform v1.11's builtin provider), since
//! provider functions, the one part whose shape differs, are kept as
//! written ([`crate::function`]).
//!
//! Decoding is strict: an unknown field, a value of the wrong JSON type or
//! an unknown nesting mode is an error naming the field by its JSON
//! pointer (`/resource_schemas/aws_instance/block/attributes/ami/type`),
//! since a field this crate does not know would silently vanish from the
//! re-encoded document.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::schema_map::SchemaMap;

use crate::provider::{ProviderSchema, ProviderSchemas, Schema};
use crate::schema::{
    Attribute, AttributeType, Block, NestedBlock, NestingMode, Object, ObjectNesting, StringKind,
};

/// Why a schema document did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Where: the path of object keys from the document's root to the bad value.
    pub path: Vec<String>,
    /// What is wrong there.
    pub problem: DecodeProblem,
}

/// What is wrong with a value of a schema document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeProblem {
    /// The text is not JSON (serde_json's message).
    Syntax(String),
    /// A value of the wrong JSON type; names the expected one.
    WrongType(&'static str),
    /// A field this format does not have.
    UnknownField,
    /// A field the format requires is absent.
    MissingField(&'static str),
    /// `type` is not a cty type description (go-cty's message).
    InvalidType(String),
    /// A name outside the field's vocabulary (a nesting mode, a description kind).
    InvalidName(String),
    /// An attribute with both `type` and `nested_type`.
    TypeAndNestedType,
    /// An attribute with neither `type` nor `nested_type`.
    NoType,
}

impl DecodeError {
    /// The path as a JSON pointer (RFC 6901): `/resource_schemas/x/block`.
    pub fn pointer(&self) -> String {
        let mut s = String::new();
        for step in &self.path {
            s.push('/');
            s.push_str(&step.replace('~', "~0").replace('/', "~1"));
        }
        s
    }
}

impl fmt::Display for DecodeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeProblem::Syntax(msg) => write!(f, "invalid JSON: {msg}"),
            DecodeProblem::WrongType(want) => write!(f, "must be {want}"),
            DecodeProblem::UnknownField => f.write_str("unknown field"),
            DecodeProblem::MissingField(name) => write!(f, "missing field {name:?}"),
            DecodeProblem::InvalidType(msg) => write!(f, "invalid type: {msg}"),
            DecodeProblem::InvalidName(name) => write!(f, "invalid value {name:?}"),
            DecodeProblem::TypeAndNestedType => {
                f.write_str("\"type\" and \"nested_type\" cannot both be set")
            }
            DecodeProblem::NoType => f.write_str("either \"type\" or \"nested_type\" must be set"),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "{}: {}", self.pointer(), self.problem)
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes one provider's entry of `provider_schemas`.
pub fn decode_provider(src: &str) -> Result<ProviderSchema, DecodeError> {
    let v = parse(src)?;
    Decoder::default().provider(&v)
}

/// Decodes one provider's entry of `provider_schemas` that this crate's
/// own encoder wrote and that is known to be intact (a schema cache entry
/// whose checksum matched): the provider's configuration block, functions
/// and identities are decoded now, each resource type, data source and
/// ephemeral resource type only when first asked for
/// ([`crate::SchemaMap`]). The document's syntax is checked whole, so a
/// torn or truncated entry is still an error here.
pub fn decode_provider_trusted(src: Arc<str>) -> Result<ProviderSchema, DecodeError> {
    let raw: TrustedProvider<'_> = serde_json::from_str(&src).map_err(|e| DecodeError {
        path: Vec::new(),
        problem: DecodeProblem::Syntax(e.to_string()),
    })?;
    let base = src.as_ptr() as usize;
    let lazy = |types: Option<RawTypes<'_>>| {
        SchemaMap::from_texts(types.map(|t| t.0).unwrap_or_default().into_iter().map(
            |(name, text)| {
                let start = text.get().as_ptr() as usize - base;
                let range = start..start + text.get().len();
                (name, crate::schema_map::Text::new(src.clone(), range))
            },
        ))
    };
    let mut d = Decoder::default();
    let provider = parse(raw.provider.get())?;
    let mut p = ProviderSchema {
        provider: d.schema(&provider)?,
        resources: lazy(raw.resource_schemas),
        data_sources: lazy(raw.data_source_schemas),
        ephemeral_resources: lazy(raw.ephemeral_resource_schemas),
        ..ProviderSchema::default()
    };
    if let Some(f) = raw.functions {
        p.functions = d.raw_map(&parse(f.get())?)?;
    }
    if let Some(i) = raw.resource_identity_schemas {
        p.resource_identities = d.raw_map(&parse(i.get())?)?;
    }
    Ok(p)
}

/// The top level of a trusted provider entry, each type's text borrowed.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TrustedProvider<'a> {
    #[serde(borrow)]
    provider: &'a RawValue,
    #[serde(borrow, default)]
    resource_schemas: Option<RawTypes<'a>>,
    #[serde(borrow, default)]
    data_source_schemas: Option<RawTypes<'a>>,
    #[serde(borrow, default)]
    ephemeral_resource_schemas: Option<RawTypes<'a>>,
    #[serde(borrow, default)]
    functions: Option<&'a RawValue>,
    #[serde(borrow, default)]
    resource_identity_schemas: Option<&'a RawValue>,
}

/// A map of type names to their text, in the document's order (which
/// this crate's encoder made sorted), without building a map to read it.
struct RawTypes<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for RawTypes<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Entries<'a> {
            type Value = RawTypes<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of schemas by type name")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<RawTypes<'a>, M::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry::<String, &'a RawValue>()? {
                    out.push(entry);
                }
                Ok(RawTypes(out))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// Decodes one type's `{"version":...,"block":...}`.
pub(crate) fn decode_schema(src: &str) -> Result<Schema, DecodeError> {
    let v = parse(src)?;
    Decoder::default().schema(&v)
}

/// Decodes a whole `providers schema -json` document.
pub fn decode_document(src: &str) -> Result<ProviderSchemas, DecodeError> {
    let v = parse(src)?;
    let mut d = Decoder::default();
    let mut doc = ProviderSchemas::default();
    let mut seen_version = false;
    d.fields(&v, |d, name, v| {
        match name {
            "format_version" => {
                doc.format_version = d.string(v)?;
                seen_version = true;
            }
            "provider_schemas" => doc.providers = d.map(v, Decoder::provider)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    if !seen_version {
        return Err(d.error(DecodeProblem::MissingField("format_version")));
    }
    Ok(doc)
}

/// Encodes one provider's entry of `provider_schemas`, as OpenTofu prints it.
pub fn encode_provider(p: &ProviderSchema) -> String {
    let mut out = String::new();
    write_provider(&mut out, p);
    out
}

/// Encodes a whole `providers schema -json` document, as OpenTofu prints
/// it (without the newline the command adds).
pub fn encode_document(doc: &ProviderSchemas) -> String {
    encode_document_of(
        &doc.format_version,
        doc.providers.iter().map(|(a, p)| (a.as_str(), p)),
    )
}

/// [`encode_document`] of schemas held elsewhere (shared, not owned):
/// `providers` by address, in address order.
pub fn encode_document_of<'p>(
    format_version: &str,
    providers: impl IntoIterator<Item = (&'p str, &'p ProviderSchema)>,
) -> String {
    let mut out = String::new();
    let mut o = ObjectWriter::open(&mut out);
    o.key("format_version");
    gocompat::json::push_string(o.out, format_version);
    let mut providers = providers.into_iter().peekable();
    if providers.peek().is_some() {
        o.key("provider_schemas");
        let mut m = ObjectWriter::open(o.out);
        for (addr, p) in providers {
            m.key(addr);
            write_provider(m.out, p);
        }
        m.close();
    }
    o.close();
    out
}

fn parse(src: &str) -> Result<Value, DecodeError> {
    serde_json::from_str(src).map_err(|e| DecodeError {
        path: Vec::new(),
        problem: DecodeProblem::Syntax(e.to_string()),
    })
}

/// Walks a parsed document, keeping the path for errors (borrowed from
/// the document: it is turned into strings only for an error).
#[derive(Default)]
struct Decoder<'v> {
    path: Vec<&'v str>,
}

impl<'v> Decoder<'v> {
    fn error(&self, problem: DecodeProblem) -> DecodeError {
        DecodeError {
            path: self.path.iter().map(|s| (*s).to_owned()).collect(),
            problem,
        }
    }

    /// Calls `field` for each member of an object, with the member's name
    /// on the path; `field` answers whether it knew the name.
    fn fields(
        &mut self,
        v: &'v Value,
        mut field: impl FnMut(&mut Decoder<'v>, &str, &'v Value) -> Result<bool, DecodeError>,
    ) -> Result<(), DecodeError> {
        let obj = self.object(v)?;
        for (name, v) in obj {
            self.path.push(name);
            if !field(self, name, v)? {
                return Err(self.error(DecodeProblem::UnknownField));
            }
            self.path.pop();
        }
        Ok(())
    }

    fn object(&self, v: &'v Value) -> Result<&'v Map<String, Value>, DecodeError> {
        v.as_object()
            .ok_or_else(|| self.error(DecodeProblem::WrongType("an object")))
    }

    fn map<T>(
        &mut self,
        v: &'v Value,
        mut item: impl FnMut(&mut Decoder<'v>, &'v Value) -> Result<T, DecodeError>,
    ) -> Result<BTreeMap<String, T>, DecodeError> {
        let mut out = BTreeMap::new();
        for (name, v) in self.object(v)? {
            self.path.push(name);
            out.insert(name.clone(), item(self, v)?);
            self.path.pop();
        }
        Ok(out)
    }

    fn raw_map(&mut self, v: &Value) -> Result<BTreeMap<String, Value>, DecodeError> {
        Ok(self
            .object(v)?
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect())
    }

    fn string(&self, v: &Value) -> Result<String, DecodeError> {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.error(DecodeProblem::WrongType("a string")))
    }

    fn bool(&self, v: &Value) -> Result<bool, DecodeError> {
        v.as_bool()
            .ok_or_else(|| self.error(DecodeProblem::WrongType("true or false")))
    }

    fn u64(&self, v: &Value) -> Result<u64, DecodeError> {
        v.as_u64()
            .ok_or_else(|| self.error(DecodeProblem::WrongType("a non-negative integer")))
    }

    fn provider(&mut self, v: &'v Value) -> Result<ProviderSchema, DecodeError> {
        let mut p = ProviderSchema::default();
        let mut seen_provider = false;
        self.fields(v, |d, name, v| {
            match name {
                "provider" => {
                    p.provider = d.schema(v)?;
                    seen_provider = true;
                }
                "resource_schemas" => {
                    p.resources = d.map(v, Decoder::schema)?.into_iter().collect()
                }
                "data_source_schemas" => {
                    p.data_sources = d.map(v, Decoder::schema)?.into_iter().collect()
                }
                "ephemeral_resource_schemas" => {
                    p.ephemeral_resources = d.map(v, Decoder::schema)?.into_iter().collect()
                }
                "functions" => p.functions = d.raw_map(v)?,
                "resource_identity_schemas" => p.resource_identities = d.raw_map(v)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if !seen_provider {
            return Err(self.error(DecodeProblem::MissingField("provider")));
        }
        Ok(p)
    }

    fn schema(&mut self, v: &'v Value) -> Result<Schema, DecodeError> {
        let mut s = Schema::default();
        let mut seen_version = false;
        self.fields(v, |d, name, v| {
            match name {
                "version" => {
                    // `uint64(Version)`, as for item limits below.
                    s.version = d.u64(v)? as i64;
                    seen_version = true;
                }
                "block" => s.block = Some(d.block(v)?),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if !seen_version {
            return Err(self.error(DecodeProblem::MissingField("version")));
        }
        Ok(s)
    }

    fn block(&mut self, v: &'v Value) -> Result<Block, DecodeError> {
        let mut b = Block::default();
        self.fields(v, |d, name, v| {
            match name {
                "attributes" => b.attributes = d.map(v, Decoder::attribute)?,
                "block_types" => b.block_types = d.map(v, Decoder::nested_block)?,
                "description" => b.description = d.string(v)?,
                "description_kind" => b.description_kind = d.string_kind(v)?,
                "deprecated" => b.deprecated = d.bool(v)?,
                "deprecation_message" => b.deprecation_message = d.string(v)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(b)
    }

    fn string_kind(&self, v: &Value) -> Result<StringKind, DecodeError> {
        match self.string(v)?.as_str() {
            "plain" => Ok(StringKind::Plain),
            "markdown" => Ok(StringKind::Markdown),
            other => Err(self.error(DecodeProblem::InvalidName(other.to_owned()))),
        }
    }

    fn nesting_mode(&self, v: &Value) -> Result<NestingMode, DecodeError> {
        match self.string(v)?.as_str() {
            "single" => Ok(NestingMode::Single),
            "group" => Ok(NestingMode::Group),
            "list" => Ok(NestingMode::List),
            "set" => Ok(NestingMode::Set),
            "map" => Ok(NestingMode::Map),
            other => Err(self.error(DecodeProblem::InvalidName(other.to_owned()))),
        }
    }

    fn nested_block(&mut self, v: &'v Value) -> Result<NestedBlock, DecodeError> {
        let (mut nesting, mut block) = (None, None);
        let (mut min_items, mut max_items) = (0, 0);
        self.fields(v, |d, name, v| {
            match name {
                "nesting_mode" => nesting = Some(d.nesting_mode(v)?),
                "block" => block = Some(d.block(v)?),
                // Go writes `uint64(int)`; a negative limit a provider sent
                // comes back as its two's complement, and is kept so.
                "min_items" => min_items = d.u64(v)? as i64,
                "max_items" => max_items = d.u64(v)? as i64,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let nesting =
            nesting.ok_or_else(|| self.error(DecodeProblem::MissingField("nesting_mode")))?;
        let block = block.ok_or_else(|| self.error(DecodeProblem::MissingField("block")))?;
        Ok(NestedBlock {
            block,
            nesting,
            min_items,
            max_items,
        })
    }

    fn attribute(&mut self, v: &'v Value) -> Result<Attribute, DecodeError> {
        let (mut ty, mut nested) = (None, None);
        let mut a = Attribute::new(cty::Type::Dynamic);
        self.fields(v, |d, name, v| {
            match name {
                "type" => ty = Some(d.cty_type(v)?),
                "nested_type" => nested = Some(d.object_type(v)?),
                "description" => a.description = d.string(v)?,
                "description_kind" => a.description_kind = d.string_kind(v)?,
                "deprecated" => a.deprecated = d.bool(v)?,
                "deprecation_message" => a.deprecation_message = d.string(v)?,
                "required" => a.required = d.bool(v)?,
                "optional" => a.optional = d.bool(v)?,
                "computed" => a.computed = d.bool(v)?,
                "sensitive" => a.sensitive = d.bool(v)?,
                "write_only" => a.write_only = d.bool(v)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        a.ty = match (ty, nested) {
            (Some(t), None) => AttributeType::Type(t),
            (None, Some(o)) => AttributeType::Nested(o),
            (Some(_), Some(_)) => return Err(self.error(DecodeProblem::TypeAndNestedType)),
            (None, None) => return Err(self.error(DecodeProblem::NoType)),
        };
        Ok(a)
    }

    /// A cty type description; primitive types (most attributes) without
    /// a round through `unmarshal_type`'s text parser.
    fn cty_type(&self, v: &Value) -> Result<cty::Type, DecodeError> {
        match v.as_str() {
            Some("string") => return Ok(cty::Type::String),
            Some("number") => return Ok(cty::Type::Number),
            Some("bool") => return Ok(cty::Type::Bool),
            Some("dynamic") => return Ok(cty::Type::Dynamic),
            _ => {}
        }
        cty::json::unmarshal_type(&v.to_string())
            .map_err(|e| self.error(DecodeProblem::InvalidType(e.msg)))
    }

    fn object_type(&mut self, v: &'v Value) -> Result<Object, DecodeError> {
        let mut nesting = None;
        let mut attributes = BTreeMap::new();
        self.fields(v, |d, name, v| {
            match name {
                "attributes" => attributes = d.map(v, Decoder::attribute)?,
                "nesting_mode" => {
                    nesting = Some(match d.nesting_mode(v)? {
                        NestingMode::Single => ObjectNesting::Single,
                        NestingMode::List => ObjectNesting::List,
                        NestingMode::Set => ObjectNesting::Set,
                        NestingMode::Map => ObjectNesting::Map,
                        NestingMode::Group => {
                            return Err(d.error(DecodeProblem::InvalidName("group".into())))
                        }
                    })
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let nesting =
            nesting.ok_or_else(|| self.error(DecodeProblem::MissingField("nesting_mode")))?;
        Ok(Object {
            attributes,
            nesting,
        })
    }
}

/// Writes a JSON object's members, commas between them.
struct ObjectWriter<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> ObjectWriter<'a> {
    fn open(out: &'a mut String) -> ObjectWriter<'a> {
        out.push('{');
        ObjectWriter { out, first: true }
    }

    fn key(&mut self, name: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        gocompat::json::push_string(self.out, name);
        self.out.push(':');
    }

    fn string(&mut self, name: &str, value: &str) {
        self.key(name);
        gocompat::json::push_string(self.out, value);
    }

    /// An `omitempty` string.
    fn string_nonempty(&mut self, name: &str, value: &str) {
        if !value.is_empty() {
            self.string(name, value);
        }
    }

    /// An `omitempty` bool.
    fn true_only(&mut self, name: &str, value: bool) {
        if value {
            self.key(name);
            self.out.push_str("true");
        }
    }

    /// An `omitempty` uint64.
    fn u64_nonzero(&mut self, name: &str, value: u64) {
        if value != 0 {
            self.key(name);
            self.out.push_str(&value.to_string());
        }
    }

    fn close(self) {
        self.out.push('}');
    }
}

fn write_provider(out: &mut String, p: &ProviderSchema) {
    let mut o = ObjectWriter::open(out);
    o.key("provider");
    write_schema(o.out, &p.provider);
    for (name, schemas) in [
        ("resource_schemas", &p.resources),
        ("data_source_schemas", &p.data_sources),
        ("ephemeral_resource_schemas", &p.ephemeral_resources),
    ] {
        if !schemas.is_empty() {
            o.key(name);
            let mut m = ObjectWriter::open(o.out);
            for type_name in schemas.keys() {
                m.key(type_name);
                // A lazily read type not changed since is written back as
                // read (this encoder's own bytes), decoded or not.
                match schemas.original_text(type_name) {
                    Some(text) => m.out.push_str(text),
                    None => write_schema(m.out, &schemas[type_name.as_str()]),
                }
            }
            m.close();
        }
    }
    for (name, raw) in [
        ("functions", &p.functions),
        ("resource_identity_schemas", &p.resource_identities),
    ] {
        if !raw.is_empty() {
            o.key(name);
            let mut m = ObjectWriter::open(o.out);
            for (k, v) in raw {
                m.key(k);
                write_raw(m.out, v);
            }
            m.close();
        }
    }
    o.close();
}

fn write_schema(out: &mut String, s: &Schema) {
    let mut o = ObjectWriter::open(out);
    o.key("version");
    o.out.push_str(&(s.version as u64).to_string());
    if let Some(block) = &s.block {
        o.key("block");
        write_block(o.out, block);
    }
    o.close();
}

fn write_block(out: &mut String, b: &Block) {
    let mut o = ObjectWriter::open(out);
    if !b.attributes.is_empty() {
        o.key("attributes");
        write_attributes(o.out, &b.attributes);
    }
    if !b.block_types.is_empty() {
        o.key("block_types");
        let mut m = ObjectWriter::open(o.out);
        for (name, nested) in &b.block_types {
            m.key(name);
            let mut n = ObjectWriter::open(m.out);
            n.string("nesting_mode", nested.nesting.as_str());
            n.key("block");
            write_block(n.out, &nested.block);
            // `uint64(MinItems)`: Go's conversion wraps negatives.
            n.u64_nonzero("min_items", nested.min_items as u64);
            n.u64_nonzero("max_items", nested.max_items as u64);
            n.close();
        }
        m.close();
    }
    o.string_nonempty("description", &b.description);
    o.string("description_kind", b.description_kind.as_str());
    o.true_only("deprecated", b.deprecated);
    o.string_nonempty("deprecation_message", &b.deprecation_message);
    o.close();
}

fn write_attributes(out: &mut String, attrs: &BTreeMap<String, Attribute>) {
    let mut m = ObjectWriter::open(out);
    for (name, a) in attrs {
        m.key(name);
        write_attribute(m.out, a);
    }
    m.close();
}

fn write_attribute(out: &mut String, a: &Attribute) {
    let mut o = ObjectWriter::open(out);
    match &a.ty {
        AttributeType::Type(t) => {
            o.key("type");
            o.out.push_str(&cty::json::marshal_type(t));
        }
        AttributeType::Nested(obj) => {
            o.key("nested_type");
            let mut n = ObjectWriter::open(o.out);
            if !obj.attributes.is_empty() {
                n.key("attributes");
                write_attributes(n.out, &obj.attributes);
            }
            n.string("nesting_mode", obj.nesting.as_nesting_mode().as_str());
            n.close();
        }
    }
    o.string_nonempty("description", &a.description);
    o.string("description_kind", a.description_kind.as_str());
    o.true_only("deprecated", a.deprecated);
    o.string_nonempty("deprecation_message", &a.deprecation_message);
    o.true_only("required", a.required);
    o.true_only("optional", a.optional);
    o.true_only("computed", a.computed);
    o.true_only("sensitive", a.sensitive);
    o.true_only("write_only", a.write_only);
    o.close();
}

/// A kept JSON value as `encoding/json` writes it: compact, Go's string
/// escaping, members in the order they were read.
fn write_raw(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => gocompat::json::push_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_raw(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut o = ObjectWriter::open(out);
            for (k, v) in members {
                o.key(k);
                write_raw(o.out, v);
            }
            o.close();
        }
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
