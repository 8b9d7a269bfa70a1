//! What OpenTofu checks of `import` and `removed` blocks before it plans
//! (`Context.plan`: `validateImportTargets`, then
//! `refactoring.FindRemoveStatements`): an import needs the managed
//! resource it imports into, and a removed block's object must no longer be
//! declared. Each step's errors stop the plan.

use configs::config::Config;
use configs::local_addrs::TargetAddr;
use configs::resource::ResourceMode;
use hclsyntax::{Diagnostic, Diagnostics};

/// `validateImportTargets` without configuration generation: every root
/// `import` block's target (without instance keys) is a managed resource
/// block of the configuration.
pub fn import_targets(root: &Config) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for imp in &root.module.imports {
        let Some(target) = &imp.static_to else {
            continue;
        };
        let resource = target.resource();
        let declared = root
            .descendant(&target.module)
            .is_some_and(|cfg| cfg.module.resource(&resource).is_some());
        if resource.mode != ResourceMode::Managed || !declared {
            diags.push(Diagnostic::error(
                "Configuration for import target does not exist",
                format!(
                    "The configuration for the given import {} does not exist. All target instances must have an associated configuration to be imported.",
                    target.display()
                ),
                imp.decl_range.clone(),
            ));
        }
    }
    diags
}

/// `validateRemoveStatements`: the object of each `removed` block of every
/// module (its address relative to that module) is no longer declared.
pub fn removed_statements(root: &Config) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for cfg in root.all() {
        let here: Vec<String> = cfg.path.0.clone();
        for removed in &cfg.module.removed {
            let Some(from) = &removed.from else {
                continue;
            };
            let (summary, noun, shown, still_declared) = match from {
                TargetAddr::Resource(r) => {
                    let module: Vec<String> = here
                        .iter()
                        .cloned()
                        .chain(r.module.iter().map(|s| s.name.clone()))
                        .collect();
                    let declared = root
                        .descendant(&module)
                        .is_some_and(|m| m.module.resource(&r.resource()).is_some());
                    let prefix: String = module.iter().map(|m| format!("module.{m}.")).collect();
                    let shown = format!("{prefix}{}", r.resource());
                    (
                        "Removed resource block still exists",
                        "resource",
                        shown,
                        declared,
                    )
                }
                TargetAddr::Module(steps) => {
                    let module: Vec<String> = here
                        .iter()
                        .cloned()
                        .chain(steps.iter().map(|s| s.name.clone()))
                        .collect();
                    let shown = module
                        .iter()
                        .map(|m| format!("module.{m}"))
                        .collect::<Vec<_>>()
                        .join(".");
                    let declared = root.descendant(&module).is_some();
                    (
                        "Removed module block still exists",
                        "module",
                        shown,
                        declared,
                    )
                }
            };
            if still_declared {
                diags.push(Diagnostic::error(
                    summary,
                    format!(
                        "This statement declares a removal of the {noun} {shown}, but this {noun} block still exists in the configuration. Please remove the {noun} block."
                    ),
                    removed.decl_range.clone(),
                ));
            }
        }
    }
    diags
}
