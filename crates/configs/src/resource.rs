//! `resource`, `data` and `ephemeral` blocks: their meta-arguments
//! (`count`, `for_each`, `provider`, `depends_on`, `lifecycle`, ...), with
//! the rest of the body left for the provider's schema.

use hclsyntax::{
    valid_identifier, Block, BodySchema, Diagnostic, Diagnostics, Expr, Range, Traversal,
};

use crate::check_rule::{decode_check_rule_block, CheckRule};
use crate::decode_value::decode_bool;
use crate::depends_on::decode_depends_on;
use crate::merged_body::{merge_bodies, union_bodies, ConfigBody};
use crate::provider_ref::{decode_provider_config_ref, ProviderConfigRef};
use crate::provisioner::{
    decode_provisioner_block, only_self_refs, Connection, Provisioner, ProvisionerWhen,
};
use crate::resource_lifecycle::{
    decode_ignore_changes, decode_replace_triggered_by, repetition_conflict,
    validate_self_references,
};

pub use crate::named_values::BAD_IDENTIFIER_DETAIL;

/// Which kind of block declared a resource: the address's mode, one type
/// for configuration and addresses.
pub use addrs::ResourceMode;

/// A `resource`, `data` or `ephemeral` block.
#[derive(Debug, Clone)]
pub struct Resource {
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
    /// The resource type's own arguments (with an escaping block's merged
    /// in), decoded later against the provider's schema.
    pub config: ConfigBody,
    pub count: Option<Expr>,
    pub for_each: Option<Expr>,
    /// `lifecycle { enabled = ... }`.
    pub enabled: Option<Expr>,
    pub provider_config_ref: Option<ProviderConfigRef>,
    pub depends_on: Vec<Traversal>,
    pub triggers_replacement: Vec<Expr>,
    pub preconditions: Vec<CheckRule>,
    pub postconditions: Vec<CheckRule>,
    /// Present for managed resources only.
    pub managed: Option<ManagedResource>,
    /// Set for a data block nested in a `check` block (its name).
    pub container_check: Option<String>,
    /// The block header.
    pub decl_range: Range,
    /// The type label.
    pub type_range: Range,
}

/// What only managed resources have.
#[derive(Debug, Clone, Default)]
pub struct ManagedResource {
    pub connection: Option<Connection>,
    pub provisioners: Vec<Provisioner>,
    pub create_before_destroy: bool,
    pub create_before_destroy_set: bool,
    /// `prevent_destroy`, evaluated later (it may refer to variables).
    pub prevent_destroy: Option<Expr>,
    /// `destroy = false` removes from state without destroying.
    pub destroy: Option<Expr>,
    pub ignore_changes: Vec<Traversal>,
    pub ignore_all_changes: bool,
}

impl Resource {
    /// The resource's address within its module (`aws_instance.web`,
    /// `data.x.y`, `ephemeral.x.y`): the key of [`crate::Module::resources`].
    pub fn addr(&self) -> addrs::Resource {
        addrs::Resource {
            mode: self.mode,
            type_name: self.type_name.clone(),
            name: self.name.clone(),
        }
    }

    /// The local name of the provider this resource uses when no
    /// `provider` argument says otherwise: the type's prefix before `_`.
    pub fn implied_provider(&self) -> &str {
        match self.type_name.find('_') {
            Some(i) => &self.type_name[..i],
            None => &self.type_name,
        }
    }

    /// Applies an override file's version of this resource
    /// (`Resource.merge` of module_merge.go).
    pub fn merge(&mut self, over: &Resource) -> Diagnostics {
        let mut diags = Diagnostics::new();
        assert_eq!(
            self.mode, over.mode,
            "resources of different modes are kept apart and never merged"
        );
        if over.count.is_some() {
            self.count = over.count.clone();
        }
        if over.for_each.is_some() {
            self.for_each = over.for_each.clone();
        }
        if over.provider_config_ref.is_some() {
            self.provider_config_ref = over.provider_config_ref.clone();
        }
        if let (Some(m), Some(om)) = (self.managed.as_mut(), over.managed.as_ref()) {
            if om.connection.is_some() {
                m.connection = om.connection.clone();
            }
            if om.create_before_destroy_set {
                m.create_before_destroy = om.create_before_destroy;
                m.create_before_destroy_set = true;
            }
            if !om.ignore_changes.is_empty() {
                m.ignore_changes = om.ignore_changes.clone();
            }
            if om.ignore_all_changes {
                m.ignore_all_changes = true;
            }
            if om.prevent_destroy.is_some() {
                m.prevent_destroy = om.prevent_destroy.clone();
            }
            if om.destroy.is_some() {
                m.destroy = om.destroy.clone();
            }
            if !om.provisioners.is_empty() {
                m.provisioners = om.provisioners.clone();
            }
        }
        self.config = merge_bodies(&self.config, &over.config);
        if let Some(first) = over.depends_on.first() {
            diags.push(Diagnostic::error(
                "Unsupported override",
                "The depends_on argument may not be overridden.",
                first.range(),
            ));
        }
        diags
    }
}

fn common_attributes() -> [&'static str; 4] {
    ["count", "for_each", "provider", "depends_on"]
}

/// The meta-argument schema of `resource` and `ephemeral` blocks.
pub fn resource_block_schema() -> BodySchema {
    BodySchema::new(
        &common_attributes(),
        &[
            ("locals", &[]),
            ("lifecycle", &[]),
            ("connection", &[]),
            ("provisioner", &["type"]),
            ("_", &[]),
        ],
    )
}

fn data_block_schema() -> BodySchema {
    BodySchema::new(
        &common_attributes(),
        &[("lifecycle", &[]), ("locals", &[]), ("_", &[])],
    )
}

fn lifecycle_schema() -> BodySchema {
    // Accepted for all modes; the rules per mode are checked afterwards so
    // that the messages can be specific.
    BodySchema::new(
        &[
            "create_before_destroy",
            "prevent_destroy",
            "destroy",
            "ignore_changes",
            "replace_triggered_by",
            "enabled",
        ],
        &[("precondition", &[]), ("postcondition", &[])],
    )
}

fn new_resource(mode: ResourceMode, block: &Block, config: ConfigBody) -> Resource {
    Resource {
        mode,
        type_name: block.labels[0].value.clone(),
        name: block.labels[1].value.clone(),
        config,
        count: None,
        for_each: None,
        enabled: None,
        provider_config_ref: None,
        depends_on: Vec::new(),
        triggers_replacement: Vec::new(),
        preconditions: Vec::new(),
        postconditions: Vec::new(),
        managed: None,
        container_check: None,
        decl_range: block.def_range(),
        type_range: block.labels[0].range.clone(),
    }
}

fn check_names(block: &Block, type_summary: &str, name_summary: &str, diags: &mut Diagnostics) {
    for (label, summary) in block.labels.iter().zip([type_summary, name_summary]) {
        if !valid_identifier(&label.value) {
            diags.push(Diagnostic::error(
                summary,
                BAD_IDENTIFIER_DETAIL,
                label.range.clone(),
            ));
        }
    }
}

fn duplicate_escape(kind: &str, first: &Range, block: &Block) -> Diagnostic {
    Diagnostic::error(
        "Duplicate escaping block",
        format!("The special block type \"_\" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each {kind} block can have only one such block. The first escaping block was at {first}."),
        block.def_range(),
    )
}

fn reserved_block(kind: &str, block: &Block) -> Diagnostic {
    Diagnostic::error(
        format!("Reserved block type name in {kind} block"),
        format!(
            "The block type name \"{}\" is reserved for use by OpenTofu in a future version.",
            block.type_name
        ),
        block.type_range.clone(),
    )
}

fn duplicate_lifecycle(what: &str, first: &Range, block: &Block) -> Diagnostic {
    Diagnostic::error(
        "Duplicate lifecycle block",
        format!("This {what} already has a lifecycle block at {first}."),
        block.def_range(),
    )
}

/// Decodes `precondition`/`postcondition` blocks of a lifecycle block.
fn decode_conditions(
    r: &mut Resource,
    blocks: &[std::sync::Arc<Block>],
    override_file: bool,
    diags: &mut Diagnostics,
) {
    for block in blocks {
        let (rule, more) = decode_check_rule_block(block, override_file);
        diags.extend(more);
        diags.extend(validate_self_references(
            &rule,
            &block.type_name,
            r.mode,
            &r.type_name,
            &r.name,
        ));
        if block.type_name == "precondition" {
            r.preconditions.push(rule);
        } else {
            r.postconditions.push(rule);
        }
    }
}

/// Decodes a `resource "type" "name"` block.
pub fn decode_resource_block(block: &Block, override_file: bool) -> (Resource, Diagnostics) {
    let (content, remain, mut diags) = block.body.partial_content(&resource_block_schema());
    let mut r = new_resource(ResourceMode::Managed, block, ConfigBody::Single(remain));
    let mut managed = ManagedResource::default();
    check_names(
        block,
        "Invalid resource type name",
        "Invalid resource name",
        &mut diags,
    );

    let mut count_rng = None;
    let mut for_each_rng = None;
    let mut enabled_rng = None;
    if let Some(attr) = content.attribute("count") {
        r.count = Some(attr.expr.clone());
        count_rng = Some(attr.name_range.clone());
    }
    if let Some(attr) = content.attribute("for_each") {
        r.for_each = Some(attr.expr.clone());
        for_each_rng = Some(attr.name_range.clone());
    }
    if let Some(attr) = content.attribute("provider") {
        let (pref, more) = decode_provider_config_ref(&attr.expr, "provider");
        diags.extend(more);
        r.provider_config_ref = pref;
    }
    if let Some(attr) = content.attribute("depends_on") {
        let (deps, more) = decode_depends_on(attr);
        diags.extend(more);
        r.depends_on.extend(deps);
    }

    let mut seen_lifecycle: Option<Range> = None;
    let mut seen_connection: Option<Range> = None;
    let mut seen_escape: Option<Range> = None;
    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "lifecycle" => {
                if let Some(first) = &seen_lifecycle {
                    diags.push(duplicate_lifecycle("resource", first, inner));
                    continue;
                }
                seen_lifecycle = Some(inner.def_range());
                let (lc, more) = inner.body.content(&lifecycle_schema());
                diags.extend(more);
                if let Some(attr) = lc.attribute("create_before_destroy") {
                    match decode_bool(&attr.expr) {
                        Ok(b) => managed.create_before_destroy = b,
                        Err(more) => diags.extend(more),
                    }
                    managed.create_before_destroy_set = true;
                }
                if let Some(attr) = lc.attribute("enabled") {
                    r.enabled = Some(attr.expr.clone());
                    enabled_rng = Some(attr.name_range.clone());
                }
                if let Some(attr) = lc.attribute("prevent_destroy") {
                    managed.prevent_destroy = Some(attr.expr.clone());
                }
                if let Some(attr) = lc.attribute("destroy") {
                    managed.destroy = Some(attr.expr.clone());
                }
                if let Some(attr) = lc.attribute("replace_triggered_by") {
                    let (exprs, more) = decode_replace_triggered_by(&attr.expr);
                    diags.extend(more);
                    r.triggers_replacement.extend(exprs);
                }
                if let Some(attr) = lc.attribute("ignore_changes") {
                    let (ic, more) = decode_ignore_changes(attr);
                    diags.extend(more);
                    managed.ignore_all_changes |= ic.all;
                    managed.ignore_changes.extend(ic.paths);
                }
                decode_conditions(&mut r, &lc.blocks, override_file, &mut diags);
            }
            "connection" => {
                if let Some(first) = &seen_connection {
                    diags.push(Diagnostic::error(
                        "Duplicate connection block",
                        format!("This resource already has a connection block at {first}."),
                        inner.def_range(),
                    ));
                    continue;
                }
                seen_connection = Some(inner.def_range());
                managed.connection = Some(Connection {
                    config: ConfigBody::Single(inner.body.clone()),
                    decl_range: inner.def_range(),
                });
            }
            "provisioner" => {
                let (pv, more) = decode_provisioner_block(inner);
                diags.extend(more);
                managed.provisioners.extend(pv);
            }
            "_" => {
                if let Some(first) = &seen_escape {
                    diags.push(duplicate_escape("resource", first, inner));
                    continue;
                }
                seen_escape = Some(inner.def_range());
                r.config = union_bodies(vec![r.config, ConfigBody::Single(inner.body.clone())]);
            }
            _ => diags.push(reserved_block("resource", inner)),
        }
    }

    diags.extend(repetition_conflict(
        count_rng.as_ref(),
        enabled_rng.as_ref(),
        for_each_rng.as_ref(),
        "resources",
    ));

    // A destroy provisioner makes the resource's connection destroy-time too.
    if let Some(conn) = &managed.connection {
        if managed
            .provisioners
            .iter()
            .any(|p| p.when == ProvisionerWhen::Destroy)
        {
            diags.extend(only_self_refs(&conn.config));
        }
    }

    r.managed = Some(managed);
    (r, diags)
}

/// Decodes a `data "type" "name"` block; `nested_in_check` for the data
/// block of a `check` block, which may not repeat or have a lifecycle.
pub fn decode_data_block(
    block: &Block,
    override_file: bool,
    nested_in_check: bool,
) -> (Resource, Diagnostics) {
    let (content, remain, mut diags) = block.body.partial_content(&data_block_schema());
    let mut r = new_resource(ResourceMode::Data, block, ConfigBody::Single(remain));
    check_names(
        block,
        "Invalid data source name",
        "Invalid data resource name",
        &mut diags,
    );

    let mut count_rng = None;
    let mut for_each_rng = None;
    let mut enabled_rng = None;
    for (arg, slot, rng) in [
        ("count", &mut r.count, &mut count_rng),
        ("for_each", &mut r.for_each, &mut for_each_rng),
    ] {
        let Some(attr) = content.attribute(arg) else {
            continue;
        };
        if nested_in_check {
            diags.push(Diagnostic::error(
                format!("Invalid \"{arg}\" attribute"),
                format!("The \"{arg}\" meta-argument is not supported within nested data blocks."),
                attr.name_range.clone(),
            ));
        } else {
            *slot = Some(attr.expr.clone());
            *rng = Some(attr.name_range.clone());
        }
    }
    if let Some(attr) = content.attribute("provider") {
        let (pref, more) = decode_provider_config_ref(&attr.expr, "provider");
        diags.extend(more);
        r.provider_config_ref = pref;
    }
    if let Some(attr) = content.attribute("depends_on") {
        let (deps, more) = decode_depends_on(attr);
        diags.extend(more);
        r.depends_on.extend(deps);
    }

    let mut seen_lifecycle: Option<Range> = None;
    let mut seen_escape: Option<Range> = None;
    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "_" => {
                if let Some(first) = &seen_escape {
                    diags.push(duplicate_escape("data", first, inner));
                    continue;
                }
                seen_escape = Some(inner.def_range());
                r.config = union_bodies(vec![r.config, ConfigBody::Single(inner.body.clone())]);
            }
            "lifecycle" => {
                if nested_in_check {
                    diags.push(Diagnostic::error(
                        "Invalid lifecycle block",
                        "Nested data blocks do not support \"lifecycle\" blocks as the lifecycle is managed by the containing block.",
                        inner.def_range(),
                    ));
                }
                if let Some(first) = &seen_lifecycle {
                    diags.push(duplicate_lifecycle("resource", first, inner));
                    continue;
                }
                seen_lifecycle = Some(inner.def_range());
                let (lc, more) = inner.body.content(&lifecycle_schema());
                diags.extend(more);
                // Only `enabled` applies to data resources.
                for attr in &lc.attributes {
                    if attr.name == "enabled" {
                        r.enabled = Some(attr.expr.clone());
                        enabled_rng = Some(attr.name_range.clone());
                        continue;
                    }
                    diags.push(Diagnostic::error(
                        "Invalid data resource lifecycle argument",
                        format!("The lifecycle argument \"{}\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", attr.name),
                        attr.name_range.clone(),
                    ));
                }
                decode_conditions(&mut r, &lc.blocks, override_file, &mut diags);
            }
            _ => diags.push(reserved_block("data", inner)),
        }
    }

    diags.extend(repetition_conflict(
        count_rng.as_ref(),
        enabled_rng.as_ref(),
        for_each_rng.as_ref(),
        "data sources",
    ));
    (r, diags)
}

/// Decodes an `ephemeral "type" "name"` block.
pub fn decode_ephemeral_block(block: &Block, override_file: bool) -> (Resource, Diagnostics) {
    let (content, remain, mut diags) = block.body.partial_content(&resource_block_schema());
    let mut r = new_resource(ResourceMode::Ephemeral, block, ConfigBody::Single(remain));
    check_names(
        block,
        "Invalid ephemeral resource type name",
        "Invalid ephemeral resource name",
        &mut diags,
    );

    let mut count_rng = None;
    let mut for_each_rng = None;
    let mut enabled_rng = None;
    if let Some(attr) = content.attribute("count") {
        r.count = Some(attr.expr.clone());
        count_rng = Some(attr.name_range.clone());
    }
    if let Some(attr) = content.attribute("for_each") {
        r.for_each = Some(attr.expr.clone());
        for_each_rng = Some(attr.name_range.clone());
    }
    if let Some(attr) = content.attribute("provider") {
        let (pref, more) = decode_provider_config_ref(&attr.expr, "provider");
        diags.extend(more);
        r.provider_config_ref = pref;
    }
    if let Some(attr) = content.attribute("depends_on") {
        let (deps, more) = decode_depends_on(attr);
        diags.extend(more);
        r.depends_on.extend(deps);
    }

    let mut seen_lifecycle: Option<Range> = None;
    let mut seen_escape: Option<Range> = None;
    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "lifecycle" => {
                if let Some(first) = &seen_lifecycle {
                    diags.push(duplicate_lifecycle("ephemeral resource", first, inner));
                    continue;
                }
                seen_lifecycle = Some(inner.def_range());
                let (lc, more) = inner.body.content(&lifecycle_schema());
                diags.extend(more);
                for field in [
                    "create_before_destroy",
                    "destroy",
                    "prevent_destroy",
                    "replace_triggered_by",
                    "ignore_changes",
                ] {
                    if lc.attribute(field).is_some() {
                        diags.push(Diagnostic::error(
                            "Invalid lifecycle configuration for ephemeral resource",
                            format!("The lifecycle argument \"{field}\" cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks."),
                            inner.def_range(),
                        ));
                    }
                }
                if let Some(attr) = lc.attribute("enabled") {
                    r.enabled = Some(attr.expr.clone());
                    enabled_rng = Some(attr.name_range.clone());
                }
                decode_conditions(&mut r, &lc.blocks, override_file, &mut diags);
            }
            "connection" | "provisioner" => diags.push(Diagnostic::error(
                "Invalid configuration block for ephemeral resource",
                format!("The block type \"{}\" cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", inner.type_name),
                inner.def_range(),
            )),
            "_" => {
                if let Some(first) = &seen_escape {
                    diags.push(duplicate_escape("resource", first, inner));
                    continue;
                }
                seen_escape = Some(inner.def_range());
                r.config = union_bodies(vec![r.config, ConfigBody::Single(inner.body.clone())]);
            }
            _ => diags.push(reserved_block("ephemeral", inner)),
        }
    }

    diags.extend(repetition_conflict(
        count_rng.as_ref(),
        enabled_rng.as_ref(),
        for_each_rng.as_ref(),
        "ephemeral resources",
    ));
    (r, diags)
}

#[cfg(test)]
#[path = "resource_tests.rs"]
mod tests;
