//! Bodies, blocks and attributes, and HCL's schema-driven decoding of a
//! body into the arguments and blocks a caller expects.
//!
//! A native body knows its attributes and blocks from the syntax; a JSON
//! body only knows them once a schema says which property names are blocks.
//! Both answer the same questions through [`Body::content`],
//! [`Body::partial_content`] and [`Body::just_attributes`].

use std::borrow::Cow;
use std::sync::Arc;

use crate::ast::{Expr, JsonNode};
use crate::diagnostic::Diagnostics;
use crate::pos::Range;

/// `name = expr` in a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub name_range: Range,
    pub expr: Expr,
    /// From the start of the name to the end of the expression.
    pub range: Range,
}

/// A block label (`"aws_instance"` in `resource "aws_instance" "web"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub value: String,
    pub range: Range,
}

/// `type "label"... { body }`.
#[derive(Debug, Clone)]
pub struct Block {
    pub type_name: String,
    pub type_range: Range,
    pub labels: Vec<Label>,
    pub body: Body,
    pub open_brace_range: Range,
    pub close_brace_range: Range,
}

impl Block {
    /// The block's header: from its type to its last label, where OpenTofu
    /// points diagnostics about the block as a whole.
    pub fn def_range(&self) -> Range {
        match self.labels.last() {
            Some(l) => self.type_range.to(&l.range),
            None => self.type_range.clone(),
        }
    }

    /// From the type name to the closing brace.
    pub fn range(&self) -> Range {
        self.type_range.to(&self.close_brace_range)
    }

    /// The label values.
    pub fn label_values(&self) -> Vec<&str> {
        self.labels.iter().map(|l| l.value.as_str()).collect()
    }
}

/// What a body was written as.
#[derive(Debug)]
pub enum BodySyntax {
    /// Native syntax: attributes and blocks in source order.
    Native {
        attributes: Vec<Arc<Attribute>>,
        blocks: Vec<Arc<Block>>,
    },
    /// JSON syntax: one object, or (for a block body) an array of objects
    /// that all contribute to the body.
    Json(Vec<JsonNode>),
}

/// A block body or a file body. Cheap to clone: the contents are shared.
#[derive(Debug, Clone)]
pub struct Body {
    pub syntax: Arc<BodySyntax>,
    /// The whole body (for a block: between and including the braces).
    pub range: Range,
    /// Where an item that is missing should be reported: HCL's
    /// `MissingItemRange` (the opening brace of a block body; the start of a
    /// file).
    pub missing_item_range: Range,
    /// Argument names already taken by an earlier `partial_content`, so
    /// that the remaining body does not report them again.
    pub hidden_attrs: Arc<[String]>,
    /// Block types already taken by an earlier `partial_content`.
    pub hidden_blocks: Arc<[String]>,
}

impl Body {
    /// A body of native attributes and blocks.
    pub fn native(
        attributes: Vec<Arc<Attribute>>,
        blocks: Vec<Arc<Block>>,
        range: Range,
        missing_item_range: Range,
    ) -> Body {
        Body {
            syntax: Arc::new(BodySyntax::Native { attributes, blocks }),
            range,
            missing_item_range,
            hidden_attrs: Arc::from(Vec::new()),
            hidden_blocks: Arc::from(Vec::new()),
        }
    }

    /// A body of JSON objects.
    pub fn json(objects: Vec<JsonNode>, range: Range, missing_item_range: Range) -> Body {
        Body {
            syntax: Arc::new(BodySyntax::Json(objects)),
            range,
            missing_item_range,
            hidden_attrs: Arc::from(Vec::new()),
            hidden_blocks: Arc::from(Vec::new()),
        }
    }

    /// An empty body located at `range` (used for a file that failed to
    /// parse, so later steps still have something to walk).
    pub fn empty(range: Range) -> Body {
        Body::native(Vec::new(), Vec::new(), range.clone(), range)
    }

    /// Whether an earlier `partial_content` took the argument `name`.
    pub fn is_attr_hidden(&self, name: &str) -> bool {
        self.hidden_attrs.iter().any(|h| h == name)
    }

    /// Whether an earlier `partial_content` took the block type `name`.
    pub fn is_block_hidden(&self, name: &str) -> bool {
        self.hidden_blocks.iter().any(|h| h == name)
    }

    /// The same body with more names hidden (what `partial_content` leaves).
    pub fn with_hidden(&self, attrs: Vec<String>, blocks: Vec<String>) -> Body {
        let mut hidden_attrs: Vec<String> = self.hidden_attrs.to_vec();
        hidden_attrs.extend(attrs);
        let mut hidden_blocks: Vec<String> = self.hidden_blocks.to_vec();
        hidden_blocks.extend(blocks);
        Body {
            syntax: self.syntax.clone(),
            range: self.range.clone(),
            missing_item_range: self.missing_item_range.clone(),
            hidden_attrs: Arc::from(hidden_attrs),
            hidden_blocks: Arc::from(hidden_blocks),
        }
    }

    /// Decodes the body against `schema`; anything the schema does not
    /// mention is an error.
    pub fn content(&self, schema: &BodySchema) -> (BodyContent, Diagnostics) {
        match &*self.syntax {
            BodySyntax::Native { attributes, blocks } => {
                crate::content_native::content(self, attributes, blocks, schema, false).0
            }
            BodySyntax::Json(objects) => crate::json::body::content(self, objects, schema, false).0,
        }
    }

    /// Decodes what `schema` mentions and returns the rest as a body for a
    /// later decoder (OpenTofu decodes meta-arguments this way and leaves the
    /// resource's own arguments for the provider schema).
    pub fn partial_content(&self, schema: &BodySchema) -> (BodyContent, Body, Diagnostics) {
        let ((content, diags), remain) = match &*self.syntax {
            BodySyntax::Native { attributes, blocks } => {
                crate::content_native::content(self, attributes, blocks, schema, true)
            }
            BodySyntax::Json(objects) => crate::json::body::content(self, objects, schema, true),
        };
        (content, remain, diags)
    }

    /// Every attribute of a body that must hold no blocks (`locals`, a
    /// `.tfvars` file). A block in it is an error.
    pub fn just_attributes(&self) -> (Vec<Arc<Attribute>>, Diagnostics) {
        match &*self.syntax {
            BodySyntax::Native { attributes, blocks } => {
                crate::content_native::just_attributes(self, attributes, blocks)
            }
            BodySyntax::Json(objects) => crate::json::body::just_attributes(self, objects),
        }
    }
}

/// An argument a schema accepts. Names are usually the language's own
/// (`&'static str`); a provider's schema, read at run time, owns its names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeSchema {
    pub name: Cow<'static, str>,
    pub required: bool,
}

/// A block type a schema accepts, with the names of its labels (their
/// number is what matters; the names appear in messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockHeaderSchema {
    pub type_name: Cow<'static, str>,
    pub label_names: &'static [&'static str],
}

/// What a body is expected to contain.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BodySchema {
    pub attributes: Vec<AttributeSchema>,
    pub blocks: Vec<BlockHeaderSchema>,
}

impl BodySchema {
    /// A schema of optional arguments and the given blocks.
    pub fn new(
        attributes: &[&'static str],
        blocks: &[(&'static str, &'static [&'static str])],
    ) -> BodySchema {
        BodySchema {
            attributes: attributes
                .iter()
                .map(|n| AttributeSchema {
                    name: Cow::Borrowed(*n),
                    required: false,
                })
                .collect(),
            blocks: blocks
                .iter()
                .map(|(t, l)| BlockHeaderSchema {
                    type_name: Cow::Borrowed(*t),
                    label_names: l,
                })
                .collect(),
        }
    }

    /// Marks the named arguments as required.
    pub fn require(mut self, names: &[&str]) -> BodySchema {
        for a in &mut self.attributes {
            if names.contains(&&*a.name) {
                a.required = true;
            }
        }
        self
    }

    pub fn attribute(&self, name: &str) -> Option<&AttributeSchema> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub fn block(&self, type_name: &str) -> Option<&BlockHeaderSchema> {
        self.blocks.iter().find(|b| b.type_name == type_name)
    }
}

/// The result of decoding a body against a schema.
#[derive(Debug, Clone)]
pub struct BodyContent {
    /// The arguments found, in source order, each at most once.
    pub attributes: Vec<Arc<Attribute>>,
    /// The blocks found, in source order.
    pub blocks: Vec<Arc<Block>>,
    pub missing_item_range: Range,
}

impl BodyContent {
    /// The argument named `name`, if it was set.
    pub fn attribute(&self, name: &str) -> Option<&Arc<Attribute>> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The blocks of one type.
    pub fn blocks_of<'a>(&'a self, type_name: &'a str) -> impl Iterator<Item = &'a Arc<Block>> {
        self.blocks.iter().filter(move |b| b.type_name == type_name)
    }
}

/// HCL's "did you mean" helper: the closest of `candidates` to `given`, if
/// it is close enough (Levenshtein distance below 3).
pub fn name_suggestion<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .find(|c| strsim::levenshtein(given, c) < 3)
}

#[cfg(test)]
mod schema_tests {
    use super::*;

    /// A schema whose names are only known at run time (a provider's
    /// resource type), decoded like the language's own.
    #[test]
    fn a_schema_built_at_run_time_decodes_a_body() {
        let names: Vec<String> = vec!["ami".into(), "instance_type".into()];
        let schema = BodySchema {
            attributes: names
                .iter()
                .map(|n| AttributeSchema {
                    name: Cow::Owned(n.clone()),
                    required: n == "ami",
                })
                .collect(),
            blocks: vec![BlockHeaderSchema {
                type_name: Cow::Owned("ebs_block_device".to_string()),
                label_names: &[],
            }],
        };
        let (file, diags) =
            crate::parse_file("main.tf", b"amii = \"ami-123\"\nebs_block_device {}\n");
        assert!(diags.is_empty());
        let (content, diags) = file.body.content(&schema);
        let texts: Vec<(String, String)> = diags
            .iter()
            .map(|d| (d.summary.clone(), d.detail.clone()))
            .collect();
        assert_eq!(
            texts,
            [
                (
                    "Missing required argument".to_string(),
                    "The argument \"ami\" is required, but no definition was found.".to_string()
                ),
                (
                    "Unsupported argument".to_string(),
                    "An argument named \"amii\" is not expected here. Did you mean \"ami\"?"
                        .to_string()
                ),
            ]
        );
        assert_eq!(content.blocks_of("ebs_block_device").count(), 1);
    }
}
