//! Addresses of OpenTofu objects (`internal/addrs`): module sources,
//! references between objects, module and resource paths, providers.
//!
//! Knows only strings and HCL traversals; knows nothing of values, files
//! or evaluation.

mod abs_resource;
mod getter;
mod gourl;
mod hostname;
mod identifier;
mod instance_key;
mod module_path;
mod module_source;
mod parse_ref;
mod provider;
mod provider_config;
mod referenceable;
#[cfg(test)]
mod test_traversal;

pub use abs_resource::{AbsResource, AbsResourceInstance, ConfigResource};
pub use getter::{archive_format, clean_path, relative_path, split_package_subdir, DetectError};
pub use gourl::go_quote;
pub use hostname::Hostname;
pub use identifier::valid_identifier;
pub use instance_key::{hcl_quoted_string, InstanceKey};
pub use module_path::{Module, ModuleInstance, ModuleInstanceStep};
pub use module_source::{
    is_module_source_local, parse_module_source, parse_module_source_registry,
    parse_module_source_remote, ModuleRegistryPackage, ModuleSource, ModuleSourceError,
    DEFAULT_MODULE_REGISTRY_HOST,
};
pub use parse_ref::{parse_ref, parse_ref_from_testing_scope, Reference};
pub use provider::{
    is_provider_part_normalized, parse_provider_part, parse_provider_source_string, Provider,
    BUILT_IN_PROVIDER_HOST, BUILT_IN_PROVIDER_NAMESPACE, DEFAULT_PROVIDER_REGISTRY_HOST,
    LEGACY_PROVIDER_NAMESPACE, TRANSITIONAL_BUILT_IN_PROVIDER_HOST,
};
pub use provider_config::{
    parse_provider_config_ref, AbsProviderConfig, LocalProviderConfig, ProviderConfigRef,
};
pub use referenceable::{
    Check, CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, ModuleCallInstance,
    ModuleCallInstanceOutput, OutputValue, PathAttr, Referenceable, Resource, ResourceInstance,
    ResourceMode, TerraformAttr,
};
