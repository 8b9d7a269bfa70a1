//! The installing module walker (`ModuleInstaller.moduleInstallWalker`):
//! [`build_config`](configs::config_build::build_config) hands it each
//! module call; it installs the call with the [`ModuleInstaller`] (or finds
//! it already installed) and loads the module from where it landed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use configs::config_build::{LoadedModule, ModuleRequest, ModuleWalker};
use configs::module_dir_cache::ModuleDirCache;
use configs::version_constraint::Version;
use hclsyntax::{Diagnostic, Diagnostics, Severity};
use initwd::{module_key, InstallRequest, ModuleInstaller, PackageContext};

/// Installs each call it is asked to load.
pub struct InstallWalker<'a> {
    installer: &'a ModuleInstaller,
    /// The directory the installer's relative directories are relative to.
    work_dir: PathBuf,
    /// The module package each installed module belongs to, by key: what
    /// its own local calls must stay inside.
    packages: Mutex<HashMap<String, PackageContext>>,
    /// The keys of test files' `run` modules, in the order they were
    /// walked (after the module tree, one at a time).
    test_runs: Mutex<Vec<String>>,
    /// Module directories read so far (many calls share a directory).
    dirs: Arc<ModuleDirCache>,
}

/// Where a module's progress lines go in OpenTofu's (sequential) walk
/// order: the module tree depth first with calls by name, then each test
/// run's module (and its tree) in the order the runs were walked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkOrder {
    /// Index of the test run the module belongs to, plus one (0 = the
    /// module tree).
    test_run: usize,
    path: Vec<String>,
}

impl<'a> InstallWalker<'a> {
    pub fn new(installer: &'a ModuleInstaller, work_dir: &Path) -> InstallWalker<'a> {
        InstallWalker {
            installer,
            work_dir: work_dir.to_path_buf(),
            packages: Mutex::new(HashMap::new()),
            test_runs: Mutex::new(Vec::new()),
            dirs: Arc::default(),
        }
    }

    /// This walker reading module directories through `dirs` (which the
    /// load after installation then reuses).
    pub fn with_dirs(mut self, dirs: Arc<ModuleDirCache>) -> InstallWalker<'a> {
        self.dirs = dirs;
        self
    }

    /// The position of the module installed at `key` in the walk order
    /// OpenTofu prints progress in, whatever order it was installed in.
    pub fn walk_order(&self, key: &str) -> WalkOrder {
        let runs = self.test_runs.lock().expect("test run list lock poisoned");
        let test_run = runs
            .iter()
            .position(|t| key == t || key.starts_with(&format!("{t}.")))
            .map_or(0, |i| i + 1);
        WalkOrder {
            test_run,
            path: key.split('.').map(str::to_string).collect(),
        }
    }

    fn packages(&self) -> std::sync::MutexGuard<'_, HashMap<String, PackageContext>> {
        self.packages.lock().expect("package map lock poisoned")
    }
}

impl ModuleWalker for InstallWalker<'_> {
    fn canonical_dir(&self, dir: &Path) -> PathBuf {
        self.dirs.canonical(dir)
    }

    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        // An undecodable source was reported with the calling module.
        let Some(source) = req.source_addr else {
            return (None, Diagnostics::new());
        };
        if req.path.0.len() != req.parent_path.0.len() + 1 {
            // A test run's module, installed below the root at
            // `test.<file>.<run>`.
            self.test_runs
                .lock()
                .expect("test run list lock poisoned")
                .push(module_key(req.path));
        }
        let parent_package = self.packages().get(&module_key(req.parent_path)).cloned();
        let version = req.version_string();
        let ireq = InstallRequest {
            path: req.path,
            parent_path: req.parent_path,
            source,
            version: version.as_deref(),
            parent_package: parent_package.as_ref(),
            call_range: req.call_range,
        };
        let installed = match self.installer.install(&ireq) {
            Ok(i) => i,
            Err(diags) => return (None, diags),
        };
        if let Some(p) = &installed.package {
            self.packages().insert(installed.key.clone(), p.clone());
        }
        let mut diags = installed.warnings;
        let dir = crate::loader::under(&self.work_dir, &installed.dir);
        let (module, more) = self.dirs.load(&dir);
        let Some(module) = module else {
            diags.push(Diagnostic {
                severity: Severity::Error,
                summary: "Unreadable module directory".into(),
                detail: format!(
                    "The directory {} could not be read for module {} at {}:{}.",
                    installed.dir,
                    addrs::go_quote(req.name),
                    req.call_range.filename,
                    req.call_range.start.line
                ),
                subject: None,
                context: None,
            });
            return (None, diags);
        };
        diags.extend(more);
        let version = installed
            .version
            .as_ref()
            .and_then(|v| Version::parse(&v.to_string()).ok());
        (
            Some(LoadedModule {
                module,
                dir,
                version,
            }),
            diags,
        )
    }

    /// The children of a module are installed at the same time (the
    /// package fetcher shares a package between calls, and waits for one
    /// being fetched); callers print the progress lines in OpenTofu's
    /// sequential order with [`InstallWalker::walk_order`].
    fn parallel(&self) -> bool {
        true
    }
}
