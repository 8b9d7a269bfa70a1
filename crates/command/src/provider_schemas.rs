//! The provider plugins of a working directory, and the schemas a command
//! reads from them (OpenTofu's `Meta.providerFactories`, the context's
//! `checkConfigDependencies` and the schema loading of its graph builder),
//! through [`providerhost`]'s cache: a provider whose schema is cached is
//! not started.

use std::path::Path;
use std::sync::Arc;

use addrs::Provider;
use configs::config::Config;
use providerhost::{locate_providers, ProviderHost, SchemaLoadError};
use tfdiags::{Diagnostic, Diagnostics, Severity};
use tofu::schemas::Schemas;

use crate::provider_install::LOCK_FILE;

/// The plugins a command in one working directory may start.
pub struct Plugins {
    pub host: Arc<ProviderHost>,
    /// The lock file could not be read: nothing is known of any provider.
    locks_unreadable: bool,
    /// `providerPluginErrors`: locked providers without a package.
    missing_packages: Option<String>,
}

/// What OpenTofu says when the lock file cannot be read.
const LOCKS_UNREADABLE: &str = "failed to read dependency lock file";

/// Finds the plugins of the working directory `work_dir`: every provider
/// of its lock file in its data directory's `providers`, the CLI
/// configuration's development overrides, and the unmanaged providers of
/// `TF_REATTACH_PROVIDERS`. Hosts given one `share` (the
/// roots of `-recursive`) read each provider's schema once.
pub fn plugins_in(
    work_dir: &Path,
    share: Option<&Arc<providerhost::SchemaShare>>,
) -> (Plugins, Diagnostics) {
    let mut diags = Diagnostics::new();
    let (locks, lock_diags) =
        depsfile::load_locks_if_present(&crate::loader::under(work_dir, LOCK_FILE));
    let failed_locks = hclsyntax::has_errors(&lock_diags);
    diags.append(lock_diags);
    let (cli_cfg, cfg_diags) = getproviders::load_provider_cli_config();
    diags.append(cfg_diags);
    let dev_overrides = cli_cfg
        .installation
        .first()
        .map(|i| i.dev_overrides.clone())
        .unwrap_or_default();
    let unmanaged = crate::unmanaged_providers::configured();
    let shown = crate::loader::data_dir().join("providers");
    let mut located = locate_providers(
        &locks,
        &crate::loader::data_dir_in(work_dir).join("providers"),
        &shown.to_string_lossy(),
        &getproviders::Platform::current().to_string(),
        &dev_overrides,
    );
    // Unmanaged providers need no package (OpenTofu marks them overridden
    // in the locks); `with_unmanaged` puts them in the place of one that
    // is installed.
    for provider in unmanaged.keys() {
        located.errors.remove(provider);
    }
    let missing_packages = located.error_text();
    let unmanaged_addrs: Vec<Provider> = unmanaged.keys().cloned().collect();
    let host = ProviderHost::new(
        crate::plugin_launcher::launcher(unmanaged),
        providerhost::cache_dir::from_env(),
        located.found.into_values(),
    )
    .with_unmanaged(unmanaged_addrs);
    let host = match share {
        Some(share) => host.sharing(share.clone()),
        None => host,
    };
    (
        Plugins {
            host: Arc::new(host),
            locks_unreadable: failed_locks,
            missing_packages,
        },
        diags,
    )
}

impl Plugins {
    /// validate's schemas: those of the providers `init` installed, with
    /// the host as the walk's validator. A provider `init` has not
    /// installed (no lock entry, or no package for it) is checked from its
    /// configuration alone, so that `validate` runs without `init` as the
    /// command-line contract says (OpenTofu instead stops with `Missing
    /// required provider` or `there is no package for ...`). `None`, with
    /// the errors, when an installed provider's schema cannot be had
    /// (OpenTofu stops there too).
    pub fn schemas_for(&self, config: &Config) -> (Option<Arc<Schemas>>, Diagnostics) {
        self.schemas(config, true)
    }

    /// plan-lite's schemas: likewise, read without any `Validate*` call.
    pub fn schemas_for_plan(&self, config: &Config) -> (Option<Arc<Schemas>>, Diagnostics) {
        self.schemas(config, false)
    }

    fn schemas(&self, config: &Config, validating: bool) -> (Option<Arc<Schemas>>, Diagnostics) {
        let mut diags = Diagnostics::new();
        if schemas_turned_off() {
            return (Some(Arc::new(Schemas::none())), diags);
        }
        if self.locks_unreadable {
            diags.push(sourceless(LOCKS_UNREADABLE.into(), String::new()));
            return (None, diags);
        }
        let (reqs, req_diags) = config.provider_requirements();
        if hclsyntax::has_errors(&req_diags) {
            diags.append(req_diags);
            return (None, diags);
        }
        let mut needed: Vec<Provider> = Vec::new();
        for provider in reqs.keys() {
            if provider.is_built_in() {
                if provider.type_name != "terraform" {
                    diags.push(sourceless(
                        "Missing required provider".into(),
                        format!("This configuration requires built-in provider {provider}, but that provider isn't available in this OpenTofu version."),
                    ));
                }
                continue;
            }
            if self.host.has_provider(provider) {
                needed.push(provider.clone());
            }
        }
        if diags.has_errors() {
            return (None, diags);
        }
        let (loaded, errors) = self.host.load_schemas(&needed);
        if let Some(first) = first_failure(config, &errors) {
            diags.push(sourceless(first, String::new()));
            return (None, diags);
        }
        let mut schemas = Schemas::none();
        for (provider, schema) in loaded {
            schemas.insert(provider, schema);
        }
        if validating {
            schemas.set_validator(self.host.clone());
        }
        (Some(Arc::new(schemas)), diags)
    }
}

/// The environment variable that turns provider schemas off.
pub const SCHEMAS_OFF_ENV: &str = "TOFU_RS_PROVIDER_SCHEMAS";

/// `TOFU_RS_PROVIDER_SCHEMAS=off`: `validate` and `plan-lite` start no
/// plugin and check the configuration alone, as tofu-rs did before it
/// spoke the plugin protocol (argument names are then not checked): a lint
/// that needs no `init`, and what the reference table's rows, which are
/// about references and not about schemas, are run with. OpenTofu has no
/// such mode.
fn schemas_turned_off() -> bool {
    std::env::var(SCHEMAS_OFF_ENV).is_ok_and(|v| v == "off")
}

/// The error OpenTofu's graph builder stops at: the first resource (in
/// module, then address order) of a provider whose schema failed, else
/// that provider's configuration.
fn first_failure(config: &Config, errors: &[SchemaLoadError]) -> Option<String> {
    if errors.is_empty() {
        return None;
    }
    for cfg in config.all() {
        for rc in cfg.module.all_resources() {
            let provider =
                configs::config_provider_requirements::resource_provider(&cfg.module, rc)
                    .unwrap_or_else(|| {
                        Provider::implied_for_unqualified_type(rc.implied_provider())
                    });
            if let Some(e) = errors.iter().find(|e| e.provider == provider) {
                let addr = addrs::ConfigResource {
                    module: cfg.path.clone(),
                    resource: rc.addr(),
                };
                return Some(format!(
                    "failed to read schema for {addr} in {provider}: {}",
                    e.message
                ));
            }
        }
    }
    let e = &errors[0];
    Some(format!(
        "failed to read provider configuration schema for {}: {}",
        e.provider, e.message
    ))
}

fn sourceless(summary: String, detail: String) -> Diagnostic {
    Diagnostic::sourceless(Severity::Error, summary, detail)
}

impl Plugins {
    /// The `providers schema -json` document of `wanted` (`Context.Schemas`
    /// and `jsonprovider.Marshal`), or the text of what failed
    /// (`Diagnostics.Err()`). The built-in `terraform` provider's entry
    /// is tofu-rs's own copy of OpenTofu's (no plugin is started for it).
    pub fn schema_document(
        &self,
        wanted: &std::collections::BTreeSet<Provider>,
    ) -> (String, Option<String>) {
        if self.locks_unreadable {
            return (String::new(), Some(LOCKS_UNREADABLE.to_string()));
        }
        if let Some(e) = &self.missing_packages {
            return (String::new(), Some(e.clone()));
        }
        let plugins: Vec<Provider> = wanted
            .iter()
            .filter(|p| !p.is_built_in())
            .cloned()
            .collect();
        let (loaded, errors) = self.host.load_schemas(&plugins);
        if !errors.is_empty() {
            let texts: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
            let text = if texts.len() == 1 {
                texts[0].to_string()
            } else {
                let mut s = format!("{} problems:\n", texts.len());
                for t in texts {
                    s.push_str(&format!("\n- {t}"));
                }
                s
            };
            return (String::new(), Some(text));
        }
        let builtin = Provider::built_in("terraform");
        let builtin_schema = tofu::builtin_provider::terraform_provider_schema();
        let mut providers: std::collections::BTreeMap<String, &configschema::ProviderSchema> =
            loaded.iter().map(|(p, s)| (p.to_string(), &**s)).collect();
        if wanted.contains(&builtin) {
            providers.insert(builtin.to_string(), &builtin_schema);
        }
        let document = configschema::json::encode_document_of(
            "1.0",
            providers.iter().map(|(a, s)| (a.as_str(), *s)),
        );
        (document, None)
    }
}
