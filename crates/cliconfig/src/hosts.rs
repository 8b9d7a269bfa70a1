//! The registry host settings the CLI configuration gives (`host` blocks'
//! services, credentials) and the timeouts and retries OpenTofu reads from
//! the environment for talking to registries.

use std::collections::HashMap;
use std::time::Duration;

use addrs::Hostname;

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
