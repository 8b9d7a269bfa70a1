//! The schema model: OpenTofu's `configschema.Block`, `Attribute`,
//! `Object` and `NestedBlock` (`internal/configs/configschema/schema.go`).
//!
//! Where Go's structs allow states OpenTofu rejects or never builds, the
//! types here cannot hold them: an attribute has a type *or* a nested type
//! ([`AttributeType`]), nested attribute types have only the four nesting
//! modes protocol 6 can send ([`ObjectNesting`]), and nothing is nil. The
//! checks of `InternalValidate` that are left are in [`crate::internal_validate`].

use std::collections::BTreeMap;
use std::fmt;

use cty::Type;

/// How a description is written (`configschema.StringKind`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StringKind {
    /// Plain text.
    #[default]
    Plain,
    /// Markdown.
    Markdown,
}

impl StringKind {
    /// The name `providers schema -json` writes (`description_kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            StringKind::Plain => "plain",
            StringKind::Markdown => "markdown",
        }
    }
}

/// A block's schema: its attributes and nested block types
/// (`configschema.Block`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// The attributes that may appear directly inside the block, by name.
    pub attributes: BTreeMap<String, Attribute>,
    /// The nested block types that may appear directly inside the block, by type name.
    pub block_types: BTreeMap<String, NestedBlock>,
    /// What the block is for.
    pub description: String,
    /// How [`Block::description`] is written.
    pub description_kind: StringKind,
    /// True when the provider has deprecated the whole block.
    pub deprecated: bool,
    /// What to use instead, when [`Block::deprecated`] (OpenTofu only).
    pub deprecation_message: String,
}

/// What values an attribute holds: a cty type, or (protocol 6) a nested
/// object type whose attributes have schemas of their own. Go's
/// `Attribute.Type` and `Attribute.NestedType`, of which exactly one is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeType {
    /// `Attribute.Type`.
    Type(Type),
    /// `Attribute.NestedType`.
    Nested(Object),
}

/// One attribute of a block or of a nested object (`configschema.Attribute`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// Its type or nested type.
    pub ty: AttributeType,
    /// What the attribute is for.
    pub description: String,
    /// How [`Attribute::description`] is written.
    pub description_kind: StringKind,
    /// Must be set to a non-null value in configuration.
    pub required: bool,
    /// May be set in configuration.
    pub optional: bool,
    /// Decided by the provider (when optional too: when configuration leaves it null).
    pub computed: bool,
    /// Its value is hidden in output.
    pub sensitive: bool,
    /// The provider has deprecated it.
    pub deprecated: bool,
    /// What to use instead, when [`Attribute::deprecated`] (OpenTofu only).
    pub deprecation_message: String,
    /// It accepts ephemeral values and the provider never returns it.
    pub write_only: bool,
}

impl Attribute {
    /// An attribute of the given type with every flag off and no description.
    pub fn new(ty: Type) -> Attribute {
        Attribute::with_type(AttributeType::Type(ty))
    }

    /// An attribute of the given nested type with every flag off and no description.
    pub fn nested(object: Object) -> Attribute {
        Attribute::with_type(AttributeType::Nested(object))
    }

    fn with_type(ty: AttributeType) -> Attribute {
        Attribute {
            ty,
            description: String::new(),
            description_kind: StringKind::Plain,
            required: false,
            optional: false,
            computed: false,
            sensitive: false,
            deprecated: false,
            deprecation_message: String::new(),
            write_only: false,
        }
    }

    /// The nested object type, when the attribute has one.
    pub fn nested_type(&self) -> Option<&Object> {
        match &self.ty {
            AttributeType::Nested(o) => Some(o),
            AttributeType::Type(_) => None,
        }
    }

    /// The cty type of the attribute's values (`Attribute.ImpliedType`):
    /// its type, or its nested type without optional-attribute annotations.
    pub fn implied_type(&self) -> Type {
        match &self.ty {
            AttributeType::Type(t) => t.clone(),
            AttributeType::Nested(o) => o.spec_type().without_optional_attributes_deep(),
        }
    }

    /// The type configuration is decoded to (`hcldec.AttrSpec.Type`):
    /// nested objects keep their optional attributes.
    fn spec_type(&self) -> Type {
        match &self.ty {
            AttributeType::Type(t) => t.clone(),
            AttributeType::Nested(o) => o.spec_type(),
        }
    }
}

/// How the objects of a nested attribute type are collected (protocol 6's
/// `Schema.Object.NestingMode`, which has no group mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectNesting {
    /// One object.
    Single,
    /// A list of objects.
    List,
    /// A set of objects.
    Set,
    /// A map of objects.
    Map,
}

impl ObjectNesting {
    /// The mode as a [`NestingMode`] (the JSON document and messages share its names).
    pub fn as_nesting_mode(self) -> NestingMode {
        match self {
            ObjectNesting::Single => NestingMode::Single,
            ObjectNesting::List => NestingMode::List,
            ObjectNesting::Set => NestingMode::Set,
            ObjectNesting::Map => NestingMode::Map,
        }
    }
}

/// A nested attribute type (`configschema.Object`): attributes with their
/// own schemas, collected by a nesting mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    /// The nested attributes, by name.
    pub attributes: BTreeMap<String, Attribute>,
    /// How the objects are collected.
    pub nesting: ObjectNesting,
}

impl Object {
    /// The cty type of the attribute's values (`Object.ImpliedType`).
    pub fn implied_type(&self) -> Type {
        self.spec_type().without_optional_attributes_deep()
    }

    /// `Object.SpecType`: the object type with optional and computed
    /// attributes marked optional, wrapped by the nesting mode.
    pub fn spec_type(&self) -> Type {
        let attrs: BTreeMap<String, Type> = self
            .attributes
            .iter()
            .map(|(name, a)| (name.clone(), a.spec_type()))
            .collect();
        let optional = self
            .attributes
            .iter()
            .filter(|(_, a)| a.optional || a.computed)
            .map(|(name, _)| name.clone())
            .collect();
        let object = Type::object_with_optional(attrs, optional);
        match self.nesting {
            ObjectNesting::Single => object,
            ObjectNesting::List => Type::list(object),
            ObjectNesting::Set => Type::set(object),
            ObjectNesting::Map => Type::map(object),
        }
    }
}

/// How the blocks of a nested block type are collected (`configschema.NestingMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NestingMode {
    /// At most one block; absent is null.
    Single,
    /// At most one block; absent is an object of nulls, never null.
    Group,
    /// Blocks in a list.
    List,
    /// Blocks in a set.
    Set,
    /// Blocks with one label each, in a map keyed by the label.
    Map,
}

impl NestingMode {
    /// The name `providers schema -json` writes (`nesting_mode`).
    pub fn as_str(self) -> &'static str {
        match self {
            NestingMode::Single => "single",
            NestingMode::Group => "group",
            NestingMode::List => "list",
            NestingMode::Set => "set",
            NestingMode::Map => "map",
        }
    }
}

impl fmt::Display for NestingMode {
    /// Go's `stringer` name (`NestingList`), as `InternalValidate` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NestingMode::Single => "NestingSingle",
            NestingMode::Group => "NestingGroup",
            NestingMode::List => "NestingList",
            NestingMode::Set => "NestingSet",
            NestingMode::Map => "NestingMap",
        })
    }
}

/// A block type nested in another (`configschema.NestedBlock`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NestedBlock {
    /// The nested block's schema.
    pub block: Block,
    /// How its blocks are collected.
    pub nesting: NestingMode,
    /// Fewest blocks allowed (list and set; 1 in single mode: required); 0 is no limit.
    /// Signed as in Go and the protocol, so that a negative value a provider
    /// sends reaches [`Block::internal_validate`].
    pub min_items: i64,
    /// Most blocks allowed; 0 is no limit.
    pub max_items: i64,
}

impl NestedBlock {
    /// A nested block type without item limits.
    pub fn new(nesting: NestingMode, block: Block) -> NestedBlock {
        NestedBlock {
            block,
            nesting,
            min_items: 0,
            max_items: 0,
        }
    }
}

impl Block {
    /// The cty object type a block of this schema decodes to
    /// (`Block.ImpliedType`): attributes by their implied types; single and
    /// group blocks as objects; list, set and map blocks as lists, sets and
    /// maps of objects, except that list and map blocks whose content has
    /// a dynamically-typed attribute become `dynamic` (decoded as a tuple
    /// or an object, since their elements' types may differ). No object in
    /// the result has optional attributes.
    pub fn implied_type(&self) -> Type {
        self.spec_type().without_optional_attributes_deep()
    }

    /// `hcldec.ImpliedType(b.DecoderSpec())`: nested attribute types keep
    /// their optional attributes, as configuration is decoded with them.
    pub(crate) fn spec_type(&self) -> Type {
        let mut attrs: BTreeMap<String, Type> = self
            .attributes
            .iter()
            .map(|(name, a)| (name.clone(), a.spec_type()))
            .collect();
        for (name, nested) in &self.block_types {
            // A block type named like an attribute is an invalid schema
            // (InternalValidate says so); the attribute wins, as in
            // DecoderSpec.
            if attrs.contains_key(name) {
                continue;
            }
            let child = nested.block.spec_type();
            let ty = match nested.nesting {
                NestingMode::Single | NestingMode::Group => child,
                // BlockTupleSpec and BlockObjectSpec: the type depends on
                // how many blocks there are.
                NestingMode::List | NestingMode::Map if child.has_dynamic_types() => Type::Dynamic,
                NestingMode::List => Type::list(child),
                NestingMode::Set => Type::set(child),
                NestingMode::Map => Type::map(child),
            };
            attrs.insert(name.clone(), ty);
        }
        Type::object(attrs)
    }

    /// True if any attribute of the block or of a block or object inside
    /// it is sensitive (`Block.ContainsSensitive`).
    pub fn contains_sensitive(&self) -> bool {
        self.attributes.values().any(Attribute::contains_sensitive)
            || self
                .block_types
                .values()
                .any(|b| b.block.contains_sensitive())
    }
}

impl Attribute {
    fn contains_sensitive(&self) -> bool {
        self.sensitive || self.nested_type().is_some_and(Object::contains_sensitive)
    }
}

impl Object {
    /// True if any attribute inside is sensitive (`Object.ContainsSensitive`).
    pub fn contains_sensitive(&self) -> bool {
        self.attributes.values().any(Attribute::contains_sensitive)
    }
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
