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

/// A variable validation as OpenTofu's `evalVariableValidations` decides
/// it: the failure message, or `None` when the rule passed or could not be
/// decided. Unlike other rules, the error message is looked at only when
/// the condition fails, and an unknown or sensitive message is an error.
fn failed_validation(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    rule: &CheckRule,
    diags: &mut Diagnostics,
) -> Option<String> {
    let cond = rule.condition.as_ref()?;
    let (result, d) = eval_condition(scope, cond);
    let failed = has_errors(&d);
    diags.extend(d);
    deprecation::check_expr(walk, &result, cond);
    if failed || !result.is_known() {
        return None;
    }
    let invalid = |detail: String| {
        Diagnostic::error(
            "Invalid variable validation result",
            detail,
            cond.range.clone(),
        )
    };
    let result = result.unmark();
    if result.is_null() {
        diags.push(invalid(
            "Validation condition expression must return either true or false, not null.".into(),
        ));
        return None;
    }
    match cty::convert::convert(&result, &Type::Bool) {
        Ok(v) if v.as_bool() == Some(false) => {}
        Ok(_) => return None,
        Err(e) => {
            diags.push(invalid(format!(
                "Invalid validation condition result value: {e}."
            )));
            return None;
        }
    }
    let message = match &rule.error_message {
        Some(expr) => validation_error_message(walk, scope, expr, diags),
        None => String::new(),
    };
    Some(if message.is_empty() {
        "Failed to evaluate condition error message.".into()
    } else {
        message
    })
}

/// A failed validation's message; "" (with diagnostics) when there is none
/// to show.
fn validation_error_message(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    expr: &hclsyntax::Expr,
    diags: &mut Diagnostics,
) -> String {
    let (v, d) = scope.eval_expr(expr, &Type::Dynamic);
    let bad = has_errors(&d);
    diags.extend(d);
    let v = deprecation::consume_expr(walk, v, expr);
    if bad {
        return String::new();
    }
    let invalid =
        |detail: String| Diagnostic::error("Invalid error message", detail, expr.range.clone());
    if !v.is_known() {
        diags.push(invalid("Value used in error message is not known and can not be used in error_message until after apply.".into()));
        return String::new();
    }
    if v.is_null() {
        return String::new();
    }
    let v = match cty::convert::convert(&v, &Type::String) {
        Ok(v) => v,
        Err(e) => {
            diags.push(invalid(format!("Unsuitable value for error message: {e}.")));
            return String::new();
        }
    };
    if let Some(c) = Confidential::of(&v) {
        diags.push(Diagnostic::error(
            format!("Error message refers to {} values", c.kind),
            format!("The error expression used to explain this condition refers to {} values. OpenTofu will not display the resulting message.\n\nYou can correct this by {}.", c.kind, c.remedy),
            expr.range.clone(),
        ));
        return format!(
            "The error message included {} {} value, so it will not be displayed.",
            c.article, c.kind
        );
    }
    v.unmark().as_str().unwrap_or_default().trim().to_string()
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
    let Some(message) = failed_validation(walk, scope, rule, diags) else {
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
    resource_rules(
        walk,
        &scope,
        &rc.postconditions,
        "Resource postcondition failed",
        diags,
    );
}

/// A resource's preconditions or postconditions. The validate walk only
/// evaluates both expressions of each, for what is wrong in them
/// (`NodeValidatableResource.validateCheckRules`): whether a condition
/// holds is the plan's business.
pub(super) fn resource_rules(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    rules: &[CheckRule],
    summary: &str,
    diags: &mut Diagnostics,
) {
    if walk.mode != Mode::Validate {
        return check_rules(walk, scope, rules, summary, diags);
    }
    for expr in rules
        .iter()
        .flat_map(|r| r.condition.iter().chain(r.error_message.iter()))
    {
        let (v, d) = eval_condition(scope, expr);
        diags.extend(d);
        deprecation::check_expr(walk, &v, expr);
    }
}

/// Preconditions, postconditions, output preconditions and check asserts,
/// as OpenTofu's `evalCheckRule`: the error message is evaluated first, in
/// the context of both expressions, whether or not the condition fails
/// (so a message that reads a sensitive value is warned about even when
/// its condition holds); any error there or in the condition makes the rule
/// an error, not a failure; an unknown condition waits for apply, with a
/// warning for check asserts.
pub(super) fn check_rules<'r>(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    rules: impl IntoIterator<Item = &'r CheckRule>,
    summary: &str,
    diags: &mut Diagnostics,
) {
    for rule in rules {
        let (ctx, mut d) = rule_context(scope, rule);
        let (Some(ctx), Some(cond)) = (ctx, rule.condition.as_ref()) else {
            diags.extend(d);
            continue;
        };
        let message = rule
            .error_message
            .as_ref()
            .map(|expr| check_error_message(walk, expr, &ctx, &mut d))
            .unwrap_or_default();
        let (result, more) = lang::eval_expr(cond, &ctx);
        d.extend(more);
        deprecation::check_expr(walk, &result, cond);
        let failed = has_errors(&d);
        diags.extend(d);
        if failed {
            continue;
        }
        if !result.is_known() {
            if summary == CHECK_ASSERT_FAILED {
                let diag = Diagnostic::warning(
                    "Check block assertion known after apply",
                    "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
                    cond.range.clone(),
                );
                walk.values.record(&diag, cond, scope, Cause::default());
                diags.push(diag);
            }
            continue;
        }
        let result = result.unmark();
        if result.is_null() {
            diags.push(Diagnostic::error(
                "Invalid condition result",
                "Condition expression must return either true or false, not null.",
                cond.range.clone(),
            ));
            continue;
        }
        match cty::convert::convert(&result, &Type::Bool) {
            Ok(v) if v.as_bool() == Some(false) => {}
            Ok(_) => continue,
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Invalid condition result",
                    format!("Invalid condition result value: {e}."),
                    cond.range.clone(),
                ));
                continue;
            }
        }
        let detail = if message.is_empty() {
            "This check failed, but has an invalid error message as described in the other accompanying messages.".to_string()
        } else {
            message
        };
        let diag = Diagnostic::error(summary, detail, cond.range.clone());
        walk.values.record(&diag, cond, scope, Cause::default());
        diags.push(diag);
    }
}

/// The summary of a failed check assert (a warning: checks never block).
const CHECK_ASSERT_FAILED: &str = "Check block assertion failed";

/// OpenTofu's `evalCheckErrorMessage`: the message, or "" with diagnostics
/// saying why there is none. Unknown is "" without a word (apply will
/// know); sensitive and ephemeral messages are warned about, not shown.
fn check_error_message(
    walk: &Walk<'_>,
    expr: &hclsyntax::Expr,
    ctx: &lang::EvalContext<'_>,
    diags: &mut Diagnostics,
) -> String {
    let (v, d) = lang::eval_expr(expr, ctx);
    let bad = has_errors(&d);
    diags.extend(d);
    if bad {
        return String::new();
    }
    let v = deprecation::consume_expr(walk, v, expr);
    let invalid =
        |detail: String| Diagnostic::error("Invalid error message", detail, expr.range.clone());
    let v = match cty::convert::convert(&v, &Type::String) {
        Ok(v) => v,
        Err(e) => {
            diags.push(invalid(format!("Unsuitable value for error message: {e}.")));
            return String::new();
        }
    };
    if !v.is_known() {
        return String::new();
    }
    if v.is_null() {
        diags.push(invalid(
            "Unsuitable value for error message: must not be null.".into(),
        ));
        return String::new();
    }
    if let Some(c) = Confidential::of(&v) {
        diags.push(Diagnostic::warning(
            format!("Error message refers to {} values", c.kind),
            format!("The error expression used to explain this condition refers to {} values, so OpenTofu will not display the resulting message.\n\nYou can correct this by {}.", c.kind, c.remedy),
            expr.range.clone(),
        ));
        return String::new();
    }
    v.unmark().as_str().unwrap_or_default().trim().to_string()
}

/// Why an error message may not be shown: the value is sensitive or
/// ephemeral. Both OpenTofu's check rules and its variable validations
/// name the kind and the remedy the same way (with different severities
/// and punctuation around them).
struct Confidential {
    kind: &'static str,
    article: &'static str,
    remedy: &'static str,
}

impl Confidential {
    fn of(v: &Value) -> Option<Confidential> {
        if v.has_mark(&Mark::Sensitive) {
            Some(Confidential {
                kind: "sensitive",
                article: "a",
                remedy: "removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data",
            })
        } else if v.has_mark(&Mark::Ephemeral) {
            Some(Confidential {
                kind: "ephemeral",
                article: "an",
                remedy: "removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function",
            })
        } else {
            None
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
        check_rules(walk, &scope, valid, CHECK_ASSERT_FAILED, &mut d);
        for mut diag in d {
            diag.severity = hclsyntax::Severity::Warning;
            out.diags.push(diag);
        }
    }
    out
}
