//! Loading the configuration a command works on: the root module and, from
//! the module manifest that `init` writes, the installed child modules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use configs::module::{load_module_dir, Module};
use tfdiags::{Diagnostic, Diagnostics, SourceMap};

const MANIFEST: &str = ".terraform/modules/modules.json";

/// The installed module directories by key (`a.b`), from `modules.json`.
fn read_manifest(root: &Path) -> Option<BTreeMap<String, PathBuf>> {
    let text = std::fs::read_to_string(root.join(MANIFEST)).ok()?;
    let doc: serde_json::Value = if text.trim().is_empty() {
        serde_json::json!({"Modules": []})
    } else {
        serde_json::from_str(&text).ok()?
    };
    let mut dirs = BTreeMap::new();
    for rec in doc.get("Modules")?.as_array()? {
        let key = rec.get("Key")?.as_str()?.to_string();
        let dir = rec.get("Dir")?.as_str()?;
        dirs.insert(key, root.join(dir));
    }
    Some(dirs)
}

/// Loads the root module in `dir` and every installed descendant, with
/// the diagnostics of all of them and their sources for rendering.
pub fn load_root(dir: &Path) -> (Diagnostics, SourceMap) {
    let mut diags = Diagnostics::new();
    let mut sources = SourceMap::new();
    let (module, more) = load_module_dir(dir);
    for d in more {
        diags.push(d);
    }
    let Some(module) = module else {
        return (diags, sources);
    };
    let manifest = read_manifest(dir);
    load_children(&module, "", manifest.as_ref(), &mut diags, &mut sources, 0);
    for s in &module.sources {
        sources.insert(s.clone());
    }
    (diags, sources)
}

/// Module calls nest at most this deep; deeper is a cycle of local paths.
const MAX_DEPTH: usize = 100;

fn load_children(
    module: &Module,
    key_prefix: &str,
    manifest: Option<&BTreeMap<String, PathBuf>>,
    diags: &mut Diagnostics,
    sources: &mut SourceMap,
    depth: usize,
) {
    for (name, call) in &module.module_calls {
        let key = if key_prefix.is_empty() {
            name.clone()
        } else {
            format!("{key_prefix}.{name}")
        };
        let Some(dir) = manifest.and_then(|m| m.get(&key)) else {
            diags.push(Diagnostic::error(
                "Module not installed",
                "This module is not yet installed. Run \"tofu init\" to install all modules required by this configuration.",
                call.decl_range.clone(),
            ));
            continue;
        };
        if depth >= MAX_DEPTH {
            diags.push(Diagnostic::error(
                "Module call nesting too deep",
                format!("Module calls are nested more than {MAX_DEPTH} levels deep at module.{}; a module probably calls itself.", key.replace('.', ".module.")),
                call.decl_range.clone(),
            ));
            continue;
        }
        let (child, more) = load_module_dir(dir);
        for d in more {
            diags.push(d);
        }
        if let Some(child) = child {
            for s in &child.sources {
                sources.insert(s.clone());
            }
            load_children(&child, &key, manifest, diags, sources, depth + 1);
        }
    }
}
