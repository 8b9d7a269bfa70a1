//! `terraform { required_providers { ... } }`: which providers a module
//! needs, from where, at which versions, and which aliased configurations a
//! child module expects its caller to pass (OpenTofu's
//! `provider_requirements.go`).

use std::collections::BTreeMap;

pub use addrs::LocalProviderConfig;

use hclsyntax::static_expr::{abs_traversal, expr_list, expr_map};
use hclsyntax::{
    has_errors, Block, Diagnostic, Diagnostics, Expr, ExprKind, JsonValue, Range, StepKind,
};

use crate::decode_value::{const_value, ConstValue};
use crate::provider_ref::check_provider_name_normalized;
use crate::version_constraint::{decode_version_constraint, Constraints, VersionConstraint};

/// One entry of `required_providers`.
#[derive(Debug, Clone)]
pub struct RequiredProvider {
    /// The local name (the argument name).
    pub name: String,
    /// The `source` address as written; `None` means the implied
    /// `hashicorp/<name>` provider.
    // Checked with `addrs::parse_provider_source_string` when decoded.
    pub source: Option<String>,
    pub source_range: Option<Range>,
    pub requirement: VersionConstraint,
    /// `configuration_aliases`: aliased configurations the caller must pass.
    pub aliases: Vec<LocalProviderConfig>,
    /// The entry's value expression.
    pub decl_range: Range,
}

/// A `required_providers` block.
#[derive(Debug, Clone)]
pub struct RequiredProviders {
    pub required_providers: BTreeMap<String, RequiredProvider>,
    pub decl_range: Range,
}

impl RequiredProviders {
    /// Applies an override file's block: every provider it names replaces
    /// the base entry of that name (`mergeProviderVersionConstraints`).
    pub fn override_with(&mut self, over: RequiredProviders) {
        for (name, rp) in over.required_providers {
            self.required_providers.insert(name, rp);
        }
    }
}

const INVALID_OBJECT: &str = "Invalid required_providers object";

/// Decodes a `required_providers` block. Entries with errors are left out;
/// as in OpenTofu, once any entry has an error the later object entries are
/// left out too.
pub fn decode_required_providers_block(block: &Block) -> (Option<RequiredProviders>, Diagnostics) {
    let mut ret = RequiredProviders {
        required_providers: BTreeMap::new(),
        decl_range: block.def_range(),
    };
    let (attrs, mut diags) = block.body.just_attributes();
    if has_errors(&diags) {
        return (Some(ret), diags);
    }

    for attr in &attrs {
        let mut rp = RequiredProvider {
            name: attr.name.clone(),
            source: None,
            source_range: None,
            requirement: VersionConstraint {
                required: Constraints::default(),
                decl_range: attr.range.clone(),
            },
            aliases: Vec::new(),
            decl_range: attr.expr.range.clone(),
        };

        // The legacy form: just a version constraint string.
        if let Ok(v) = const_value(&attr.expr) {
            if v != ConstValue::Null {
                let (vc, more) = decode_version_constraint(attr);
                diags.extend(more);
                if let Some(err) = provider_part_error(&rp.name, &attr.expr.range) {
                    diags.push(err);
                    continue;
                }
                rp.requirement = vc;
                ret.required_providers.insert(rp.name.clone(), rp);
                continue;
            }
        }

        let name_diags = check_provider_name_normalized(&attr.name, &attr.expr.range);
        if has_errors(&name_diags) {
            diags.extend(name_diags);
            continue;
        }

        let Ok(kvs) = object_entries(&attr.expr) else {
            diags.push(Diagnostic::error(
                INVALID_OBJECT,
                "required_providers entries must be strings or objects.",
                attr.expr.range.clone(),
            ));
            continue;
        };

        for (key, key_range, value) in &kvs {
            let key_name = match key {
                Ok(n) => n.clone(),
                Err(more) => {
                    diags.extend(more.iter().cloned());
                    continue;
                }
            };
            match key_name.as_str() {
                "version" => {
                    let Ok(ConstValue::String(s)) = const_value(value) else {
                        diags.push(Diagnostic::error(
                            "Invalid version constraint",
                            "Version must be specified as a string.",
                            value.range.clone(),
                        ));
                        continue;
                    };
                    let Ok(c) = Constraints::parse(&s) else {
                        diags.push(Diagnostic::error(
                            "Invalid version constraint",
                            "This string does not use correct version constraint syntax.",
                            value.range.clone(),
                        ));
                        continue;
                    };
                    rp.requirement = VersionConstraint {
                        required: c,
                        decl_range: attr.range.clone(),
                    };
                }
                "source" => {
                    let Ok(ConstValue::String(s)) = const_value(value) else {
                        diags.push(Diagnostic::error(
                            "Invalid source",
                            "Source must be specified as a string.",
                            value.range.clone(),
                        ));
                        continue;
                    };
                    // The parser's diagnostics carry no range: point them
                    // at the source expression, as OpenTofu does.
                    if let Err(more) = addrs::parse_provider_source_string(&s) {
                        diags.extend(more.into_iter().map(|mut d| {
                            d.subject.get_or_insert_with(|| value.range.clone());
                            d
                        }));
                    }
                    rp.source = Some(s);
                    rp.source_range = Some(value.range.clone());
                }
                "configuration_aliases" => {
                    let exprs = match expr_list(value) {
                        Ok(e) => e,
                        Err(more) => {
                            diags.extend(more);
                            continue;
                        }
                    };
                    for expr in &exprs {
                        let traversal = match abs_traversal(expr) {
                            Ok(t) => t,
                            Err(more) => {
                                diags.extend(more);
                                continue;
                            }
                        };
                        let alias = match traversal.steps.as_slice() {
                            [] => Some(String::new()),
                            [step] => match &step.kind {
                                StepKind::Attr(a) => Some(a.clone()),
                                StepKind::Index(_) => None,
                            },
                            _ => None,
                        };
                        let Some(alias) = alias else {
                            diags.push(Diagnostic::error(
                                "Invalid configuration_aliases value",
                                "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                                value.range.clone(),
                            ));
                            continue;
                        };
                        if traversal.root != attr.name {
                            diags.push(Diagnostic::error(
                                "Invalid configuration_aliases value",
                                format!(
                                    "Configuration aliases must be prefixed with the provider name. Expected {}, but found {}.",
                                    hclsyntax::go_quote(&attr.name),
                                    hclsyntax::go_quote(&traversal.root)
                                ),
                                value.range.clone(),
                            ));
                            continue;
                        }
                        rp.aliases.push(LocalProviderConfig {
                            local_name: traversal.root.clone(),
                            alias,
                        });
                    }
                }
                _ => {
                    diags.push(Diagnostic::error(
                        INVALID_OBJECT,
                        "required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block.",
                        key_range.clone(),
                    ));
                    break;
                }
            }
        }

        if has_errors(&diags) {
            continue;
        }
        if rp.source.is_none() {
            if let Some(err) = provider_part_error(&rp.name, &attr.expr.range) {
                diags.push(err);
            }
        }
        ret.required_providers.insert(rp.name.clone(), rp);
    }

    (Some(ret), diags)
}

/// A key's name (or why it has none), the key's range, and the value.
type Entry = (Result<String, Diagnostics>, Range, Expr);

/// The entries of an object expression, keys evaluated. A JSON object's
/// values stay JSON (strings in them are templates), as in HCL's JSON
/// syntax.
fn object_entries(expr: &Expr) -> Result<Vec<Entry>, Diagnostics> {
    if let ExprKind::Json(node) = &expr.kind {
        let JsonValue::Object(props) = &node.value else {
            return Err(Vec::new());
        };
        return Ok(props
            .iter()
            .map(|p| {
                (
                    Ok(p.name.clone()),
                    p.name_range.clone(),
                    Expr::new(ExprKind::Json(p.value.clone()), p.value.range.clone()),
                )
            })
            .collect());
    }
    let pairs = expr_map(expr)?;
    Ok(pairs
        .into_iter()
        .map(|(key, value)| {
            let name = match key.as_bare_name() {
                Some(n) => Ok(n.to_string()),
                None => match const_value(&key.expr) {
                    Ok(ConstValue::String(s)) => Ok(s),
                    Ok(_) => Err(vec![Diagnostic::error(
                        "Invalid Attribute",
                        "Invalid attribute value for provider requirement",
                        key.expr.range.clone(),
                    )]),
                    Err(more) => Err(more),
                },
            };
            (name, key.expr.range.clone(), value)
        })
        .collect())
}

/// `ParseProviderPart` failing on a local name: "Invalid provider name".
fn provider_part_error(name: &str, range: &Range) -> Option<Diagnostic> {
    let d = check_provider_name_normalized(name, range);
    let first = d.into_iter().next()?;
    // Only a name that cannot be normalized at all is an error here.
    let prefix = format!("{name} is an invalid provider local name: ");
    let why = first.detail.strip_prefix(&prefix)?;
    Some(Diagnostic::error(
        "Invalid provider name",
        why,
        range.clone(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::{blocks, render};

    fn decode(name: &str, src: &str) -> Option<(RequiredProviders, Diagnostics)> {
        let tf = blocks(name, src, "terraform", &[])?;
        let (content, _, _) = tf[0].body.partial_content(&hclsyntax::BodySchema::new(
            &[],
            &[("required_providers", &[])],
        ));
        let (rp, diags) = decode_required_providers_block(&content.blocks[0]);
        Some((rp.unwrap(), diags))
    }

    #[test]
    fn json_forms() {
        let src = r#"{"terraform": {"required_providers": {"legacy": "~> 1.0", "aws": {"source": "hashicorp/aws", "version": ">= 2"}}}}"#;
        let (rp, diags) = decode("r.tf.json", src).unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        let legacy = &rp.required_providers["legacy"];
        assert_eq!(legacy.requirement.required.to_string(), "~> 1.0");
        let aws = &rp.required_providers["aws"];
        assert_eq!(aws.source.as_deref(), Some("hashicorp/aws"));
        assert_eq!(aws.requirement.required.to_string(), ">= 2");
    }

    #[test]
    fn native_errors() {
        let src = "terraform {\n  required_providers {\n    foo = {\n      source = \"x/foo\"\n      configuration_aliases = [foo.a, bar.b]\n    }\n  }\n}\n";
        let Some((rp, diags)) = decode("r.tf", src) else {
            return;
        };
        assert!(rp.required_providers.is_empty());
        assert_eq!(
            render(&diags),
            vec!["r.tf:5,31-45: Invalid configuration_aliases value; Configuration aliases must be prefixed with the provider name. Expected \"foo\", but found \"bar\"."]
        );
    }

    #[test]
    fn aliases_and_unknown_key() {
        let src = "terraform {\n  required_providers {\n    foo = {\n      configuration_aliases = [foo.a]\n    }\n    bar = {\n      region = \"x\"\n    }\n  }\n}\n";
        let Some((rp, diags)) = decode("r.tf", src) else {
            return;
        };
        assert_eq!(rp.required_providers["foo"].aliases[0].alias, "a");
        assert_eq!(
            render(&diags),
            vec!["r.tf:7,7-13: Invalid required_providers object; required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block."]
        );
    }

    #[test]
    fn override_replaces_by_name() {
        let base = r#"{"terraform": {"required_providers": {"a": "1.0", "b": "2.0"}}}"#;
        let over = r#"{"terraform": {"required_providers": {"b": "3.0"}}}"#;
        let (mut r, _) = decode("x.tf.json", base).unwrap();
        let (o, _) = decode("x_override.tf.json", over).unwrap();
        r.override_with(o);
        assert_eq!(
            r.required_providers["b"].requirement.required.to_string(),
            "3.0"
        );
        assert_eq!(
            r.required_providers["a"].requirement.required.to_string(),
            "1.0"
        );
    }
}
