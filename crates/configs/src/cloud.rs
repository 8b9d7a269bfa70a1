//! `terraform { cloud { ... } }`, as OpenTofu's `cloud.go`: a backend of
//! type `cloud` whose body is decoded later.

use hclsyntax::{Block, Body, Diagnostics, Range};

use crate::backend::Backend;

/// A `cloud` block.
#[derive(Debug, Clone)]
pub struct CloudConfig {
    pub config: Body,
    /// The block header (`cloud`).
    pub decl_range: Range,
}

impl CloudConfig {
    /// The equivalent backend configuration (type `cloud`).
    pub fn to_backend_config(&self) -> Backend {
        Backend {
            type_name: "cloud".to_string(),
            type_range: self.decl_range.clone(),
            config: self.config.clone(),
            decl_range: self.decl_range.clone(),
        }
    }
}

/// Decodes a `cloud` block; nothing can be wrong with it yet.
pub fn decode_cloud_block(block: &Block) -> (Option<CloudConfig>, Diagnostics) {
    (
        Some(CloudConfig {
            config: block.body.clone(),
            decl_range: block.def_range(),
        }),
        Vec::new(),
    )
}
