//! OpenTofu configuration: the files of a directory decoded into a
//! [`module::Module`] (variables, locals, outputs, module calls, resources,
//! providers, backend, encryption, ...), with OpenTofu's file-name rules,
//! override merging and decode diagnostics.
//!
//! Knows files and blocks; evaluates only what decoding needs: constants,
//! and the static ("early") evaluation of [`static_eval`].

pub mod backend;
pub mod check_rule;
pub mod checks;
pub mod cloud;
pub mod compat_shim;
pub mod config;
pub mod config_build;
pub mod config_file;
pub mod config_provider_requirements;
pub mod decode_value;
pub mod depends_on;
pub mod encryption;
pub mod file_names;
pub mod import;
pub mod language;
pub mod local_addrs;
pub mod merged_body;
pub mod module;
pub mod module_call;
pub mod module_dir_cache;
pub mod moved;
pub mod named_values;
pub mod parser;
pub mod provider;
pub mod provider_ref;
pub mod provider_validation;
pub mod provisioner;
pub mod removed;
pub mod required_providers;
pub mod resource;
mod resource_lifecycle;
pub mod roots;
pub mod static_eval;
pub mod test_file;
mod test_file_mocks;
mod test_provider_validation;
#[cfg(test)]
mod test_support;
pub mod type_expr;
pub mod version_constraint;
