//! The static evaluator (`StaticEvaluator`): evaluates the expressions of
//! one module that may use only `var.*`, `local.*`, `path.*`,
//! `terraform.workspace` and builtin functions, computing each local and
//! variable at most once.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};

use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, Range, Traversal};
use lang::{EvalContext, FunctionTable, Scope};

use super::call::StaticModuleCall;
use super::identifier::StaticIdentifier;
use super::scope_data::StaticScopeData;
use crate::merged_body::ConfigBody;
use crate::module::Module;
use crate::named_values::{Local, Variable};

/// A computed local or variable: its value and the diagnostics of
/// computing it (without the "depends on" errors its users add).
pub(super) type Computed = (Value, Diagnostics);

/// Evaluates a module's expressions in a static context.
pub struct StaticEvaluator {
    call: StaticModuleCall,
    pub(super) variables: BTreeMap<String, Box<Variable>>,
    pub(super) locals: BTreeMap<String, Box<Local>>,
    /// `path.module`.
    pub(super) source_dir: String,
    pub(super) functions: Arc<FunctionTable>,
    /// Keyed `local.NAME` / `var.NAME`.
    cache: Mutex<HashMap<String, Computed>>,
}

impl fmt::Debug for StaticEvaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticEvaluator")
            .field("call", &self.call)
            .field("source_dir", &self.source_dir)
            .finish_non_exhaustive()
    }
}

impl StaticEvaluator {
    /// An evaluator for `module` as called by `call`. It keeps a copy of the
    /// module's variables and locals, so the module may change afterwards.
    pub fn new(module: &Module, call: StaticModuleCall) -> Self {
        let source_dir = module.source_dir.to_string_lossy().into_owned();
        let source_dir = if call.work_dir.is_current() {
            source_dir
        } else {
            relative_to(&source_dir, &call.work_dir.dir)
        };
        StaticEvaluator {
            variables: module.variables.clone(),
            locals: module.locals.clone(),
            source_dir,
            functions: call.work_dir.functions.clone(),
            call,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The call this evaluator's module was loaded for.
    pub fn call(&self) -> &StaticModuleCall {
        &self.call
    }

    /// An identifier in this evaluator's module.
    pub fn identifier(&self, subject: impl Into<String>, decl_range: Range) -> StaticIdentifier {
        StaticIdentifier::new(&self.call.addr, subject, decl_range)
    }

    /// Evaluates `expr`, which computes `ident`. References to anything but
    /// variables, locals, `path` and `terraform.workspace` (and provider
    /// functions) are refused before anything is evaluated. With errors the
    /// value is `Value::dynamic()`.
    pub fn evaluate(&self, expr: &Expr, ident: &StaticIdentifier) -> (Value, Diagnostics) {
        let data = StaticScopeData::new(self, ident.clone());
        data.evaluate(expr)
    }

    /// [`evaluate`](Self::evaluate) for a value that becomes part of the
    /// configuration (a source address, a backend argument): sensitive and
    /// ephemeral values are refused (`DecodeExpression`).
    pub fn decode_expression(&self, expr: &Expr, ident: &StaticIdentifier) -> (Value, Diagnostics) {
        let (val, mut diags) = self.evaluate(expr, ident);
        if has_errors(&diags) {
            return (val, diags);
        }
        diags.extend(refuse_marked(&val, &expr.range, &ident.to_string()));
        (val, diags)
    }

    /// [`decode_expression`](Self::decode_expression) into a string, with
    /// the messages of decoding into a Go string.
    pub fn decode_string(
        &self,
        expr: &Expr,
        ident: &StaticIdentifier,
    ) -> (Option<String>, Diagnostics) {
        let (val, mut diags) = self.decode_expression(expr, ident);
        if has_errors(&diags) {
            return (None, diags);
        }
        match value_to_string(&val) {
            Ok(s) => (Some(s), diags),
            Err(msg) => {
                diags.push(Diagnostic::error(
                    "Unsuitable value type",
                    format!("Unsuitable value: {msg}"),
                    expr.range.clone(),
                ));
                (None, diags)
            }
        }
    }

    /// The evaluation context for expressions making the references in
    /// `traversals` (for decoding a whole body against a schema, as
    /// `DecodeBlock` does): references are checked as by
    /// [`evaluate`](Self::evaluate).
    pub fn eval_context(
        &self,
        traversals: &[Traversal],
        ident: &StaticIdentifier,
    ) -> (EvalContext<'static>, Diagnostics) {
        let data = StaticScopeData::new(self, ident.clone());
        let scope = Scope::new(&data, self.functions.clone());
        let (refs, mut diags) = scope.references(traversals);
        if has_errors(&diags) {
            return (
                EvalContext::new(BTreeMap::new(), self.functions.clone()),
                diags,
            );
        }
        let (ctx, more) = scope.eval_context(&refs);
        diags.extend(more);
        (ctx, diags)
    }

    /// Evaluates every argument of `body` (which may have no blocks) as
    /// `ident`: all references are checked before any is evaluated.
    pub fn evaluate_attributes(
        &self,
        body: &ConfigBody,
        ident: &StaticIdentifier,
    ) -> (BTreeMap<String, Value>, Diagnostics) {
        let (attrs, mut diags) = body.just_attributes();
        let mut out = BTreeMap::new();
        if has_errors(&diags) {
            return (out, diags);
        }
        let data = StaticScopeData::new(self, ident.clone());
        let mut exprs = Vec::new();
        for a in &attrs {
            exprs.extend(a.expr.variables());
        }
        let scope = Scope::new(&data, self.functions.clone());
        let (refs, more) = scope.references(&exprs);
        diags.extend(more);
        diags.extend(lang::Data::static_validate_references(
            &data, &refs, None, None,
        ));
        for a in &attrs {
            diags.extend(data.refuse_provider_functions(&a.expr));
        }
        if has_errors(&diags) {
            return (out, diags);
        }
        let (ctx, more) = scope.eval_context(&refs);
        diags.extend(more);
        if has_errors(&diags) {
            return (out, diags);
        }
        for a in &attrs {
            let (v, more) = lang::eval_expr(&a.expr, &ctx);
            diags.extend(more);
            out.insert(a.name.clone(), v);
        }
        (out, diags)
    }

    /// The value of `var.NAME` in this module, converted to its type (what
    /// `const = true` variables are checked with at load).
    pub fn variable_value(&self, name: &str) -> (Value, Diagnostics) {
        match self.variables.get(name) {
            Some(var) => {
                let ident = self.identifier(format!("var.{name}"), var.decl_range.clone());
                StaticScopeData::new(self, ident).input_variable(var)
            }
            None => (Value::dynamic(), Vec::new()),
        }
    }

    pub(super) fn cached(&self, key: &str) -> Option<Computed> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(key).cloned()
    }

    /// Remembers a result, unless it came from inside a reference cycle (a
    /// result that depends on who asked).
    pub(super) fn store(&self, key: String, computed: &Computed) {
        if computed.1.iter().any(|d| d.summary == CIRCULAR) {
            return;
        }
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(key, computed.clone());
    }
}

pub(super) const CIRCULAR: &str = "Circular reference";

/// The refusal of a sensitive or ephemeral value used as `what`.
pub fn refuse_marked(val: &Value, range: &Range, what: &str) -> Diagnostics {
    let mut diags = Diagnostics::new();
    if has_mark_deep(val, &Mark::Sensitive) {
        diags.push(Diagnostic::error(
            "Sensitive value not allowed",
            format!("Sensitive values, or values derived from sensitive values, cannot be used as {what}."),
            range.clone(),
        ));
    }
    if has_mark_deep(val, &Mark::Ephemeral) {
        diags.push(Diagnostic::error(
            "Ephemeral value not allowed",
            format!("Ephemeral values, or values derived from ephemeral values, cannot be used as {what}."),
            range.clone(),
        ));
    }
    diags
}

/// Whether `val` or anything inside it carries `mark`.
pub fn has_mark_deep(val: &Value, mark: &Mark) -> bool {
    if val.has_mark(mark) {
        return true;
    }
    if !val.contains_marked() {
        return false;
    }
    let (_, paths) = val.unmark_deep_with_paths();
    paths.iter().any(|p| p.marks.contains(mark))
}

/// A value decoded into a Go string (`gohcl`): primitives convert, null
/// and unknown do not.
pub(super) fn value_to_string(val: &Value) -> Result<String, String> {
    let val = val.unmark_deep().0;
    if !val.is_known() {
        return Err("a known value is required".into());
    }
    if val.is_null() {
        return Err("a string is required".into());
    }
    match cty::convert::convert(&val, &Type::String) {
        Ok(s) => s
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| "a string is required".to_string()),
        Err(e) => Err(e.with_path()),
    }
}

/// Evaluators are shared between the threads that load child modules.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<StaticEvaluator>();
    send_sync::<StaticModuleCall>();
};

/// `path` (as the process sees it) relative to `base` (also as the process
/// sees it); both are made absolute first when either is.
fn relative_to(path: &str, base: &str) -> String {
    let is_abs = |p: &str| std::path::Path::new(p).is_absolute();
    if !is_abs(path) && !is_abs(base) {
        return addrs::relative_path(path, base);
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let absolute = |p: &str| cwd.join(p).to_string_lossy().into_owned();
    addrs::relative_path(&absolute(path), &absolute(base))
}

#[cfg(test)]
mod relative_tests {
    use super::relative_to;

    #[test]
    fn paths_relative_to_a_root() {
        assert_eq!(relative_to("live/prod", "live/prod"), ".");
        assert_eq!(relative_to("modules/vpc", "live/prod"), "../../modules/vpc");
        assert_eq!(
            relative_to("live/prod/.terraform/modules/x", "live/prod"),
            ".terraform/modules/x"
        );
        assert_eq!(relative_to("/a/b/c", "/a/d"), "../b/c");
    }
}
