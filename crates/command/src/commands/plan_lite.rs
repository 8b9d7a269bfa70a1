//! `tofu-rs plan-lite`: a plan without providers. Loads the configuration
//! as `validate` does, takes the root variables from the environment,
//! files and flags, plans every resource instance to create and renders
//! the plan as `tofu plan` shows it, or with `-json` as the document
//! `tofu show -json` prints.

use std::io::IsTerminal;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use tfdiags::{Diagnostics, SourceMap};
use tofu::plans::render::{self as plan_render, DocumentInfo, HumanOptions};

use crate::commands::version::VERSION;
use crate::flags::{options, VarFlags};
use crate::loader::{load_config_from_root, load_root_module, root_static_call_from};
use crate::variables::{self, Unset};
use crate::view::{Streams, View};

/// The width OpenTofu wraps paragraphs to when stdout is not a terminal.
const DEFAULT_COLUMNS: usize = 78;

options! {
    /// `tofu-rs plan-lite`'s flags.
    pub struct PlanLiteOptions {
        /// `-json`: the document `tofu show -json` prints.
        json: bool => ["json"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-input`: whether a required variable may be asked for.
        input: bool = true => ["input"],
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
        /// `-deprecation=module:<level>`, every value.
        deprecation: Vec<String> => ["deprecation"],
        /// `-refresh`: accepted for drop-in use; there is no state to
        /// refresh.
        refresh: bool = true => ["refresh"],
        /// `-lock`: accepted for drop-in use; there is no state to lock.
        lock: bool = true => ["lock"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match PlanLiteOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let json = opts.json;
    let mut view = View::new(opts.no_color);
    let (level, flag_diags) = super::validate::deprecation_level(&opts.deprecation);
    if flag_diags.has_errors() {
        view.diagnostics(streams, &flag_diags, &SourceMap::new());
        streams.eprint(&super::validate::help_prompt("plan-lite"));
        return 1;
    }
    view.options.deprecation = level;
    let input = opts.input;
    let dir = opts.args.first().map(String::as_str).unwrap_or(".");

    // The root module is read once: its variables are collected from it
    // (defaults, TF_VAR_*, tfvars files, -var, -var-file) and the same
    // values drive static evaluation (module sources) and the plan.
    let (root, mut diags, mut sources) = load_root_module(Path::new(dir));
    let Some(root) = root.filter(|_| !diags.has_errors()) else {
        show(&view, json, streams, &diags, &sources, None);
        return 1;
    };
    let (vars, var_diags) =
        variables::collect(&root, opts.vars.as_slice(), Path::new("."), Unset::Error);
    let root_call = root_static_call_from(&vars, input);
    let loaded = load_config_from_root(root, &root_call);
    diags.append(loaded.diags);
    for f in loaded.sources.iter().chain(&vars.files) {
        sources.insert(f.clone());
    }
    let Some(config) = loaded.config.filter(|_| !diags.has_errors()) else {
        show(&view, json, streams, &diags, &sources, None);
        return 1;
    };
    // The backend must be as init recorded it (OpenTofu's "Backend
    // initialization required" otherwise).
    diags.append(backend::check_initialized(
        &config.module,
        &crate::loader::data_dir(),
    ));
    if diags.has_errors() {
        show(&view, json, streams, &diags, &sources, Some(&config));
        return 1;
    }
    diags.append(var_diags);
    if diags.has_errors() {
        show(&view, json, streams, &diags, &sources, Some(&config));
        return 1;
    }
    diags.append(variables::root_deprecation_warnings(&config.module, &vars));

    let (plugins, plugin_diags) = crate::provider_schemas::plugins_in(Path::new("."), None);
    diags.append(plugin_diags);
    let (schemas, schema_diags) = plugins.schemas_for_plan(&config);
    // plan-lite asks the plugins for nothing else.
    plugins.host.close();
    diags.append(schema_diags);
    let Some(schemas) = schemas.filter(|_| !diags.has_errors()) else {
        show(&view, json, streams, &diags, &sources, Some(&config));
        return 1;
    };
    let (plan, plan_diags) = tofu::plan_with_schemas(&config, vars.values, schemas);
    diags.append(plan_diags);
    let Some(plan) = plan.filter(|_| !diags.has_errors()) else {
        show(&view, json, streams, &diags, &sources, Some(&config));
        return 1;
    };

    if json {
        let timestamp = gocompat::time::rfc3339_utc(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        );
        let info = DocumentInfo {
            version: VERSION,
            timestamp: &timestamp,
            errored: false,
        };
        streams.print(&plan_render::plan_document(&plan, &config, &info));
        streams.print("\n");
    } else {
        let opts = HumanOptions {
            color: view.options.color,
            width: columns(),
        };
        plan_render::render_plan_to(&plan, &opts, &mut |part| streams.print(part));
    }
    // Warnings follow the plan, as OpenTofu reports them after rendering.
    show(&view, json, streams, &diags, &sources, Some(&config));
    streams.dispose((plan, config, sources, diags));
    0
}

/// Diagnostics as the view shows them; with `-json` everything goes to
/// stderr so that stdout holds only the document.
fn show(
    view: &View,
    json: bool,
    streams: &mut Streams,
    diags: &Diagnostics,
    sources: &SourceMap,
    config: Option<&configs::config::Config>,
) {
    if !json {
        view.diagnostics_in(streams, diags, sources, config);
        return;
    }
    for msg in view.messages(diags, sources, config) {
        streams.eprint(&msg.text);
    }
}

/// The terminal's width (from `COLUMNS`) when stdout is a terminal, else
/// OpenTofu's default for redirected output.
fn columns() -> usize {
    if !std::io::stdout().is_terminal() {
        return DEFAULT_COLUMNS;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
        .unwrap_or(DEFAULT_COLUMNS)
}
