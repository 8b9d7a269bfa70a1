//! Cycles: every strongly connected group of nodes (or a node that needs
//! itself) is an error naming each node in it, as OpenTofu's
//! `Cycle: local.b (expand), local.a (expand)` (provider configurations as
//! `provider["registry.opentofu.org/hashicorp/aws"].west`).

use std::collections::HashSet;

use hclsyntax::{Diagnostic, Diagnostics, Severity};
use petgraph::algo::tarjan_scc;
use petgraph::graph::NodeIndex;
use petgraph::Direction;

use super::Graph;

pub fn cycle_diagnostics(graph: &Graph) -> Diagnostics {
    let mut found: Vec<Vec<String>> = Vec::new();
    for scc in tarjan_scc(&graph.graph) {
        let cyclic = scc.len() > 1 || graph.graph.contains_edge(scc[0], scc[0]);
        if !cyclic {
            continue;
        }
        found.push(names_in_walk_order(graph, &scc));
    }
    found.sort();
    found
        .into_iter()
        .map(|names| Diagnostic {
            severity: Severity::Error,
            summary: format!("Cycle: {}", names.join(", ")),
            detail: String::new(),
            subject: None,
            context: None,
        })
        .collect()
}

/// The nodes of one cycle in the order OpenTofu's `dag.StronglyConnected`
/// pops them off its stack: its walk follows dependencies and enters the
/// cycle where something outside it depends on it, so the nodes come out
/// in the reverse of the order that walk first reaches them (`local.a`
/// referenced by a resource, needing `local.b`: `local.b, local.a`).
/// Where several nodes are depended on from outside, or none, the one
/// with the smallest name is the entry (Go's walk order there is that of
/// a map).
fn names_in_walk_order(graph: &Graph, scc: &[NodeIndex]) -> Vec<String> {
    let g = &graph.graph;
    let members: HashSet<NodeIndex> = scc.iter().copied().collect();
    let name = |i: NodeIndex| graph.display_name(i);
    let mut by_name: Vec<NodeIndex> = scc.to_vec();
    by_name.sort_by_key(|i| name(*i));
    let entry = by_name
        .iter()
        .copied()
        .find(|i| {
            g.neighbors_directed(*i, Direction::Outgoing)
                .any(|d| !members.contains(&d))
        })
        .unwrap_or(by_name[0]);
    // Depth first along dependencies (incoming edges), recording the order
    // nodes are first reached; iterative, so long cycles cannot overflow.
    let mut reached = Vec::with_capacity(scc.len());
    let mut seen = HashSet::new();
    let mut stack = vec![(entry, deps_by_name(graph, entry, &members))];
    seen.insert(entry);
    reached.push(entry);
    while let Some((_, deps)) = stack.last_mut() {
        match deps.pop() {
            Some(next) if seen.insert(next) => {
                reached.push(next);
                let more = deps_by_name(graph, next, &members);
                stack.push((next, more));
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    reached.iter().rev().map(|i| name(*i)).collect()
}

/// The dependencies of `node` inside the cycle, the first by name last
/// (they are popped).
fn deps_by_name(graph: &Graph, node: NodeIndex, members: &HashSet<NodeIndex>) -> Vec<NodeIndex> {
    let g = &graph.graph;
    let mut deps: Vec<NodeIndex> = g
        .neighbors_directed(node, Direction::Incoming)
        .filter(|d| members.contains(d))
        .collect();
    deps.sort_by_key(|d| std::cmp::Reverse(graph.display_name(*d)));
    deps
}
