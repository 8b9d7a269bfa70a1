//! The API token for the cloud backend (`Cloud.Configure` and
//! `cliConfigToken`): the block's `token`, else the credentials OpenTofu's
//! CLI configuration has for the host — a `TF_TOKEN_<host>` variable
//! (dots as `_`, hyphens as `__`), or a `credentials` block of the CLI
//! configuration files, the `credentials.tfrc.json` `tofu login` writes
//! among them (all read by [`cliconfig::load_registry_hosts`]).

use addrs::Hostname;
use cliconfig::RegistryHosts;

use super::diag::CloudDiag;

/// The token to use for `hostname`, or OpenTofu's error when there is none.
pub fn token_for(
    configured: Option<&str>,
    hostname: &str,
    hosts: &RegistryHosts,
) -> Result<String, CloudDiag> {
    if let Some(t) = configured.filter(|t| !t.is_empty()) {
        return Ok(t.to_string());
    }
    let host = Hostname::for_comparison(hostname)
        .map_err(|e| CloudDiag::attr("hostname", capitalize(&e), ""))?;
    if let Some(t) = hosts.tokens.get(host.as_str()).filter(|t| !t.is_empty()) {
        return Ok(t.clone());
    }
    Err(CloudDiag::sourceless(
        "Required token could not be found",
        format!("Run the following command to generate a token for {hostname}:\n    tofu login {hostname}"),
    ))
}

/// `strings.ToUpper(err.Error()[:1]) + err.Error()[1:]`, as OpenTofu turns
/// an error into a diagnostic summary here.
pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_token_then_cli_credentials_then_error() {
        let mut hosts = RegistryHosts::default();
        hosts
            .tokens
            .insert("tfe.example.com".into(), "from-cli".into());
        assert_eq!(
            token_for(Some("from-block"), "tfe.example.com", &hosts).unwrap(),
            "from-block"
        );
        // An empty token in the block falls back on the CLI configuration.
        assert_eq!(
            token_for(Some(""), "TFE.example.com", &hosts).unwrap(),
            "from-cli"
        );
        let e = token_for(None, "other.example.com", &hosts).unwrap_err();
        assert_eq!(e.summary, "Required token could not be found");
        assert_eq!(
            e.detail,
            "Run the following command to generate a token for other.example.com:\n    tofu login other.example.com"
        );
        let e = token_for(None, "https://x", &hosts).unwrap_err();
        assert_eq!(e.attr, Some("hostname"));
        assert!(e.summary.starts_with(char::is_uppercase), "{}", e.summary);
    }

    #[test]
    fn tf_token_variables_decode_the_host_name() {
        // The decoding itself is initwd's; this pins what the cloud
        // backend relies on: `__` is a hyphen, `_` a dot.
        std::env::set_var("TF_TOKEN_my__tfe_example_com", "env-token");
        let mut hosts = RegistryHosts::default();
        cliconfig::tokens_from_env(&mut hosts);
        std::env::remove_var("TF_TOKEN_my__tfe_example_com");
        assert_eq!(
            token_for(None, "my-tfe.example.com", &hosts).unwrap(),
            "env-token"
        );
    }
}
