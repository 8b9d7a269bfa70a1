//! What a resource or provider block is checked for once its provider's
//! schema is known (OpenTofu's `NodeValidatableResource.validateResource`
//! and `NodeApplyableProvider.ValidateProvider`,
//! `internal/tofu/node_resource_validate.go`, `node_provider.go`): the
//! type exists, `ignore_changes` names attributes of it, and the provider's
//! own `Validate*` call, whose diagnostics are placed in the block's body.

use std::sync::Arc;

use addrs::{Provider, ResourceMode};
use configs::merged_body::ConfigBody;
use configschema::{ProviderSchema, Schema};
use cty::{Path, Value};
use hclsyntax::ast::{ExprKind, Literal, StepKind, Traversal, TraversalStep};
use hclsyntax::{has_errors, Diagnostic, Diagnostics};

use super::Walk;
use crate::resources::schema_body::in_config_body;
use crate::resources::validate_traversal::static_validate_traversal;

/// The provider that owns the resource (configs' resolution through
/// `required_providers`) and the configuration alias it names.
pub fn resource_provider(
    cfg: &configs::config::Config,
    rc: &configs::resource::Resource,
) -> (Provider, Option<String>) {
    let alias = rc
        .provider_config_ref
        .as_ref()
        .filter(|r| !r.alias.is_empty())
        .map(|r| r.alias.clone());
    let provider = configs::config_provider_requirements::resource_provider(&cfg.module, rc)
        .unwrap_or_else(|| Provider::implied_for_unqualified_type(rc.implied_provider()));
    (provider, alias)
}

/// The schema of `rc`'s type, when its provider's schema is known and has
/// it.
pub fn known_schema<'w>(
    walk: &'w Walk<'_>,
    cfg: &configs::config::Config,
    rc: &configs::resource::Resource,
) -> Option<&'w Schema> {
    let provider = resource_provider(cfg, rc).0;
    walk.schemas
        .resource_type(&provider, rc.mode, &rc.type_name)
        .flatten()
}

/// A resource type's schema as the walk knows it.
pub enum TypeSchema {
    /// The provider's schema is not known: plan from configuration alone.
    Unknown,
    /// The provider has the type.
    Known(Arc<Schema>),
    /// The provider is known and lacks the type (already reported).
    Invalid,
}

fn block_name(mode: ResourceMode) -> &'static str {
    match mode {
        ResourceMode::Managed => "resource",
        ResourceMode::Data => "data",
        ResourceMode::Ephemeral => "ephemeral",
    }
}

/// The schema of `rc`'s type; "Invalid resource type" (or data source,
/// or ephemeral resource) into `diags` when its provider lacks it.
pub fn resource_schema(
    walk: &Walk<'_>,
    provider: &Provider,
    rc: &configs::resource::Resource,
    diags: &mut Diagnostics,
) -> TypeSchema {
    let mode = rc.mode;
    match walk
        .schemas
        .resource_type_shared(provider, mode, &rc.type_name)
    {
        None => TypeSchema::Unknown,
        Some(Some(schema)) => TypeSchema::Known(schema),
        Some(None) => {
            let Some(ps) = walk.schemas.provider(provider) else {
                return TypeSchema::Unknown;
            };
            let (summary, what) = match mode {
                ResourceMode::Managed => ("Invalid resource type", "resource type"),
                ResourceMode::Data => ("Invalid data source", "data source"),
                ResourceMode::Ephemeral => ("Invalid ephemeral resource", "ephemeral resource"),
            };
            diags.push(Diagnostic::error(
                summary,
                format!(
                    "The provider {} does not support {what} {}.{}",
                    provider.for_display(),
                    addrs::go_quote(&rc.type_name),
                    no_schema_suggestion(ps, mode, &rc.type_name)
                ),
                rc.type_range.clone(),
            ));
            TypeSchema::Invalid
        }
    }
}

/// `noResourceSchemaSuggestion`: the same type in another mode, else the
/// closest managed resource type name (OpenTofu looks among managed
/// resource types whatever the block's mode).
fn no_schema_suggestion(ps: &ProviderSchema, mode: ResourceMode, type_name: &str) -> String {
    use ResourceMode::{Data, Ephemeral, Managed};
    let others = match mode {
        Managed => [Data, Ephemeral],
        Data => [Managed, Ephemeral],
        Ephemeral => [Managed, Data],
    };
    let types = |m: ResourceMode| match m {
        Managed => &ps.resources,
        Data => &ps.data_sources,
        Ephemeral => &ps.ephemeral_resources,
    };
    if let Some(other) = others
        .into_iter()
        .find(|m| types(*m).contains_key(type_name))
    {
        return format!(
            "\n\nDid you intend to use a block of type {} {}? If so, declare this using a block of type {} instead of one of type {}.",
            addrs::go_quote(block_name(other)),
            addrs::go_quote(type_name),
            addrs::go_quote(block_name(other)),
            addrs::go_quote(block_name(mode)),
        );
    }
    match hclsyntax::body::name_suggestion(type_name, ps.resources.keys().map(String::as_str)) {
        Some(s) => format!(" Did you mean {}?", addrs::go_quote(s)),
        None => String::new(),
    }
}

/// `ignore_changes` against the schema: each path must exist, and one
/// naming a computed-only attribute is redundant (a warning). `diags`
/// holds what was reported for the resource so far: as in OpenTofu, the
/// redundancy check stops once anything is an error.
pub fn check_ignore_changes(
    rc: &configs::resource::Resource,
    schema: &Schema,
    diags: &mut Diagnostics,
) {
    let Some(managed) = &rc.managed else { return };
    let empty = configschema::Block::default();
    let block = schema.block.as_ref().unwrap_or(&empty);
    for traversal in &managed.ignore_changes {
        let mut steps = vec![TraversalStep {
            kind: StepKind::Attr(traversal.root.clone()),
            range: traversal.root_range.clone(),
        }];
        steps.extend(traversal.steps.iter().cloned());
        diags.extend(static_validate_traversal(block, &steps));
        if has_errors(diags) {
            continue;
        }
        let path = traversal_path(&steps);
        let Some(attr) = block.attribute_by_path(&path) else {
            continue;
        };
        if !attr.optional && attr.computed {
            let display = path.to_string();
            let display = display.strip_prefix('.').unwrap_or(&display);
            diags.push(Diagnostic::warning(
                "Redundant ignore_changes element",
                format!("Adding an attribute name to ignore_changes tells OpenTofu to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute {display} is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning."),
                rc.type_range.clone(),
            ));
        }
    }
}

/// `traversalToPath`.
fn traversal_path(steps: &[TraversalStep]) -> Path {
    let mut path = Path::root();
    for step in steps {
        path = match &step.kind {
            StepKind::Attr(name) => path.get_attr(name),
            StepKind::Index(lit) => match lang::eval::literal_value(lit) {
                Ok(v) => path.index(v),
                Err(_) => return path,
            },
        };
    }
    path
}

/// The provider's `ValidateResourceConfig` (by mode), when the walk has a
/// validator: the config unmarked, the diagnostics placed in `body` and
/// recorded as about `address` (the resource in its module, as
/// `validateResource` names it).
pub fn validate_resource_config(
    walk: &Walk<'_>,
    provider: &Provider,
    rc: &configs::resource::Resource,
    config: &Value,
    address: &str,
) -> Diagnostics {
    let Some(validator) = walk.schemas.validator() else {
        return Diagnostics::new();
    };
    let (plain, _) = config.unmark_deep();
    let answer = validator.validate_resource_config(provider, rc.mode, &rc.type_name, &plain);
    placed(walk, &answer, &rc.config, address)
}

/// The provider's `ValidateProviderConfig`, likewise (`address`: the
/// provider configuration, `provider["…"]`).
pub fn validate_provider_config(
    walk: &Walk<'_>,
    provider: &Provider,
    body: &ConfigBody,
    config: &Value,
    address: &str,
) -> Diagnostics {
    let Some(validator) = walk.schemas.validator() else {
        return Diagnostics::new();
    };
    let (plain, _) = config.unmark_deep();
    let answer = validator.validate_provider_config(provider, &plain);
    placed(walk, &answer, body, address)
}

/// `InConfigBody(body, address)`.
fn placed(
    walk: &Walk<'_>,
    answer: &[crate::schemas::ProviderDiagnostic],
    body: &ConfigBody,
    address: &str,
) -> Diagnostics {
    answer
        .iter()
        .map(|d| {
            let placed = in_config_body(d, body);
            walk.addresses.record(&placed, address);
            placed
        })
        .collect()
}

/// `replace_triggered_by` against the schemas of the resources it names
/// (the loop of `validateResource` over `TriggersReplacement`, with
/// `evalReplaceTriggeredByExpr`): each element must be a reference to a
/// resource of this module, and what follows the resource must exist in
/// its schema (reported only when it is an error, as OpenTofu does).
pub fn check_replace_triggered_by(
    walk: &Walk<'_>,
    cfg: &configs::config::Config,
    rc: &configs::resource::Resource,
    diags: &mut Diagnostics,
) {
    if rc.managed.is_none() {
        return;
    }
    // The index keys validation substitutes: any value does.
    let count_index = rc.count.is_some().then(|| Literal::Number("0".into()));
    let each_key =
        (rc.count.is_none() && rc.for_each.is_some()).then(|| Literal::String(String::new()));
    for expr in &rc.triggers_replacement {
        let mut d = Diagnostics::new();
        let traversal = trigger_traversal(expr, &count_index, &each_key, &mut d);
        let failed = has_errors(&d);
        diags.extend(d);
        let Some(traversal) = traversal.filter(|_| !failed) else {
            continue;
        };
        let reference = match addrs::parse_ref(&traversal) {
            Ok(r) => r,
            Err(d) => {
                diags.extend(d);
                continue;
            }
        };
        let target = match &reference.subject {
            addrs::Referenceable::Resource(r) => r.clone(),
            addrs::Referenceable::ResourceInstance(ri) => ri.resource.clone(),
            _ => continue,
        };
        let Some(declared) = cfg.module.resource(&target) else {
            let this = addrs::ConfigResource {
                module: cfg.path.clone(),
                resource: rc.addr(),
            };
            diags.push(Diagnostic::error(
                "Undeclared resource in replace_triggered_by",
                format!("Resource {this} refers to {target} in replace_triggered_by, but it is not declared in this module."),
                expr.range.clone(),
            ));
            continue;
        };
        if reference.remaining.is_empty() {
            continue;
        }
        let Some(schema) = known_schema(walk, cfg, declared) else {
            continue;
        };
        let empty = configschema::Block::default();
        let block = schema.block.as_ref().unwrap_or(&empty);
        let found = static_validate_traversal(block, &reference.remaining);
        if has_errors(&found) {
            diags.extend(found);
        }
    }
}

/// `triggersExprToTraversal`: the reference a trigger spells, its
/// `[count.index]` / `[each.key]` replaced by the given keys.
fn trigger_traversal(
    expr: &hclsyntax::Expr,
    count_index: &Option<Literal>,
    each_key: &Option<Literal>,
    diags: &mut Diagnostics,
) -> Option<Traversal> {
    match &expr.kind {
        ExprKind::ScopeTraversal(t) => Some(t.clone()),
        ExprKind::RelativeTraversal { source, steps } => {
            let mut t = trigger_traversal(source, count_index, each_key, diags)?;
            t.steps.extend(steps.iter().cloned());
            Some(t)
        }
        ExprKind::Index {
            collection, key, ..
        } => {
            let mut t = trigger_traversal(collection, count_index, each_key, diags)?;
            let literal = index_key(key, count_index, each_key, diags)?;
            t.steps.push(TraversalStep {
                kind: StepKind::Index(literal),
                range: key.range.clone(),
            });
            Some(t)
        }
        _ => {
            diags.push(Diagnostic::error(
                "Invalid replace_triggered_by expression",
                "Unexpected expression found in replace_triggered_by.",
                expr.range.clone(),
            ));
            None
        }
    }
}

/// `parseIndexKeyExpr`: only `count.index` and `each.key`.
fn index_key(
    key: &hclsyntax::Expr,
    count_index: &Option<Literal>,
    each_key: &Option<Literal>,
    diags: &mut Diagnostics,
) -> Option<Literal> {
    let t = match hclsyntax::static_expr::abs_traversal(key) {
        Ok(t) => t,
        Err(d) => {
            diags.extend(d);
            return None;
        }
    };
    let mut parts = vec![t.root.clone()];
    for step in &t.steps {
        match &step.kind {
            StepKind::Attr(name) => parts.push(name.clone()),
            StepKind::Index(_) => parts.push(String::from("\u{0}")),
        }
    }
    let invalid = || {
        Diagnostic::error(
            "Invalid index expression",
            "Only constant values, count.index or each.key are allowed in index expressions.",
            key.range.clone(),
        )
    };
    match parts.join(".").as_str() {
        "count.index" => match count_index {
            Some(l) => Some(l.clone()),
            None => {
                diags.push(Diagnostic::error(
                    "Reference to \"count\" in non-counted context",
                    "The \"count\" object can only be used in \"resource\" blocks when the \"count\" argument is set.",
                    key.range.clone(),
                ));
                None
            }
        },
        "each.key" => match each_key {
            Some(l) => Some(l.clone()),
            None => {
                diags.push(Diagnostic::error(
                    "Reference to \"each\" in context without for_each",
                    "The \"each\" object can be used only in \"resource\" blocks when the \"for_each\" argument is set.",
                    key.range.clone(),
                ));
                None
            }
        },
        _ => {
            diags.push(invalid());
            None
        }
    }
}
