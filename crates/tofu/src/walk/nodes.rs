//! Evaluating each kind of node for every instance of its module.

use std::collections::BTreeMap;

use addrs::{AbsResource, InstanceKey, ModuleInstance, Referenceable};
use configs::config::Config;
use configs::named_values::Variable;
use cty::{Mark, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Range};
use lang::Scope;
use rayon::prelude::*;

use super::conditions::{
    check, check_rules, postconditions, resource_rules, validate_variable_rule,
};
use super::overlay::{Overlay, Supplied};
use super::schema_checks::{self, TypeSchema};
use super::state::{CallState, RepeatKind, ResourceState, State};
use super::{strip_marks, Cause, InstanceInfo, Mode, NodeResult, Produced, Walk};
use crate::deprecation;
use crate::expand::{
    evaluate_count, evaluate_for_each, CountValue, Expansion, ForEachValue, Repetition,
};
use crate::graph::{Node, NodeKind};
use crate::plans::{Action, ResourceInstanceChange};
use crate::resources::{plan_instance, value_for_references};

/// Above this many instances, a resource's instances are planned in
/// parallel.
const PARALLEL_INSTANCES: usize = 64;

pub fn eval_node(walk: &Walk<'_>, state: &State, node: &Node) -> NodeResult {
    let Some(cfg) = walk.root.descendant(&node.module.0) else {
        return NodeResult::default();
    };
    let instances = state.instances_of(&node.module);
    match &node.kind {
        NodeKind::Variable(name) => variable(walk, state, cfg, name, instances),
        NodeKind::Local(name) => local(walk, state, cfg, name, instances),
        NodeKind::Output(name) => output(walk, state, cfg, name, instances),
        NodeKind::ModuleCall(name) => module_call(walk, state, cfg, name, instances),
        NodeKind::Resource(addr) => resource(walk, state, cfg, addr, instances),
        NodeKind::Check(name) => check(walk, state, cfg, name, instances),
        NodeKind::Provider(key) => provider(walk, state, cfg, key, instances),
    }
}

fn parent_instance(inst: &ModuleInstance) -> ModuleInstance {
    let mut steps = inst.0.clone();
    steps.pop();
    ModuleInstance(steps)
}

fn variable(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    name: &str,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(decl) = cfg.module.variables.get(name) else {
        return out;
    };
    let ty = decl.ty.clone().unwrap_or(Type::Dynamic);
    for info in instances {
        let (value, arg_range) = if cfg.is_root() {
            let v = match walk.mode {
                Mode::Plan | Mode::Eval => walk
                    .root_values
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| Value::unknown(ty.clone())),
                Mode::Validate => Value::unknown(ty.clone()),
            };
            (v, None)
        } else {
            module_variable_value(walk, state, cfg, decl, info, &mut out.diags)
        };
        // Validation rules (unknown conditions wait for apply).
        if !decl.validations.is_empty() {
            let data = walk.data(state, cfg, info.addr.clone(), Repetition::default());
            let overlay = Overlay {
                inner: &data,
                supplied: Supplied::Variable {
                    name,
                    value: value.clone(),
                    sensitive: decl.sensitive,
                },
            };
            let scope = Scope::new(&overlay, walk.functions.clone());
            for rule in &decl.validations {
                validate_variable_rule(
                    walk,
                    &scope,
                    rule,
                    decl,
                    arg_range.as_ref(),
                    &mut out.diags,
                );
            }
        }
        out.produced.push((
            info.addr.clone(),
            Produced::Variable(name.to_string(), value),
        ));
    }
    out
}

/// The argument of the calling `module` block, evaluated in the caller's
/// instance, made final as OpenTofu's `prepareFinalInputVariableValue`.
fn module_variable_value(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    decl: &Variable,
    info: &InstanceInfo,
    diags: &mut Diagnostics,
) -> (Value, Option<Range>) {
    let ty = decl.ty.clone().unwrap_or(Type::Dynamic);
    let unknown = Value::unknown(ty.clone());
    let (Some(parent_path), Some(call)) = (cfg.path.parent(), cfg.path.0.last()) else {
        return (unknown, None);
    };
    let Some(parent_cfg) = walk.root.descendant(&parent_path.0) else {
        return (unknown, None);
    };
    let addr = format!("{}.var.{}", info.addr, decl.name);
    let arg = walk.call_args.argument(&parent_path, call, &decl.name);
    let (given, range) = match arg {
        Some(attr) => {
            // evalModuleVariable's validateOnly: the instance's repetition
            // data is not tracked in validate, so count.index and each.*
            // are all unknown there (even for a call that sets neither;
            // the plan refuses those).
            let repetition = match walk.mode {
                Mode::Validate => Repetition {
                    count_index: Some(Value::unknown(Type::Number)),
                    each_key: Some(Value::unknown(Type::String)),
                    each_value: Some(Value::dynamic()),
                },
                _ => info.repetition.clone(),
            };
            let data = walk.data(state, parent_cfg, parent_instance(&info.addr), repetition);
            let (v, d) = data.scope().eval_expr(&attr.expr, &Type::Dynamic);
            let failed = has_errors(&d);
            diags.extend(d);
            if failed {
                return (unknown, Some(attr.expr.range.clone()));
            }
            let v = deprecation::consume_expr(walk, v, &attr.expr);
            deprecation::check_module_variable(walk, cfg, &info.addr, decl, &v, attr);
            (Some(v), Some(attr.expr.range.clone()))
        }
        None => (None, None),
    };
    let default = decl.default_value.clone();
    let given = match given {
        Some(v) => v,
        None => match &default {
            Some(d) => d.clone(),
            // "Missing required argument" was reported on the call.
            None => return (unknown, None),
        },
    };
    let given = match &decl.type_defaults {
        Some(td) if !given.is_null() => td.to_defaults().apply(&given),
        _ => given,
    };
    let constraint = decl.constraint_type.clone().unwrap_or(ty.clone());
    let val = match cty::convert::convert(&given, &constraint) {
        Ok(v) => v,
        Err(e) => {
            let subject = range.clone().unwrap_or_else(|| decl.decl_range.clone());
            let detail = if decl.sensitive {
                format!(
                    "The given value is not suitable for {addr}, which is sensitive: {e}. Invalid value defined at {subject}."
                )
            } else {
                format!(
                    "The given value is not suitable for {addr} declared at {}: {e}.",
                    decl.decl_range
                )
            };
            let subject = if decl.sensitive {
                decl.decl_range.clone()
            } else {
                subject
            };
            diags.push(Diagnostic::error(
                "Invalid value for input variable",
                detail,
                subject,
            ));
            return (unknown, range);
        }
    };
    if val.is_null() && !decl.nullable {
        if let Some(d) = default {
            return (d, range);
        }
        diags.push(Diagnostic::error(
            "Required variable not set",
            format!(
                "The given value is not suitable for {addr} defined at {}: required variable may not be set to null.",
                decl.decl_range
            ),
            range.clone().unwrap_or_else(|| decl.decl_range.clone()),
        ));
        return (unknown, range);
    }
    (val, range)
}

fn local(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    name: &str,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(l) = cfg.module.locals.get(name) else {
        return out;
    };
    for info in instances {
        let data = walk.data(state, cfg, info.addr.clone(), Repetition::default());
        let (v, d) = data.scope().eval_expr(&l.expr, &Type::Dynamic);
        out.diags.extend(d);
        let v = deprecation::consume_expr(walk, v, &l.expr);
        out.produced
            .push((info.addr.clone(), Produced::Local(name.to_string(), v)));
    }
    out
}

fn output(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    name: &str,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(o) = cfg.module.outputs.get(name) else {
        return out;
    };
    for info in instances {
        let data = walk.data(state, cfg, info.addr.clone(), Repetition::default());
        let scope = data.scope();
        check_rules(
            walk,
            &scope,
            &o.preconditions,
            "Module output value precondition failed",
            &mut out.diags,
        );
        let Some(expr) = &o.expr else { continue };
        let (v, d) = scope.eval_expr(expr, &Type::Dynamic);
        let failed = has_errors(&d);
        out.diags.extend(d);
        if failed {
            continue;
        }
        let mut v = deprecation::consume_expr(walk, v, expr);
        if cfg.is_root() && !o.sensitive {
            let (_, marks) = v.unmark_deep();
            if marks.contains(&Mark::Sensitive) {
                out.diags.push(Diagnostic::error(
                    "Output refers to sensitive values",
                    "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, OpenTofu requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
                    o.decl_range.clone(),
                ));
                continue;
            }
        }
        if o.sensitive {
            v = v.mark(Mark::Sensitive);
        }
        out.produced
            .push((info.addr.clone(), Produced::Output(name.to_string(), v)));
    }
    out
}

/// Expands a block's `count`/`for_each` in `scope`. Validate never expands:
/// it checks the argument (unknowns allowed) and gives `Unknown`.
/// The reference values shown under a `count`/`for_each` error; the
/// unknown and sensitive ones only where those are what the error is about.
fn record_expansion_values(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    expr: &hclsyntax::Expr,
    diags: &Diagnostics,
) {
    for d in diags
        .iter()
        .filter(|d| d.severity == hclsyntax::Severity::Error)
    {
        // OpenTofu's unknown-count error carries no expression (a TODO in
        // evaluateCountExpression), so it shows no values.
        if d.detail.contains("cannot predict how many instances") {
            continue;
        }
        let cause = Cause {
            unknown: d.detail.contains("cannot be determined until apply"),
            sensitive: d.detail.starts_with("Sensitive values"),
        };
        walk.values.record(d, expr, scope, cause);
    }
}

fn expansion(
    walk: &Walk<'_>,
    scope: &Scope<'_>,
    count: &Option<hclsyntax::Expr>,
    for_each: &Option<hclsyntax::Expr>,
    excludable: Option<&str>,
    diags: &mut Diagnostics,
) -> Option<Expansion> {
    let validate = walk.mode == Mode::Validate;
    // Eval (the console) takes what it can: an expansion it cannot know
    // leaves the object unknown instead of failing.
    let allow_unknown = walk.mode != Mode::Plan;
    if let Some(expr) = count {
        deprecation::check_expansion(walk, scope, expr);
        let (c, d) = evaluate_count(expr, scope, allow_unknown, excludable);
        record_expansion_values(walk, scope, expr, &d);
        diags.extend(d);
        return match c {
            CountValue::Invalid => None,
            _ if validate => Some(Expansion::Unknown {
                count: true,
                for_each: false,
            }),
            CountValue::Known(n) => Some(Expansion::Count(n)),
            CountValue::Unknown => Some(Expansion::Unknown {
                count: true,
                for_each: false,
            }),
        };
    }
    if let Some(expr) = for_each {
        deprecation::check_expansion(walk, scope, expr);
        let (f, d) = evaluate_for_each(expr, scope, allow_unknown, excludable);
        record_expansion_values(walk, scope, expr, &d);
        diags.extend(d);
        return match f {
            ForEachValue::Invalid => None,
            _ if validate => Some(Expansion::Unknown {
                count: false,
                for_each: true,
            }),
            ForEachValue::Known(m) => Some(Expansion::ForEach(m)),
            ForEachValue::Unknown => Some(Expansion::Unknown {
                count: false,
                for_each: true,
            }),
        };
    }
    Some(Expansion::Single)
}

fn kind_of(e: &Expansion) -> RepeatKind {
    match e {
        Expansion::Single => RepeatKind::Single,
        Expansion::Count(_) | Expansion::Unknown { count: true, .. } => RepeatKind::Count,
        _ => RepeatKind::ForEach,
    }
}

fn module_call(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    name: &str,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(call) = cfg.module.module_calls.get(name) else {
        return out;
    };
    let Some(child) = cfg.children.get(name) else {
        return out;
    };
    check_call_arguments(
        walk.call_args.of(&cfg.path, name),
        call,
        child,
        &mut out.independent_diags,
    );
    let child_path = cfg.path.child(name);
    for info in instances {
        let data = walk.data(state, cfg, info.addr.clone(), Repetition::default());
        let scope = data.scope();
        let Some(exp) = expansion(
            walk,
            &scope,
            &call.count,
            &call.for_each,
            None,
            &mut out.diags,
        ) else {
            out.failed = true;
            continue;
        };
        let kind = kind_of(&exp);
        let children: Vec<(InstanceKey, Repetition)> = match &exp {
            // Validate checks the child once, with unknown keys.
            Expansion::Unknown { .. } if walk.mode == Mode::Validate => {
                vec![(InstanceKey::None, exp.unknown_repetition())]
            }
            // The console cannot know the instances: the call stays unknown.
            Expansion::Unknown { .. } => continue,
            _ => exp.instances(),
        };
        let keys = children.iter().map(|(k, _)| k.clone()).collect();
        for (key, repetition) in children {
            out.new_instances.push((
                child_path.clone(),
                InstanceInfo {
                    addr: info.addr.child(name, key),
                    repetition,
                },
            ));
        }
        out.produced.push((
            info.addr.clone(),
            Produced::Call(name.to_string(), CallState { kind, keys }),
        ));
    }
    out
}

/// The call's arguments against the child's variables: every argument
/// must be a declared variable, every required variable must be given.
fn check_call_arguments(
    attrs: &[std::sync::Arc<hclsyntax::Attribute>],
    call: &configs::module_call::ModuleCall,
    child: &Config,
    diags: &mut Diagnostics,
) {
    let vars = &child.module.variables;
    for a in attrs {
        if !vars.contains_key(&a.name) {
            let sugg =
                match hclsyntax::body::name_suggestion(&a.name, vars.keys().map(String::as_str)) {
                    Some(s) => format!(" Did you mean {}?", cty::format::go_quote(s)),
                    None => String::new(),
                };
            diags.push(Diagnostic::error(
                "Unsupported argument",
                format!(
                    "An argument named {} is not expected here.{sugg}",
                    cty::format::go_quote(&a.name)
                ),
                a.name_range.clone(),
            ));
        }
    }
    for (vname, v) in vars {
        if v.required() && !attrs.iter().any(|a| &a.name == vname) {
            let at = call
                .config
                .missing_item_range()
                .unwrap_or_else(|| call.decl_range.clone());
            diags.push(Diagnostic::error(
                "Missing required argument",
                format!(
                    "The argument {} is required, but no definition was found.",
                    cty::format::go_quote(vname)
                ),
                at,
            ));
        }
    }
}

fn resource(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    addr: &addrs::Resource,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(rc) = cfg.module.resource(addr) else {
        return out;
    };
    let (provider, provider_alias) = schema_checks::resource_provider(cfg, rc);
    let schema = match schema_checks::resource_schema(walk, &provider, rc, &mut out.diags) {
        TypeSchema::Invalid => return out,
        TypeSchema::Known(s) => Some(s),
        TypeSchema::Unknown => None,
    };
    let plan = |scope: &Scope<'_>| {
        let (planned, mut diags) = plan_instance(rc, scope, schema.as_ref());
        if walk.mode == Mode::Validate && !has_errors(&diags) {
            if let Some(config) = &planned.config {
                let address = addrs::ConfigResource {
                    module: cfg.path.clone(),
                    resource: rc.addr(),
                };
                diags.extend(schema_checks::validate_resource_config(
                    walk,
                    &provider,
                    rc,
                    config,
                    &address.to_string(),
                ));
            }
        }
        (planned, diags)
    };
    for info in instances {
        let abs = AbsResource {
            module: info.addr.clone(),
            resource: addr.clone(),
        };
        let excludable = abs.to_string();
        let data = walk.data(state, cfg, info.addr.clone(), Repetition::default());
        let mut scope = data.scope();
        scope.source_addr = Some(Referenceable::Resource(addr.clone()));
        let Some(exp) = expansion(
            walk,
            &scope,
            &rc.count,
            &rc.for_each,
            Some(&excludable),
            &mut out.diags,
        ) else {
            out.failed = true;
            continue;
        };
        if let Expansion::Unknown { .. } = exp {
            // Validate: the body once, with unknown repetition data.
            let data = walk.data(state, cfg, info.addr.clone(), exp.unknown_repetition());
            let mut scope = data.scope();
            scope.source_addr = Some(Referenceable::Resource(addr.clone()));
            let (p, d) = plan(&scope);
            out.diags.extend(d);
            resource_rules(
                walk,
                &scope,
                &rc.preconditions,
                "Resource precondition failed",
                &mut out.diags,
            );
            // OpenTofu's validate checks the conditions with `self` wholly
            // unknown: only their types and references.
            postconditions(walk, &data, rc, addr, Value::dynamic(), &mut out.diags);
            deprecation::consume_body(walk, p.after, &rc.config, || abs.to_string());
            continue;
        }
        let list = exp.instances();
        let plan_one = |(key, rep): &(InstanceKey, Repetition)| {
            let data = walk.data(state, cfg, info.addr.clone(), rep.clone());
            let mut scope = data.scope();
            scope.source_addr = Some(Referenceable::Resource(addr.clone()));
            let mut diags = Diagnostics::new();
            resource_rules(
                walk,
                &scope,
                &rc.preconditions,
                "Resource precondition failed",
                &mut diags,
            );
            let (mut planned, d) = plan(&scope);
            diags.extend(d);
            if !has_errors(&diags) {
                let value = value_for_references(&addr.type_name, &planned);
                postconditions(walk, &data, rc, addr, value, &mut diags);
            }
            planned.after = deprecation::consume_body(walk, planned.after, &rc.config, || {
                abs.instance(key.clone()).to_string()
            });
            (key.clone(), planned, diags)
        };
        let planned: Vec<_> = if walk.mode == Mode::Plan && list.len() > PARALLEL_INSTANCES {
            list.par_iter().map(plan_one).collect()
        } else {
            list.iter().map(plan_one).collect()
        };
        let mut values = BTreeMap::new();
        for (key, p, d) in planned {
            out.diags.extend(d);
            values.insert(key.clone(), value_for_references(&addr.type_name, &p));
            if walk.mode == Mode::Plan && addr.mode == addrs::ResourceMode::Managed {
                out.changes.push(ResourceInstanceChange {
                    addr: abs.instance(key),
                    provider: provider.clone(),
                    provider_alias: provider_alias.clone(),
                    action: Action::Create,
                    before: Value::null(p.schema_type.clone()),
                    schema_type: p.schema_type,
                    schema: p.schema.clone(),
                    after: strip_marks(&p.after),
                });
            }
        }
        out.produced.push((
            info.addr.clone(),
            Produced::Resource(
                addr.clone(),
                ResourceState {
                    kind: kind_of(&exp),
                    instances: values,
                },
            ),
        ));
    }
    if let (Some(schema), Mode::Validate) = (&schema, walk.mode) {
        // As validateResource: both once the body decoded without errors,
        // each whatever the other found.
        if !has_errors(&out.diags) {
            schema_checks::check_ignore_changes(rc, schema, &mut out.diags);
            schema_checks::check_replace_triggered_by(walk, cfg, rc, &mut out.diags);
        }
    }
    out
}

/// A provider configuration: without the plugin there is nothing to
/// configure, but its arguments are evaluated (once per `for_each`
/// instance) so that their references and types are checked.
fn provider(
    walk: &Walk<'_>,
    state: &State,
    cfg: &Config,
    key: &addrs::LocalProviderConfig,
    instances: &[InstanceInfo],
) -> NodeResult {
    let mut out = NodeResult::default();
    let Some(p) = cfg.module.provider_configs.get(key) else {
        return out;
    };
    // Each instance with its key (`InstanceKey::None` when there are no
    // instances, or when they are not statically known).
    let repetitions: Vec<(addrs::InstanceKey, Repetition)> = match (&p.for_each, &p.instances) {
        (None, _) => vec![(addrs::InstanceKey::None, Repetition::default())],
        (Some(_), Some(map)) => Expansion::ForEach(map.clone()).instances(),
        // Not statically known (its diagnostics came from loading): once,
        // with unknown keys.
        (Some(_), None) => vec![(
            addrs::InstanceKey::None,
            Expansion::Unknown {
                count: false,
                for_each: true,
            }
            .unknown_repetition(),
        )],
    };
    let provider_addr =
        configs::config_provider_requirements::provider_for_local_name(&cfg.module, &p.name);
    let schema = walk
        .schemas
        .provider(&provider_addr)
        .map(|ps| ps.provider.block.clone().unwrap_or_default());
    // ValidateProvider: a block with nothing in it (an alias alone) is not
    // checked against the schema.
    let empty = p
        .config
        .content(&hclsyntax::BodySchema::new(&[], &[]))
        .1
        .is_empty();
    for info in instances {
        for (instance_key, rep) in &repetitions {
            let data = walk.data(state, cfg, info.addr.clone(), rep.clone());
            let scope = data.scope();
            match &schema {
                Some(block) if !empty => {
                    let (config, d) =
                        crate::resources::schema_body::decode(&p.config, block, &scope, true);
                    let failed = has_errors(&d);
                    out.diags.extend(d);
                    if !failed && walk.mode == Mode::Validate {
                        out.diags.extend(schema_checks::validate_provider_config(
                            walk,
                            &provider_addr,
                            &p.config,
                            &config,
                            // `InstanceString(providerKey)`.
                            &format!(
                                "{}{instance_key}",
                                addrs::AbsProviderConfig {
                                    module: cfg.path.clone(),
                                    provider: provider_addr.clone(),
                                    alias: p.alias.clone().unwrap_or_default(),
                                }
                            ),
                        ));
                    }
                }
                _ => {
                    let (_, d) = crate::resources::evaluate_body(&p.config, &scope);
                    out.diags.extend(d);
                }
            }
        }
    }
    out
}
