//! The mocking blocks of test files (`test_file.go`): `override_resource`,
//! `override_data` and `override_module` (fixed values instead of real
//! objects) and `mock_provider` with its `mock_resource` / `mock_data`
//! blocks, with OpenTofu's decode errors and duplicate checks.

use std::sync::Arc;

use hclsyntax::static_expr::abs_traversal;
use hclsyntax::{
    has_errors, Attribute, Block, BodySchema, Diagnostic, Diagnostics, Range, Traversal,
};

use crate::decode_value::decode_string;
use crate::named_values::BAD_IDENTIFIER_DETAIL;
use crate::provider_ref::check_provider_name_normalized;
use crate::resource::ResourceMode;

/// An `override_resource` or `override_data` block.
#[derive(Debug, Clone)]
pub struct OverrideResource {
    pub mode: ResourceMode,
    pub target: Option<Traversal>,
    /// The target as `module.a.type.name` (or `...data.type.name`).
    pub target_parsed: Option<String>,
    pub values: Option<Arc<Attribute>>,
}

impl OverrideResource {
    fn block_name(&self) -> &'static str {
        match self.mode {
            ResourceMode::Data => "override_data",
            _ => "override_resource",
        }
    }
}

/// An `override_module` block.
#[derive(Debug, Clone)]
pub struct OverrideModule {
    pub target: Option<Traversal>,
    /// The target module path (`module.a.module.b`).
    pub target_parsed: Option<String>,
    pub outputs: Option<Arc<Attribute>>,
}

/// A `mock_provider` block.
#[derive(Debug, Clone)]
pub struct MockProvider {
    pub name: String,
    pub name_range: Range,
    pub alias: String,
    pub alias_range: Option<Range>,
    pub decl_range: Range,
    pub for_each: Option<hclsyntax::Expr>,
    pub mock_resources: Vec<MockResource>,
    pub override_resources: Vec<OverrideResource>,
}

impl MockProvider {
    /// `name` or `name.alias`: the key of [`crate::test_file::TestFile::mock_providers`].
    pub fn addr(&self) -> addrs::LocalProviderConfig {
        addrs::LocalProviderConfig::new(&self.name, &self.alias)
    }
}

/// A `mock_resource` or `mock_data` block.
#[derive(Debug, Clone)]
pub struct MockResource {
    pub mode: ResourceMode,
    pub type_name: String,
    pub defaults: Option<Arc<Attribute>>,
}

impl MockResource {
    fn block_name(&self) -> &'static str {
        match self.mode {
            ResourceMode::Data => "mock_data",
            _ => "mock_resource",
        }
    }
}

/// A target traversal as a resource address in a module
/// (`addrs.ParseConfigResource`): `module.a.` steps, then `type.name` or
/// `data.type.name`.
fn parse_config_resource(t: &Traversal) -> Result<String, Diagnostics> {
    let mut names: Vec<String> = vec![t.root.clone()];
    for s in &t.steps {
        match &s.kind {
            hclsyntax::StepKind::Attr(n) => names.push(n.clone()),
            hclsyntax::StepKind::Index(_) => {
                return Err(vec![Diagnostic::error(
                    "Invalid address",
                    "Resource instance keys not allowed here.",
                    s.range.clone(),
                )])
            }
        }
    }
    let mut i = 0;
    let mut path = Vec::new();
    while names.get(i).map(String::as_str) == Some("module") && names.len() > i + 1 {
        path.push(format!("module.{}", names[i + 1]));
        i += 2;
    }
    let rest = &names[i..];
    let resource = match rest {
        [data, ty, name] if data == "data" => format!("data.{ty}.{name}"),
        [ty, name] => format!("{ty}.{name}"),
        _ => {
            return Err(vec![Diagnostic::error(
                "Invalid address",
                "Resource specification must include a resource type and name.",
                t.range(),
            )])
        }
    };
    path.push(resource);
    Ok(path.join("."))
}

/// A target traversal as a module path (`addrs.ParseModule`).
fn parse_module_path(t: &Traversal) -> Result<String, Diagnostics> {
    let mut names: Vec<String> = vec![t.root.clone()];
    for s in &t.steps {
        match &s.kind {
            hclsyntax::StepKind::Attr(n) => names.push(n.clone()),
            hclsyntax::StepKind::Index(_) => {
                return Err(vec![Diagnostic::error(
                    "Module instance keys not allowed",
                    "Module address must be a module (e.g. \"module.foo\"), not a module instance (e.g. \"module.foo[1]\").",
                    s.range.clone(),
                )])
            }
        }
    }
    if !names.len().is_multiple_of(2) || names.chunks(2).any(|c| c[0] != "module") {
        return Err(vec![Diagnostic::error(
            "Invalid address operator",
            "Module address prefix must be followed by dot and then a name.",
            t.range(),
        )]);
    }
    Ok(names
        .chunks(2)
        .map(|c| format!("module.{}", c[1]))
        .collect::<Vec<_>>()
        .join("."))
}

/// `parseObjectAttrWithNoVariables`: the attribute must be a constant
/// object.
fn check_constant_object(attr: &Attribute) -> Diagnostics {
    let (val, mut diags) = lang::eval_expr(&attr.expr, &lang::EvalContext::empty());
    if has_errors(&diags) {
        return diags;
    }
    if !val.ty().is_object() {
        diags.push(Diagnostic::error(
            "Object expected",
            format!("The attribute `{}` must be an object.", attr.name),
            attr.range.clone(),
        ));
    }
    diags
}

pub(crate) fn decode_override_resource_block(block: &Block) -> (OverrideResource, Diagnostics) {
    let mode = if block.type_name == "override_data" {
        ResourceMode::Data
    } else {
        ResourceMode::Managed
    };
    let schema = BodySchema::new(&["target", "values"], &[]).require(&["target"]);
    let (content, mut diags) = block.body.content(&schema);
    let mut res = OverrideResource {
        mode,
        target: None,
        target_parsed: None,
        values: None,
    };
    if let Some(attr) = content.attribute("target") {
        match abs_traversal(&attr.expr) {
            Ok(t) => match parse_config_resource(&t) {
                Ok(p) => {
                    res.target = Some(t);
                    res.target_parsed = Some(p);
                }
                Err(more) => diags.extend(more),
            },
            Err(more) => diags.extend(more),
        }
    }
    if let Some(attr) = content.attribute("values") {
        diags.extend(check_constant_object(attr));
        res.values = Some(attr.clone());
    }
    (res, diags)
}

pub(crate) fn decode_override_module_block(block: &Block) -> (OverrideModule, Diagnostics) {
    let schema = BodySchema::new(&["target", "outputs"], &[]).require(&["target"]);
    let (content, mut diags) = block.body.content(&schema);
    let mut m = OverrideModule {
        target: None,
        target_parsed: None,
        outputs: None,
    };
    if let Some(attr) = content.attribute("target") {
        match abs_traversal(&attr.expr) {
            Ok(t) => match parse_module_path(&t) {
                Ok(p) => {
                    m.target = Some(t);
                    m.target_parsed = Some(p);
                }
                Err(more) => diags.extend(more),
            },
            Err(more) => diags.extend(more),
        }
    }
    if let Some(attr) = content.attribute("outputs") {
        diags.extend(check_constant_object(attr));
        m.outputs = Some(attr.clone());
    }
    (m, diags)
}

pub(crate) fn decode_mock_provider_block(block: &Block) -> (Option<MockProvider>, Diagnostics) {
    let schema = BodySchema::new(
        &["alias", "for_each"],
        &[
            ("mock_resource", &["type"]),
            ("mock_data", &["type"]),
            ("override_resource", &[]),
            ("override_data", &[]),
        ],
    );
    let (content, mut diags) = block.body.content(&schema);
    let Some(label) = block.labels.first() else {
        return (None, diags);
    };
    let name_diags = check_provider_name_normalized(&label.value, &block.def_range());
    let bad_name = has_errors(&name_diags);
    diags.extend(name_diags);
    if bad_name {
        return (None, diags);
    }
    let mut p = MockProvider {
        name: label.value.clone(),
        name_range: label.range.clone(),
        alias: String::new(),
        alias_range: None,
        decl_range: block.def_range(),
        for_each: None,
        mock_resources: Vec::new(),
        override_resources: Vec::new(),
    };
    if let Some(attr) = content.attribute("alias") {
        match decode_string(&attr.expr) {
            Ok(a) => p.alias = a,
            Err(more) => diags.extend(more),
        }
        p.alias_range = Some(attr.expr.range.clone());
        if !hclsyntax::valid_identifier(&p.alias) {
            diags.push(Diagnostic::error(
                "Invalid mock provider configuration alias",
                format!("An alias must be a valid name. {BAD_IDENTIFIER_DETAIL}"),
                attr.expr.range.clone(),
            ));
        }
    }
    if let Some(attr) = content.attribute("for_each") {
        p.for_each = Some(attr.expr.clone());
        if p.alias.is_empty() {
            diags.push(Diagnostic::error(
                "Alias required when using \"for_each\"",
                "The for_each argument is allowed only for provider configurations with an alias.",
                attr.expr.range.clone(),
            ));
        }
    }
    for b in &content.blocks {
        match b.type_name.as_str() {
            "mock_resource" | "mock_data" => {
                let mode = if b.type_name == "mock_data" {
                    ResourceMode::Data
                } else {
                    ResourceMode::Managed
                };
                let (c, more) = b.body.content(&BodySchema::new(&["defaults"], &[]));
                let mut failed = has_errors(&more);
                diags.extend(more);
                let defaults = c.attribute("defaults").cloned();
                if let Some(attr) = &defaults {
                    let more = check_constant_object(attr);
                    failed |= has_errors(&more);
                    diags.extend(more);
                }
                if !failed {
                    p.mock_resources.push(MockResource {
                        mode,
                        type_name: b
                            .labels
                            .first()
                            .map(|l| l.value.clone())
                            .unwrap_or_default(),
                        defaults,
                    });
                }
            }
            "override_resource" | "override_data" => {
                let (o, more) = decode_override_resource_block(b);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    p.override_resources.push(o);
                }
            }
            _ => {}
        }
    }

    // validateMockResources and validateOverrideResources.
    let mut seen: Vec<(ResourceMode, &str)> = Vec::new();
    for r in &p.mock_resources {
        if seen.contains(&(r.mode, r.type_name.as_str())) {
            diags.push(Diagnostic::error(
                format!("Duplicated `{}` block", r.block_name()),
                format!(
                    "`{}.{}` is already defined in `mock_provider` block.",
                    r.block_name(),
                    r.type_name
                ),
                p.decl_range.clone(),
            ));
            continue;
        }
        seen.push((r.mode, &r.type_name));
    }
    let mut seen: Vec<&str> = Vec::new();
    for r in &p.override_resources {
        let k = r.target_parsed.as_deref().unwrap_or_default();
        if seen.contains(&k) {
            diags.push(Diagnostic::error(
                format!("Duplicated `{}` block", r.block_name()),
                format!(
                    "`{}` with target `{k}` is already defined in `mock_provider` block.",
                    r.block_name()
                ),
                p.decl_range.clone(),
            ));
            continue;
        }
        seen.push(k);
    }
    (Some(p), diags)
}

pub(crate) fn duplicated_override_resources(resources: &[OverrideResource]) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let mut seen: Vec<&str> = Vec::new();
    for r in resources {
        let k = r.target_parsed.as_deref().unwrap_or_default();
        if seen.contains(&k) {
            let subject = r
                .target
                .as_ref()
                .map(Traversal::range)
                .expect("a decoded override block has a target");
            diags.push(Diagnostic::error(
                format!("Duplicated `{}` block", r.block_name()),
                format!(
                    "It is not allowed to have multiple `{}` blocks with the same target: `{k}`.",
                    r.block_name()
                ),
                subject,
            ));
            continue;
        }
        seen.push(k);
    }
    diags
}

pub(crate) fn duplicated_override_modules(modules: &[OverrideModule]) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let mut seen: Vec<&str> = Vec::new();
    for m in modules {
        let k = m.target_parsed.as_deref().unwrap_or_default();
        if seen.contains(&k) {
            let subject = m
                .target
                .as_ref()
                .map(Traversal::range)
                .expect("a decoded override block has a target");
            diags.push(Diagnostic::error(
                "Duplicated `override_module` block",
                format!("It is not allowed to have multiple `override_module` blocks with the same target: `{k}`."),
                subject,
            ));
            continue;
        }
        seen.push(k);
    }
    diags
}
