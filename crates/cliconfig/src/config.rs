//! The CLI configuration files (`internal/command/cliconfig`): where they
//! are, and the `host` blocks whose `services` replace network service
//! discovery, `credentials` blocks, and `TF_TOKEN_…` variables. The
//! `provider_installation` blocks are read by `getproviders`, through
//! [`cli_config_files`] and [`static_string`].

use std::path::PathBuf;

use hclsyntax::ast::{ExprKind, Literal};
use hclsyntax::static_expr::{expr_map, native_view};
use hclsyntax::{BodySchema, Diagnostic, Diagnostics, Expr};

use crate::hosts::RegistryHosts;

/// The CLI configuration file OpenTofu would read: `TF_CLI_CONFIG_FILE`
/// (or the legacy `TERRAFORM_CONFIG`), else `~/.tofurc`, else
/// `~/.terraformrc` when only that exists.
pub fn cli_config_path() -> Option<PathBuf> {
    for var in ["TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"] {
        if let Some(v) = std::env::var_os(var) {
            if !v.is_empty() {
                return Some(PathBuf::from(v));
            }
        }
    }
    let home = std::env::var_os("HOME").map(PathBuf::from)?;
    let tofurc = home.join(".tofurc");
    if tofurc.exists() {
        return Some(tofurc);
    }
    let legacy = home.join(".terraformrc");
    if legacy.exists() {
        return Some(legacy);
    }
    Some(tofurc)
}

/// OpenTofu's CLI configuration directory (`configDir`): `~/.terraform.d`,
/// or `$XDG_CONFIG_HOME/opentofu` when that is set and `~/.terraform.d`
/// does not exist. `tofu login` keeps its tokens there, in
/// `credentials.tfrc.json`.
pub fn cli_config_dir() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from)?;
    let dir = home.join(".terraform.d");
    if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        if !dir.exists() {
            return Some(PathBuf::from(xdg).join("opentofu"));
        }
    }
    Some(dir)
}

/// Every CLI configuration file OpenTofu reads, in the order it merges
/// them (`cliconfig.LoadConfig`): the main file when it exists, then,
/// unless `TF_CLI_CONFIG_FILE` names the only file, each `*.tfrc` and
/// `*.tfrc.json` in the configuration directory by name (`tofu login`'s
/// `credentials.tfrc.json` among them). Later files win where settings
/// clash.
pub fn cli_config_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = cli_config_path()
        .filter(|p| p.is_file())
        .into_iter()
        .collect();
    if !config_file_overridden() {
        if let Some(dir) = cli_config_dir() {
            files.extend(config_dir_files(&dir));
        }
    }
    files
}

/// `loadConfigDir`: the directory's `*.tfrc` and `*.tfrc.json` files,
/// sorted by name as Go's `os.ReadDir` returns them.
fn config_dir_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".tfrc") || n.ends_with(".tfrc.json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| dir.join(n))
        .filter(|p| p.is_file())
        .collect()
}

/// Whether `TF_CLI_CONFIG_FILE` (or `TERRAFORM_CONFIG`) names the one CLI
/// configuration file to read; OpenTofu then skips the configuration
/// directory.
fn config_file_overridden() -> bool {
    ["TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// A static string: a literal or a template of literal parts only.
pub fn static_string(expr: &Expr) -> Option<String> {
    // In a JSON file (`credentials.tfrc.json`) a string is a template, as
    // HCL decodes an argument there, not an expression to parse.
    let (view, diags) = match &expr.kind {
        ExprKind::Json(node) => {
            let (e, d) =
                hclsyntax::json::to_expression(node, hclsyntax::json::StringMode::Template);
            (std::borrow::Cow::Owned(e), d)
        }
        _ => native_view(expr),
    };
    if !diags.is_empty() {
        return None;
    }
    match &view.unwrap_parens().kind {
        ExprKind::Literal(Literal::String(s)) => Some(s.clone()),
        ExprKind::Template(parts) => {
            let mut out = String::new();
            for p in parts {
                match &p.kind {
                    ExprKind::Literal(Literal::String(s)) => out.push_str(s),
                    _ => return None,
                }
            }
            Some(out)
        }
        _ => None,
    }
}

fn normalize_host(h: &str) -> String {
    addrs::Hostname::for_comparison(h)
        .map(|h| h.as_str().to_string())
        .unwrap_or_else(|_| h.to_ascii_lowercase())
}

/// Reads `host` and `credentials` blocks from CLI configuration source.
/// Other blocks and arguments are left alone (they belong to other parts
/// of OpenTofu).
pub fn parse_registry_hosts(name: &str, src: &[u8], hosts: &mut RegistryHosts) -> Diagnostics {
    let (file, mut diags) = hclsyntax::parse_file(name, src);
    let schema = BodySchema::new(&[], &[("host", &["name"]), ("credentials", &["name"])]);
    let (content, _, d) = file.body.partial_content(&schema);
    diags.extend(d);
    for block in &content.blocks {
        let host = normalize_host(&block.labels[0].value);
        if block.type_name == "host" {
            let (inner, _, d) = block
                .body
                .partial_content(&BodySchema::new(&["services"], &[]));
            diags.extend(d);
            let Some(attr) = inner.attribute("services") else {
                continue;
            };
            let items = match expr_map(&attr.expr) {
                Ok(items) => items,
                Err(d) => {
                    diags.extend(d);
                    continue;
                }
            };
            let mut services = std::collections::HashMap::new();
            for (key, value) in items {
                let k = key
                    .as_bare_name()
                    .map(str::to_string)
                    .or_else(|| static_string(&key.expr));
                match (k, static_string(&value)) {
                    (Some(k), Some(v)) => {
                        services.insert(k, v);
                    }
                    _ => diags.push(Diagnostic::error(
                        "Invalid services",
                        format!(
                            "The services for host {} must be a map of service IDs to URL strings.",
                            addrs::go_quote(&host)
                        ),
                        value.range.clone(),
                    )),
                }
            }
            hosts.services.insert(host, services);
        } else {
            let (inner, _, d) = block
                .body
                .partial_content(&BodySchema::new(&["token"], &[]));
            diags.extend(d);
            if let Some(token) = inner
                .attribute("token")
                .and_then(|a| static_string(&a.expr))
            {
                hosts.tokens.insert(host, token);
            }
        }
    }
    diags
}

/// `TF_TOKEN_<host>` variables: `_` for `.`, `__` for `-`.
pub fn tokens_from_env(hosts: &mut RegistryHosts) {
    for (k, v) in std::env::vars() {
        let Some(rest) = k.strip_prefix("TF_TOKEN_") else {
            continue;
        };
        let host = rest
            .replace("__", "\u{0}")
            .replace('_', ".")
            .replace('\u{0}', "-");
        if !host.is_empty() && !v.is_empty() {
            hosts.tokens.insert(normalize_host(&host), v);
        }
    }
}

/// The registry host settings for this process: the `host`/`credentials`
/// blocks of every CLI configuration file ([`cli_config_files`], later
/// files replacing a host's earlier settings), then `TF_TOKEN_…`
/// variables, which take precedence as in OpenTofu's
/// `CredentialsSource.ForHost`. A missing file is not an error.
pub fn load_registry_hosts() -> (RegistryHosts, Diagnostics) {
    let mut hosts = RegistryHosts::default();
    let mut diags = Vec::new();
    for path in cli_config_files() {
        if let Ok(src) = std::fs::read(&path) {
            diags.extend(parse_registry_hosts(
                &path.to_string_lossy(),
                &src,
                &mut hosts,
            ));
        }
    }
    tokens_from_env(&mut hosts);
    (hosts, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_directory_gives_its_tfrc_files_by_name() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "z.tfrc",
            "credentials.tfrc.json",
            "a.tfrc",
            "notes.txt",
            "b.tfrc.bak",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("plugins.tfrc")).unwrap();
        let names: Vec<String> = config_dir_files(dir.path())
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.tfrc", "credentials.tfrc.json", "z.tfrc"]);
    }

    #[test]
    fn host_blocks() {
        let src = br#"
plugin_cache_dir = "/tmp/x"
host "Example.COM" {
  services = {
    "modules.v1" = "http://127.0.0.1:1234/v1/modules/"
    providers_v1 = "https://x/"
  }
}
credentials "example.com" {
  token = "abc"
}
provider_installation {
  direct {}
}
"#;
        let mut hosts = RegistryHosts::default();
        let diags = parse_registry_hosts("test.tfrc", src, &mut hosts);
        assert!(diags.is_empty(), "{diags:?}");
        let s = &hosts.services["example.com"];
        assert_eq!(s["modules.v1"], "http://127.0.0.1:1234/v1/modules/");
        assert_eq!(s["providers_v1"], "https://x/");
        assert_eq!(hosts.tokens["example.com"], "abc");
    }

    #[test]
    fn credentials_file_as_tofu_login_writes_it() {
        let src = br#"{
  "credentials": {
    "App.Terraform.io": {
      "token": "from-login"
    }
  }
}"#;
        let mut hosts = RegistryHosts::default();
        let diags = parse_registry_hosts("credentials.tfrc.json", src, &mut hosts);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(hosts.tokens["app.terraform.io"], "from-login");
    }
}
