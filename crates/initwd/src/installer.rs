//! The per-call install step of `internal/initwd/module_install.go`: the
//! configuration walker (in `configs`) calls [`ModuleInstaller::install`]
//! once per module call, parent before children, and loads the module
//! from the directory it gets back. This type keeps the manifest, decides
//! whether a call is already installed, and otherwise resolves and fetches
//! it: local paths inside the caller's package, registry modules through
//! the registry client, other remote packages through the
//! [`PackageFetcher`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use addrs::{ModuleSource, DEFAULT_MODULE_REGISTRY_HOST};
use hclsyntax::{Diagnostic, Diagnostics, Range, Severity};

use crate::atomic_file::remove_stale_temp_files;
use crate::cancel::Cancel;
use crate::fetch::expand_subdir_glob;
use crate::fetcher::{remove_stale_staging, PackageFetcher, RegistryPackage};
use crate::goversion::{Constraints, Version};
use crate::manifest::{Manifest, Record, MANIFEST_FILENAME};
use crate::pathutil::{eval_symlinks, go_io_error_text, join, under};
use crate::registry::{select_version, ModuleVersions, RegistryClient, RegistryError};

/// UI callbacks (`initwd.ModuleInstallHooks`). Called from whichever
/// thread installs the module.
pub trait InstallHooks: Send + Sync {
    /// A remote or registry module is about to be fetched.
    fn download(&self, _key: &str, _package: &str, _version: Option<&Version>) {}
    /// A module was installed (or, for local modules, located) at `dir`.
    fn install(&self, _key: &str, _version: Option<&Version>, _dir: &str) {}
}

/// Hooks that do nothing.
pub struct NoHooks;
impl InstallHooks for NoHooks {}

/// `Downloading <pkg> <version> for <key>...` (the version omitted for
/// non-registry modules).
pub fn download_line(key: &str, package: &str, version: Option<&Version>) -> String {
    match version {
        Some(v) => format!("Downloading {package} {v} for {key}..."),
        None => format!("Downloading {package} for {key}..."),
    }
}

/// `- <key> in <dir>`.
pub fn install_line(key: &str, dir: &str) -> String {
    format!("- {key} in {dir}")
}

/// The module package a module belongs to, and the local steps taken
/// inside it from the call that installed the package: what the
/// "escapes module package" check needs. The root module's package has
/// none (`None` in requests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageContext {
    /// The package address (registry address without subdir, or the
    /// remote package address).
    pub package_addr: String,
    /// The subdirectory of the package the defining call selected.
    pub start_subdir: String,
    /// `(module path, local source)` for each local call below the
    /// defining call, outermost first.
    pub local_steps: Vec<(String, String)>,
}

impl PackageContext {
    /// The package a non-local source starts (`splitAddrSubdir`).
    pub fn defined_by(source: &ModuleSource) -> Option<PackageContext> {
        let (package_addr, start_subdir) = match source {
            ModuleSource::Local(_) => return None,
            ModuleSource::Registry { package, subdir } => (package.to_string(), subdir.clone()),
            ModuleSource::Remote { package, subdir } => (package.clone(), subdir.clone()),
        };
        Some(PackageContext {
            package_addr,
            start_subdir,
            local_steps: Vec::new(),
        })
    }
}

/// One module call to install.
#[derive(Debug, Clone, Copy)]
pub struct InstallRequest<'a> {
    /// The call's module path (`["net", "sub"]` for `module.net.module.sub`).
    pub path: &'a addrs::Module,
    /// The calling module's path: `path` without its last step for a
    /// module call, the root for the module of a test file's `run` block
    /// (installed at `test.<file>.<run>`).
    pub parent_path: &'a addrs::Module,
    pub source: &'a ModuleSource,
    /// The `version` argument as written, if any.
    pub version: Option<&'a str>,
    /// The package the calling module belongs to; `None` in the root
    /// module's package.
    pub parent_package: Option<&'a PackageContext>,
    /// The `module` block, for diagnostics.
    pub call_range: &'a Range,
}

/// Where an installed module is.
#[derive(Debug, Clone, PartialEq)]
pub struct InstalledModule {
    /// The manifest key.
    pub key: String,
    /// The module directory, relative to the working directory.
    pub dir: String,
    /// The registry version installed.
    pub version: Option<Version>,
    /// The package this module belongs to (pass it as `parent_package`
    /// for its own calls).
    pub package: Option<PackageContext>,
    /// True when the manifest already had it and nothing was fetched.
    pub already_installed: bool,
    /// Warnings to report alongside.
    pub warnings: Diagnostics,
}

/// Installer settings for one run.
#[derive(Debug, Clone)]
pub struct InstallerConfig {
    /// The directory relative paths are resolved against (OpenTofu's
    /// process working directory).
    pub work_dir: PathBuf,
    /// The root module directory as given (`.`), recorded for key `""`.
    pub root_dir: String,
    /// The modules directory, relative to `work_dir` (`.terraform/modules`).
    pub modules_dir: String,
    /// `-upgrade`: reinstall everything, ignoring the manifest.
    pub upgrade: bool,
    /// Set when the user interrupts the run: fetches and registry
    /// requests in flight are abandoned and later ones fail.
    pub cancel: Cancel,
}

impl InstallerConfig {
    /// `.` as root and `.terraform/modules` for modules, in `work_dir`.
    pub fn new(work_dir: impl Into<PathBuf>) -> InstallerConfig {
        InstallerConfig {
            work_dir: work_dir.into(),
            root_dir: ".".to_string(),
            modules_dir: ".terraform/modules".to_string(),
            upgrade: false,
            cancel: Cancel::new(),
        }
    }
}

/// Installs module calls and keeps the manifest for one run.
pub struct ModuleInstaller {
    cfg: InstallerConfig,
    manifest: Mutex<Manifest>,
    /// The keys the manifest file on disk records, which a run killed
    /// now would leave for the next one to trust.
    on_disk: Mutex<BTreeSet<String>>,
    /// Shared with other installers of the run (other roots).
    fetcher: Arc<PackageFetcher>,
    /// Shared with the threads registry requests run on.
    registry: Option<Arc<RegistryClient>>,
    hooks: Arc<dyn InstallHooks>,
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

fn at(range: &Range) -> String {
    format!("{}:{}", range.filename, range.start.line)
}

impl ModuleInstaller {
    /// Reads the existing manifest (creating the modules directory) and
    /// records the root module.
    pub fn new(
        cfg: InstallerConfig,
        fetcher: Arc<PackageFetcher>,
        registry: Option<RegistryClient>,
        hooks: Arc<dyn InstallHooks>,
    ) -> Result<ModuleInstaller, Diagnostics> {
        let mods = under(&cfg.work_dir, &cfg.modules_dir);
        let read_err = |e: String| {
            sourceless(
                "Failed to read modules manifest file",
                format!("Error reading manifest for {}: {e}.", cfg.modules_dir),
            )
        };
        std::fs::create_dir_all(&mods).map_err(|e| vec![read_err(go_io_error_text(&e))])?;
        let mut manifest = Manifest::read_dir(&mods).map_err(|e| vec![read_err(e.to_string())])?;
        // Under init's lock: what a killed run left goes.
        remove_stale_staging(&mods);
        remove_stale_temp_files(&mods.join(MANIFEST_FILENAME));
        let on_disk = manifest.records.keys().cloned().collect();
        manifest.insert(Record::root(cfg.root_dir.clone()));
        Ok(ModuleInstaller {
            cfg,
            manifest: Mutex::new(manifest),
            on_disk: Mutex::new(on_disk),
            fetcher,
            registry: registry.map(Arc::new),
            hooks,
        })
    }

    /// The manifest as it stands.
    pub fn manifest(&self) -> Manifest {
        self.lock_manifest().clone()
    }

    /// The package fetcher (for its statistics).
    pub fn fetcher(&self) -> &PackageFetcher {
        &self.fetcher
    }

    fn lock_manifest(&self) -> std::sync::MutexGuard<'_, Manifest> {
        self.manifest.lock().expect("manifest lock poisoned")
    }

    /// Writes the manifest (once, after the walk), atomically.
    pub fn write_manifest(&self) -> Result<(), Diagnostics> {
        let manifest = self.lock_manifest();
        self.write_locked(&manifest)
    }

    fn write_locked(&self, manifest: &Manifest) -> Result<(), Diagnostics> {
        let mods = under(&self.cfg.work_dir, &self.cfg.modules_dir);
        manifest.write_dir(&mods).map_err(|e| {
            vec![sourceless(
                "Failed to update module manifest",
                format!(
                    "Unable to write the module manifest file: {}",
                    go_io_error_text(&e)
                ),
            )]
        })?;
        *self.on_disk.lock().expect("manifest keys lock poisoned") =
            manifest.records.keys().cloned().collect();
        Ok(())
    }

    /// Rewrites the manifest file when it still records a module that
    /// `manifest` has dropped, before that module's directory is removed
    /// or replaced. (OpenTofu writes the manifest once, at the end: a run
    /// killed after replacing a directory left the old record naming the
    /// new contents, trusted by the next run with the old source.)
    fn unrecord_on_disk(&self, manifest: &Manifest) -> Result<(), Diagnostics> {
        let stale = self
            .on_disk
            .lock()
            .expect("manifest keys lock poisoned")
            .iter()
            .any(|k| !manifest.records.contains_key(k));
        if stale {
            self.write_locked(manifest)?;
        }
        Ok(())
    }

    fn abs(&self, p: &str) -> PathBuf {
        under(&self.cfg.work_dir, p)
    }

    /// Installs one module call. `Err` with an empty list means the call
    /// was skipped because its name is unusable (the configuration loader
    /// reports that itself).
    pub fn install(&self, req: &InstallRequest<'_>) -> Result<InstalledModule, Diagnostics> {
        let Some(name) = req.path.0.last() else {
            return Err(Vec::new());
        };
        if name.is_empty() || !hclsyntax::valid_identifier(name) {
            return Err(Vec::new());
        }
        let key = req.path.0.join(".");
        let inst_path = join(&[&self.cfg.modules_dir, &key]);
        let constraints = match req.version {
            None => Constraints::none(),
            Some(v) => Constraints::parse(v).map_err(|_| {
                vec![Diagnostic::error(
                    "Invalid version constraint",
                    "This string does not use correct version constraint syntax.",
                    req.call_range.clone(),
                )]
            })?,
        };
        let source_str = req.source.to_string();

        {
            let mut manifest = self.lock_manifest();
            let replace = self.cfg.upgrade
                || match manifest.get(&key) {
                    None => true,
                    Some(r) if r.source != source_str => true,
                    Some(r) => r.version.as_ref().is_some_and(|v| !constraints.check(v)),
                };
            let recorded = manifest.records.len();
            if replace {
                manifest.remove_with_descendants(&key);
            } else if manifest
                .get(&key)
                .is_some_and(|r| !self.abs(&r.dir).is_dir())
            {
                // Recorded but its directory is gone: what is installed
                // there next may not be what the record says (a newer
                // registry version), so the record goes too.
                manifest.records.remove(&key);
            }
            if manifest.records.len() != recorded {
                self.unrecord_on_disk(&manifest)?;
            }
            match manifest.get(&key) {
                None => {
                    if let Err(e) = std::fs::remove_dir_all(self.abs(&inst_path)) {
                        if e.kind() != std::io::ErrorKind::NotFound {
                            return Err(vec![sourceless(
                                "Failed to remove local module cache",
                                format!(
                                    "OpenTofu tried to remove {inst_path} in order to reinstall this module, but encountered an error: {}",
                                    go_io_error_text(&e)
                                ),
                            )]);
                        }
                    }
                }
                Some(r) if self.abs(&r.dir).is_dir() => {
                    let package = self.child_package(req);
                    return Ok(InstalledModule {
                        key,
                        dir: r.dir.clone(),
                        version: r.version.clone(),
                        package,
                        already_installed: true,
                        warnings: Vec::new(),
                    });
                }
                Some(_) => unreachable!("a record whose directory is gone was dropped above"),
            }
        }

        match req.source {
            ModuleSource::Local(path) => self.install_local(req, key, path, &constraints),
            ModuleSource::Registry { package, subdir } => {
                self.install_registry(req, key, &inst_path, package, subdir, &constraints)
            }
            ModuleSource::Remote { package, subdir } => {
                self.install_remote(req, key, &inst_path, package, subdir)
            }
        }
    }

    fn child_package(&self, req: &InstallRequest<'_>) -> Option<PackageContext> {
        match req.source {
            ModuleSource::Local(path) => req.parent_package.map(|p| {
                let mut p = p.clone();
                p.local_steps.push((req.path.to_string(), path.clone()));
                p
            }),
            other => PackageContext::defined_by(other),
        }
    }

    fn record(&self, record: Record) {
        self.lock_manifest().insert(record);
    }

    fn install_local(
        &self,
        req: &InstallRequest<'_>,
        key: String,
        path: &str,
        constraints: &Constraints,
    ) -> Result<InstalledModule, Diagnostics> {
        let mut diags = Vec::new();
        let parent_key = req.parent_path.0.join(".");
        let parent_dir = self
            .lock_manifest()
            .get(&parent_key)
            .map(|r| r.dir.clone())
            .unwrap_or_else(|| panic!("missing manifest record for parent module {parent_key}"));
        let name = req.path.0.last().map(String::as_str).unwrap_or("");
        if !constraints.is_empty() {
            diags.push(Diagnostic::error(
                "Invalid version constraint",
                format!(
                    "Cannot apply a version constraint to module {} (at {}) because it has a relative local path.",
                    addrs::go_quote(name),
                    at(req.call_range)
                ),
                req.call_range.clone(),
            ));
        }
        let joined = join(&[&parent_dir, path]);
        let new_dir = match eval_symlinks(&self.cfg.work_dir, &joined) {
            Ok(d) => d,
            Err(e) => {
                diags.push(sourceless(
                    "Unreadable module directory",
                    format!("Unable to evaluate directory symlink: {e}"),
                ));
                String::new()
            }
        };
        if new_dir.is_empty() || !self.abs(&new_dir).is_dir() {
            diags.push(sourceless(
                "Unreadable module directory",
                format!(
                    "The directory {new_dir} could not be read for module {} at {}.",
                    addrs::go_quote(name),
                    at(req.call_range)
                ),
            ));
        }
        if diags.iter().any(Diagnostic::is_error) {
            if let Some(escape) = local_escape_diagnostic(req) {
                diags.retain(|d| !d.is_error());
                diags.push(escape);
            }
        }
        self.record(Record {
            key: key.clone(),
            source: req.source.to_string(),
            version: None,
            dir: new_dir.clone(),
        });
        self.hooks.install(&key, None, &new_dir);
        if diags.iter().any(Diagnostic::is_error) {
            return Err(diags);
        }
        Ok(InstalledModule {
            key,
            dir: new_dir,
            version: None,
            package: self.child_package(req),
            already_installed: false,
            warnings: diags,
        })
    }

    fn install_remote(
        &self,
        req: &InstallRequest<'_>,
        key: String,
        inst_path: &str,
        package: &str,
        subdir: &str,
    ) -> Result<InstalledModule, Diagnostics> {
        let name = req.path.0.last().map(String::as_str).unwrap_or("");
        self.hooks.download(&key, package, None);
        if req.version.is_some() {
            return Err(vec![Diagnostic::error(
                "Invalid version constraint",
                format!(
                    "Cannot apply a version constraint to module {} (at {}) because it doesn't come from a module registry.",
                    addrs::go_quote(name),
                    at(req.call_range)
                ),
                req.call_range.clone(),
            )]);
        }
        let abs_inst = self.abs(inst_path);
        if let Err(e) = self.fetcher.fetch_package_with(
            &abs_inst,
            package,
            self.cfg.upgrade,
            None,
            &self.cfg.cancel,
        ) {
            let _ = remove_any(&abs_inst);
            return Err(vec![Diagnostic::error(
                "Failed to download module",
                format!(
                    "Could not download module {} ({}) source code from {}: {e}",
                    addrs::go_quote(name),
                    at(req.call_range),
                    addrs::go_quote(package)
                ),
                req.call_range.clone(),
            )]);
        }
        let mod_dir = match expand_subdir_glob(&abs_inst, subdir) {
            Ok(found) => relative_under(inst_path, &abs_inst, &found),
            Err(e) => return Err(vec![sourceless("Failed to expand subdir globs", e)]),
        };
        self.check_module_dir(req, &mod_dir, inst_path, subdir, "the module path")?;
        self.record(Record {
            key: key.clone(),
            source: req.source.to_string(),
            version: None,
            dir: mod_dir.clone(),
        });
        self.hooks.install(&key, None, &mod_dir);
        Ok(InstalledModule {
            key,
            dir: mod_dir,
            version: None,
            package: self.child_package(req),
            already_installed: false,
            warnings: Vec::new(),
        })
    }

    /// What OpenTofu reports when the module directory cannot be loaded:
    /// a missing subdirectory is the user's mistake, anything else a bug.
    fn check_module_dir(
        &self,
        req: &InstallRequest<'_>,
        mod_dir: &str,
        inst_path: &str,
        subdir: &str,
        wording: &str,
    ) -> Result<(), Diagnostics> {
        if self.abs(mod_dir).is_dir() {
            return Ok(());
        }
        if !subdir.is_empty() {
            if let Some(missing) = first_missing_part(&self.abs(mod_dir)) {
                return Err(vec![Diagnostic::error(
                    "Module subdirectory not found",
                    format!(
                        "Cannot find directory {} in {wording} {}. The requested subdirectory was {}.",
                        addrs::go_quote(&missing),
                        addrs::go_quote(inst_path),
                        addrs::go_quote(subdir)
                    ),
                    req.call_range.clone(),
                )]);
            }
        }
        Err(vec![sourceless(
            "Unreadable module directory",
            format!(
                "The directory {mod_dir} could not be read. This is a bug in OpenTofu and should be reported."
            ),
        )])
    }

    /// `installRegistryModule`: a version chosen from the registry's list,
    /// its package location asked for, the package fetched, and the module
    /// recorded. Warnings about the list go with every later error.
    fn install_registry(
        &self,
        req: &InstallRequest<'_>,
        key: String,
        inst_path: &str,
        pkg: &addrs::ModuleRegistryPackage,
        subdir: &str,
        constraints: &Constraints,
    ) -> Result<InstalledModule, Diagnostics> {
        let Some(client) = &self.registry else {
            return Err(call_error(
                req,
                "Registry-style module sources not supported",
                "Only local module sources are supported in this context.".to_string(),
            ));
        };
        let versions = self.registry_versions(client, req, pkg)?;
        let (version, warnings) = choose_registry_version(req, pkg, &versions, constraints)?;
        let with_warnings = |mut d: Diagnostics| {
            let mut all = warnings.clone();
            all.append(&mut d);
            all
        };
        self.hooks.download(&key, &pkg.to_string(), Some(&version));
        let location = self
            .registry_location(client, req, pkg, &version)
            .map_err(with_warnings)?;
        let registry_package = RegistryPackage {
            module: pkg.to_string(),
            version: version.to_string(),
        };
        let mod_dir = self
            .fetch_registry_package(req, inst_path, &location, subdir, &registry_package)
            .map_err(with_warnings)?;
        self.record(Record {
            key: key.clone(),
            source: req.source.to_string(),
            version: Some(version.clone()),
            dir: mod_dir.clone(),
        });
        self.hooks.install(&key, Some(&version), &mod_dir);
        Ok(InstalledModule {
            key,
            dir: mod_dir,
            version: Some(version),
            package: self.child_package(req),
            already_installed: false,
            warnings,
        })
    }

    /// The versions the registry has of `pkg`.
    fn registry_versions(
        &self,
        client: &Arc<RegistryClient>,
        req: &InstallRequest<'_>,
        pkg: &addrs::ModuleRegistryPackage,
    ) -> Result<Arc<ModuleVersions>, Diagnostics> {
        let (name, range) = (call_name(req), req.call_range);
        let hostname = pkg.host.as_str();
        let versions = self.cancelable(client, |c, p| c.module_versions(p), pkg);
        versions.map_err(|e| match e {
            RegistryError::ModuleNotFound(_) => {
                let suggestion = if hostname == DEFAULT_MODULE_REGISTRY_HOST {
                    "\n\nIf you believe this module is missing from the registry, please submit a issue on the OpenTofu Registry https://github.com/opentofu/registry/issues/new/choose"
                } else {
                    ""
                };
                call_error(
                    req,
                    "Module not found",
                    format!(
                        "Module {} ({} from {}) cannot be found in the module registry at {hostname}.{suggestion}",
                        pkg.for_registry_protocol(),
                        addrs::go_quote(name),
                        at(range)
                    ),
                )
            }
            other => call_error(
                req,
                "Error accessing remote module registry",
                format!(
                    "Failed to retrieve available versions for module {} ({}) from {hostname}: {other}.",
                    addrs::go_quote(name),
                    at(range)
                ),
            ),
        })
    }

    /// The registry's download location of `pkg` at `version`, which must be
    /// a remote package address.
    fn registry_location(
        &self,
        client: &Arc<RegistryClient>,
        req: &InstallRequest<'_>,
        pkg: &addrs::ModuleRegistryPackage,
        version: &Version,
    ) -> Result<ModuleSource, Diagnostics> {
        let hostname = pkg.host.as_str();
        let addr = req.source.to_string();
        let at_version = version.to_string();
        let raw_location = self
            .cancelable(client, move |c, p| c.module_location(p, &at_version), pkg)
            .map_err(|e| {
                vec![sourceless(
                    "Error accessing remote module registry",
                    format!(
                        "Failed to retrieve a download URL for {addr} {version} from {hostname}: {e}"
                    ),
                )]
            })?;
        match addrs::parse_module_source(&raw_location) {
            Ok(src @ ModuleSource::Remote { .. }) => Ok(src),
            Ok(_) => Err(vec![sourceless(
                "Invalid package location from module registry",
                format!(
                    "Module registry {hostname} returned invalid source location {} for {addr} {version}: must be a direct remote package address.",
                    addrs::go_quote(&raw_location)
                ),
            )]),
            Err(e) => Err(vec![sourceless(
                "Invalid package location from module registry",
                format!(
                    "Module registry {hostname} returned invalid source location {} for {addr} {version}: {e}.",
                    addrs::go_quote(&raw_location)
                ),
            )]),
        }
    }

    /// Fetches the package at `location` into `inst_path` and finds the
    /// module's directory in it (the registry's subdirectory, which may be a
    /// glob, joined with the call's).
    fn fetch_registry_package(
        &self,
        req: &InstallRequest<'_>,
        inst_path: &str,
        location: &ModuleSource,
        subdir: &str,
        registry_package: &RegistryPackage,
    ) -> Result<String, Diagnostics> {
        let ModuleSource::Remote {
            package: dl_package,
            ..
        } = location
        else {
            unreachable!("checked to be a remote source by registry_location");
        };
        let abs_inst = self.abs(inst_path);
        if let Err(e) = self.fetcher.fetch_package_with(
            &abs_inst,
            dl_package,
            self.cfg.upgrade,
            Some(registry_package),
            &self.cfg.cancel,
        ) {
            let _ = remove_any(&abs_inst);
            return Err(call_error(
                req,
                "Failed to download module",
                format!(
                    "Could not download module {} ({}) source code from {}: {e}.",
                    addrs::go_quote(call_name(req)),
                    at(req.call_range),
                    addrs::go_quote(&location.to_string())
                ),
            ));
        }
        let final_subdir = location.from_registry(subdir).subdir().to_string();
        let mut mod_dir = join(&[inst_path, &final_subdir]);
        if !self.abs(&mod_dir).is_dir() && final_subdir.contains(['*', '?', '[']) {
            // A registry may name "the single top directory" as `*`.
            if let Ok(found) = expand_subdir_glob(&abs_inst, &final_subdir) {
                mod_dir = relative_under(inst_path, &abs_inst, &found);
            }
        }
        self.check_module_dir(req, &mod_dir, inst_path, &final_subdir, "module")?;
        Ok(mod_dir)
    }
}

/// The newest version of the registry's list that meets the constraints,
/// with warnings about version strings that did not parse (which an error
/// here carries too).
fn choose_registry_version(
    req: &InstallRequest<'_>,
    pkg: &addrs::ModuleRegistryPackage,
    versions: &ModuleVersions,
    constraints: &Constraints,
) -> Result<(Version, Diagnostics), Diagnostics> {
    let (name, range) = (call_name(req), req.call_range);
    let hostname = pkg.host.as_str();
    let addr = req.source.to_string();
    let Some(meta) = versions.modules.first() else {
        return Err(call_error(
            req,
            "Invalid response from remote module registry",
            format!(
                "The registry at {hostname} returned an invalid response when OpenTofu requested available versions for module {} ({}).",
                addrs::go_quote(name),
                at(range)
            ),
        ));
    };
    let sel = select_version(&meta.versions, constraints);
    let mut warnings: Diagnostics = sel
        .invalid
        .iter()
        .map(|raw| {
            Diagnostic::warning(
                "Invalid response from remote module registry",
                format!(
                    "The registry at {hostname} returned an invalid version string {} for module {} ({}), which OpenTofu ignored.",
                    addrs::go_quote(raw),
                    addrs::go_quote(name),
                    at(range)
                ),
                range.clone(),
            )
        })
        .collect();
    let Some(latest) = sel.latest else {
        warnings.extend(call_error(
            req,
            "Module has no versions",
            format!(
                "Module {} ({}) has no versions available on {hostname}.",
                addrs::go_quote(&addr),
                at(range)
            ),
        ));
        return Err(warnings);
    };
    let Some(version) = sel.latest_match else {
        warnings.extend(call_error(
            req,
            "Unresolvable module version constraint",
            format!(
                "There is no available version of module {} ({}) which matches the given version constraint. The newest available version is {latest}.",
                addrs::go_quote(&addr),
                at(range)
            ),
        ));
        return Err(warnings);
    };
    Ok((version, warnings))
}

/// The name of the module call a request is for.
fn call_name<'a>(req: &InstallRequest<'a>) -> &'a str {
    req.path.0.last().map(String::as_str).unwrap_or("")
}

/// An error about the module call a request is for.
fn call_error(req: &InstallRequest<'_>, summary: &str, detail: String) -> Diagnostics {
    vec![Diagnostic::error(summary, detail, req.call_range.clone())]
}

impl ModuleInstaller {
    /// A registry request on its own thread, abandoned when the run is
    /// cancelled (which then reads as the request's error).
    fn cancelable<T: Send + 'static>(
        &self,
        client: &Arc<RegistryClient>,
        request: impl FnOnce(&RegistryClient, &addrs::ModuleRegistryPackage) -> Result<T, RegistryError>
            + Send
            + 'static,
        pkg: &addrs::ModuleRegistryPackage,
    ) -> Result<T, RegistryError> {
        let client = client.clone();
        let pkg = pkg.clone();
        self.cfg
            .cancel
            .run(move || request(&client, &pkg))
            .unwrap_or_else(|c| Err(RegistryError::Other(c.to_string())))
    }
}

/// `found` (under `abs_base`) expressed under `rel_base` instead.
fn relative_under(rel_base: &str, abs_base: &Path, found: &Path) -> String {
    let rest = found.strip_prefix(abs_base).unwrap_or(Path::new(""));
    join(&[rel_base, &rest.to_string_lossy()])
}

fn remove_any(p: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(p),
        Ok(_) => std::fs::remove_file(p),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// `isSubDirNonExistent`: the first missing component of `dir` below its
/// nearest existing ancestor.
fn first_missing_part(dir: &Path) -> Option<String> {
    if dir.exists() {
        return None;
    }
    let mut missing = Vec::new();
    let mut current = dir.to_path_buf();
    loop {
        let parent = current.parent()?.to_path_buf();
        missing.push(current.file_name()?.to_string_lossy().into_owned());
        if parent.is_dir() {
            return missing.pop();
        }
        current = parent;
    }
}

/// `maybeImproveLocalInstallError`'s test: whether a local call (or one of
/// the local calls above it in the same package) uses `../` to leave the
/// module package its caller belongs to. The configuration walker calls
/// this too when loading a local module's directory fails, to replace its
/// errors with this one.
pub fn local_escape_diagnostic(req: &InstallRequest<'_>) -> Option<Diagnostic> {
    let ModuleSource::Local(rel) = req.source else {
        return None;
    };
    let pkg = req.parent_package?;
    let mut steps = pkg.local_steps.clone();
    steps.push((req.path.to_string(), rel.clone()));
    const PREFIX: &str = "*/";
    let mut current = addrs::clean_path(&format!("{PREFIX}{}", pkg.start_subdir));
    for (escapee, rel) in steps {
        let next = addrs::clean_path(&format!("{current}/{rel}"));
        if !next.starts_with(PREFIX) {
            let suggestion = if pkg.package_addr.starts_with('/') {
                "\n\nOpenTofu treats absolute filesystem paths as external modules which establish a new module package. To treat this directory as part of the same package as its caller, use a local path starting with either \"./\" or \"../\"."
            } else {
                ""
            };
            return Some(sourceless(
                "Local module path escapes module package",
                format!(
                    "The given source directory for {escapee} would be outside of its containing package {}. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.{suggestion}",
                    addrs::go_quote(&pkg.package_addr)
                ),
            ));
        }
        current = next;
    }
    None
}
