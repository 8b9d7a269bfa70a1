//! The schema of OpenTofu's built-in provider `terraform.io/builtin/terraform`
//! (`internal/builtin/providers/tf`): the `terraform_data` resource, the
//! `terraform_remote_state` data source and the `provider::terraform::`
//! functions, as OpenTofu's `providers schema -json` prints them (the same
//! as terraform's but for OpenTofu's words in one description and its
//! functions' texts and shape).
//!
//! tofu-rs runs no plugin for this provider: what validate and plan-lite do
//! with its resources is in `resources/terraform_data.rs`, which takes the
//! resource's type from here; the schema document prints this.

use std::sync::{Arc, OnceLock};

use configschema::ProviderSchema;

/// The schema document's entry, as OpenTofu prints it.
const DOCUMENT_ENTRY: &str = include_str!("builtin_provider.json");

/// The built-in provider's schema, decoded once.
pub fn terraform_provider_schema() -> Arc<ProviderSchema> {
    static SCHEMA: OnceLock<Arc<ProviderSchema>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            Arc::new(
                configschema::json::decode_provider(DOCUMENT_ENTRY)
                    .expect("the built-in provider's schema is a valid document entry"),
            )
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_is_written_back_as_opentofu_prints_it() {
        let schema = terraform_provider_schema();
        assert_eq!(
            configschema::json::encode_provider(&schema),
            DOCUMENT_ENTRY.trim_end()
        );
        assert!(schema.resources.contains_key("terraform_data"));
        assert!(schema.data_sources.contains_key("terraform_remote_state"));
    }
}
