//! The installing module walker (`ModuleInstaller.moduleInstallWalker`):
//! [`build_config`](configs::config_build::build_config) hands it each
//! module call; it installs the call with the [`ModuleInstaller`] (or finds
//! it already installed) and loads the module from where it landed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use configs::config_build::{LoadedModule, ModuleRequest, ModuleWalker};
use configs::module::load_module_dir;
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
}

impl<'a> InstallWalker<'a> {
    pub fn new(installer: &'a ModuleInstaller, work_dir: &Path) -> InstallWalker<'a> {
        InstallWalker {
            installer,
            work_dir: work_dir.to_path_buf(),
            packages: Mutex::new(HashMap::new()),
        }
    }

    fn packages(&self) -> std::sync::MutexGuard<'_, HashMap<String, PackageContext>> {
        self.packages.lock().expect("package map lock poisoned")
    }
}

impl ModuleWalker for InstallWalker<'_> {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        // An undecodable source was reported with the calling module.
        let Some(source) = req.source_addr else {
            return (None, Diagnostics::new());
        };
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
        let (module, more) = load_module_dir(&dir);
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
            .and_then(|v| Version::parse(&v.to_string()));
        (
            Some(LoadedModule {
                module,
                dir,
                version,
            }),
            diags,
        )
    }

    /// OpenTofu installs one call at a time, and the progress lines
    /// (`Downloading ...`, `- key in dir`) come out in walk order; the
    /// package fetcher still shares a package between calls.
    fn parallel(&self) -> bool {
        false
    }
}
