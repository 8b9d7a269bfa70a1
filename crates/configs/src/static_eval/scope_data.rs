//! The data behind static evaluation (`staticScopeData`): which references
//! are allowed, how locals and variables resolve, cycle detection through
//! the stack of identifiers being computed, and the "depends on" chain.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use addrs::{
    CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, PathAttr, Reference,
    Referenceable, Resource, TerraformAttr,
};
use cty::Value;
use hclsyntax::json::{to_expression, StringMode};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, ExprKind, Range};
use lang::{Data, Scope};

use super::evaluator::{StaticEvaluator, CIRCULAR};
use super::identifier::StaticIdentifier;
use super::variable_value::final_variable_value;
use crate::named_values::Variable;

/// The evaluator and what is being computed: `ident`, required by the
/// scopes that made this one. The names on that chain are kept in one set
/// shared along it (a nested scope adds its own and takes it out when
/// dropped), so that a chain of 20,000 locals neither copies its stack at
/// every level nor searches it.
pub(super) struct StaticScopeData<'e> {
    eval: &'e StaticEvaluator,
    ident: StaticIdentifier,
    /// `ident` as text, as the chain's set holds it.
    name: String,
    chain: Arc<Mutex<HashSet<String>>>,
}

/// How much stack a level of static evaluation may need before the next is
/// given a fresh segment, and the size of that segment. A chain of locals
/// recurses once per link: Go's growable stacks evaluate any length, and
/// so does this, on segments of the heap.
const STACK_RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

impl<'e> StaticScopeData<'e> {
    /// The outermost scope, computing `ident`.
    pub(super) fn new(eval: &'e StaticEvaluator, ident: StaticIdentifier) -> Self {
        let name = ident.to_string();
        let chain = Arc::new(Mutex::new(HashSet::from([name.clone()])));
        StaticScopeData {
            eval,
            ident,
            name,
            chain,
        }
    }

    fn top(&self) -> &StaticIdentifier {
        &self.ident
    }

    /// Evaluates `expr` with references resolved through this scope.
    pub(super) fn evaluate(&self, expr: &Expr) -> (Value, Diagnostics) {
        let scope = Scope::new(self, self.eval.functions.clone());
        let (refs, mut diags) = scope.references_in_expr(expr);
        diags.extend(self.static_validate_references(&refs, None, None));
        diags.extend(self.refuse_provider_functions(expr));
        if has_errors(&diags) {
            return (Value::dynamic(), diags);
        }
        let (ctx, more) = scope.eval_context(&refs);
        diags.extend(more);
        if has_errors(&diags) {
            return (Value::dynamic(), diags);
        }
        let (val, more) = lang::eval_expr(expr, &ctx);
        diags.extend(more);
        (val, diags)
    }

    /// `Provider function in static context` for every provider function
    /// `expr` calls.
    pub(super) fn refuse_provider_functions(&self, expr: &Expr) -> Diagnostics {
        let mut calls = Vec::new();
        provider_function_calls(expr, &mut calls);
        calls
            .into_iter()
            .map(|(name, range)| {
                Diagnostic::error(
                    "Provider function in static context",
                    format!(
                        "Unable to use {name} in static context, which is required by {}",
                        self.top()
                    ),
                    range,
                )
            })
            .collect()
    }

    /// A scope one level deeper, computing `ident`; a `Circular reference`
    /// if `ident` is already being computed.
    fn nested(&self, ident: &StaticIdentifier) -> Result<StaticScopeData<'e>, Diagnostics> {
        let name = ident.to_string();
        let mut chain = self.chain.lock().unwrap_or_else(|e| e.into_inner());
        if !chain.insert(name.clone()) {
            return Err(vec![Diagnostic::error(
                CIRCULAR,
                format!("{name} is self referential"),
                ident.decl_range.clone(),
            )]);
        }
        drop(chain);
        Ok(StaticScopeData {
            eval: self.eval,
            ident: ident.clone(),
            name,
            chain: Arc::clone(&self.chain),
        })
    }

    /// Adds `Unable to compute static value` when computing `ident` (a
    /// dependency of the top of the stack) failed.
    fn enhance(&self, ident: &StaticIdentifier, mut diags: Diagnostics) -> Diagnostics {
        if has_errors(&diags) {
            let top = self.top();
            diags.push(Diagnostic::error(
                "Unable to compute static value",
                format!("{top} depends on {ident} which is not available"),
                top.decl_range.clone(),
            ));
        }
        diags
    }

    /// The final value of `var` in this module (given or default,
    /// converted, marked), computed once.
    pub(super) fn input_variable(&self, var: &Variable) -> (Value, Diagnostics) {
        let key = format!("var.{}", var.name);
        if let Some(c) = self.eval.cached(&key) {
            return c;
        }
        let (given, diags) = self.eval.call().variables.given(var);
        let computed = final_variable_value(var, given, diags);
        self.eval.store(key, &computed);
        computed
    }
}

/// Leaving a scope takes its name off the chain (the outermost scope's
/// set goes with it).
impl Drop for StaticScopeData<'_> {
    fn drop(&mut self) {
        let mut chain = self.chain.lock().unwrap_or_else(|e| e.into_inner());
        chain.remove(&self.name);
    }
}

impl Data for StaticScopeData<'_> {
    fn static_validate_references(
        &self,
        refs: &[Reference],
        _self_addr: Option<&Referenceable>,
        _source: Option<&Referenceable>,
    ) -> Diagnostics {
        let top = self.top();
        let mut diags = Diagnostics::new();
        for r in refs {
            let summary = match &r.subject {
                Referenceable::LocalValue(_)
                | Referenceable::InputVariable(_)
                | Referenceable::PathAttr(_) => continue,
                Referenceable::TerraformAttr(a) if a.name == "applying" => {
                    diags.push(Diagnostic::error(
                        "Invalid attribute in static context",
                        "The applying attribute can not be used during static evaluation and is only valid in the plan and apply phases of execution",
                        r.source_range.clone(),
                    ));
                    continue;
                }
                Referenceable::TerraformAttr(_) => continue,
                Referenceable::ModuleCallInstanceOutput(_) => {
                    "Module output not supported in static context"
                }
                _ => "Dynamic value in static context",
            };
            diags.push(Diagnostic::error(
                summary,
                format!(
                    "Unable to use {} in static context, which is required by {top}",
                    r.subject
                ),
                r.source_range.clone(),
            ));
        }
        diags
    }

    fn get_count_attr(&self, _: &CountAttr, _: &Range) -> (Value, Diagnostics) {
        refused()
    }

    fn get_for_each_attr(&self, _: &ForEachAttr, _: &Range) -> (Value, Diagnostics) {
        refused()
    }

    fn get_resource(&self, _: &Resource, _: &Range) -> (Value, Diagnostics) {
        refused()
    }

    fn get_local_value(&self, addr: &LocalValue, range: &Range) -> (Value, Diagnostics) {
        let Some(local) = self.eval.locals.get(&addr.name) else {
            return (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Undefined local",
                    format!("Undefined local local.{}", addr.name),
                    range.clone(),
                )],
            );
        };
        let ident = self
            .eval
            .identifier(format!("local.{}", local.name), local.decl_range.clone());
        let nested = match self.nested(&ident) {
            Ok(n) => n,
            Err(d) => return (Value::dynamic(), d),
        };
        let key = format!("local.{}", local.name);
        let (val, diags) = match self.eval.cached(&key) {
            Some(c) => c,
            None => {
                let computed = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
                    nested.evaluate(&local.expr)
                });
                self.eval.store(key, &computed);
                computed
            }
        };
        (val, self.enhance(&ident, diags))
    }

    fn get_module(&self, _: &ModuleCall, _: &Range) -> (Value, Diagnostics) {
        refused()
    }

    fn get_path_attr(&self, addr: &PathAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "cwd" => match std::env::current_dir() {
                Ok(wd) => {
                    // Under `-recursive`, the root's directory.
                    let wd = wd.join(&self.eval.call().work_dir.dir);
                    let wd = wd.to_string_lossy().replace('\\', "/");
                    (Value::string(addrs::clean_path(&wd)), Vec::new())
                }
                Err(e) => (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Failed to get working directory",
                        format!("The value for path.cwd cannot be determined due to a system error: {e}"),
                        range.clone(),
                    )],
                ),
            },
            "module" => (Value::string(&self.eval.source_dir), Vec::new()),
            "root" => (Value::string(&self.eval.call().root_path), Vec::new()),
            other => {
                let suggestion =
                    match hclsyntax::body::name_suggestion(other, ["cwd", "module", "root"]) {
                        Some(s) => format!(" Did you mean {}?", cty::format::go_quote(s)),
                        None => String::new(),
                    };
                (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Invalid \"path\" attribute",
                        format!(
                            "The \"path\" object does not have an attribute named {}.{suggestion}",
                            cty::format::go_quote(other)
                        ),
                        range.clone(),
                    )],
                )
            }
        }
    }

    fn get_terraform_attr(&self, addr: &TerraformAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "workspace" => (Value::string(&self.eval.call().workspace), Vec::new()),
            "env" => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid \"terraform\" attribute",
                    "The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The \"state environment\" concept was renamed to \"workspace\" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.",
                    range.clone(),
                )],
            ),
            other => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid \"terraform\" attribute",
                    format!(
                        "The \"terraform\" object does not have an attribute named {}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.",
                        cty::format::go_quote(other)
                    ),
                    range.clone(),
                )],
            ),
        }
    }

    fn get_input_variable(&self, addr: &InputVariable, range: &Range) -> (Value, Diagnostics) {
        let Some(var) = self.eval.variables.get(&addr.name) else {
            return (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Undefined variable",
                    format!("Undefined variable var.{}", addr.name),
                    range.clone(),
                )],
            );
        };
        if var.const_set && !var.is_const {
            return (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Unable to use variable in static context",
                    format!(
                        "The variable {} cannot be used in a static context, because it is declared as \"const = false\".",
                        cty::format::go_quote(&var.name)
                    ),
                    range.clone(),
                )],
            );
        }
        let ident = self
            .eval
            .identifier(format!("var.{}", var.name), var.decl_range.clone());
        let (val, diags) = self.input_variable(var);
        (val, self.enhance(&ident, diags))
    }
}

/// What a getter answers for an object static evaluation refuses; never
/// asked, since such references fail validation first.
fn refused() -> (Value, Diagnostics) {
    (Value::dynamic(), Vec::new())
}

/// The provider functions (`provider::ns::fn`) `expr` calls, with the
/// ranges of their names.
fn provider_function_calls(expr: &Expr, out: &mut Vec<(String, Range)>) {
    let mut walk = |e: &Expr| provider_function_calls(e, out);
    match &expr.kind {
        ExprKind::Literal(_) | ExprKind::AnonSymbol | ExprKind::ScopeTraversal(_) => {}
        ExprKind::Json(node) => {
            let (e, _) = to_expression(node, StringMode::Template);
            if !matches!(e.kind, ExprKind::Json(_)) {
                walk(&e);
            }
        }
        ExprKind::Template(parts) | ExprKind::Tuple(parts) => parts.iter().for_each(walk),
        ExprKind::TemplateWrap(e) | ExprKind::TemplateJoin(e) | ExprKind::Parens(e) => walk(e),
        ExprKind::RelativeTraversal { source, .. } => walk(source),
        ExprKind::Index {
            collection, key, ..
        } => {
            walk(collection);
            walk(key);
        }
        ExprKind::Splat { source, each, .. } => {
            walk(source);
            walk(each);
        }
        ExprKind::FunctionCall(call) => {
            if call.name.starts_with("provider::") {
                out.push((call.name.clone(), call.name_range.clone()));
            }
            for a in &call.args {
                provider_function_calls(a, out);
            }
        }
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => {
            walk(condition);
            walk(true_result);
            walk(false_result);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs);
            walk(rhs);
        }
        ExprKind::Unary { operand, .. } => walk(operand),
        ExprKind::Object(items) => {
            for item in items {
                provider_function_calls(&item.key.expr, out);
                provider_function_calls(&item.value, out);
            }
        }
        ExprKind::For(f) => {
            walk(&f.collection);
            if let Some(k) = &f.key_expr {
                walk(k);
            }
            walk(&f.value_expr);
            if let Some(c) = &f.condition {
                walk(c);
            }
        }
    }
}
