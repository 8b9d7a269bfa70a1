//! `provider` blocks (provider configurations, including `for_each` on
//! aliased ones) and `terraform { provider_meta "name" {} }`, as OpenTofu's
//! `provider.go` and `provider_meta.go`.

use std::collections::BTreeMap;

use hclsyntax::{has_errors, Block, BodySchema, Diagnostic, Diagnostics, Expr, Range};

use crate::decode_value::decode_string;
use crate::merged_body::{merge_bodies, union_bodies, ConfigBody};
use crate::named_values::{check_constant_expr, BAD_IDENTIFIER_DETAIL};
use crate::provider_ref::check_provider_name_normalized;
use crate::version_constraint::{decode_version_constraint, VersionConstraint};

/// A `provider` block.
#[derive(Debug, Clone)]
pub struct Provider {
    /// The provider's local name (the block label).
    pub name: String,
    pub name_range: Range,
    /// The alias, once known: decoded here when constant, else by the
    /// static evaluator from `alias_expr`.
    pub alias: Option<String>,
    pub alias_expr: Option<Expr>,
    /// `for_each` (aliased configurations only), evaluated statically.
    pub for_each: Option<Expr>,
    /// The instances `for_each` gives, instance key to `each.value`, once
    /// statically evaluated.
    pub instances: Option<BTreeMap<String, cty::Value>>,
    /// The deprecated in-block `version` constraint.
    pub version: Option<VersionConstraint>,
    /// The provider's own arguments (joined with any `_` escaping block).
    pub config: ConfigBody,
    /// The block header (`provider "name"`).
    pub decl_range: Range,
}

impl Provider {
    /// `name` or `name.alias` as an address: the key of the module's
    /// provider map ([`crate::Module::provider_configs`]).
    pub fn addr(&self) -> addrs::LocalProviderConfig {
        addrs::LocalProviderConfig {
            local_name: self.name.clone(),
            alias: self.alias.clone().unwrap_or_default(),
        }
    }

    /// Applies an override file's block (`Provider.merge`).
    pub fn merge(&mut self, over: &Provider) -> Diagnostics {
        if over
            .version
            .as_ref()
            .is_some_and(|v| !v.required.is_empty())
        {
            self.version = over.version.clone();
        }
        if over.for_each.is_some() {
            self.for_each = over.for_each.clone();
        }
        self.config = merge_bodies(&self.config, &over.config);
        Vec::new()
    }
}

fn provider_schema() -> BodySchema {
    BodySchema::new(
        &[
            "alias",
            "version",
            "for_each",
            // Reserved for future expansion.
            "count",
            "depends_on",
            "source",
        ],
        &[
            // Meta-argument escaping block.
            ("_", &[]),
            // Reserved for future expansion.
            ("lifecycle", &[]),
            ("locals", &[]),
        ],
    )
}

const VERSION_IN_PROVIDER_DETAIL: &str = "OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.";

/// Decodes a `provider` block. A local name that is not in normal form
/// gives no provider.
pub fn decode_provider_block(block: &Block) -> (Option<Provider>, Diagnostics) {
    let Some(label) = block.labels.first() else {
        return (None, Vec::new());
    };
    let (content, remain, mut diags) = block.body.partial_content(&provider_schema());

    let name_diags = check_provider_name_normalized(&label.value, &block.def_range());
    let bad_name = has_errors(&name_diags);
    diags.extend(name_diags);
    if bad_name {
        return (None, diags);
    }

    let mut p = Provider {
        name: label.value.clone(),
        name_range: label.range.clone(),
        alias: None,
        alias_expr: None,
        for_each: None,
        instances: None,
        version: None,
        config: ConfigBody::Single(remain),
        decl_range: block.def_range(),
    };

    if let Some(attr) = content.attribute("alias") {
        p.alias_expr = Some(attr.expr.clone());
        let (alias, more) = decode_constant_alias(&attr.expr);
        p.alias = alias;
        diags.extend(more);
    }

    if let Some(attr) = content.attribute("version") {
        diags.push(Diagnostic::warning(
            "Version constraints inside provider configuration blocks are deprecated",
            VERSION_IN_PROVIDER_DETAIL,
            attr.expr.range.clone(),
        ));
        let (vc, more) = decode_version_constraint(attr);
        diags.extend(more);
        p.version = Some(vc);
    }

    if let Some(attr) = content.attribute("for_each") {
        if p.alias_expr.is_none() {
            diags.push(Diagnostic::error(
                "Alias required when using \"for_each\"",
                "The for_each argument is allowed only for provider configurations with an alias.",
                attr.expr.range.clone(),
            ));
        }
        p.for_each = Some(attr.expr.clone());
    }

    for name in ["count", "depends_on", "source"] {
        if let Some(attr) = content.attribute(name) {
            diags.push(Diagnostic::error(
                "Reserved argument name in provider block",
                format!(
                    "The provider argument name \"{name}\" is reserved for use by OpenTofu in a future version."
                ),
                attr.name_range.clone(),
            ));
        }
    }

    let mut seen_escape: Option<Range> = None;
    for b in &content.blocks {
        match b.type_name.as_str() {
            "_" => {
                if let Some(first) = &seen_escape {
                    diags.push(Diagnostic::error(
                        "Duplicate escaping block",
                        format!(
                            "The special block type \"_\" can be used to force particular arguments to be interpreted as provider-specific rather than as meta-arguments, but each provider block can have only one such block. The first escaping block was at {first}."
                        ),
                        b.def_range(),
                    ));
                    continue;
                }
                seen_escape = Some(b.def_range());
                p.config = union_bodies(vec![p.config.clone(), ConfigBody::Single(b.body.clone())]);
            }
            _ => diags.push(Diagnostic::error(
                "Reserved block type name in provider block",
                format!(
                    "The block type name \"{}\" is reserved for use by OpenTofu in a future version.",
                    b.type_name
                ),
                b.type_range.clone(),
            )),
        }
    }

    (Some(p), diags)
}

/// Decodes a constant alias. An alias that uses variables or functions is
/// left for the static evaluator (no alias yet, no error).
pub fn decode_constant_alias(expr: &Expr) -> (Option<String>, Diagnostics) {
    match decode_string(expr) {
        Ok(alias) => {
            let diags = check_alias(&alias, expr);
            (Some(alias), diags)
        }
        Err(diags) => {
            let dynamic = diags.iter().any(|d| {
                d.summary == "Variables not allowed" || d.summary == "Function calls not allowed"
            });
            if dynamic {
                (None, Vec::new())
            } else {
                (None, diags)
            }
        }
    }
}

/// The check OpenTofu applies to an alias once its value is known.
pub fn check_alias(alias: &str, expr: &Expr) -> Diagnostics {
    if hclsyntax::valid_identifier(alias) {
        return Vec::new();
    }
    vec![Diagnostic::error(
        "Invalid provider configuration alias",
        format!("An alias must be a valid name. {BAD_IDENTIFIER_DETAIL}"),
        expr.range.clone(),
    )]
}

/// A `provider_meta "name" {}` block inside a `terraform` block.
#[derive(Debug, Clone)]
pub struct ProviderMeta {
    /// The provider's local name.
    pub provider: String,
    pub provider_range: Range,
    pub config: hclsyntax::Body,
    pub decl_range: Range,
}

/// Decodes a `provider_meta` block: arguments only, all constant.
pub fn decode_provider_meta_block(block: &Block) -> (Option<ProviderMeta>, Diagnostics) {
    let Some(label) = block.labels.first() else {
        return (None, Vec::new());
    };
    let (attrs, mut diags) = block.body.just_attributes();
    if has_errors(&diags) {
        return (None, diags);
    }
    for attr in &attrs {
        diags.extend(check_constant_expr(&attr.expr));
    }
    diags.extend(check_provider_name_normalized(
        &label.value,
        &block.def_range(),
    ));
    (
        Some(ProviderMeta {
            provider: label.value.clone(),
            provider_range: label.range.clone(),
            config: block.body.clone(),
            decl_range: block.def_range(),
        }),
        diags,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::{blocks, render};

    fn providers(name: &str, src: &str) -> Option<(Vec<Provider>, Diagnostics)> {
        let bs = blocks(name, src, "provider", &["name"])?;
        let mut out = Vec::new();
        let mut diags = Vec::new();
        for b in bs {
            let (p, more) = decode_provider_block(&b);
            diags.extend(more);
            out.extend(p);
        }
        Some((out, diags))
    }

    #[test]
    fn provider_reserved_fixture() {
        // testdata/invalid-files/provider-reserved.tf
        let src = "provider \"test\" {\n  # These are okay\n  alias   = \"foo\"\n  version = \"1.0.0\"\n\n  # Provider-specific arguments are also okay\n  arbitrary = true\n\n  # These are all reserved and should generate errors.\n  count = 3\n  depends_on = [\"foo.bar\"]\n  source     = \"foo.example.com/baz/bar\"\n  lifecycle {}\n  locals {}\n}\n";
        let Some((ps, diags)) = providers("config.tf", src) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec![
                format!("config.tf:4,13-20: Version constraints inside provider configuration blocks are deprecated; {VERSION_IN_PROVIDER_DETAIL}"),
                "config.tf:10,3-8: Reserved argument name in provider block; The provider argument name \"count\" is reserved for use by OpenTofu in a future version.".into(),
                "config.tf:11,3-13: Reserved argument name in provider block; The provider argument name \"depends_on\" is reserved for use by OpenTofu in a future version.".into(),
                "config.tf:12,3-9: Reserved argument name in provider block; The provider argument name \"source\" is reserved for use by OpenTofu in a future version.".into(),
                "config.tf:13,3-12: Reserved block type name in provider block; The block type name \"lifecycle\" is reserved for use by OpenTofu in a future version.".into(),
                "config.tf:14,3-9: Reserved block type name in provider block; The block type name \"locals\" is reserved for use by OpenTofu in a future version.".into(),
            ]
        );
        assert_eq!(ps[0].addr().string_compact(), "test.foo");
    }

    #[test]
    fn for_each_needs_alias() {
        let src = "provider \"a\" {\n  for_each = {}\n}\nprovider \"b\" {\n  alias = \"x\"\n  for_each = var.m\n}\n";
        let Some((ps, diags)) = providers("p.tf", src) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec!["p.tf:2,14-16: Alias required when using \"for_each\"; The for_each argument is allowed only for provider configurations with an alias."]
        );
        assert!(ps[1].for_each.is_some());
    }

    #[test]
    fn json_provider_and_bad_alias() {
        let src = r#"{"provider": {"aws": [{"region": "x"}, {"alias": "1bad"}]}}"#;
        let (ps, diags) = providers("p.tf.json", src).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].addr().string_compact(), "aws");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid provider configuration alias");
    }

    #[test]
    fn non_normalized_name() {
        let src = r#"{"provider": {"TEST": {}}}"#;
        let (ps, diags) = providers("p.tf.json", src).unwrap();
        assert!(ps.is_empty());
        assert_eq!(
            diags[0].detail,
            "Provider names must be normalized. Replace \"TEST\" with \"test\" to fix this error."
        );
    }

    #[test]
    fn provider_meta() {
        let src = r#"{"terraform": {"provider_meta": {"my-p": {"a": "${var.x}"}}}}"#;
        let tf = blocks("m.tf.json", src, "terraform", &[]).unwrap();
        let (content, _, _) = tf[0]
            .body
            .partial_content(&BodySchema::new(&[], &[("provider_meta", &["provider"])]));
        let (pm, diags) = decode_provider_meta_block(&content.blocks[0]);
        assert_eq!(pm.unwrap().provider, "my-p");
        assert_eq!(diags[0].summary, "Variables not allowed");
    }
}
