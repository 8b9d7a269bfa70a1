//! The plan document `tofu show -json` prints (OpenTofu's
//! `internal/command/jsonplan`), for the plans plan-lite makes: members in
//! Go's struct order, maps sorted by key, `omitempty` where jsonplan has it,
//! values as cty JSON with unknowns left out of `after` and described by
//! `after_unknown`, sensitive values described by `after_sensitive`.

use std::collections::BTreeMap;

use crate::plans::{Action, OutputChange, Plan, ResourceInstanceChange};
use addrs::{InstanceKey, ModuleInstance, ResourceMode};
use configs::config::Config;
use cty::Value;

use super::config_json;
use super::jsonw::{Json, ObjectBuilder};
use super::values::{known_parts, marshal_known, sensitive_as_bool, unknown_as_bool};

/// jsonplan's `FormatVersion`.
pub const FORMAT_VERSION: &str = "1.2";

/// What the document says about the run rather than the plan.
pub struct DocumentInfo<'a> {
    /// `terraform_version`: the version of the tool that planned.
    pub version: &'a str,
    /// `timestamp`: when the plan was made, RFC 3339 in UTC.
    pub timestamp: &'a str,
    /// `errored`: whether planning stopped on an error.
    pub errored: bool,
}

/// The whole plan document, compact, without a trailing newline (as
/// `json.Marshal`).
pub fn plan_document(plan: &Plan, config: &Config, info: &DocumentInfo<'_>) -> String {
    build_plan(plan, config, info, Leaves::Compact).to_compact()
}

/// The plan document as a JSON tree.
pub fn plan_json(plan: &Plan, config: &Config, info: &DocumentInfo<'_>) -> Json {
    build_plan(plan, config, info, Leaves::Tree)
}

/// How each resource instance's entries are held while the document is
/// built: as trees (to inspect them), or already written out, so that a
/// plan of many thousands of instances never holds all their trees at once.
#[derive(Clone, Copy)]
enum Leaves {
    Tree,
    Compact,
}

impl Leaves {
    fn hold(self, j: Json) -> Json {
        match self {
            Leaves::Tree => j,
            Leaves::Compact => Json::Raw(j.to_compact()),
        }
    }
}

fn build_plan(plan: &Plan, config: &Config, info: &DocumentInfo<'_>, leaves: Leaves) -> Json {
    ObjectBuilder::new()
        .field("format_version", Json::str(FORMAT_VERSION))
        .nonempty_str("terraform_version", info.version)
        .nonempty("variables", variables_json(&plan.variables))
        .field("planned_values", planned_values_json(plan, leaves))
        .nonempty("resource_changes", resource_changes_json(plan, leaves))
        .nonempty("output_changes", output_changes_json(plan))
        .opt("prior_state", prior_state_json(plan, info.version))
        .field("configuration", config_json::configuration(config))
        .nonempty_str("timestamp", info.timestamp)
        .field("errored", Json::Bool(info.errored))
        .build()
}

/// `prior_state`: the state the plan starts from. Nothing exists yet, but
/// planning records the root outputs it can already know (wholly known,
/// not null), as OpenTofu's plan does; with none the state is empty and
/// the member is left out.
fn prior_state_json(plan: &Plan, version: &str) -> Option<Json> {
    let outputs: Vec<(String, Json)> = plan
        .output_changes
        .values()
        .filter(|oc| !oc.after.is_null())
        .filter_map(|oc| {
            let value = marshal_known(&oc.after)?;
            let out = ObjectBuilder::new()
                .field("sensitive", Json::Bool(oc.sensitive))
                .field("value", value)
                .field("type", Json::Raw(cty::json::marshal_type(oc.after.ty())))
                .build();
            Some((oc.name.clone(), out))
        })
        .collect();
    if outputs.is_empty() {
        return None;
    }
    let values = ObjectBuilder::new()
        .field("outputs", Json::Object(outputs))
        .field("root_module", Json::empty_object())
        .build();
    Some(
        ObjectBuilder::new()
            .field("format_version", Json::str("1.0"))
            .nonempty_str("terraform_version", version)
            .field("values", values)
            .build(),
    )
}

/// `variables`: each root variable's value, in clear even when sensitive
/// (as OpenTofu writes it).
fn variables_json(vars: &BTreeMap<String, Value>) -> Json {
    Json::Object(
        vars.iter()
            .map(|(name, v)| {
                let value = marshal_known(v).or_else(|| known_parts(v));
                (
                    name.clone(),
                    ObjectBuilder::new().opt("value", value).build(),
                )
            })
            .collect(),
    )
}

/// `resource_changes`, in the plan's order (sorted by address). Deleting a
/// data resource is bookkeeping that jsonplan hides.
fn resource_changes_json(plan: &Plan, leaves: Leaves) -> Json {
    Json::Array(
        plan.resource_changes
            .iter()
            .filter(|rc| {
                !(rc.addr.resource.resource.mode == ResourceMode::Data
                    && rc.action == Action::Delete)
            })
            .map(|rc| leaves.hold(resource_change_json(rc)))
            .collect(),
    )
}

fn resource_change_json(rc: &ResourceInstanceChange) -> Json {
    let res = &rc.addr.resource.resource;
    let module = if rc.addr.module.is_root() {
        String::new()
    } else {
        rc.addr.module.to_string()
    };
    ObjectBuilder::new()
        .field("address", Json::str(rc.addr.to_string()))
        .nonempty_str("module_address", &module)
        .field("mode", Json::str(mode_str(res.mode)))
        .field("type", Json::str(&res.type_name))
        .field("name", Json::str(&res.name))
        .opt("index", index_json(&rc.addr.resource.key))
        .field("provider_name", Json::str(rc.provider.to_string()))
        .field("change", resource_change_body(rc))
        .build()
}

/// The `change` object of a resource instance: for a wholly known `after`
/// the `after_unknown` is `{}`; otherwise the known parts and a map of the
/// unknown ones.
fn resource_change_body(rc: &ResourceInstanceChange) -> Json {
    let (after, after_unknown) = if rc.after.is_wholly_known() {
        (marshal_known(&rc.after), Json::empty_object())
    } else {
        (known_parts(&rc.after), unknown_as_bool(&rc.after))
    };
    ObjectBuilder::new()
        .field("actions", actions_json(rc.action))
        .opt("before", known_parts(&rc.before))
        .opt("after", after)
        .field("after_unknown", after_unknown)
        .field("before_sensitive", sensitive_as_bool(&rc.before))
        .field("after_sensitive", sensitive_as_bool(&rc.after))
        .build()
}

/// `output_changes`: by name; an output's sensitivity is one flag, so both
/// `before_sensitive` and `after_sensitive` repeat it.
pub fn output_changes_json(plan: &Plan) -> Json {
    Json::Object(
        plan.output_changes
            .values()
            .map(|oc| (oc.name.clone(), output_change_json(oc)))
            .collect(),
    )
}

fn output_change_json(oc: &OutputChange) -> Json {
    let (after, after_unknown) = if oc.after.is_wholly_known() {
        (marshal_known(&oc.after), Json::Bool(false))
    } else {
        (known_parts(&oc.after), unknown_as_bool(&oc.after))
    };
    ObjectBuilder::new()
        .field("actions", actions_json(oc.action))
        // Nothing exists before a plan-lite plan: the prior value is null.
        .field("before", Json::Null)
        .opt("after", after)
        .field("after_unknown", after_unknown)
        .field("before_sensitive", Json::Bool(oc.sensitive))
        .field("after_sensitive", Json::Bool(oc.sensitive))
        .build()
}

fn actions_json(action: Action) -> Json {
    Json::Array(
        action
            .json_actions()
            .iter()
            .map(|a| Json::str(*a))
            .collect(),
    )
}

fn mode_str(mode: ResourceMode) -> &'static str {
    match mode {
        ResourceMode::Managed => "managed",
        ResourceMode::Data => "data",
        ResourceMode::Ephemeral => "ephemeral",
    }
}

fn index_json(key: &InstanceKey) -> Option<Json> {
    match key {
        InstanceKey::None => None,
        InstanceKey::Int(i) => Some(Json::Number(i.to_string())),
        InstanceKey::String(s) => Some(Json::str(s)),
    }
}

/// `planned_values`: the outputs and the module tree of planned resource
/// values.
fn planned_values_json(plan: &Plan, leaves: Leaves) -> Json {
    ObjectBuilder::new()
        .nonempty("outputs", planned_outputs_json(plan))
        .field("root_module", planned_modules_json(plan, leaves))
        .build()
}

/// Each output's `sensitive` flag, and its type and value when wholly known.
fn planned_outputs_json(plan: &Plan) -> Json {
    Json::Object(
        plan.output_changes
            .values()
            .filter(|oc| oc.action != Action::Delete)
            .map(|oc| {
                let known = marshal_known(&oc.after);
                // The plan stores an output as a dynamically typed value,
                // and a null one keeps no type: `"dynamic"` whatever the
                // output's expression gave.
                let ty = known.as_ref().map(|_| {
                    if oc.after.is_null() {
                        Json::Raw("\"dynamic\"".into())
                    } else {
                        Json::Raw(cty::json::marshal_type(oc.after.ty()))
                    }
                });
                let out = ObjectBuilder::new()
                    .field("sensitive", Json::Bool(oc.sensitive))
                    .opt("type", ty)
                    .opt("value", known)
                    .build();
                (oc.name.clone(), out)
            })
            .collect(),
    )
}

/// One module instance of `planned_values`, under construction.
#[derive(Default)]
struct PlannedModule<'p> {
    resources: Vec<&'p ResourceInstanceChange>,
    children: BTreeMap<String, PlannedModule<'p>>,
}

/// The root module of `planned_values`: resources by address, and child
/// module instances (also those holding only further modules) by address.
fn planned_modules_json(plan: &Plan, leaves: Leaves) -> Json {
    let mut root = PlannedModule::default();
    for rc in &plan.resource_changes {
        if rc.action == Action::Delete {
            continue;
        }
        let mut node = &mut root;
        let steps = &rc.addr.module.0;
        for i in 1..=steps.len() {
            let addr = ModuleInstance(steps[..i].to_vec()).to_string();
            node = node.children.entry(addr).or_default();
        }
        node.resources.push(rc);
    }
    planned_module_json(&root, "", leaves)
}

fn planned_module_json(m: &PlannedModule<'_>, address: &str, leaves: Leaves) -> Json {
    let mut resources: Vec<(String, &ResourceInstanceChange)> = m
        .resources
        .iter()
        .map(|rc| (rc.addr.to_string(), *rc))
        .collect();
    // jsonplan sorts resources by their address text.
    resources.sort_by(|a, b| a.0.cmp(&b.0));
    let resources = Json::Array(
        resources
            .iter()
            .map(|(addr, rc)| leaves.hold(planned_resource_json(addr, rc)))
            .collect(),
    );
    let children = Json::Array(
        m.children
            .iter()
            .map(|(addr, child)| planned_module_json(child, addr, leaves))
            .collect(),
    );
    ObjectBuilder::new()
        .nonempty("resources", resources)
        .nonempty_str("address", address)
        .nonempty("child_modules", children)
        .build()
}

fn planned_resource_json(address: &str, rc: &ResourceInstanceChange) -> Json {
    let res = &rc.addr.resource.resource;
    // `values` holds the known attributes; a null object has none.
    let values = match known_parts(&rc.after) {
        Some(Json::Object(members)) => Json::Object(members),
        _ => Json::empty_object(),
    };
    ObjectBuilder::new()
        .field("address", Json::str(address))
        .field("mode", Json::str(mode_str(res.mode)))
        .field("type", Json::str(&res.type_name))
        .field("name", Json::str(&res.name))
        .opt("index", index_json(&rc.addr.resource.key))
        .field("provider_name", Json::str(rc.provider.to_string()))
        // Every resource type plan-lite knows is at schema version 0.
        .field("schema_version", Json::Number("0".into()))
        .nonempty("values", values)
        .field("sensitive_values", sensitive_as_bool(&rc.after))
        .build()
}
