//! `tofu-rs init`: prepares the working directory. This part installs the
//! module tree into `.terraform/modules` (`InitCommand.getModules`) and
//! checks that the whole configuration then loads; the backend and
//! providers are not handled yet (their flags are accepted).

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use configs::config_build::build_config;
use initwd::{
    download_line, install_line, InstallHooks, InstallerConfig, ModuleInstaller, PackageFetcher,
    RegistryClient, RegistryOptions, Version, WorkDirLock,
};
use tfdiags::{Diagnostics, SourceMap};

use crate::flags::{self, bool_flag, value_flag};
use crate::loader::{
    config_sources, data_dir, load_config, load_root_with_call, modules_dir, root_static_call,
};
use crate::module_install::InstallWalker;
use crate::view::{Streams, View};

const CONFIG_ERROR: &str = "\n[reset]OpenTofu encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe OpenTofu configuration must be valid before initialization so that\nOpenTofu can determine which modules and providers need to be installed.";
const SUCCESS: &str =
    "[reset][bold][green]OpenTofu has been successfully initialized![reset][green]";
const SUCCESS_CLI: &str = "[reset][green]\nYou may now begin working with OpenTofu. Try running \"tofu plan\" to see\nany changes that are required for your infrastructure. All OpenTofu commands\nshould now work.\n\nIf you ever set or change modules or backend configuration for OpenTofu,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.";
const EMPTY_DIR: &str = "[reset][bold]OpenTofu initialized in an empty directory![reset]\n\nThe directory has no OpenTofu configuration files. You may begin working\nwith OpenTofu immediately by creating OpenTofu configuration files.";

/// How long a second `init` in the same directory waits for the first.
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// The few colour tags init's messages use, as `colorstring` renders them
/// (with a final reset when colour is on).
fn colorize(s: &str, color: bool) -> String {
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

/// Where the installer's progress lines go: straight to stdout, or kept
/// for captured streams.
enum HookSink {
    Stdout,
    Buffer(Mutex<Vec<String>>),
}

/// The human module-install hooks (`moduleInstallationHookHuman`, with
/// local paths shown).
struct HumanHooks {
    sink: HookSink,
}

impl HumanHooks {
    fn line(&self, s: String) {
        match &self.sink {
            HookSink::Stdout => {
                let mut streams = Streams::system();
                streams.print(&format!("{s}\n"));
            }
            HookSink::Buffer(lines) => lines.lock().expect("hook buffer lock poisoned").push(s),
        }
    }
}

impl InstallHooks for HumanHooks {
    fn download(&self, key: &str, package: &str, version: Option<&Version>) {
        self.line(download_line(key, package, version));
    }
    fn install(&self, key: &str, _version: Option<&Version>, dir: &str) {
        self.line(install_line(key, dir));
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
        value_flag("backend-config"),
        bool_flag("reconfigure"),
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
    let view = InitView {
        view: View::new(parsed.bool("no-color", false)),
    };
    if !parsed.args.is_empty() {
        return usage_error(
            streams,
            &view,
            "Too many command line arguments",
            "Did you mean to use -chdir?",
        );
    }
    let upgrade = parsed.bool("upgrade", false);
    let get = parsed.bool("get", true);
    let root_dir = Path::new(".");

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

    let (root_call, var_diags) = root_static_call(&parsed.all("var"), parsed.bool("input", true));
    let mut diags = Diagnostics::new();
    diags.append(var_diags);
    if diags.has_errors() {
        view.diagnostics(streams, &diags, &SourceMap::new());
        return 1;
    }

    // The root module alone first: it must be valid before anything is
    // installed.
    let (root, early) = load_root_with_call(root_dir, &root_call);
    let Some(root) = root else {
        view.config_error(streams);
        diags.append(early);
        view.diagnostics(streams, &diags, &SourceMap::new());
        return 1;
    };
    let mut sources = SourceMap::new();
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

    // Backend: not handled yet (neither `-backend=false` nor a backend
    // block changes anything here).
    let mut header = false;

    if get && !root.module_calls.is_empty() {
        header = true;
        view.println(
            streams,
            if upgrade {
                "[reset][bold]Upgrading modules..."
            } else {
                "[reset][bold]Initializing modules..."
            },
        );
        let (install_diags, install_sources) = install_modules(root, upgrade, streams);
        for s in install_sources.iter() {
            sources.insert(s.clone());
        }
        let failed = install_diags.has_errors();
        for d in install_diags.into_vec() {
            diags.push(d);
        }
        if failed {
            view.diagnostics(streams, &diags, &sources);
            return 1;
        }
    }

    // With the modules installed, the whole tree must load.
    let loaded = load_config(root_dir, &root_call);
    for s in loaded.sources.iter() {
        sources.insert(s.clone());
    }
    let conf_errors = hclsyntax::has_errors(&loaded.diags);
    diags.append(loaded.diags);
    if conf_errors {
        view.config_error(streams);
        view.diagnostics(streams, &diags, &sources);
        return 1;
    }

    if header {
        streams.print("\n");
    }
    view.diagnostics(streams, &diags, &sources);
    view.println(streams, SUCCESS);
    let in_automation = std::env::var_os("TF_IN_AUTOMATION").is_some_and(|v| !v.is_empty());
    if !in_automation {
        view.println(streams, SUCCESS_CLI);
    }
    0
}

/// Installs the module tree below `root` (`installModules`): under the
/// working-directory lock, every call through the installing walker, and
/// the manifest written once at the end whatever happened.
fn install_modules(
    root: configs::module::Module,
    upgrade: bool,
    streams: &mut Streams,
) -> (Diagnostics, SourceMap) {
    let mut diags = Diagnostics::new();
    let data = data_dir();
    let _lock = match WorkDirLock::acquire(&data, LOCK_WAIT) {
        Ok(l) => l,
        Err(e) => {
            let (summary, detail) = e.diagnostic_text();
            diags.push(tfdiags::Diagnostic::error_sourceless(summary, detail));
            return (diags, SourceMap::new());
        }
    };
    let sink = match streams {
        Streams::System => HookSink::Stdout,
        Streams::Captured { .. } => HookSink::Buffer(Mutex::new(Vec::new())),
    };
    let hooks = Arc::new(HumanHooks { sink });
    let work_dir = Path::new(".");
    let mut cfg = InstallerConfig::new(work_dir);
    cfg.modules_dir = modules_dir();
    cfg.upgrade = upgrade;

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
            return (diags, SourceMap::new());
        }
    };
    let walker = InstallWalker::new(&installer, work_dir);
    let (config, more) = build_config(root, &walker);
    if let HookSink::Buffer(lines) = &hooks.sink {
        for l in lines.lock().expect("hook buffer lock poisoned").drain(..) {
            streams.print(&format!("{l}\n"));
        }
    }
    diags.append(more);
    if let Err(more) = installer.write_manifest() {
        diags.append(more);
    }
    (diags, config_sources(&config))
}
