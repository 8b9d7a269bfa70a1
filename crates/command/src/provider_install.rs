//! `init`'s provider step (`InitCommand.getProviders` with the events of
//! `providercache.Installer.EnsureProviderVersions`): the configuration's
//! requirements, the dependency lock file, one installation task per
//! provider (in parallel), OpenTofu's progress lines and messages, and the
//! new `.terraform.lock.hcl` written atomically.
//!
//! OpenTofu installs one provider after another in Go map order, printing
//! every "Finding"/"Reusing" line first and then each provider's
//! "Installing"/"Installed" pair. tofu-rs prints the same lines in the
//! same phases, providers sorted by address, the installs running at once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use addrs::Provider;
use configs::config::Config;
use configs::config_provider_requirements::ProvidersQualification;
use getproviders::{
    built_in_provider_check, hash_matches, install_package, select_version,
    unpacked_directory_path, CacheOutcome, Hash, HttpClient, InstallError, Installed, LocalPackage,
    MultiSource, Platform, PluginCache, ProviderRequest, Source, SourceError,
};
use tfdiags::{Diagnostic, Diagnostics, Severity};

/// The lock file's name, in the working directory.
pub const LOCK_FILE: &str = ".terraform.lock.hcl";

/// What `init` asks of the provider step.
#[derive(Debug, Clone, Default)]
pub struct ProviderOptions {
    /// `-upgrade`: locked versions are not kept.
    pub upgrade: bool,
    /// `-plugin-dir`: only these directories are searched.
    pub plugin_dirs: Vec<PathBuf>,
    /// `-lockfile=readonly`.
    pub lockfile_readonly: bool,
    /// Whether output is coloured.
    pub color: bool,
    /// The working directory, as the process sees it: `.`, or a root of
    /// `-recursive`. The lock file and `.terraform/providers` are in it.
    pub work_dir: PathBuf,
    /// Providers already running (`TF_REATTACH_PROVIDERS`): nothing is
    /// installed or locked for them, and nothing said
    /// (`Installer.SetUnmanagedProviderTypes`).
    pub unmanaged: BTreeSet<Provider>,
}

impl ProviderOptions {
    /// The dependency lock file of the working directory.
    fn lock_file(&self) -> PathBuf {
        crate::loader::under(&self.work_dir, LOCK_FILE)
    }
}

/// What the step printed and found.
pub struct ProviderOutcome {
    /// Lines for stdout, rendered.
    pub stdout: Vec<String>,
    /// Lines for stderr, rendered.
    pub stderr: Vec<String>,
    pub diags: Diagnostics,
    /// Whether init must stop (errors, or the -upgrade/readonly conflict).
    pub abort: bool,
    /// Whether anything was printed (init's `header`).
    pub output: bool,
}

/// `colorstring` as the provider commands' messages use it.
pub(crate) fn color_tags(s: &str, color: bool) -> String {
    let tags = [
        ("[reset]", "\x1b[0m"),
        ("[bold]", "\x1b[1m"),
        ("[green]", "\x1b[32m"),
    ];
    let mut out = s.to_string();
    for (tag, code) in tags {
        out = out.replace(tag, if color { code } else { "" });
    }
    if color && s.contains('[') {
        out.push_str("\x1b[0m");
    }
    out
}

const INCOMPLETE_LOCK_BODY: &str = "Due to your customized provider installation methods, OpenTofu was forced to calculate lock file checksums locally for the following providers:\n  - {providers}\n\nThe current .terraform.lock.hcl file only includes checksums for {platform}, so OpenTofu running on another platform will fail to install these providers.\n\nTo calculate additional checksums for another platform, run:\n  tofu providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)";

const LOCK_CREATED: &str = "\nOpenTofu has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\nselections it made above. Include this file in your version control repository\nso that OpenTofu can guarantee to make the same selections by default when\nyou run \"tofu init\" in the future.";

const LOCK_CHANGED: &str = "\nOpenTofu has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.";

const SIGNED_INFO: &str = "\nProviders are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://opentofu.org/docs/cli/plugins/signing/";

/// What became of one provider in the parallel phase.
enum Outcome {
    /// The source could not list versions, or none fits.
    QueryFailed(QueryError),
    /// The locked version is in place and matches its hashes.
    AlreadyInstalled(getproviders::Version),
    /// Linked from the plugin cache without fetching.
    Linked(getproviders::Version, Installed),
    /// Fetched (into the cache first when there is one).
    Fetched {
        version: getproviders::Version,
        installed: Installed,
        /// Hashes the origin vouched for (signed, or signing skipped).
        signed_hashes: Vec<Hash>,
    },
    FetchFailed(getproviders::Version, FetchError),
}

enum QueryError {
    Source(SourceError),
    Message(String),
}

enum FetchError {
    Source(SourceError),
    Install(InstallError),
}

struct Task<'a> {
    request: ProviderRequest,
    source: &'a dyn Source,
    platform: &'a Platform,
    target: &'a Path,
    cache: Option<&'a PluginCache>,
    http: &'a HttpClient,
    upgrade: bool,
}

impl Task<'_> {
    fn run(&self) -> (Outcome, Vec<String>) {
        let r = &self.request;
        let (available, warnings) = match self.source.available_versions(&r.provider) {
            Ok(v) => v,
            Err(e) => return (Outcome::QueryFailed(QueryError::Source(e)), Vec::new()),
        };
        let version = match select_version(r, &available, self.upgrade) {
            Ok(v) => v,
            Err(e) => return (Outcome::QueryFailed(QueryError::Message(e.0)), warnings),
        };
        (self.install(version), warnings)
    }

    fn install(&self, version: getproviders::Version) -> Outcome {
        let r = &self.request;
        // Hash changes are expected only when the version changes.
        let allowed: Vec<Hash> = r
            .locked
            .as_ref()
            .filter(|l| l.version == version)
            .map(|l| l.hashes.clone())
            .unwrap_or_default();
        let existing = unpacked_directory_path(self.target, &r.provider, &version, self.platform);
        if !allowed.is_empty()
            && existing.is_dir()
            && hash_matches(LocalPackage::Dir(&existing), &allowed).unwrap_or(false)
        {
            return Outcome::AlreadyInstalled(version);
        }
        // A cached copy matching the lock is linked without asking the
        // source for the package (ensureProviderVersionInDirectory).
        if let Some(cache) = self.cache {
            match cache.link_cached(&r.provider, &version, self.platform, self.target, &allowed) {
                Ok(Some(installed)) => return Outcome::Linked(version, installed),
                Ok(None) => {}
                Err(e) => return Outcome::FetchFailed(version, FetchError::Install(e)),
            }
        }
        let meta = match self
            .source
            .package_meta(&r.provider, &version, self.platform)
        {
            Ok(m) => m,
            Err(e) => return Outcome::FetchFailed(version, FetchError::Source(e)),
        };
        let result = match self.cache {
            Some(cache) => cache.install(&meta, self.target, &allowed, self.http),
            None => install_package(&meta, self.target, &allowed, self.http)
                .map(|i| (i, CacheOutcome::Fetched)),
        };
        match result {
            Ok((installed, CacheOutcome::Linked)) => Outcome::Linked(version, installed),
            Ok((installed, CacheOutcome::Fetched)) => {
                let signed_hashes = installed
                    .auth
                    .as_ref()
                    .map(|a| a.trusted_upstream_hashes())
                    .unwrap_or_default();
                Outcome::Fetched {
                    version,
                    installed,
                    signed_hashes,
                }
            }
            Err(e) => Outcome::FetchFailed(version, FetchError::Install(e)),
        }
    }
}

fn error(summary: &str, detail: String) -> Diagnostic {
    Diagnostic::error_sourceless(summary, detail)
}

/// The lock file's entries as the installer takes them.
pub(crate) fn locked_for(lock: &depsfile::ProviderLock) -> Option<getproviders::LockedProvider> {
    let version = lock.version.clone();
    let hashes = lock
        .hashes
        .iter()
        .filter_map(|h| Hash::parse(h).ok())
        .collect();
    Some(getproviders::LockedProvider { version, hashes })
}

/// Runs the provider step for `config` in the working directory
/// `opts.work_dir`.
pub fn get_providers(config: &Config, opts: &ProviderOptions) -> ProviderOutcome {
    let mut out = ProviderOutcome {
        stdout: Vec::new(),
        stderr: Vec::new(),
        diags: Diagnostics::new(),
        abort: false,
        output: false,
    };
    let Some((reqs, qualifs)) = requirements(config, &mut out) else {
        return out.aborted();
    };
    let (previous, lock_diags) = depsfile::load_locks_if_present(&opts.lock_file());
    out.diags.append(lock_diags);
    if out.diags.has_errors() {
        return out.aborted();
    }
    if opts.upgrade && opts.lockfile_readonly {
        out.stderr
            .push("The -upgrade flag conflicts with -lockfile=readonly.".to_string());
        out.output = true;
        return out.aborted();
    }
    out.output = true;
    out.stdout.push(color_tags(
        "\n[reset][bold]Initializing provider plugins...",
        opts.color,
    ));

    let method = installation_method(opts, &mut out.diags);
    let tasks = plan_tasks(&reqs, &previous, &method, opts, &mut out);
    let results = run_tasks(&tasks);
    let mut selections = Selections {
        new_locks: previous.clone(),
        any_signed: false,
        incomplete: Vec::new(),
        color: opts.color,
    };
    for (task, (outcome, warnings)) in tasks.iter().zip(results) {
        selections.record(task, outcome, warnings, &reqs, &qualifs, &mut out);
    }
    if selections.any_signed {
        out.stdout.push(SIGNED_INFO.to_string());
    }
    selections.forget_unneeded(&reqs);
    if out.diags.has_errors() {
        return out.aborted();
    }
    write_lock_file(selections, &previous, &method.platform, opts, &mut out);
    out
}

impl ProviderOutcome {
    /// init must stop.
    fn aborted(mut self) -> Self {
        self.abort = true;
        self
    }
}

/// The configuration's provider requirements, checked; `None` when they
/// have errors.
fn requirements(
    config: &Config,
    out: &mut ProviderOutcome,
) -> Option<(
    configs::config_provider_requirements::Requirements,
    ProvidersQualification,
)> {
    let (reqs, qualifs, hcl_diags) = config.provider_requirements_qualified();
    let req_errors = hclsyntax::has_errors(&hcl_diags);
    out.diags.append(hcl_diags);
    if req_errors {
        return None;
    }
    requirement_checks(&reqs, &mut out.diags);
    Some((reqs, qualifs))
}

/// Where and how providers are installed in this run.
struct InstallationMethod {
    source: MultiSource,
    cache: Option<PluginCache>,
    http: HttpClient,
    platform: Platform,
    /// `.terraform/providers`.
    target: PathBuf,
}

/// The CLI configuration's installation methods, or only the
/// `-plugin-dir` directories; the plugin cache; the platform and the
/// target directory, cleared of the staging a killed run left.
fn installation_method(opts: &ProviderOptions, diags: &mut Diagnostics) -> InstallationMethod {
    // Implied local mirrors (`terraform.d/plugins`) are looked for in the
    // working directory.
    let cwd = std::env::current_dir()
        .unwrap_or_else(|_| PathBuf::from("."))
        .join(&opts.work_dir);
    let (cli_cfg, cfg_diags) = getproviders::load_provider_cli_config();
    diags.append(cfg_diags);
    let (net, net_diags) = getproviders::NetworkSettings::from_environment();
    diags.append(net_diags);
    let source = if opts.plugin_dirs.is_empty() {
        let (s, d) = getproviders::build_source(&cli_cfg, &cwd, &net);
        diags.append(d);
        s
    } else {
        getproviders::plugin_dir_source(&opts.plugin_dirs)
    };
    let cache = PluginCache::from_env_or(cli_cfg.plugin_cache_dir.clone()).map(|mut c| {
        c.may_break_lock_file = cli_cfg.plugin_cache_may_break_dependency_lock_file;
        c
    });
    let target = crate::loader::data_dir_in(&opts.work_dir).join("providers");
    // Under init's working-directory lock: staging anywhere below is what
    // a killed run left, whether or not this configuration still uses
    // that provider.
    getproviders::remove_stale_staging_in_tree(&target);
    InstallationMethod {
        source,
        cache,
        http: net.http,
        platform: Platform::current(),
        target,
    }
}

/// Which providers to ask about, with the lines OpenTofu prints as it
/// starts each query (built-in providers are only checked; providers
/// not lockable, overridden in the lock file or unmanaged are skipped).
fn plan_tasks<'a>(
    reqs: &configs::config_provider_requirements::Requirements,
    previous: &depsfile::Locks,
    method: &'a InstallationMethod,
    opts: &ProviderOptions,
    out: &mut ProviderOutcome,
) -> Vec<Task<'a>> {
    let upgrade = opts.upgrade;
    let mut tasks = Vec::new();
    for (provider, constraints) in reqs {
        if let Some(verdict) = built_in_provider_check(provider, constraints) {
            match verdict {
                Ok(()) => out.stdout.push(format!(
                    "- {} is built in to OpenTofu",
                    provider.for_display()
                )),
                Err(e) => out.diags.push(error(
                    "Invalid dependency on built-in provider",
                    format!("Cannot use {}: {e}.", provider.for_display()),
                )),
            }
            continue;
        }
        if !depsfile::is_lockable(provider)
            || previous.provider_is_overridden(provider)
            || opts.unmanaged.contains(provider)
        {
            continue;
        }
        let locked = previous.provider(provider).and_then(locked_for);
        let reusing = locked.is_some() && !upgrade;
        out.stdout.push(if reusing {
            format!(
                "- Reusing previous version of {} from the dependency lock file",
                provider.for_display()
            )
        } else if constraints.is_empty() {
            format!("- Finding latest version of {}...", provider.for_display())
        } else {
            format!(
                "- Finding {} versions matching {}...",
                provider.for_display(),
                addrs::go_quote(&constraints.to_string())
            )
        });
        tasks.push(Task {
            request: ProviderRequest {
                provider: provider.clone(),
                constraints: constraints.clone(),
                locked,
            },
            source: &method.source,
            platform: &method.platform,
            target: &method.target,
            cache: method.cache.as_ref(),
            http: &method.http,
            upgrade,
        });
    }
    tasks
}

/// Every provider at once; each outcome with the registry's warnings.
fn run_tasks(tasks: &[Task<'_>]) -> Vec<(Outcome, Vec<String>)> {
    std::thread::scope(|s| {
        let handles: Vec<_> = tasks.iter().map(|t| s.spawn(move || t.run())).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("provider installation thread panicked"))
            .collect()
    })
}

/// The selections made, as they become the new lock file.
struct Selections {
    new_locks: depsfile::Locks,
    /// A package was signed (OpenTofu then explains signing).
    any_signed: bool,
    /// Providers whose lock has only the local platform's checksum.
    incomplete: Vec<String>,
    color: bool,
}

impl Selections {
    /// Reports one provider's outcome and records what was selected.
    fn record(
        &mut self,
        task: &Task<'_>,
        outcome: Outcome,
        warnings: Vec<String>,
        reqs: &configs::config_provider_requirements::Requirements,
        qualifs: &ProvidersQualification,
        out: &mut ProviderOutcome,
    ) {
        let provider = &task.request.provider;
        let display = provider.for_display();
        if !warnings.is_empty() {
            let lines: Vec<String> = warnings.iter().map(|w| format!("- {w}")).collect();
            out.diags.push(Diagnostic::sourceless(
                Severity::Warning,
                "Additional provider information from registry",
                format!(
                    "The remote registry returned warnings for {provider}:\n{}",
                    lines.join("\n")
                ),
            ));
        }
        let constraints = reqs.get(provider).cloned().unwrap_or_default();
        match outcome {
            Outcome::QueryFailed(e) => {
                out.diags.push(query_failure(provider, e, qualifs));
            }
            Outcome::AlreadyInstalled(v) => {
                out.stdout
                    .push(format!("- Using previously-installed {display} v{v}"));
            }
            Outcome::Linked(v, installed) => {
                out.stdout.push(format!(
                    "- Using {display} v{v} from the shared cache directory"
                ));
                let prior = prior_hashes(task, &v);
                let mut hashes = prior.clone();
                hashes.push(installed.hash.as_str().to_string());
                if prior.is_empty() || prior == [installed.hash.as_str().to_string()] {
                    self.incomplete.push(display.clone());
                }
                set_lock(&mut self.new_locks, provider, &v, &constraints, hashes);
            }
            Outcome::Fetched {
                version: v,
                installed,
                signed_hashes,
            } => {
                out.stdout.push(if task.cache.is_some() {
                    format!("- Installing {display} v{v} to the shared cache directory...")
                } else {
                    format!("- Installing {display} v{v}...")
                });
                out.stdout
                    .push(installed_line(&display, &v, &installed, self.color));
                if installed.auth.as_ref().is_some_and(|a| a.signed()) {
                    self.any_signed = true;
                }
                let prior = prior_hashes(task, &v);
                let local = installed.hash.as_str().to_string();
                if signed_hashes.is_empty() && (prior.is_empty() || prior == [local.clone()]) {
                    self.incomplete.push(display.clone());
                }
                let hashes = installed
                    .lock_hashes
                    .iter()
                    .map(|h| h.as_str().to_string())
                    .collect();
                set_lock(&mut self.new_locks, provider, &v, &constraints, hashes);
            }
            Outcome::FetchFailed(v, e) => {
                out.diags.push(fetch_failure(provider, &v, e));
            }
        }
    }

    /// Locks of providers no longer needed go.
    fn forget_unneeded(&mut self, reqs: &configs::config_provider_requirements::Requirements) {
        let stale: Vec<Provider> = self
            .new_locks
            .all_providers()
            .map(|l| l.provider.clone())
            .filter(|p| !reqs.contains_key(p))
            .collect();
        for p in stale {
            self.new_locks.remove_provider(&p);
        }
    }
}

/// The locked hashes, which count only for the version they were locked
/// for.
fn prior_hashes(task: &Task<'_>, version: &getproviders::Version) -> Vec<String> {
    task.request
        .locked
        .as_ref()
        .filter(|l| &l.version == version)
        .map(|l| l.hashes.iter().map(|h| h.as_str().to_string()).collect())
        .unwrap_or_default()
}

/// The "Installed" line: how the package was authenticated, the key in
/// bold.
fn installed_line(
    display: &str,
    v: &getproviders::Version,
    installed: &Installed,
    color: bool,
) -> String {
    let summary = installed.auth.as_ref().map(|a| a.summary());
    if summary == Some(getproviders::AuthSummary::SigningSkipped) {
        return format!("- Installed {display} v{v}. Signature validation was skipped due to the registry not containing GPG keys for this provider");
    }
    let (auth, key) = match &installed.auth {
        Some(a) if a.signed() => (a.summary().to_string(), a.key_ids_string()),
        Some(a) => (a.summary().to_string(), String::new()),
        None => ("unauthenticated".to_string(), String::new()),
    };
    let key = if key.is_empty() {
        key
    } else {
        color_tags(&format!(", key ID [reset][bold]{key}[reset]"), color)
    };
    format!("- Installed {display} v{v} ({auth}{key})")
}

/// The new lock file, written when it differs from `previous`, with
/// OpenTofu's messages; with `-lockfile=readonly` a change is reported
/// instead (an error when providers were added or removed).
fn write_lock_file(
    mut selections: Selections,
    previous: &depsfile::Locks,
    platform: &Platform,
    opts: &ProviderOptions,
    out: &mut ProviderOutcome,
) {
    let new_locks = &selections.new_locks;
    if new_locks.equal(previous) {
        return;
    }
    if opts.lockfile_readonly {
        if !new_locks.equal_provider_addresses(previous) {
            out.diags.push(error(
                "Provider dependency changes detected",
                "Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"tofu init\" without the \"-lockfile=readonly\" flag.".to_string(),
            ));
            out.abort = true;
            return;
        }
        out.diags.push(Diagnostic::sourceless(
            Severity::Warning,
            "Provider lock file not updated",
            "Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run \"tofu init\" without the \"-lockfile=readonly\" flag.",
        ));
        return;
    }
    if !selections.incomplete.is_empty() {
        selections.incomplete.sort();
        out.diags.push(Diagnostic::sourceless(
            Severity::Warning,
            "Incomplete lock file information for providers",
            INCOMPLETE_LOCK_BODY
                .replace("{providers}", &selections.incomplete.join("\n  - "))
                .replace("{platform}", &platform.to_string()),
        ));
    }
    out.stdout.push(color_tags(
        if previous.is_empty() {
            LOCK_CREATED
        } else {
            LOCK_CHANGED
        },
        opts.color,
    ));
    let save = depsfile::save_locks_to_file(&selections.new_locks, &opts.lock_file());
    out.diags.append(save);
}

fn set_lock(
    locks: &mut depsfile::Locks,
    provider: &Provider,
    version: &getproviders::Version,
    constraints: &depsfile::VersionConstraints,
    hashes: Vec<String>,
) {
    locks.set_provider(depsfile::ProviderLock::new(
        provider.clone(),
        version.clone(),
        constraints.clone(),
        hashes,
    ));
}

/// Legacy addresses are errors; two `hashicorp`/`opentofu` providers of
/// one type are probably a mistake.
fn requirement_checks(
    reqs: &configs::config_provider_requirements::Requirements,
    diags: &mut Diagnostics,
) {
    let mut by_type: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for provider in reqs.keys() {
        if provider.namespace == "hashicorp" || provider.namespace == "opentofu" {
            by_type
                .entry(provider.type_name.as_str())
                .or_default()
                .push(provider.for_display());
        }
        if provider.is_legacy() {
            diags.push(error(
                "Invalid legacy provider address",
                format!(
                    "This configuration or its associated state refers to the unqualified provider {}.\n\nYou must complete the Terraform 0.13 upgrade process before upgrading to later versions.",
                    addrs::go_quote(&provider.type_name)
                ),
            ));
        }
    }
    for (name, addrs) in by_type {
        if addrs.len() > 1 {
            diags.push(Diagnostic::sourceless(
                Severity::Warning,
                "Potential provider misconfiguration",
                format!(
                    "OpenTofu has detected multiple providers of type {name} ({}) which may be a misconfiguration.\n\nIf this is intentional you can ignore this warning",
                    addrs.join(", ")
                ),
            ));
        }
    }
}

/// `QueryPackagesFailure`.
fn query_failure(
    provider: &Provider,
    e: QueryError,
    _qualifs: &ProvidersQualification,
) -> Diagnostic {
    let display = provider.for_display();
    let e = match e {
        QueryError::Message(m) => {
            return error(
                "Failed to resolve provider packages",
                format!("Could not resolve provider {display}: {m}"),
            )
        }
        QueryError::Source(e) => e,
    };
    match &e {
        SourceError::ProviderNotFound { sources, .. } => {
            let list: Vec<String> = sources.iter().map(|s| format!("  - {s}")).collect();
            error(
                "Failed to query available provider packages",
                format!(
                    "Could not retrieve the list of available versions for provider {display}: {e}\n\n{}",
                    list.join("\n")
                ),
            )
        }
        SourceError::RegistryProviderNotKnown { .. } => {
            let mut suggestion = format!("\n\nAll modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on {display}, run the following command:\n    tofu providers");
            if provider.hostname.as_str() == addrs::DEFAULT_PROVIDER_REGISTRY_HOST {
                suggestion.push_str("\n\nIf you believe this provider is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose");
            }
            error(
                "Failed to query available provider packages",
                format!(
                    "Could not retrieve the list of available versions for provider {display}: {e}{suggestion}"
                ),
            )
        }
        SourceError::HostNoProviders {
            hostname,
            has_other_version,
        } => {
            let detail = if hostname == "github.com" && !has_other_version {
                format!("The given source address {} specifies a GitHub repository rather than a OpenTofu provider. Refer to the documentation of the provider to find the correct source address to use.", addrs::go_quote(&provider.to_string()))
            } else if *has_other_version {
                format!("The host {} given in provider source address {} does not offer a OpenTofu provider registry that is compatible with this OpenTofu version, but it may be compatible with a different OpenTofu version.", addrs::go_quote(hostname), addrs::go_quote(&provider.to_string()))
            } else {
                format!(
                    "The host {} given in provider source address {} does not offer a OpenTofu provider registry.",
                    addrs::go_quote(hostname),
                    addrs::go_quote(&provider.to_string())
                )
            };
            error("Invalid provider registry host", detail)
        }
        _ => error(
            "Failed to resolve provider packages",
            format!("Could not resolve provider {display}: {e}"),
        ),
    }
}

/// `FetchPackageFailure`.
fn fetch_failure(
    provider: &Provider,
    version: &getproviders::Version,
    e: FetchError,
) -> Diagnostic {
    let display = provider.for_display();
    match e {
        FetchError::Source(SourceError::PlatformNotSupported {
            provider: p,
            version: v,
            platform,
            mirror_url: Some(url),
        }) => error(
            "Incompatible provider version",
            format!("Your chosen provider mirror at {url} does not have a {p} v{v} package available for your current platform, {platform}.\n\nProvider releases are separate from OpenTofu CLI releases, so this provider might not support your current platform. Alternatively, the mirror itself might have only a subset of the plugin packages available in the origin registry, at {}.", provider.hostname.for_display()),
        ),
        FetchError::Source(SourceError::PlatformNotSupported {
            provider: p,
            version: v,
            platform,
            mirror_url: None,
        }) => error(
            "Incompatible provider version",
            format!("Provider {p} v{v} does not have a package available for your current platform, {platform}.\n\nProvider releases are separate from OpenTofu CLI releases, so not all providers are available for all platforms. Other versions of this provider may have different platforms supported."),
        ),
        FetchError::Source(SourceError::ProtocolNotSupported {
            suggestion: None, ..
        }) => error(
            "Incompatible provider version",
            format!("No compatible versions of provider {provider} were found."),
        ),
        FetchError::Source(e) => error(
            "Failed to install provider",
            format!("Error while installing {display} v{version}: {e}"),
        ),
        FetchError::Install(e) => error(
            "Failed to install provider",
            format!("Error while installing {display} v{version}: {e}"),
        ),
    }
}

/// `storePluginPath`: `-plugin-dir` values recorded in
/// `.terraform/plugin_path` (Go's indented JSON) of the working directory
/// `work_dir`, a single empty value removing the record.
pub fn store_plugin_path(dirs: &[String], work_dir: &Path) -> Result<(), String> {
    if dirs.is_empty() {
        return Ok(());
    }
    let data_dir = crate::loader::data_dir_in(work_dir);
    let path = data_dir.join("plugin_path");
    if dirs.len() == 1 && dirs[0].is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.to_string()),
            _ => Ok(()),
        };
    }
    let items: Vec<String> = dirs
        .iter()
        .map(|d| format!("  {}", go_json_string(d)))
        .collect();
    let js = format!("[\n{}\n]", items.join(",\n"));
    let _ = std::fs::create_dir_all(&data_dir);
    initwd::atomic_file::write_atomic(&path, js.as_bytes()).map_err(|e| e.to_string())
}

/// A JSON string as Go's `encoding/json` writes it (HTML-safe escapes).
fn go_json_string(s: &str) -> String {
    gocompat::json::string(s)
}
