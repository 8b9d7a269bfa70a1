//! One module instance as a source of values ([`lang::Data`]): what the
//! expressions of its objects see. OpenTofu's `evaluationStateData`.

use std::collections::BTreeMap;

use addrs::{
    CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, ModuleInstance, PathAttr,
    Reference, Referenceable, Resource, TerraformAttr,
};
use configs::config::Config;
use cty::{Mark, Type, Value};
use hclsyntax::{Diagnostic, Diagnostics, Range};
use lang::{Data, Scope};

use super::state::{RepeatKind, State};
use super::{Mode, Walk};
use crate::expand::Repetition;

/// The values one module instance's expressions can see.
pub struct InstanceData<'w> {
    pub walk: &'w Walk<'w>,
    pub state: &'w State,
    /// The module's configuration.
    pub config: &'w Config,
    pub inst: ModuleInstance,
    /// `count.index` / `each.*` of the object being evaluated.
    pub repetition: Repetition,
}

impl<'w> InstanceData<'w> {
    pub fn scope(&self) -> Scope<'_> {
        Scope::new(self, self.walk.functions.clone())
    }

    fn module_display(&self) -> String {
        if self.config.path.is_root() {
            "the root module".into()
        } else {
            self.config.path.to_string()
        }
    }
}

fn quote(s: &str) -> String {
    cty::format::go_quote(s)
}

fn suggestion<'a>(given: &str, names: impl Iterator<Item = &'a str>) -> String {
    match hclsyntax::body::name_suggestion(given, names) {
        Some(s) => format!(" Did you mean {}?", quote(s)),
        None => String::new(),
    }
}

/// The value of a resource whose instances are not known (validate, or
/// after an error): an unknown of the shape its repetition gives.
pub fn unknown_resource_value(elem: Type, kind: RepeatKind) -> Value {
    match kind {
        RepeatKind::Single => Value::unknown(elem),
        RepeatKind::Count => Value::unknown(Type::list(elem)),
        RepeatKind::ForEach => Value::unknown(Type::map(elem)),
    }
}

/// How a block with these meta-arguments repeats.
pub fn repeat_kind(
    count: &Option<hclsyntax::Expr>,
    for_each: &Option<hclsyntax::Expr>,
) -> RepeatKind {
    if count.is_some() {
        RepeatKind::Count
    } else if for_each.is_some() {
        RepeatKind::ForEach
    } else {
        RepeatKind::Single
    }
}

/// Instances assembled as a reference sees them: one value, a tuple
/// (`count`) or an object (`for_each`).
pub fn assemble(
    kind: RepeatKind,
    instances: impl Iterator<Item = (addrs::InstanceKey, Value)>,
) -> Value {
    match kind {
        RepeatKind::Single => instances
            .map(|(_, v)| v)
            .next()
            .unwrap_or_else(Value::dynamic),
        RepeatKind::Count => Value::tuple(instances.map(|(_, v)| v).collect()),
        RepeatKind::ForEach => Value::object(
            instances
                .filter_map(|(k, v)| match k {
                    addrs::InstanceKey::String(s) => Some((s, v)),
                    _ => None,
                })
                .collect(),
        ),
    }
}

impl Data for InstanceData<'_> {
    fn static_validate_references(
        &self,
        refs: &[Reference],
        _self_addr: Option<&Referenceable>,
        source: Option<&Referenceable>,
    ) -> Diagnostics {
        let mut diags = Diagnostics::new();
        let m = &self.config.module;
        for r in refs {
            let rng = r.source_range.clone();
            match &r.subject {
                Referenceable::InputVariable(a) if !m.variables.contains_key(&a.name) => {
                    let sugg = suggestion(&a.name, m.variables.keys().map(String::as_str));
                    let detail = if sugg.is_empty() {
                        format!("An input variable with the name {} has not been declared. This variable can be declared with a variable {} {{}} block.", quote(&a.name), quote(&a.name))
                    } else {
                        format!(
                            "An input variable with the name {} has not been declared.{sugg}",
                            quote(&a.name)
                        )
                    };
                    diags.push(Diagnostic::error(
                        "Reference to undeclared input variable",
                        detail,
                        rng,
                    ));
                }
                Referenceable::LocalValue(a) if !m.locals.contains_key(&a.name) => {
                    let sugg = suggestion(&a.name, m.locals.keys().map(String::as_str));
                    diags.push(Diagnostic::error(
                        "Reference to undeclared local value",
                        format!(
                            "A local value with the name {} has not been declared.{sugg}",
                            quote(&a.name)
                        ),
                        rng,
                    ));
                }
                Referenceable::ModuleCall(a) => self.check_call(&a.name, rng, &mut diags),
                Referenceable::ModuleCallInstance(a) => {
                    self.check_call(&a.call.name, rng, &mut diags)
                }
                Referenceable::ModuleCallInstanceOutput(a) => {
                    self.check_call(&a.call.call.name, rng, &mut diags)
                }
                Referenceable::Resource(res) => {
                    self.check_resource(res, source, &r.remaining, rng, &mut diags)
                }
                Referenceable::ResourceInstance(ri) => {
                    self.check_resource(&ri.resource, source, &r.remaining, rng, &mut diags)
                }
                _ => {}
            }
        }
        diags
    }

    fn get_count_attr(&self, addr: &CountAttr, range: &Range) -> (Value, Diagnostics) {
        if addr.name != "index" {
            return (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid \"count\" attribute",
                    format!("The \"count\" object does not have an attribute named {}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set.", quote(&addr.name)),
                    range.clone(),
                )],
            );
        }
        match &self.repetition.count_index {
            Some(v) => (v.clone(), Diagnostics::new()),
            None => (
                Value::unknown(Type::Number),
                vec![Diagnostic::error(
                    "Reference to \"count\" in non-counted context",
                    "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
                    range.clone(),
                )],
            ),
        }
    }

    fn get_for_each_attr(&self, addr: &ForEachAttr, range: &Range) -> (Value, Diagnostics) {
        let found = match addr.name.as_str() {
            "key" => &self.repetition.each_key,
            // Checked on its own first, as GetForEachAttr does: without a
            // value (no for_each here, or a destroy-time provisioner)
            // OpenTofu names each.value, not the whole "each" object.
            "value" if self.repetition.each_value.is_none() => {
                return (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "each.value cannot be used in this context",
                        "A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error.",
                        range.clone(),
                    )],
                )
            }
            "value" => &self.repetition.each_value,
            other => {
                return (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Invalid \"each\" attribute",
                        format!("The \"each\" object does not have an attribute named {}. The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set.", quote(other)),
                        range.clone(),
                    )],
                )
            }
        };
        match found {
            Some(v) => (v.clone(), Diagnostics::new()),
            None => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Reference to \"each\" in context without for_each",
                    "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
                    range.clone(),
                )],
            ),
        }
    }

    fn get_resource(&self, addr: &Resource, _range: &Range) -> (Value, Diagnostics) {
        let Some(rc) = self.config.module.resource(addr) else {
            return (Value::dynamic(), Diagnostics::new());
        };
        let kind = repeat_kind(&rc.count, &rc.for_each);
        let schema = super::schema_checks::known_schema(self.walk, self.config, rc);
        let block = schema.and_then(|s| s.block.as_ref());
        let marked = |key: &addrs::InstanceKey, v: &Value| match block {
            Some(block) => crate::deprecation::resource_schema_marks(
                block,
                v,
                &self.inst,
                &addrs::ResourceInstance {
                    resource: addr.clone(),
                    key: key.clone(),
                },
            ),
            None => v.clone(),
        };
        if self.walk.mode != Mode::Validate {
            if let Some(rs) = self
                .state
                .values(&self.inst)
                .and_then(|v| v.resources.get(addr))
            {
                let v = assemble(
                    rs.kind,
                    rs.instances.iter().map(|(k, v)| (k.clone(), marked(k, v))),
                );
                return (v, Diagnostics::new());
            }
        }
        if let Some(block) = block {
            // OpenTofu's validate-walk GetResource: a repeated resource is
            // wholly unknown; a single one is unknown of its schema's type,
            // attribute by attribute where the schema marks some.
            let v = match kind {
                RepeatKind::Single if block.contains_sensitive() || block.contains_deprecated() => {
                    marked(&addrs::InstanceKey::None, &block.unknown_value())
                }
                RepeatKind::Single => Value::unknown(block.implied_type()),
                _ => Value::dynamic(),
            };
            return (v, Diagnostics::new());
        }
        let ty = crate::resources::resource_value_type(&addr.type_name);
        (unknown_resource_value(ty, kind), Diagnostics::new())
    }

    fn get_local_value(&self, addr: &LocalValue, _range: &Range) -> (Value, Diagnostics) {
        let v = self
            .state
            .values(&self.inst)
            .and_then(|v| v.locals.get(&addr.name))
            .cloned()
            .unwrap_or_else(Value::dynamic);
        (v, Diagnostics::new())
    }

    fn get_module(&self, addr: &ModuleCall, _range: &Range) -> (Value, Diagnostics) {
        let Some(call) = self.config.module.module_calls.get(&addr.name) else {
            return (Value::dynamic(), Diagnostics::new());
        };
        let Some(child) = self.config.children.get(&addr.name) else {
            return (Value::dynamic(), Diagnostics::new());
        };
        let kind = repeat_kind(&call.count, &call.for_each);
        if self.walk.mode == Mode::Validate {
            if kind == RepeatKind::Single && crate::deprecation::has_deprecated_outputs(child) {
                let inst = self.inst.child(&addr.name, addrs::InstanceKey::None);
                let v = crate::deprecation::validate_module_value(child, &inst);
                return (v, Diagnostics::new());
            }
            let attrs: BTreeMap<String, Type> = child
                .module
                .outputs
                .keys()
                .map(|k| (k.clone(), Type::Dynamic))
                .collect();
            return (
                unknown_resource_value(Type::object(attrs), kind),
                Diagnostics::new(),
            );
        }
        let Some(cs) = self
            .state
            .values(&self.inst)
            .and_then(|v| v.calls.get(&addr.name))
        else {
            return (Value::dynamic(), Diagnostics::new());
        };
        let instances = cs.keys.iter().map(|key| {
            let child_inst = self.inst.child(&addr.name, key.clone());
            let values = self.state.values(&child_inst);
            let outputs: BTreeMap<String, Value> = child
                .module
                .outputs
                .keys()
                .map(|name| {
                    let v = values
                        .and_then(|v| v.outputs.get(name))
                        .cloned()
                        .unwrap_or_else(Value::dynamic);
                    (name.clone(), v)
                })
                .collect();
            let outputs = Value::object(outputs);
            let outputs = crate::deprecation::mark_outputs(child, &child_inst, outputs);
            (key.clone(), outputs)
        });
        (assemble(cs.kind, instances), Diagnostics::new())
    }

    fn get_path_attr(&self, addr: &PathAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "cwd" => (Value::string(&self.walk.cwd), Diagnostics::new()),
            "module" => (
                Value::string(self.walk.module_dir(self.config)),
                Diagnostics::new(),
            ),
            "root" => (Value::string("."), Diagnostics::new()),
            other => {
                let sugg = suggestion(other, ["cwd", "module", "root"].into_iter());
                (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Invalid \"path\" attribute",
                        format!(
                            "The \"path\" object does not have an attribute named {}.{sugg}",
                            quote(other)
                        ),
                        range.clone(),
                    )],
                )
            }
        }
    }

    fn get_terraform_attr(&self, addr: &TerraformAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "workspace" => (Value::string(&self.walk.workspace), Diagnostics::new()),
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
                    format!("The \"terraform\" object does not have an attribute named {}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.", quote(other)),
                    range.clone(),
                )],
            ),
        }
    }

    fn get_input_variable(&self, addr: &InputVariable, _range: &Range) -> (Value, Diagnostics) {
        let Some(decl) = self.config.module.variables.get(&addr.name) else {
            return (Value::dynamic(), Diagnostics::new());
        };
        let mut v = match self.walk.mode {
            Mode::Validate => None,
            Mode::Plan | Mode::Eval => self
                .state
                .values(&self.inst)
                .and_then(|v| v.variables.get(&addr.name))
                .cloned(),
        }
        .unwrap_or_else(|| Value::unknown(decl.ty.clone().unwrap_or(Type::Dynamic)));
        if decl.sensitive {
            v = v.mark(Mark::Sensitive);
        }
        if decl.ephemeral {
            v = v.mark(Mark::Ephemeral);
        }
        (v, Diagnostics::new())
    }
}

impl InstanceData<'_> {
    fn check_call(&self, name: &str, rng: Range, diags: &mut Diagnostics) {
        let m = &self.config.module;
        if m.module_calls.contains_key(name) {
            return;
        }
        let sugg = suggestion(name, m.module_calls.keys().map(String::as_str));
        diags.push(Diagnostic::error(
            "Reference to undeclared module",
            format!(
                "No module call named {} is declared in {}.{sugg}",
                quote(name),
                self.module_display()
            ),
            rng,
        ));
    }

    fn check_resource(
        &self,
        res: &Resource,
        source: Option<&Referenceable>,
        remaining: &[hclsyntax::ast::TraversalStep],
        rng: Range,
        diags: &mut Diagnostics,
    ) {
        let Some(declared) = self.config.module.resource(res) else {
            diags.push(Diagnostic::error(
                "Reference to undeclared resource",
                format!(
                    "There is no {} resource {} {} definition in {}.{}",
                    mode_adjective(res.mode),
                    quote(&res.type_name),
                    quote(&res.name),
                    self.module_display(),
                    other_mode_suggestion(&self.config.module, res)
                ),
                rng,
            ));
            return;
        };
        if let Some(check) = &declared.container_check {
            let from_its_check =
                matches!(source, Some(Referenceable::Check(c)) if &c.name == check);
            if !from_its_check {
                diags.push(Diagnostic::error(
                    "Reference to scoped resource",
                    format!(
                        "The referenced {} resource {} {} is not available from this context.",
                        mode_adjective(res.mode),
                        quote(&res.type_name),
                        quote(&res.name)
                    ),
                    rng.clone(),
                ));
            }
        }
        let self_ref = match source {
            Some(Referenceable::Resource(s)) => s == res,
            Some(Referenceable::ResourceInstance(s)) => &s.resource == res,
            _ => false,
        };
        if self_ref {
            diags.push(Diagnostic::error(
                "Self-referential block",
                format!("Configuration for {res} may not refer to itself."),
                rng.clone(),
            ));
        }
        self.check_resource_schema(declared, res, remaining, rng, diags);
    }

    /// The rest of `staticValidateResourceReference`, where the provider's
    /// schema is known: the type exists and the traversal names something
    /// it has.
    fn check_resource_schema(
        &self,
        declared: &configs::resource::Resource,
        res: &Resource,
        remaining: &[hclsyntax::ast::TraversalStep],
        rng: Range,
        diags: &mut Diagnostics,
    ) {
        let provider = super::schema_checks::resource_provider(self.config, declared).0;
        let schema = match self
            .walk
            .schemas
            .resource_type(&provider, res.mode, &res.type_name)
        {
            None => return,
            Some(None) => {
                diags.push(Diagnostic::error(
                    "Invalid resource type",
                    format!(
                        "The {} resource type {} is not supported by provider {}.",
                        mode_adjective(res.mode),
                        quote(&res.type_name),
                        quote(&provider.to_string())
                    ),
                    rng,
                ));
                return;
            }
            Some(Some(schema)) => schema,
        };
        if let Some(hclsyntax::ast::StepKind::Attr(name)) = remaining.first().map(|s| &s.kind) {
            if name == "count" {
                diags.push(Diagnostic::error(
                    "Invalid resource count attribute",
                    format!("The special \"count\" attribute is no longer supported after OpenTofu v0.12. Instead, use length({res}) to count resource instances."),
                    rng,
                ));
                return;
            }
        }
        let empty = configschema::Block::default();
        let block = schema.block.as_ref().unwrap_or(&empty);
        diags.extend(
            crate::resources::validate_traversal::static_validate_traversal(block, remaining),
        );
    }
}

/// OpenTofu's `candidateSuggestion`: the one hint for an undeclared
/// resource is a block of another mode with the same type and name (the
/// `data.` or `ephemeral.` prefix forgotten, or added by mistake); other
/// modes are tried in OpenTofu's order.
fn other_mode_suggestion(module: &configs::module::Module, res: &Resource) -> String {
    use addrs::ResourceMode::{Data, Ephemeral, Managed};
    let others = match res.mode {
        Managed => [Data, Ephemeral],
        Data => [Managed, Ephemeral],
        Ephemeral => [Managed, Data],
    };
    others
        .into_iter()
        .map(|mode| Resource {
            mode,
            ..res.clone()
        })
        .find(|candidate| module.resource(candidate).is_some())
        .map(|candidate| {
            let block = match candidate.mode {
                Managed => "resource",
                Data => "data",
                Ephemeral => "ephemeral",
            };
            format!("\n\nDid you mean the {block} resource {candidate}?")
        })
        .unwrap_or_default()
}

/// `managed`, `data` or `ephemeral`: how OpenTofu's reference checks name a
/// resource's mode.
fn mode_adjective(mode: addrs::ResourceMode) -> &'static str {
    match mode {
        addrs::ResourceMode::Managed => "managed",
        addrs::ResourceMode::Data => "data",
        addrs::ResourceMode::Ephemeral => "ephemeral",
    }
}
