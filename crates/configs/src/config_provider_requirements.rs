//! The providers a whole configuration needs (OpenTofu's
//! `Config.ProviderRequirements` and `ProviderRequirementsByModule`):
//! every module's `required_providers`, constraints from different modules
//! on the same provider merged, and the providers implied where nothing
//! declares them: by resource types (the prefix before the first `_`),
//! `import` blocks and `provider` blocks. A module call's `providers` map
//! implies nothing: it only passes configurations of providers the two
//! modules already require (as OpenTofu, and as `terraform providers`
//! shows).
//!
//! Test files add their `provider` blocks, and the modules their runs
//! call, to the root module's requirements.
//!
//! Local names resolve per module: `null` in a child module with no
//! `required_providers` entry is `hashicorp/null` there whatever the root
//! says. The name `terraform` implies the built-in
//! `terraform.io/builtin/terraform`, which needs no installation (see
//! [`depsfile::is_lockable`]).
//!
//! One module's `required_providers` block itself is decoded in
//! [`crate::required_providers`]; here its entries become providers
//! ([`required_provider_type`], [`provider_for_local_name`],
//! [`resource_provider`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use addrs::{ModuleSource, Provider};
use depsfile::{Locks, VersionConstraints};
use hclsyntax::{Diagnostic, Diagnostics, Range};

use crate::config::Config;
use crate::module::Module;
use crate::required_providers::RequiredProvider;
use crate::resource::Resource;
use crate::version_constraint::Constraints;

/// Providers and the constraints on their versions. An empty constraint
/// list means any version; a provider absent from the map is not needed.
pub type Requirements = BTreeMap<Provider, VersionConstraints>;

/// The requirements of one module and, separately, of each module it calls
/// (what `tofu providers` prints).
#[derive(Debug, Clone)]
pub struct ModuleRequirements {
    /// The call name (empty for the root module).
    pub name: String,
    pub source_addr: Option<ModuleSource>,
    pub source_dir: PathBuf,
    /// This module's own requirements, children's not included.
    pub requirements: Requirements,
    /// By call name.
    pub children: BTreeMap<String, ModuleRequirements>,
    /// By test file name (relative to the module's directory).
    pub tests: BTreeMap<String, TestFileRequirements>,
}

/// What one test file needs: its own `provider` blocks, and each run's
/// module when the run names one.
#[derive(Debug, Clone, Default)]
pub struct TestFileRequirements {
    pub requirements: Requirements,
    /// By run name.
    pub runs: BTreeMap<String, ModuleRequirements>,
}

/// Which providers are required only implicitly, and by what
/// (`getproviders.ProvidersQualification`): `init` uses it to explain a
/// failed install of a `hashicorp/<name>` provider nobody declared.
#[derive(Debug, Clone, Default)]
pub struct ProvidersQualification {
    /// Providers implied by resources or imports, with where, unless a
    /// `required_providers` entry seen earlier declared them.
    pub implicit: BTreeMap<Provider, Vec<ResourceRef>>,
    /// Providers some `required_providers` entry declares.
    pub explicit: BTreeSet<Provider>,
}

/// A resource (or import target) that implies a provider.
#[derive(Debug, Clone)]
pub struct ResourceRef {
    /// `module.a.aws_instance.b`.
    pub addr: String,
    pub decl_range: Range,
    /// Whether the resource names its provider with a `provider` argument.
    pub provider_attribute: bool,
}

impl ProvidersQualification {
    fn add_implicit(&mut self, provider: Provider, r: ResourceRef) {
        // Declared explicitly already: nothing to explain.
        if !self.explicit.contains(&provider) {
            self.implicit.entry(provider).or_default().push(r);
        }
    }
}

impl Config {
    /// Every provider this module and its descendants need.
    pub fn provider_requirements(&self) -> (Requirements, Diagnostics) {
        let (reqs, _, diags) = self.provider_requirements_qualified();
        (reqs, diags)
    }

    /// [`provider_requirements`](Self::provider_requirements) with which
    /// providers were only implied, and by what.
    pub fn provider_requirements_qualified(
        &self,
    ) -> (Requirements, ProvidersQualification, Diagnostics) {
        let mut reqs = Requirements::new();
        let mut qualifs = ProvidersQualification::default();
        let diags = self.add_provider_requirements(&mut reqs, &mut qualifs, true, true);
        (reqs, qualifs, diags)
    }

    /// The providers this module itself needs (its test files' provider
    /// blocks included), descendants left out.
    pub fn provider_requirements_shallow(&self) -> (Requirements, Diagnostics) {
        let mut reqs = Requirements::new();
        let mut qualifs = ProvidersQualification::default();
        let diags = self.add_provider_requirements(&mut reqs, &mut qualifs, false, true);
        (reqs, diags)
    }

    /// `VerifyDependencySelections`: whether the lock file selects, for
    /// every provider the configuration needs, a version its constraints
    /// allow. One message per problem, sorted; empty when all is well.
    /// Built-in providers and providers the locks mark overridden are
    /// skipped.
    pub fn verify_dependency_selections(&self, locks: &Locks) -> Vec<String> {
        let mut errs = Vec::new();
        let (reqs, diags) = self.provider_requirements();
        if hclsyntax::has_errors(&diags) {
            errs.push(format!(
                "failed to determine the configuration's provider requirements: {}",
                go_hcl_errors(&diags)
            ));
        }
        for (provider, constraints) in &reqs {
            if !depsfile::is_lockable(provider) || locks.provider_is_overridden(provider) {
                continue;
            }
            let Some(lock) = locks.provider(provider) else {
                errs.push(format!(
                    "provider {provider}: required by this configuration but no version is selected"
                ));
                continue;
            };
            if constraints.allowed(&lock.version) {
                continue;
            }
            // A changed constraint is the likely cause; otherwise the lock
            // file itself records a selection its constraints reject.
            let current = constraints.to_string();
            let locked = lock.constraints.to_string();
            errs.push(if current != locked {
                format!(
                    "provider {provider}: locked version selection {} doesn't match the updated version constraints {}",
                    lock.version,
                    addrs::go_quote(&current)
                )
            } else {
                format!(
                    "provider {provider}: version constraints {} don't match the locked version selection {}",
                    addrs::go_quote(&current),
                    lock.version
                )
            });
        }
        errs.sort();
        errs
    }

    /// The requirements as a tree following the module tree.
    pub fn provider_requirements_by_module(&self) -> (ModuleRequirements, Diagnostics) {
        let mut requirements = Requirements::new();
        let mut qualifs = ProvidersQualification::default();
        let mut diags =
            self.add_provider_requirements(&mut requirements, &mut qualifs, false, false);
        let mut children = BTreeMap::new();
        for (name, child) in &self.children {
            let (mut reqs, more) = child.provider_requirements_by_module();
            reqs.name = name.clone();
            diags.extend(more);
            children.insert(name.clone(), reqs);
        }
        let mut tests = BTreeMap::new();
        for (name, file) in self.module.tests.iter().flatten() {
            let mut test_reqs = TestFileRequirements::default();
            for pc in file.providers.values() {
                self.add_provider_block(&mut test_reqs.requirements, pc, &mut diags);
            }
            for run in &file.runs {
                let Some(under_test) = &run.config_under_test else {
                    continue;
                };
                let (mut reqs, more) = under_test.provider_requirements_by_module();
                reqs.name = run.name.clone();
                diags.extend(more);
                test_reqs.runs.insert(run.name.clone(), reqs);
            }
            tests.insert(name.clone(), test_reqs);
        }
        let reqs = ModuleRequirements {
            name: String::new(),
            source_addr: self.source_addr.clone(),
            source_dir: self.module.source_dir.clone(),
            requirements,
            children,
            tests,
        };
        (reqs, diags)
    }

    /// `addProviderRequirements`: `recurse` takes in the descendants,
    /// `tests` the test files' provider blocks (and, with `recurse`, the
    /// modules their runs call).
    fn add_provider_requirements(
        &self,
        reqs: &mut Requirements,
        qualifs: &mut ProvidersQualification,
        recurse: bool,
        tests: bool,
    ) -> Diagnostics {
        let module = &self.module;
        let mut diags = Diagnostics::new();

        if let Some(rps) = &module.provider_requirements {
            for rp in rps.required_providers.values() {
                let provider = required_provider_type(rp);
                let entry = reqs.entry(provider.clone()).or_default();
                let constraints = &rp.requirement.required;
                add_constraints(entry, constraints, &rp.requirement.decl_range, &mut diags);
                qualifs.explicit.insert(provider);
            }
        }

        // Each resource implies a dependency on its provider, needing no
        // particular version.
        let module_prefix: String = self.path.0.iter().map(|m| format!("module.{m}.")).collect();
        for r in module.all_resources() {
            if let Some(p) = resource_provider(module, r) {
                let rref = ResourceRef {
                    addr: format!("{module_prefix}{}", r.addr()),
                    decl_range: r.decl_range.clone(),
                    provider_attribute: r.provider_config_ref.is_some(),
                };
                qualifs.add_implicit(p.clone(), rref);
                reqs.entry(p).or_default();
            }
        }

        for imp in &module.imports {
            diags.extend(import_requirements(module, imp, reqs, qualifs));
        }

        for pc in module.provider_configs.values() {
            self.add_provider_block(reqs, pc, &mut diags);
        }

        if tests {
            for file in module.tests.iter().flat_map(|t| t.values()) {
                for pc in file.providers.values() {
                    self.add_provider_block(reqs, pc, &mut diags);
                }
                if !recurse {
                    continue;
                }
                for run in &file.runs {
                    if let Some(under_test) = &run.config_under_test {
                        diags.extend(
                            under_test.add_provider_requirements(reqs, qualifs, true, false),
                        );
                    }
                }
            }
        }

        if recurse {
            for child in self.children.values() {
                diags.extend(child.add_provider_requirements(reqs, qualifs, true, false));
            }
        }
        diags
    }

    /// A provider block implies its provider (named by this module's local
    /// names), and may still carry the deprecated in-block version
    /// constraint.
    fn add_provider_block(
        &self,
        reqs: &mut Requirements,
        pc: &crate::provider::Provider,
        diags: &mut Diagnostics,
    ) {
        let entry = reqs
            .entry(provider_for_local_name(&self.module, &pc.name))
            .or_default();
        if let Some(v) = &pc.version {
            add_constraints(entry, &v.required, &v.decl_range, diags);
        }
    }
}

/// Converts a module's constraints (go-version syntax) into provider
/// constraints (go-versions' Ruby-style syntax). The two parsers do not
/// agree on everything (`~> 1.2.3.4`, `v1.0`), so this can fail where
/// decoding succeeded.
fn add_constraints(
    entry: &mut VersionConstraints,
    constraints: &Constraints,
    decl_range: &Range,
    diags: &mut Diagnostics,
) {
    if constraints.is_empty() {
        return;
    }
    match VersionConstraints::parse(&constraints.to_string()) {
        Ok(c) => entry.extend(&c),
        Err(e) => diags.push(Diagnostic::error(
            "Invalid version constraint",
            format!("Incorrect version constraint syntax: {e}."),
            decl_range.clone(),
        )),
    }
}

/// The provider a `required_providers` entry names: its `source`, or for
/// an entry without one the provider its local name implies.
pub fn required_provider_type(rp: &RequiredProvider) -> Provider {
    rp.source
        .as_deref()
        .and_then(|s| addrs::parse_provider_source_string(s).ok())
        .unwrap_or_else(|| Provider::implied_for_unqualified_type(&rp.name))
}

/// `Module.ImpliedProviderForUnqualifiedType`: the provider a local name
/// means in `module`: its `required_providers` entry, else the default.
pub fn provider_for_local_name(module: &Module, local_name: &str) -> Provider {
    module
        .provider_requirements
        .as_ref()
        .and_then(|r| r.required_providers.get(local_name))
        .map(required_provider_type)
        .unwrap_or_else(|| Provider::implied_for_unqualified_type(local_name))
}

/// The inverse of [`provider_for_local_name`]: the name `module` gives
/// `provider` (its `required_providers` entry, else the provider's type).
pub fn local_name_for_provider(module: &Module, provider: &Provider) -> String {
    module
        .provider_requirements
        .as_ref()
        .and_then(|r| {
            r.required_providers
                .values()
                .find(|rp| &required_provider_type(rp) == provider)
        })
        .map(|rp| rp.name.clone())
        .unwrap_or_else(|| provider.type_name.clone())
}

/// The provider a resource belongs to: the one its `provider` argument
/// names, else the one its type's prefix implies. `None` when the prefix is
/// not a valid provider name (the resource's own diagnostics say why).
pub fn resource_provider(module: &Module, r: &Resource) -> Option<Provider> {
    match &r.provider_config_ref {
        Some(pref) => Some(provider_for_local_name(module, &pref.name)),
        None => implied_provider(module, r.implied_provider()),
    }
}

fn implied_provider(module: &Module, prefix: &str) -> Option<Provider> {
    let name = addrs::parse_provider_part(prefix).ok()?;
    Some(provider_for_local_name(module, &name))
}

/// An import block's provider, and OpenTofu's check that an import into a
/// root-module resource names the same provider configuration as the
/// resource does.
fn import_requirements(
    module: &Module,
    imp: &crate::import::Import,
    reqs: &mut Requirements,
    qualifs: &mut ProvidersQualification,
) -> Diagnostics {
    let Some(target) = &imp.static_to else {
        return Diagnostics::new();
    };
    let provider = match &imp.provider_config_ref {
        Some(pref) => Some(provider_for_local_name(module, &pref.name)),
        None => {
            let ty = &target.type_name;
            let prefix = ty.find('_').map_or(ty.as_str(), |i| &ty[..i]);
            implied_provider(module, prefix)
        }
    };
    if let Some(p) = provider.filter(|p| !reqs.contains_key(p)) {
        let rref = ResourceRef {
            addr: target.display(),
            decl_range: imp.decl_range.clone(),
            provider_attribute: false,
        };
        qualifs.add_implicit(p.clone(), rref);
        reqs.insert(p, VersionConstraints::default());
    }
    // Imports into modules take their providers from the module call.
    if !target.module.is_empty() {
        return Diagnostics::new();
    }
    let (Some(iref), Some(resource)) = (
        &imp.provider_config_ref,
        module.resource(&target.resource()),
    ) else {
        return Diagnostics::new();
    };
    let subject = imp
        .provider_decl_range
        .clone()
        .unwrap_or_else(|| imp.decl_range.clone());
    let detail = match &resource.provider_config_ref {
        None => "The provider argument in the target resource block must be specified and match the import block.",
        Some(rref) if rref.name != iref.name || rref.alias != iref.alias => {
            "The provider argument in the target resource block must match the import block."
        }
        Some(_) => return Diagnostics::new(),
    };
    vec![Diagnostic::error(
        "Invalid import provider argument",
        detail,
        subject,
    )]
}

/// Diagnostics as Go's `hcl.Diagnostics.Error()` prints them: the first,
/// and how many more.
fn go_hcl_errors(diags: &Diagnostics) -> String {
    let Some(first) = diags.first() else {
        return "no diagnostics".into();
    };
    let subject = first
        .subject
        .as_ref()
        .map_or_else(|| "<nil>".to_string(), ToString::to_string);
    let text = format!("{subject}: {}; {}", first.summary, first.detail);
    match diags.len() {
        1 => text,
        n => format!("{text}, and {} other diagnostic(s)", n - 1),
    }
}

#[cfg(test)]
#[path = "config_provider_requirements_tests.rs"]
mod tests;
