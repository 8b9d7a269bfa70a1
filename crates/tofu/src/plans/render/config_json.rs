//! The `configuration` member of the plan document (OpenTofu's
//! `internal/command/jsonconfig`): the provider configurations of the whole
//! tree, flattened, and each module's outputs, resources, module calls and
//! variables with their expressions as references or constant values.
//!
//! plan-lite has no provider schemas: the argument names of
//! `terraform_data` are its real schema's; for other resource types every
//! argument written in the block is listed, and provider configuration
//! blocks list no expressions.

use configs::resource::ResourceMode;
use std::collections::{BTreeMap, BTreeSet};

use addrs::{Provider, Reference, Referenceable};
use configs::config::Config;
use configs::module::Module;
use configs::resource::Resource;
use hclsyntax::{Expr, Traversal};

use super::jsonw::{Json, ObjectBuilder};
use super::values::marshal_known;

/// The arguments of the builtin `terraform_data` resource type that a
/// configuration can set.
const TERRAFORM_DATA_ARGUMENTS: &[&str] = &["input", "triggers_replace"];

/// The `configuration` object for a configuration tree.
pub fn configuration(config: &Config) -> Json {
    let mut pcs = BTreeMap::new();
    provider_configs(config, None, &mut pcs);
    let root = module_json(config, "", &pcs);
    let providers = Json::Object(
        pcs.iter()
            .filter(|(_, p)| p.parent_key.is_empty())
            .map(|(k, p)| (k.clone(), p.to_json()))
            .collect(),
    );
    ObjectBuilder::new()
        .nonempty("provider_config", providers)
        .field("root_module", root)
        .build()
}

/// One entry of `provider_config`.
struct ProviderEntry {
    name: String,
    full_name: String,
    alias: String,
    version_constraint: String,
    module_address: String,
    /// The entry in an ancestor module this one inherits from; entries
    /// with a parent are dropped and resources point at the parent.
    parent_key: String,
}

impl ProviderEntry {
    fn to_json(&self) -> Json {
        ObjectBuilder::new()
            .nonempty_str("name", &self.name)
            .nonempty_str("full_name", &self.full_name)
            .nonempty_str("alias", &self.alias)
            .nonempty_str("version_constraint", &self.version_constraint)
            .nonempty_str("module_address", &self.module_address)
            .build()
    }
}

/// `opaqueProviderKey`: `name` in the root module, `module.a:name` inside.
fn opaque_key(provider: &str, module_addr: &str) -> String {
    if module_addr.is_empty() {
        provider.to_string()
    } else {
        format!("{module_addr}:{provider}")
    }
}

/// `findSourceProviderKey`: follows the parent links from `start` while
/// they name the same provider, returning the last key that does.
fn find_source_key(start: &str, full_name: &str, m: &BTreeMap<String, ProviderEntry>) -> String {
    let mut found = String::new();
    let mut key = start.to_string();
    while !key.is_empty() {
        match m.get(&key) {
            Some(p) if p.full_name == full_name => {
                found = key.clone();
                key = p.parent_key.clone();
            }
            _ => break,
        }
    }
    found
}

/// The provider a local name means in `module`: its `required_providers`
/// source, else the implied provider for that name.
fn provider_for_local_name(module: &Module, local: &str) -> Provider {
    let source = module
        .provider_requirements
        .as_ref()
        .and_then(|r| r.required_providers.get(local))
        .and_then(|rp| rp.source.as_deref());
    match source.map(addrs::parse_provider_source_string) {
        Some(Ok(p)) => p,
        _ => Provider::implied_for_unqualified_type(local),
    }
}

/// The local provider configuration a resource uses, as `name` or
/// `name.alias`.
fn resource_provider_key(r: &Resource) -> String {
    match &r.provider_config_ref {
        Some(p) => p.addr().string_compact(),
        None => r.implied_provider().to_string(),
    }
}

fn resource_local_provider(r: &Resource) -> &str {
    match &r.provider_config_ref {
        Some(p) => &p.name,
        None => r.implied_provider(),
    }
}

/// `ProviderRequirementsShallow`: the providers this module needs, with the
/// version constraints it states for them.
fn provider_requirements(module: &Module) -> BTreeMap<Provider, Vec<String>> {
    let mut reqs: BTreeMap<Provider, Vec<String>> = BTreeMap::new();
    if let Some(rps) = &module.provider_requirements {
        for (name, rp) in &rps.required_providers {
            let constraint = rp.requirement.required.to_string();
            let entry = reqs
                .entry(provider_for_local_name(module, name))
                .or_default();
            if !constraint.is_empty() {
                entry.push(constraint);
            }
        }
    }
    let managed_and_data = module
        .all_resources()
        .filter(|r| r.mode != ResourceMode::Ephemeral);
    for r in managed_and_data {
        reqs.entry(provider_for_local_name(module, resource_local_provider(r)))
            .or_default();
    }
    for pc in module.provider_configs.values() {
        let entry = reqs
            .entry(provider_for_local_name(module, &pc.name))
            .or_default();
        if let Some(v) = &pc.version {
            let constraint = v.required.to_string();
            if !constraint.is_empty() {
                entry.push(constraint);
            }
        }
    }
    reqs
}

/// `marshalProviderConfigs`: entries for provider blocks, required
/// providers and implied providers of `c` and its descendants.
fn provider_configs(
    c: &Config,
    parent_path: Option<&str>,
    m: &mut BTreeMap<String, ProviderEntry>,
) {
    let path = c.path.to_string();
    let module = &c.module;
    let reqs = provider_requirements(module);
    let constraint_of = |p: &Provider| reqs.get(p).map(|v| v.join(", ")).unwrap_or_default();

    for (key, pc) in &module.provider_configs {
        let fqn = provider_for_local_name(module, &pc.name);
        m.insert(
            opaque_key(&key.string_compact(), &path),
            ProviderEntry {
                name: pc.name.clone(),
                full_name: fqn.to_string(),
                alias: pc.alias.clone().unwrap_or_default(),
                version_constraint: constraint_of(&fqn),
                module_address: path.clone(),
                parent_key: String::new(),
            },
        );
    }

    if let Some(rps) = &module.provider_requirements {
        for (name, rp) in &rps.required_providers {
            let fqn = provider_for_local_name(module, name);
            for alias in &rp.aliases {
                let key = opaque_key(&alias.string_compact(), &path);
                m.entry(key).or_insert_with(|| ProviderEntry {
                    name: rp.name.clone(),
                    full_name: fqn.to_string(),
                    alias: String::new(),
                    version_constraint: constraint_of(&fqn),
                    module_address: path.clone(),
                    parent_key: String::new(),
                });
            }
            let key = opaque_key(name, &path);
            if m.contains_key(&key) {
                continue;
            }
            let full_name = fqn.to_string();
            let parent_key = parent_path
                .map(|pp| find_source_key(&opaque_key(&rp.name, pp), &full_name, m))
                .unwrap_or_default();
            m.insert(
                key,
                ProviderEntry {
                    name: rp.name.clone(),
                    full_name,
                    alias: String::new(),
                    version_constraint: constraint_of(&fqn),
                    module_address: path.clone(),
                    parent_key,
                },
            );
        }
    }

    for req in reqs.keys() {
        let key = opaque_key(&req.type_name, &path);
        if m.contains_key(&key) {
            continue;
        }
        let full_name = req.to_string();
        let parent_key = parent_path
            .map(|pp| find_source_key(&opaque_key(&req.type_name, pp), &full_name, m))
            .unwrap_or_default();
        m.insert(
            key,
            ProviderEntry {
                name: req.type_name.clone(),
                full_name,
                alias: String::new(),
                version_constraint: constraint_of(req),
                module_address: path.clone(),
                parent_key,
            },
        );
    }

    for (name, call) in &module.module_calls {
        let Some(child) = c.children.get(name) else {
            continue;
        };
        let child_path = child.path.to_string();
        for passed in &call.providers {
            let in_child = compact_ref(&passed.in_child.name, &passed.in_child.alias);
            let in_parent = compact_ref(&passed.in_parent.name, &passed.in_parent.alias);
            let fqn = provider_for_local_name(&child.module, &passed.in_child.name);
            let full_name = fqn.to_string();
            let parent_key = find_source_key(&opaque_key(&in_parent, &path), &full_name, m);
            m.insert(
                opaque_key(&in_child, &child_path),
                ProviderEntry {
                    name: in_child.clone(),
                    full_name,
                    alias: String::new(),
                    version_constraint: String::new(),
                    module_address: child_path.clone(),
                    parent_key,
                },
            );
        }
        provider_configs(child, Some(&path), m);
    }
}

fn compact_ref(name: &str, alias: &str) -> String {
    if alias.is_empty() {
        name.to_string()
    } else {
        format!("{name}.{alias}")
    }
}

/// `marshalModule`: outputs, resources, module calls and variables.
fn module_json(c: &Config, module_addr: &str, pcs: &BTreeMap<String, ProviderEntry>) -> Json {
    let module = &c.module;
    let outputs = Json::Object(
        module
            .outputs
            .iter()
            .map(|(name, o)| {
                let out = ObjectBuilder::new()
                    .true_only("sensitive", o.sensitive)
                    .field("expression", expression_json(o.expr.as_ref()))
                    .nonempty("depends_on", depends_on_json(&o.depends_on))
                    .nonempty_str("description", &o.description)
                    .build();
                (name.clone(), out)
            })
            .collect(),
    );
    // Managed resources, then data resources, each group by address.
    let mut resources = Vec::new();
    for mode in [ResourceMode::Managed, ResourceMode::Data] {
        // Go sorts by the address's text ('-' sorts before '.').
        let mut rs: Vec<&Resource> = module.resources_of(mode).collect();
        rs.sort_by_key(|r| r.addr().to_string());
        resources.extend(rs.into_iter().map(|r| resource_json(r, module_addr, pcs)));
    }
    let calls = Json::Object(
        module
            .module_calls
            .iter()
            .map(|(name, call)| (name.clone(), module_call_json(c, name, call, pcs)))
            .collect(),
    );
    let variables = Json::Object(
        module
            .variables
            .iter()
            .map(|(name, v)| {
                let default = v.default_value.as_ref().and_then(marshal_known);
                let out = ObjectBuilder::new()
                    .opt("default", default)
                    .nonempty_str("description", &v.description)
                    .true_only("sensitive", v.sensitive)
                    .build();
                (name.clone(), out)
            })
            .collect(),
    );
    ObjectBuilder::new()
        .nonempty("outputs", outputs)
        .nonempty("resources", Json::Array(resources))
        .nonempty("module_calls", calls)
        .nonempty("variables", variables)
        .build()
}

/// One resource block: its provider configuration key (pointing at the
/// ancestor's entry when the configuration is inherited), expressions and
/// repetition.
fn resource_json(r: &Resource, module_addr: &str, pcs: &BTreeMap<String, ProviderEntry>) -> Json {
    let mut key = opaque_key(&resource_provider_key(r), module_addr);
    if let Some(pc) = pcs.get(&key) {
        if pcs.contains_key(&pc.parent_key) {
            key = pc.parent_key.clone();
        }
    }
    let wanted: Option<BTreeSet<&str>> = (r.type_name == "terraform_data")
        .then(|| TERRAFORM_DATA_ARGUMENTS.iter().copied().collect());
    let (count, for_each) = repetition_json(r.count.as_ref(), r.for_each.as_ref());
    ObjectBuilder::new()
        .field("address", Json::str(r.addr().to_string()))
        .field("mode", Json::str(mode_name(r)))
        .field("type", Json::str(&r.type_name))
        .field("name", Json::str(&r.name))
        .nonempty_str("provider_config_key", &key)
        .nonempty("expressions", expressions_json(&r.config, wanted.as_ref()))
        .field("schema_version", Json::Number("0".into()))
        .opt("count_expression", count)
        .opt("for_each_expression", for_each)
        .nonempty("depends_on", depends_on_json(&r.depends_on))
        .build()
}

fn mode_name(r: &Resource) -> &'static str {
    match r.mode {
        configs::resource::ResourceMode::Managed => "managed",
        configs::resource::ResourceMode::Data => "data",
        configs::resource::ResourceMode::Ephemeral => "ephemeral",
    }
}

/// `count_expression`, or else `for_each_expression`, when set and not
/// empty.
fn repetition_json(count: Option<&Expr>, for_each: Option<&Expr>) -> (Option<Json>, Option<Json>) {
    let c = expression_json(count);
    if !c.is_empty_collection() {
        return (Some(c), None);
    }
    let f = expression_json(for_each);
    if !f.is_empty_collection() {
        return (None, Some(f));
    }
    (None, None)
}

fn module_call_json(
    parent: &Config,
    name: &str,
    call: &configs::module_call::ModuleCall,
    pcs: &BTreeMap<String, ProviderEntry>,
) -> Json {
    let source = call.source_addr_raw.clone().unwrap_or_default();
    let version = call
        .version
        .as_ref()
        .map(|v| v.required.to_string())
        .unwrap_or_default();
    let Some(child) = parent.children.get(name) else {
        // The called module is not loaded: only what the call says.
        return ObjectBuilder::new()
            .nonempty_str("source", &source)
            .nonempty_str("version_constraint", &version)
            .build();
    };
    let (count, for_each) = repetition_json(call.count.as_ref(), call.for_each.as_ref());
    let variables: BTreeSet<&str> = child.module.variables.keys().map(String::as_str).collect();
    ObjectBuilder::new()
        .nonempty_str("source", &source)
        .nonempty(
            "expressions",
            expressions_json(&call.config, Some(&variables)),
        )
        .opt("count_expression", count)
        .opt("for_each_expression", for_each)
        .field("module", module_json(child, &child.path.to_string(), pcs))
        .nonempty_str("version_constraint", &version)
        .nonempty("depends_on", depends_on_json(&call.depends_on))
        .build()
}

/// `marshalExpressions`: each argument of the body the schema names (all
/// of them without a schema), by name.
fn expressions_json(
    body: &configs::merged_body::ConfigBody,
    wanted: Option<&BTreeSet<&str>>,
) -> Json {
    let (attrs, _) = body.just_attributes();
    let mut out: BTreeMap<String, Json> = BTreeMap::new();
    for attr in attrs {
        if wanted.is_some_and(|w| !w.contains(attr.name.as_str())) {
            continue;
        }
        out.insert(attr.name.clone(), expression_json(Some(&attr.expr)));
    }
    Json::Object(out.into_iter().collect())
}

/// `marshalExpression`: the constant value when the expression evaluates
/// to a known value without variables or functions, and every reference
/// it makes, unwrapped step by step down to the object it names.
pub fn expression_json(expr: Option<&Expr>) -> Json {
    let Some(expr) = expr else {
        return Json::empty_object();
    };
    let (val, _) = lang::eval_expr(expr, &lang::EvalContext::empty());
    let constant = if val.contains_marked() {
        None
    } else {
        marshal_known(&val)
    };
    let mut refs = Vec::new();
    for t in expr.variables() {
        if let Ok(r) = addrs::parse_ref(&t) {
            push_reference_strings(&r, &mut refs);
        }
    }
    ObjectBuilder::new()
        .opt("constant_value", constant)
        .nonempty(
            "references",
            Json::Array(refs.into_iter().map(Json::String).collect()),
        )
        .build()
}

/// A reference with its remaining steps, each shorter prefix, the subject,
/// and for instances also the object without its key.
fn push_reference_strings(r: &Reference, out: &mut Vec<String>) {
    for n in (1..=r.remaining.len()).rev() {
        let prefix = Reference {
            subject: r.subject.clone(),
            source_range: r.source_range.clone(),
            remaining: r.remaining[..n].to_vec(),
        };
        out.push(prefix.display_string());
    }
    out.push(r.subject.to_string());
    match &r.subject {
        Referenceable::ModuleCallInstance(mci) if !mci.key.is_none() => {
            out.push(mci.call.to_string());
        }
        Referenceable::ResourceInstance(ri) if !ri.key.is_none() => {
            out.push(ri.resource.to_string());
        }
        // The instance the output belongs to (with its key, if any).
        Referenceable::ModuleCallInstanceOutput(o) => {
            out.push(o.call.to_string());
        }
        _ => {}
    }
}

/// `depends_on` as the subjects of its references.
fn depends_on_json(traversals: &[Traversal]) -> Json {
    Json::Array(
        traversals
            .iter()
            .map(|t| match addrs::parse_ref(t) {
                Ok(r) => Json::String(r.subject.to_string()),
                // OpenTofu leaves an empty string where a reference does
                // not parse (validate reports it first).
                Err(_) => Json::str(""),
            })
            .collect(),
    )
}
