//! Plans a directory whose module sources are local paths (no `init`
//! needed) and prints a summary: how the library is driven, and a quick
//! way to time the walk alone.
//!
//! `cargo run --release -p tofu-core --example plan_dir -- DIR [validate]`
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::time::Instant;

use configs::config_build::{build_config, LocalSourceWalker};
use configs::module::load_module_dir;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: plan_dir DIR [validate]");
        std::process::exit(2);
    };
    let validate = args.next().as_deref() == Some("validate");
    let start = Instant::now();
    let (module, diags) = load_module_dir(&dir);
    let Some(module) = module else {
        eprintln!("{diags:?}");
        std::process::exit(1);
    };
    let (cfg, _) = build_config(module, &LocalSourceWalker);
    let loaded = start.elapsed();
    let start = Instant::now();
    if validate {
        let diags = tofu::validate(&cfg);
        println!(
            "loaded in {loaded:?}, validated in {:?}: {} diagnostics",
            start.elapsed(),
            diags.len()
        );
        return;
    }
    let vars = cfg
        .module
        .variables
        .iter()
        .filter_map(|(n, v)| v.default_value.clone().map(|d| (n.clone(), d)))
        .collect();
    let (plan, diags) = tofu::plan(&cfg, vars);
    println!(
        "loaded in {loaded:?}, planned in {:?}: {} resource instances, {} diagnostics",
        start.elapsed(),
        plan.map(|p| p.resource_changes.len()).unwrap_or(0),
        diags.len()
    );
}
