//! The evaluation context: the variables and functions an expression can
//! see, with child contexts for the symbols `for` expressions bind (HCL's
//! `hcl.EvalContext`).

use std::collections::BTreeMap;
use std::sync::Arc;

use cty::Value;

use crate::functions::framework::{Function, FunctionTable};

/// Variables (root name to value, e.g. `var` to an object of all input
/// variables) and functions, plus an optional parent that is searched for
/// any name this context lacks.
///
/// `variables: None` means variables may not be used here at all ("Variables
/// not allowed"), as opposed to an empty map ("Unknown variable"); the same
/// holds for `functions`.
#[derive(Clone, Default)]
pub struct EvalContext<'p> {
    variables: Option<BTreeMap<String, Value>>,
    functions: Option<Arc<FunctionTable>>,
    parent: Option<&'p EvalContext<'p>>,
    /// The element a splat expression is visiting, for its `AnonSymbol`.
    splat_item: Option<Value>,
    /// The symbols a `for` expression binds for one element (key symbol
    /// first): variables of this context, kept out of `variables` so that
    /// binding them costs no map or name allocation per element.
    symbols: [Option<(&'p str, Value)>; 2],
}

impl std::fmt::Debug for EvalContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalContext")
            .field("variables", &self.variables)
            .field("functions", &self.functions.as_ref().map(|t| t.len()))
            .field("parent", &self.parent)
            .finish()
    }
}

impl<'p> EvalContext<'p> {
    /// A context in which neither variables nor functions are allowed.
    pub fn empty() -> EvalContext<'static> {
        EvalContext::default()
    }

    /// A root context with the given variables and functions.
    pub fn new(variables: BTreeMap<String, Value>, functions: Arc<FunctionTable>) -> Self {
        EvalContext {
            variables: Some(variables),
            functions: Some(functions),
            ..EvalContext::default()
        }
    }

    /// A root context with only variables (function calls are not allowed).
    pub fn with_variables(variables: BTreeMap<String, Value>) -> Self {
        EvalContext {
            variables: Some(variables),
            ..EvalContext::default()
        }
    }

    /// Sets one variable (creating the variable map if there was none).
    pub fn set_variable(&mut self, name: impl Into<String>, value: Value) {
        self.variables
            .get_or_insert_with(BTreeMap::new)
            .insert(name.into(), value);
    }

    /// A child context whose own variables are `variables`; everything else
    /// is looked up in `self` (HCL's `NewChild`).
    pub fn child(&'p self, variables: BTreeMap<String, Value>) -> EvalContext<'p> {
        EvalContext {
            variables: Some(variables),
            functions: None,
            parent: Some(self),
            splat_item: None,
            symbols: [None, None],
        }
    }

    /// A child context whose own variables are the symbols of one `for`
    /// element: the key symbol (if the expression names one) and the
    /// value symbol. Looks up like [`EvalContext::child`] with those two
    /// variables.
    pub(crate) fn for_child(
        &'p self,
        key: Option<(&'p str, Value)>,
        value: (&'p str, Value),
    ) -> EvalContext<'p> {
        EvalContext {
            variables: None,
            functions: None,
            parent: Some(self),
            splat_item: None,
            symbols: [key, Some(value)],
        }
    }

    /// True if this context itself defines variables (a map or symbols).
    fn has_own_variables(&self) -> bool {
        self.variables.is_some() || self.symbols[1].is_some()
    }

    /// This context's own variable `name`.
    fn own_variable(&self, name: &str) -> Option<&Value> {
        // A `for` binding both symbols to one name keeps the value's, as
        // the map it stands for would.
        for (n, v) in self.symbols.iter().rev().flatten() {
            if *n == name {
                return Some(v);
            }
        }
        self.variables.as_ref()?.get(name)
    }

    /// A child context in which the splat placeholder stands for `item`.
    pub(crate) fn splat_child(&'p self, item: Value) -> EvalContext<'p> {
        EvalContext {
            variables: None,
            functions: None,
            parent: Some(self),
            splat_item: Some(item),
            symbols: [None, None],
        }
    }

    /// The value of the innermost splat placeholder (unknown outside any
    /// splat, as HCL's `AnonSymbolExpr` with no value set).
    pub(crate) fn anon_value(&self) -> Value {
        let mut ctx = Some(self);
        while let Some(c) = ctx {
            if let Some(v) = &c.splat_item {
                return v.clone();
            }
            ctx = c.parent;
        }
        Value::dynamic()
    }

    /// Sets the function table (replacing any).
    pub fn set_functions(&mut self, functions: Arc<FunctionTable>) {
        self.functions = Some(functions);
    }

    /// The context's own variables (not its parents').
    pub fn variables(&self) -> Option<&BTreeMap<String, Value>> {
        self.variables.as_ref()
    }

    /// The context's own function table (not its parents').
    pub fn functions(&self) -> Option<&Arc<FunctionTable>> {
        self.functions.as_ref()
    }

    /// The parent context, if this is a child.
    pub fn parent(&self) -> Option<&'p EvalContext<'p>> {
        self.parent
    }

    /// The value of root variable `name`, searching parents. The outer
    /// `None` means no context in the chain allows variables at all.
    pub fn lookup_variable(&self, name: &str) -> Option<Option<&Value>> {
        let mut any = false;
        let mut ctx = Some(self);
        while let Some(c) = ctx {
            if c.has_own_variables() {
                any = true;
                if let Some(v) = c.own_variable(name) {
                    return Some(Some(v));
                }
            }
            ctx = c.parent;
        }
        if any {
            Some(None)
        } else {
            None
        }
    }

    /// Every variable name visible from this context (for suggestions).
    pub fn variable_names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut ctx = Some(self);
        while let Some(c) = ctx {
            // In name order, as the map they stand for would list them.
            let mut symbols: Vec<&str> = c.symbols.iter().flatten().map(|(n, _)| *n).collect();
            symbols.sort_unstable();
            symbols.dedup();
            out.extend(symbols);
            if let Some(vars) = &c.variables {
                out.extend(vars.keys().map(String::as_str));
            }
            ctx = c.parent;
        }
        out
    }

    /// The function `name`, searching parents. The outer `None` means no
    /// context in the chain allows function calls.
    pub fn lookup_function(&self, name: &str) -> Option<Option<&Function>> {
        let mut any = false;
        let mut ctx = Some(self);
        while let Some(c) = ctx {
            if let Some(funcs) = &c.functions {
                any = true;
                if let Some(f) = funcs.get(name) {
                    return Some(Some(f));
                }
            }
            ctx = c.parent;
        }
        if any {
            Some(None)
        } else {
            None
        }
    }

    /// The function names of this context's own table (HCL suggests names
    /// from the innermost context only, so none inside `for` bodies).
    pub fn function_names(&self) -> Vec<&str> {
        match &self.functions {
            Some(funcs) => funcs.names(),
            None => Vec::new(),
        }
    }
}
