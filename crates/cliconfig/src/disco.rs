//! terraform-svchost's `disco`: a host's services from its discovery
//! document (`/.well-known/terraform.json`), or from a CLI configuration
//! `host` block that replaces it, cached for the life of the client.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use addrs::Hostname;

use crate::hosts::RegistryOptions;

const DISCO_PATH: &str = "/.well-known/terraform.json";
const MAX_DISCO_DOC_BYTES: u64 = 1 << 20;

/// Why a host's service could not be found, with OpenTofu's message
/// (`host example.com does not provide a modules service`, `failed to
/// request discovery document: …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoError(pub String);

impl std::fmt::Display for DiscoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DiscoError {}

/// Service discovery for one run: `host` blocks first, else each host's
/// discovery document, fetched once.
pub struct Disco {
    opts: RegistryOptions,
    // Built on first use: building an agent loads the system's root
    // certificates, which a run that discovers nothing never needs.
    disco_agent: OnceLock<ureq::Agent>,
    hosts: Mutex<HashMap<String, Arc<DiscoveredHost>>>,
}

#[derive(Debug)]
struct DiscoveredHost {
    disco_url: url::Url,
    display: String,
    services: serde_json::Map<String, serde_json::Value>,
}

/// A response, whatever its status.
fn call(req: ureq::Request, url: &str) -> Result<ureq::Response, String> {
    match req.call() {
        Ok(r) => Ok(r),
        Err(ureq::Error::Status(_, r)) => Ok(r),
        Err(ureq::Error::Transport(t)) => Err(gocompat::http::transport_error(url, &t)),
    }
}

fn status_line(r: &ureq::Response) -> String {
    format!("{} {}", r.status(), r.status_text())
}

impl Disco {
    /// Discovery with `opts`' `host` blocks, credentials (sent with the
    /// discovery request), scheme and discovery timeout.
    pub fn new(opts: RegistryOptions) -> Disco {
        Disco {
            opts,
            disco_agent: OnceLock::new(),
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// The settings this client was made with.
    pub fn options(&self) -> &RegistryOptions {
        &self.opts
    }

    fn disco_agent(&self) -> &ureq::Agent {
        self.disco_agent.get_or_init(|| {
            gocompat::http::AgentOptions::new(self.opts.discovery_timeout, 3).build()
        })
    }

    fn discover_host(&self, host: &Hostname) -> Result<Arc<DiscoveredHost>, DiscoError> {
        let key = host.as_str().to_string();
        let mut cache = self
            .hosts
            .lock()
            .expect("discovery host cache lock poisoned");
        if let Some(h) = cache.get(&key) {
            return Ok(h.clone());
        }
        let disco_url = url::Url::parse(&format!(
            "{}://{}{DISCO_PATH}",
            self.opts.discovery_scheme,
            host.as_str()
        ))
        .map_err(|e| DiscoError(e.to_string()))?;
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
    ) -> Result<DiscoveredHost, DiscoError> {
        let unreachable = DiscoError;
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
    pub fn discover(&self, host: &Hostname, service: &str) -> Result<url::Url, DiscoError> {
        let h = self.discover_host(host)?;
        let unreachable = DiscoError;
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
}
