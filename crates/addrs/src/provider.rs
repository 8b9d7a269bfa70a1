//! Provider addresses (`internal/addrs/provider.go` and the
//! `registry-address` module): `hostname/namespace/type`, with the
//! defaults, normalization and errors of `required_providers` sources.

use std::fmt;

use hclsyntax::{Diagnostic, Diagnostics};

use crate::gourl::go_quote;
use crate::hostname::Hostname;

/// The registry host implied when a provider source names none.
pub const DEFAULT_PROVIDER_REGISTRY_HOST: &str = "registry.opentofu.org";
/// The host of built-in providers inherited from OpenTofu's predecessor.
pub const TRANSITIONAL_BUILT_IN_PROVIDER_HOST: &str = "terraform.io";
/// The host reserved for OpenTofu's own built-in providers.
pub const BUILT_IN_PROVIDER_HOST: &str = "opentofu.org";
/// The namespace of built-in providers.
pub const BUILT_IN_PROVIDER_NAMESPACE: &str = "builtin";
/// The namespace of legacy (pre-0.13) provider addresses.
pub const LEGACY_PROVIDER_NAMESPACE: &str = "-";

/// A provider type: `registry.opentofu.org/hashicorp/aws`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Provider {
    pub hostname: Hostname,
    pub namespace: String,
    pub type_name: String,
}

impl Provider {
    /// A provider from already-normalized parts.
    pub fn new(hostname: Hostname, namespace: &str, type_name: &str) -> Provider {
        Provider {
            hostname,
            namespace: namespace.to_string(),
            type_name: type_name.to_string(),
        }
    }

    /// `NewDefaultProvider`: `registry.opentofu.org/hashicorp/<name>`.
    pub fn default_for(type_name: &str) -> Provider {
        Provider::new(
            Hostname::from_normalized(DEFAULT_PROVIDER_REGISTRY_HOST),
            "hashicorp",
            &parse_provider_part(type_name).unwrap_or_else(|_| type_name.to_string()),
        )
    }

    /// `NewBuiltInProvider`: `terraform.io/builtin/<name>`.
    pub fn built_in(type_name: &str) -> Provider {
        Provider::new(
            Hostname::from_normalized(TRANSITIONAL_BUILT_IN_PROVIDER_HOST),
            BUILT_IN_PROVIDER_NAMESPACE,
            type_name,
        )
    }

    /// `ImpliedProviderForUnqualifiedType`: `terraform` is the built-in
    /// provider, anything else a default `hashicorp/` provider.
    pub fn implied_for_unqualified_type(type_name: &str) -> Provider {
        if type_name == "terraform" {
            Provider::built_in(type_name)
        } else {
            Provider::default_for(type_name)
        }
    }

    /// Whether this is `registry.opentofu.org/hashicorp/*`.
    pub fn is_default(&self) -> bool {
        self.hostname.as_str() == DEFAULT_PROVIDER_REGISTRY_HOST && self.namespace == "hashicorp"
    }

    /// Whether the provider is built into OpenTofu.
    pub fn is_built_in(&self) -> bool {
        (self.hostname.as_str() == TRANSITIONAL_BUILT_IN_PROVIDER_HOST
            || self.hostname.as_str() == BUILT_IN_PROVIDER_HOST)
            && self.namespace == BUILT_IN_PROVIDER_NAMESPACE
    }

    /// Whether this is a legacy `-/<type>` address.
    pub fn is_legacy(&self) -> bool {
        self.hostname.as_str() == DEFAULT_PROVIDER_REGISTRY_HOST
            && self.namespace == LEGACY_PROVIDER_NAMESPACE
    }

    /// `namespace/type`, with the host only when it is not the default.
    pub fn for_display(&self) -> String {
        if self.hostname.as_str() == DEFAULT_PROVIDER_REGISTRY_HOST {
            format!("{}/{}", self.namespace, self.type_name)
        } else {
            self.to_string()
        }
    }
}

/// The fully-qualified form, host always included.
impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}",
            self.hostname.for_display(),
            self.namespace,
            self.type_name
        )
    }
}

/// `ParseProviderPart`: validates and normalizes (lowercase, Unicode NFC
/// via IDNA mapping) a provider namespace or type.
pub fn parse_provider_part(given: &str) -> Result<String, String> {
    if given.is_empty() {
        return Err("must have at least one character".to_string());
    }
    if given.contains('.') {
        return Err("dots are not allowed".to_string());
    }
    if given.contains("--") {
        return Err("cannot use multiple consecutive dashes".to_string());
    }
    if given.contains("__") {
        return Err("cannot use multiple consecutive underscores".to_string());
    }
    if given.starts_with('_') || given.ends_with('_') {
        return Err("underscores may not be used as a prefix or suffix".to_string());
    }
    const RULE: &str = "must contain only letters, digits, dashes, and underscores, and may not use leading or trailing dashes or underscores";
    let (result, status) = idna::Config::default()
        .use_std3_ascii_rules(false)
        .check_hyphens(true)
        .to_unicode(given);
    if status.is_err() || result.contains('.') || result.is_empty() {
        return Err(RULE.to_string());
    }
    let ascii_ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    if result.chars().any(|c| c.is_ascii() && !ascii_ok(c)) {
        return Err(RULE.to_string());
    }
    Ok(result)
}

fn source_error(summary: &str, detail: String) -> Diagnostics {
    vec![Diagnostic {
        severity: hclsyntax::Severity::Error,
        summary: summary.to_string(),
        detail,
        subject: None,
        context: None,
    }]
}

/// `ParseProviderSourceString`: `[hostname/][namespace/]type` as written
/// in `required_providers`; a missing namespace means `hashicorp`. Errors
/// have no subject; callers attach the attribute's range.
pub fn parse_provider_source_string(s: &str) -> Result<Provider, Diagnostics> {
    let format_err = || {
        source_error(
            "Invalid provider source string",
            r#"The "source" attribute must be in the format "[hostname/][namespace/]name""#
                .to_string(),
        )
    };
    let mut parts: Vec<String> = s.split('/').map(str::to_string).collect();
    if parts.len() > 3 || parts.iter().any(String::is_empty) {
        return Err(format_err());
    }
    let given_name = parts[parts.len() - 1].clone();
    let name = parse_provider_part(&given_name).map_err(|e| {
        source_error(
            "Invalid provider type",
            format!(
                "Invalid provider type {} in source {}: {e}\"",
                go_quote(&given_name),
                go_quote(s)
            ),
        )
    })?;
    let last = parts.len() - 1;
    parts[last] = name.clone();
    let mut ret = Provider::new(
        Hostname::from_normalized(DEFAULT_PROVIDER_REGISTRY_HOST),
        "hashicorp",
        &name,
    );
    if parts.len() == 1 {
        return Ok(ret);
    }
    if parts.len() >= 2 {
        let given_ns = &parts[parts.len() - 2];
        if given_ns == LEGACY_PROVIDER_NAMESPACE {
            ret.namespace = LEGACY_PROVIDER_NAMESPACE.to_string();
        } else {
            ret.namespace = parse_provider_part(given_ns).map_err(|e| {
                source_error(
                    "Invalid provider namespace",
                    format!(
                        "Invalid provider namespace \"\" in source {}: {e}\"",
                        go_quote(s)
                    ),
                )
            })?;
        }
    }
    if parts.len() == 3 {
        ret.hostname = Hostname::for_comparison(&parts[0]).map_err(|e| {
            source_error(
                "Invalid provider source hostname",
                format!(
                    "Invalid provider source hostname namespace \"\" in source {}: {e}\"",
                    go_quote(s)
                ),
            )
        })?;
    }
    if ret.namespace == LEGACY_PROVIDER_NAMESPACE
        && ret.hostname.as_str() != DEFAULT_PROVIDER_REGISTRY_HOST
    {
        return Err(source_error(
            "Invalid provider namespace",
            format!("The legacy provider namespace \"-\" can be used only with hostname {DEFAULT_PROVIDER_REGISTRY_HOST}."),
        ));
    }
    check_type_prefix(&ret)?;
    Ok(ret)
}

/// Types may not start `terraform-` or `opentofu-`; the `-provider-` forms
/// get a suggestion.
fn check_type_prefix(p: &Provider) -> Result<(), Diagnostics> {
    let checks = [
        ("terraform-", "terraform-provider-", "Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.", "which isn't allowed because it would be redundant to name a Terraform provider with that prefix."),
        ("opentofu-", "opentofu-provider-", "Although that prefix is sometimes used in the names of version control repositories for OpenTofu providers, provider source strings should not include it.", "which isn't allowed because it would be redundant to name an OpenTofu provider with that prefix."),
    ];
    for (redundant, user_error, hint, why) in checks {
        if !p.type_name.starts_with(redundant) {
            continue;
        }
        if let Some(suggested) = p.type_name.strip_prefix(user_error) {
            if parse_provider_part(suggested).is_ok() {
                let mut addr = p.clone();
                addr.type_name = suggested.to_string();
                return Err(source_error(
                    "Invalid provider type",
                    format!(
                        "Provider source {} has a type with the prefix {}, which isn't valid. {hint}\n\nDid you mean {}?",
                        go_quote(&p.for_display()),
                        go_quote(user_error),
                        go_quote(&addr.for_display())
                    ),
                ));
            }
        }
        return Err(source_error(
            "Invalid provider type",
            format!(
                "Provider source {} has a type with the prefix {}, {why} If you are the author of this provider, rename it to not include the prefix.",
                go_quote(&p.to_string()),
                go_quote(redundant)
            ),
        ));
    }
    Ok(())
}

/// Whether `name` is already in normalized form (`IsProviderPartNormalized`).
pub fn is_provider_part_normalized(name: &str) -> Result<bool, String> {
    Ok(parse_provider_part(name)? == name)
}

#[cfg(test)]
#[path = "provider_tests.rs"]
mod tests;
