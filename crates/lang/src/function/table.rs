//! A table of functions by name, where every builtin is also reachable as
//! `core::NAME`.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Function;

/// The namespace prefix under which every builtin is also callable.
pub const CORE_NAMESPACE: &str = "core::";

/// Functions by name. Names registered with [`FunctionTable::insert`] are
/// builtins and also answer to `core::NAME`; [`FunctionTable::insert_exact`]
/// registers a name as is (provider functions, `provider::p::f`).
/// A table may extend a shared `base` (the builtins, built once per
/// process): its own names come first and may shadow the base's.
#[derive(Clone, Default, Debug)]
pub struct FunctionTable {
    builtins: BTreeMap<String, Function>,
    others: BTreeMap<String, Function>,
    base: Option<Base>,
}

/// What a table falls back to.
#[derive(Clone, Debug)]
enum Base {
    Table(Arc<FunctionTable>),
    /// The builtin functions, built on the first lookup that needs them
    /// ([`crate::functions::builtins`]): a configuration that calls no
    /// function never pays for the table (a tenth of a millisecond).
    Builtins,
}

impl FunctionTable {
    /// The table this one falls back to, building the builtins if that is
    /// what it is.
    fn base_table(&self) -> Option<&FunctionTable> {
        match &self.base {
            Some(Base::Table(t)) => Some(t),
            Some(Base::Builtins) => Some(crate::functions::builtins()),
            None => None,
        }
    }
}

impl FunctionTable {
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// An empty table whose lookups fall back to `base`.
    pub fn extending(base: Arc<FunctionTable>) -> FunctionTable {
        FunctionTable {
            base: Some(Base::Table(base)),
            ..FunctionTable::default()
        }
    }

    /// An empty table whose lookups fall back to the builtin functions,
    /// which are built (once per process) only when first looked up.
    pub fn extending_builtins() -> FunctionTable {
        FunctionTable {
            base: Some(Base::Builtins),
            ..FunctionTable::default()
        }
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
    /// name of the base table cannot be removed: build a table without it.
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
    /// (without their `core::` aliases), then the others; the base's
    /// names included.
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
