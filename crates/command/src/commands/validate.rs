//! `tofu-rs validate`: is the configuration valid? Human output or the
//! `validate -json` document; with `-recursive`, every root module below
//! the current directory ([`crate::recursive`]).

use std::path::Path;
use std::sync::Arc;

use configs::module_dir_cache::ModuleDirCache;

use crate::flags::{options, VarFlags};
use crate::loader::{load_config_for_flags_in, LoadPlace};
use crate::recursive::{self, RootOutcome};
use crate::view::{Streams, View};

const SUCCESS: &str = "Success! The configuration is valid.";
const SUCCESS_WARNINGS: &str =
    "Success! The configuration is valid, but there were some validation warnings as shown above.";

options! {
    /// `tofu-rs validate`'s flags.
    pub struct ValidateOptions {
        /// `-json`: the `validate -json` document.
        json: bool => ["json"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
        /// `-deprecation=module:<level>`, every value.
        deprecation: Vec<String> => ["deprecation"],
        /// `-no-tests`: the test files are not validated.
        no_tests: bool => ["no-tests"],
        /// `-test-directory`.
        test_directory: String = configs::test_file::DEFAULT_TEST_DIRECTORY.to_string()
            => ["test-directory"],
        /// `-recursive`: every root module below the current directory,
        /// or each directory given as an argument.
        recursive: bool => ["recursive"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match ValidateOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let json = opts.json;
    let mut view = View::new(opts.no_color);
    let (level, flag_diags) = deprecation_level(&opts.deprecation);
    if flag_diags.has_errors() {
        view.diagnostics(streams, &flag_diags, &tfdiags::SourceMap::new());
        streams.eprint(&help_prompt("validate"));
        return 1;
    }
    view.options.deprecation = level;
    if opts.recursive {
        return run_recursive(&opts, &view, streams);
    }
    let dir = opts.args.first().map(String::as_str).unwrap_or(".");
    let place = LoadPlace {
        work_dir: Path::new("."),
        dirs: &Arc::default(),
    };
    let checked = validate_root(&place, Path::new(dir), &opts, None);
    let code = report(
        &view,
        json,
        streams,
        &checked.diags,
        &checked.sources,
        checked.config.as_ref(),
    );
    streams.dispose(checked);
    code
}

/// What validating one root module found.
struct Checked {
    config: Option<configs::config::Config>,
    sources: tfdiags::SourceMap,
    diags: tfdiags::Diagnostics,
}

/// Validates the root module in `dir`, with the working directory and the
/// module directories `place` gives.
/// `share` lets the roots of `-recursive` read each provider's schema once.
fn validate_root(
    place: &LoadPlace<'_>,
    dir: &Path,
    opts: &ValidateOptions,
    share: Option<&Arc<providerhost::SchemaShare>>,
) -> Checked {
    let (loaded, var_diags) =
        load_config_for_flags_in(place, dir, &opts.vars, Some(&opts.test_directory), false);
    let mut diags = tfdiags::Diagnostics::new();
    diags.append(var_diags);
    diags.append(loaded.diags);
    let loaded_cleanly = !diags.has_errors();
    // The configuration's provider requirements come first, as in
    // OpenTofu's `checkConfigDependencies`: errors there (an import block
    // whose provider disagrees with its target resource) stop validation
    // before the graph walk.
    if let (true, Some(config)) = (loaded_cleanly, &loaded.config) {
        let (_, req_diags) = config.provider_requirements();
        diags.append(req_diags);
    }
    // The graph walk needs a whole, well-formed tree: like OpenTofu, it
    // runs only once loading found no errors, and only with every
    // provider's schema (`contextOpts`, `checkConfigDependencies`, the
    // graph builder's schema loading stop it first).
    let mut schemas = None;
    if let (false, Some(config)) = (diags.has_errors(), &loaded.config) {
        let (plugins, plugin_diags) = crate::provider_schemas::plugins_in(place.work_dir, share);
        diags.append(plugin_diags);
        let (found, schema_diags) = plugins.schemas_for(config);
        diags.append(schema_diags);
        if let Some(found) = &found {
            diags.append(tofu::validate_with_schemas_in(
                config,
                place.work_dir,
                found.clone(),
            ));
        }
        schemas = found.map(|s| (s, plugins));
    }
    if let (true, false, Some(config)) = (loaded_cleanly, opts.no_tests, &loaded.config) {
        let found = schemas.as_ref().map(|(s, _)| s.clone());
        diags.append(validate_test_files(config, place.work_dir, found));
    }
    if let Some((_, plugins)) = schemas {
        plugins.host.close();
    }
    Checked {
        config: loaded.config,
        sources: loaded.sources,
        diags,
    }
}

/// `validate -recursive`: each root validated in its own directory, as
/// `tofu validate` run there would, all of them reading module
/// directories through one cache.
fn run_recursive(opts: &ValidateOptions, view: &View, streams: &mut Streams) -> i32 {
    let roots = match recursive::roots(&opts.args) {
        Ok(r) => r,
        Err(diags) => {
            view.diagnostics(streams, &diags, &tfdiags::SourceMap::new());
            return 1;
        }
    };
    // Every root has its own copy of each remote module it uses: identical
    // copies are parsed once.
    let dirs = Arc::new(ModuleDirCache::sharing_identical());
    let share = Arc::new(providerhost::SchemaShare::default());
    let outcomes = recursive::run_all(&roots, |root| {
        let work_dir = recursive::work_dir(root);
        let place = LoadPlace {
            work_dir: &work_dir,
            dirs: &dirs,
        };
        let mut checked = validate_root(&place, &work_dir, opts, Some(&share));
        recursive::own_paths(
            &recursive::module_dirs(checked.config.as_ref()),
            &dirs,
            &mut checked.diags,
            &mut checked.sources,
        );
        let (stdout, stderr) = recursive::rendered(
            view,
            &checked.diags,
            &checked.sources,
            checked.config.as_ref(),
        );
        RootOutcome {
            root: recursive::shown(root),
            code: i32::from(checked.diags.has_errors()),
            errors: checked.diags.error_count(),
            warnings: checked.diags.warning_count(),
            stdout,
            stderr,
            json: tfdiags::validate_json_value(&checked.diags, &checked.sources),
        }
    });
    recursive::report(&outcomes, opts.json, "validated", view, streams)
}

/// Prints what validation found; the exit code.
fn report(
    view: &View,
    json: bool,
    streams: &mut Streams,
    diags: &tfdiags::Diagnostics,
    sources: &tfdiags::SourceMap,
    config: Option<&configs::config::Config>,
) -> i32 {
    if json {
        streams.print(&tfdiags::validate_json(diags, sources));
        return if diags.has_errors() { 1 } else { 0 };
    }
    view.diagnostics_in(streams, diags, sources, config);
    if diags.has_errors() {
        return 1;
    }
    let message = if diags.is_empty() {
        SUCCESS
    } else {
        SUCCESS_WARNINGS
    };
    streams.print(&view.success_line(message));
    0
}

/// `-deprecation=module:<level>` (`arguments.ViewOptions.Parse`): every
/// value must start with `module:`; the last one wins; what follows the
/// prefix is `all` (also empty or unknown), `local` or `none`.
pub(crate) fn deprecation_level(
    values: &[impl AsRef<str>],
) -> (tfdiags::DeprecationLevel, tfdiags::Diagnostics) {
    let mut level = tfdiags::DeprecationLevel::All;
    let mut diags = tfdiags::Diagnostics::new();
    for value in values.iter().map(AsRef::as_ref) {
        match value.strip_prefix("module:") {
            Some(rest) => level = tfdiags::DeprecationLevel::parse(rest),
            None => diags.push(tfdiags::Diagnostic::error_sourceless(
                "Invalid argument",
                format!(
                    "Expected -deprecation prefix \"module:\", got {}",
                    cty::format::go_quote(value)
                ),
            )),
        }
    }
    (level, diags)
}

/// OpenTofu's `View.HelpPrompt`, after an argument error.
pub(crate) fn help_prompt(command: &str) -> String {
    format!("\nFor more help on using this command, run:\n  tofu-rs {command} -help\n")
}

/// The quick checks of the test files, which live outside the graph: each
/// file's and run's own rules, and the graph of each local module a run
/// executes (once per source; a registry module is its author's to
/// validate).
fn validate_test_files(
    config: &configs::config::Config,
    work_dir: &Path,
    schemas: Option<Arc<tofu::schemas::Schemas>>,
) -> tfdiags::Diagnostics {
    let schemas = schemas.unwrap_or_default();
    let mut diags = tfdiags::Diagnostics::new();
    let mut validated = std::collections::BTreeSet::new();
    for file in config.module.tests.iter().flat_map(|t| t.values()) {
        diags.append(file.validate());
        for run in &file.runs {
            let local = run
                .module
                .as_ref()
                .and_then(|m| m.source.as_ref())
                .filter(|s| matches!(s, addrs::ModuleSource::Local(_)));
            if let (Some(source), Some(under_test)) = (local, &run.config_under_test) {
                if validated.insert(source.to_string()) {
                    diags.append(tofu::deprecation::without_causes(
                        tofu::validate_with_schemas_in(under_test, work_dir, schemas.clone()),
                    ));
                }
            }
            diags.append(run.validate());
        }
    }
    diags
}

#[cfg(test)]
mod tests {
    use super::*;
    use tfdiags::DeprecationLevel;

    #[test]
    fn deprecation_flag_values() {
        let level = |v: &[&str]| deprecation_level(v).0;
        assert_eq!(level(&[]), DeprecationLevel::All);
        assert_eq!(level(&["module:local"]), DeprecationLevel::Local);
        assert_eq!(
            level(&["module:none", "module:local"]),
            DeprecationLevel::Local
        );
        assert_eq!(
            level(&["module:local", "module:bogus"]),
            DeprecationLevel::All
        );
        assert_eq!(level(&["module:"]), DeprecationLevel::All);
        let (level, diags) = deprecation_level(&["local", "module:none"]);
        assert_eq!(level, DeprecationLevel::None);
        assert_eq!(diags.len(), 1);
        let d = diags.iter().next().unwrap();
        assert_eq!(d.summary, "Invalid argument");
        assert_eq!(
            d.detail,
            "Expected -deprecation prefix \"module:\", got \"local\""
        );
    }
}
