//! The dependency graph of a whole configuration (OpenTofu builds one with
//! its graph transformers; here one pass over the configuration tree): one
//! node per declared object per static module path, an edge from each
//! object to every object whose value it needs.

mod build;
mod call_arguments;
mod cycles;
mod dot;
mod node;
mod references;

pub use build::{build_graph, build_graph_with, Graph};
pub use call_arguments::CallArguments;
pub use cycles::cycle_diagnostics;
pub use dot::resources_dot;
pub use node::{Node, NodeKind};
pub use references::{body_traversals, dependencies_of_refs, references_in};
