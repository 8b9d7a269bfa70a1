//! Building the module tree from a root module (`configs.BuildConfig`):
//! each module call is handed to a [`ModuleWalker`], which finds the
//! module (installed already, or installing it now) and loads it; the
//! walk then applies the call's static evaluation to the child and
//! descends into it.
//!
//! Calls are visited in lexical order of their names. The children of one
//! module may be loaded in parallel (when the walker allows it); their
//! diagnostics are still reported in call-name order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use addrs::ModuleSource;
use hclsyntax::{Diagnostic, Diagnostics, Range};
use rayon::prelude::*;

use crate::config::Config;
use crate::module::Module;
use crate::module_call::ModuleCall;
use crate::version_constraint::{Version, VersionConstraint};

/// Module calls nest at most this deep. OpenTofu has no limit (a module
/// that calls itself recurses until it runs out of memory); a limit this
/// high is never reached by a real configuration.
pub const MAX_MODULE_DEPTH: usize = 100;

/// One module call to find and load (`configs.ModuleRequest`).
#[derive(Debug, Clone, Copy)]
pub struct ModuleRequest<'a> {
    /// The call's name.
    pub name: &'a str,
    /// The call's module path (`["net", "sub"]` for `module.net.module.sub`).
    pub path: &'a addrs::Module,
    /// The statically decoded source address; `None` when it could not be
    /// decoded (the calling module's diagnostics say why).
    pub source_addr: Option<&'a ModuleSource>,
    /// The `source` expression, for diagnostics about the source.
    pub source_addr_range: Option<&'a Range>,
    /// The decoded `version` constraint, if any.
    pub version_constraint: Option<&'a VersionConstraint>,
    /// The calling module's path and directory.
    pub parent_path: &'a addrs::Module,
    pub parent_dir: &'a Path,
    /// The `module` block itself.
    pub call: &'a ModuleCall,
    /// The `module` block header, for diagnostics about the call.
    pub call_range: &'a Range,
}

impl ModuleRequest<'_> {
    /// The `version` argument's constraint text, when it has one.
    pub fn version_string(&self) -> Option<String> {
        self.version_constraint
            .filter(|v| !v.required.is_empty())
            .map(|v| v.required.to_string())
    }

    /// Where diagnostics about the source point: the `source` expression,
    /// else the call.
    pub fn source_subject(&self) -> Range {
        self.source_addr_range.unwrap_or(self.call_range).clone()
    }
}

/// What a walker found for a call.
#[derive(Debug)]
pub struct LoadedModule {
    pub module: Module,
    /// The directory it was loaded from.
    pub dir: PathBuf,
    /// The registry version installed, for registry modules.
    pub version: Option<Version>,
}

/// Finds and loads the module of one call (`configs.ModuleWalker`).
/// `None` with error diagnostics when it cannot; a module with errors may
/// still be returned, and its children are then walked too.
pub trait ModuleWalker: Sync {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics);

    /// Whether the children of one module may be loaded at the same time.
    /// A walker whose side effects must happen in OpenTofu's order (the
    /// installer's progress lines) says no.
    fn parallel(&self) -> bool {
        true
    }

    /// The directory with symlinks resolved, to tell a module calling
    /// itself (the directory itself where it cannot be resolved). Walkers
    /// that see the same directories many times may remember the answers.
    fn canonical_dir(&self, dir: &Path) -> PathBuf {
        canonical(dir)
    }
}

/// A walker that loads local (`./`, `../`) sources straight from disk,
/// relative to the calling module, without `init`: for library users and
/// tests that work on a source tree. Any other source is left unloaded
/// (no diagnostic: installing it is `init`'s business).
pub struct LocalSourceWalker;

impl ModuleWalker for LocalSourceWalker {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        let Some(ModuleSource::Local(rel)) = req.source_addr else {
            return (None, Vec::new());
        };
        let dir = req.parent_dir.join(rel);
        let (module, diags) = crate::module::load_module_dir(&dir);
        let loaded = module.map(|module| LoadedModule {
            module,
            dir,
            version: None,
        });
        (loaded, diags)
    }
}

/// A walker that refuses every call (`DisabledModuleWalker`): for loading
/// a single module where child modules make no sense.
pub struct DisabledModuleWalker;

impl ModuleWalker for DisabledModuleWalker {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        (
            None,
            vec![Diagnostic::error(
                "Child modules are not supported",
                "Child module calls are not allowed in this context.",
                req.call_range.clone(),
            )],
        )
    }
}

/// Builds the tree below `root` (already loaded, and already statically
/// evaluated with the root call when the caller has one), the modules its
/// test runs call included, then checks the providers of the whole tree
/// (`BuildConfig`).
///
/// The root's test files are loaded here (from its directory and `tests`)
/// unless the caller loaded them already; a caller that wants no tests
/// sets `root.tests` to an empty map. As OpenTofu's loader, nothing is
/// built when the test files have errors.
pub fn build_config(mut root: Module, walker: &dyn ModuleWalker) -> (Config, Diagnostics) {
    let mut load_diags = Diagnostics::new();
    if root.tests.is_none() {
        load_diags = root.load_tests(crate::test_file::DEFAULT_TEST_DIRECTORY);
    }
    let mut cfg = Config::root(root);
    if hclsyntax::has_errors(&load_diags) {
        return (cfg, load_diags);
    }
    let ancestors = vec![walker.canonical_dir(&cfg.dir)];
    let mut diags = build_children(&mut cfg, walker, &ancestors);
    diags.extend(build_test_modules(&mut cfg, walker, &ancestors));
    // Provider types are only resolved for a tree built without errors.
    let resolved = !hclsyntax::has_errors(&diags);
    diags.extend(crate::provider_validation::validate_provider_configs(
        &cfg, resolved,
    ));
    diags.extend(
        crate::test_provider_validation::validate_provider_configs_for_tests(&cfg, resolved),
    );
    load_diags.extend(diags);
    (cfg, load_diags)
}

/// Loads the module of each test run that names one (`buildTestModules`).
/// It is loaded as a child of the root at
/// `test.<dir parts>.<file base>.<run>` (where the installer keeps it),
/// then made a root of its own tree.
fn build_test_modules(
    root: &mut Config,
    walker: &dyn ModuleWalker,
    ancestors: &[PathBuf],
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let Some(mut tests) = root.module.tests.take() else {
        return diags;
    };
    for (name, file) in tests.iter_mut() {
        let (dir, base) = match name.rsplit_once('/') {
            Some((d, b)) => (Some(d), b),
            None => (None, name.as_str()),
        };
        let base = base.strip_suffix(".tftest.hcl").unwrap_or(base);
        for run in &mut file.runs {
            let Some(module) = &run.module else { continue };
            let mut path = vec!["test".to_string()];
            path.extend(
                dir.into_iter()
                    .flat_map(|d| d.split('/').map(str::to_string)),
            );
            path.push(base.to_string());
            path.push(run.name.clone());
            let call = test_run_call(&run.name, module);
            let (child, more) =
                load_child(root, &call, addrs::Module(path), false, walker, ancestors);
            diags.extend(more);
            if let Some(mut child) = child {
                let depth = child.path.0.len();
                rebase(&mut child, depth);
                run.config_under_test = Some(Box::new(child));
            }
        }
    }
    root.module.tests = Some(tests);
    diags
}

/// The module call a test run's `module` block amounts to.
fn test_run_call(name: &str, module: &crate::test_file::TestRunModuleCall) -> ModuleCall {
    let raw = module.source.as_ref().map(|s| s.to_string());
    // The source as a constant expression over the whole `source`
    // argument, where OpenTofu points diagnostics about a run's source.
    let source = module
        .source_decl_range
        .clone()
        .zip(raw.clone())
        .map(|(r, raw)| {
            hclsyntax::Expr::new(
                hclsyntax::ExprKind::Literal(hclsyntax::Literal::String(raw)),
                r,
            )
        });
    ModuleCall {
        name: name.to_string(),
        name_range: module.decl_range.clone(),
        source,
        source_set: module.source.is_some(),
        source_addr_raw: raw,
        source_addr: module.source.clone(),
        version_attr: None,
        version: module.version.clone(),
        config: crate::merged_body::ConfigBody::Single(hclsyntax::Body::empty(
            module.decl_range.clone(),
        )),
        count: None,
        for_each: None,
        enabled: None,
        providers: Vec::new(),
        depends_on: Vec::new(),
        decl_range: module.decl_range.clone(),
    }
}

/// Makes `cfg` the root of its subtree (`rebaseChildModule`): every path
/// loses its first `depth` steps.
fn rebase(cfg: &mut Config, depth: usize) {
    for child in cfg.children.values_mut() {
        rebase(child, depth);
    }
    cfg.path = addrs::Module(cfg.path.0.split_off(depth.min(cfg.path.0.len())));
}

/// `dir` with symlinks resolved, or as given where it cannot be.
pub fn canonical(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

fn build_children(
    parent: &mut Config,
    walker: &dyn ModuleWalker,
    ancestors: &[PathBuf],
) -> Diagnostics {
    let names: Vec<String> = parent.module.module_calls.keys().cloned().collect();
    let parent_ref: &Config = parent;
    let load = |name: &String| {
        let call = &parent_ref.module.module_calls[name];
        let path = parent_ref.path.child(&call.name);
        load_child(parent_ref, call, path, true, walker, ancestors)
    };
    let results: Vec<(Option<Config>, Diagnostics)> = if walker.parallel() && names.len() > 1 {
        names.par_iter().map(load).collect()
    } else {
        names.iter().map(load).collect()
    };
    let mut diags = Diagnostics::new();
    let mut children = BTreeMap::new();
    for (name, (child, more)) in names.into_iter().zip(results) {
        diags.extend(more);
        if let Some(child) = child {
            children.insert(name, Box::new(child));
        }
    }
    parent.children = children;
    diags
}

/// Loads the module of one call at `path` and the tree below it;
/// `static_call` applies the call's static evaluation to it (test runs
/// have no call arguments to apply).
fn load_child(
    parent: &Config,
    call: &ModuleCall,
    path: addrs::Module,
    static_call: bool,
    walker: &dyn ModuleWalker,
    ancestors: &[PathBuf],
) -> (Option<Config>, Diagnostics) {
    let req = ModuleRequest {
        name: &call.name,
        path: &path,
        source_addr: call.source_addr.as_ref(),
        source_addr_range: call.source.as_ref().map(|e| &e.range),
        version_constraint: call.version.as_ref(),
        parent_path: &parent.path,
        parent_dir: &parent.dir,
        call,
        call_range: &call.decl_range,
    };
    let (loaded, mut diags) = walker.load_module(&req);
    let Some(loaded) = loaded else {
        return (None, diags);
    };
    let mut module = loaded.module;
    if static_call {
        diags.extend(apply_static_call(&parent.module, call, &path, &mut module));
    }

    let mut cfg = Config {
        module,
        path,
        dir: loaded.dir,
        children: BTreeMap::new(),
        source_addr: call.source_addr.clone(),
        source_addr_range: call.source.as_ref().map(|e| e.range.clone()),
        call_range: Some(call.decl_range.clone()),
        version: loaded.version,
    };

    let here = walker.canonical_dir(&cfg.dir);
    if ancestors.contains(&here) && calls_are_constant(&cfg.module) {
        // The same files with the same constant calls: the walk would
        // never end.
        diags.push(Diagnostic::error(
            "Module calls itself",
            format!(
                "The module called as {} is loaded from {}, which already contains this call: its module sources form a cycle, so the module tree would be infinitely deep.",
                cfg.path,
                cfg.dir.display()
            ),
            call.decl_range.clone(),
        ));
    } else if ancestors.len() > MAX_MODULE_DEPTH {
        diags.push(Diagnostic::error(
            "Module call nesting too deep",
            format!(
                "Module calls are nested more than {MAX_MODULE_DEPTH} levels deep at {}; a module probably calls itself.",
                cfg.path
            ),
            call.decl_range.clone(),
        ));
    } else {
        let mut below = ancestors.to_vec();
        below.push(here);
        diags.extend(build_children(&mut cfg, walker, &below));
    }

    if let Some(backend) = &cfg.module.backend {
        diags.push(Diagnostic::warning(
            "Backend configuration ignored",
            "Any selected backend applies to the entire configuration, so OpenTofu expects provider configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.",
            backend.decl_range.clone(),
        ));
    }
    if let Some(import) = cfg.module.imports.first() {
        diags.push(Diagnostic::error(
            "Invalid import configuration",
            format!(
                "An import block was detected in {}. Import blocks are only allowed in the root module.",
                addrs::go_quote(&cfg.path.to_string())
            ),
            import.decl_range.clone(),
        ));
    }
    (Some(cfg), diags)
}

/// Whether every call of `module` has a constant source and version, so
/// that loading it again from the same directory calls the same modules.
fn calls_are_constant(module: &Module) -> bool {
    module.module_calls.values().all(|c| {
        c.source
            .as_ref()
            .is_none_or(crate::decode_value::is_constant_expr)
            && c.version_attr
                .as_ref()
                .is_none_or(|a| crate::decode_value::is_constant_expr(&a.expr))
    })
}

/// Applies the call's static evaluation to the child module it loaded
/// (`LoadConfigDir(dir, req.Call)`): the child's variables are the call's
/// arguments, evaluated in the calling module. This is what decodes the
/// child's own calls whose `source` or `version` are not constants. A
/// caller without an evaluator (its own call was never applied) leaves
/// the child with the constants decoded at load.
pub fn apply_static_call(
    parent: &Module,
    call: &ModuleCall,
    path: &addrs::Module,
    child: &mut Module,
) -> Diagnostics {
    debug_assert_eq!(path.0.last(), Some(&call.name));
    match parent.static_evaluator() {
        Some(eval) => {
            let static_call = crate::static_eval::StaticModuleCall::for_child(eval, call);
            child.with_static_call(static_call)
        }
        None => Diagnostics::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::load_module_dir;
    use std::sync::Mutex;

    /// Loads local sources relative to the caller's directory and records
    /// the order of the requests.
    struct LocalWalker {
        seen: Mutex<Vec<String>>,
        parallel: bool,
    }

    impl ModuleWalker for LocalWalker {
        fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
            self.seen.lock().unwrap().push(req.path.to_string());
            let Some(ModuleSource::Local(rel)) = req.source_addr else {
                return (None, Vec::new());
            };
            let dir = req.parent_dir.join(rel);
            let (module, diags) = load_module_dir(&dir);
            let module = module.map(|module| LoadedModule {
                module,
                dir,
                version: None,
            });
            (module, diags)
        }
        fn parallel(&self) -> bool {
            self.parallel
        }
    }

    fn write(root: &Path, files: &[(&str, &str)]) {
        for (name, text) in files {
            let p = root.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }

    fn build(root: &Path, parallel: bool) -> (Config, Diagnostics, Vec<String>) {
        let walker = LocalWalker {
            seen: Mutex::new(Vec::new()),
            parallel,
        };
        let (module, diags) = load_module_dir(root);
        assert!(diags.is_empty(), "{diags:?}");
        let (cfg, diags) = build_config(module.unwrap(), &walker);
        let seen = walker.seen.into_inner().unwrap();
        (cfg, diags, seen)
    }

    #[test]
    fn walks_calls_in_name_order_depth_first() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            &[
                (
                    "main.tf",
                    "module \"b\" { source = \"./b\" }\nmodule \"a\" { source = \"./a\" }\n",
                ),
                ("a/main.tf", "module \"c\" { source = \"../c\" }\n"),
                ("b/main.tf", "terraform {\n  backend \"local\" {}\n}\n"),
                ("c/main.tf", "output \"x\" { value = 1 }\n"),
            ],
        );
        let (cfg, diags, seen) = build(d.path(), false);
        assert_eq!(seen, vec!["module.a", "module.a.module.c", "module.b"]);
        // The backend in a child module is ignored with a warning.
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].summary, "Backend configuration ignored");
        let c = cfg.descendant(&["a".into(), "c".into()]).unwrap();
        assert!(c.module.outputs.contains_key("x"));
        let paths: Vec<String> = cfg.all().iter().map(|c| c.path.to_string()).collect();
        assert_eq!(paths, vec!["", "module.a", "module.a.module.c", "module.b"]);

        // In parallel: the same tree and the same diagnostics.
        let (cfg2, diags2, _) = build(d.path(), true);
        assert_eq!(diags2.len(), diags.len());
        assert_eq!(cfg2.all().len(), 4);
    }

    #[test]
    fn a_module_calling_itself_is_reported() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            &[
                ("main.tf", "module \"loop\" { source = \"./m\" }\n"),
                ("m/main.tf", "module \"again\" { source = \"./\" }\n"),
            ],
        );
        let (_, diags, _) = build(d.path(), true);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].summary, "Module calls itself");
        assert!(diags[0].detail.contains("module.loop.module.again"));
    }

    #[test]
    fn import_in_child_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            &[
                ("main.tf", "module \"c\" { source = \"./c\" }\n"),
                (
                    "c/main.tf",
                    "import {\n  to = aws_instance.a\n  id = \"x\"\n}\nresource \"aws_instance\" \"a\" {}\n",
                ),
            ],
        );
        let (_, diags, _) = build(d.path(), false);
        assert!(
            diags
                .iter()
                .any(|d| d.summary == "Invalid import configuration"
                    && d.detail.contains("\"module.c\"")),
            "{diags:?}"
        );
    }
}
