//! What OpenTofu checks of `import` and `removed` blocks before it plans
//! (`Context.plan`: `validateImportTargets`, then
//! `refactoring.FindRemoveStatements`): an import needs the managed
//! resource it imports into, and a removed block's object must no longer be
//! declared. Each step's errors stop the plan. After the plan walk,
//! `moved` blocks are checked against the instances it declared
//! (`ValidateMoves`).

use addrs::{InstanceKey, ModuleInstance};
use configs::config::Config;
use configs::local_addrs::{ModuleStep, TargetAddr};
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
        for removed in &cfg.module.removed {
            let Some(from) = &removed.from else {
                continue;
            };
            let (summary, noun, shown, still_declared) = match from {
                TargetAddr::Resource(r) => {
                    let module = under(&cfg.path, &r.module);
                    let declared = root
                        .descendant(&module.0)
                        .is_some_and(|m| m.module.resource(&r.resource()).is_some());
                    let shown = if module.is_root() {
                        r.resource().to_string()
                    } else {
                        format!("{module}.{}", r.resource())
                    };
                    let summary = "Removed resource block still exists";
                    (summary, "resource", shown, declared)
                }
                TargetAddr::Module(steps) => {
                    let module = under(&cfg.path, steps);
                    let declared = root.descendant(&module.0).is_some();
                    let summary = "Removed module block still exists";
                    (summary, "module", module.to_string(), declared)
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

/// The static module `steps` (keys ignored) lead to from `base`.
fn under(base: &addrs::Module, steps: &[ModuleStep]) -> addrs::Module {
    steps.iter().fold(base.clone(), |m, s| m.child(&s.name))
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
            // UnifyMoveEndpoints: a key on either side makes both
            // endpoints instances (a keyless one is the no-key instance).
            let instances_moved = endpoint_key(from).is_some_and(|k| !k.is_none())
                || endpoint_key(to).is_some_and(|k| !k.is_none());
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
                let Some(found) = still_declared(root, state, &info.addr, from, instances_moved)
                else {
                    continue;
                };
                let at = &found.declared_at;
                diags.push(Diagnostic::error(
                    "Moved object still exists",
                    format!(
                        "This statement declares a move from {abs_from}, but that {} is still declared at {}:{},{}.\n\nChange your configuration so that this {} will be declared as {abs_to} instead.",
                        found.noun, at.filename, at.start.line, at.start.column, found.short_noun
                    ),
                    moved.decl_range.clone(),
                ));
            }
        }
    }
    diags
}

/// The instance key an endpoint names: a resource's, or a module path's
/// last step's.
fn endpoint_key(endpoint: &TargetAddr) -> Option<&InstanceKey> {
    match endpoint {
        TargetAddr::Resource(r) => Some(&r.key),
        TargetAddr::Module(steps) => steps.last().map(|s| &s.key),
    }
}

/// The module instance `steps` lead to from `base`.
fn module_instance(base: &ModuleInstance, steps: &[ModuleStep]) -> ModuleInstance {
    steps
        .iter()
        .fold(base.clone(), |m, s| m.child(&s.name, s.key.clone()))
}

/// An endpoint made absolute in module instance `base`, as OpenTofu
/// prints it (a no-key instance prints as its resource or call).
fn absolute(base: &ModuleInstance, endpoint: &TargetAddr) -> String {
    match endpoint {
        TargetAddr::Resource(r) => addrs::AbsResource {
            module: module_instance(base, &r.module),
            resource: r.resource(),
        }
        .instance(r.key.clone())
        .to_string(),
        TargetAddr::Module(steps) => module_instance(base, steps).to_string(),
    }
}

/// A moved object the configuration still declares: how OpenTofu names it
/// (`Noun`, `ShortNoun`) and the range it blames (`movableObjectDeclRange`).
struct StillDeclared {
    noun: &'static str,
    short_noun: &'static str,
    declared_at: Range,
}

/// Whether `from` (relative to `base`) is still declared
/// (`moveableObjectExists`): as a whole resource or module call, or, when
/// the move is of instances, as the instance with its key (none included).
fn still_declared(
    root: &Config,
    state: &State,
    base: &ModuleInstance,
    from: &TargetAddr,
    instances_moved: bool,
) -> Option<StillDeclared> {
    // The count or for_each that decides which instances exist is blamed
    // for an instance; the block for the object as a whole.
    let blamed =
        |for_each: &Option<hclsyntax::Expr>, count: &Option<hclsyntax::Expr>, block: &Range| {
            for_each
                .as_ref()
                .or(count.as_ref())
                .map_or_else(|| block.clone(), |e| e.range.clone())
        };
    match from {
        TargetAddr::Resource(r) => {
            let module = module_instance(base, &r.module);
            let planned = state.modules.get(&module)?.resources.get(&r.resource())?;
            let rc = root
                .descendant(&module.module().0)?
                .module
                .resource(&r.resource())?;
            if !instances_moved {
                return Some(StillDeclared {
                    noun: "resource",
                    short_noun: "resource",
                    declared_at: rc.decl_range.clone(),
                });
            }
            planned
                .instances
                .contains_key(&r.key)
                .then(|| StillDeclared {
                    noun: "resource instance",
                    short_noun: "instance",
                    declared_at: blamed(&rc.for_each, &rc.count, &rc.decl_range),
                })
        }
        TargetAddr::Module(steps) => {
            let (last, parents) = steps.split_last()?;
            let parent = module_instance(base, parents);
            let planned = state.modules.get(&parent)?.calls.get(&last.name)?;
            let call = root
                .descendant(&parent.module().0)?
                .module
                .module_calls
                .get(&last.name)?;
            if !instances_moved {
                return Some(StillDeclared {
                    noun: "module call",
                    short_noun: "call",
                    declared_at: call.decl_range.clone(),
                });
            }
            planned.keys.contains(&last.key).then(|| StillDeclared {
                noun: "module instance",
                short_noun: "instance",
                declared_at: blamed(&call.for_each, &call.count, &call.decl_range),
            })
        }
    }
}
