//! A provider's diagnostic placed in the configuration, as OpenTofu's
//! `tfdiags.Diagnostics.InConfigBody` places an `AttributeValue`
//! diagnostic (`internal/tfdiags/contextual.go`): the attribute's path is
//! followed through the nested blocks of the body; the subject is the
//! attribute's expression (or, for a final index step, that element of a
//! static list or map), else the missing-item range of the deepest body
//! reached. A diagnostic without a path (`WholeContainingBody`) is about
//! the body: its missing-item range; one with an empty path has no
//! subject.

use configs::merged_body::ConfigBody;
use cty::{Path, PathStep, Type, Value};
use hclsyntax::{AttributeSchema, BlockHeaderSchema, BodySchema, Diagnostic, Range, Severity};

use crate::schemas::{ProviderDiagnostic, ProviderSeverity};

/// The diagnostic with its subject found in `body`.
pub fn in_config_body(d: &ProviderDiagnostic, body: &ConfigBody) -> Diagnostic {
    Diagnostic {
        severity: match d.severity {
            ProviderSeverity::Error => Severity::Error,
            ProviderSeverity::Warning => Severity::Warning,
        },
        summary: d.summary.clone(),
        detail: d.detail.clone(),
        // The plugin client makes a diagnostic without an attribute a
        // WholeContainingBody one: the body's missing-item range.
        subject: match &d.attribute {
            Some(p) => subject(p, body),
            None => missing(body),
        },
        context: None,
    }
}

fn missing(body: &ConfigBody) -> Option<Range> {
    body.missing_item_range()
}

fn subject(path: &Path, body: &ConfigBody) -> Option<Range> {
    let steps = &path.0;
    let (first, last) = (steps.first()?, steps.last()?);
    if matches!(first, PathStep::Index(_)) {
        return missing(body);
    }
    let (final_step, index, traverse) = match last {
        PathStep::Index(key) if steps.len() >= 2 => (
            &steps[steps.len() - 2],
            Some(key),
            &steps[..steps.len() - 1],
        ),
        _ => (last, None, &steps[..]),
    };
    let body = if traverse.len() > 1 {
        traverse_steps(traverse, body.clone())
    } else {
        body.clone()
    };
    let fallback = missing(&body);
    let PathStep::GetAttr(name) = final_step else {
        return fallback;
    };
    let schema = BodySchema {
        attributes: vec![AttributeSchema {
            name: name.clone().into(),
            required: true,
        }],
        blocks: Vec::new(),
    };
    let (content, _, diags) = body.partial_content(&schema);
    if hclsyntax::has_errors(&diags) {
        return fallback;
    }
    let Some(attr) = content.attribute(name) else {
        return fallback;
    };
    Some(match index {
        Some(key) => index_range(key, attr),
        None => attr.expr.range.clone(),
    })
}

/// `traversePathSteps`: into the nested block each attribute step (and
/// the index after it) names, while there is exactly one.
fn traverse_steps(steps: &[PathStep], mut body: ConfigBody) -> ConfigBody {
    let mut i = 0;
    while i < steps.len() {
        let PathStep::GetAttr(name) = &steps[i] else {
            return body;
        };
        let index = match steps.get(i + 1) {
            Some(PathStep::Index(key)) => {
                i += 1;
                Some(key)
            }
            _ => None,
        };
        i += 1;
        let by_key = index.is_some_and(|k| *k.ty() == Type::String);
        let schema = BodySchema {
            attributes: Vec::new(),
            blocks: vec![BlockHeaderSchema {
                type_name: name.clone().into(),
                label_names: if by_key { &["key"] } else { &[] },
            }],
        };
        let (content, _, diags) = body.partial_content(&schema);
        if hclsyntax::has_errors(&diags) {
            return body;
        }
        let blocks: Vec<_> = content.blocks_of(name).collect();
        if blocks.is_empty() {
            continue;
        }
        let next = match index {
            None if blocks.len() == 1 => &blocks[0].body,
            None => return body,
            Some(key) if *key.ty() == Type::Number => match index_of(key) {
                Some(n) if n < blocks.len() => &blocks[n].body,
                _ => return body,
            },
            Some(key) if *key.ty() == Type::String => {
                let wanted = key.as_str().unwrap_or_default();
                match blocks
                    .iter()
                    .find(|b| b.labels.first().is_some_and(|l| l.value == wanted))
                {
                    Some(b) => &b.body,
                    None => return body,
                }
            }
            Some(_) => return body,
        };
        body = ConfigBody::Single(next.clone());
    }
    body
}

fn index_of(key: &Value) -> Option<usize> {
    let n = key.as_number()?;
    n.to_string().parse().ok()
}

/// `hclRangeFromIndexStepAndAttribute`.
fn index_range(key: &Value, attr: &hclsyntax::Attribute) -> Range {
    if *key.ty() == Type::Number {
        let Ok(items) = hclsyntax::static_expr::expr_list(&attr.expr) else {
            return attr.expr.range.clone();
        };
        return match index_of(key).and_then(|n| items.get(n)) {
            Some(item) => item.range.clone(),
            None => attr.name_range.clone(),
        };
    }
    if *key.ty() == Type::String {
        let Ok(pairs) = hclsyntax::static_expr::expr_map(&attr.expr) else {
            return attr.expr.range.clone();
        };
        let wanted = key.as_str().unwrap_or_default();
        for (k, v) in &pairs {
            let (kv, diags) = lang::eval_expr(&k.expr, &lang::EvalContext::empty());
            let name = k.as_bare_name().map(str::to_string).or_else(|| {
                (!hclsyntax::has_errors(&diags))
                    .then(|| kv.as_str().map(str::to_string))
                    .flatten()
            });
            let Some(name) = name else {
                return attr.expr.range.clone();
            };
            if name == wanted {
                return lang::eval::start_range(v);
            }
        }
        return attr.name_range.clone();
    }
    attr.expr.range.clone()
}
