//! A module: the files of one directory combined, with OpenTofu's duplicate
//! checks and override-file merging (`NewModule`, `appendFile`,
//! `mergeFile`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hclsyntax::{Diagnostic, Diagnostics, SourceFile};

use crate::backend::Backend;
use crate::checks::Check;
use crate::cloud::CloudConfig;
use crate::config_file::ConfigFile;
use crate::encryption::EncryptionConfig;
use crate::file_names::dir_files;
use crate::import::Import;
use crate::module_call::ModuleCall;
use crate::moved::Moved;
use crate::named_values::{Local, Output, Variable};
use crate::parser::{display_path, load_files, LoadedFile};
use crate::provider::{Provider, ProviderMeta};
use crate::removed::Removed;
use crate::required_providers::RequiredProviders;
use crate::resource::{Resource, ResourceMode};
use crate::static_eval::StaticEvaluator;
use crate::test_file::{load_test_files, TestFile};
use crate::version_constraint::VersionConstraint;

/// One module's declarations, keyed by name. The declarations are boxed:
/// a B-tree node holds eleven values, so a map of one 2 KB resource took
/// 22 KB, and a tree of 200 small module calls 40 MB.
#[derive(Debug, Default, Clone)]
pub struct Module {
    /// The directory the module was loaded from, as given.
    pub source_dir: PathBuf,
    /// The sources of the files, for quoting in diagnostics.
    pub sources: Vec<Arc<SourceFile>>,
    pub core_version_constraints: Vec<VersionConstraint>,
    pub backend: Option<Backend>,
    pub cloud_config: Option<CloudConfig>,
    /// Keyed by local address: `name` or `name.alias`.
    pub provider_configs: BTreeMap<addrs::LocalProviderConfig, Box<Provider>>,
    pub provider_requirements: Option<RequiredProviders>,
    pub provider_metas: Vec<ProviderMeta>,
    pub encryption: Option<EncryptionConfig>,
    pub variables: BTreeMap<String, Box<Variable>>,
    pub locals: BTreeMap<String, Box<Local>>,
    pub outputs: BTreeMap<String, Box<Output>>,
    pub module_calls: BTreeMap<String, Box<ModuleCall>>,
    /// Every `resource`, `data` and `ephemeral` block (a check block's
    /// nested data block too), keyed by its address: the mode is part of
    /// the key, so a lookup cannot ask the wrong kind's map. Read through
    /// [`Module::resource`] and [`Module::resources_of`].
    pub resources: BTreeMap<addrs::Resource, Box<Resource>>,
    pub moved: Vec<Moved>,
    pub imports: Vec<Import>,
    pub removed: Vec<Removed>,
    pub checks: BTreeMap<String, Box<Check>>,
    /// The static evaluator of the call this module was loaded for, once
    /// [`Module::with_static_call`] has run.
    pub static_evaluator: Option<Arc<StaticEvaluator>>,
    /// The module's test files, keyed by path relative to its directory;
    /// `None` until they are loaded (only a root module's are, and only
    /// for the commands that use them).
    pub tests: Option<BTreeMap<String, TestFile>>,
}

/// Loads the module in `dir`: every primary file, then every override
/// file, combined. Only a directory that cannot be read gives no module.
pub fn load_module_dir(dir: &Path) -> (Option<Module>, Diagnostics) {
    let files = match dir_files(dir) {
        Ok(f) => f,
        Err(detail) => {
            return (
                None,
                vec![Diagnostic {
                    severity: hclsyntax::Severity::Error,
                    summary: "Failed to read module directory".into(),
                    detail,
                    subject: None,
                    context: None,
                }],
            )
        }
    };
    let named = |paths: &[PathBuf]| -> Vec<(PathBuf, String)> {
        paths
            .iter()
            .map(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                let shown = display_path(dir, &name.unwrap_or_default());
                (p.clone(), shown)
            })
            .collect()
    };
    let primary = load_files(&named(&files.primary), false);
    let overrides = load_files(&named(&files.overrides), true);
    let (mut module, diags) = Module::from_files(primary, overrides);
    module.source_dir = dir.to_path_buf();
    (
        Some(module),
        crate::language::finalize_module_load_diagnostics(diags),
    )
}

/// Loads the module in `dir` with its test files, from `dir` and from
/// `dir/test_dir` (`LoadConfigDirWithTests`).
pub fn load_module_dir_with_tests(dir: &Path, test_dir: &str) -> (Option<Module>, Diagnostics) {
    let (module, mut diags) = load_module_dir(dir);
    let Some(mut module) = module else {
        return (None, diags);
    };
    diags.extend(module.load_tests(test_dir));
    (Some(module), diags)
}

impl Module {
    /// The resource block at `addr` (of any mode): the one way to look a
    /// declaration up by address.
    pub fn resource(&self, addr: &addrs::Resource) -> Option<&Resource> {
        self.resources.get(addr).map(|r| &**r)
    }

    /// Every resource block, managed first, then data, then ephemeral,
    /// each in address order.
    pub fn all_resources(&self) -> impl Iterator<Item = &Resource> {
        self.resources.values().map(|r| &**r)
    }

    /// The resource blocks of one mode, in address order.
    pub fn resources_of(&self, mode: ResourceMode) -> impl Iterator<Item = &Resource> {
        self.all_resources().filter(move |r| r.mode == mode)
    }

    /// Loads the test files of the module's directory and of its
    /// `test_dir` subdirectory; their sources join the module's, for
    /// quoting in diagnostics.
    pub fn load_tests(&mut self, test_dir: &str) -> Diagnostics {
        let (loaded, diags) = load_test_files(&self.source_dir, test_dir);
        self.sources.extend(loaded.sources);
        self.tests = Some(loaded.files);
        diags
    }

    /// Whether a loaded test file has a run block calling a module of its
    /// own: such modules are installed with the module tree, so `init`
    /// must walk it even when the module itself calls no module.
    pub fn has_test_run_modules(&self) -> bool {
        self.tests
            .iter()
            .flat_map(|t| t.values())
            .any(|f| f.runs.iter().any(|r| r.module.is_some()))
    }

    /// Combines decoded files: primaries appended in order, then overrides
    /// merged in order.
    pub fn from_files(
        primary: Vec<LoadedFile>,
        overrides: Vec<LoadedFile>,
    ) -> (Module, Diagnostics) {
        let mut module = Module::default();
        let mut diags = Diagnostics::new();
        let mut primary_configs = Vec::new();
        for f in primary {
            diags.extend(f.diagnostics);
            module.sources.push(f.source);
            primary_configs.push(f.config);
        }
        let mut override_configs = Vec::new();
        for f in overrides {
            diags.extend(f.diagnostics);
            module.sources.push(f.source);
            override_configs.push(f.config);
        }

        // required_providers first, so resources see provider local names.
        for file in &mut primary_configs {
            for r in file.required_providers.drain(..) {
                match &module.provider_requirements {
                    Some(existing) => diags.push(Diagnostic::error(
                        "Duplicate required providers configuration",
                        format!(
                            "A module may have only one required providers configuration. The required providers were previously configured at {}.",
                            existing.decl_range
                        ),
                        r.decl_range.clone(),
                    )),
                    None => module.provider_requirements = Some(r),
                }
            }
        }
        for file in &mut override_configs {
            for r in file.required_providers.drain(..) {
                match &mut module.provider_requirements {
                    Some(existing) => existing.override_with(r),
                    None => module.provider_requirements = Some(r),
                }
            }
        }

        for file in primary_configs {
            diags.extend(module.append_file(file));
        }
        for file in override_configs {
            diags.extend(module.merge_file(file));
        }
        // Sources and versions that are plain constants are decoded now;
        // those that use variables, locals or functions wait for the
        // static evaluator.
        for call in module.module_calls.values_mut() {
            let constant = |e: &Option<hclsyntax::Expr>| {
                e.as_ref().is_none_or(crate::decode_value::is_constant_expr)
            };
            let version = call.version_attr.as_ref().map(|a| a.expr.clone());
            if constant(&call.source) && constant(&version) {
                diags.extend(call.decode_constant_static_fields());
            }
        }
        (module, diags)
    }

    /// `appendFile`: a primary file's declarations added, each checked
    /// against what earlier files declared.
    fn append_file(&mut self, mut file: ConfigFile) -> Diagnostics {
        // Taken first: the calls below move the file's other fields.
        let resources: Vec<Resource> = file.take_resources().collect();
        let mut diags = Diagnostics::new();
        self.core_version_constraints
            .extend(file.core_version_constraints);
        self.append_backends(file.backends, file.cloud_configs, &mut diags);
        self.append_provider_configs(file.provider_configs, &mut diags);
        self.append_provider_metas(file.provider_metas, &mut diags);
        self.append_encryptions(file.encryptions, &mut diags);
        self.append_variables(file.variables, &mut diags);
        self.append_locals(file.locals, &mut diags);
        self.append_outputs(file.outputs, &mut diags);
        self.append_module_calls(file.module_calls, &mut diags);
        self.append_resources(resources, &mut diags);
        self.append_checks(file.checks, &mut diags);
        self.moved.extend(file.moved);
        self.append_imports(file.imports, &mut diags);
        self.removed.extend(file.removed);
        diags
    }

    /// One backend or cloud block per module, and not both.
    fn append_backends(
        &mut self,
        backends: Vec<Backend>,
        cloud_configs: Vec<CloudConfig>,
        diags: &mut Diagnostics,
    ) {
        for b in backends {
            match &self.backend {
                Some(existing) => diags.push(Diagnostic::error(
                    "Duplicate backend configuration",
                    format!(
                        "A module may have only one backend configuration. The backend was previously configured at {}.",
                        existing.decl_range
                    ),
                    b.decl_range.clone(),
                )),
                None => self.backend = Some(b),
            }
        }
        for c in cloud_configs {
            match &self.cloud_config {
                Some(existing) => diags.push(Diagnostic::error(
                    "Duplicate cloud configurations",
                    format!(
                        "A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at {}.",
                        existing.decl_range
                    ),
                    c.decl_range.clone(),
                )),
                None => self.cloud_config = Some(c),
            }
        }
        if let (Some(b), Some(c)) = (&self.backend, &self.cloud_config) {
            diags.push(Diagnostic::error(
                "Both a backend and a cloud configuration are present",
                format!(
                    "A module may declare either one 'cloud' block configuring a cloud backend OR one 'backend' block configuring a state backend. A cloud backend is configured at {}; a backend is configured at {}. Remove the backend block to configure a cloud backend.",
                    c.decl_range, b.decl_range
                ),
                b.decl_range.clone(),
            ));
        }
    }

    /// One configuration per provider and alias.
    fn append_provider_configs(
        &mut self,
        provider_configs: Vec<Provider>,
        diags: &mut Diagnostics,
    ) {
        for pc in provider_configs {
            let key = pc.addr();
            if let Some(existing) = self.provider_configs.get(&key) {
                let detail = match &existing.alias {
                    None => format!(
                        "A default (non-aliased) provider configuration for \"{}\" was already given at {}. If multiple configurations are required, set the \"alias\" argument for alternative configurations.",
                        existing.name, existing.decl_range
                    ),
                    Some(alias) => format!(
                        "A provider configuration for \"{}\" with alias \"{}\" was already given at {}. Each configuration for the same provider must have a distinct alias.",
                        existing.name, alias, existing.decl_range
                    ),
                };
                diags.push(Diagnostic::error(
                    "Duplicate provider configuration",
                    detail,
                    pc.decl_range.clone(),
                ));
                continue;
            }
            self.provider_configs.insert(key, Box::new(pc));
        }
    }

    /// One `provider_meta` block per provider.
    fn append_provider_metas(
        &mut self,
        provider_metas: Vec<ProviderMeta>,
        diags: &mut Diagnostics,
    ) {
        for pm in provider_metas {
            if let Some(existing) = self
                .provider_metas
                .iter()
                .find(|e| e.provider == pm.provider)
            {
                diags.push(Diagnostic::error(
                    "Duplicate provider_meta block",
                    format!(
                        "A provider_meta block for provider \"{}\" was already declared at {}. Providers may only have one provider_meta block per module.",
                        existing.provider, existing.decl_range
                    ),
                    pm.decl_range.clone(),
                ));
            }
            self.provider_metas.push(pm);
        }
    }

    /// One encryption block per module.
    fn append_encryptions(&mut self, encryptions: Vec<EncryptionConfig>, diags: &mut Diagnostics) {
        for e in encryptions {
            match &self.encryption {
                Some(existing) => diags.push(Diagnostic::error(
                    "Duplicate encryption configuration",
                    format!(
                        "A module may have only one encryption configuration. Encryption was previously configured at {}.",
                        existing.decl_range
                    ),
                    e.decl_range.clone(),
                )),
                None => self.encryption = Some(e),
            }
        }
    }

    /// Variable names unique in the module.
    fn append_variables(&mut self, variables: Vec<Variable>, diags: &mut Diagnostics) {
        for v in variables {
            if let Some(existing) = self.variables.get(&v.name) {
                diags.push(Diagnostic::error(
                    "Duplicate variable declaration",
                    format!(
                        "A variable named \"{}\" was already declared at {}. Variable names must be unique within a module.",
                        existing.name, existing.decl_range
                    ),
                    v.decl_range.clone(),
                ));
            }
            self.variables.insert(v.name.clone(), Box::new(v));
        }
    }

    /// Local value names unique in the module.
    fn append_locals(&mut self, locals: Vec<Local>, diags: &mut Diagnostics) {
        for l in locals {
            if let Some(existing) = self.locals.get(&l.name) {
                diags.push(Diagnostic::error(
                    "Duplicate local value definition",
                    format!(
                        "A local value named \"{}\" was already defined at {}. Local value names must be unique within a module.",
                        existing.name, existing.decl_range
                    ),
                    l.decl_range.clone(),
                ));
            }
            self.locals.insert(l.name.clone(), Box::new(l));
        }
    }

    /// Output names unique in the module.
    fn append_outputs(&mut self, outputs: Vec<Output>, diags: &mut Diagnostics) {
        for o in outputs {
            if let Some(existing) = self.outputs.get(&o.name) {
                diags.push(Diagnostic::error(
                    "Duplicate output definition",
                    format!(
                        "An output named \"{}\" was already defined at {}. Output names must be unique within a module.",
                        existing.name, existing.decl_range
                    ),
                    o.decl_range.clone(),
                ));
            }
            self.outputs.insert(o.name.clone(), Box::new(o));
        }
    }

    /// Module call names unique in the module.
    fn append_module_calls(&mut self, module_calls: Vec<ModuleCall>, diags: &mut Diagnostics) {
        for mc in module_calls {
            if let Some(existing) = self.module_calls.get(&mc.name) {
                diags.push(Diagnostic::error(
                    "Duplicate module call",
                    format!(
                        "A module call named \"{}\" was already defined at {}. Module calls must have unique names within a module.",
                        existing.name, existing.decl_range
                    ),
                    mc.decl_range.clone(),
                ));
            }
            self.module_calls.insert(mc.name.clone(), Box::new(mc));
        }
    }

    /// Resource addresses unique in the module.
    fn append_resources(&mut self, resources: Vec<Resource>, diags: &mut Diagnostics) {
        for r in resources {
            let addr = r.addr();
            if let Some(existing) = self.resources.get(&addr) {
                diags.push(duplicate_resource(existing, &r, ""));
                continue;
            }
            self.resources.insert(addr, Box::new(r));
        }
    }

    /// Check names unique, and their data blocks' addresses unique among
    /// the resources.
    fn append_checks(&mut self, checks: Vec<Check>, diags: &mut Diagnostics) {
        for c in checks {
            if let Some(data) = &c.data_resource {
                if let Some(existing) = self.resources.get(&data.addr()) {
                    diags.push(duplicate_resource(
                        existing,
                        data,
                        ", including within check blocks",
                    ));
                    continue;
                }
                self.resources.insert(data.addr(), Box::new(data.clone()));
            }
            if let Some(existing) = self.checks.get(&c.name) {
                diags.push(Diagnostic::error(
                    format!("Duplicate check \"{}\" configuration", existing.name),
                    format!(
                        "A check block named \"{}\" was already declared at {}. Check blocks must be unique within each module.",
                        existing.name, existing.decl_range
                    ),
                    c.decl_range.clone(),
                ));
                continue;
            }
            self.checks.insert(c.name.clone(), Box::new(c));
        }
    }

    /// One import block per resource.
    fn append_imports(&mut self, imports: Vec<Import>, diags: &mut Diagnostics) {
        for i in imports {
            if let Some(to) = i.resolved_to.as_ref().map(|r| r.display()) {
                if let Some(existing) = self.imports.iter().find(|mi| {
                    mi.resolved_to.as_ref().map(|r| r.display()).as_deref() == Some(to.as_str())
                }) {
                    diags.push(Diagnostic::error(
                        format!("Duplicate import configuration for \"{to}\""),
                        format!(
                            "An import block for the resource \"{to}\" was already declared at {}. A resource can have only one import block.",
                            existing.decl_range
                        ),
                        i.decl_range.clone(),
                    ));
                    continue;
                }
            }
            self.imports.push(i);
        }
    }

    /// `mergeFile`: an override file's declarations merged into those of
    /// the primary files, which must exist.
    fn merge_file(&mut self, mut file: ConfigFile) -> Diagnostics {
        // Taken first: the calls below move the file's other fields.
        let resources: Vec<Resource> = file.take_resources().collect();
        let mut diags = Diagnostics::new();
        self.merge_backends(file.backends, file.cloud_configs, &mut diags);
        self.merge_provider_configs(file.provider_configs, &mut diags);
        self.merge_encryptions(file.encryptions, &mut diags);
        self.merge_variables(file.variables, &mut diags);
        self.merge_locals(file.locals, &mut diags);
        self.merge_outputs(file.outputs, &mut diags);
        self.merge_module_calls(file.module_calls, &mut diags);
        self.merge_resources(resources, &mut diags);
        refuse_overrides(file.moved, file.imports, file.removed, &mut diags);
        diags
    }

    /// A backend replaces the cloud block and the other way round; one of
    /// each per override file.
    fn merge_backends(
        &mut self,
        backends: Vec<Backend>,
        cloud_configs: Vec<CloudConfig>,
        diags: &mut Diagnostics,
    ) {
        let mut backends = backends.into_iter();
        if let Some(first) = backends.next() {
            if let Some(second) = backends.next() {
                diags.push(Diagnostic::error(
                    "Duplicate backend configuration",
                    format!(
                        "Each override file may have only one backend configuration. A backend was previously configured at {}.",
                        first.decl_range
                    ),
                    second.decl_range.clone(),
                ));
            } else {
                // A backend replaces any cloud block, and the other way round.
                self.cloud_config = None;
                self.backend = Some(first);
            }
        }
        let mut clouds = cloud_configs.into_iter();
        if let Some(first) = clouds.next() {
            if let Some(second) = clouds.next() {
                diags.push(Diagnostic::error(
                    "Duplicate cloud configurations",
                    format!(
                        "A module may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at {}.",
                        first.decl_range
                    ),
                    second.decl_range.clone(),
                ));
            } else {
                self.backend = None;
                self.cloud_config = Some(first);
            }
        }
    }

    /// Provider configurations merged; an aliased one must exist.
    fn merge_provider_configs(&mut self, provider_configs: Vec<Provider>, diags: &mut Diagnostics) {
        for pc in provider_configs {
            let key = pc.addr();
            match self.provider_configs.get_mut(&key) {
                Some(existing) => diags.extend(existing.merge(&pc)),
                // An absent default configuration is an empty one, which
                // the override may fill in.
                None if pc.alias.is_none() => {
                    self.provider_configs.insert(key, Box::new(pc));
                }
                None => diags.push(Diagnostic::error(
                    "Missing base provider configuration for override",
                    format!(
                        "There is no {} provider configuration with the alias \"{}\". An override file can only override an aliased provider configuration that was already defined in a primary configuration file.",
                        pc.name,
                        pc.alias.as_deref().unwrap_or_default()
                    ),
                    pc.decl_range.clone(),
                )),
            }
        }
    }

    /// One encryption block per override file, merged.
    fn merge_encryptions(&mut self, encryptions: Vec<EncryptionConfig>, diags: &mut Diagnostics) {
        let mut encryptions = encryptions.into_iter();
        if let Some(first) = encryptions.next() {
            if let Some(second) = encryptions.next() {
                diags.push(Diagnostic::error(
                    "Duplicate encryption configuration",
                    format!(
                        "Each override file may have only one encryption configuration. Encryption was previously configured at {}.",
                        first.decl_range
                    ),
                    second.decl_range.clone(),
                ));
            } else {
                match &mut self.encryption {
                    Some(existing) => existing.merge(first),
                    None => self.encryption = Some(first),
                }
            }
        }
    }

    /// Variables merged into declared ones.
    fn merge_variables(&mut self, variables: Vec<Variable>, diags: &mut Diagnostics) {
        for v in variables {
            match self.variables.get_mut(&v.name) {
                Some(existing) => diags.extend(existing.merge(&v)),
                None => diags.push(Diagnostic::error(
                    "Missing base variable declaration to override",
                    format!(
                        "There is no variable named \"{}\". An override file can only override a variable that was already declared in a primary configuration file.",
                        v.name
                    ),
                    v.decl_range.clone(),
                )),
            }
        }
    }

    /// Local values merged into defined ones.
    fn merge_locals(&mut self, locals: Vec<Local>, diags: &mut Diagnostics) {
        for l in locals {
            match self.locals.get_mut(&l.name) {
                Some(existing) => diags.extend(existing.merge(&l)),
                None => diags.push(Diagnostic::error(
                    "Missing base local value definition to override",
                    format!(
                        "There is no local value named \"{}\". An override file can only override a local value that was already defined in a primary configuration file.",
                        l.name
                    ),
                    l.decl_range.clone(),
                )),
            }
        }
    }

    /// Outputs merged into defined ones.
    fn merge_outputs(&mut self, outputs: Vec<Output>, diags: &mut Diagnostics) {
        for o in outputs {
            match self.outputs.get_mut(&o.name) {
                Some(existing) => diags.extend(existing.merge(&o)),
                None => diags.push(Diagnostic::error(
                    "Missing base output definition to override",
                    format!(
                        "There is no output named \"{}\". An override file can only override an output that was already defined in a primary configuration file.",
                        o.name
                    ),
                    o.decl_range.clone(),
                )),
            }
        }
    }

    /// Module calls merged into defined ones.
    fn merge_module_calls(&mut self, module_calls: Vec<ModuleCall>, diags: &mut Diagnostics) {
        for mc in module_calls {
            match self.module_calls.get_mut(&mc.name) {
                Some(existing) => diags.extend(existing.merge(&mc)),
                None => diags.push(Diagnostic::error(
                    "Missing module call to override",
                    format!(
                        "There is no module call named \"{}\". An override file can only override a module call that was defined in a primary configuration file.",
                        mc.name
                    ),
                    mc.decl_range.clone(),
                )),
            }
        }
    }

    /// Resources merged into declared ones.
    fn merge_resources(&mut self, resources: Vec<Resource>, diags: &mut Diagnostics) {
        for r in resources {
            match self.resources.get_mut(&r.addr()) {
                Some(existing) => diags.extend(existing.merge(&r)),
                None => diags.push(missing_resource_to_override(&r)),
            }
        }
    }
}

/// Blocks an override file cannot hold: moved, import and removed.
fn refuse_overrides(
    moved: Vec<Moved>,
    imports: Vec<Import>,
    removed: Vec<Removed>,
    diags: &mut Diagnostics,
) {
    for m in moved {
        diags.push(Diagnostic::error(
            "Cannot override 'moved' blocks",
            "Records of moved objects can appear only in normal files, not in override files.",
            m.decl_range.clone(),
        ));
    }
    for i in imports {
        diags.push(Diagnostic::error(
            "Cannot override 'import' blocks",
            "Import blocks can appear only in normal files, not in override files.",
            i.decl_range.clone(),
        ));
    }
    for r in removed {
        diags.push(Diagnostic::error(
            "Cannot override 'Removed' blocks",
            "Removed blocks can appear only in normal files, not in override files.",
            r.decl_range.clone(),
        ));
    }
}

/// `Duplicate resource/data/ephemeral resource` (appendFile): `scope` is
/// added to the detail's last sentence for a check block's data block.
fn duplicate_resource(existing: &Resource, dup: &Resource, scope: &str) -> Diagnostic {
    let (block, noun) = match existing.mode {
        ResourceMode::Managed => ("resource", "resource"),
        ResourceMode::Data => ("data", "data resource"),
        ResourceMode::Ephemeral => ("ephemeral resource", "ephemeral resource"),
    };
    Diagnostic::error(
        format!("Duplicate {block} \"{}\" configuration", existing.type_name),
        format!(
            "A {} {noun} named \"{}\" was already declared at {}. Resource names must be unique per type in each module{scope}.",
            existing.type_name, existing.name, existing.decl_range
        ),
        dup.decl_range.clone(),
    )
}

/// `Missing resource to override` and its data and ephemeral forms
/// (mergeFile).
fn missing_resource_to_override(r: &Resource) -> Diagnostic {
    let (noun, article) = match r.mode {
        ResourceMode::Managed => ("resource", "a resource"),
        ResourceMode::Data => ("data resource", "a data"),
        ResourceMode::Ephemeral => ("ephemeral resource", "an ephemeral"),
    };
    Diagnostic::error(
        format!("Missing {noun} to override"),
        format!(
            "There is no {} {noun} named \"{}\". An override file can only override {article} block defined in a primary configuration file.",
            r.type_name, r.name
        ),
        r.decl_range.clone(),
    )
}
