//! `tofu-rs init`: prepares the working directory (`InitCommand.Run`): the
//! encryption configuration checked, the backend recorded in
//! `.terraform/terraform.tfstate` ([`backend`]), the module tree
//! installed into `.terraform/modules` (`InitCommand.getModules`), and the
//! whole configuration loaded, and the providers it needs installed into
//! `.terraform/providers` with the lock file updated
//! ([`crate::provider_install`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use configs::config::Config;
use configs::config_build::build_config;
use configs::module::Module;
use configs::static_eval::StaticModuleCall;
use initwd::atomic_file::remove_stale_temp_files;
use initwd::{
    download_line, install_line, InstallHooks, InstallerConfig, ModuleInstaller, PackageFetcher,
    RegistryClient, RegistryOptions, Version, WorkDirLock,
};
use tfdiags::{Diagnostics, SourceMap};

use crate::flags::{options, VarFlags};
use crate::go_duration::parse_go_duration;
use crate::interrupt::InterruptScope;
use crate::loader::{
    config_sources, data_dir_in, load_config_with, modules_dir, root_static_call_for, under,
};
use crate::module_install::InstallWalker;
use crate::provider_install::{self, ProviderOptions};
use crate::view::{Streams, View};
use configs::module_dir_cache::ModuleDirCache;

const CONFIG_ERROR: &str = "\n[reset]OpenTofu encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe OpenTofu configuration must be valid before initialization so that\nOpenTofu can determine which modules and providers need to be installed.";
const SUCCESS: &str =
    "[reset][bold][green]OpenTofu has been successfully initialized![reset][green]";
const SUCCESS_CLOUD: &str =
    "[reset][bold][green]Cloud backend has been successfully initialized![reset][green]";
const SUCCESS_CLI_CLOUD: &str = "[reset][green]\nYou may now begin working with cloud backend. Try running \"tofu plan\" to\nsee any changes that are required for your infrastructure.\n\nIf you ever set or change modules or OpenTofu Settings, run \"tofu init\"\nagain to reinitialize your working directory.";
const SUCCESS_CLI: &str = "[reset][green]\nYou may now begin working with OpenTofu. Try running \"tofu plan\" to see\nany changes that are required for your infrastructure. All OpenTofu commands\nshould now work.\n\nIf you ever set or change modules or backend configuration for OpenTofu,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.";
const EMPTY_DIR: &str = "[reset][bold]OpenTofu initialized in an empty directory![reset]\n\nThe directory has no OpenTofu configuration files. You may begin working\nwith OpenTofu immediately by creating OpenTofu configuration files.";

/// How long a second `init` in the same directory waits for the first,
/// unless `-lock-timeout` says otherwise.
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// The few colour tags init's messages use, as `colorstring` renders them
/// (with a final reset when colour is on).
pub(crate) fn colorize(s: &str, color: bool) -> String {
    let tags = [
        ("[reset]", "\x1b[0m"),
        ("[bold]", "\x1b[1m"),
        ("[green]", "\x1b[32m"),
        ("[yellow]", "\x1b[33m"),
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

/// The human module-install hooks (`moduleInstallationHookHuman`, with
/// local paths shown). Modules are installed in parallel, so the lines are
/// kept with their module's key and printed in walk order afterwards.
#[derive(Default)]
struct HumanHooks {
    lines: Mutex<Vec<(String, String)>>,
}

impl HumanHooks {
    fn line(&self, key: &str, s: String) {
        self.lines
            .lock()
            .expect("hook buffer lock poisoned")
            .push((key.to_string(), s));
    }

    /// The lines in OpenTofu's order: by module in walk order, each
    /// module's lines in the order they came.
    fn take_in_walk_order(&self, walker: &InstallWalker<'_>) -> Vec<String> {
        let mut lines = std::mem::take(&mut *self.lines.lock().expect("hook buffer lock poisoned"));
        // A stable sort keeps each module's own lines in order.
        lines.sort_by_cached_key(|(key, _)| walker.walk_order(key));
        lines.into_iter().map(|(_, l)| l).collect()
    }
}

impl InstallHooks for HumanHooks {
    fn download(&self, key: &str, package: &str, version: Option<&Version>) {
        self.line(key, download_line(key, package, version));
    }
    fn install(&self, key: &str, _version: Option<&Version>, dir: &str) {
        self.line(key, install_line(key, dir));
    }
}

pub(crate) struct InitView {
    pub(crate) view: View,
}

impl InitView {
    pub(crate) fn color(&self) -> bool {
        self.view.options.color
    }

    fn println(&self, streams: &mut Streams, s: &str) {
        streams.print(&format!("{}\n", colorize(s, self.color())));
    }

    fn config_error(&self, streams: &mut Streams) {
        streams.eprint(&format!("{}\n", colorize(CONFIG_ERROR, self.color())));
    }

    /// `View.Diagnostics` with `DiagsWithNewline`: each diagnostic is
    /// followed by an empty line, as init's legacy output was.
    pub(crate) fn diagnostics(
        &self,
        streams: &mut Streams,
        diags: &Diagnostics,
        sources: &SourceMap,
    ) {
        let is_local = |_: &tfdiags::DeprecationCause| true;
        for msg in tfdiags::render_diagnostics(diags, sources, &self.view.options, &is_local) {
            let text = format!("{}\n", msg.text);
            match msg.stream {
                tfdiags::Stream::Stderr => streams.eprint(&text),
                tfdiags::Stream::Stdout => streams.print(&text),
            }
        }
    }
}

fn usage_error(streams: &mut Streams, view: &InitView, summary: &str, detail: &str) -> Stop {
    let mut diags = Diagnostics::new();
    diags.push(tfdiags::Diagnostic::error_sourceless(summary, detail));
    view.diagnostics(streams, &diags, &SourceMap::new());
    Stop(1)
}

options! {
    /// `tofu-rs init`'s flags (`arguments.Init` in OpenTofu's terms).
    pub struct InitOptions {
        /// `-input`: whether the user may be asked for values.
        input: bool = true => ["input"],
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
        /// `-backend`: `Some(false)` skips the backend and encryption.
        backend: Option<bool> => ["backend"],
        /// `-cloud`: an alias of `-backend`.
        cloud: Option<bool> => ["cloud"],
        /// `-backend-config`, every value in order (a file or `key=value`).
        backend_config: Vec<String> => ["backend-config"],
        /// `-reconfigure`: the recorded backend is disregarded.
        reconfigure: bool => ["reconfigure"],
        /// `-migrate-state`.
        migrate_state: bool => ["migrate-state"],
        /// `-force-copy`: `-migrate-state` without asking.
        force_copy: bool => ["force-copy"],
        /// `-ignore-remote-version`: accepted for drop-in use.
        ignore_remote_version: bool => ["ignore-remote-version"],
        /// `-upgrade`: newest allowed modules and providers.
        upgrade: bool => ["upgrade"],
        /// `-get`: whether modules are installed.
        get: bool = true => ["get"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-deprecation=module:<level>`, every value.
        deprecation: Vec<String> => ["deprecation"],
        /// `-plugin-dir`, every value: the only places providers come from.
        plugin_dirs: Vec<String> => ["plugin-dir"],
        /// `-lockfile=readonly`.
        lockfile: Option<String> => ["lockfile"],
        /// `-lock`: accepted for drop-in use (the working directory is
        /// always locked).
        lock: bool = true => ["lock"],
        /// `-lock-timeout`: a Go duration, checked after the other flags.
        lock_timeout: Option<String> => ["lock-timeout"],
        /// `-test-directory`.
        test_directory: String = configs::test_file::DEFAULT_TEST_DIRECTORY.to_string()
            => ["test-directory"],
        /// `-recursive`: every root module below the current directory,
        /// or each directory given as an argument.
        recursive: bool => ["recursive"],
        /// `-json`: with `-recursive`, one document per root.
        json: bool => ["json"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match InitOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let mut view = InitView {
        view: View::new(opts.no_color),
    };
    let lock_wait = match check_options(&opts, &mut view, streams) {
        Ok(wait) => wait,
        Err(Stop(code)) => return code,
    };
    if opts.recursive {
        return super::init_recursive::run(&opts, &view, lock_wait, streams);
    }
    let shared = SharedInit::new(None, false);
    let mut root = RootInit::new(PathBuf::from("."), lock_wait);
    match root.run(&opts, &view, streams, &shared) {
        Ok(()) => 0,
        Err(Stop(code)) => code,
    }
}

/// init ended early with this exit status, what it had to say printed.
pub(crate) struct Stop(pub(crate) i32);

/// What every root of one init shares: the module directories read so
/// far, the package fetcher (a package many roots use is fetched once),
/// and the interrupt that cancels them all.
pub(crate) struct SharedInit {
    pub(crate) dirs: Arc<ModuleDirCache>,
    pub(crate) fetcher: Arc<PackageFetcher>,
    /// What reading the module cache's settings reported.
    pub(crate) settings_diags: hclsyntax::Diagnostics,
    /// SIGINT's token when the caller catches it for the whole run
    /// (`-recursive`); `None`: SIGINT is caught while modules install
    /// only, and kills the process at any other time, as in OpenTofu.
    pub(crate) cancel: Option<initwd::Cancel>,
}

impl SharedInit {
    /// `sharing`: identical module directories (each root's copy of a
    /// remote module) are parsed once ([`ModuleDirCache::sharing_identical`]).
    pub(crate) fn new(cancel: Option<initwd::Cancel>, sharing: bool) -> SharedInit {
        // The module cache (`TF_MODULE_CACHE_DIR`, `module_cache_dir`).
        let (settings, settings_diags) = cliconfig::load_module_settings();
        let fetcher =
            PackageFetcher::default().with_cache(initwd::ModuleCache::from_cli_config(&settings));
        SharedInit {
            dirs: Arc::new(if sharing {
                ModuleDirCache::sharing_identical()
            } else {
                ModuleDirCache::new()
            }),
            fetcher: Arc::new(fetcher),
            settings_diags,
            cancel,
        }
    }
}

/// One root module's init: its working directory (`.`, or a root of
/// `-recursive`), and once it has run, what it found.
pub(crate) struct RootInit {
    pub(crate) work_dir: PathBuf,
    lock_wait: Duration,
    /// The diagnostics the run reported, with their sources.
    pub(crate) diags: Diagnostics,
    pub(crate) sources: SourceMap,
    /// With `-recursive`: no success messages, only the warnings.
    pub(crate) quiet: bool,
}

impl RootInit {
    pub(crate) fn new(work_dir: PathBuf, lock_wait: Duration) -> RootInit {
        RootInit {
            work_dir,
            lock_wait,
            diags: Diagnostics::new(),
            sources: SourceMap::new(),
            quiet: false,
        }
    }

    /// `InitCommand.Run`'s steps after the checks of the flags, in order.
    /// Each step reports what stops the run itself and returns [`Stop`].
    pub(crate) fn run(
        &mut self,
        opts: &InitOptions,
        view: &InitView,
        streams: &mut Streams,
        shared: &SharedInit,
    ) -> Result<(), Stop> {
        record_plugin_dirs(opts, view, streams, &self.work_dir)?;
        if !has_configuration(view, streams, &self.work_dir)? {
            if !self.quiet {
                view.println(streams, EMPTY_DIR);
            }
            return Ok(());
        }
        let mut run = InitRun {
            streams,
            view,
            work_dir: &self.work_dir,
            diags: Diagnostics::new(),
            sources: SourceMap::new(),
            lock: InitLock {
                held: None,
                wait: self.lock_wait,
                data_dir: data_dir_in(&self.work_dir),
                work_dir: self.work_dir.clone(),
            },
            header: false,
            quiet: self.quiet,
            module_dirs: Vec::new(),
            dirs: &shared.dirs,
        };
        let result = run.phases(opts, shared);
        // What the run reports names this root's files (a failure's
        // diagnostics were moved before they were printed).
        run.own_paths();
        self.diags = std::mem::take(&mut run.diags);
        self.sources = std::mem::take(&mut run.sources);
        result
    }
}

/// The checks of the flags' values and combinations (`ParseInit` and
/// `InitCommand.Run`'s first lines); how long to wait for the
/// working-directory lock. `-deprecation` is one of the view options
/// every command parses, so a value without the `module:` prefix stops
/// init as it stops validate.
fn check_options(
    opts: &InitOptions,
    view: &mut InitView,
    streams: &mut Streams,
) -> Result<Duration, Stop> {
    let (level, flag_diags) = super::validate::deprecation_level(&opts.deprecation);
    if flag_diags.has_errors() {
        view.diagnostics(streams, &flag_diags, &SourceMap::new());
        streams.eprint(&super::validate::help_prompt("init"));
        return Err(Stop(1));
    }
    view.view.options.deprecation = level;
    if !opts.args.is_empty() && !opts.recursive {
        return Err(usage_error(
            streams,
            view,
            "Too many command line arguments",
            "Did you mean to use -chdir?",
        ));
    }
    if opts.migrate_state && opts.reconfigure {
        return Err(usage_error(
            streams,
            view,
            "Wrong combination of options",
            "The -migrate-state and -reconfigure options are mutually-exclusive",
        ));
    }
    match &opts.lock_timeout {
        None => Ok(LOCK_WAIT),
        Some(raw) => parse_go_duration(raw).ok_or_else(|| {
            streams.eprint(&format!(
                "invalid value {raw:?} for flag -lock-timeout: parse error\n"
            ));
            Stop(1)
        }),
    }
}

/// `-plugin-dir` values recorded in `.terraform/plugin_path`.
fn record_plugin_dirs(
    opts: &InitOptions,
    view: &InitView,
    streams: &mut Streams,
    work_dir: &Path,
) -> Result<(), Stop> {
    provider_install::store_plugin_path(&opts.plugin_dirs, work_dir)
        .map_err(|e| usage_error(streams, view, "Error saving -plugin-path values", &e))
}

/// Whether the working directory has configuration files (test files
/// count); an empty one is initialized with nothing to do.
fn has_configuration(
    view: &InitView,
    streams: &mut Streams,
    work_dir: &Path,
) -> Result<bool, Stop> {
    match configs::file_names::dir_files(work_dir) {
        Ok(files) => {
            Ok(!(files.primary.is_empty() && files.overrides.is_empty() && files.tests.is_empty()))
        }
        Err(detail) => Err(usage_error(
            streams,
            view,
            "Error checking configuration",
            &detail,
        )),
    }
}

/// `-backend` and `-cloud` (an alias) as init reads them.
impl InitOptions {
    /// Either flag was given.
    fn backend_flag_set(&self) -> bool {
        self.backend.is_some() || self.cloud.is_some()
    }

    /// Neither flag is false.
    fn backend_enabled(&self) -> bool {
        self.backend.unwrap_or(true) && self.cloud.unwrap_or(true)
    }

    /// What the backend step needs of the flags, in `work_dir`.
    fn backend_options(&self, work_dir: &Path) -> backend::Options {
        backend::Options {
            config_extra: self.backend_config.clone(),
            reconfigure: self.reconfigure,
            migrate_state: self.migrate_state || self.force_copy,
            force_copy: self.force_copy,
            input: self.input && std::io::IsTerminal::is_terminal(&std::io::stdin()),
            data_dir: data_dir_in(work_dir),
        }
    }

    /// What the provider step needs of the flags.
    fn provider_options(&self, color: bool, work_dir: &Path) -> ProviderOptions {
        ProviderOptions {
            upgrade: self.upgrade,
            plugin_dirs: self
                .plugin_dirs
                .iter()
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .collect(),
            lockfile_readonly: self.lockfile.as_deref() == Some("readonly"),
            color,
            work_dir: work_dir.to_path_buf(),
            unmanaged: crate::unmanaged_providers::configured()
                .into_keys()
                .collect(),
        }
    }
}

/// What the backend step left for later: its diagnostics (reported
/// before those of the installed tree) and whether the cloud backend was
/// initialized.
struct BackendStep {
    diags: Diagnostics,
    is_cloud: bool,
}

/// One run of init past the checks of its flags: the output, the
/// diagnostics so far with their sources, and the working-directory lock
/// (released when the run ends).
struct InitRun<'a> {
    streams: &'a mut Streams,
    view: &'a InitView,
    /// The working directory, as the process sees it.
    work_dir: &'a Path,
    diags: Diagnostics,
    sources: SourceMap,
    lock: InitLock,
    /// A step printed its heading: the final messages follow an empty
    /// line.
    header: bool,
    /// No success messages (`-recursive` prints its own line).
    quiet: bool,
    /// The directories the installed tree's modules were loaded from.
    module_dirs: Vec<PathBuf>,
    /// The module directories read so far (shared by the roots of
    /// `-recursive`).
    dirs: &'a ModuleDirCache,
}

impl InitRun<'_> {
    /// The steps from loading the root module on.
    fn phases(&mut self, opts: &InitOptions, shared: &SharedInit) -> Result<(), Stop> {
        // Every module directory is read once: for installing, then for the
        // load of the installed tree (many calls share a directory).
        let dirs = &shared.dirs;
        let (root, root_call) = self.load_root_module(opts, dirs)?;
        self.check_encryption(opts, &root)?;
        let backend = self.configure_backend(opts, &root)?;
        self.get_modules(opts, root, shared)?;
        let config = self.load_installed_tree(opts, &root_call, dirs, backend.diags)?;
        // Providers are installed whatever -get says, as OpenTofu does.
        if let Some(config) = &config {
            self.get_providers(opts, config)?;
        }
        if !self.quiet {
            self.print_success(backend.is_cloud);
        }
        Ok(())
    }

    /// Shows the diagnostics so far; init fails.
    fn fail(&mut self) -> Stop {
        self.own_paths();
        self.view
            .diagnostics(self.streams, &self.diags, &self.sources);
        Stop(1)
    }

    /// What names another root's copy of a shared module names this
    /// root's ([`crate::recursive::own_paths`]; nothing to do unless the
    /// roots of `-recursive` share identical module directories).
    fn own_paths(&mut self) {
        crate::recursive::own_paths(
            &self.module_dirs,
            self.dirs,
            &mut self.diags,
            &mut self.sources,
        );
    }

    /// The configuration is invalid: the explanation, then the
    /// diagnostics so far; init fails.
    fn config_failure(&mut self) -> Stop {
        self.view.config_error(self.streams);
        self.fail()
    }

    fn println(&mut self, s: &str) {
        self.view.println(self.streams, s);
    }

    fn add_sources<'f>(&mut self, files: impl IntoIterator<Item = &'f Arc<hclsyntax::SourceFile>>) {
        for f in files {
            self.sources.insert(f.clone());
        }
    }

    /// Takes the working-directory lock before the first write.
    fn acquire_lock(&mut self) -> Result<(), Stop> {
        self.lock.acquire().map_err(|d| {
            self.diags.push(*d);
            self.fail()
        })
    }

    /// The root module alone (`loadSingleModuleWithTests`): it must be
    /// valid before anything is installed. Its variables come from the
    /// same places as plan's and make its static call; its test files are
    /// loaded too, since the modules their `run` blocks call are installed
    /// with the tree.
    fn load_root_module(
        &mut self,
        opts: &InitOptions,
        dirs: &Arc<ModuleDirCache>,
    ) -> Result<(Module, StaticModuleCall), Stop> {
        let root_dir = self.work_dir;
        let (root, mut early) = dirs.load(root_dir);
        let Some(mut root) = root else {
            self.view.config_error(self.streams);
            self.diags.append(early);
            self.view
                .diagnostics(self.streams, &self.diags, &SourceMap::new());
            return Err(Stop(1));
        };
        self.add_sources(&root.sources);
        let (root_call, var_diags) = root_static_call_for(&root, &opts.vars, root_dir, opts.input);
        let var_errors = var_diags.has_errors();
        self.diags.append(var_diags.into_vec());
        if var_errors {
            return Err(self.fail());
        }
        early.extend(root.with_static_call(root_call.clone()));
        early.extend(root.load_tests(&opts.test_directory));
        self.add_sources(&root.sources);
        let early_errors = hclsyntax::has_errors(&early);
        self.diags.append(early);
        if early_errors {
            return Err(self.config_failure());
        }
        Ok((root, root_call))
    }

    /// The encryption configuration, checked unless `-backend=false` says
    /// state and plans are not touched by this run.
    fn check_encryption(&mut self, opts: &InitOptions, root: &Module) -> Result<(), Stop> {
        if opts.backend_flag_set() && !opts.backend_enabled() {
            return Ok(());
        }
        let enc_diags = encryption::check(root);
        let failed = enc_diags.has_errors();
        self.diags.append(enc_diags);
        if failed {
            return Err(self.fail());
        }
        Ok(())
    }

    /// `initBackend`/`initCloud`: the backend (or the cloud block)
    /// configured and recorded in `.terraform/terraform.tfstate`, under the
    /// lock when there is something to record.
    fn configure_backend(
        &mut self,
        opts: &InitOptions,
        root: &Module,
    ) -> Result<BackendStep, Stop> {
        let mut step = BackendStep {
            diags: Diagnostics::new(),
            is_cloud: false,
        };
        if !opts.backend_enabled() {
            return Ok(step);
        }
        self.header = true;
        let backend_opts = opts.backend_options(self.work_dir);
        if let Some(cloud) = &root.cloud_config {
            self.println("\n[reset][bold]Initializing cloud backend...");
            self.acquire_lock()?;
            let outcome = init_cloud(
                root,
                cloud,
                &backend_opts,
                self.view.color(),
                &mut self.diags,
            );
            for m in &outcome.messages {
                self.println(m);
            }
            step.diags = outcome.diags;
            step.is_cloud = !step.diags.has_errors();
        } else {
            if root.backend.is_some() || backend::state::state_path(&backend_opts.data_dir).exists()
            {
                self.acquire_lock()?;
            }
            let outcome = backend::init_backend(root, &backend_opts);
            for m in &outcome.messages {
                self.println(m);
            }
            for s in outcome.sources {
                self.sources.insert(s);
            }
            step.diags = outcome.diags;
        }
        Ok(step)
    }

    /// `getModules`: with `-get` (the default), the module tree installed
    /// under the lock, when the root or its tests call any module.
    fn get_modules(
        &mut self,
        opts: &InitOptions,
        root: Module,
        shared: &SharedInit,
    ) -> Result<(), Stop> {
        if !opts.get || (root.module_calls.is_empty() && !root.has_test_run_modules()) {
            return Ok(());
        }
        self.header = true;
        self.println(if opts.upgrade {
            "[reset][bold]Upgrading modules..."
        } else {
            "[reset][bold]Initializing modules..."
        });
        self.acquire_lock()?;
        let installed = install_modules(root, opts.upgrade, self.streams, self.work_dir, shared);
        self.add_sources(installed.sources.iter());
        self.module_dirs = installed.module_dirs;
        let failed = installed.diags.has_errors();
        for d in installed.diags.into_vec() {
            self.diags.push(d);
        }
        if installed.canceled {
            self.view
                .diagnostics(self.streams, &self.diags, &self.sources);
            self.streams
                .eprint("Module installation was canceled by an interrupt signal.\n");
            return Err(Stop(1));
        }
        if failed {
            return Err(self.fail());
        }
        Ok(())
    }

    /// With the modules installed, the whole tree must load. The backend
    /// step's problems are reported first, then the tree's.
    fn load_installed_tree(
        &mut self,
        opts: &InitOptions,
        root_call: &StaticModuleCall,
        dirs: &Arc<ModuleDirCache>,
        backend_diags: Diagnostics,
    ) -> Result<Option<Config>, Stop> {
        let loaded = load_config_with(self.work_dir, root_call, &opts.test_directory, dirs);
        self.module_dirs = crate::recursive::module_dirs(loaded.config.as_ref());
        self.add_sources(loaded.sources.iter());
        let back_failed = backend_diags.has_errors();
        self.diags.append(backend_diags);
        if back_failed {
            return Err(self.fail());
        }
        let conf_errors = hclsyntax::has_errors(&loaded.diags);
        self.diags.append(loaded.diags);
        if conf_errors {
            return Err(self.config_failure());
        }
        Ok(loaded.config)
    }

    /// `getProviders`, under the lock ([`provider_install::get_providers`]).
    fn get_providers(&mut self, opts: &InitOptions, config: &Config) -> Result<(), Stop> {
        self.acquire_lock()?;
        let outcome = provider_install::get_providers(
            config,
            &opts.provider_options(self.view.color(), self.work_dir),
        );
        for l in &outcome.stdout {
            self.streams.print(&format!("{l}\n"));
        }
        for l in &outcome.stderr {
            self.streams.eprint(&format!("{l}\n"));
        }
        self.header |= outcome.output;
        self.diags.append(outcome.diags.into_vec());
        if outcome.abort {
            return Err(self.fail());
        }
        Ok(())
    }

    /// The warnings, then OpenTofu's success messages.
    fn print_success(&mut self, is_cloud: bool) {
        if self.header {
            self.streams.print("\n");
        }
        self.view
            .diagnostics(self.streams, &self.diags, &self.sources);
        self.println(if is_cloud { SUCCESS_CLOUD } else { SUCCESS });
        let in_automation = std::env::var_os("TF_IN_AUTOMATION").is_some_and(|v| !v.is_empty());
        if !in_automation {
            self.println(if is_cloud {
                SUCCESS_CLI_CLOUD
            } else {
                SUCCESS_CLI
            });
        }
    }
}

/// The cloud step with this process's CLI configuration, environment and
/// terminal; problems reading the CLI configuration join `diags`.
fn init_cloud(
    root: &Module,
    cloud: &configs::cloud::CloudConfig,
    opts: &backend::Options,
    color: bool,
    diags: &mut Diagnostics,
) -> backend::Outcome {
    let (connect, cli_diags) = backend::cloud::connect::ConnectOptions::from_process();
    diags.append(cli_diags);
    let mut terminal = TerminalPrompt { color };
    let copts = backend::cloud::CloudOptions {
        connect,
        env: backend::cloud::config::CloudEnv::from_process(),
        prompt: if opts.input {
            Some(&mut terminal)
        } else {
            None
        },
    };
    backend::cloud::init_cloud(root, cloud, opts, copts)
}

/// `UIInput.Input` on the terminal: the query, the description indented,
/// then `Enter a value:`; one line read from standard input.
struct TerminalPrompt {
    color: bool,
}

impl backend::cloud::workspace::Prompt for TerminalPrompt {
    fn input(&mut self, query: &str, description: &str) -> Result<String, String> {
        use std::io::{BufRead, Write};
        let mut text = format!("[reset][bold]{query}[reset]\n");
        if !description.is_empty() {
            for line in description.lines() {
                text.push_str(&format!("  {line}\n"));
            }
            text.push('\n');
        }
        text.push_str("  [bold]Enter a value:[reset] ");
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(colorize(&text, self.color).as_bytes());
        let _ = out.flush();
        let mut line = String::new();
        let got = std::io::stdin().lock().read_line(&mut line);
        let _ = out.write_all(b"\n");
        match got {
            Ok(0) => Err("EOF".to_string()),
            Ok(_) => Ok(line.trim_end().to_string()),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// The working-directory lock, taken when init first needs to write under
/// the data directory and kept to the end. The lock file is removed when
/// the run ends (normally or with an error), while still held, so no
/// `.tofu-rs-init.lock` is left behind; a run that was waiting for the
/// removed file takes the lock again on a fresh one.
struct InitLock {
    held: Option<WorkDirLock>,
    /// How long to wait for another run holding the lock.
    wait: Duration,
    /// The working directory and its data directory, as the process sees
    /// them.
    work_dir: PathBuf,
    data_dir: PathBuf,
}

impl InitLock {
    fn acquire(&mut self) -> Result<(), Box<tfdiags::Diagnostic>> {
        if self.held.is_some() {
            return Ok(());
        }
        let data = self.data_dir.clone();
        loop {
            match WorkDirLock::acquire(&data, self.wait) {
                Ok(l) => {
                    if l.is_current() {
                        self.held = Some(l);
                        // Temporary files of writes a killed run began:
                        // no writer of these is alive while we hold the
                        // lock. (The installers sweep their own staging.)
                        remove_stale_temp_files(&backend::state::state_path(&data));
                        remove_stale_temp_files(&under(
                            &self.work_dir,
                            provider_install::LOCK_FILE,
                        ));
                        return Ok(());
                    }
                    // The previous holder removed the file as we got it:
                    // lock the file that is there now instead.
                }
                Err(e) => {
                    let (summary, detail) = e.diagnostic_text();
                    return Err(Box::new(tfdiags::Diagnostic::error_sourceless(
                        summary, detail,
                    )));
                }
            }
        }
    }
}

impl Drop for InitLock {
    fn drop(&mut self) {
        if let Some(l) = self.held.take() {
            let _ = std::fs::remove_file(l.path());
            drop(l);
            // A run that wrote nothing else (e.g. -backend=false, no modules,
            // no providers) leaves no `.terraform`, as OpenTofu does;
            // `remove_dir` only removes an empty directory.
            let _ = std::fs::remove_dir(&self.data_dir);
        }
    }
}

/// What [`install_modules`] did.
struct InstallOutcome {
    diags: Diagnostics,
    sources: SourceMap,
    /// The directories the tree's modules were loaded from.
    module_dirs: Vec<PathBuf>,
    /// SIGINT arrived during the installation.
    canceled: bool,
}

/// Installs the module tree below `root` (`installModules`): under the
/// working-directory lock, every call through the installing walker, and
/// the manifest written once at the end whatever happened (an interrupted
/// run keeps what it installed completely).
fn install_modules(
    root: Module,
    upgrade: bool,
    streams: &mut Streams,
    work_dir: &Path,
    shared: &SharedInit,
) -> InstallOutcome {
    // Kept to the end of the installation: SIGINT cancels it meanwhile.
    let scope;
    let cancel = match &shared.cancel {
        Some(c) => c.clone(),
        None => {
            scope = InterruptScope::start();
            scope.cancel().clone()
        }
    };
    let mut diags = Diagnostics::new();
    let hooks = Arc::new(HumanHooks::default());
    let mut cfg = InstallerConfig::new(work_dir);
    cfg.modules_dir = modules_dir();
    cfg.upgrade = upgrade;
    cfg.cancel = cancel.clone();

    let (hosts, host_diags) = cliconfig::load_registry_hosts();
    diags.append(host_diags);
    let mut opts = RegistryOptions::from_env();
    opts.hosts = hosts;
    let registry = RegistryClient::new(opts);
    diags.append(shared.settings_diags.clone());
    let installer =
        match ModuleInstaller::new(cfg, shared.fetcher.clone(), Some(registry), hooks.clone()) {
            Ok(i) => i,
            Err(more) => {
                diags.append(more);
                return InstallOutcome {
                    diags,
                    sources: SourceMap::new(),
                    module_dirs: Vec::new(),
                    canceled: cancel.is_canceled(),
                };
            }
        };
    let walker = InstallWalker::new(&installer, work_dir).with_dirs(shared.dirs.clone());
    let (config, more) = build_config(root, &walker);
    // One write for all the progress lines (a line each was 200 writes).
    let lines: String = hooks
        .take_in_walk_order(&walker)
        .into_iter()
        .map(|l| l + "\n")
        .collect();
    streams.print(&lines);
    diags.append(more);
    if let Err(more) = installer.write_manifest() {
        diags.append(more);
    }
    InstallOutcome {
        diags,
        sources: config_sources(&config),
        module_dirs: crate::recursive::module_dirs(Some(&config)),
        canceled: cancel.is_canceled(),
    }
}
