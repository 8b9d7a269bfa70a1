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

use configs::config_build::build_config;
use initwd::atomic_file::remove_stale_temp_files;
use initwd::{
    download_line, install_line, InstallHooks, InstallerConfig, ModuleInstaller, PackageFetcher,
    RegistryClient, RegistryOptions, Version, WorkDirLock,
};
use tfdiags::{Diagnostics, SourceMap};

use crate::flags::{self, bool_flag, value_flag};
use crate::go_duration::parse_go_duration;
use crate::interrupt::InterruptScope;
use crate::loader::{
    config_sources, data_dir, load_config_with, modules_dir, root_static_call_for, test_dir,
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

struct InitView {
    view: View,
}

impl InitView {
    fn color(&self) -> bool {
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
    fn diagnostics(&self, streams: &mut Streams, diags: &Diagnostics, sources: &SourceMap) {
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

fn usage_error(streams: &mut Streams, view: &InitView, summary: &str, detail: &str) -> i32 {
    let mut diags = Diagnostics::new();
    diags.push(tfdiags::Diagnostic::error_sourceless(summary, detail));
    view.diagnostics(streams, &diags, &SourceMap::new());
    1
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let specs = [
        bool_flag("input"),
        value_flag("var"),
        value_flag("var-file"),
        bool_flag("backend"),
        bool_flag("cloud"),
        value_flag("backend-config"),
        bool_flag("reconfigure"),
        bool_flag("migrate-state"),
        bool_flag("force-copy"),
        bool_flag("ignore-remote-version"),
        bool_flag("upgrade"),
        bool_flag("get"),
        bool_flag("no-color"),
        value_flag("deprecation"),
        value_flag("plugin-dir"),
        value_flag("lockfile"),
        bool_flag("lock"),
        value_flag("lock-timeout"),
        value_flag("test-directory"),
    ];
    let parsed = match flags::parse(args, &specs) {
        Ok(p) => p,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let mut view = InitView {
        view: View::new(parsed.bool("no-color", false)),
    };
    // `-deprecation` is one of the view options every command parses, so
    // a value without the `module:` prefix stops init as it stops validate.
    let (level, flag_diags) = super::validate::deprecation_level(&parsed.all("deprecation"));
    if flag_diags.has_errors() {
        view.diagnostics(streams, &flag_diags, &SourceMap::new());
        streams.eprint(&super::validate::help_prompt("init"));
        return 1;
    }
    view.view.options.deprecation = level;
    if !parsed.args.is_empty() {
        return usage_error(
            streams,
            &view,
            "Too many command line arguments",
            "Did you mean to use -chdir?",
        );
    }
    if parsed.bool("migrate-state", false) && parsed.bool("reconfigure", false) {
        return usage_error(
            streams,
            &view,
            "Wrong combination of options",
            "The -migrate-state and -reconfigure options are mutually-exclusive",
        );
    }
    let lock_wait = match parsed.last("lock-timeout") {
        None => LOCK_WAIT,
        Some(raw) => match parse_go_duration(raw) {
            Some(d) => d,
            None => {
                streams.eprint(&format!(
                    "invalid value {raw:?} for flag -lock-timeout: parse error\n"
                ));
                return 1;
            }
        },
    };
    let upgrade = parsed.bool("upgrade", false);
    let test_dir = test_dir(&parsed).to_string();
    let get = parsed.bool("get", true);
    let input = parsed.bool("input", true);
    // `-cloud` is an alias of `-backend`; either set to false disables it.
    let backend_flag_set = parsed.last("backend").is_some() || parsed.last("cloud").is_some();
    let backend_enabled = parsed.bool("backend", true) && parsed.bool("cloud", true);
    let force_copy = parsed.bool("force-copy", false);
    let backend_opts = backend::Options {
        config_extra: parsed
            .all("backend-config")
            .into_iter()
            .map(str::to_string)
            .collect(),
        reconfigure: parsed.bool("reconfigure", false),
        migrate_state: parsed.bool("migrate-state", false) || force_copy,
        force_copy,
        input: input && std::io::IsTerminal::is_terminal(&std::io::stdin()),
        data_dir: data_dir(),
    };
    let root_dir = Path::new(".");
    let plugin_dirs: Vec<String> = parsed
        .all("plugin-dir")
        .into_iter()
        .map(str::to_string)
        .collect();
    if let Err(e) = provider_install::store_plugin_path(&plugin_dirs) {
        return usage_error(streams, &view, "Error saving -plugin-path values", &e);
    }

    match configs::file_names::dir_files(root_dir) {
        Ok(files)
            if files.primary.is_empty() && files.overrides.is_empty() && files.tests.is_empty() =>
        {
            view.println(streams, EMPTY_DIR);
            return 0;
        }
        Ok(_) => {}
        Err(detail) => return usage_error(streams, &view, "Error checking configuration", &detail),
    }

    let mut diags = Diagnostics::new();
    // The root module alone first: it must be valid before anything is
    // installed. Its variables come from the same places as plan's.
    // Every module directory is read once: for installing, then for the
    // load of the installed tree (many calls share a directory).
    let dirs = Arc::new(ModuleDirCache::new());
    let (root, early) = dirs.load(root_dir);
    let Some(mut root) = root else {
        view.config_error(streams);
        diags.append(early);
        view.diagnostics(streams, &diags, &SourceMap::new());
        return 1;
    };
    let mut sources = SourceMap::new();
    for s in &root.sources {
        sources.insert(s.clone());
    }
    let (root_call, var_diags) = root_static_call_for(&root, &parsed.flags, root_dir, input);
    if var_diags.has_errors() {
        diags.append(var_diags.into_vec());
        view.diagnostics(streams, &diags, &sources);
        return 1;
    }
    diags.append(var_diags.into_vec());
    let mut early = early;
    early.extend(root.with_static_call(root_call.clone()));
    // The test files too (`loadSingleModuleWithTests`): the modules their
    // `run` blocks call are installed with the tree.
    early.extend(root.load_tests(&test_dir));
    for s in &root.sources {
        sources.insert(s.clone());
    }
    let early_errors = hclsyntax::has_errors(&early);
    diags.append(early);
    if early_errors {
        view.config_error(streams);
        view.diagnostics(streams, &diags, &sources);
        return 1;
    }

    let mut lock = InitLock {
        held: None,
        wait: lock_wait,
    };

    // Encryption: checked unless -backend=false says state and plans are
    // not touched by this run.
    if !backend_flag_set || backend_enabled {
        let enc_diags = encryption::check(&root);
        let failed = enc_diags.has_errors();
        diags.append(enc_diags);
        if failed {
            view.diagnostics(streams, &diags, &sources);
            return 1;
        }
    }

    let mut header = false;
    let mut back_diags = Diagnostics::new();
    let mut is_cloud = false;
    if backend_enabled {
        header = true;
        if let Some(cloud) = &root.cloud_config {
            view.println(streams, "\n[reset][bold]Initializing cloud backend...");
            if let Err(d) = lock.acquire() {
                diags.push(*d);
                view.diagnostics(streams, &diags, &sources);
                return 1;
            }
            let outcome = init_cloud(&root, cloud, &backend_opts, view.color(), &mut diags);
            for m in &outcome.messages {
                view.println(streams, m);
            }
            back_diags = outcome.diags;
            is_cloud = !back_diags.has_errors();
        } else {
            if root.backend.is_some() || backend::state::state_path(&backend_opts.data_dir).exists()
            {
                if let Err(d) = lock.acquire() {
                    diags.push(*d);
                    view.diagnostics(streams, &diags, &sources);
                    return 1;
                }
            }
            let outcome = backend::init_backend(&root, &backend_opts);
            for m in &outcome.messages {
                view.println(streams, m);
            }
            for s in outcome.sources {
                sources.insert(s);
            }
            back_diags = outcome.diags;
        }
    }

    if get && (!root.module_calls.is_empty() || root.has_test_run_modules()) {
        header = true;
        view.println(
            streams,
            if upgrade {
                "[reset][bold]Upgrading modules..."
            } else {
                "[reset][bold]Initializing modules..."
            },
        );
        if let Err(d) = lock.acquire() {
            diags.push(*d);
            view.diagnostics(streams, &diags, &sources);
            return 1;
        }
        let installed = install_modules(root, upgrade, streams, &dirs);
        for s in installed.sources.iter() {
            sources.insert(s.clone());
        }
        let failed = installed.diags.has_errors();
        for d in installed.diags.into_vec() {
            diags.push(d);
        }
        if installed.canceled {
            view.diagnostics(streams, &diags, &sources);
            streams.eprint("Module installation was canceled by an interrupt signal.\n");
            return 1;
        }
        if failed {
            view.diagnostics(streams, &diags, &sources);
            return 1;
        }
    }

    // With the modules installed, the whole tree must load.
    let loaded = load_config_with(root_dir, &root_call, &test_dir, &dirs);
    for s in loaded.sources.iter() {
        sources.insert(s.clone());
    }

    // Backend problems come before those of the rest of the tree.
    let back_failed = back_diags.has_errors();
    diags.append(back_diags);
    if back_failed {
        view.diagnostics(streams, &diags, &sources);
        return 1;
    }
    let conf_errors = hclsyntax::has_errors(&loaded.diags);
    diags.append(loaded.diags);
    if conf_errors {
        view.config_error(streams);
        view.diagnostics(streams, &diags, &sources);
        return 1;
    }

    // Providers are installed whatever -get says, as OpenTofu does.
    if let Some(config) = &loaded.config {
        if let Err(d) = lock.acquire() {
            diags.push(*d);
            view.diagnostics(streams, &diags, &sources);
            return 1;
        }
        let opts = ProviderOptions {
            upgrade,
            plugin_dirs: plugin_dirs
                .iter()
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .collect(),
            lockfile_readonly: parsed.last("lockfile") == Some("readonly"),
            color: view.color(),
        };
        let outcome = provider_install::get_providers(config, &opts);
        for l in &outcome.stdout {
            streams.print(&format!("{l}\n"));
        }
        for l in &outcome.stderr {
            streams.eprint(&format!("{l}\n"));
        }
        header |= outcome.output;
        diags.append(outcome.diags.into_vec());
        if outcome.abort {
            view.diagnostics(streams, &diags, &sources);
            return 1;
        }
    }

    if header {
        streams.print("\n");
    }
    view.diagnostics(streams, &diags, &sources);
    view.println(streams, if is_cloud { SUCCESS_CLOUD } else { SUCCESS });
    let in_automation = std::env::var_os("TF_IN_AUTOMATION").is_some_and(|v| !v.is_empty());
    if !in_automation {
        view.println(
            streams,
            if is_cloud {
                SUCCESS_CLI_CLOUD
            } else {
                SUCCESS_CLI
            },
        );
    }
    0
}

/// The cloud step with this process's CLI configuration, environment and
/// terminal; problems reading the CLI configuration join `diags`.
fn init_cloud(
    root: &configs::module::Module,
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
}

impl InitLock {
    fn acquire(&mut self) -> Result<(), Box<tfdiags::Diagnostic>> {
        if self.held.is_some() {
            return Ok(());
        }
        let data = data_dir();
        loop {
            match WorkDirLock::acquire(&data, self.wait) {
                Ok(l) => {
                    if l.is_current() {
                        self.held = Some(l);
                        // Temporary files of writes a killed run began:
                        // no writer of these is alive while we hold the
                        // lock. (The installers sweep their own staging.)
                        remove_stale_temp_files(&backend::state::state_path(&data));
                        remove_stale_temp_files(Path::new(provider_install::LOCK_FILE));
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
            let _ = std::fs::remove_dir(data_dir());
        }
    }
}

/// What [`install_modules`] did.
struct InstallOutcome {
    diags: Diagnostics,
    sources: SourceMap,
    /// SIGINT arrived during the installation.
    canceled: bool,
}

/// Installs the module tree below `root` (`installModules`): under the
/// working-directory lock, every call through the installing walker, and
/// the manifest written once at the end whatever happened (an interrupted
/// run keeps what it installed completely).
fn install_modules(
    root: configs::module::Module,
    upgrade: bool,
    streams: &mut Streams,
    dirs: &Arc<ModuleDirCache>,
) -> InstallOutcome {
    let interrupt = InterruptScope::start();
    let mut diags = Diagnostics::new();
    let hooks = Arc::new(HumanHooks::default());
    let work_dir = Path::new(".");
    let mut cfg = InstallerConfig::new(work_dir);
    cfg.modules_dir = modules_dir();
    cfg.upgrade = upgrade;
    cfg.cancel = interrupt.cancel().clone();

    let (hosts, host_diags) = initwd::cliconfig::load_registry_hosts();
    diags.append(host_diags);
    let mut opts = RegistryOptions::from_env();
    opts.hosts = hosts;
    let registry = RegistryClient::new(opts);
    let installer = match ModuleInstaller::new(
        cfg,
        PackageFetcher::default(),
        Some(registry),
        hooks.clone(),
    ) {
        Ok(i) => i,
        Err(more) => {
            diags.append(more);
            return InstallOutcome {
                diags,
                sources: SourceMap::new(),
                canceled: interrupt.cancel().is_canceled(),
            };
        }
    };
    let walker = InstallWalker::new(&installer, work_dir).with_dirs(dirs.clone());
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
        canceled: interrupt.cancel().is_canceled(),
    }
}
