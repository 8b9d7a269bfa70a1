//! Loading the configuration a command works on (`configload`): the root
//! module, statically evaluated with the root call, then the tree of
//! installed modules through [`build_config`] with the manifest walker,
//! which reads `.terraform/modules/modules.json` and insists that it
//! agrees with the configuration.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use configs::config::Config;
use configs::config_build::{build_config, LoadedModule, ModuleRequest, ModuleWalker};
use configs::module::{load_module_dir, Module};
use configs::module_dir_cache::ModuleDirCache;
use configs::static_eval::{StaticModuleCall, WorkDir};
use configs::version_constraint::Version;
use hclsyntax::{Diagnostic, Diagnostics, Severity};
use initwd::{module_key, Manifest};
use tfdiags::SourceMap;

use crate::flags::VarFlags;

/// The working directory's data directory (`TF_DATA_DIR`, else
/// `.terraform`).
pub fn data_dir() -> PathBuf {
    match std::env::var_os("TF_DATA_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(".terraform"),
    }
}

/// The modules directory inside the data directory, relative to the
/// working directory.
pub fn modules_dir() -> String {
    data_dir().join("modules").to_string_lossy().into_owned()
}

/// The data directory of the working directory `work_dir` (a root module
/// of `-recursive`), as seen from the process.
pub fn data_dir_in(work_dir: &Path) -> PathBuf {
    under(work_dir, &data_dir().to_string_lossy())
}

/// `rel` (a manifest directory) as seen from the process: unchanged when
/// `work_dir` is the current directory, so file names in diagnostics stay
/// as OpenTofu prints them (`modules/vpc/main.tf`). Below another working
/// directory (a root of `-recursive`) the join is cleaned lexically, so
/// that every root reaching `modules/vpc` names it, and reads it, the same
/// way (`live/a/../../modules/vpc` and `live/b/../../modules/vpc` would be
/// two spellings of one directory). Roots found by discovery have no
/// symlinked components, which is what makes the lexical clean exact.
pub fn under(work_dir: &Path, rel: &str) -> PathBuf {
    if work_dir == Path::new(".") || Path::new(rel).is_absolute() {
        PathBuf::from(rel)
    } else {
        let joined = work_dir.join(rel);
        PathBuf::from(addrs::clean_path(&joined.to_string_lossy()))
    }
}

fn sourceless(summary: &str, detail: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        summary: summary.to_string(),
        detail,
        subject: None,
        context: None,
    }
}

/// The walker for an already initialized working directory
/// (`Loader.moduleWalkerLoad`): every call must have a manifest record
/// with the same source and an acceptable version.
pub struct ManifestWalker {
    manifest: Manifest,
    /// The directory the records' relative `Dir`s are relative to.
    work_dir: PathBuf,
    /// Module directories already read (by this walker or, in `init`, by
    /// the installer before it).
    dirs: Arc<ModuleDirCache>,
}

impl ManifestWalker {
    /// Reads the manifest in `modules_dir` (relative to `work_dir`); a
    /// missing manifest is an empty one.
    pub fn read(work_dir: &Path, modules_dir: &str) -> Result<ManifestWalker, Box<Diagnostic>> {
        let manifest = Manifest::read_dir(&work_dir.join(modules_dir)).map_err(|e| {
            Box::new(sourceless(
                "Failed to read module manifest",
                format!("Error reading manifest for {modules_dir}: {e}."),
            ))
        })?;
        Ok(ManifestWalker::new(manifest, work_dir))
    }

    pub fn new(manifest: Manifest, work_dir: &Path) -> ManifestWalker {
        ManifestWalker {
            manifest,
            work_dir: work_dir.to_path_buf(),
            dirs: Arc::default(),
        }
    }

    /// This walker reading module directories through `dirs`.
    pub fn with_dirs(mut self, dirs: Arc<ModuleDirCache>) -> ManifestWalker {
        self.dirs = dirs;
        self
    }
}

const RUN_INIT: &str = "Run \"tofu init\" to install all modules required by this configuration.";

impl ModuleWalker for ManifestWalker {
    fn canonical_dir(&self, dir: &Path) -> PathBuf {
        self.dirs.canonical(dir)
    }

    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        let key = module_key(req.path);
        let Some(record) = self.manifest.records.get(&key) else {
            return (
                None,
                vec![Diagnostic::error(
                    "Module not installed",
                    format!("This module is not yet installed. {RUN_INIT}"),
                    req.call_range.clone(),
                )],
            );
        };
        let mut diags = Diagnostics::new();
        if let Some(src) = req.source_addr {
            let now = src.to_string();
            if now != record.source {
                diags.push(Diagnostic::error(
                    "Module source has changed",
                    format!(
                        "The source address was changed from {} to {} since this module was installed. {RUN_INIT}",
                        addrs::go_quote(&record.source),
                        addrs::go_quote(&now)
                    ),
                    req.source_subject(),
                ));
            }
        }
        let version = record
            .version
            .as_ref()
            .and_then(|v| Version::parse(&v.to_string()).ok());
        let required = req
            .version_constraint
            .map(|v| &v.required)
            .filter(|c| !c.is_empty());
        match (&record.version, &version, required) {
            (None, _, Some(_)) => diags.push(Diagnostic::error(
                "Module version requirements have changed",
                format!(
                    "The version requirements have changed since this module was installed and the installed version is no longer acceptable. {RUN_INIT}"
                ),
                req.source_subject(),
            )),
            (Some(raw), Some(v), Some(c)) if !c.check(v) => diags.push(Diagnostic::error(
                "Module version requirements have changed",
                format!(
                    "The version requirements have changed since this module was installed and the installed version ({raw}) is no longer acceptable. {RUN_INIT}"
                ),
                req.source_subject(),
            )),
            _ => {}
        }
        let dir = under(&self.work_dir, &record.dir);
        let (module, more) = self.dirs.load(&dir);
        let Some(module) = module else {
            return (
                None,
                vec![Diagnostic::error(
                    "Module not installed",
                    format!(
                        "This module's local cache directory {} could not be read. {RUN_INIT}",
                        record.dir
                    ),
                    req.call_range.clone(),
                )],
            );
        };
        diags.extend(more);
        (
            Some(LoadedModule {
                module,
                dir,
                version,
            }),
            diags,
        )
    }
}

/// A loaded configuration and the sources of every file in it.
pub struct Loaded {
    /// `None` only when the root directory could not be read.
    pub config: Option<Config>,
    pub diags: Diagnostics,
    pub sources: SourceMap,
}

/// Loads the root module in `dir` alone (no children, no static call),
/// with its diagnostics and sources, for commands that work on the root
/// module only.
pub fn load_root_module(dir: &Path) -> (Option<Module>, tfdiags::Diagnostics, SourceMap) {
    let (module, more) = load_module_dir(dir);
    let mut diags = tfdiags::Diagnostics::new();
    diags.append(more);
    let mut sources = SourceMap::new();
    if let Some(m) = &module {
        for s in &m.sources {
            sources.insert(s.clone());
        }
    }
    (module, diags, sources)
}

/// Loads the root module in `dir` and applies the root call to it.
pub fn load_root_with_call(
    dir: &Path,
    root_call: &StaticModuleCall,
    dirs: &ModuleDirCache,
) -> (Option<Module>, Diagnostics) {
    let (module, mut diags) = dirs.load(dir);
    let Some(mut module) = module else {
        return (None, diags);
    };
    diags.extend(module.with_static_call(root_call.clone()));
    (Some(module), diags)
}

/// The sources of every module in `cfg`, for rendering diagnostics.
pub fn config_sources(cfg: &Config) -> SourceMap {
    let mut sources = SourceMap::new();
    for node in cfg.all() {
        for s in &node.module.sources {
            sources.insert(s.clone());
        }
    }
    sources
}

/// `LoadConfig`: the root module in `dir` and, when it has no errors,
/// every installed descendant (from the working directory's manifest).
/// The root's test files in `dir` and `dir/test_dir` are loaded too
/// (`LoadConfigWithTests`, as init, validate and providers do).
pub fn load_config(dir: &Path, root_call: &StaticModuleCall, test_dir: &str) -> Loaded {
    load_config_with(dir, root_call, test_dir, &Arc::default())
}

/// [`load_config`] reading module directories through `dirs`: `init`
/// passes the cache its installer filled, so nothing is parsed twice.
/// `dir` is also the working directory whose manifest is read.
pub fn load_config_with(
    dir: &Path,
    root_call: &StaticModuleCall,
    test_dir: &str,
    dirs: &Arc<ModuleDirCache>,
) -> Loaded {
    let (root, mut diags) = load_root_with_call(dir, root_call, dirs);
    let root = root.map(|mut root| {
        diags.extend(root.load_tests(test_dir));
        root
    });
    build_from_root(root, diags, true, dir, dirs)
}

/// The configuration without test files for a root module already read (by
/// [`load_root_module`], to collect its variables first): the files are
/// not parsed again.
pub fn load_config_from_root(mut root: Module, root_call: &StaticModuleCall) -> Loaded {
    let diags = root.with_static_call(root_call.clone());
    build_from_root(Some(root), diags, false, Path::new("."), &Arc::default())
}

/// The configuration for a command's own flags: the root module in `dir`
/// is read once, its variables collected as `plan` collects them
/// (defaults, `TF_VAR_*`, `terraform.tfvars[.json]`, `*.auto.tfvars[.json]`,
/// then `-var` and `-var-file` in `var_flags` order) and applied as its static
/// call, then the installed tree is loaded, with the test files of
/// `test_dir` when given (`None`: without tests, as `LoadConfig`). The
/// second result holds the variables' own diagnostics; the variable files
/// join the loaded sources.
pub fn load_config_for_flags(
    dir: &Path,
    var_flags: &VarFlags,
    test_dir: Option<&str>,
    input: bool,
) -> (Loaded, tfdiags::Diagnostics) {
    let place = LoadPlace {
        work_dir: Path::new("."),
        dirs: &Arc::default(),
    };
    load_config_for_flags_in(&place, dir, var_flags, test_dir, input)
}

/// Where a command run on one root module reads from: the working
/// directory (its `.terraform`, its variable files) and the module
/// directories already read. A command run on its own works in `.` with a
/// cache of its own; `-recursive` runs each root in the root's directory,
/// all of them sharing one cache.
pub struct LoadPlace<'a> {
    pub work_dir: &'a Path,
    pub dirs: &'a Arc<ModuleDirCache>,
}

/// [`load_config_for_flags`] in the working directory and with the module
/// directories `place` gives.
pub fn load_config_for_flags_in(
    place: &LoadPlace<'_>,
    dir: &Path,
    var_flags: &VarFlags,
    test_dir: Option<&str>,
    input: bool,
) -> (Loaded, tfdiags::Diagnostics) {
    let (module, mut diags) = place.dirs.load(dir);
    let Some(mut root) = module else {
        return (
            build_from_root(None, diags, false, place.work_dir, place.dirs),
            tfdiags::Diagnostics::new(),
        );
    };
    // A root with errors is reported as it is: its variables' defaults
    // would only repeat them (as plan-lite, OpenTofu collects values from
    // a root that loaded cleanly).
    let (vars, var_diags) = if hclsyntax::has_errors(&diags) {
        Default::default()
    } else {
        crate::variables::collect(
            &root,
            var_flags.as_slice(),
            place.work_dir,
            crate::variables::Unset::Unknown,
        )
    };
    let call = in_work_dir(root_static_call_from(&vars, input), place.work_dir);
    diags.extend(root.with_static_call(call));
    if let Some(test_dir) = test_dir {
        diags.extend(root.load_tests(test_dir));
    }
    let mut loaded = build_from_root(
        Some(root),
        diags,
        test_dir.is_some(),
        place.work_dir,
        place.dirs,
    );
    for f in &vars.files {
        loaded.sources.insert(f.clone());
    }
    (loaded, var_diags)
}

fn build_from_root(
    root: Option<Module>,
    mut diags: Diagnostics,
    tests: bool,
    work_dir: &Path,
    dirs: &Arc<ModuleDirCache>,
) -> Loaded {
    let root = root.map(|mut root| {
        if !tests {
            // build_config loads the root's test files unless told there are none.
            root.tests = Some(Default::default());
        }
        root
    });
    let Some(root) = root else {
        return Loaded {
            config: None,
            diags,
            sources: SourceMap::new(),
        };
    };
    if hclsyntax::has_errors(&diags) {
        // As OpenTofu: children are only loaded below a valid root.
        let cfg = Config::root(root);
        let sources = config_sources(&cfg);
        return Loaded {
            config: Some(cfg),
            diags,
            sources,
        };
    }
    let walker = match ManifestWalker::read(work_dir, &modules_dir()) {
        Ok(w) => w.with_dirs(dirs.clone()),
        Err(d) => {
            diags.push(*d);
            let cfg = Config::root(root);
            let sources = config_sources(&cfg);
            return Loaded {
                config: Some(cfg),
                diags,
                sources,
            };
        }
    };
    let (cfg, more) = build_config(root, &walker);
    diags.extend(more);
    let sources = config_sources(&cfg);
    Loaded {
        config: Some(cfg),
        diags,
        sources,
    }
}

/// Asks for a variable's value on the terminal as OpenTofu's `UIInput`
/// does; each answer is kept for the rest of the run.
fn terminal_prompt() -> std::sync::Arc<configs::static_eval::PromptFn> {
    use std::io::{BufRead, Write};
    let answers: std::sync::Mutex<std::collections::HashMap<String, Option<cty::Value>>> =
        std::sync::Mutex::new(std::collections::HashMap::new());
    std::sync::Arc::new(move |var: &configs::named_values::Variable| {
        let mut answers = answers.lock().expect("prompt answers lock poisoned");
        if let Some(v) = answers.get(&var.name) {
            return (v.clone(), Diagnostics::new());
        }
        let text = prompt_text(var);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        let mut line = String::new();
        let got = std::io::stdin().lock().read_line(&mut line);
        let _ = out.write_all(b"\n");
        let value = match got {
            Ok(n) if n > 0 => Some(cty::Value::string(line.trim_end_matches(['\r', '\n']))),
            _ => None,
        };
        answers.insert(var.name.clone(), value.clone());
        if value.is_none() {
            return (
                None,
                vec![sourceless(
                    &format!(
                        "Failed to request input from user for variable var.{}",
                        var.name
                    ),
                    String::new(),
                )],
            );
        }
        (value, Diagnostics::new())
    })
}

/// What the prompt for `var` shows (`UIInput.Input` with the variable's
/// `InputPrompt`): its name, then the description indented, or for a
/// deprecated variable the deprecation message in its place.
pub fn prompt_text(var: &configs::named_values::Variable) -> String {
    let description = if var.deprecated.is_empty() {
        var.description.clone()
    } else {
        format!(
            "Variable is marked as deprecated with the following message: {}",
            var.deprecated
        )
    };
    let mut text = format!("var.{}\n", var.name);
    if !description.is_empty() {
        for line in description.lines() {
            text.push_str(&format!("  {line}\n"));
        }
        text.push('\n');
    }
    text.push_str("  Enter a value: ");
    text
}

/// The root module's call for `init` (`rootModuleCall`): the variables'
/// values gathered as `plan` gathers them (defaults, `TF_VAR_*`,
/// `terraform.tfvars[.json]`, `*.auto.tfvars[.json]`, then `-var` and
/// `-var-file` in command-line order), parsed and converted to their
/// declared types. A required variable nobody set is asked for on the
/// terminal when static evaluation needs it and `input` allows it, and is
/// an error otherwise.
pub fn root_static_call_for(
    module: &Module,
    vars: &VarFlags,
    work_dir: &Path,
    input: bool,
) -> (StaticModuleCall, tfdiags::Diagnostics) {
    let (collected, diags) = crate::variables::collect(
        module,
        vars.as_slice(),
        work_dir,
        crate::variables::Unset::Unknown,
    );
    let call = in_work_dir(root_static_call_from(&collected, input), work_dir);
    (call, diags)
}

/// `call` evaluated as a run in the working directory `work_dir` would be
/// (the process's own: nothing changes).
fn in_work_dir(call: StaticModuleCall, work_dir: &Path) -> StaticModuleCall {
    if work_dir == Path::new(".") {
        return call;
    }
    call.in_work_dir(WorkDir::at(&work_dir.to_string_lossy()))
}

/// The root module's call from root variables already collected
/// ([`crate::variables::collect`]): only what the user set (static
/// evaluation applies the defaults itself, and asks for, or reports, a
/// required variable it needs).
pub fn root_static_call_from(
    collected: &crate::variables::RootVariables,
    input: bool,
) -> StaticModuleCall {
    let values = collected
        .values
        .iter()
        .filter(|(name, _)| collected.set_by_user.contains(*name))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let workspace = std::env::var("TF_WORKSPACE")
        .ok()
        .filter(|w| !w.is_empty())
        .unwrap_or_else(|| "default".to_string());
    let mut root_vars = configs::static_eval::RootVariables::new(values);
    if input && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        root_vars.prompt = Some(terminal_prompt());
    }
    StaticModuleCall::root(root_vars, ".", workspace)
}

#[cfg(test)]
mod tests {
    use super::prompt_text;

    #[test]
    fn prompts_show_the_description_or_the_deprecation_message() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("main.tf"),
            r#"
variable "plain" {}
variable "described" {
  description = "The region.\nPick one."
}
variable "old" {
  description = "Not shown."
  deprecated  = "Use new instead."
}
"#,
        )
        .unwrap();
        let (module, _) = configs::module::load_module_dir(dir.path());
        let module = module.unwrap();
        let text = |name: &str| prompt_text(&module.variables[name]);
        assert_eq!(text("plain"), "var.plain\n  Enter a value: ");
        assert_eq!(
            text("described"),
            "var.described\n  The region.\n  Pick one.\n\n  Enter a value: "
        );
        assert_eq!(
            text("old"),
            "var.old\n  Variable is marked as deprecated with the following message: Use new instead.\n\n  Enter a value: "
        );
    }
}
