//! `tofu-rs providers schema -json`: the schemas of every provider the
//! configuration (and the local state) uses, as OpenTofu's `jsonprovider`
//! document, read through the schema cache, so that a second run starts
//! no plugin. Diagnostics are shown as text; only the document is JSON.

use std::collections::BTreeSet;
use std::path::Path;

use addrs::Provider;
use tfdiags::{Diagnostic, Diagnostics, Severity, SourceMap};

use super::providers::show_diagnostics;
use crate::flags::{options, VarFlags};
use crate::loader::load_config_for_flags;
use crate::view::{Streams, View};

options! {
    /// `tofu-rs providers schema`'s flags.
    pub struct ProvidersSchemaOptions {
        /// `-json`: required, as in OpenTofu.
        json: bool => ["json"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match ProvidersSchemaOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let view = View::new(opts.no_color);
    let fail = |streams: &mut Streams, diags: &Diagnostics, sources: &SourceMap| {
        show_diagnostics(&view, streams, diags, sources);
        1
    };
    if !opts.json {
        let mut diags = Diagnostics::new();
        diags.push(Diagnostic::sourceless(
            Severity::Error,
            "Output only in json is allowed",
            "The `tofu providers schema` command requires the `-json` flag.",
        ));
        return fail(streams, &diags, &SourceMap::new());
    }
    let mut diags = Diagnostics::new();
    let (loaded, var_diags) = load_config_for_flags(Path::new("."), &opts.vars, None, false);
    diags.append(var_diags);
    diags.append(loaded.diags);
    let sources = loaded.sources;
    let config = match loaded.config {
        Some(c) if !diags.has_errors() => c,
        _ => return fail(streams, &diags, &sources),
    };
    let (plugins, plugin_diags) = crate::provider_schemas::plugins_in(Path::new("."), None);
    diags.append(plugin_diags);
    if diags.has_errors() {
        return fail(streams, &diags, &sources);
    }
    let (reqs, req_diags) = config.provider_requirements();
    diags.append(req_diags);
    if diags.has_errors() {
        return fail(streams, &diags, &sources);
    }
    let mut wanted: BTreeSet<Provider> = reqs.keys().cloned().collect();
    wanted.extend(super::providers::local_state_providers(&config.module).unwrap_or_default());
    let (document, errors) = plugins.schema_document(&wanted);
    plugins.host.close();
    if let Some(text) = errors {
        diags.push(Diagnostic::sourceless(
            Severity::Error,
            "Failed to load plugin schemas",
            format!("Error while loading schemas for plugin components: {text}."),
        ));
        return fail(streams, &diags, &sources);
    }
    show_diagnostics(&view, streams, &diags, &sources);
    streams.print(&format!("{document}\n"));
    0
}
