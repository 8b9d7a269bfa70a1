//! Combining sources (`multi_source.go`): each selector has a source and
//! `include`/`exclude` patterns like `registry.opentofu.org/hashicorp/*`;
//! versions are the union of the matching sources, and a package comes
//! from the first matching source that has it.

use std::collections::BTreeSet;
use std::sync::Arc;

use addrs::{Hostname, Provider};

use crate::errors::SourceError;
use crate::meta::PackageMeta;
use crate::platform::Platform;
use crate::source::{Source, Warnings};
use crate::version::Version;

/// The wildcard segment of a matching pattern.
pub const WILDCARD: &str = "*";

/// One `host/namespace/type` pattern; any part may be `*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPattern {
    pub hostname: String,
    pub namespace: String,
    pub type_name: String,
}

impl ProviderPattern {
    /// The pattern matching exactly one provider.
    pub fn exact(p: &Provider) -> ProviderPattern {
        ProviderPattern {
            hostname: p.hostname.as_str().to_string(),
            namespace: p.namespace.clone(),
            type_name: p.type_name.clone(),
        }
    }

    pub fn matches(&self, p: &Provider) -> bool {
        (self.hostname == WILDCARD || self.hostname == p.hostname.as_str())
            && (self.namespace == WILDCARD || self.namespace == p.namespace)
            && (self.type_name == WILDCARD || self.type_name == p.type_name)
    }
}

fn name_or_wildcard(s: &str) -> Result<String, String> {
    if s == WILDCARD {
        Ok(s.to_string())
    } else {
        addrs::parse_provider_part(s)
    }
}

/// `ParseMultiSourceMatchingPatterns`, with OpenTofu's messages.
pub fn parse_patterns(strs: &[String]) -> Result<Vec<ProviderPattern>, String> {
    let mut out = Vec::with_capacity(strs.len());
    for s in strs {
        let q = addrs::go_quote(s);
        let mut parts: Vec<&str> = s.split('/').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(format!(
                "invalid provider matching pattern {q}: must have either two or three slash-separated segments"
            ));
        }
        let mut host = addrs::DEFAULT_PROVIDER_REGISTRY_HOST.to_string();
        if parts.len() == 3 {
            host = if parts[0] == WILDCARD {
                WILDCARD.to_string()
            } else {
                Hostname::for_comparison(parts[0])
                    .map_err(|e| format!("invalid hostname in provider matching pattern {q}: {e}"))?
                    .as_str()
                    .to_string()
            };
            parts.remove(0);
        }
        let type_name = name_or_wildcard(parts[1]).map_err(|_| {
            format!(
                "invalid provider type {} in provider matching pattern {q}: must either be the wildcard * or a provider type name",
                addrs::go_quote(parts[1])
            )
        })?;
        // OpenTofu quotes the type here, not the namespace; kept as is.
        let namespace = name_or_wildcard(parts[0]).map_err(|_| {
            format!(
                "invalid registry namespace {} in provider matching pattern {q}: must either be the wildcard * or a literal namespace",
                addrs::go_quote(parts[1])
            )
        })?;
        let p = ProviderPattern {
            hostname: host,
            namespace,
            type_name,
        };
        if p.hostname == WILDCARD && !(p.namespace == WILDCARD && p.type_name == WILDCARD) {
            return Err(format!("invalid provider matching pattern {q}: hostname can be a wildcard only if both namespace and provider type are also wildcards"));
        }
        if p.namespace == WILDCARD && p.type_name != WILDCARD {
            return Err(format!("invalid provider matching pattern {q}: namespace can be a wildcard only if the provider type is also a wildcard"));
        }
        out.push(p);
    }
    Ok(out)
}

/// A source with the providers it may serve.
#[derive(Clone)]
pub struct MultiSourceSelector {
    pub source: Arc<dyn Source>,
    pub include: Vec<ProviderPattern>,
    pub exclude: Vec<ProviderPattern>,
}

impl MultiSourceSelector {
    pub fn new(source: Arc<dyn Source>) -> MultiSourceSelector {
        MultiSourceSelector {
            source,
            include: Vec::new(),
            exclude: Vec::new(),
        }
    }

    /// Exclusions win; no inclusions means everything.
    pub fn can_handle(&self, p: &Provider) -> bool {
        if self.exclude.iter().any(|x| x.matches(p)) {
            return false;
        }
        self.include.is_empty() || self.include.iter().any(|x| x.matches(p))
    }
}

/// Selectors in priority order.
#[derive(Clone, Default)]
pub struct MultiSource {
    pub selectors: Vec<MultiSourceSelector>,
}

impl MultiSource {
    fn sources_for(&self, p: &Provider) -> Vec<String> {
        self.selectors
            .iter()
            .filter(|s| s.can_handle(p))
            .map(|s| s.source.for_display(p))
            .collect()
    }
}

impl Source for MultiSource {
    fn available_versions(
        &self,
        provider: &Provider,
    ) -> Result<(Vec<Version>, Warnings), SourceError> {
        let mut all = BTreeSet::new();
        let mut warnings = Vec::new();
        let mut registry_error = None;
        for sel in self.selectors.iter().filter(|s| s.can_handle(provider)) {
            match sel.source.available_versions(provider) {
                Ok((vs, w)) => {
                    all.extend(vs);
                    warnings.extend(w);
                }
                Err(e @ SourceError::RegistryProviderNotKnown { .. }) => registry_error = Some(e),
                Err(SourceError::ProviderNotFound { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        if all.is_empty() {
            return Err(
                registry_error.unwrap_or_else(|| SourceError::ProviderNotFound {
                    provider: provider.to_string(),
                    sources: self.sources_for(provider),
                }),
            );
        }
        Ok((all.into_iter().collect(), warnings))
    }

    fn package_meta(
        &self,
        provider: &Provider,
        version: &Version,
        target: &Platform,
    ) -> Result<PackageMeta, SourceError> {
        if self.selectors.is_empty() {
            return Err(SourceError::ProviderNotFound {
                provider: provider.to_string(),
                sources: Vec::new(),
            });
        }
        for sel in self.selectors.iter().filter(|s| s.can_handle(provider)) {
            match sel.source.package_meta(provider, version, target) {
                Ok(m) => return Ok(m),
                Err(e) if e.is_not_exist() => continue,
                Err(e) => return Err(e),
            }
        }
        Err(SourceError::PlatformNotSupported {
            provider: provider.to_string(),
            version: version.to_string(),
            platform: target.to_string(),
            mirror_url: None,
        })
    }

    fn for_display(&self, provider: &Provider) -> String {
        self.sources_for(provider).join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn patterns() {
        let ps = parse_patterns(&strs(&["hashicorp/*", "example.com/*/*", "*/*/*"])).unwrap();
        let aws = Provider::default_for("aws");
        assert!(ps[0].matches(&aws));
        assert!(!ps[1].matches(&aws));
        assert!(ps[2].matches(&aws));
        for (bad, want) in [
            (
                "aws",
                r#"invalid provider matching pattern "aws": must have either two or three slash-separated segments"#,
            ),
            (
                "*/aws",
                r#"invalid provider matching pattern "*/aws": namespace can be a wildcard only if the provider type is also a wildcard"#,
            ),
            (
                "*/hashicorp/*",
                r#"invalid provider matching pattern "*/hashicorp/*": hostname can be a wildcard only if both namespace and provider type are also wildcards"#,
            ),
            (
                "hashicorp/a.b",
                r#"invalid provider type "a.b" in provider matching pattern "hashicorp/a.b": must either be the wildcard * or a provider type name"#,
            ),
        ] {
            assert_eq!(parse_patterns(&strs(&[bad])).unwrap_err(), want);
        }
    }
}
