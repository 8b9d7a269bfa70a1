//! `tofu-rs graph`: the configuration's resources and their dependencies
//! in DOT, as `tofu graph` prints them by default (resources grouped by
//! module; an edge wherever one resource needs another, directly or through
//! variables, locals, outputs and module calls).

use std::path::Path;

use crate::flags::{options, VarFlags};
use crate::loader::load_config_for_flags;
use crate::view::{Streams, View};

options! {
    /// `tofu-rs graph`'s flags.
    pub struct GraphOptions {
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-type=plan|apply|...`: an operation's graph, which tofu-rs
        /// refuses to draw.
        graph_type: Option<String> => ["type"],
        /// `-draw-cycles`: accepted for drop-in use; a graph with a cycle
        /// is refused.
        draw_cycles: bool => ["draw-cycles"],
        /// `-module-depth`: accepted for drop-in use (OpenTofu ignores it
        /// too).
        module_depth: Option<String> => ["module-depth"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match GraphOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let view = View::new(opts.no_color);
    if let Some(t) = &opts.graph_type {
        streams.eprint(&format!(
            "tofu-rs graph draws the resource graph only; -type={t} (an operation's full graph) is not supported.\n"
        ));
        return 1;
    }
    let dir = opts.args.first().map(String::as_str).unwrap_or(".");
    let (loaded, var_diags) =
        load_config_for_flags(Path::new(dir), &VarFlags::default(), None, false);
    let mut diags = tfdiags::Diagnostics::new();
    diags.append(var_diags);
    diags.append(loaded.diags);
    let Some(config) = loaded.config.filter(|_| !diags.has_errors()) else {
        view.diagnostics(streams, &diags, &loaded.sources);
        return 1;
    };
    view.diagnostics(streams, &diags, &loaded.sources);
    let graph = tofu::graph::build_graph(&config);
    // A graph with a cycle is not drawn: OpenTofu's graph builder refuses
    // it with the cycle's nodes, as validate and plan do.
    let cycles = tofu::graph::cycle_diagnostics(&graph);
    if !cycles.is_empty() {
        let mut all = tfdiags::Diagnostics::new();
        all.append(cycles);
        view.diagnostics(streams, &all, &loaded.sources);
        return 1;
    }
    streams.print(&tofu::graph::resources_dot(&graph));
    0
}
