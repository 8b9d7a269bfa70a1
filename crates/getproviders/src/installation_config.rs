//! Where providers come from, as the CLI configuration says
//! (`command/cliconfig/provider_installation.go` and
//! `cmd/tofu/provider_source.go`): the `provider_installation` block with
//! `filesystem_mirror`, `network_mirror` and `direct` methods and their
//! `include`/`exclude` patterns, `plugin_cache_dir`, the implied local
//! mirror directories when there is no such block, and `-plugin-dir`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use addrs::Provider;
use cliconfig::static_string;
use cliconfig::RegistryOptions;
use hclsyntax::ast::{ExprKind, Literal};
use hclsyntax::static_expr::{expr_list, native_view};
use hclsyntax::{Block, BodySchema, Diagnostic, Diagnostics, Expr, Range};

use crate::http::HttpClient;
use crate::mirror_fs::FilesystemMirrorSource;
use crate::mirror_http::NetworkMirrorSource;
use crate::multi_source::{parse_patterns, MultiSource, MultiSourceSelector, ProviderPattern};
use crate::registry_source::RegistrySource;

/// One installation method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallationMethod {
    /// `direct {}`: each provider's origin registry.
    Direct,
    /// `filesystem_mirror { path = ... }`.
    FilesystemMirror(PathBuf),
    /// `network_mirror { url = ... }`.
    NetworkMirror(String),
}

/// A method with the providers it applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodConfig {
    pub method: InstallationMethod,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

/// One `provider_installation` block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderInstallation {
    pub methods: Vec<MethodConfig>,
    /// `dev_overrides`: provider → local directory, bypassing installation.
    pub dev_overrides: BTreeMap<Provider, PathBuf>,
}

/// The provider-related settings of the CLI configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderCliConfig {
    /// Every `provider_installation` block; only the first is used.
    pub installation: Vec<ProviderInstallation>,
    pub plugin_cache_dir: Option<PathBuf>,
    pub plugin_cache_may_break_dependency_lock_file: bool,
}

fn pos(r: &Range) -> String {
    format!("{}:{}:{}", r.filename, r.start.line, r.start.column)
}

fn method_error(detail: String, subject: &Range) -> Diagnostic {
    Diagnostic::error(
        "Invalid provider_installation method block",
        detail,
        subject.clone(),
    )
}

fn string_list(expr: &Expr) -> Option<Vec<String>> {
    expr_list(expr)
        .ok()?
        .iter()
        .map(static_string)
        .collect::<Option<Vec<_>>>()
}

fn static_bool(expr: &Expr) -> Option<bool> {
    let (view, diags) = native_view(expr);
    if !diags.is_empty() {
        return None;
    }
    match &view.unwrap_parens().kind {
        ExprKind::Literal(Literal::Bool(b)) => Some(*b),
        _ => None,
    }
}

/// Reads the provider settings from CLI configuration source (native or
/// JSON syntax). Other blocks belong to other parts and are ignored.
pub fn parse_provider_cli_config(name: &str, src: &[u8]) -> (ProviderCliConfig, Diagnostics) {
    let mut cfg = ProviderCliConfig::default();
    let (file, mut diags) = hclsyntax::parse_file(name, src);
    let schema = BodySchema::new(
        &[
            "plugin_cache_dir",
            "plugin_cache_may_break_dependency_lock_file",
        ],
        &[("provider_installation", &[])],
    );
    let (content, _, d) = file.body.partial_content(&schema);
    diags.extend(d);
    if let Some(a) = content.attribute("plugin_cache_dir") {
        match static_string(&a.expr) {
            Some(s) if !s.is_empty() => cfg.plugin_cache_dir = Some(PathBuf::from(s)),
            Some(_) => {}
            None => diags.push(Diagnostic::error(
                "Invalid plugin_cache_dir",
                "The plugin_cache_dir setting must be a string.",
                a.expr.range.clone(),
            )),
        }
    }
    if let Some(a) = content.attribute("plugin_cache_may_break_dependency_lock_file") {
        cfg.plugin_cache_may_break_dependency_lock_file = static_bool(&a.expr).unwrap_or(false);
    }
    for block in &content.blocks {
        cfg.installation
            .push(decode_installation_block(block, &mut diags));
    }
    if cfg.installation.len() > 1 {
        diags.push(Diagnostic::error(
            "Multiple provider_installation blocks",
            "The CLI configuration may contain at most one provider_installation block.",
            content.blocks[1].def_range(),
        ));
    }
    (cfg, diags)
}

fn decode_installation_block(block: &Block, diags: &mut Diagnostics) -> ProviderInstallation {
    let mut pi = ProviderInstallation::default();
    let at = pos(&block.type_range);
    let methods = [
        ("direct", &[][..]),
        ("filesystem_mirror", &[][..]),
        ("network_mirror", &[][..]),
        ("oci_mirror", &[][..]),
        ("dev_overrides", &[][..]),
    ];
    let (content, _, d) = block.body.partial_content(&BodySchema::new(&[], &methods));
    diags.extend(d);
    for mb in &content.blocks {
        let kind = mb.type_name.as_str();
        if kind == "dev_overrides" {
            if !pi.methods.is_empty() {
                diags.push(method_error(
                    format!("The dev_overrides block at at {} must appear before all other installation methods, because development overrides always have the highest priority.", pos(&mb.type_range)),
                    &mb.type_range,
                ));
                continue;
            }
            decode_dev_overrides(mb, &at, &mut pi, diags);
            continue;
        }
        if kind == "oci_mirror" {
            diags.push(method_error(
                format!("Invalid oci_mirror block at {at}: OCI mirrors are not supported by tofu-rs yet."),
                &mb.type_range,
            ));
            continue;
        }
        let (inner, _, d) = mb.body.partial_content(&BodySchema::new(
            &["path", "url", "include", "exclude", "download_retry_count"],
            &[],
        ));
        diags.extend(d);
        let mut list = |name: &str| -> Option<Vec<String>> {
            let a = inner.attribute(name)?;
            let l = string_list(&a.expr);
            if l.is_none() {
                diags.push(method_error(
                    format!("Invalid {kind} block at {at}: {name} must be a list of strings."),
                    &a.expr.range,
                ));
            }
            l
        };
        let include = list("include").unwrap_or_default();
        let exclude = list("exclude").unwrap_or_default();
        let string_arg = |name: &str| inner.attribute(name).and_then(|a| static_string(&a.expr));
        let method = match kind {
            "direct" => InstallationMethod::Direct,
            "filesystem_mirror" => match string_arg("path").filter(|s| !s.is_empty()) {
                Some(p) => InstallationMethod::FilesystemMirror(PathBuf::from(p)),
                None => {
                    diags.push(method_error(
                        format!("Invalid {kind} block at {at}: \"path\" argument is required."),
                        &mb.type_range,
                    ));
                    continue;
                }
            },
            _ => match string_arg("url").filter(|s| !s.is_empty()) {
                Some(u) => InstallationMethod::NetworkMirror(u),
                None => {
                    diags.push(method_error(
                        format!("Invalid {kind} block at {at}: \"url\" argument is required."),
                        &mb.type_range,
                    ));
                    continue;
                }
            },
        };
        pi.methods.push(MethodConfig {
            method,
            include,
            exclude,
        });
    }
    pi
}

fn decode_dev_overrides(
    mb: &Block,
    at: &str,
    pi: &mut ProviderInstallation,
    diags: &mut Diagnostics,
) {
    let (attrs, d) = mb.body.just_attributes();
    diags.extend(d);
    for a in attrs {
        let Some(path) = static_string(&a.expr) else {
            diags.push(method_error(
                format!("Invalid dev_overrides block at {at}: the values must be strings."),
                &a.expr.range,
            ));
            continue;
        };
        match addrs::parse_provider_source_string(&a.name) {
            Ok(addr) => {
                pi.dev_overrides.insert(addr, PathBuf::from(path));
            }
            Err(ds) => diags.push(Diagnostic::error(
                "Invalid provider installation dev overrides",
                format!(
                    "The entry {} in {at} is not a valid provider source string.\n\n{}",
                    addrs::go_quote(&a.name),
                    ds.first().map(|d| d.detail.clone()).unwrap_or_default()
                ),
                a.name_range.clone(),
            )),
        }
    }
}

/// Reads the CLI configuration files OpenTofu would read
/// (`cliconfig::cli_config_files`) and merges them as its
/// `Config.Merge` does. No file is no configuration at all.
pub fn load_provider_cli_config() -> (ProviderCliConfig, Diagnostics) {
    let mut parsed = Vec::new();
    for path in cliconfig::cli_config_files() {
        if let Ok(src) = std::fs::read(&path) {
            parsed.push(parse_provider_cli_config(&path.to_string_lossy(), &src));
        }
    }
    merge_provider_cli_configs(parsed)
}

/// `Config.Merge` over files in order: `provider_installation` blocks
/// accumulate (and more than one in all is an error), the first
/// `plugin_cache_dir` set wins, and breaking the lock file is allowed once
/// any file allows it.
fn merge_provider_cli_configs(
    parsed: Vec<(ProviderCliConfig, Diagnostics)>,
) -> (ProviderCliConfig, Diagnostics) {
    let mut cfg = ProviderCliConfig::default();
    let mut diags = Diagnostics::new();
    let mut reported_multiple = false;
    for (file, file_diags) in parsed {
        reported_multiple |= file.installation.len() > 1;
        diags.extend(file_diags);
        cfg.installation.extend(file.installation);
        if cfg.plugin_cache_dir.is_none() {
            cfg.plugin_cache_dir = file.plugin_cache_dir;
        }
        cfg.plugin_cache_may_break_dependency_lock_file |=
            file.plugin_cache_may_break_dependency_lock_file;
    }
    if cfg.installation.len() > 1 && !reported_multiple {
        // A Go error appended to diagnostics: its text is the summary.
        diags.push(Diagnostic {
            severity: hclsyntax::Severity::Error,
            summary: "No more than one provider_installation block may be specified".into(),
            detail: String::new(),
            subject: None,
            context: None,
        });
    }
    (cfg, diags)
}

/// The local directories searched when there is no `provider_installation`
/// block, in OpenTofu's order: `terraform.d/plugins` under `cwd`, the
/// CLI data directory's `plugins` (`~/.terraform.d/plugins`, or
/// `$XDG_DATA_HOME/opentofu/plugins` on a fresh install), then the XDG
/// data directories' `terraform/plugins`.
pub fn implied_local_mirror_dirs(cwd: &Path) -> Vec<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let mut dirs = vec![cwd.join("terraform.d").join("plugins")];
    if let Some(home) = env("HOME") {
        let legacy = home.join(".terraform.d");
        match env("XDG_DATA_HOME") {
            Some(xdg) if !legacy.exists() => dirs.push(xdg.join("opentofu").join("plugins")),
            _ => dirs.push(legacy.join("plugins")),
        }
    }
    // go-userdirs' XDG data search paths for the app name "terraform".
    let data_home = env("XDG_DATA_HOME").or_else(|| env("HOME").map(|h| h.join(".local/share")));
    if let Some(h) = data_home {
        dirs.push(h.join("terraform").join("plugins"));
    }
    let data_dirs = std::env::var("XDG_DATA_DIRS")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "/usr/local/share/:/usr/share/".to_string());
    for d in data_dirs.split(':').filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d).join("terraform").join("plugins"));
    }
    dirs
}

/// What network sources need to talk to hosts.
#[derive(Clone)]
pub struct NetworkSettings {
    /// Discovery, `host` blocks and credentials.
    pub registry: RegistryOptions,
    pub http: HttpClient,
}

impl NetworkSettings {
    /// What `init` uses: the CLI configuration's `host` and `credentials`
    /// blocks, `TF_TOKEN_…`, and the timeout and retry variables.
    pub fn from_environment() -> (NetworkSettings, Diagnostics) {
        let (hosts, diags) = cliconfig::load_registry_hosts();
        let registry = RegistryOptions {
            hosts,
            ..RegistryOptions::from_env()
        };
        let http = HttpClient::new(crate::http::HttpOptions::from_env());
        (NetworkSettings { registry, http }, diags)
    }
}

/// `-plugin-dir`: only these filesystem mirrors, nothing else.
pub fn plugin_dir_source(dirs: &[PathBuf]) -> MultiSource {
    MultiSource {
        selectors: dirs
            .iter()
            .map(|d| MultiSourceSelector::new(Arc::new(FilesystemMirrorSource::new(d))))
            .collect(),
    }
}

/// `providerSource`: the explicit methods of the first
/// `provider_installation` block, or the implied local directories plus
/// the registry for everything not found in them.
pub fn build_source(
    config: &ProviderCliConfig,
    cwd: &Path,
    net: &NetworkSettings,
) -> (MultiSource, Diagnostics) {
    match config.installation.first() {
        Some(pi) => explicit_source(pi, net),
        None => (implicit_source(cwd, net), Vec::new()),
    }
}

fn sourceless(summary: &str, detail: String) -> Diagnostic {
    Diagnostic {
        severity: hclsyntax::Severity::Error,
        summary: summary.to_string(),
        detail,
        subject: None,
        context: None,
    }
}

fn explicit_source(pi: &ProviderInstallation, net: &NetworkSettings) -> (MultiSource, Diagnostics) {
    let mut diags = Vec::new();
    let mut selectors = Vec::new();
    // One registry source for every `direct` block, so discovery and
    // version lists are shared.
    let registry = Arc::new(RegistrySource::new(net.registry.clone(), net.http.clone()));
    for m in &pi.methods {
        let source: Arc<dyn crate::Source> = match &m.method {
            InstallationMethod::Direct => registry.clone(),
            InstallationMethod::FilesystemMirror(p) => Arc::new(FilesystemMirrorSource::new(p)),
            InstallationMethod::NetworkMirror(u) => {
                let parsed = match url::Url::parse(u) {
                    Ok(p) => p,
                    Err(e) => {
                        diags.push(sourceless(
                            "Invalid URL for provider installation source",
                            format!(
                                "Cannot parse {} as a URL for a network provider mirror: {e}.",
                                addrs::go_quote(u)
                            ),
                        ));
                        continue;
                    }
                };
                if parsed.scheme() != "https" || parsed.host_str().unwrap_or("").is_empty() {
                    diags.push(sourceless(
                        "Invalid URL for provider installation source",
                        format!(
                            "Cannot use {} as a URL for a network provider mirror: the mirror must be at an https: URL.",
                            addrs::go_quote(u)
                        ),
                    ));
                    continue;
                }
                Arc::new(NetworkMirrorSource::new(
                    parsed,
                    net.http.clone(),
                    net.registry.hosts.tokens.clone(),
                ))
            }
        };
        let include = match parse_patterns(&m.include) {
            Ok(p) => p,
            Err(e) => {
                diags.push(sourceless(
                    "Invalid provider source inclusion patterns",
                    format!("CLI config specifies invalid provider inclusion patterns: {e}."),
                ));
                continue;
            }
        };
        let exclude = match parse_patterns(&m.exclude) {
            Ok(p) => p,
            Err(e) => {
                diags.push(sourceless(
                    "Invalid provider source exclusion patterns",
                    format!("CLI config specifies invalid provider exclusion patterns: {e}."),
                ));
                continue;
            }
        };
        selectors.push(MultiSourceSelector {
            source,
            include,
            exclude,
        });
    }
    (MultiSource { selectors }, diags)
}

fn implicit_source(cwd: &Path, net: &NetworkSettings) -> MultiSource {
    let mut selectors = Vec::new();
    let mut found: Vec<ProviderPattern> = Vec::new();
    for dir in implied_local_mirror_dirs(cwd) {
        if !dir.is_dir() {
            continue;
        }
        let fs = FilesystemMirrorSource::new(&dir);
        // Anything found locally is not looked up in its registry.
        if let Ok(index) = fs.all_available_packages() {
            for p in index.keys() {
                let pat = ProviderPattern::exact(p);
                if !found.contains(&pat) {
                    found.push(pat);
                }
            }
        }
        selectors.push(MultiSourceSelector::new(Arc::new(fs)));
    }
    selectors.push(MultiSourceSelector {
        source: Arc::new(RegistrySource::new(net.registry.clone(), net.http.clone())),
        include: Vec::new(),
        exclude: found,
    });
    MultiSource { selectors }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_merge_as_opentofu_merges_them() {
        let main = parse_provider_cli_config(
            "main.tfrc",
            b"plugin_cache_dir = \"/first\"\nprovider_installation {\n  direct {}\n}\n",
        );
        let dir = parse_provider_cli_config(
            "b.tfrc",
            b"plugin_cache_dir = \"/second\"\nplugin_cache_may_break_dependency_lock_file = true\n",
        );
        let (cfg, diags) = merge_provider_cli_configs(vec![main.clone(), dir]);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(cfg.plugin_cache_dir.as_deref(), Some(Path::new("/first")));
        assert!(cfg.plugin_cache_may_break_dependency_lock_file);
        assert_eq!(cfg.installation.len(), 1);

        // One block in each of two files is as many as two in one.
        let other =
            parse_provider_cli_config("c.tfrc", b"provider_installation {\n  direct {}\n}\n");
        let (_, diags) = merge_provider_cli_configs(vec![main, other]);
        let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
        assert_eq!(
            summaries,
            ["No more than one provider_installation block may be specified"]
        );
    }

    #[test]
    fn provider_installation_block() {
        let src = br#"
plugin_cache_dir = "/var/cache/tf"
provider_installation {
  filesystem_mirror {
    path    = "/usr/share/terraform/providers"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url     = "https://mirror.example.com/providers/"
    exclude = ["hashicorp/*"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
credentials "app.terraform.io" { token = "x" }
"#;
        let (cfg, diags) = parse_provider_cli_config("t.tfrc", src);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            cfg.plugin_cache_dir.as_deref(),
            Some(Path::new("/var/cache/tf"))
        );
        let m = &cfg.installation[0].methods;
        assert_eq!(
            m[0],
            MethodConfig {
                method: InstallationMethod::FilesystemMirror(
                    "/usr/share/terraform/providers".into()
                ),
                include: vec!["example.com/*/*".into()],
                exclude: vec![],
            }
        );
        assert_eq!(
            m[1].method,
            InstallationMethod::NetworkMirror("https://mirror.example.com/providers/".into())
        );
        assert_eq!(m[2].method, InstallationMethod::Direct);
        assert_eq!(m[2].exclude, ["example.com/*/*"]);
    }

    #[test]
    fn method_errors() {
        let src = b"provider_installation {\n  filesystem_mirror {}\n  network_mirror { url = \"http://x/\" }\n}\n";
        let (cfg, diags) = parse_provider_cli_config("t.tfrc", src);
        assert_eq!(diags.len(), 1);
        assert_eq!(
            diags[0].detail,
            "Invalid filesystem_mirror block at t.tfrc:1:1: \"path\" argument is required."
        );
        let net = NetworkSettings {
            registry: RegistryOptions::default(),
            http: HttpClient::new(Default::default()),
        };
        let (_, diags) = build_source(&cfg, Path::new("."), &net);
        assert_eq!(
            diags[0].detail,
            "Cannot use \"http://x/\" as a URL for a network provider mirror: the mirror must be at an https: URL."
        );
    }

    #[test]
    fn implied_dirs_start_with_the_vendor_dir() {
        let dirs = implied_local_mirror_dirs(Path::new("/w"));
        assert_eq!(dirs[0], Path::new("/w/terraform.d/plugins"));
        assert!(dirs.iter().any(|d| d.ends_with("terraform/plugins")));
    }
}
