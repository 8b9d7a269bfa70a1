//! Building the graph from the configuration tree.

use std::collections::HashMap;

use configs::config::Config;
use hclsyntax::Traversal;
use petgraph::graph::{DiGraph, NodeIndex};

use super::references::{body_traversals, dependencies_of_refs, expr_traversals, references_in};
use super::{CallArguments, Node, NodeKind};

/// The graph: an edge `a → b` means `b` needs `a`'s value first.
pub struct Graph {
    pub graph: DiGraph<Node, ()>,
    pub index: HashMap<Node, NodeIndex>,
    /// Provider configuration nodes by OpenTofu's name for them, which
    /// needs the module's `required_providers`:
    /// `provider["registry.opentofu.org/hashicorp/aws"].west`.
    provider_names: HashMap<NodeIndex, String>,
}

impl Graph {
    /// The node's name as OpenTofu's graph prints it (cycle errors).
    pub fn display_name(&self, ix: NodeIndex) -> String {
        match self.provider_names.get(&ix) {
            Some(name) => name.clone(),
            None => self.graph[ix].to_string(),
        }
    }

    fn add(&mut self, node: Node) -> NodeIndex {
        if let Some(i) = self.index.get(&node) {
            return *i;
        }
        let i = self.graph.add_node(node.clone());
        self.index.insert(node, i);
        i
    }
}

/// One node per object of every module in the tree, with its dependencies.
pub fn build_graph(root: &Config) -> Graph {
    build_graph_with(root, &CallArguments::new(root))
}

/// [`build_graph`] with the call arguments already decoded.
pub fn build_graph_with(root: &Config, call_args: &CallArguments) -> Graph {
    let mut g = Graph {
        graph: DiGraph::new(),
        index: HashMap::new(),
        provider_names: HashMap::new(),
    };
    let configs = root.all();
    // Nodes first, so that dependencies can find them.
    for cfg in &configs {
        for node in nodes_of(cfg) {
            let name = match &node.kind {
                NodeKind::Provider(key) => Some(provider_display_name(cfg, key)),
                _ => None,
            };
            let ix = g.add(node);
            if let Some(name) = name {
                g.provider_names.insert(ix, name);
            }
        }
    }
    for cfg in &configs {
        for node in nodes_of(cfg) {
            let to = g.index[&node];
            for dep in dependencies(root, call_args, cfg, &node) {
                if let Some(from) = g.index.get(&dep).copied() {
                    if !g.graph.contains_edge(from, to) {
                        g.graph.add_edge(from, to, ());
                    }
                }
            }
        }
    }
    g
}

fn nodes_of(cfg: &Config) -> Vec<Node> {
    let m = &cfg.module;
    let node = |kind| Node {
        module: cfg.path.clone(),
        kind,
    };
    let mut out = Vec::new();
    out.extend(
        m.variables
            .keys()
            .map(|n| node(NodeKind::Variable(n.clone()))),
    );
    out.extend(m.locals.keys().map(|n| node(NodeKind::Local(n.clone()))));
    out.extend(m.outputs.keys().map(|n| node(NodeKind::Output(n.clone()))));
    out.extend(
        m.module_calls
            .keys()
            .map(|n| node(NodeKind::ModuleCall(n.clone()))),
    );
    for r in cfg.module.all_resources() {
        out.push(node(NodeKind::Resource(r.addr())));
    }
    out.extend(m.checks.keys().map(|n| node(NodeKind::Check(n.clone()))));
    out.extend(
        m.provider_configs
            .keys()
            .map(|k| node(NodeKind::Provider(k.clone()))),
    );
    out
}

/// `provider["registry.opentofu.org/hashicorp/aws"].west` for the
/// provider block `aws.west` of `cfg` (the provider its local name means
/// there).
fn provider_display_name(cfg: &Config, addr: &addrs::LocalProviderConfig) -> String {
    addrs::AbsProviderConfig {
        module: cfg.path.clone(),
        provider: configs::config_provider_requirements::provider_for_local_name(
            &cfg.module,
            &addr.local_name,
        ),
        alias: addr.alias.clone(),
    }
    .to_string()
}

fn rule_traversals(rules: &[configs::check_rule::CheckRule], out: &mut Vec<Traversal>) {
    for r in rules {
        expr_traversals(r.condition.iter().chain(r.error_message.iter()), out);
    }
}

fn dependencies(root: &Config, call_args: &CallArguments, cfg: &Config, node: &Node) -> Vec<Node> {
    let m = &cfg.module;
    let mut trav = Vec::new();
    let mut deps = Vec::new();
    match &node.kind {
        NodeKind::Variable(name) => {
            // A child's variable is the caller's argument: evaluated in the
            // parent module.
            if let (Some(parent_path), Some(call_name)) =
                (cfg.path.parent(), cfg.path.0.last().cloned())
            {
                if let Some(parent) = root.descendant(&parent_path.0) {
                    if let Some(attr) = call_args.argument(&parent_path, &call_name, name) {
                        deps.extend(dependencies_of_refs(
                            parent,
                            &parent_path,
                            &references_in(attr.expr.variables()),
                        ));
                    }
                }
            }
            if let Some(v) = m.variables.get(name) {
                rule_traversals(&v.validations, &mut trav);
                // The variable's own value is not a dependency of itself.
                trav.retain(|t| !(t.root == "var" && first_attr(t) == Some(name.as_str())));
            }
        }
        NodeKind::Local(name) => {
            if let Some(l) = m.locals.get(name) {
                trav.extend(l.expr.variables());
            }
        }
        NodeKind::Output(name) => {
            if let Some(o) = m.outputs.get(name) {
                expr_traversals(o.expr.iter(), &mut trav);
                trav.extend(o.depends_on.iter().cloned());
                rule_traversals(&o.preconditions, &mut trav);
            }
        }
        NodeKind::ModuleCall(name) => {
            if let Some(c) = m.module_calls.get(name) {
                expr_traversals(
                    c.count
                        .iter()
                        .chain(c.for_each.iter())
                        .chain(c.enabled.iter()),
                    &mut trav,
                );
                trav.extend(c.depends_on.iter().cloned());
            }
        }
        NodeKind::Resource(addr) => {
            if let Some(r) = cfg.module.resource(addr) {
                expr_traversals(
                    r.count
                        .iter()
                        .chain(r.for_each.iter())
                        .chain(r.enabled.iter()),
                    &mut trav,
                );
                body_traversals(&r.config, &mut trav);
                trav.extend(r.depends_on.iter().cloned());
                // The provider configuration it uses: this module's, or
                // the one a caller passes or lets it inherit.
                let key = match &r.provider_config_ref {
                    Some(p) => p.addr(),
                    None => addrs::LocalProviderConfig::new(r.implied_provider(), ""),
                };
                deps.extend(provider_config_node(root, cfg, key));
                rule_traversals(&r.preconditions, &mut trav);
                rule_traversals(&r.postconditions, &mut trav);
            }
        }
        NodeKind::Provider(key) => {
            if let Some(p) = m.provider_configs.get(key) {
                expr_traversals(p.for_each.iter(), &mut trav);
                body_traversals(&p.config, &mut trav);
            }
        }
        NodeKind::Check(name) => {
            if let Some(c) = m.checks.get(name) {
                rule_traversals(&c.asserts, &mut trav);
                if let Some(d) = &c.data_resource {
                    body_traversals(&d.config, &mut trav);
                }
            }
        }
    }
    deps.extend(dependencies_of_refs(cfg, &cfg.path, &references_in(trav)));
    // Everything in a child module waits for the call that expands it.
    if let (Some(parent_path), Some(call_name)) = (cfg.path.parent(), cfg.path.0.last()) {
        deps.push(Node {
            module: parent_path,
            kind: NodeKind::ModuleCall(call_name.clone()),
        });
    }
    deps
}

/// The `provider` block that configures what a resource of `cfg` knows as
/// `key` (`ProviderTransformer`): the module's own block; else, through
/// the call of the module, the configuration the caller passes for it in
/// `providers`, or, for a default (unaliased) configuration, the caller's
/// default configuration of the same provider (`AbsProviderConfig.
/// Inherited`); and so on up to the root. `None` when no block configures
/// it (the provider is then configured empty).
fn provider_config_node(
    root: &Config,
    cfg: &Config,
    key: addrs::LocalProviderConfig,
) -> Option<Node> {
    use configs::config_provider_requirements::{local_name_for_provider, provider_for_local_name};
    let (mut cfg, mut key) = (cfg, key);
    loop {
        if cfg.module.provider_configs.contains_key(&key) {
            return Some(Node {
                module: cfg.path.clone(),
                kind: NodeKind::Provider(key),
            });
        }
        let parent = root.descendant(&cfg.path.parent()?.0)?;
        let call_name = cfg.path.0.last()?;
        let passed = parent.module.module_calls.get(call_name).and_then(|call| {
            call.providers
                .iter()
                .find(|p| p.in_child.name == key.local_name && p.in_child.alias == key.alias)
        });
        key = match passed {
            Some(p) => addrs::LocalProviderConfig::new(&p.in_parent.name, &p.in_parent.alias),
            // A default configuration is inherited: the caller's default
            // configuration of the same provider, under the caller's name.
            None if key.alias.is_empty() => {
                let provider = provider_for_local_name(&cfg.module, &key.local_name);
                addrs::LocalProviderConfig::new(
                    &local_name_for_provider(&parent.module, &provider),
                    "",
                )
            }
            None => return None,
        };
        cfg = parent;
    }
}

fn first_attr(t: &Traversal) -> Option<&str> {
    match t.steps.first().map(|s| &s.kind) {
        Some(hclsyntax::StepKind::Attr(a)) => Some(a),
        _ => None,
    }
}
