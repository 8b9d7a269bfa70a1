//! Cycles: every strongly connected group of nodes (or a node that needs
//! itself) is an error naming each node in it, as OpenTofu's
//! `Cycle: local.a (expand), local.b (expand)`.

use hclsyntax::{Diagnostic, Diagnostics, Severity};
use petgraph::algo::tarjan_scc;

use super::Graph;

pub fn cycle_diagnostics(graph: &Graph) -> Diagnostics {
    let mut found: Vec<Vec<String>> = Vec::new();
    for scc in tarjan_scc(&graph.graph) {
        let cyclic = scc.len() > 1 || graph.graph.contains_edge(scc[0], scc[0]);
        if !cyclic {
            continue;
        }
        let mut names: Vec<String> = scc.iter().map(|i| graph.graph[*i].to_string()).collect();
        names.sort();
        found.push(names);
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
