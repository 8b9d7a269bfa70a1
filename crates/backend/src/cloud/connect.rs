//! `Cloud.Configure`: from a checked configuration to a connected client —
//! service discovery of `tfe.v2` on the hostname, the token, the ping
//! (API version), the organization's entitlements, the `TF_WORKSPACE`
//! check, and the minimum API version (2.5).

use addrs::Hostname;
use cliconfig::{RegistryHosts, RegistryOptions};
use cty::Value;
use initwd::{RegistryClient, RegistryError, Version};

use super::client::{ApiError, ClientOptions, TfeClient};
use super::config::{settings, CloudEnv, Settings, Strategy};
use super::credentials::{capitalize, token_for};
use super::diag::CloudDiag;

const TFE_SERVICE_ID: &str = "tfe.v2";

const UNSUPPORTED_IN_AUTOMATION: &str = "\nThis version of cloud backend does not support the state mechanism\nattempting to be used by the platform. This should never happen.\n\nPlease reach out to OpenTofu Support to resolve this issue.";

/// A configured cloud backend.
pub struct Connection {
    pub client: TfeClient,
    pub settings: Settings,
    pub env: CloudEnv,
    /// The OpenTofu version a new workspace is set to.
    pub tofu_version: String,
}

/// What `Configure` needs from outside the block.
#[derive(Clone)]
pub struct ConnectOptions {
    /// `host` blocks and credentials of the CLI configuration.
    pub hosts: RegistryHosts,
    pub client: ClientOptions,
    /// `https` except in tests of a plain-HTTP fake.
    pub discovery_scheme: &'static str,
}

impl ConnectOptions {
    /// The CLI configuration of this process, OpenTofu's client settings.
    pub fn from_process() -> (ConnectOptions, tfdiags::Diagnostics) {
        let (hosts, diags) = cliconfig::load_registry_hosts();
        (
            ConnectOptions {
                hosts,
                client: ClientOptions::default(),
                discovery_scheme: "https",
            },
            diags.into(),
        )
    }
}

/// `Cloud.Configure` with `obj`, a configuration `PrepareConfig` accepted.
pub fn configure(
    obj: &Value,
    env: &CloudEnv,
    opts: &ConnectOptions,
) -> Result<Connection, Vec<CloudDiag>> {
    let settings = settings(obj, env).map_err(|d| vec![d])?;
    let service = discover(&settings.hostname, opts)
        .map_err(|e| vec![CloudDiag::attr("hostname", capitalize(&e), "")])?;
    let token = token_for(settings.token.as_deref(), &settings.hostname, &opts.hosts)
        .map_err(|d| vec![d])?;
    let mut client = TfeClient::connect(service, &token, opts.client.clone()).map_err(|e| {
        vec![CloudDiag::sourceless(
            "Failed to create the cloud backend client",
            format!(
                "Encountered an unexpected error while creating the cloud backend client: {e}."
            ),
        )]
    })?;

    let (org, host) = (&settings.organization, &settings.hostname);
    if let Err(e) = client.read_entitlements(org) {
        let err = match e {
            ApiError::NotFound => format!("organization {} at host {host} not found.\n\nPlease ensure that the organization and hostname are correct and that your API token for {host} is valid.", cty::format::go_quote(org)),
            other => other.to_string(),
        };
        return Err(vec![CloudDiag::attr(
            "organization",
            format!(
                "Failed to read organization {} at host {host}",
                cty::format::go_quote(org)
            ),
            format!(
                "Encountered an unexpected error while reading the organization settings: {err}"
            ),
        )]);
    }

    if let Some(ws) = &env.workspace {
        if *ws == settings.mapping.name || settings.mapping.strategy() == Strategy::Tags {
            if let Some(d) = valid_workspace_env_var(&client, &settings, ws) {
                return Err(vec![d]);
            }
        }
    }

    // Before API 2.3 there is no version header: an empty or unparsable
    // one counts as too old.
    let too_old = match Version::parse(client.remote_api_version()) {
        Ok(v) => Version::parse("2.5").is_ok_and(|min| v < min),
        Err(_) => true,
    };
    if too_old {
        return Err(vec![CloudDiag::sourceless(
            "Unsupported cloud backend version",
            if env.in_automation {
                UNSUPPORTED_IN_AUTOMATION
            } else {
                "The 'cloud' option is not supported with this version of the cloud backend."
            },
        )]);
    }
    client.retry_server_errors();
    Ok(Connection {
        client,
        settings,
        env: env.clone(),
        tofu_version: opts.client.tofu_version.clone(),
    })
}

/// `Cloud.discover`: the `tfe.v2` service URL, with OpenTofu's wording of
/// what went wrong (lowercase; the caller capitalizes it).
fn discover(hostname: &str, opts: &ConnectOptions) -> Result<url::Url, String> {
    let host = Hostname::for_comparison(hostname)?;
    let mut ropts = RegistryOptions::from_env();
    ropts.hosts = opts.hosts.clone();
    ropts.discovery_scheme = opts.discovery_scheme;
    let registry = RegistryClient::new(ropts);
    registry
        .discover(&host, TFE_SERVICE_ID)
        .map_err(|e| match e {
            // A request that got no answer (`ErrServiceDiscoveryNetworkRequest`);
            // a bad status or document is reported as it is.
            RegistryError::ServiceUnreachable(m)
                if m.starts_with("failed to request discovery document: Get ") =>
            {
                format!("a network issue prevented cloud configuration; {m}")
            }
            other => other.to_string(),
        })
}

/// `validWorkspaceEnvVar`: the workspace `TF_WORKSPACE` selects must exist
/// and, with tags, carry them.
fn valid_workspace_env_var(client: &TfeClient, s: &Settings, ws: &str) -> Option<CloudDiag> {
    let org = &s.organization;
    match client.read_workspace(org, ws) {
        Ok(_) => {}
        Err(ApiError::NotFound) => {
            return Some(CloudDiag::sourceless(
                "Invalid workspace selection",
                format!(
                    "OpenTofu failed to find workspace {} in organization {org}.",
                    cty::format::go_quote(ws)
                ),
            ))
        }
        Err(e) => {
            return Some(CloudDiag::sourceless(
                "Cloud backend returned an unexpected error",
                e.to_string(),
            ))
        }
    }
    if s.mapping.strategy() != Strategy::Tags {
        return None;
    }
    let tags = s.mapping.tags.join(",");
    let mut page = 0;
    loop {
        let list = match client.list_workspaces(org, Some(&tags), None, page) {
            Ok(l) => l,
            Err(e) => {
                return Some(CloudDiag::sourceless(
                    "Cloud backend returned an unexpected error",
                    e.to_string(),
                ))
            }
        };
        if list.items.iter().any(|w| w.name == ws) {
            return None;
        }
        if list.current_page >= list.total_pages || list.next_page <= page {
            break;
        }
        page = list.next_page;
    }
    Some(CloudDiag::sourceless(
        "Invalid workspace selection",
        format!(
            "OpenTofu failed to find workspace {} with the tags specified in your configuration:\n[{}]",
            cty::format::go_quote(ws),
            tags.replace(',', ", ")
        ),
    ))
}
