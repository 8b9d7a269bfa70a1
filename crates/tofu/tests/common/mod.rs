//! Loading a configuration tree whose module sources are local directories
//! (no `init` needed), for the graph tests.

use std::collections::BTreeMap;
use std::path::Path;

use configs::config::Config;
use configs::config_build::{build_config, LocalSourceWalker};
use configs::module::load_module_dir;
use cty::Value;
use hclsyntax::Diagnostics;

/// Loads `dir` and its local children.
pub fn load(dir: &Path) -> (Option<Config>, Diagnostics) {
    let (module, mut diags) = load_module_dir(dir);
    let Some(module) = module else {
        return (None, diags);
    };
    let (cfg, d) = build_config(module, &LocalSourceWalker);
    diags.extend(d);
    (Some(cfg), diags)
}

/// The root variables' defaults (what a plan without `-var` gets).
#[allow(dead_code)]
pub fn default_variables(cfg: &Config) -> BTreeMap<String, Value> {
    cfg.module
        .variables
        .iter()
        .filter_map(|(n, v)| v.default_value.clone().map(|d| (n.clone(), d)))
        .collect()
}

/// Writes `files` under `root`.
#[allow(dead_code)]
pub fn write(root: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}
