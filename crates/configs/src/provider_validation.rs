//! The checks OpenTofu runs on provider configurations once the whole
//! module tree is built (`validateProviderConfigs` and
//! `providerIterationIdentical` of `provider_validation.go`, with the
//! provider type resolution of `Config.resolveProviderTypes`): providers
//! passed to child modules must be declared and of the right type,
//! `configuration_aliases` must be satisfied, legacy modules with their
//! own provider blocks cannot be called with `count`/`for_each`, keyed
//! provider references must name a `for_each` provider, and so on.
//!
//! Go walks maps in random order; here every map is walked in key order,
//! so the diagnostics come out in one stable order.

use std::collections::BTreeMap;

use addrs::Provider;
use hclsyntax::{BodySchema, Diagnostic, Diagnostics, Expr, ExprKind, Literal, Range, StepKind};

use crate::config::Config;
use crate::config_provider_requirements::required_provider_type;
use crate::module::Module;
use crate::module_call::PassedProviderConfig;
use crate::provider_ref::ProviderConfigRef;
use crate::required_providers::RequiredProvider;
use crate::resource::{Resource, ResourceMode};

/// A provider reference with the provider type resolved for it (Go keeps
/// it in the reference's private `providerType` field); `None` is Go's
/// zero type, read as the default provider of the reference's name.
#[derive(Debug, Clone)]
pub(crate) struct TypedRef {
    pub r: ProviderConfigRef,
    pub ty: Option<Provider>,
}

impl TypedRef {
    /// The resolved type, or the default provider of the local name.
    pub fn type_or_default(&self) -> Provider {
        self.ty
            .clone()
            .unwrap_or_else(|| Provider::default_for(&self.r.name))
    }
}

/// One entry of a call's `providers` map, typed.
#[derive(Debug, Clone)]
pub(crate) struct TypedPassed {
    pub in_child: TypedRef,
    pub in_parent: TypedRef,
}

/// The module call a module was loaded for, as the checks need it. Test
/// runs make one up from their `providers` (or their test file's
/// provider blocks).
pub(crate) struct ParentCall<'a> {
    pub name: &'a str,
    pub decl_range: &'a Range,
    pub providers: Vec<TypedPassed>,
}

/// `providerName`: `name` or `name.alias`, the text of the address every
/// provider map here is keyed by (as OpenTofu's Go keys them), built by
/// the one function that prints a local provider address.
fn provider_name(name: &str, alias: &str) -> String {
    addrs::LocalProviderConfig::new(name, alias).string_compact()
}

/// The provider types a module knows by local name
/// (`resolveProviderTypes`): its `required_providers`, then the default
/// provider of each `provider` block's name not required there.
pub(crate) fn provider_types(module: &Module) -> BTreeMap<String, Provider> {
    let mut types: BTreeMap<String, Provider> = module
        .provider_requirements
        .iter()
        .flat_map(|r| r.required_providers.values())
        .map(|rp| (rp.name.clone(), required_provider_type(rp)))
        .collect();
    for pc in module.provider_configs.values() {
        types
            .entry(pc.name.clone())
            .or_insert_with(|| Provider::default_for(&pc.name));
    }
    types
}

/// The `providers` of a `module` block, typed from the calling module's
/// and the called module's provider types (when the types were resolved).
pub(crate) fn typed_passed(
    passed: &[PassedProviderConfig],
    parent_types: Option<&BTreeMap<String, Provider>>,
    child_types: Option<&BTreeMap<String, Provider>>,
) -> Vec<TypedPassed> {
    passed
        .iter()
        .map(|p| TypedPassed {
            in_child: TypedRef {
                r: p.in_child.clone(),
                ty: child_types.and_then(|t| t.get(&p.in_child.name).cloned()),
            },
            in_parent: TypedRef {
                r: p.in_parent.clone(),
                ty: parent_types.and_then(|t| t.get(&p.in_parent.name).cloned()),
            },
        })
        .collect()
}

/// `validateProviderConfigs` over the whole tree below `cfg` (the root).
/// `resolved` says whether provider types were resolved: OpenTofu skips
/// the resolution when building the tree gave errors.
pub fn validate_provider_configs(cfg: &Config, resolved: bool) -> Diagnostics {
    let mut diags = Diagnostics::new();
    validate_module(None, cfg, None, None, resolved, &mut diags);
    diags
}

/// One module and, first, everything below it.
pub(crate) fn validate_module(
    parent_call: Option<&ParentCall<'_>>,
    cfg: &Config,
    parent: Option<&Config>,
    no_provider_config_range: Option<&Range>,
    resolved: bool,
    diags: &mut Diagnostics,
) {
    validate_children(cfg, no_provider_config_range, resolved, diags);

    let module = &cfg.module;
    let blocks = ProviderBlocks::of(module);
    let reqs = LocalRequirements::of(module, diags);
    // Resources using a provider by their type's implied local name.
    for r in module.all_resources() {
        check_implied_provider_name(r, &reqs.local_names, diags);
    }
    let here = ModuleFacts {
        cfg,
        parent,
        blocks,
        reqs,
        passed_in: passed_in(parent_call),
        is_root: cfg.path.is_root(),
        module_text: if cfg.path.is_root() {
            "the root module".to_string()
        } else {
            cfg.path.to_string()
        },
        parent_module_text: match cfg.path.parent() {
            Some(p) if !p.is_root() => p.to_string(),
            _ => "the root module".to_string(),
        },
    };

    check_module_call_instance_refs(&here, diags);
    check_resource_instance_refs(&here, diags);
    check_providers_passed_down(&here, parent_call, diags);

    if here.is_root {
        return;
    }
    let Some(call) = parent_call else {
        return;
    };
    check_legacy_module_call(&here, no_provider_config_range, diags);
    check_no_overridden_configs(&here, diags);
    check_config_aliases_passed(&here, call, diags);
    for (name, passed) in &here.passed_in {
        check_passed_in(&here, name, passed, diags);
    }
    redundant_empty_provider_warnings(
        &here.blocks.empty,
        &here.reqs.local_names,
        &here.module_text,
        diags,
    );
}

/// The first phase of [`validate_module`]: every called module, each told
/// what its call passes and whether the call forbids provider
/// configurations.
fn validate_children(
    cfg: &Config,
    no_provider_config_range: Option<&Range>,
    resolved: bool,
    diags: &mut Diagnostics,
) {
    let module = &cfg.module;
    let own_types = resolved.then(|| provider_types(module));
    for (name, child) in &cfg.children {
        let Some(mc) = module.module_calls.get(name) else {
            continue;
        };
        // count, for_each, enabled and depends_on on a call forbid provider
        // configurations in the called module and everything below it.
        let first_dep = mc.depends_on.first().map(|t| t.range());
        let child_range = mc
            .count
            .as_ref()
            .map(|e| e.range.clone())
            .or_else(|| mc.for_each.as_ref().map(|e| e.range.clone()))
            .or_else(|| mc.enabled.as_ref().map(|e| e.range.clone()))
            .or(first_dep)
            .or_else(|| no_provider_config_range.cloned());
        let child_types = resolved.then(|| provider_types(&child.module));
        let call = ParentCall {
            name: &mc.name,
            decl_range: &mc.decl_range,
            providers: typed_passed(&mc.providers, own_types.as_ref(), child_types.as_ref()),
        };
        validate_module(
            Some(&call),
            child,
            Some(cfg),
            child_range.as_ref(),
            resolved,
            diags,
        );
    }
}

/// A module's provider blocks by `name[.alias]`. Blocks with arguments
/// (or a version) configure a provider; empty ones may be legacy proxy
/// configurations.
struct ProviderBlocks<'a> {
    configured: BTreeMap<String, Range>,
    empty: BTreeMap<String, Range>,
    /// Every block's `for_each`, if any.
    instanced: BTreeMap<String, Option<&'a Expr>>,
}

impl<'a> ProviderBlocks<'a> {
    fn of(module: &'a Module) -> ProviderBlocks<'a> {
        let mut blocks = ProviderBlocks {
            configured: BTreeMap::new(),
            empty: BTreeMap::new(),
            instanced: BTreeMap::new(),
        };
        for pc in module.provider_configs.values() {
            let name = pc.addr().string_compact();
            let (_, content_diags) = pc.config.content(&BodySchema::new(&[], &[]));
            if hclsyntax::has_errors(&content_diags) || pc.version.is_some() {
                blocks
                    .configured
                    .insert(name.clone(), pc.decl_range.clone());
            } else {
                blocks.empty.insert(name.clone(), pc.decl_range.clone());
            }
            blocks.instanced.insert(name, pc.for_each.as_ref());
        }
        blocks
    }

    /// The `for_each` of the block called `name`, if it has one.
    fn instance_expr(&self, name: &str) -> Option<&'a Expr> {
        self.instanced.get(name).copied().flatten()
    }
}

/// A module's `required_providers`, with their provider types.
struct LocalRequirements {
    /// `configuration_aliases` by `name.alias`.
    config_aliases: BTreeMap<String, Provider>,
    /// The local names.
    local_names: BTreeMap<String, Provider>,
}

impl LocalRequirements {
    /// The requirements, warning of a provider required twice.
    fn of(module: &Module, diags: &mut Diagnostics) -> LocalRequirements {
        let mut reqs = LocalRequirements {
            config_aliases: BTreeMap::new(),
            local_names: BTreeMap::new(),
        };
        let Some(required) = &module.provider_requirements else {
            return reqs;
        };
        let mut local_types: Vec<Provider> = Vec::new();
        for req in required.required_providers.values() {
            let ty = required_provider_type(req);
            if local_types.contains(&ty) {
                // The last earlier name of the same type.
                let prev = reqs
                    .local_names
                    .iter()
                    .rfind(|(_, t)| **t == ty)
                    .map(|(n, _)| n.as_str())
                    .unwrap_or_default();
                diags.push(Diagnostic::warning(
                    "Duplicate required provider",
                    format!(
                        "Provider {} with the local name {} was previously required as {}. A provider can only be required once within required_providers.",
                        ty.for_display(),
                        addrs::go_quote(&req.name),
                        addrs::go_quote(prev)
                    ),
                    req.decl_range.clone(),
                ));
            } else if ty.is_default() {
                check_block_implies_other_name(module, req, &ty, diags);
            }
            local_types.push(ty.clone());
            reqs.local_names.insert(req.name.clone(), ty.clone());
            for alias in &req.aliases {
                reqs.config_aliases
                    .insert(provider_name(&alias.local_name, &alias.alias), ty.clone());
            }
        }
        reqs
    }
}

/// A provider block named after a default provider's type implies the
/// same provider under another local name than `req`'s.
fn check_block_implies_other_name(
    module: &Module,
    req: &RequiredProvider,
    ty: &Provider,
    diags: &mut Diagnostics,
) {
    let implied = &ty.type_name;
    if req.name != *implied
        && module
            .provider_configs
            .values()
            .any(|pc| pc.name == *implied)
    {
        diags.push(Diagnostic::warning(
            "Duplicate required provider",
            format!(
                "Provider {} with the local name {} was implicitly required via a configuration block as {}. The provider configuration block name must match the name used in required_providers.",
                ty.for_display(),
                addrs::go_quote(&req.name),
                addrs::go_quote(implied)
            ),
            req.decl_range.clone(),
        ));
    }
}

/// What its caller passes a module, by the child's `name[.alias]`.
fn passed_in<'a>(parent_call: Option<&'a ParentCall<'_>>) -> BTreeMap<String, &'a TypedPassed> {
    parent_call
        .map(|call| {
            call.providers
                .iter()
                .map(|p| (provider_name(&p.in_child.r.name, &p.in_child.r.alias), p))
                .collect()
        })
        .unwrap_or_default()
}

/// What the checks of one module share.
struct ModuleFacts<'a> {
    cfg: &'a Config,
    parent: Option<&'a Config>,
    blocks: ProviderBlocks<'a>,
    reqs: LocalRequirements,
    passed_in: BTreeMap<String, &'a TypedPassed>,
    is_root: bool,
    /// The module as messages name it ("the root module" or its path).
    module_text: String,
    /// The calling module as messages name it.
    parent_module_text: String,
}

/// Keyed provider references in module calls' `providers` must name a
/// provider using `for_each`, and keys are not allowed on the child side.
fn check_module_call_instance_refs(here: &ModuleFacts<'_>, diags: &mut Diagnostics) {
    for mc in here.cfg.module.module_calls.values() {
        for passed in &mc.providers {
            if let Some(key) = &passed.in_child.key_expr {
                diags.push(Diagnostic::error(
                    "Invalid module provider configuration",
                    "Instance keys are not allowed on the left side of a provider configuration assignment.",
                    key.range.clone(),
                ));
            }
            let pn = provider_name(&passed.in_parent.name, &passed.in_parent.alias);
            let instance_expr = here.blocks.instance_expr(&pn);
            instance_validation(
                &passed.in_parent,
                "module",
                instance_expr.is_some(),
                here.blocks.configured.contains_key(&pn),
                diags,
            );
            if passed.in_parent.key_expr.is_some() {
                let target = format!("-target={}", here.cfg.path.child(&mc.name));
                diags.extend(provider_iteration_identical_warning(
                    "module",
                    &target,
                    mc.for_each.as_ref(),
                    instance_expr,
                ));
            }
        }
    }
}

/// Keyed provider references in resources must name a provider using
/// `for_each`.
fn check_resource_instance_refs(here: &ModuleFacts<'_>, diags: &mut Diagnostics) {
    for r in here.cfg.module.all_resources() {
        let Some(pref) = &r.provider_config_ref else {
            continue;
        };
        let pn = provider_name(&pref.name, &pref.alias);
        let instance_expr = here.blocks.instance_expr(&pn);
        instance_validation(
            pref,
            "resource",
            instance_expr.is_some(),
            here.blocks.configured.contains_key(&pn),
            diags,
        );
        if pref.key_expr.is_some() && r.mode == ResourceMode::Managed {
            let mut addr = r.addr().to_string();
            if !here.is_root {
                addr = format!("{}.{addr}", here.cfg.path);
            }
            diags.extend(provider_iteration_identical_warning(
                "resource",
                &format!("-target={addr}"),
                r.for_each.as_ref(),
                instance_expr,
            ));
        }
    }
}

/// Module calls may only pass providers this module names, and which will
/// have a configuration at runtime.
fn check_providers_passed_down(
    here: &ModuleFacts<'_>,
    parent_call: Option<&ParentCall<'_>>,
    diags: &mut Diagnostics,
) {
    let (module_text, parent_module_text) = (&here.module_text, &here.parent_module_text);
    for mc in here.cfg.module.module_calls.values() {
        for passed in &mc.providers {
            // Aliased configurations are never inherited; the called
            // module checks them.
            if !passed.in_parent.alias.is_empty() {
                continue;
            }
            let name = passed.in_parent.display();
            let conf_ok = here.blocks.configured.contains_key(&name);
            let local_ok = here.reqs.local_names.contains_key(&name);
            let passed_ok = here.passed_in.contains_key(&name);
            if !conf_ok && !local_ok {
                let def = Provider::default_for(&name).for_display();
                diags.push(Diagnostic::warning(
                    "Reference to undefined provider",
                    format!(
                        "There is no explicit declaration for local provider name {} in {module_text}, so OpenTofu is assuming you mean to pass a configuration for provider {}.\n\nTo clarify your intent and silence this warning, add to {parent_module_text} a required_providers entry named {} with source = {}, or a different source address if appropriate.",
                        addrs::go_quote(&name),
                        addrs::go_quote(&def),
                        addrs::go_quote(&name),
                        addrs::go_quote(&def)
                    ),
                    passed.in_parent.name_range.clone(),
                ));
                continue;
            }
            if let Some(call) = parent_call.filter(|_| !here.is_root && !conf_ok && !passed_ok) {
                let def = Provider::default_for(&name).for_display();
                diags.push(Diagnostic::warning(
                    "Missing required provider configuration",
                    format!(
                        "The configuration for {module_text} expects to inherit a configuration for provider {def} with local name {}, but {parent_module_text} doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for {} to the \"providers\" argument in the module {} block.",
                        addrs::go_quote(&name),
                        addrs::go_quote(&name),
                        addrs::go_quote(call.name)
                    ),
                    call.decl_range.clone(),
                ));
            }
        }
    }
}

/// A legacy module (one with its own provider configurations) cannot be
/// called with count, for_each, enabled or depends_on.
fn check_legacy_module_call(
    here: &ModuleFacts<'_>,
    no_provider_config_range: Option<&Range>,
    diags: &mut Diagnostics,
) {
    let Some(range) = no_provider_config_range.filter(|_| !here.blocks.configured.is_empty())
    else {
        return;
    };
    let source = here
        .cfg
        .source_addr
        .as_ref()
        .map(|s| s.to_string())
        .unwrap_or_default();
    diags.push(Diagnostic::error(
        "Module is incompatible with count, for_each, enabled and depends_on",
        format!(
            "The module at {} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module {}, consider updating this module to instead expect provider configurations to be passed by its caller.",
            here.cfg.path,
            addrs::go_quote(&source)
        ),
        range.clone(),
    ));
}

/// A module with its own configuration cannot be given another.
fn check_no_overridden_configs(here: &ModuleFacts<'_>, diags: &mut Diagnostics) {
    for name in here.blocks.configured.keys() {
        if let Some(passed) = here.passed_in.get(name) {
            diags.push(Diagnostic::error(
                "Cannot override provider configuration",
                format!(
                    "The configuration of {} has its own local configuration for {name}, and so it cannot accept an overridden configuration provided by {}.",
                    here.module_text, here.parent_module_text
                ),
                passed.in_child.r.name_range.clone(),
            ));
        }
    }
}

/// A declared alias needs a configuration here or from the caller.
fn check_config_aliases_passed(
    here: &ModuleFacts<'_>,
    call: &ParentCall<'_>,
    diags: &mut Diagnostics,
) {
    for (name, ty) in &here.reqs.config_aliases {
        if here.blocks.configured.contains_key(name) || here.passed_in.contains_key(name) {
            continue;
        }
        diags.push(Diagnostic::error(
            "Missing required provider configuration",
            format!(
                "The child module requires an additional configuration for provider {}, with the local name {}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for {name} in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
                ty.for_display(),
                addrs::go_quote(name)
            ),
            call.decl_range.clone(),
        ));
    }
}

/// What is passed in as `name` must be declared here, and be of the type
/// declared.
fn check_passed_in(
    here: &ModuleFacts<'_>,
    name: &str,
    passed: &TypedPassed,
    diags: &mut Diagnostics,
) {
    let local = here.reqs.local_names.get(name);
    let alias = here.reqs.config_aliases.get(name);
    let child_ty = alias
        .or(local)
        .cloned()
        .unwrap_or_else(|| passed.in_child.type_or_default());
    let empty = here.blocks.empty.contains_key(name);
    if local.is_none() && alias.is_none() && !empty {
        undeclared_passed_in(here, name, passed, &child_ty, diags);
    }

    let mut parent_ty = passed.in_parent.type_or_default();
    if let Some(rp) = here
        .parent
        .and_then(|p| p.module.provider_requirements.as_ref())
        .and_then(|r| r.required_providers.get(name))
    {
        parent_ty = required_provider_type(rp);
    }
    if child_ty != parent_ty {
        provider_type_mismatch(here, passed, &child_ty, &parent_ty, diags);
    }
}

/// A provider passed in under a name this module does not declare: a
/// warning when the name implies the type, an error otherwise.
fn undeclared_passed_in(
    here: &ModuleFacts<'_>,
    name: &str,
    passed: &TypedPassed,
    child_ty: &Provider,
    diags: &mut Diagnostics,
) {
    let shown = child_ty.for_display();
    if child_ty.is_default() {
        diags.push(Diagnostic::warning(
            "Reference to undefined provider",
            format!(
                "There is no explicit declaration for local provider name {} in {}, so OpenTofu is assuming you mean to pass a configuration for {}.\n\nIf you also control the child module, add a required_providers entry named {} with the source address {}.",
                addrs::go_quote(name),
                here.module_text,
                addrs::go_quote(&shown),
                addrs::go_quote(name),
                addrs::go_quote(&shown)
            ),
            passed.in_child.r.name_range.clone(),
        ));
    } else {
        diags.push(Diagnostic::error(
            "Reference to undefined provider",
            format!(
                "The child module does not declare any provider requirement with the local name {}.\n\nIf you also control the child module, you can add a required_providers entry named {} with the source address {} to accept this provider configuration.",
                addrs::go_quote(name),
                addrs::go_quote(name),
                addrs::go_quote(&shown)
            ),
            passed.in_child.r.name_range.clone(),
        ));
    }
}

/// The caller passes a configuration of another provider type than this
/// module declares.
fn provider_type_mismatch(
    here: &ModuleFacts<'_>,
    passed: &TypedPassed,
    child_ty: &Provider,
    parent_ty: &Provider,
    diags: &mut Diagnostics,
) {
    let (module_text, parent_module_text) = (&here.module_text, &here.parent_module_text);
    // Prefer suggesting this module's own name for the caller's provider
    // type, assuming the local name was what went wrong.
    let other_local_name = here
        .reqs
        .local_names
        .iter()
        .find(|(_, t)| *t == parent_ty)
        .map(|(n, _)| n);
    match other_local_name {
        Some(other) => diags.push(Diagnostic::error(
            "Provider type mismatch",
            format!(
                "The assigned configuration is for provider {}, but local name {} in {parent_module_text} represents {}.\n\nTo pass this configuration to the child module, use the local name {} instead.",
                addrs::go_quote(&child_ty.for_display()),
                addrs::go_quote(&passed.in_child.r.name),
                addrs::go_quote(&parent_ty.for_display()),
                addrs::go_quote(other)
            ),
            passed.in_child.r.name_range.clone(),
        )),
        None => {
            let in_child = addrs::go_quote(&passed.in_child.r.display());
            diags.push(Diagnostic::error(
                "Provider type mismatch",
                format!(
                    "The local name {} in {parent_module_text} represents provider {}, but {in_child} in {module_text} represents {}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's {in_child} can be assigned only a configuration for {}, which is not required by {module_text}.",
                    addrs::go_quote(&passed.in_parent.r.display()),
                    addrs::go_quote(&parent_ty.for_display()),
                    addrs::go_quote(&child_ty.for_display()),
                    child_ty.for_display()
                ),
                passed.in_parent.r.name_range.clone(),
            ));
        }
    }
}

/// Empty provider blocks are no longer needed: one warning per provider
/// local name, showing the `required_providers` entry to write instead.
fn redundant_empty_provider_warnings(
    empty_configs: &BTreeMap<String, Range>,
    local_names: &BTreeMap<String, Provider>,
    module_text: &str,
    diags: &mut Diagnostics,
) {
    struct Suggestion {
        source: Provider,
        ranges: Vec<Range>,
        configs: Vec<String>,
        alias_count: usize,
    }
    let mut suggestions: BTreeMap<String, Suggestion> = BTreeMap::new();
    for (name, range) in empty_configs {
        let local = name.split('.').next().unwrap_or(name).to_string();
        let source = local_names
            .get(name)
            .cloned()
            .unwrap_or_else(|| Provider::default_for(&local));
        let s = suggestions.entry(local.clone()).or_insert(Suggestion {
            source,
            ranges: Vec::new(),
            configs: Vec::new(),
            alias_count: 0,
        });
        if local != *name {
            s.alias_count += 1;
        }
        s.configs.push(name.clone());
        s.ranges.push(range.clone());
    }
    for (name, mut s) in suggestions {
        let mut detail = format!(
            "Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {} blocks and then adding or updating an entry like the following to the required_providers block of {module_text}:\n",
            addrs::go_quote(&name)
        );
        detail.push_str(&format!("    {name} = {{\n"));
        detail.push_str(&format!(
            "      source = {}\n",
            addrs::go_quote(&s.source.for_display())
        ));
        if s.alias_count > 0 {
            s.configs.sort();
            detail.push_str("      configuration_aliases = [\n");
            for c in &s.configs {
                detail.push_str(&format!("        {c},\n"));
            }
            detail.push_str("      ]\n");
        }
        detail.push_str("    }");
        // The range that sorts first as text: deterministic in the rare
        // case of several.
        s.ranges.sort_by_key(|r| r.to_string());
        diags.push(Diagnostic::warning(
            "Redundant empty provider block",
            detail,
            s.ranges[0].clone(),
        ));
    }
}

/// `checkImpliedProviderNames` for one resource: a resource without a
/// `provider` argument uses its type's prefix as local name, which must
/// be valid and must not be required under another name.
fn check_implied_provider_name(
    r: &Resource,
    local_names: &BTreeMap<String, Provider>,
    diags: &mut Diagnostics,
) {
    if r.provider_config_ref.is_some() {
        return;
    }
    let local = r.implied_provider();
    if let Err(why) = addrs::parse_provider_part(local) {
        diags.push(Diagnostic::error(
            "Invalid provider local name",
            format!(
                "{} is an invalid implied provider local name: {why}",
                addrs::go_quote(local)
            ),
            r.decl_range.clone(),
        ));
        return;
    }
    if local_names.contains_key(local) {
        return;
    }
    let def = Provider::implied_for_unqualified_type(local);
    for (prev, addr) in local_names {
        if *addr == def {
            diags.push(Diagnostic::warning(
                "Duplicate required provider",
                format!(
                    "Provider {} was implicitly required via resource {}, but listed in required_providers as {}. Either the local name in required_providers must match the resource name, or the {} provider must be assigned within the resource block.",
                    addrs::go_quote(&def.to_string()),
                    addrs::go_quote(&r.addr().to_string()),
                    addrs::go_quote(prev),
                    addrs::go_quote(prev)
                ),
                r.decl_range.clone(),
            ));
        }
    }
}

/// `ProviderConfigRef.InstanceValidation`: an instance key needs an
/// aliased provider configuration that uses `for_each`, and such a
/// configuration can only be referred to with a key.
fn instance_validation(
    r: &ProviderConfigRef,
    block_type: &str,
    instanced: bool,
    configured: bool,
    diags: &mut Diagnostics,
) {
    let summary = format!("Invalid {block_type} provider configuration");
    let whole = match &r.alias_range {
        Some(a) => r.name_range.to(a),
        None => r.name_range.clone(),
    };
    match &r.key_expr {
        Some(key) => {
            if r.alias.is_empty() {
                diags.push(Diagnostic::error(
                    summary,
                    "An instance key can be specified only for a provider configuration which has an alias and uses for_each.",
                    key.range.clone(),
                ));
            } else if !instanced && !configured {
                diags.push(Diagnostic::error(
                    summary,
                    format!(
                        "This module doesn't declare a provider {} block with alias = {}, which is required for use with for_each.",
                        addrs::go_quote(&r.name),
                        addrs::go_quote(&r.alias)
                    ),
                    whole,
                ));
            } else if !instanced {
                diags.push(Diagnostic::error(
                    summary,
                    "An instance key can be specified only for a provider configuration that uses for_each.",
                    key.range.clone(),
                ));
            }
        }
        None if instanced => diags.push(Diagnostic::error(
            summary,
            "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.",
            whole,
        )),
        None => {}
    }
}

/// `providerIterationIdenticalWarning`: a provider `for_each` identical to
/// the `for_each` of the resource or module using its instances.
fn provider_iteration_identical_warning(
    block_type: &str,
    target: &str,
    source_expr: Option<&Expr>,
    instance_expr: Option<&Expr>,
) -> Diagnostics {
    let (Some(source), Some(instance)) = (source_expr, instance_expr) else {
        return Vec::new();
    };
    if source.variables().is_empty() || instance.variables().is_empty() {
        return Vec::new();
    }
    if !iteration_identical(Some(source), Some(instance)) {
        return Vec::new();
    }
    vec![Diagnostic::warning(
        format!("Provider configuration for_each matches {block_type}"),
        format!(
            "This provider configuration uses the same for_each expression as a {block_type}, which means that subsequent removal of elements from this collection would cause a planning error.\n\nOpenTofu relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the OpenTofu documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    tofu apply -destroy {target}"
        ),
        source.range.clone(),
    )]
}

/// `providerIterationIdentical`: a best-effort syntactic comparison.
fn iteration_identical(a: Option<&Expr>, b: Option<&Expr>) -> bool {
    let (a, b) = match (a, b) {
        (None, None) => return true,
        (Some(a), Some(b)) => (a.unwrap_parens(), b.unwrap_parens()),
        _ => return false,
    };
    let same = |x: &Expr, y: &Expr| iteration_identical(Some(x), Some(y));
    match (&a.kind, &b.kind) {
        (ExprKind::ScopeTraversal(x), ExprKind::ScopeTraversal(y)) => {
            x.root == y.root && steps_equivalent(&x.steps, &y.steps)
        }
        (ExprKind::Literal(x), ExprKind::Literal(y)) => literals_equal(x, y),
        (
            ExprKind::RelativeTraversal {
                source: xs,
                steps: x,
            },
            ExprKind::RelativeTraversal {
                source: ys,
                steps: y,
            },
        ) => steps_equivalent(x, y) && same(xs, ys),
        (ExprKind::FunctionCall(x), ExprKind::FunctionCall(y)) => {
            x.name == y.name
                && x.args.len() == y.args.len()
                && x.args.iter().zip(&y.args).all(|(p, q)| same(p, q))
        }
        (
            ExprKind::Conditional {
                condition: xc,
                true_result: xt,
                false_result: xf,
            },
            ExprKind::Conditional {
                condition: yc,
                true_result: yt,
                false_result: yf,
            },
        ) => same(xc, yc) && same(xt, yt) && same(xf, yf),
        (
            ExprKind::Index {
                collection: xc,
                key: xk,
                ..
            },
            ExprKind::Index {
                collection: yc,
                key: yk,
                ..
            },
        ) => same(xc, yc) && same(xk, yk),
        (ExprKind::Tuple(x), ExprKind::Tuple(y))
        | (ExprKind::Template(x), ExprKind::Template(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (ExprKind::Object(x), ExprKind::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| same(&p.key.expr, &q.key.expr) && same(&p.value, &q.value))
        }
        (ExprKind::For(x), ExprKind::For(y)) => {
            x.key_var == y.key_var
                && x.value_var == y.value_var
                && same(&x.collection, &y.collection)
                && iteration_identical(x.key_expr.as_deref(), y.key_expr.as_deref())
                && same(&x.value_expr, &y.value_expr)
                && iteration_identical(x.condition.as_deref(), y.condition.as_deref())
                && x.group == y.group
        }
        (
            ExprKind::Binary {
                op: xo,
                lhs: xl,
                rhs: xr,
            },
            ExprKind::Binary {
                op: yo,
                lhs: yl,
                rhs: yr,
            },
        ) => xo == yo && same(xl, yl) && same(xr, yr),
        (ExprKind::Unary { op: xo, operand: x }, ExprKind::Unary { op: yo, operand: y }) => {
            xo == yo && same(x, y)
        }
        _ => false,
    }
}

/// `TraversalsEquivalent` for the steps after the root.
fn steps_equivalent(a: &[hclsyntax::TraversalStep], b: &[hclsyntax::TraversalStep]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (&x.kind, &y.kind) {
            (StepKind::Attr(p), StepKind::Attr(q)) => p == q,
            (StepKind::Index(p), StepKind::Index(q)) => literals_equal(p, q),
            _ => false,
        })
}

/// cty equality of two literals: numbers by value.
fn literals_equal(a: &Literal, b: &Literal) -> bool {
    match (a, b) {
        (Literal::Number(x), Literal::Number(y)) => {
            x == y || matches!((x.parse::<f64>(), y.parse::<f64>()), (Ok(p), Ok(q)) if p == q)
        }
        _ => a == b,
    }
}

#[cfg(test)]
#[path = "provider_validation_tests.rs"]
pub(crate) mod tests;
