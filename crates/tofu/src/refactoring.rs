//! What OpenTofu checks of `import` and `removed` blocks before it plans
//! (`Context.plan`: `validateImportTargets`, then
//! `refactoring.FindRemoveStatements`): an import needs the managed
//! resource it imports into, and a removed block's object must no longer be
//! declared. Each step's errors stop the plan. After the plan walk,
//! `moved` blocks are checked against the instances it declared
//! (`ValidateMoves`).

use addrs::{InstanceKey, ModuleInstance};
use configs::config::Config;
use configs::local_addrs::{InstanceKey as LocalKey, ModuleStep, TargetAddr};
use configs::resource::ResourceMode;
use hclsyntax::{Diagnostic, Diagnostics, Range};

use crate::walk::State;

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

/// `ValidateMoves`' first two rules, after the plan walk (`state` holds the
/// instances it declared): for every instance of the module declaring a
/// `moved` block, a move to the same address is "Redundant move
/// statement", and a `from` object that is still declared is "Moved object
/// still exists", blamed on its block (or, for an instance, on the `count`
/// or `for_each` that declares it).
pub fn moved_objects_still_declared(root: &Config, state: &State) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for cfg in root.all() {
        let Some(instances) = state.instances.get(&cfg.path) else {
            continue;
        };
        for moved in &cfg.module.moved {
            let (Some(from), Some(to)) = (&moved.from, &moved.to) else {
                continue;
            };
            for info in instances {
                let abs_from = absolute(&info.addr, from);
                let abs_to = absolute(&info.addr, to);
                if abs_from == abs_to {
                    diags.push(Diagnostic::error(
                        "Redundant move statement",
                        format!("This statement declares a move from {abs_from} to the same address, which is the same as not declaring this move at all."),
                        moved.decl_range.clone(),
                    ));
                    continue;
                }
                let Some((noun, short, at)) = still_declared(root, state, &info.addr, from) else {
                    continue;
                };
                diags.push(Diagnostic::error(
                    "Moved object still exists",
                    format!(
                        "This statement declares a move from {abs_from}, but that {noun} is still declared at {}:{},{}.\n\nChange your configuration so that this {short} will be declared as {abs_to} instead.",
                        at.filename, at.start.line, at.start.column
                    ),
                    moved.decl_range.clone(),
                ));
            }
        }
    }
    diags
}

/// The module instance `steps` lead to from `base`.
fn module_instance(base: &ModuleInstance, steps: &[ModuleStep]) -> ModuleInstance {
    steps
        .iter()
        .fold(base.clone(), |m, s| m.child(&s.name, instance_key(&s.key)))
}

fn instance_key(key: &LocalKey) -> InstanceKey {
    match key {
        LocalKey::None => InstanceKey::None,
        LocalKey::Int(i) => InstanceKey::Int(*i),
        LocalKey::Str(s) => InstanceKey::String(s.clone()),
    }
}

/// An endpoint made absolute in module instance `base`, as OpenTofu
/// prints it.
fn absolute(base: &ModuleInstance, endpoint: &TargetAddr) -> String {
    match endpoint {
        TargetAddr::Resource(r) => addrs::AbsResource {
            module: module_instance(base, &r.module),
            resource: r.resource(),
        }
        .instance(instance_key(&r.key))
        .to_string(),
        TargetAddr::Module(steps) => module_instance(base, steps).to_string(),
    }
}

/// Whether `from` (relative to `base`) is still declared: its noun, short
/// noun and where it is declared (`moveableObjectExists`,
/// `movableObjectDeclRange`).
fn still_declared(
    root: &Config,
    state: &State,
    base: &ModuleInstance,
    from: &TargetAddr,
) -> Option<(&'static str, &'static str, Range)> {
    match from {
        TargetAddr::Resource(r) => {
            let module = module_instance(base, &r.module);
            let declared = state.modules.get(&module)?.resources.get(&r.resource())?;
            let cfg = root.descendant(&module.module().0)?;
            let rc = cfg.module.resource(&r.resource())?;
            let key = instance_key(&r.key);
            if key == InstanceKey::None {
                return Some(("resource", "resource", rc.decl_range.clone()));
            }
            if !declared.instances.contains_key(&key) {
                return None;
            }
            let at = rc
                .for_each
                .as_ref()
                .or(rc.count.as_ref())
                .map(|e| e.range.clone())
                .unwrap_or_else(|| rc.decl_range.clone());
            Some(("resource instance", "instance", at))
        }
        TargetAddr::Module(steps) => {
            let (last, parents) = steps.split_last()?;
            let parent = module_instance(base, parents);
            let calls = &state.modules.get(&parent)?.calls;
            let call_state = calls.get(&last.name)?;
            let cfg = root.descendant(&parent.module().0)?;
            let call = cfg.module.module_calls.get(&last.name)?;
            let key = instance_key(&last.key);
            if key == InstanceKey::None && call.count.is_none() && call.for_each.is_none() {
                return Some(("module instance", "instance", call.decl_range.clone()));
            }
            if key == InstanceKey::None {
                return Some(("module call", "module call", call.decl_range.clone()));
            }
            if !call_state.keys.contains(&key) {
                return None;
            }
            let at = call
                .for_each
                .as_ref()
                .or(call.count.as_ref())
                .map(|e| e.range.clone())
                .unwrap_or_else(|| call.decl_range.clone());
            Some(("module instance", "instance", at))
        }
    }
}
