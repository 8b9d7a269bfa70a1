//! The provider network mirror protocol (`http_mirror_source.go`):
//! `:hostname/:namespace/:type/index.json` lists versions and
//! `:version.json` the archives per platform with their hashes.

use std::collections::HashMap;

use addrs::Provider;
use serde_json::Value;

use crate::auth::PackageAuthentication;
use crate::errors::SourceError;
use crate::hash::Hash;
use crate::http::{media_type, HttpClient, Response};
use crate::meta::{PackageLocation, PackageMeta};
use crate::platform::Platform;
use crate::source::{Source, Warnings};
use crate::version::Version;

const MAX_BODY: u64 = 16 << 20;

/// A network mirror at one base URL.
pub struct NetworkMirrorSource {
    base: url::Url,
    http: HttpClient,
    /// Host (normalized, with port) → bearer token.
    tokens: HashMap<String, String>,
}

impl NetworkMirrorSource {
    /// `base` should end in `/`; the CLI configuration layer insists on
    /// `https:` (tests on loopback use `http:`).
    pub fn new(base: url::Url, http: HttpClient, tokens: HashMap<String, String>) -> Self {
        let mut base = base;
        if !base.path().ends_with('/') {
            let p = format!("{}/", base.path());
            base.set_path(&p);
        }
        NetworkMirrorSource { base, http, tokens }
    }

    fn token(&self) -> Option<&str> {
        let host = self.base.host_str()?;
        let key = match self.base.port() {
            Some(p) => format!("{host}:{p}"),
            None => host.to_string(),
        };
        self.tokens
            .get(&key.to_ascii_lowercase())
            .map(String::as_str)
    }

    fn query_failed(&self, provider: &Provider, wrapped: String) -> SourceError {
        SourceError::QueryFailed {
            provider: provider.to_string(),
            wrapped,
            mirror_url: Some(self.base.to_string()),
        }
    }

    /// GET relative to the base; the body is handed back only for a 200
    /// that is JSON.
    fn get(
        &self,
        provider: &Provider,
        rel: &str,
    ) -> Result<(u16, Option<Value>, String), SourceError> {
        let url = self
            .base
            .join(rel)
            .map_err(|e| SourceError::Other(e.to_string()))?;
        let resp: Response = self
            .http
            .get(url.as_str(), self.token())
            .map_err(|e| self.query_failed(provider, e))?;
        let final_url = resp.final_url.clone();
        if resp.status != 200 {
            return Ok((resp.status, None, final_url));
        }
        if media_type(&resp.content_type) != "application/json" {
            return Err(self.query_failed(
                provider,
                "response has invalid Content-Type: must be application/json".to_string(),
            ));
        }
        let body = resp
            .into_bytes(MAX_BODY)
            .map_err(|e| self.query_failed(provider, e))?;
        let v = serde_json::from_slice(&body).map_err(|e| {
            self.query_failed(
                provider,
                format!("invalid response content from mirror server: {e}"),
            )
        })?;
        Ok((200, Some(v), final_url))
    }

    fn status_error(&self, provider: &Provider, status: u16, final_url: &str) -> SourceError {
        match status {
            401 | 403 => SourceError::Unauthorized {
                hostname: url::Url::parse(final_url)
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_string))
                    .unwrap_or_default(),
                have_credentials: true,
            },
            _ => self.query_failed(
                provider,
                format!("server returned unsuccessful status {status}"),
            ),
        }
    }

    fn provider_path(provider: &Provider) -> String {
        format!(
            "{}/{}/{}",
            provider.hostname.as_str(),
            provider.namespace,
            provider.type_name
        )
    }
}

impl Source for NetworkMirrorSource {
    fn available_versions(
        &self,
        provider: &Provider,
    ) -> Result<(Vec<Version>, Warnings), SourceError> {
        let (status, body, final_url) = self.get(
            provider,
            &format!("{}/index.json", Self::provider_path(provider)),
        )?;
        match status {
            200 => {}
            404 => {
                return Err(SourceError::ProviderNotFound {
                    provider: provider.to_string(),
                    sources: vec![self.for_display(provider)],
                })
            }
            s => return Err(self.status_error(provider, s, &final_url)),
        }
        let mut out: Vec<Version> = body
            .as_ref()
            .and_then(|b| b.get("versions"))
            .and_then(Value::as_object)
            .map(|m| m.keys().filter_map(|k| Version::parse(k).ok()).collect())
            .unwrap_or_default();
        out.sort();
        Ok((out, Vec::new()))
    }

    fn package_meta(
        &self,
        provider: &Provider,
        version: &Version,
        target: &Platform,
    ) -> Result<PackageMeta, SourceError> {
        let (status, body, final_url) = self.get(
            provider,
            &format!("{}/{version}.json", Self::provider_path(provider)),
        )?;
        match status {
            200 => {}
            404 => {
                return Err(self.query_failed(
                    provider,
                    format!("provider mirror does not have archive index for previously-reported {provider} version {version}"),
                ))
            }
            s => return Err(self.status_error(provider, s, &final_url)),
        }
        let archive = body
            .as_ref()
            .and_then(|b| b.get("archives"))
            .and_then(|a| a.get(target.to_string()));
        let Some(archive) = archive else {
            return Err(SourceError::PlatformNotSupported {
                provider: provider.to_string(),
                version: version.to_string(),
                platform: target.to_string(),
                mirror_url: Some(self.base.to_string()),
            });
        };
        let rel = archive.get("url").and_then(Value::as_str).unwrap_or("");
        let abs = url::Url::parse(&final_url)
            .and_then(|u| u.join(rel))
            .map_err(|e| {
                self.query_failed(
                    provider,
                    format!(
                        "provider mirror returned invalid URL {}: {e}",
                        addrs::go_quote(rel)
                    ),
                )
            })?;
        let mut hashes = Vec::new();
        for h in archive
            .get("hashes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let raw = h.as_str().unwrap_or("");
            hashes.push(Hash::parse(raw).map_err(|e| {
                self.query_failed(
                    provider,
                    format!(
                        "provider mirror returned invalid provider hash {}: {e}",
                        addrs::go_quote(raw)
                    ),
                )
            })?);
        }
        let filename = abs
            .path_segments()
            .and_then(|mut s| s.next_back())
            .unwrap_or("")
            .to_string();
        Ok(PackageMeta {
            provider: provider.clone(),
            version: version.clone(),
            protocol_versions: Vec::new(),
            target_platform: target.clone(),
            filename,
            location: PackageLocation::HttpUrl(abs.to_string()),
            // A mirror without hashes offers no authentication at all.
            authentication: (!hashes.is_empty()).then_some(PackageAuthentication::Hashes(hashes)),
        })
    }

    fn for_display(&self, _provider: &Provider) -> String {
        format!("provider mirror at {}", self.base)
    }
}
