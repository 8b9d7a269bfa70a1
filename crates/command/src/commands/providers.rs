//! `tofu-rs providers [DIR]`: the providers the configuration needs, as a
//! tree of its modules with each module's own requirements, printed as
//! `tofu providers` prints it.
//!
//! OpenTofu lists each module's providers in Go map order (different from
//! run to run); tofu-rs lists them by address, then the module calls by
//! name, so the output is stable. "Providers required by state:" is shown for the
//! state of the default local backend only (no `backend` or `cloud` block,
//! no state encryption); other backends need the backend's state manager.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use addrs::Provider;

use configs::config_provider_requirements::{
    ModuleRequirements, Requirements, TestFileRequirements,
};
use tfdiags::{Diagnostics, SourceMap};

use crate::flags::{options, VarFlags};
use crate::loader::load_config_for_flags;
use crate::view::{Streams, View};

/// The `providers` subcommands tofu-rs does not have yet.
const SUBCOMMANDS: [&str; 1] = ["mirror"];

options! {
    /// `tofu-rs providers`' flags.
    pub struct ProvidersOptions {
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
        /// `-test-directory`.
        test_directory: String = configs::test_file::DEFAULT_TEST_DIRECTORY.to_string()
            => ["test-directory"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    if args.first().is_some_and(|a| a == "lock") {
        return super::providers_lock::run(&args[1..], streams);
    }
    if args.first().is_some_and(|a| a == "schema") {
        return super::providers_schema::run(&args[1..], streams);
    }
    if let Some(sub) = args.first().filter(|a| SUBCOMMANDS.contains(&a.as_str())) {
        streams.eprint(&format!(
            "tofu-rs does not implement \"providers {sub}\" yet: Use \"tofu providers {sub}\".\n"
        ));
        return 1;
    }
    let opts = match ProvidersOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let view = View::new(opts.no_color);
    if opts.args.len() > 1 {
        streams.eprint("Too many command line arguments. Did you mean to use -chdir?\n");
        return 1;
    }
    let dir = Path::new(opts.args.first().map(String::as_str).unwrap_or("."));

    let mut diags = Diagnostics::new();
    if is_empty_dir(dir) {
        let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        diags.push(tfdiags::Diagnostic::sourceless(
            tfdiags::Severity::Error,
            "No configuration files",
            format!(
                "The directory {} contains no OpenTofu configuration files.",
                abs.display()
            ),
        ));
        show_diagnostics(&view, streams, &diags, &SourceMap::new());
        return 1;
    }

    let (loaded, var_diags) =
        load_config_for_flags(dir, &opts.vars, Some(&opts.test_directory), false);
    diags.append(var_diags);
    diags.append(loaded.diags);
    let sources = loaded.sources;
    let config = match loaded.config {
        Some(c) if !diags.has_errors() => c,
        _ => {
            show_diagnostics(&view, streams, &diags, &sources);
            return 1;
        }
    };

    let state_providers = match local_state_providers(&config.module) {
        Ok(p) => p,
        Err(e) => {
            streams.eprint(&format!("Failed to load state: {e}\n"));
            return 1;
        }
    };

    let (reqs, req_diags) = config.provider_requirements_by_module();
    diags.append(req_diags);
    if diags.has_errors() {
        show_diagnostics(&view, streams, &diags, &sources);
        return 1;
    }

    streams.print("\nProviders required by configuration:\n");
    streams.print(&requirement_tree(&reqs));
    streams.print("\n");
    if !state_providers.is_empty() {
        streams.print("Providers required by state:\n\n");
        for p in &state_providers {
            streams.print(&format!("    provider[{p}]\n\n"));
        }
    }
    show_diagnostics(&view, streams, &diags, &sources);
    0
}

/// `Meta.showDiagnostics`: the legacy UI writes each diagnostic with a
/// line of its own, so an empty line follows each.
pub(crate) fn show_diagnostics(
    view: &View,
    streams: &mut Streams,
    diags: &Diagnostics,
    sources: &SourceMap,
) {
    let is_local = |_: &tfdiags::DeprecationCause| true;
    for msg in tfdiags::render_diagnostics(diags, sources, &view.options, &is_local) {
        let text = format!("{}\n", msg.text);
        match msg.stream {
            tfdiags::Stream::Stderr => streams.eprint(&text),
            tfdiags::Stream::Stdout => streams.print(&text),
        }
    }
}

/// The providers of the resources in the current workspace's state, when
/// the configuration keeps its state with the default local backend
/// (`State.ProviderRequirements`). Empty when there is no such state.
pub(crate) fn local_state_providers(
    root: &configs::module::Module,
) -> Result<BTreeSet<Provider>, String> {
    let data_dir = crate::loader::data_dir();
    // A configured backend (or its record from init) keeps the state
    // elsewhere; an encrypted state needs its keys.
    if root.backend.is_some()
        || root.cloud_config.is_some()
        || root.encryption.is_some()
        || data_dir.join("terraform.tfstate").exists()
    {
        return Ok(BTreeSet::new());
    }
    let workspace = std::env::var("TF_WORKSPACE")
        .ok()
        .filter(|w| !w.is_empty())
        .or_else(|| {
            let w = std::fs::read_to_string(data_dir.join("environment")).ok()?;
            Some(w.trim().to_string()).filter(|w| !w.is_empty())
        })
        .unwrap_or_else(|| "default".to_string());
    let path = if workspace == "default" {
        PathBuf::from("terraform.tfstate")
    } else {
        Path::new("terraform.tfstate.d")
            .join(&workspace)
            .join("terraform.tfstate")
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => return Err(crate::cli::io_error_text(&e)),
    };
    state_providers(&text)
}

/// The provider of every resource of a version 4 state file: the address
/// inside `provider["..."]` of each resource's provider configuration
/// (`module.a.provider["registry.opentofu.org/hashicorp/aws"].west`).
fn state_providers(text: &str) -> Result<BTreeSet<Provider>, String> {
    let mut out = BTreeSet::new();
    // An empty file is no state at all.
    if text.trim().is_empty() {
        return Ok(out);
    }
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let resources = doc.get("resources").and_then(|r| r.as_array());
    for r in resources.into_iter().flatten() {
        let Some(config) = r.get("provider").and_then(|p| p.as_str()) else {
            continue;
        };
        let Some(start) = config.find("provider[\"") else {
            continue;
        };
        let inner = &config[start + "provider[\"".len()..];
        let Some(end) = inner.find("\"]") else {
            continue;
        };
        let provider = addrs::parse_provider_source_string(&inner[..end])
            .map_err(|_| format!("invalid provider address in state: {config}"))?;
        out.insert(provider);
    }
    Ok(out)
}

/// `configs.IsEmptyDir`: a missing directory, or one with no
/// configuration or test files.
fn is_empty_dir(dir: &Path) -> bool {
    if !dir.exists() {
        return true;
    }
    match configs::file_names::dir_files(dir) {
        Ok(f) => f.primary.is_empty() && f.overrides.is_empty() && f.tests.is_empty(),
        // Unreadable: loading reports why.
        Err(_) => false,
    }
}

/// The tree as `treeprint` draws it: `.` for the root module, then each
/// module's providers (`provider[ADDRESS] CONSTRAINTS`), its test files
/// (`test.NAME`, with a `run.NAME` branch for each run calling a module)
/// and its calls.
pub fn requirement_tree(reqs: &ModuleRequirements) -> String {
    let mut out = String::from(".\n");
    add_branch(&mut out, reqs, "");
    out
}

/// One line of the tree and what hangs below it.
enum Item<'a> {
    Leaf(String),
    Module(String, &'a ModuleRequirements),
    Test(String, &'a TestFileRequirements),
}

fn provider_lines(reqs: &Requirements) -> impl Iterator<Item = Item<'_>> {
    reqs.iter().map(|(provider, constraints)| {
        let constraints = constraints.to_string();
        Item::Leaf(if constraints.is_empty() {
            format!("provider[{provider}]")
        } else {
            format!("provider[{provider}] {constraints}")
        })
    })
}

fn add_branch(out: &mut String, node: &ModuleRequirements, prefix: &str) {
    let mut items: Vec<Item<'_>> = provider_lines(&node.requirements).collect();
    items.extend(node.tests.iter().map(|(name, file)| {
        let name = name.strip_suffix(".tftest.hcl").unwrap_or(name);
        Item::Test(format!("test.{}", name.replace('/', ".")), file)
    }));
    items.extend(
        node.children
            .iter()
            .map(|(name, child)| Item::Module(format!("module.{name}"), child)),
    );
    add_items(out, items, prefix);
}

fn add_items(out: &mut String, items: Vec<Item<'_>>, prefix: &str) {
    let last = items.len().saturating_sub(1);
    for (i, item) in items.into_iter().enumerate() {
        let (edge, indent) = if i == last {
            ("└── ", "    ")
        } else {
            // treeprint pads the vertical line with two no-break spaces.
            ("├── ", "│\u{a0}\u{a0} ")
        };
        let inner = format!("{prefix}{indent}");
        match item {
            Item::Leaf(text) => out.push_str(&format!("{prefix}{edge}{text}\n")),
            Item::Module(text, child) => {
                out.push_str(&format!("{prefix}{edge}{text}\n"));
                add_branch(out, child, &inner);
            }
            Item::Test(text, file) => {
                out.push_str(&format!("{prefix}{edge}{text}\n"));
                let mut items: Vec<Item<'_>> = provider_lines(&file.requirements).collect();
                items.extend(
                    file.runs
                        .iter()
                        .map(|(name, run)| Item::Module(format!("run.{name}"), run)),
                );
                add_items(out, items, &inner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn providers_of_a_state() {
        let state = r#"{"version": 4, "resources": [
            {"mode": "managed", "type": "null_resource", "name": "a",
             "provider": "provider[\"registry.opentofu.org/hashicorp/null\"]"},
            {"module": "module.m", "mode": "managed", "type": "aws_instance", "name": "b",
             "provider": "module.m.provider[\"registry.opentofu.org/hashicorp/aws\"].west"},
            {"mode": "data", "type": "terraform_remote_state", "name": "c",
             "provider": "provider[\"terraform.io/builtin/terraform\"]"}
        ]}"#;
        let got: Vec<String> = state_providers(state)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            got,
            [
                "registry.opentofu.org/hashicorp/aws",
                "registry.opentofu.org/hashicorp/null",
                "terraform.io/builtin/terraform"
            ]
        );
        assert!(state_providers("").unwrap().is_empty());
        assert!(state_providers("{").is_err());
    }
}
