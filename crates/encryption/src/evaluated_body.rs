//! A key provider's body after static evaluation, ready for the provider's
//! own decoding (OpenTofu's `gohcl.DecodeBody` into the provider's config
//! struct): every argument with the expression it came from, for
//! diagnostics, and the nested blocks the provider's schema allows.

use std::sync::Arc;

use cty::Value;
use hclsyntax::{Attribute, Block};

/// The evaluated arguments and blocks of one body.
#[derive(Debug, Clone, Default)]
pub struct EvaluatedBody {
    pub arguments: Vec<EvaluatedArgument>,
    /// Nested blocks in source order, each with its evaluated body.
    pub blocks: Vec<(Arc<Block>, EvaluatedBody)>,
}

/// One argument. `value` is `None` where the expression reads another key
/// provider's output, known only once that provider has run.
#[derive(Debug, Clone)]
pub struct EvaluatedArgument {
    pub attr: Arc<Attribute>,
    pub value: Option<Value>,
}

impl EvaluatedBody {
    /// Whether every value, nested blocks included, is known now.
    pub fn is_complete(&self) -> bool {
        self.arguments.iter().all(|a| a.value.is_some())
            && self.blocks.iter().all(|(_, b)| b.is_complete())
    }

    /// The argument named `name`, if set.
    pub fn argument(&self, name: &str) -> Option<&EvaluatedArgument> {
        self.arguments.iter().find(|a| a.attr.name == name)
    }

    /// The nested blocks of one type.
    pub fn blocks_of<'a>(&'a self, type_name: &'a str) -> impl Iterator<Item = &'a EvaluatedBody> {
        self.blocks
            .iter()
            .filter(move |(b, _)| b.type_name == type_name)
            .map(|(_, body)| body)
    }
}
