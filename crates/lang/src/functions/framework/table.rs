//! A table of functions by name, where every builtin is also reachable as
//! `core::NAME`.

use std::collections::BTreeMap;

use super::Function;

/// The namespace prefix under which every builtin is also callable.
pub const CORE_NAMESPACE: &str = "core::";

/// Functions by name. Names registered with [`FunctionTable::insert`] are
/// builtins and also answer to `core::NAME`; [`FunctionTable::insert_exact`]
/// registers a name as is (provider functions, `provider::p::f`).
/// A table may extend the builtin functions (a scope's table adds a few
/// of its own): its own names come first and may shadow the builtins',
/// which are built once per process, on the first lookup that needs them
/// ([`crate::functions::builtins`]), so a configuration that calls no
/// function never pays for them (a tenth of a millisecond).
#[derive(Clone, Default, Debug)]
pub struct FunctionTable {
    builtins: BTreeMap<String, Function>,
    others: BTreeMap<String, Function>,
    extends_builtins: bool,
}

impl FunctionTable {
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// An empty table whose lookups fall back to the builtin functions.
    pub fn extending_builtins() -> FunctionTable {
        FunctionTable {
            extends_builtins: true,
            ..FunctionTable::default()
        }
    }

    /// The builtins this table falls back to, built on first use.
    fn base_table(&self) -> Option<&FunctionTable> {
        self.extends_builtins.then(crate::functions::builtins)
    }

    /// Registers a builtin (also reachable as `core::NAME`).
    pub fn insert(&mut self, name: impl Into<String>, f: Function) {
        self.builtins.insert(name.into(), f);
    }

    /// Registers a function under exactly `name`.
    pub fn insert_exact(&mut self, name: impl Into<String>, f: Function) {
        self.others.insert(name.into(), f);
    }

    /// Removes a builtin (e.g. functions not allowed in some context). A
    /// builtin fallen back to cannot be removed: build a table without it.
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
        if let Some(f) = name
            .strip_prefix(CORE_NAMESPACE)
            .and_then(|n| self.builtins.get(n))
        {
            return Some(f);
        }
        self.base_table().and_then(|b| b.get(name))
    }

    /// Whether `name` resolves to a function.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every name a call may use, each once and in order: the builtins
    /// (without their `core::` aliases, those fallen back to included),
    /// then the others.
    pub fn names(&self) -> Vec<&str> {
        let mut builtins = std::collections::BTreeSet::new();
        let mut others = std::collections::BTreeSet::new();
        let mut table = Some(self);
        while let Some(t) = table {
            builtins.extend(t.builtins.keys().map(String::as_str));
            others.extend(t.others.keys().map(String::as_str));
            table = t.base_table();
        }
        builtins.into_iter().chain(others).collect()
    }

    /// The number of distinct functions.
    pub fn len(&self) -> usize {
        self.names().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
