//! Cycles: every strongly connected group of nodes (or a node that needs
//! itself) is an error naming each node in it, as OpenTofu's
//! `Cycle: local.a (expand), local.b (expand)` (provider configurations as
//! `provider["registry.opentofu.org/hashicorp/aws"].west`).

use hclsyntax::{Diagnostic, Diagnostics, Severity};
use petgraph::algo::tarjan_scc;
use petgraph::graph::NodeIndex;

use super::Graph;

pub fn cycle_diagnostics(graph: &Graph) -> Diagnostics {
    let mut found: Vec<Vec<String>> = Vec::new();
    for scc in tarjan_scc(&graph.graph) {
        let cyclic = scc.len() > 1 || graph.graph.contains_edge(scc[0], scc[0]);
        if !cyclic {
            continue;
        }
        found.push(sorted_names(graph, &scc));
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

/// The names of one cycle's nodes, sorted. OpenTofu lists them in the
/// order its `dag.StronglyConnected` pops them, which follows Go's map
/// order: terraform 1.11.4 gives `local.b (expand), local.a (expand)` for
/// the plan sample `err-cycle-locals` on this machine, while the sample's
/// golden file, recorded with the same version, says `local.a (expand),
/// local.b (expand)`. Sorting gives one answer every time, and that one.
fn sorted_names(graph: &Graph, scc: &[NodeIndex]) -> Vec<String> {
    let mut names: Vec<String> = scc.iter().map(|i| graph.display_name(*i)).collect();
    names.sort();
    names
}
