//! The module registry protocol client (`internal/registry`): find a
//! host's `modules.v1` endpoint (through `cliconfig::Disco`), list a
//! module's versions, and ask where a version's package can be downloaded. Results are cached for the life of the client, which
//! is one `init` run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use addrs::{Hostname, ModuleRegistryPackage};

use cliconfig::{Disco, RegistryOptions};
use gocompat::http::transport_error;

use crate::goversion::{prerelease_exactly_requested, Constraints, Version};

/// The service ID of the module registry protocol.
pub const MODULES_SERVICE_ID: &str = "modules.v1";

/// Why a registry request failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegistryError {
    /// The registry answered 404 for the module (`Module not found`).
    ModuleNotFound(String),
    /// Service discovery failed.
    ServiceUnreachable(String),
    /// Anything else, with OpenTofu's message.
    Other(String),
}

impl std::fmt::Display for RegistryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegistryError::ModuleNotFound(m)
            | RegistryError::ServiceUnreachable(m)
            | RegistryError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RegistryError {}

/// One module's entry in a versions response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleVersionList {
    pub source: String,
    /// The version strings as the registry sent them.
    pub versions: Vec<String>,
}

/// `GET …/versions`: `{"modules":[{"source":…,"versions":[{"version":…}]}]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleVersions {
    pub modules: Vec<ModuleVersionList>,
}

/// A registry client for one run.
pub struct RegistryClient {
    opts: RegistryOptions,
    // Built on first use: building an agent loads the system's root
    // certificates, which an init of local and git modules never needs.
    agent: OnceLock<ureq::Agent>,
    disco: Disco,
    versions: Mutex<HashMap<String, Arc<ModuleVersions>>>,
    locations: Mutex<HashMap<(String, String), String>>,
}

fn build_agent(timeout: Duration, redirects: u32) -> ureq::Agent {
    gocompat::http::AgentOptions::new(timeout, redirects).build()
}

/// A response, whatever its status.
fn call(req: ureq::Request, url: &str) -> Result<ureq::Response, String> {
    match req.call() {
        Ok(r) => Ok(r),
        Err(ureq::Error::Status(_, r)) => Ok(r),
        Err(ureq::Error::Transport(t)) => Err(transport_error(url, &t)),
    }
}

fn status_line(r: &ureq::Response) -> String {
    format!("{} {}", r.status(), r.status_text())
}

impl RegistryClient {
    pub fn new(opts: RegistryOptions) -> RegistryClient {
        RegistryClient {
            agent: OnceLock::new(),
            disco: Disco::new(opts.clone()),
            opts,
            versions: Mutex::new(HashMap::new()),
            locations: Mutex::new(HashMap::new()),
        }
    }

    fn agent(&self) -> &ureq::Agent {
        self.agent
            .get_or_init(|| build_agent(self.opts.request_timeout, 5))
    }

    /// `Client.Discover`: the base URL of `service` on `host`, ending in `/`
    /// (service discovery itself is `cliconfig::Disco`'s).
    pub fn discover(&self, host: &Hostname, service: &str) -> Result<url::Url, RegistryError> {
        self.disco
            .discover(host, service)
            .map_err(|e| RegistryError::ServiceUnreachable(e.to_string()))
    }

    /// A GET with retryablehttp's policy: transport errors, 429 and 5xx
    /// (but 501) are retried; when attempts run out the error says so.
    fn get_with_retry(&self, url: &str, host: &Hostname) -> Result<ureq::Response, RegistryError> {
        let attempts = self.opts.retries + 1;
        let mut last_err = String::new();
        for attempt in 0..attempts {
            if attempt > 0 {
                std::thread::sleep(self.opts.retry_wait);
            }
            let mut req = self
                .agent()
                .get(url)
                .set("X-Terraform-Version", &self.opts.tofu_version);
            if let Some(token) = self.opts.hosts.tokens.get(host.as_str()) {
                req = req.set("Authorization", &format!("Bearer {token}"));
            }
            match call(req, url) {
                Ok(resp) => {
                    let s = resp.status();
                    if s == 429 || (s >= 500 && s != 501) {
                        last_err = format!(": {} returned from {url}", status_line(&resp));
                        continue;
                    }
                    return Ok(resp);
                }
                Err(e) => last_err = format!(": {e}"),
            }
        }
        Err(RegistryError::Other(if attempts > 1 {
            format!(
                "the request failed after {attempts} attempts, please try again later{last_err}"
            )
        } else {
            format!("the request failed, please try again later{last_err}")
        }))
    }

    /// `Client.ModuleVersions`, cached per package.
    pub fn module_versions(
        &self,
        pkg: &ModuleRegistryPackage,
    ) -> Result<Arc<ModuleVersions>, RegistryError> {
        let key = pkg.to_string();
        if let Some(v) = self
            .versions
            .lock()
            .expect("registry cache lock poisoned")
            .get(&key)
        {
            return Ok(v.clone());
        }
        let base = self.discover(&pkg.host, MODULES_SERVICE_ID)?;
        let url = base
            .join(&format!("{}/versions", pkg.for_registry_protocol()))
            .map_err(|e| RegistryError::Other(e.to_string()))?;
        let resp = self.get_with_retry(url.as_str(), &pkg.host)?;
        match resp.status() {
            200 => {}
            404 => {
                return Err(RegistryError::ModuleNotFound(format!(
                    "module {pkg} not found"
                )))
            }
            _ => {
                return Err(RegistryError::Other(format!(
                    "error looking up module versions: {}",
                    status_line(&resp)
                )))
            }
        }
        let body = resp
            .into_string()
            .map_err(|e| RegistryError::Other(format!("error reading response body: {e}")))?;
        let parsed = parse_versions(&body).map_err(RegistryError::Other)?;
        let parsed = Arc::new(parsed);
        self.versions
            .lock()
            .expect("registry cache lock poisoned")
            .insert(key, parsed.clone());
        Ok(parsed)
    }

    /// `Client.ModuleLocation`, cached per package and version: the
    /// go-getter address of the package, relative URLs resolved against
    /// the download URL.
    pub fn module_location(
        &self,
        pkg: &ModuleRegistryPackage,
        version: &str,
    ) -> Result<String, RegistryError> {
        let key = (pkg.to_string(), version.to_string());
        if let Some(l) = self
            .locations
            .lock()
            .expect("registry cache lock poisoned")
            .get(&key)
        {
            return Ok(l.clone());
        }
        let base = self.discover(&pkg.host, MODULES_SERVICE_ID)?;
        let rel = if version.is_empty() {
            format!("{}/download", pkg.for_registry_protocol())
        } else {
            format!("{}/{version}/download", pkg.for_registry_protocol())
        };
        let download = base
            .join(&rel)
            .map_err(|e| RegistryError::Other(e.to_string()))?;
        let resp = self.get_with_retry(download.as_str(), &pkg.host)?;
        let status = resp.status();
        let status_text = status_line(&resp);
        let header = resp.header("X-Terraform-Get").unwrap_or("").to_string();
        let body = resp.into_string().map_err(|e| {
            RegistryError::Other(format!("error reading response body from registry: {e}"))
        })?;
        let mod_q = addrs::go_quote(&pkg.to_string());
        let ver_q = addrs::go_quote(version);
        let location = match status {
            200 => {
                let v: serde_json::Value = serde_json::from_str(&body).map_err(|e| {
                    RegistryError::Other(format!(
                        "module {mod_q} version {ver_q} failed to deserialize response body {body}: {e}"
                    ))
                })?;
                v.get("location")
                    .and_then(|l| l.as_str())
                    .unwrap_or("")
                    .to_string()
            }
            204 => header,
            404 => {
                return Err(RegistryError::Other(format!(
                    "module {mod_q} version {ver_q} not found"
                )))
            }
            _ => {
                return Err(RegistryError::Other(format!(
                    "error getting download location for {mod_q}: {status_text} resp:{body}"
                )))
            }
        };
        if location.is_empty() {
            return Err(RegistryError::Other(format!(
                "failed to get download URL for {mod_q}: {status_text} resp:{body}"
            )));
        }
        let location = if location.starts_with('/')
            || location.starts_with("./")
            || location.starts_with("../")
        {
            download
                .join(&location)
                .map_err(|e| {
                    RegistryError::Other(format!("invalid relative URL for {mod_q}: {e}"))
                })?
                .to_string()
        } else {
            location
        };
        self.locations
            .lock()
            .expect("registry cache lock poisoned")
            .insert(key, location.clone());
        Ok(location)
    }
}

/// Decodes a versions response as Go's decoder would accept it.
pub fn parse_versions(body: &str) -> Result<ModuleVersions, String> {
    let v: serde_json::Value = serde_json::from_str(body).map_err(|e| e.to_string())?;
    let mut modules = Vec::new();
    let list = match v.get("modules") {
        Some(serde_json::Value::Array(a)) => a.as_slice(),
        None | Some(serde_json::Value::Null) => &[],
        Some(_) => {
            return Err(
                "json: cannot unmarshal into Go struct field ModuleVersions.modules".to_string(),
            )
        }
    };
    for m in list {
        let source = m
            .get("source")
            .and_then(|s| s.as_str())
            .unwrap_or("")
            .to_string();
        let versions = match m.get("versions") {
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .map(|e| {
                    e.get("version")
                        .and_then(|s| s.as_str())
                        .unwrap_or("")
                        .to_string()
                })
                .collect(),
            _ => Vec::new(),
        };
        modules.push(ModuleVersionList { source, versions });
    }
    Ok(ModuleVersions { modules })
}

/// The outcome of choosing a version from a registry's list.
#[derive(Debug, Clone, Default)]
pub struct VersionSelection {
    /// The newest version satisfying the constraint.
    pub latest_match: Option<Version>,
    /// The newest version considered at all (for the error message).
    pub latest: Option<Version>,
    /// Version strings that did not parse (reported as warnings).
    pub invalid: Vec<String>,
}

/// OpenTofu's choice among `versions`: invalid strings skipped,
/// prereleases considered only when exactly requested, then the newest
/// satisfying `constraint` (`raw_constraint` is its text).
pub fn select_version(versions: &[String], constraint: &Constraints) -> VersionSelection {
    let mut sel = VersionSelection::default();
    for raw in versions {
        let v = match Version::parse(raw) {
            Ok(v) => v,
            Err(_) => {
                sel.invalid.push(raw.clone());
                continue;
            }
        };
        if !v.prerelease().is_empty() && !prerelease_exactly_requested(&constraint.to_string(), &v)
        {
            continue;
        }
        if sel.latest.as_ref().is_none_or(|l| v > *l) {
            sel.latest = Some(v.clone());
        }
        if constraint.check(&v) && sel.latest_match.as_ref().is_none_or(|l| v > *l) {
            sel.latest_match = Some(v);
        }
    }
    sel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn selection() {
        let versions = strings(&["0.0.1", "0.0.2", "0.0.3-alpha.1", "bogus"]);
        let cases = [
            ("<=0.0.3-alpha.1", Some("0.0.2")),
            ("=0.0.3-alpha.1", Some("0.0.3-alpha.1")),
            (">=0.0.3-alpha.1", None),
            ("0.0.3-alpha.1", Some("0.0.3-alpha.1")),
            ("0.0.3-alpha.1, >=0.0.2", None),
            ("=v0.0.3-alpha.1", Some("0.0.3-alpha.1")),
            (">= 0.0.1", Some("0.0.2")),
        ];
        for (c, want) in cases {
            let sel = select_version(&versions, &Constraints::parse(c).unwrap());
            assert_eq!(
                sel.latest_match.map(|v| v.to_string()).as_deref(),
                want,
                "{c}"
            );
            assert_eq!(sel.invalid, ["bogus"]);
        }
        let sel = select_version(&versions, &Constraints::none());
        assert_eq!(sel.latest_match.unwrap().to_string(), "0.0.2");
        let sel = select_version(&versions, &Constraints::parse("> 1.0").unwrap());
        assert!(sel.latest_match.is_none());
        assert_eq!(sel.latest.unwrap().to_string(), "0.0.2");
    }

    #[test]
    fn versions_response() {
        let v = parse_versions(r#"{"modules":[{"source":"a/b/c","versions":[{"version":"1.0.0"},{"version":"1.1.0"}]}]}"#).unwrap();
        assert_eq!(v.modules[0].versions, ["1.0.0", "1.1.0"]);
        assert!(parse_versions("{}").unwrap().modules.is_empty());
        assert!(parse_versions("garbage").is_err());
    }
}
