//! What the walk has learned so far: the instances of every module path
//! and the values of every object in every module instance. Read-only
//! while a level of the graph is evaluated; results are merged between
//! levels.

use std::collections::{BTreeMap, HashMap, HashSet};

use addrs::{InstanceKey, Module as ModulePath, ModuleInstance};
use cty::Value;

use crate::expand::Repetition;
use crate::graph::Node;

/// How a block repeats (the shape of the value that refers to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepeatKind {
    Single,
    Count,
    ForEach,
}

/// A resource's instances in one module instance.
#[derive(Debug, Clone)]
pub struct ResourceState {
    pub kind: RepeatKind,
    pub instances: BTreeMap<InstanceKey, Value>,
}

/// A module call's instances, made from one module instance.
#[derive(Debug, Clone)]
pub struct CallState {
    pub kind: RepeatKind,
    pub keys: Vec<InstanceKey>,
}

/// The values in one module instance.
#[derive(Debug, Clone, Default)]
pub struct ModuleValues {
    pub variables: HashMap<String, Value>,
    pub locals: HashMap<String, Value>,
    pub outputs: HashMap<String, Value>,
    pub resources: HashMap<addrs::Resource, ResourceState>,
    pub calls: HashMap<String, CallState>,
}

/// An instance of a module and the repetition data of the call that made
/// it (what `each`/`count` mean in the call's arguments).
#[derive(Debug, Clone)]
pub struct InstanceInfo {
    pub addr: ModuleInstance,
    pub repetition: Repetition,
}

#[derive(Debug, Default)]
pub struct State {
    pub instances: HashMap<ModulePath, Vec<InstanceInfo>>,
    pub modules: HashMap<ModuleInstance, ModuleValues>,
    /// Nodes whose evaluation failed: their dependents are skipped (their
    /// errors would only repeat the first).
    pub failed: HashSet<Node>,
}

impl State {
    pub fn values(&self, inst: &ModuleInstance) -> Option<&ModuleValues> {
        self.modules.get(inst)
    }

    pub fn values_mut(&mut self, inst: &ModuleInstance) -> &mut ModuleValues {
        self.modules.entry(inst.clone()).or_default()
    }

    pub fn instances_of(&self, path: &ModulePath) -> &[InstanceInfo] {
        self.instances.get(path).map(Vec::as_slice).unwrap_or(&[])
    }
}
