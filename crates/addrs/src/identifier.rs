//! HCL identifier validity lives with the syntax; re-exported here because
//! address parsing is where most callers look for it.

pub use hclsyntax::valid_identifier;
