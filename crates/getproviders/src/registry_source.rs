//! The provider registry protocol (`registry_source.go`,
//! `registry_client.go`): the host's `providers.v1` service from service
//! discovery (shared with the module installer), `:ns/:type/versions`,
//! and `:ns/:type/:version/download/:os/:arch` with the SHA256SUMS
//! document, its signature and the signing keys.

use std::collections::HashMap;
use std::sync::Mutex;

use addrs::Provider;
use cliconfig::{Disco, DiscoError, RegistryOptions};
use serde_json::Value;

use crate::auth::{PackageAuthentication, RegistryAuthentication, RegistryPlatformData};
use crate::errors::SourceError;
use crate::hash::parse_sha256_hex;
use crate::hash::Hash;
use crate::http::{HttpClient, Response};
use crate::meta::{PackageLocation, PackageMeta};
use crate::platform::Platform;
use crate::source::{Source, Warnings};
use crate::version::Version;

/// The service ID of the provider registry protocol.
pub const PROVIDERS_SERVICE_ID: &str = "providers.v1";
const MAX_BODY: u64 = 16 << 20;

/// Plugin protocol majors this OpenTofu speaks (`>= 5, < 7`).
fn protocol_supported(v: &Version) -> bool {
    (5..7).contains(&v.major)
}

/// Version → the protocols the registry listed for it.
type VersionsResponse = (Vec<(String, Vec<String>)>, Warnings);

/// Installs from each provider's origin registry.
pub struct RegistrySource {
    disco: Disco,
    tokens: HashMap<String, String>,
    http: HttpClient,
    versions: Mutex<HashMap<Provider, VersionsResponse>>,
}

impl RegistrySource {
    /// `registry` supplies discovery (`host` blocks, scheme, timeouts) and
    /// credentials; `http` the client for the protocol's own requests.
    pub fn new(registry: RegistryOptions, http: HttpClient) -> RegistrySource {
        RegistrySource {
            tokens: registry.hosts.tokens.clone(),
            disco: Disco::new(registry),
            http,
            versions: Mutex::new(HashMap::new()),
        }
    }

    fn base_url(&self, provider: &Provider) -> Result<url::Url, SourceError> {
        let hostname = provider.hostname.for_display();
        self.disco
            .discover(&provider.hostname, PROVIDERS_SERVICE_ID)
            .map_err(|e| match e {
                DiscoError(m) if m.contains("does not provide a") => SourceError::HostNoProviders {
                    hostname,
                    has_other_version: false,
                },
                DiscoError(m) if m.contains("does not support") => SourceError::HostNoProviders {
                    hostname,
                    has_other_version: true,
                },
                other => SourceError::HostUnreachable {
                    hostname,
                    wrapped: other.to_string(),
                },
            })
    }

    fn token(&self, provider: &Provider) -> Option<&str> {
        self.tokens
            .get(provider.hostname.as_str())
            .map(String::as_str)
    }

    fn query_failed(provider: &Provider, wrapped: String) -> SourceError {
        SourceError::QueryFailed {
            provider: provider.to_string(),
            wrapped,
            mirror_url: None,
        }
    }

    fn unauthorized(&self, provider: &Provider) -> SourceError {
        SourceError::Unauthorized {
            hostname: provider.hostname.for_display(),
            have_credentials: self.token(provider).is_some(),
        }
    }

    fn json(provider: &Provider, resp: Response) -> Result<Value, SourceError> {
        let body = resp
            .into_bytes(MAX_BODY)
            .map_err(|e| Self::query_failed(provider, e))?;
        serde_json::from_slice(&body).map_err(|e| Self::query_failed(provider, e.to_string()))
    }

    /// `ProviderVersions`, remembered for the run.
    fn provider_versions(&self, provider: &Provider) -> Result<VersionsResponse, SourceError> {
        if let Some(v) = self
            .versions
            .lock()
            .expect("versions cache lock poisoned")
            .get(provider)
        {
            return Ok(v.clone());
        }
        let base = self.base_url(provider)?;
        let url = base
            .join(&format!(
                "{}/{}/versions",
                provider.namespace, provider.type_name
            ))
            .map_err(|e| SourceError::Other(e.to_string()))?;
        let resp = self
            .http
            .get(url.as_str(), self.token(provider))
            .map_err(|e| Self::query_failed(provider, e))?;
        match resp.status {
            200 => {}
            404 => {
                return Err(SourceError::RegistryProviderNotKnown {
                    hostname: provider.hostname.for_display(),
                    provider: provider.to_string(),
                })
            }
            401 | 403 => return Err(self.unauthorized(provider)),
            _ => return Err(Self::query_failed(provider, resp.status_line())),
        }
        let body = Self::json(provider, resp)?;
        let bad = |what: &str| {
            Self::query_failed(
                provider,
                format!(
                    "json: cannot unmarshal {what} into Go value of type getproviders.ResponseBody"
                ),
            )
        };
        let Value::Object(obj) = body else {
            return Err(bad("non-object"));
        };
        let mut versions = Vec::new();
        match obj.get("versions") {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => {
                for item in list {
                    let v = item
                        .get("version")
                        .and_then(Value::as_str)
                        .ok_or_else(|| bad("version entry"))?;
                    let protocols = item
                        .get("protocols")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_string)
                                .collect()
                        })
                        .unwrap_or_default();
                    versions.push((v.to_string(), protocols));
                }
            }
            Some(_) => return Err(bad("versions")),
        }
        let warnings = obj
            .get("warnings")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let result = (versions, warnings);
        self.versions
            .lock()
            .expect("versions cache lock poisoned")
            .insert(provider.clone(), result.clone());
        Ok(result)
    }

    /// `findClosestProtocolCompatibleVersion`.
    fn closest_compatible(&self, provider: &Provider) -> Result<Option<Version>, SourceError> {
        let (versions, _) = self.provider_versions(provider)?;
        let mut best: Option<Version> = None;
        for (v, protocols) in versions {
            let Ok(v) = Version::parse(&v) else { continue };
            let ok = protocols
                .iter()
                .filter_map(|p| Version::parse(p).ok())
                .any(|p| protocol_supported(&p));
            if ok && best.as_ref().is_none_or(|b| v > *b) {
                best = Some(v);
            }
        }
        Ok(best)
    }

    /// `getFile`: a 200 body or Go's "<status> returned from <host>".
    fn get_file(&self, url: &url::Url) -> Result<Vec<u8>, String> {
        let resp = self.http.get(url.as_str(), None)?;
        if resp.status != 200 {
            return Err(format!(
                "{} returned from {}",
                resp.status_line(),
                url.host_str().unwrap_or("")
            ));
        }
        resp.into_bytes(MAX_BODY)
    }
}

fn resolve_http(base: &str, rel: &str, what: &str) -> Result<url::Url, SourceError> {
    let base = url::Url::parse(base).map_err(|e| SourceError::Other(e.to_string()))?;
    let u = base.join(rel).map_err(|e| {
        SourceError::Other(format!("registry response includes invalid {what}: {e}"))
    })?;
    if u.scheme() != "http" && u.scheme() != "https" {
        return Err(SourceError::Other(format!(
            "registry response includes invalid {what}: must use http or https scheme"
        )));
    }
    Ok(u)
}

impl Source for RegistrySource {
    fn available_versions(
        &self,
        provider: &Provider,
    ) -> Result<(Vec<Version>, Warnings), SourceError> {
        let (raw, warnings) = self.provider_versions(provider)?;
        let mut out = Vec::with_capacity(raw.len());
        for (s, _) in &raw {
            let v = Version::parse(s).map_err(|e| {
                Self::query_failed(
                    provider,
                    format!(
                        "registry response includes invalid version string {}: {e}",
                        addrs::go_quote(s)
                    ),
                )
            })?;
            out.push(v);
        }
        out.sort();
        out.dedup();
        Ok((out, warnings))
    }

    fn package_meta(
        &self,
        provider: &Provider,
        version: &Version,
        target: &Platform,
    ) -> Result<PackageMeta, SourceError> {
        let base = self.base_url(provider)?;
        let url = base
            .join(&format!(
                "{}/{}/{version}/download/{}/{}",
                provider.namespace, provider.type_name, target.os, target.arch
            ))
            .map_err(|e| SourceError::Other(e.to_string()))?;
        let resp = self
            .http
            .get(url.as_str(), self.token(provider))
            .map_err(|e| Self::query_failed(provider, e))?;
        match resp.status {
            200 => {}
            404 => {
                return Err(SourceError::PlatformNotSupported {
                    provider: provider.to_string(),
                    version: version.to_string(),
                    platform: target.to_string(),
                    mirror_url: None,
                })
            }
            401 | 403 => return Err(self.unauthorized(provider)),
            _ => return Err(Self::query_failed(provider, resp.status_line())),
        }
        let final_url = resp.final_url.clone();
        let body = Self::json(provider, resp)?;
        let s = |k: &str| {
            body.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };

        let mut protocols = Vec::new();
        for p in body
            .get("protocols")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let p = p.as_str().unwrap_or("");
            protocols.push(Version::parse(p).map_err(|e| {
                Self::query_failed(
                    provider,
                    format!(
                        "registry response includes invalid version string {}: {e}",
                        addrs::go_quote(p)
                    ),
                )
            })?);
        }
        protocols.sort();
        if !protocols.is_empty() && !protocols.iter().any(protocol_supported) {
            return Err(SourceError::ProtocolNotSupported {
                provider: provider.to_string(),
                version: version.to_string(),
                suggestion: self.closest_compatible(provider)?.map(|v| v.to_string()),
            });
        }
        let (os, arch) = (s("os"), s("arch"));
        if os != target.os || arch != target.arch {
            return Err(SourceError::Other(format!(
                "registry response to request for {target} archive has incorrect target {}",
                Platform::new(&os, &arch)
            )));
        }
        let download = resolve_http(&final_url, &s("download_url"), "download URL")?;
        let sum_text = s("shasum");
        let Some(sha256) = parse_sha256_hex(&sum_text) else {
            return Err(Self::query_failed(
                provider,
                format!(
                    "registry response includes invalid SHA256 hash {}",
                    addrs::go_quote(&sum_text)
                ),
            ));
        };
        let sums_url = resolve_http(&final_url, &s("shasums_url"), "SHASUMS URL")?;
        let document = self.get_file(&sums_url).map_err(|e| {
            Self::query_failed(
                provider,
                format!("failed to retrieve authentication checksums for provider: {e}"),
            )
        })?;
        let sig_url = resolve_http(
            &final_url,
            &s("shasums_signature_url"),
            "SHASUMS signature URL",
        )?;
        let signature = self.get_file(&sig_url).map_err(|e| {
            Self::query_failed(
                provider,
                format!("failed to retrieve cryptographic signature for provider: {e}"),
            )
        })?;
        let keys = body
            .pointer("/signing_keys/gpg_public_keys")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|k| k.get("ascii_armor").and_then(Value::as_str))
            .map(str::to_string)
            .collect();
        let mut package_data = std::collections::BTreeMap::new();
        for (plat, entry) in body
            .get("packages")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let platform = Platform::parse(plat).map_err(|e| {
                Self::query_failed(
                    provider,
                    format!(
                        "registry response includes invalid package platform {}: {e}",
                        addrs::go_quote(plat)
                    ),
                )
            })?;
            let mut hashes = Vec::new();
            for raw in entry
                .get("hashes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let raw = raw.as_str().unwrap_or("");
                hashes.push(Hash::parse(raw).map_err(|e| {
                    Self::query_failed(
                        provider,
                        format!(
                            "registry response includes invalid package hash {}: {e}",
                            addrs::go_quote(raw)
                        ),
                    )
                })?);
            }
            let package_size = entry
                .get("package_size")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            package_data.insert(
                platform.to_string(),
                RegistryPlatformData {
                    hashes,
                    package_size,
                },
            );
        }
        let filename = s("filename");
        Ok(PackageMeta {
            provider: provider.clone(),
            version: version.clone(),
            protocol_versions: protocols,
            target_platform: Platform::new(&os, &arch),
            filename: filename.clone(),
            location: PackageLocation::HttpUrl(download.to_string()),
            authentication: Some(PackageAuthentication::Registry(Box::new(
                RegistryAuthentication {
                    provider: provider.clone(),
                    filename,
                    sha256,
                    document,
                    signature,
                    keys,
                    package_data,
                    platform: target.to_string(),
                },
            ))),
        })
    }

    fn for_display(&self, provider: &Provider) -> String {
        format!("registry {}", provider.hostname.for_display())
    }
}
