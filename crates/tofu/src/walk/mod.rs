//! Walking the graph (OpenTofu's `walkValidate` / `walkPlan`): nodes in
//! dependency order, a level at a time; the nodes of one level need
//! nothing from each other and are evaluated in parallel. Each node is
//! evaluated once per instance of its module.

mod conditions;
mod data;
mod diagnostic_addresses;
mod expression_values;
mod nodes;
mod overlay;
mod schema_checks;
mod state;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use addrs::{InstanceKey, ModuleInstance};
use configs::config::Config;
use cty::Value;
use hclsyntax::Diagnostics;
use lang::FunctionTable;
use petgraph::graph::NodeIndex;
use petgraph::Direction;
use rayon::prelude::*;

use crate::expand::Repetition;
use crate::graph::{build_graph_with, cycle_diagnostics, CallArguments, Graph};
use crate::plans::ResourceInstanceChange;

pub use data::InstanceData;
pub use expression_values::{Cause, ValueSink};
pub use state::{InstanceInfo, State};

/// Levels with fewer nodes than this are walked on the calling thread. The
/// pool's first use starts a thread per core (and reads the cgroup quota),
/// about a millisecond: more than the walk of a small configuration, which
/// is what a monorepo's hundreds of `validate` runs mostly see.
const PARALLEL_LEVEL_NODES: usize = 32;

/// Which walk: `validate` (no instances expanded, variables unknown),
/// `plan` (everything expanded with the given root variables; an expansion
/// that cannot be known is an error) or `eval` (as plan, but what cannot be
/// known stays unknown: the console's view).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Validate,
    Plan,
    Eval,
}

/// What the whole walk shares.
pub struct Walk<'c> {
    pub root: &'c Config,
    pub mode: Mode,
    pub functions: Arc<FunctionTable>,
    pub cwd: String,
    pub workspace: String,
    /// Final root variable values (plan only).
    pub root_values: BTreeMap<String, Value>,
    /// The arguments of each module call (decoded once, used by every
    /// instance).
    pub call_args: CallArguments,
    /// Deprecation warnings, with their causes (see [`crate::deprecation`]).
    pub deprecations: crate::deprecation::Sink,
    /// The reference values of failing expressions, for the views.
    pub values: ValueSink,
    /// What each provider diagnostic is about (see
    /// [`diagnostic_addresses`]).
    pub addresses: diagnostic_addresses::AddressSink,
    /// The provider schemas known to this walk (none: every resource is
    /// planned from its configuration alone).
    pub schemas: Arc<crate::schemas::Schemas>,
    /// The configuration's graph, built by the first run. It does not
    /// depend on the mode, so a plan takes over its validation's (see
    /// [`Walk::into_mode`]).
    graph: OnceLock<Graph>,
}

/// What a node gave for one module instance.
pub enum Produced {
    Variable(String, Value),
    Local(String, Value),
    Output(String, Value),
    Resource(addrs::Resource, state::ResourceState),
    Call(String, state::CallState),
}

/// The outcome of evaluating one node for all its module instances.
#[derive(Default)]
pub struct NodeResult {
    pub diags: Diagnostics,
    /// Problems that do not stop the node's dependents (a module call's
    /// argument list: the child's own objects are still checked).
    pub independent_diags: Diagnostics,
    pub failed: bool,
    pub produced: Vec<(ModuleInstance, Produced)>,
    /// Module instances this node created (module calls).
    pub new_instances: Vec<(addrs::Module, InstanceInfo)>,
    pub changes: Vec<ResourceInstanceChange>,
}

/// Everything a walk found.
pub struct WalkOutcome {
    pub diags: Diagnostics,
    pub changes: Vec<ResourceInstanceChange>,
    /// Root outputs: value (unmarked) and whether it is sensitive.
    pub root_outputs: BTreeMap<String, (Value, bool)>,
}

impl<'c> Walk<'c> {
    pub fn new(root: &'c Config, mode: Mode, functions: Arc<FunctionTable>) -> Walk<'c> {
        Walk {
            root,
            mode,
            functions,
            cwd: std::env::current_dir()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default(),
            workspace: std::env::var("TF_WORKSPACE")
                .ok()
                .filter(|w| !w.is_empty())
                .unwrap_or_else(|| "default".into()),
            root_values: BTreeMap::new(),
            call_args: CallArguments::new(root),
            deprecations: crate::deprecation::Sink::default(),
            values: ValueSink::default(),
            addresses: diagnostic_addresses::AddressSink::default(),
            schemas: Arc::new(crate::schemas::Schemas::none()),
            graph: OnceLock::new(),
        }
    }

    /// A walk of the same configuration in `mode`, keeping what does not
    /// depend on the mode (the call arguments, the graph once built) and
    /// starting with nothing reported.
    pub fn into_mode(self, mode: Mode) -> Walk<'c> {
        Walk {
            mode,
            deprecations: crate::deprecation::Sink::default(),
            values: ValueSink::default(),
            addresses: diagnostic_addresses::AddressSink::default(),
            ..self
        }
    }

    /// `path.module`: the module's directory relative to the root module's.
    pub fn module_dir(&self, cfg: &Config) -> String {
        if cfg.is_root() {
            return ".".into();
        }
        let slashed = |p: &Path| p.to_string_lossy().replace('\\', "/");
        addrs::relative_path(&slashed(&cfg.dir), &slashed(&self.root.dir))
    }

    /// Data for one module instance with `repetition` bound.
    pub fn data<'w>(
        &'w self,
        state: &'w State,
        config: &'w Config,
        inst: ModuleInstance,
        repetition: Repetition,
    ) -> InstanceData<'w> {
        InstanceData {
            walk: self,
            state,
            config,
            inst,
            repetition,
        }
    }

    /// Walks the whole configuration.
    pub fn run(&self) -> WalkOutcome {
        self.run_keeping_state().0
    }

    /// Walks the whole configuration and keeps what it learned, so that
    /// more expressions can be evaluated afterwards (the console).
    pub fn run_keeping_state(&self) -> (WalkOutcome, State) {
        let graph = self
            .graph
            .get_or_init(|| build_graph_with(self.root, &self.call_args));
        let cycles = cycle_diagnostics(graph);
        if !cycles.is_empty() {
            let outcome = WalkOutcome {
                diags: cycles,
                changes: Vec::new(),
                root_outputs: BTreeMap::new(),
            };
            return (outcome, State::default());
        }
        let mut state = State::default();
        state.instances.insert(
            addrs::Module::root(),
            vec![InstanceInfo {
                addr: ModuleInstance::root(),
                repetition: Repetition::default(),
            }],
        );
        let mut diags = Diagnostics::new();
        let mut changes = Vec::new();
        for level in levels(graph) {
            let eval = |&ix: &NodeIndex| {
                let node = &graph.graph[ix];
                let upstream_failed = graph
                    .graph
                    .neighbors_directed(ix, Direction::Incoming)
                    .any(|d| state.failed.contains(&graph.graph[d]));
                if upstream_failed {
                    return (
                        ix,
                        NodeResult {
                            failed: true,
                            ..NodeResult::default()
                        },
                    );
                }
                (ix, nodes::eval_node(self, &state, node))
            };
            // A level of a few nodes is done here: starting the thread pool
            // costs more than a small configuration's whole walk.
            let results: Vec<(NodeIndex, NodeResult)> = if level.len() >= PARALLEL_LEVEL_NODES {
                level.par_iter().map(eval).collect()
            } else {
                level.iter().map(eval).collect()
            };
            for (ix, r) in results {
                let node = graph.graph[ix].clone();
                if r.failed || hclsyntax::has_errors(&r.diags) {
                    state.failed.insert(node);
                }
                diags.extend(r.independent_diags);
                diags.extend(r.diags);
                for (inst, p) in r.produced {
                    merge(&mut state, &inst, p);
                }
                for (path, info) in r.new_instances {
                    state.instances.entry(path).or_default().push(info);
                }
                changes.extend(r.changes);
            }
        }
        diags.extend(self.check_imports(&state));
        // addrs.AbsResourceInstance.Less: a shorter module path sorts first
        // (every root instance, then those one module deep, ...), then the
        // path's steps, then the resource.
        changes.sort_by(|a: &ResourceInstanceChange, b| {
            (a.addr.module.0.len(), &a.addr).cmp(&(b.addr.module.0.len(), &b.addr))
        });
        let mut root_outputs = BTreeMap::new();
        if let Some(values) = state.values(&ModuleInstance::root()) {
            for (name, out) in &self.root.module.outputs {
                if let Some(v) = values.outputs.get(name) {
                    let sensitive = out.sensitive || v.contains_marked_sensitive();
                    root_outputs.insert(name.clone(), (strip_marks(v), sensitive));
                }
            }
        }
        let outcome = WalkOutcome {
            diags,
            changes,
            root_outputs,
        };
        (outcome, state)
    }
}

impl Walk<'_> {
    /// `import` blocks (root module only): their `id` and `for_each`
    /// expressions must evaluate, references included. The import itself
    /// needs the provider, so nothing more is planned here.
    fn check_imports(&self, state: &State) -> Diagnostics {
        let mut diags = Diagnostics::new();
        for imp in &self.root.module.imports {
            let rep = if imp.for_each.is_some() {
                crate::expand::Expansion::Unknown {
                    count: false,
                    for_each: true,
                }
                .unknown_repetition()
            } else {
                Repetition::default()
            };
            let data = self.data(state, self.root, ModuleInstance::root(), rep);
            let scope = data.scope();
            // Both consume their values: a deprecated module output read
            // here warns at the expression, as anywhere else.
            if let Some(fe) = &imp.for_each {
                let (v, d) = scope.eval_expr(fe, &cty::Type::Dynamic);
                diags.extend(d);
                crate::deprecation::check_expr(self, &v, fe);
            }
            if let Some(id) = &imp.id {
                let (v, d) = scope.eval_expr(id, &cty::Type::String);
                diags.extend(d);
                crate::deprecation::check_expr(self, &v, id);
            }
        }
        diags
    }
}

/// Whether any part of a value is marked sensitive.
trait SensitiveExt {
    fn contains_marked_sensitive(&self) -> bool;
}

impl SensitiveExt for Value {
    fn contains_marked_sensitive(&self) -> bool {
        let (_, marks) = self.unmark_deep();
        marks.contains(&cty::Mark::Sensitive)
    }
}

/// The value with every mark removed except `sensitive`, which plans keep.
pub fn strip_marks(v: &Value) -> Value {
    let (plain, paths) = v.unmark_deep_with_paths();
    let kept: Vec<cty::PathValueMarks> = paths
        .into_iter()
        .filter_map(|mut pvm| {
            pvm.marks.retain(|m| *m == cty::Mark::Sensitive);
            (!pvm.marks.is_empty()).then_some(pvm)
        })
        .collect();
    if kept.is_empty() {
        plain
    } else {
        plain.mark_with_paths(&kept)
    }
}

fn merge(state: &mut State, inst: &ModuleInstance, p: Produced) {
    let values = state.values_mut(inst);
    match p {
        Produced::Variable(n, v) => {
            values.variables.insert(n, v);
        }
        Produced::Local(n, v) => {
            values.locals.insert(n, v);
        }
        Produced::Output(n, v) => {
            values.outputs.insert(n, v);
        }
        Produced::Resource(a, r) => {
            values.resources.insert(a, r);
        }
        Produced::Call(n, c) => {
            values.calls.insert(n, c);
        }
    }
}

/// Kahn's algorithm by levels: each level holds the nodes whose
/// dependencies are all in earlier levels. (The graph has no cycles here.)
fn levels(graph: &Graph) -> Vec<Vec<NodeIndex>> {
    let g = &graph.graph;
    let mut indegree: HashMap<NodeIndex, usize> = g
        .node_indices()
        .map(|i| (i, g.neighbors_directed(i, Direction::Incoming).count()))
        .collect();
    let mut current: Vec<NodeIndex> = g.node_indices().filter(|i| indegree[i] == 0).collect();
    let mut out = Vec::new();
    while !current.is_empty() {
        current.sort_by(|a, b| g[*a].cmp(&g[*b]));
        let mut next = Vec::new();
        for &n in &current {
            for m in g.neighbors_directed(n, Direction::Outgoing) {
                let d = indegree.get_mut(&m).expect("every node has an indegree");
                *d -= 1;
                if *d == 0 {
                    next.push(m);
                }
            }
        }
        out.push(std::mem::take(&mut current));
        current = next;
    }
    out
}

/// The instance key a module instance was called with.
pub fn last_key(inst: &ModuleInstance) -> InstanceKey {
    inst.0
        .last()
        .map(|s| s.instance_key.clone())
        .unwrap_or_default()
}
