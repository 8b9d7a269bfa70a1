//! Conditions: preconditions, postconditions, output preconditions,
//! variable validations and check blocks' asserts, evaluated as OpenTofu's
//! `evalCheckRule`, `validateCheckRule` and `evalVariableValidations` do.

use addrs::Referenceable;
use configs::check_rule::CheckRule;
use configs::config::Config;
use configs::named_values::Variable;
use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Range};
use lang::Scope;

use super::overlay::{Overlay, Supplied};
use super::state::State;
use super::{Cause, InstanceData, InstanceInfo, Mode, NodeResult, Walk};
use crate::deprecation;
use crate::expand::Repetition;

/// A condition as OpenTofu's `evalCheckRule` (and validate's
/// `evaluateExpr`) evaluates it: in the context built from its references
/// even when building it failed, so that a reference the failed context
/// lacks is HCL's "Unknown variable" as well (`self` where it is not
/// available is reported twice, as OpenTofu reports it).
fn eval_condition(scope: &Scope<'_>, cond: &hclsyntax::Expr) -> (Value, Diagnostics) {
    let (refs, mut diags) = scope.references_in_expr(cond);
    let (ctx, more) = scope.eval_context(&refs);
    diags.extend(more);
    let (value, more) = lang::eval_expr(cond, &ctx);
    diags.extend(more);
    (value, diags)
}

/// One context for a rule's condition and error message together, as
/// OpenTofu's `validateCheckRule` and `evalVariableValidations` build it.
/// `None` when a reference does not even parse (nothing to build from).
fn rule_context(
    scope: &Scope<'_>,
    rule: &CheckRule,
) -> (Option<lang::EvalContext<'static>>, Diagnostics) {
    let mut refs = Vec::new();
    let mut diags = Diagnostics::new();
    for expr in rule.condition.iter().chain(rule.error_message.iter()) {
        let (r, d) = scope.references_in_expr(expr);
        refs.extend(r);
        diags.extend(d);
    }
    if has_errors(&diags) {
        return (None, diags);
    }
    let (ctx, more) = scope.eval_context(&refs);
    diags.extend(more);
    (Some(ctx), diags)
}

/// Outcome of a condition: `None` when it passed or could not be decided.
fn failed_condition(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    rule: &CheckRule,
    diags: &mut Diagnostics,
    invalid_summary: &str,
    null_detail: &str,
) -> Option<String> {
    let cond = rule.condition.as_ref()?;
    let (result, d) = eval_condition(scope, cond);
    let failed = has_errors(&d);
    diags.extend(d);
    deprecation::check_expr(walk, &result, cond);
    if failed || !result.is_known() {
        return None;
    }
    let result = result.unmark();
    if result.is_null() {
        diags.push(Diagnostic::error(
            invalid_summary,
            null_detail,
            cond.range.clone(),
        ));
        return None;
    }
    let result = match cty::convert::convert(&result, &Type::Bool) {
        Ok(v) => v,
        Err(e) => {
            diags.push(Diagnostic::error(
                invalid_summary,
                format!("Invalid condition result value: {e}."),
                cond.range.clone(),
            ));
            return None;
        }
    };
    if result.as_bool() != Some(false) {
        return None;
    }
    let mut message = String::new();
    if let Some(expr) = &rule.error_message {
        let (v, d) = scope.eval_expr(expr, &Type::String);
        let bad = has_errors(&d);
        diags.extend(d);
        let v = deprecation::consume_expr(walk, v, expr);
        if !bad {
            if !v.is_known() {
                diags.push(Diagnostic::error(
                    "Invalid error message",
                    "Value used in error message is not known and can not be used in error_message until after apply.",
                    expr.range.clone(),
                ));
            } else if v.has_mark(&Mark::Sensitive) {
                diags.push(Diagnostic::error(
                    "Error message refers to sensitive values",
                    "The error expression used to explain this condition refers to sensitive values. OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
                    expr.range.clone(),
                ));
                message =
                    "The error message included a sensitive value, so it will not be displayed."
                        .into();
            } else if let Some(s) = v.unmark().as_str() {
                message = s.trim().to_string();
            }
        }
    }
    if message.is_empty() {
        message = "Failed to evaluate condition error message.".into();
    }
    Some(message)
}

pub(super) fn validate_variable_rule(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    rule: &CheckRule,
    decl: &Variable,
    arg_range: Option<&Range>,
    diags: &mut Diagnostics,
) {
    // evalVariableValidations skips the rule when its context fails (so,
    // unlike other conditions, nothing is reported twice).
    let (_, context_diags) = rule_context(scope, rule);
    if has_errors(&context_diags) {
        diags.extend(context_diags);
        return;
    }
    let Some(message) = failed_condition(
        walk,
        scope,
        rule,
        diags,
        "Invalid variable validation result",
        "Validation condition expression must return either true or false, not null.",
    ) else {
        return;
    };
    let diag = Diagnostic::error(
        "Invalid value for variable",
        format!(
            "{message}\n\nThis was checked by the validation rule at {}.",
            rule.decl_range
        ),
        arg_range
            .cloned()
            .unwrap_or_else(|| decl.decl_range.clone()),
    );
    if let Some(cond) = &rule.condition {
        walk.values.record(&diag, cond, scope, Cause::default());
    }
    diags.push(diag);
}

/// The resource's postconditions against its planned object (`self`,
/// with `count.index`/`each` still those of the instance). Conditions that
/// depend on what only apply knows are unknown, and skipped as OpenTofu
/// skips them at plan time.
pub(super) fn postconditions(
    walk: &Walk<'_>,
    data: &InstanceData<'_>,
    rc: &configs::resource::Resource,
    addr: &addrs::Resource,
    planned: Value,
    diags: &mut Diagnostics,
) {
    if rc.postconditions.is_empty() {
        return;
    }
    let with_self = Overlay {
        inner: data,
        supplied: Supplied::PlannedObject {
            resource: addr,
            value: planned,
        },
    };
    let mut scope = Scope::new(&with_self, walk.functions.clone());
    scope.self_addr = Some(Referenceable::Resource(addr.clone()));
    scope.source_addr = Some(Referenceable::Resource(addr.clone()));
    check_rules(
        walk,
        &scope,
        &rc.postconditions,
        "Resource postcondition failed",
        diags,
    );
}

pub(super) fn check_rules<'r>(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    rules: impl IntoIterator<Item = &'r CheckRule>,
    summary: &str,
    diags: &mut Diagnostics,
) {
    for rule in rules {
        if let Some(msg) = failed_condition(
            walk,
            scope,
            rule,
            diags,
            "Invalid condition result",
            "Condition expression must return either true or false, not null.",
        ) {
            let subject = rule
                .condition
                .as_ref()
                .map(|c| c.range.clone())
                .unwrap_or_else(|| rule.decl_range.clone());
            let diag = Diagnostic::error(summary, msg, subject);
            if let Some(cond) = &rule.condition {
                walk.values.record(&diag, cond, scope, Cause::default());
            }
            diags.push(diag);
        }
    }
}

pub(super) fn check(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    name: &str,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(c) = cfg.module.checks.get(name) else {
        return out;
    };
    for info in instances {
        let data = walk.data(state, cfg, info.addr.clone(), Repetition::default());
        let mut scope = data.scope();
        // The check's own scoped data block is readable from its asserts
        // only (validateCheckRule's sourceReference).
        scope.source_addr = Some(Referenceable::Check(addrs::Check {
            name: name.to_string(),
        }));
        // validateCheckRule: the references of each assert's condition and
        // error message are checked first, and what is wrong there is an
        // error of the configuration, in validate and plan alike.
        let mut valid = Vec::new();
        for rule in &c.asserts {
            let (ctx, mut d) = rule_context(&scope, rule);
            let Some(ctx) = ctx else {
                out.diags.extend(d);
                continue;
            };
            if !has_errors(&d) {
                valid.push(rule);
                continue;
            }
            // The failed context is used all the same: validateCheckRule
            // evaluates the error message in it, and a plan's
            // evalCheckRule the condition, so what it lacks is HCL's
            // "Unknown variable" as well.
            let evaluated = match walk.mode {
                Mode::Validate => rule.error_message.iter().collect::<Vec<_>>(),
                _ => rule
                    .error_message
                    .iter()
                    .chain(rule.condition.iter())
                    .collect(),
            };
            for expr in evaluated {
                d.extend(lang::eval_expr(expr, &ctx).1);
            }
            out.diags.extend(d);
        }
        // The validate walk stops there (nodeCheckAssert without
        // executeChecks); a plan evaluates the asserts, and what they find
        // is a warning: checks never block a plan.
        if walk.mode == Mode::Validate {
            continue;
        }
        let mut d = Diagnostics::new();
        check_rules(walk, &scope, valid, "Check block assertion failed", &mut d);
        for mut diag in d {
            diag.severity = hclsyntax::Severity::Warning;
            out.diags.push(diag);
        }
    }
    out
}
