//! Provider checks for test files (`validateProviderConfigsForTests`, with
//! the type resolution of `resolveProviderTypesForTests`): the providers a
//! test file configures, and those a run block passes, must be of the
//! types the configuration under test gives those names.

use std::collections::{BTreeMap, BTreeSet};

use addrs::Provider;
use hclsyntax::{Diagnostic, Diagnostics};

use crate::config::Config;
use crate::config_provider_requirements::required_provider_type;
use crate::provider_validation::{provider_types, validate_module, ParentCall};
use crate::test_file::TestFile;

/// The provider types of one test file: those of its provider blocks (by
/// local name; aliases share their name's type), and, for each run, the
/// child and parent types of each entry of its `providers`.
struct TestTypes {
    providers: BTreeMap<String, Provider>,
    runs: Vec<Vec<(Provider, Provider)>>,
}

/// `resolveProviderTypesForTests` for one file. Runs claim test provider
/// names in order: a run passing providers explicitly types the parent
/// side from the child side, other runs type the test providers named
/// like the providers of the configuration they run.
fn resolve_test_types(root: &Config, test: &TestFile) -> TestTypes {
    let names: BTreeSet<&str> = test.providers.values().map(|p| p.name.as_str()).collect();
    let root_types = provider_types(&root.module);
    let mut matched: BTreeMap<String, Provider> = BTreeMap::new();
    let mut runs = Vec::new();
    for run in &test.runs {
        let types = match &run.config_under_test {
            Some(c) => provider_types(&c.module),
            None => root_types.clone(),
        };
        let mut passed = Vec::new();
        if run.providers.is_empty() {
            for (name, ty) in &types {
                if !matched.contains_key(name) && names.contains(name.as_str()) {
                    matched.insert(name.clone(), ty.clone());
                }
            }
        } else {
            for p in &run.providers {
                let child = types
                    .get(&p.in_child.name)
                    .cloned()
                    .unwrap_or_else(|| Provider::default_for(&p.in_child.name));
                let parent = match matched.get(&p.in_parent.name) {
                    Some(t) => t.clone(),
                    None => {
                        if names.contains(p.in_parent.name.as_str()) {
                            matched.insert(p.in_parent.name.clone(), child.clone());
                        }
                        child.clone()
                    }
                };
                passed.push((child, parent));
            }
        }
        runs.push(passed);
    }
    for name in names {
        matched
            .entry(name.to_string())
            .or_insert_with(|| Provider::default_for(name));
    }
    TestTypes {
        providers: matched,
        runs,
    }
}

/// The same types when resolution was skipped (building the tree gave
/// errors): every reference has its name's default provider.
fn default_test_types(test: &TestFile) -> TestTypes {
    TestTypes {
        providers: test
            .providers
            .values()
            .map(|p| (p.name.clone(), Provider::default_for(&p.name)))
            .collect(),
        runs: test
            .runs
            .iter()
            .map(|r| {
                r.providers
                    .iter()
                    .map(|p| {
                        (
                            Provider::default_for(&p.in_child.name),
                            Provider::default_for(&p.in_parent.name),
                        )
                    })
                    .collect()
            })
            .collect(),
    }
}

fn quoted(p: &Provider) -> String {
    addrs::go_quote(&p.to_string())
}

/// `validateProviderConfigsForTests` for the test files of the root
/// configuration `cfg`.
pub(crate) fn validate_provider_configs_for_tests(cfg: &Config, resolved: bool) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let Some(tests) = &cfg.module.tests else {
        return diags;
    };
    let root_types = provider_types(&cfg.module);
    for (name, test) in tests {
        let types = if resolved {
            resolve_test_types(cfg, test)
        } else {
            default_test_types(test)
        };
        let test_type = |p: &crate::provider::Provider| -> Provider {
            types
                .providers
                .get(&p.name)
                .cloned()
                .unwrap_or_else(|| Provider::default_for(&p.name))
        };
        for (run, passed_types) in test.runs.iter().zip(&types.runs) {
            if let Some(under_test) = &run.config_under_test {
                // The run's module acts as a root module, so only the
                // checks of its own calls and resources apply; what the
                // run passes it is never consulted.
                let decl_range = run
                    .module
                    .as_ref()
                    .map(|m| &m.decl_range)
                    .unwrap_or(&run.decl_range);
                let call = ParentCall {
                    name: &run.name,
                    decl_range,
                    providers: Vec::new(),
                };
                validate_module(Some(&call), under_test, None, None, resolved, &mut diags);
                continue;
            }

            if !run.providers.is_empty() {
                // Only the types of what the run passes need to agree.
                for (p, (child, parent)) in run.providers.iter().zip(passed_types) {
                    if child != parent {
                        diags.push(Diagnostic::error(
                            "Provider type mismatch",
                            format!(
                                "The local name {} in {name} represents provider {}, but {} in the root module represents {}.\n\nThis means the provider definition for {} within {name}, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.",
                                addrs::go_quote(&p.in_parent.name),
                                quoted(parent),
                                addrs::go_quote(&p.in_child.name),
                                quoted(child),
                                addrs::go_quote(&p.in_parent.name)
                            ),
                            p.in_parent.name_range.clone(),
                        ));
                    }
                }
                continue;
            }

            // The test file's providers must have the types the
            // configuration under test requires for their names.
            let requirements = cfg
                .module
                .provider_requirements
                .iter()
                .flat_map(|r| r.required_providers.values());
            for req in requirements {
                let req_ty = required_provider_type(req);
                let default = addrs::LocalProviderConfig {
                    local_name: req.name.clone(),
                    alias: String::new(),
                };
                let keys = std::iter::once(default).chain(req.aliases.iter().cloned());
                for key in keys {
                    let Some(provider) = test.providers.get(&key) else {
                        continue;
                    };
                    let shown = key.string_compact();
                    let ty = test_type(provider);
                    if ty != req_ty {
                        let unique = provider.addr().string_compact();
                        diags.push(Diagnostic::error(
                            "Provider type mismatch",
                            format!(
                                "The provider {} in {name} represents provider {}, but {} in the root module represents {}.\n\nThis means the provider definition for {} within {name}, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types.",
                                addrs::go_quote(&unique),
                                quoted(&ty),
                                addrs::go_quote(&shown),
                                quoted(&req_ty),
                                addrs::go_quote(&unique)
                            ),
                            provider.decl_range.clone(),
                        ));
                    }
                }
            }
            for pc in cfg.module.provider_configs.values() {
                let pc_ty = if resolved {
                    root_types
                        .get(&pc.name)
                        .cloned()
                        .unwrap_or_else(|| Provider::default_for(&pc.name))
                } else {
                    Provider::default_for(&pc.name)
                };
                let key = pc.addr();
                let Some(tp) = test.providers.get(&key) else {
                    continue;
                };
                let ty = test_type(tp);
                if ty != pc_ty {
                    let unique = tp.addr().string_compact();
                    diags.push(Diagnostic::error(
                        "Provider type mismatch",
                        format!(
                            "The provider {} in {name} represents provider {}, but {} in the root module represents {}.\n\nThis means the provider definition for {} within {name} has been referenced by multiple run blocks and assigned to different provider types.",
                            addrs::go_quote(&unique),
                            quoted(&ty),
                            addrs::go_quote(&key.string_compact()),
                            quoted(&pc_ty),
                            addrs::go_quote(&unique)
                        ),
                        tp.decl_range.clone(),
                    ));
                }
            }
        }
    }
    diags
}
