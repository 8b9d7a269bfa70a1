//! `tofu-rs providers lock`: fills `.terraform.lock.hcl` with the hashes
//! of every requested platform's package (`ProvidersLockCommand`).
//!
//! For each platform the required providers are installed into a
//! throwaway directory from the origin registry (or the mirror given with
//! `-fs-mirror`/`-net-mirror`; the CLI configuration's installation
//! methods are ignored, so a lock can be filled from upstream for a
//! working directory that normally installs from a mirror), verified as
//! `init` verifies them, and the hashes learned are merged into the lock
//! file. Versions are the lock file's (which must satisfy the
//! constraints) or, for a provider not locked yet, the newest allowed.
//!
//! OpenTofu works through the platforms one after another and each
//! platform's providers in Go map order; tofu-rs fetches one platform's
//! providers at once and prints them sorted by address, the platforms in
//! command-line order. `-enable-plugin-cache` is Terraform's option
//! (OpenTofu has none, opentofu#2563): with it, packages come through the
//! plugin cache as `init` uses it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use addrs::Provider;
use configs::config_provider_requirements::Requirements;
use getproviders::{
    hash_matches, preferred_hashes, select_version, unpacked_directory_path, CacheOutcome,
    FilesystemMirrorSource, Hash, HttpClient, InstallError, Installed, LocalPackage,
    LockedProvider, NetworkMirrorSource, Platform, PluginCache, ProviderRequest, RegistrySource,
    Source, Version,
};
use tfdiags::{Diagnostic, Diagnostics, SourceMap};

use crate::commands::providers::show_diagnostics;
use crate::flags::{options, VarFlags};
use crate::loader::load_config_for_flags;
use crate::provider_install::{color_tags, locked_for, LOCK_FILE};
use crate::view::{Streams, View};

const UPDATED: &str =
    "\n[bold][green]Success![reset] [bold]OpenTofu has updated the lock file.[reset]";
const UPDATED_REVIEW: &str = "\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n";
const UNCHANGED: &str = "\n[bold][green]Success![reset] [bold]OpenTofu has validated the lock file and found no need for changes.[reset]";

options! {
    /// `tofu-rs providers lock`'s flags.
    pub struct ProvidersLockOptions {
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-platform=os_arch`, every value (none: the current platform).
        platforms: Vec<String> => ["platform"],
        /// `-fs-mirror=DIR`.
        fs_mirror: Option<String> => ["fs-mirror"],
        /// `-net-mirror=URL`.
        net_mirror: Option<String> => ["net-mirror"],
        /// `-enable-plugin-cache`: packages come through the plugin cache.
        enable_plugin_cache: bool => ["enable-plugin-cache"],
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
        /// `-test-directory`.
        test_directory: String = configs::test_file::DEFAULT_TEST_DIRECTORY.to_string()
            => ["test-directory"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match ProvidersLockOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("Error parsing command-line flags: {e}\n\n"));
            return 1;
        }
    };
    let view = View::new(opts.no_color);
    let color = view.options.color;
    let mut diags = Diagnostics::new();
    let fail = |streams: &mut Streams, diags: &Diagnostics, sources: &SourceMap| {
        show_diagnostics(&view, streams, diags, sources);
        1
    };

    if let Some(d) = mirror_options_conflict(&opts) {
        diags.push(d);
        return fail(streams, &diags, &SourceMap::new());
    }
    let platforms = target_platforms(&opts, &mut diags);
    let Some(method) = installation_method(&opts, &mut diags) else {
        return fail(streams, &diags, &SourceMap::new());
    };
    let (reqs, sources) = match load_requirements(&opts, &mut diags) {
        Ok(loaded) => loaded,
        Err(sources) => return fail(streams, &diags, &sources),
    };
    let (old_locks, lock_diags) = depsfile::load_locks_if_present(Path::new(LOCK_FILE));
    diags.append(lock_diags);
    if diags.has_errors() {
        return fail(streams, &diags, &sources);
    }

    let requests = provider_requests(&reqs, &old_locks);
    let fetched = fetch_platforms(&platforms, &requests, &method, color, streams, &mut diags);
    if diags.has_errors() {
        return fail(streams, &diags, &sources);
    }
    let (new_locks, made_any_change) = merge_locks(&reqs, &old_locks, &fetched, streams);

    diags.append(depsfile::save_locks_to_file(
        &new_locks,
        Path::new(LOCK_FILE),
    ));
    show_diagnostics(&view, streams, &diags, &sources);
    if diags.has_errors() {
        return 1;
    }
    if made_any_change {
        streams.print(&format!("{}\n", color_tags(UPDATED, color)));
        streams.print(&format!("{UPDATED_REVIEW}\n"));
    } else {
        streams.print(&format!("{}\n", color_tags(UNCHANGED, color)));
    }
    0
}

/// A mirror option given a non-empty value.
fn mirror(option: &Option<String>) -> Option<&str> {
    option.as_deref().filter(|s| !s.is_empty())
}

/// `-fs-mirror` and `-net-mirror` exclude each other: the error when
/// both are given.
fn mirror_options_conflict(opts: &ProvidersLockOptions) -> Option<Diagnostic> {
    (mirror(&opts.fs_mirror).is_some() && mirror(&opts.net_mirror).is_some()).then(|| {
        Diagnostic::error_sourceless(
            "Invalid installation method options",
            "The -fs-mirror and -net-mirror command line options are mutually-exclusive.",
        )
    })
}

/// The `-platform` values, in command-line order (the current platform
/// when none is given); each invalid one is an error in `diags`.
fn target_platforms(opts: &ProvidersLockOptions, diags: &mut Diagnostics) -> Vec<Platform> {
    let mut platforms = Vec::new();
    for raw in &opts.platforms {
        match Platform::parse(raw) {
            Ok(p) => platforms.push(p),
            Err(e) => diags.push(Diagnostic::error_sourceless(
                "Invalid target platform",
                format!(
                    "The string {} given in the -platform option is not a valid target platform: {e}.",
                    addrs::go_quote(raw)
                ),
            )),
        }
    }
    if opts.platforms.is_empty() {
        platforms.push(Platform::current());
    }
    platforms
}

/// Where packages come from for every platform.
struct InstallationMethod {
    source: Box<dyn Source>,
    cache: Option<PluginCache>,
    http: HttpClient,
}

/// The origin registry, or the mirror the flags name, and the plugin
/// cache with `-enable-plugin-cache`. The CLI configuration's
/// installation methods do not apply: the point is to learn upstream
/// checksums for a mirror to be checked against. `None` when
/// `-net-mirror` is not an https URL.
fn installation_method(
    opts: &ProvidersLockOptions,
    diags: &mut Diagnostics,
) -> Option<InstallationMethod> {
    let (cli_cfg, cfg_diags) = getproviders::load_provider_cli_config();
    diags.append(cfg_diags);
    let (net, net_diags) = getproviders::NetworkSettings::from_environment();
    diags.append(net_diags);
    let source: Box<dyn Source> = if let Some(dir) = mirror(&opts.fs_mirror) {
        Box::new(FilesystemMirrorSource::new(dir))
    } else if let Some(raw) = mirror(&opts.net_mirror) {
        match url::Url::parse(raw) {
            Ok(u) if u.scheme() == "https" => Box::new(NetworkMirrorSource::new(
                u,
                net.http.clone(),
                net.registry.hosts.tokens.clone(),
            )),
            _ => {
                diags.push(Diagnostic::error_sourceless(
                    "Invalid network mirror URL",
                    "The -net-mirror option requires a valid https: URL as the mirror base URL.",
                ));
                return None;
            }
        }
    } else {
        Box::new(RegistrySource::new(net.registry.clone(), net.http.clone()))
    };
    let cache = if opts.enable_plugin_cache {
        PluginCache::from_env_or(cli_cfg.plugin_cache_dir.clone()).map(|mut c| {
            c.may_break_lock_file = cli_cfg.plugin_cache_may_break_dependency_lock_file;
            c
        })
    } else {
        None
    };
    Some(InstallationMethod {
        source,
        cache,
        http: net.http,
    })
}

/// The configuration's lockable provider requirements, narrowed to the
/// providers given as arguments, with the configuration's sources; the
/// sources alone when loading it failed.
fn load_requirements(
    opts: &ProvidersLockOptions,
    diags: &mut Diagnostics,
) -> Result<(Requirements, SourceMap), SourceMap> {
    let (loaded, var_diags) = load_config_for_flags(
        Path::new("."),
        &opts.vars,
        Some(&opts.test_directory),
        false,
    );
    diags.append(var_diags);
    diags.append(loaded.diags);
    let sources = loaded.sources;
    let Some(config) = loaded.config else {
        return Err(sources);
    };
    let (mut reqs, req_diags) = config.provider_requirements();
    let req_errors = hclsyntax::has_errors(&req_diags);
    diags.append(req_diags);
    if req_errors {
        return Err(sources);
    }
    // Provider arguments narrow the work to those providers.
    if !opts.args.is_empty() {
        let mut wanted = Vec::new();
        for raw in &opts.args {
            let addr = match addrs::parse_provider_source_string(raw) {
                Ok(a) => a,
                Err(d) => {
                    diags.append(d);
                    continue;
                }
            };
            if !reqs.contains_key(&addr) {
                diags.push(Diagnostic::error_sourceless(
                    "Invalid provider argument",
                    format!("The provider {addr} is not required by the current configuration."),
                ));
            }
            wanted.push(addr);
        }
        reqs.retain(|p, _| wanted.contains(p));
    }
    reqs.retain(|p, _| depsfile::is_lockable(p));
    Ok((reqs, sources))
}

/// One request per required provider, with its lock.
fn provider_requests(reqs: &Requirements, old_locks: &depsfile::Locks) -> Vec<ProviderRequest> {
    reqs.iter()
        .map(|(provider, constraints)| ProviderRequest {
            provider: provider.clone(),
            constraints: constraints.clone(),
            locked: old_locks.provider(provider).and_then(locked_for),
        })
        .collect()
}

/// What was fetched: each platform's hashes by provider, and the version
/// selected for each provider.
#[derive(Default)]
struct Fetched {
    per_platform: Vec<(Platform, BTreeMap<Provider, Vec<String>>)>,
    selected: BTreeMap<Provider, Version>,
}

/// Every platform's packages, one platform after another (its providers
/// at once), stopping at the first platform that fails.
fn fetch_platforms(
    platforms: &[Platform],
    requests: &[ProviderRequest],
    method: &InstallationMethod,
    color: bool,
    streams: &mut Streams,
    diags: &mut Diagnostics,
) -> Fetched {
    let mut fetched = Fetched::default();
    // The version whose fetch began, by provider, across platforms.
    let mut began: BTreeMap<Provider, Version> = BTreeMap::new();
    for platform in platforms {
        let Some(results) = fetch_platform(platform, requests, method, diags) else {
            break;
        };
        let mut report = PlatformReport {
            platform,
            color,
            began: &mut began,
            selected: &mut fetched.selected,
        };
        let Some(hashes) = report.record(requests, results, streams, diags) else {
            break;
        };
        fetched.per_platform.push((platform.clone(), hashes));
    }
    fetched
}

/// One platform's packages, fetched at once into a directory of their
/// own that nothing else runs from, removed afterwards. `None` when the
/// directory could not be made (an error in `diags`).
fn fetch_platform(
    platform: &Platform,
    requests: &[ProviderRequest],
    method: &InstallationMethod,
    diags: &mut Diagnostics,
) -> Option<Vec<FetchResult>> {
    let staging = match tempfile::Builder::new()
        .prefix("terraform-providers-lock")
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => {
            diags.push(Diagnostic::error_sourceless(
                "Could not create temporary directory",
                format!("Failed to create a temporary directory for staging the requested provider packages: {e}."),
            ));
            return None;
        }
    };
    let ctx = FetchContext {
        source: method.source.as_ref(),
        platform,
        dir: staging.path().to_path_buf(),
        cache: method.cache.as_ref(),
        http: &method.http,
    };
    Some(std::thread::scope(|s| {
        let handles: Vec<_> = requests
            .iter()
            .map(|r| {
                let ctx = &ctx;
                s.spawn(move || ctx.fetch(r))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("provider lock thread panicked"))
            .collect()
    }))
}

/// Reports one platform's fetches as they happened and records the
/// versions selected.
struct PlatformReport<'a> {
    platform: &'a Platform,
    color: bool,
    began: &'a mut BTreeMap<Provider, Version>,
    selected: &'a mut BTreeMap<Provider, Version>,
}

impl PlatformReport<'_> {
    /// The "Fetching" and "Retrieved" lines of each provider; the
    /// platform's hashes by provider, or `None` when any provider failed
    /// (one error in `diags` lists them).
    fn record(
        &mut self,
        requests: &[ProviderRequest],
        results: Vec<FetchResult>,
        streams: &mut Streams,
        diags: &mut Diagnostics,
    ) -> Option<BTreeMap<Provider, Vec<String>>> {
        let platform = self.platform;
        let mut errors: Vec<(Provider, String)> = Vec::new();
        let mut hashes = BTreeMap::new();
        for (request, result) in requests.iter().zip(results) {
            let provider = &request.provider;
            if let Some(version) = &result.fetch_began {
                self.fetch_began(provider, version, streams, diags);
            }
            match result.outcome {
                Ok((version, lock_hashes, how, installed)) => {
                    if let (CacheOutcome::Fetched, Some(installed)) = (how, &installed) {
                        streams.print(&format!(
                            "- Retrieved {} {version} for {platform} ({})\n",
                            provider.for_display(),
                            auth_description(installed, self.color)
                        ));
                    }
                    let list = lock_hashes.iter().map(|h| h.as_str().to_string()).collect();
                    hashes.insert(provider.clone(), list);
                    self.selected.insert(provider.clone(), version);
                }
                Err(e) => errors.push((provider.clone(), e)),
            }
        }
        if errors.is_empty() {
            return Some(hashes);
        }
        let lines: Vec<String> = errors.iter().map(|(p, e)| format!("- {p}: {e}")).collect();
        diags.push(Diagnostic::error_sourceless(
            "Could not retrieve providers for locking",
            format!(
                "OpenTofu failed to fetch the requested providers for {platform} in order to calculate their checksums: some providers could not be installed:\n{}.",
                lines.join("\n")
            ),
        ));
        None
    }

    /// The "Fetching" line; a version different from another platform's
    /// is an error.
    fn fetch_began(
        &mut self,
        provider: &Provider,
        version: &Version,
        streams: &mut Streams,
        diags: &mut Diagnostics,
    ) {
        streams.print(&format!(
            "- Fetching {} {version} for {}...\n",
            provider.for_display(),
            self.platform
        ));
        if self.began.get(provider).is_some_and(|prev| prev != version) {
            diags.push(Diagnostic::error_sourceless(
                "Inconsistent provider versions",
                format!("The version constraint for {provider} selected inconsistent versions for different platforms, which is unexpected.\n\nThe upstream registry may have changed its available versions during OpenTofu's work. If so, re-running this command may produce a successful result."),
            ));
        }
        self.began.insert(provider.clone(), version.clone());
    }
}

/// Every platform's hashes merged into what the lock file had, with an
/// "Obtained" line for each; locks of providers not visited are kept as
/// they were. Whether any lock changed.
fn merge_locks(
    reqs: &Requirements,
    old_locks: &depsfile::Locks,
    fetched: &Fetched,
    streams: &mut Streams,
) -> (depsfile::Locks, bool) {
    let mut new_locks = old_locks.clone();
    let mut made_any_change = false;
    for (provider, constraints) in reqs {
        let old = old_locks.provider(provider);
        let mut version = old.map(|l| l.version.clone());
        let mut all_hashes: Vec<String> = old.map(|l| l.hashes.clone()).unwrap_or_default();
        for (platform, platform_hashes) in &fetched.per_platform {
            let Some(h) = platform_hashes.get(provider) else {
                continue;
            };
            version = fetched.selected.get(provider).cloned();
            let message = match old {
                None => "This was a new provider and the checksums for this platform are now tracked in the lock file",
                Some(o) if h.iter().all(|x| o.hashes.contains(x)) => "All checksums for this platform were already tracked in the lock file",
                Some(_) => "Additional checksums for this platform are now tracked in the lock file",
            };
            if !message.starts_with("All") {
                made_any_change = true;
            }
            streams.print(&format!(
                "- Obtained {} checksums for {platform}; {message}\n",
                provider.for_display()
            ));
            all_hashes.extend(h.iter().cloned());
        }
        if let Some(version) = version {
            new_locks.set_provider(depsfile::ProviderLock::new(
                provider.clone(),
                version,
                constraints.clone(),
                all_hashes,
            ));
        }
    }
    (new_locks, made_any_change)
}

/// `signed, key ID …` with the key in bold, as the Retrieved line shows it.
fn auth_description(installed: &Installed, color: bool) -> String {
    match &installed.auth {
        Some(a) if a.signed() => format!(
            "{}{}",
            a.summary(),
            color_tags(
                &format!(", key ID [reset][bold]{}[reset]", a.key_ids_string()),
                color
            )
        ),
        Some(a) => a.summary().to_string(),
        None => "unauthenticated".to_string(),
    }
}

/// Where one platform's packages go.
struct FetchContext<'a> {
    source: &'a dyn Source,
    platform: &'a Platform,
    dir: PathBuf,
    cache: Option<&'a PluginCache>,
    http: &'a HttpClient,
}

/// One provider for one platform: the version whose fetch began (the
/// "Fetching" line), and what came of it.
struct FetchResult {
    fetch_began: Option<Version>,
    /// The version, the hashes this platform's lock has, and the package
    /// installed (`None` when the cache already had it).
    #[allow(clippy::type_complexity)]
    outcome: Result<(Version, Vec<Hash>, CacheOutcome, Option<Installed>), String>,
}

impl FetchContext<'_> {
    /// `ensureProviderVersionInDirectory` in `InstallNewProvidersForce`
    /// mode: the package is not checked against the lock file (it may be
    /// for a platform the lock has no `h1:` hash of), but the locked
    /// hashes of the same version are kept.
    fn fetch(&self, r: &ProviderRequest) -> FetchResult {
        let failed = |e: String| FetchResult {
            fetch_began: None,
            outcome: Err(e),
        };
        let available = match self.source.available_versions(&r.provider) {
            Ok((v, _warnings)) => v,
            Err(e) => return failed(e.to_string()),
        };
        let version = match select_version(r, &available, false) {
            Ok(v) => v,
            Err(e) => return failed(e.0),
        };
        // Hash changes are expected only when the version changes.
        let locked: Option<&LockedProvider> = r.locked.as_ref().filter(|l| l.version == version);
        let prior: Vec<Hash> = locked
            .map(|l| preferred_hashes(&l.hashes))
            .unwrap_or_default();
        // A cached copy that matches the lock is used without fetching.
        if let Some(cache) = self.cache {
            let cached = unpacked_directory_path(&cache.dir, &r.provider, &version, self.platform);
            if !prior.is_empty()
                && cached.is_dir()
                && hash_matches(LocalPackage::Dir(&cached), &prior).unwrap_or(false)
            {
                let all = locked.map(|l| l.hashes.clone()).unwrap_or_default();
                return FetchResult {
                    fetch_began: None,
                    outcome: Ok((version, all, CacheOutcome::Linked, None)),
                };
            }
        }
        let meta = match self
            .source
            .package_meta(&r.provider, &version, self.platform)
        {
            Ok(m) => m,
            Err(e) => return failed(e.to_string()),
        };
        let result = match self.cache {
            Some(cache) => cache.install(&meta, &self.dir, &[], self.http),
            None => getproviders::install_package(&meta, &self.dir, &[], self.http)
                .map(|i| (i, CacheOutcome::Fetched)),
        };
        FetchResult {
            fetch_began: Some(version.clone()),
            outcome: result
                .map(|(installed, how)| {
                    let mut hashes = installed.lock_hashes.clone();
                    hashes.extend(prior);
                    (version, hashes, how, Some(installed))
                })
                .map_err(|e: InstallError| e.0),
        }
    }
}
