//! `provisioner` and `connection` blocks inside resources (and destroy-time
//! provisioners inside `removed` blocks).

use hclsyntax::{Block, BodySchema, Diagnostic, Diagnostics, Range, StepKind};

use crate::compat_shim::shim_keyword;
use crate::merged_body::{union_bodies, ConfigBody};

/// When a provisioner runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProvisionerWhen {
    Create,
    Destroy,
}

/// What a failing provisioner does to the apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProvisionerOnFailure {
    Continue,
    Fail,
}

/// A `connection` block: its body is decoded later, by the provisioner.
#[derive(Debug, Clone)]
pub struct Connection {
    pub config: ConfigBody,
    pub decl_range: Range,
}

/// A `provisioner "type"` block.
#[derive(Debug, Clone)]
pub struct Provisioner {
    pub type_name: String,
    /// The provisioner's own arguments (everything but the meta-arguments).
    pub config: ConfigBody,
    pub connection: Option<Connection>,
    pub when: ProvisionerWhen,
    pub on_failure: ProvisionerOnFailure,
    pub decl_range: Range,
    pub type_range: Range,
}

fn provisioner_schema() -> BodySchema {
    BodySchema::new(
        &["when", "on_failure"],
        &[("_", &[]), ("connection", &[]), ("lifecycle", &[])],
    )
}

/// Decodes a `provisioner` block. Removed vendor provisioners give an
/// error and no provisioner.
pub fn decode_provisioner_block(block: &Block) -> (Option<Provisioner>, Diagnostics) {
    let type_label = &block.labels[0];
    let (content, remain, mut diags) = block.body.partial_content(&provisioner_schema());
    let mut pv = Provisioner {
        type_name: type_label.value.clone(),
        config: ConfigBody::Single(remain),
        connection: None,
        when: ProvisionerWhen::Create,
        on_failure: ProvisionerOnFailure::Fail,
        decl_range: block.def_range(),
        type_range: type_label.range.clone(),
    };

    if matches!(
        pv.type_name.as_str(),
        "chef" | "habitat" | "puppet" | "salt-masterless"
    ) {
        diags.push(Diagnostic::error(
            format!("The \"{}\" provisioner has been removed", pv.type_name),
            format!(
                "The \"{}\" provisioner is deprecated and has been removed from OpenTofu.",
                pv.type_name
            ),
            pv.type_range.clone(),
        ));
        return (None, diags);
    }

    if let Some(attr) = content.attribute("when") {
        let (kw, range, more) = shim_keyword(&attr.expr);
        diags.extend(more);
        match kw.as_deref() {
            Some("create") => pv.when = ProvisionerWhen::Create,
            Some("destroy") => pv.when = ProvisionerWhen::Destroy,
            _ => diags.push(Diagnostic::error(
                "Invalid \"when\" keyword",
                "The \"when\" argument requires one of the following keywords: create or destroy.",
                range,
            )),
        }
    }

    // Destroy-time provisioners may refer only to their own resource.
    if pv.when == ProvisionerWhen::Destroy {
        diags.extend(only_self_refs(&pv.config));
    }

    if let Some(attr) = content.attribute("on_failure") {
        let (kw, _, more) = shim_keyword(&attr.expr);
        diags.extend(more);
        match kw.as_deref() {
            Some("continue") => pv.on_failure = ProvisionerOnFailure::Continue,
            Some("fail") => pv.on_failure = ProvisionerOnFailure::Fail,
            _ => diags.push(Diagnostic::error(
                "Invalid \"on_failure\" keyword",
                "The \"on_failure\" argument requires one of the following keywords: continue or fail.",
                attr.expr.range.clone(),
            )),
        }
    }

    let mut seen_connection: Option<Range> = None;
    let mut seen_escape: Option<Range> = None;
    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "_" => {
                if let Some(first) = &seen_escape {
                    diags.push(Diagnostic::error(
                        "Duplicate escaping block",
                        format!("The special block type \"_\" can be used to force particular arguments to be interpreted as provisioner-typpe-specific rather than as meta-arguments, but each provisioner block can have only one such block. The first escaping block was at {first}."),
                        inner.def_range(),
                    ));
                    continue;
                }
                seen_escape = Some(inner.def_range());
                pv.config = union_bodies(vec![
                    pv.config.clone(),
                    ConfigBody::Single(inner.body.clone()),
                ]);
            }
            "connection" => {
                if let Some(first) = &seen_connection {
                    diags.push(Diagnostic::error(
                        "Duplicate connection block",
                        format!("This provisioner already has a connection block at {first}."),
                        inner.def_range(),
                    ));
                    continue;
                }
                seen_connection = Some(inner.def_range());
                let config = ConfigBody::Single(inner.body.clone());
                if pv.when == ProvisionerWhen::Destroy {
                    diags.extend(only_self_refs(&config));
                }
                pv.connection = Some(Connection {
                    config,
                    decl_range: inner.def_range(),
                });
            }
            _ => diags.push(Diagnostic::error(
                "Reserved block type name in provisioner block",
                format!(
                    "The block type name \"{}\" is reserved for use by OpenTofu in a future version.",
                    inner.type_name
                ),
                inner.type_range.clone(),
            )),
        }
    }

    (Some(pv), diags)
}

/// Errors for references a destroy-time provisioner (or its connection)
/// may not make: anything but `self`, `count.index`, `each.key`, `path`,
/// `terraform` and `tofu`.
pub fn only_self_refs(body: &ConfigBody) -> Diagnostics {
    let mut diags = Diagnostics::new();
    // Provisioners take no nested blocks, so arguments are all there is.
    let (attrs, _) = body.just_attributes();
    for attr in attrs {
        for v in attr.expr.variables() {
            let single_attr = |name: &str| matches!(v.steps.as_slice(), [s] if s.kind == StepKind::Attr(name.to_string()));
            let valid = match v.root.as_str() {
                "self" | "path" | "terraform" | "tofu" => true,
                "count" => single_attr("index"),
                "each" => single_attr("key"),
                _ => false,
            };
            if !valid {
                diags.push(Diagnostic::error(
                    "Invalid reference from destroy provisioner",
                    "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
                    attr.expr.range.clone(),
                ));
            }
        }
    }
    diags
}
