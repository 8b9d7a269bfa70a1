//! Provider configuration addresses (`internal/addrs/provider_config.go`)
//! and the `provider = aws.alias[key]` references of resources and module
//! calls (`decodeProviderConfigRef` in `internal/configs`).

use std::fmt;

use hclsyntax::{Diagnostic, Expr, ExprKind, Literal, Range, StepKind};

use crate::gourl::go_quote;
use crate::module_path::Module;
use crate::provider::{parse_provider_part, Provider};

/// A provider configuration as named inside one module: `aws` or
/// `aws.west`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalProviderConfig {
    pub local_name: String,
    /// Empty for the default (unaliased) configuration.
    pub alias: String,
}

impl LocalProviderConfig {
    /// `local_name`, or `local_name.alias` when `alias` is not empty.
    pub fn new(local_name: &str, alias: &str) -> Self {
        LocalProviderConfig {
            local_name: local_name.to_string(),
            alias: alias.to_string(),
        }
    }

    /// `aws` or `aws.west`, without the `provider.` prefix.
    pub fn string_compact(&self) -> String {
        if self.alias.is_empty() {
            self.local_name.clone()
        } else {
            format!("{}.{}", self.local_name, self.alias)
        }
    }
}

/// `provider.aws` or `provider.aws.west`.
impl fmt::Display for LocalProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.local_name.is_empty() {
            return f.write_str("provider.<invalid>");
        }
        write!(f, "provider.{}", self.string_compact())
    }
}

/// A provider configuration by module path and provider type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsProviderConfig {
    pub module: Module,
    pub provider: Provider,
    pub alias: String,
}

/// `module.a.provider["registry.opentofu.org/hashicorp/aws"].alias`
impl fmt::Display for AbsProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_root() {
            write!(f, "{}.", self.module)?;
        }
        write!(f, "provider[{}]", go_quote(&self.provider.to_string()))?;
        if !self.alias.is_empty() {
            write!(f, ".{}", self.alias)?;
        }
        Ok(())
    }
}

/// A `provider` (or `providers` map value) reference: `aws`,
/// `aws.west`, `aws.by_region["us"]` or `aws.by_region[each.key]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderConfigRef {
    pub name: String,
    pub name_range: Range,
    /// Empty when no alias was given.
    pub alias: String,
    pub alias_range: Option<Range>,
    /// The instance key expression; a literal key is given as a literal
    /// expression covering the whole reference.
    pub key_expr: Option<Expr>,
}

impl ProviderConfigRef {
    /// The configuration named, key dropped.
    pub fn local_config(&self) -> LocalProviderConfig {
        LocalProviderConfig {
            local_name: self.name.clone(),
            alias: self.alias.clone(),
        }
    }
}

const INVALID_REF: &str = "Invalid provider configuration reference";

fn invalid_ref(detail: impl Into<String>, subject: Range) -> Diagnostic {
    Diagnostic::error(INVALID_REF, detail, subject)
}

/// `decodeProviderConfigRef`: reads the `arg_name` argument (`provider`,
/// or a `providers` map value) as a provider configuration reference.
///
/// JSON-syntax values must be converted to native expressions first.
/// Returns the reference if it could be read, and every diagnostic found.
pub fn parse_provider_config_ref(
    expr: &Expr,
    arg_name: &str,
) -> (Option<ProviderConfigRef>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut expr = expr.unwrap_parens();
    let mut key_expr = None;
    let mut max_len = 3;
    if let ExprKind::Index {
        collection, key, ..
    } = &expr.kind
    {
        max_len = 2;
        key_expr = Some((**key).clone());
        expr = collection;
    }
    let traversal = match &expr.kind {
        ExprKind::ScopeTraversal(t) if t.steps.len() < max_len => t,
        kind => {
            let quoted = matches!(
                kind,
                ExprKind::Template(_)
                    | ExprKind::TemplateWrap(_)
                    | ExprKind::Literal(Literal::String(_))
            );
            let detail = if quoted {
                "A provider configuration reference must not be given in quotes.".to_string()
            } else {
                format!("The {arg_name} argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key.")
            };
            diags.push(invalid_ref(detail, expr.range.clone()));
            return (None, diags);
        }
    };

    let name = &traversal.root;
    match parse_provider_part(name) {
        Err(e) => {
            diags.push(Diagnostic::error(
                "Invalid provider local name",
                format!("{name} is an invalid provider local name: {e}"),
                traversal.root_range.clone(),
            ));
            return (None, diags);
        }
        Ok(normalized) if &normalized != name => {
            diags.push(Diagnostic::error(
                "Invalid provider local name",
                format!(
                    "Provider names must be normalized. Replace {} with {} to fix this error.",
                    go_quote(name),
                    go_quote(&normalized)
                ),
                traversal.root_range.clone(),
            ));
            return (None, diags);
        }
        Ok(_) => {}
    }

    let mut ret = ProviderConfigRef {
        name: name.clone(),
        name_range: traversal.root_range.clone(),
        alias: String::new(),
        alias_range: None,
        key_expr,
    };
    let alias_err = "Provider name must either stand alone or be followed by a period and then a configuration alias.";
    if let Some(step) = traversal.steps.first() {
        match &step.kind {
            StepKind::Attr(alias) => {
                ret.alias = alias.clone();
                ret.alias_range = Some(step.range.clone());
            }
            StepKind::Index(_) => {
                diags.push(invalid_ref(alias_err, step.range.clone()));
                return (Some(ret), diags);
            }
        }
    }
    if let Some(step) = traversal.steps.get(1) {
        match &step.kind {
            StepKind::Index(key) => {
                ret.key_expr = Some(Expr::new(ExprKind::Literal(key.clone()), traversal.range()));
            }
            StepKind::Attr(_) => {
                diags.push(invalid_ref(alias_err, step.range.clone()));
                return (Some(ret), diags);
            }
        }
    }
    if ret.alias.is_empty() && ret.key_expr.is_some() {
        diags.push(invalid_ref(
            "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
            traversal.range(),
        ));
    }
    (Some(ret), diags)
}

#[cfg(test)]
#[path = "provider_config_tests.rs"]
mod tests;
