//! A table of functions by name, where every builtin is also reachable as
//! `core::NAME`.

use std::collections::BTreeMap;

use super::Function;

/// The namespace prefix under which every builtin is also callable.
pub const CORE_NAMESPACE: &str = "core::";

/// Functions by name. Names registered with [`FunctionTable::insert`] are
/// builtins and also answer to `core::NAME`; [`FunctionTable::insert_exact`]
/// registers a name as is (provider functions, `provider::p::f`).
#[derive(Clone, Default, Debug)]
pub struct FunctionTable {
    builtins: BTreeMap<String, Function>,
    others: BTreeMap<String, Function>,
}

impl FunctionTable {
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// Registers a builtin (also reachable as `core::NAME`).
    pub fn insert(&mut self, name: impl Into<String>, f: Function) {
        self.builtins.insert(name.into(), f);
    }

    /// Registers a function under exactly `name`.
    pub fn insert_exact(&mut self, name: impl Into<String>, f: Function) {
        self.others.insert(name.into(), f);
    }

    /// Removes a builtin (e.g. functions not allowed in some context).
    pub fn remove(&mut self, name: &str) -> Option<Function> {
        self.builtins.remove(name)
    }

    /// The function called `name` (`core::` names resolve to builtins).
    pub fn get(&self, name: &str) -> Option<&Function> {
        if let Some(f) = self.builtins.get(name) {
            return Some(f);
        }
        if let Some(f) = self.others.get(name) {
            return Some(f);
        }
        name.strip_prefix(CORE_NAMESPACE)
            .and_then(|n| self.builtins.get(n))
    }

    /// Whether `name` resolves to a function.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every name a call may use, builtins first (without their `core::`
    /// aliases).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.builtins
            .keys()
            .chain(self.others.keys())
            .map(String::as_str)
    }

    /// The number of distinct functions.
    pub fn len(&self) -> usize {
        self.builtins.len() + self.others.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
