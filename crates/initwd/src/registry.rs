//! The module registry protocol client (`internal/registry`, with
//! terraform-svchost's service discovery): find a host's `modules.v1`
//! endpoint, list a module's versions, and ask where a version's package
//! can be downloaded. Results are cached for the life of the client, which
//! is one `init` run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use addrs::{Hostname, ModuleRegistryPackage};

use crate::fetch::http::transport_error;
use crate::goversion::{prerelease_exactly_requested, Constraints, Version};

/// The service ID of the module registry protocol.
pub const MODULES_SERVICE_ID: &str = "modules.v1";
const DISCO_PATH: &str = "/.well-known/terraform.json";
const MAX_DISCO_DOC_BYTES: u64 = 1 << 20;

/// Per-host settings from the CLI configuration: `host` blocks, whose
/// `services` replace network discovery, and credentials.
#[derive(Debug, Clone, Default)]
pub struct RegistryHosts {
    /// Host (normalized) → service ID → URL, as `host "x" { services = {…} }`.
    pub services: HashMap<String, HashMap<String, String>>,
    /// Host (normalized) → bearer token (`credentials` blocks, `TF_TOKEN_…`).
    pub tokens: HashMap<String, String>,
}

impl RegistryHosts {
    /// Forces the services of `host`, as a CLI configuration `host` block.
    pub fn force_services(&mut self, host: &str, services: &[(&str, &str)]) {
        let host = Hostname::for_comparison(host)
            .map(|h| h.as_str().to_string())
            .unwrap_or_else(|_| host.to_string());
        self.services.insert(
            host,
            services
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
    }
}

/// How the client talks to registries.
#[derive(Debug, Clone)]
pub struct RegistryOptions {
    pub hosts: RegistryHosts,
    /// Per request (`TF_REGISTRY_CLIENT_TIMEOUT`, default 10 s).
    pub request_timeout: Duration,
    /// For the discovery document (11 s in OpenTofu).
    pub discovery_timeout: Duration,
    /// Extra attempts after a failed request (`TF_REGISTRY_DISCOVERY_RETRY`,
    /// default 1).
    pub retries: u32,
    /// Pause before a retry.
    pub retry_wait: Duration,
    /// `https` always, except in tests of discovery itself.
    pub discovery_scheme: &'static str,
    /// Sent as `X-Terraform-Version`.
    pub tofu_version: String,
}

impl Default for RegistryOptions {
    fn default() -> Self {
        RegistryOptions {
            hosts: RegistryHosts::default(),
            request_timeout: Duration::from_secs(10),
            discovery_timeout: Duration::from_secs(11),
            retries: 1,
            retry_wait: Duration::from_secs(1),
            discovery_scheme: "https",
            tofu_version: "1.10.0".to_string(),
        }
    }
}

impl RegistryOptions {
    /// The defaults adjusted by `TF_REGISTRY_CLIENT_TIMEOUT` and
    /// `TF_REGISTRY_DISCOVERY_RETRY`, as OpenTofu reads them.
    pub fn from_env() -> RegistryOptions {
        let mut o = RegistryOptions::default();
        if let Some(t) = env_positive("TF_REGISTRY_CLIENT_TIMEOUT") {
            o.request_timeout = Duration::from_secs(t);
        }
        if let Some(r) = env_positive("TF_REGISTRY_DISCOVERY_RETRY") {
            o.retries = u32::try_from(r).unwrap_or(u32::MAX);
        }
        o
    }
}

fn env_positive(name: &str) -> Option<u64> {
    std::env::var(name)
        .ok()?
        .parse::<u64>()
        .ok()
        .filter(|v| *v > 0)
}

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
    disco_agent: OnceLock<ureq::Agent>,
    hosts: Mutex<HashMap<String, Arc<DiscoveredHost>>>,
    versions: Mutex<HashMap<String, Arc<ModuleVersions>>>,
    locations: Mutex<HashMap<(String, String), String>>,
}

#[derive(Debug)]
struct DiscoveredHost {
    disco_url: url::Url,
    display: String,
    services: serde_json::Map<String, serde_json::Value>,
}

fn build_agent(timeout: Duration, redirects: u32) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(timeout)
        .timeout(timeout)
        .redirects(redirects)
        .user_agent(&format!("OpenTofu/{} tofu-rs", env!("CARGO_PKG_VERSION")))
        .build()
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
            disco_agent: OnceLock::new(),
            opts,
            hosts: Mutex::new(HashMap::new()),
            versions: Mutex::new(HashMap::new()),
            locations: Mutex::new(HashMap::new()),
        }
    }

    fn agent(&self) -> &ureq::Agent {
        self.agent
            .get_or_init(|| build_agent(self.opts.request_timeout, 5))
    }

    fn disco_agent(&self) -> &ureq::Agent {
        self.disco_agent
            .get_or_init(|| build_agent(self.opts.discovery_timeout, 3))
    }

    fn discover_host(&self, host: &Hostname) -> Result<Arc<DiscoveredHost>, RegistryError> {
        let key = host.as_str().to_string();
        let mut cache = self
            .hosts
            .lock()
            .expect("registry host cache lock poisoned");
        if let Some(h) = cache.get(&key) {
            return Ok(h.clone());
        }
        let disco_url = url::Url::parse(&format!(
            "{}://{}{DISCO_PATH}",
            self.opts.discovery_scheme,
            host.as_str()
        ))
        .map_err(|e| RegistryError::ServiceUnreachable(e.to_string()))?;
        let discovered = if let Some(forced) = self.opts.hosts.services.get(&key) {
            DiscoveredHost {
                disco_url: url::Url::parse(&format!("https://{}{DISCO_PATH}", host.as_str()))
                    .unwrap_or(disco_url),
                display: host.for_display(),
                services: forced
                    .iter()
                    .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                    .collect(),
            }
        } else {
            self.fetch_discovery(host, disco_url)?
        };
        let h = Arc::new(discovered);
        cache.insert(key, h.clone());
        Ok(h)
    }

    fn fetch_discovery(
        &self,
        host: &Hostname,
        disco_url: url::Url,
    ) -> Result<DiscoveredHost, RegistryError> {
        let unreachable = RegistryError::ServiceUnreachable;
        let mut req = self
            .disco_agent()
            .get(disco_url.as_str())
            .set("Accept", "application/json");
        if let Some(token) = self.opts.hosts.tokens.get(host.as_str()) {
            req = req.set("Authorization", &format!("Bearer {token}"));
        }
        let resp = call(req, disco_url.as_str())
            .map_err(|e| unreachable(format!("failed to request discovery document: {e}")))?;
        let final_url = url::Url::parse(resp.get_url()).unwrap_or(disco_url);
        let mut host_rec = DiscoveredHost {
            disco_url: final_url,
            display: host.for_display(),
            services: serde_json::Map::new(),
        };
        if resp.status() == 404 {
            return Ok(host_rec);
        }
        if resp.status() != 200 {
            return Err(unreachable(format!(
                "failed to request discovery document: {}",
                status_line(&resp)
            )));
        }
        let content_type = resp.header("Content-Type").unwrap_or("").to_string();
        let media = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if media.is_empty() || media.contains(char::is_whitespace) {
            return Err(unreachable(format!(
                "discovery URL has a malformed Content-Type {}",
                addrs::go_quote(&content_type)
            )));
        }
        if media != "application/json" {
            return Err(unreachable(format!(
                "discovery URL returned an unsupported Content-Type {}",
                addrs::go_quote(&media)
            )));
        }
        let mut body = Vec::new();
        use std::io::Read;
        resp.into_reader()
            .take(MAX_DISCO_DOC_BYTES)
            .read_to_end(&mut body)
            .map_err(|e| unreachable(format!("error reading discovery document body: {e}")))?;
        match serde_json::from_slice::<serde_json::Value>(&body) {
            Ok(serde_json::Value::Object(m)) => host_rec.services = m,
            Ok(_) => {
                return Err(unreachable(
                    "failed to decode discovery document as a JSON object: json: cannot unmarshal into Go value of type map[string]interface {}".to_string(),
                ))
            }
            Err(e) => {
                return Err(unreachable(format!(
                    "failed to decode discovery document as a JSON object: {e}"
                )))
            }
        }
        Ok(host_rec)
    }

    /// `Client.Discover`: the base URL of `service` on `host`, ending in `/`.
    pub fn discover(&self, host: &Hostname, service: &str) -> Result<url::Url, RegistryError> {
        let h = self.discover_host(host)?;
        let unreachable = RegistryError::ServiceUnreachable;
        let name = service.split('.').next().unwrap_or(service);
        let Some(raw) = h.services.get(service).and_then(|v| v.as_str()) else {
            if let Some(other) = h
                .services
                .keys()
                .find(|k| k.starts_with(&format!("{name}.")))
            {
                let _ = other;
                let version = service.rsplit('.').next().unwrap_or("");
                return Err(unreachable(format!(
                    "host {} does not support {name} version {}",
                    h.display,
                    version.trim_start_matches('v')
                )));
            }
            return Err(unreachable(format!(
                "host {} does not provide a {name} service",
                h.display
            )));
        };
        let mut u = h
            .disco_url
            .join(raw)
            .map_err(|e| unreachable(format!("Failed to parse service URL: {e}")))?;
        if u.scheme() != "https" && u.scheme() != "http" {
            return Err(unreachable(format!(
                "Failed to parse service URL: unsupported scheme {}",
                u.scheme()
            )));
        }
        if !u.username().is_empty() || u.password().is_some() {
            return Err(unreachable(
                "Failed to parse service URL: embedded username/password information is not permitted".to_string(),
            ));
        }
        u.set_fragment(None);
        if !u.path().ends_with('/') {
            let p = format!("{}/", u.path());
            u.set_path(&p);
        }
        Ok(u)
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
        if !v.prerelease().is_empty() && !prerelease_exactly_requested(&constraint.to_string(), &v) {
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
