//! Bodies assembled from several bodies: the arguments of a `_` escaping
//! block joined to the rest of a block (HCL's `hcl.MergeBodies`), and an
//! override file's block laid over the base block (OpenTofu's
//! `configs.MergeBodies`). Both answer the same questions as a single
//! [`Body`], so later decoding (against a provider schema) need not know.

use std::sync::Arc;

use hclsyntax::{
    Attribute, BlockHeaderSchema, Body, BodyContent, BodySchema, Diagnostic, Diagnostics, Range,
    Severity,
};

/// A block body as OpenTofu sees it after escaping blocks and overrides.
#[derive(Debug, Clone)]
pub enum ConfigBody {
    /// One body as written.
    Single(Body),
    /// All bodies contribute; an argument set in two of them is an error
    /// (`hcl.MergeBodies`).
    Union(Vec<ConfigBody>),
    /// `over`'s arguments replace `base`'s of the same name, and any block
    /// type present in `over` hides all of `base`'s blocks of that type
    /// (`configs.MergeBodies`).
    Override {
        base: Box<ConfigBody>,
        over: Box<ConfigBody>,
    },
}

impl From<Body> for ConfigBody {
    fn from(body: Body) -> Self {
        ConfigBody::Single(body)
    }
}

/// `hcl.MergeBodies`: the bodies contribute together.
pub fn union_bodies(bodies: Vec<ConfigBody>) -> ConfigBody {
    ConfigBody::Union(bodies)
}

/// `configs.MergeBodies`: `over` takes precedence over `base`.
pub fn merge_bodies(base: &ConfigBody, over: &ConfigBody) -> ConfigBody {
    ConfigBody::Override {
        base: Box::new(base.clone()),
        over: Box::new(over.clone()),
    }
}

impl ConfigBody {
    /// Decodes against `schema`, reporting anything the schema does not
    /// mention (except in override merges, which HCL decodes partially).
    pub fn content(&self, schema: &BodySchema) -> (BodyContent, Diagnostics) {
        match self {
            ConfigBody::Single(body) => body.content(schema),
            ConfigBody::Union(bodies) => {
                let (content, _, diags) = union_content(bodies, schema, false);
                (content, diags)
            }
            ConfigBody::Override { base, over } => {
                let (content, _, diags) = override_content(base, over, schema);
                (content, diags)
            }
        }
    }

    /// Decodes what `schema` mentions and returns the rest.
    pub fn partial_content(&self, schema: &BodySchema) -> (BodyContent, ConfigBody, Diagnostics) {
        match self {
            ConfigBody::Single(body) => {
                let (content, remain, diags) = body.partial_content(schema);
                (content, ConfigBody::Single(remain), diags)
            }
            ConfigBody::Union(bodies) => union_content(bodies, schema, true),
            ConfigBody::Override { base, over } => override_content(base, over, schema),
        }
    }

    /// Every argument, for bodies that hold no blocks.
    pub fn just_attributes(&self) -> (Vec<Arc<Attribute>>, Diagnostics) {
        match self {
            ConfigBody::Single(body) => body.just_attributes(),
            ConfigBody::Union(bodies) => {
                let mut diags = Diagnostics::new();
                let mut out: Vec<Arc<Attribute>> = Vec::new();
                for body in bodies {
                    let (attrs, more) = body.just_attributes();
                    diags.extend(more);
                    for attr in attrs {
                        add_unique(&mut out, attr, &mut diags);
                    }
                }
                (out, diags)
            }
            ConfigBody::Override { base, over } => {
                let (mut out, mut diags) = base.just_attributes();
                let (attrs, more) = over.just_attributes();
                diags.extend(more);
                for attr in attrs {
                    replace_or_push(&mut out, attr);
                }
                (out, diags)
            }
        }
    }

    /// Where a missing item is reported: the first (base) body's place.
    pub fn missing_item_range(&self) -> Option<Range> {
        match self {
            ConfigBody::Single(body) => Some(body.missing_item_range.clone()),
            ConfigBody::Union(bodies) => bodies.first().and_then(ConfigBody::missing_item_range),
            ConfigBody::Override { base, .. } => base.missing_item_range(),
        }
    }
}

fn union_content(
    bodies: &[ConfigBody],
    schema: &BodySchema,
    partial: bool,
) -> (BodyContent, ConfigBody, Diagnostics) {
    // Any one body may supply a required argument; they are checked once
    // all have contributed.
    let mut merged_schema = schema.clone();
    for a in &mut merged_schema.attributes {
        a.required = false;
    }
    let mut diags = Diagnostics::new();
    let mut attributes: Vec<Arc<Attribute>> = Vec::new();
    let mut blocks = Vec::new();
    let mut leftovers = Vec::new();
    for body in bodies {
        let content = if partial {
            let (content, remain, more) = body.partial_content(&merged_schema);
            leftovers.push(remain);
            diags.extend(more);
            content
        } else {
            let (content, more) = body.content(&merged_schema);
            diags.extend(more);
            content
        };
        for attr in content.attributes {
            add_unique(&mut attributes, attr, &mut diags);
        }
        blocks.extend(content.blocks);
    }
    for a in &schema.attributes {
        if a.required && !attributes.iter().any(|x| x.name == a.name) {
            diags.push(Diagnostic {
                severity: Severity::Error,
                summary: "Missing required argument".to_string(),
                detail: format!("The argument \"{}\" is required, but was not set.", a.name),
                subject: None,
                context: None,
            });
        }
    }
    let missing = bodies
        .first()
        .and_then(ConfigBody::missing_item_range)
        .unwrap_or_else(empty_range);
    let content = BodyContent {
        attributes,
        blocks,
        missing_item_range: missing,
    };
    (content, ConfigBody::Union(leftovers), diags)
}

fn override_content(
    base: &ConfigBody,
    over: &ConfigBody,
    schema: &BodySchema,
) -> (BodyContent, ConfigBody, Diagnostics) {
    let base_schema = schema_with_dynamic(schema);
    let mut over_schema = schema.clone();
    for a in &mut over_schema.attributes {
        a.required = false;
    }
    let over_schema = schema_with_dynamic(&over_schema);

    let (base_content, base_remain, mut diags) = base.partial_content(&base_schema);
    let (over_content, over_remain, more) = over.partial_content(&over_schema);
    diags.extend(more);

    let mut attributes = base_content.attributes;
    for attr in over_content.attributes {
        replace_or_push(&mut attributes, attr);
    }

    let overridden: Vec<&str> = over_content
        .blocks
        .iter()
        .map(|b| dynamic_type(b).unwrap_or(b.type_name.as_str()))
        .collect();
    let mut blocks: Vec<_> = base_content
        .blocks
        .iter()
        .filter(|b| !overridden.contains(&dynamic_type(b).unwrap_or(b.type_name.as_str())))
        .cloned()
        .collect();
    blocks.extend(over_content.blocks.iter().cloned());

    let content = BodyContent {
        attributes,
        blocks,
        missing_item_range: base_content.missing_item_range,
    };
    let remain = ConfigBody::Override {
        base: Box::new(base_remain),
        over: Box::new(over_remain),
    };
    (content, remain, diags)
}

/// The type a `dynamic "type"` block generates.
fn dynamic_type(block: &hclsyntax::Block) -> Option<&str> {
    if block.type_name == "dynamic" {
        block.labels.first().map(|l| l.value.as_str())
    } else {
        None
    }
}

fn schema_with_dynamic(schema: &BodySchema) -> BodySchema {
    let mut out = schema.clone();
    out.blocks.push(BlockHeaderSchema {
        type_name: "dynamic".into(),
        label_names: &["type"],
    });
    out
}

fn add_unique(out: &mut Vec<Arc<Attribute>>, attr: Arc<Attribute>, diags: &mut Diagnostics) {
    if let Some(existing) = out.iter().find(|a| a.name == attr.name) {
        diags.push(Diagnostic::error(
            "Duplicate argument",
            format!(
                "Argument \"{}\" was already set at {}",
                attr.name, existing.name_range
            ),
            attr.name_range.clone(),
        ));
        return;
    }
    out.push(attr);
}

fn replace_or_push(out: &mut Vec<Arc<Attribute>>, attr: Arc<Attribute>) {
    match out.iter_mut().find(|a| a.name == attr.name) {
        Some(slot) => *slot = attr,
        None => out.push(attr),
    }
}

fn empty_range() -> Range {
    Range::new(Arc::from(""), hclsyntax::Pos::START, hclsyntax::Pos::START)
}
