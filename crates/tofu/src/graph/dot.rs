//! The graph in DOT, as `tofu graph` draws it by default: resources only,
//! grouped by module, with an edge from each resource to every resource it
//! depends on — directly or through variables, locals, outputs and module
//! calls.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write;

use petgraph::graph::NodeIndex;
use petgraph::Direction;

use super::{Graph, NodeKind};

fn address(graph: &Graph, ix: NodeIndex) -> String {
    let node = &graph.graph[ix];
    match &node.kind {
        NodeKind::Resource(r) if node.module.is_root() => r.to_string(),
        NodeKind::Resource(r) => format!("{}.{r}", node.module),
        _ => String::new(),
    }
}

/// The nearest resources `ix` depends on, looking through other nodes.
fn resource_dependencies(graph: &Graph, ix: NodeIndex) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<NodeIndex> = graph
        .graph
        .neighbors_directed(ix, Direction::Incoming)
        .collect();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        if matches!(graph.graph[n].kind, NodeKind::Resource(_)) {
            out.insert(address(graph, n));
            continue;
        }
        stack.extend(graph.graph.neighbors_directed(n, Direction::Incoming));
    }
    out
}

/// `digraph G { … }` with one node per resource.
pub fn resources_dot(graph: &Graph) -> String {
    // Module path ("" for the root) → (address, label).
    let mut modules: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut edges = BTreeSet::new();
    for ix in graph.graph.node_indices() {
        let node = &graph.graph[ix];
        let NodeKind::Resource(r) = &node.kind else {
            continue;
        };
        let addr = address(graph, ix);
        for dep in resource_dependencies(graph, ix) {
            if dep != addr {
                edges.insert((addr.clone(), dep));
            }
        }
        modules
            .entry(node.module.to_string())
            .or_default()
            .push((addr, r.to_string()));
    }
    let mut out = String::from(
        "digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n",
    );
    for (module, nodes) in &mut modules {
        nodes.sort();
        let indent = if module.is_empty() { "  " } else { "    " };
        if !module.is_empty() {
            let _ = write!(
                out,
                "  subgraph \"cluster_{module}\" {{\n    label = \"{module}\"\n    fontname = \"sans-serif\"\n"
            );
        }
        for (addr, label) in nodes.iter() {
            let _ = writeln!(out, "{indent}\"{addr}\" [label=\"{label}\"];");
        }
        if !module.is_empty() {
            out.push_str("  }\n");
        }
    }
    for (from, to) in edges {
        let _ = writeln!(out, "  \"{from}\" -> \"{to}\";");
    }
    out.push_str("}\n");
    out
}
