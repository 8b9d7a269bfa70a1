//! Static decoding of the root module's configuration blocks: the backend
//! (or cloud) body, identified `backend.<type>`, which may hold no
//! sensitive or ephemeral value, and encryption key provider and method
//! bodies, identified `encryption.key_provider.<type>.<name>` /
//! `encryption.method.<type>.<name>`, whose marks are dropped (the whole
//! encryption block is treated as sensitive).

use std::collections::BTreeMap;

use cty::{Mark, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics};

use super::evaluator::{has_mark_deep, StaticEvaluator};
use super::identifier::StaticIdentifier;
use crate::backend::Backend;
use crate::encryption::{KeyProviderConfig, MethodConfig};
use crate::merged_body::ConfigBody;

const BACKEND_STORED: &str = "The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply";

impl StaticEvaluator {
    /// `backend.<type>`, declared at the backend block.
    pub fn backend_identifier(&self, backend: &Backend) -> StaticIdentifier {
        self.identifier(
            format!("backend.{}", backend.type_name),
            backend.decl_range.clone(),
        )
    }

    /// Evaluates every argument of a backend (or cloud, see
    /// [`CloudConfig::to_backend_config`](crate::cloud::CloudConfig::to_backend_config))
    /// body. Sensitive or ephemeral values are refused: the configuration
    /// is stored in plain text.
    pub fn decode_backend(&self, backend: &Backend) -> (BTreeMap<String, Value>, Diagnostics) {
        let ident = self.backend_identifier(backend);
        let body = ConfigBody::Single(backend.config.clone());
        let (values, mut diags) = self.evaluate_attributes(&body, &ident);
        if has_errors(&diags) {
            return (values, diags);
        }
        let all = Value::object(values.clone());
        for (mark, word) in [
            (Mark::Sensitive, "sensitive"),
            (Mark::Ephemeral, "ephemeral"),
        ] {
            if has_mark_deep(&all, &mark) {
                diags.push(Diagnostic::error(
                    format!("Backend config contains {word} values"),
                    format!("{BACKEND_STORED} {word} credentials via backend specific environment variables"),
                    backend.decl_range.clone(),
                ));
            }
        }
        (values, diags)
    }

    /// `encryption.key_provider.<type>.<name>`.
    pub fn key_provider_identifier(&self, kp: &KeyProviderConfig) -> StaticIdentifier {
        self.identifier(
            format!("encryption.key_provider.{}.{}", kp.type_name, kp.name),
            kp.decl_range.clone(),
        )
    }

    /// `encryption.method.<type>.<name>`.
    pub fn method_identifier(&self, method: &MethodConfig) -> StaticIdentifier {
        self.identifier(
            format!("encryption.method.{}.{}", method.type_name, method.name),
            method.decl_range.clone(),
        )
    }

    /// Evaluates the arguments of a key provider body (one that refers to
    /// no other key provider; those references are the encryption
    /// builder's to resolve, with [`eval_context`](Self::eval_context)).
    /// Marks are dropped.
    pub fn decode_key_provider(
        &self,
        kp: &KeyProviderConfig,
    ) -> (BTreeMap<String, Value>, Diagnostics) {
        let ident = self.key_provider_identifier(kp);
        let (values, diags) = self.evaluate_attributes(&kp.body, &ident);
        (unmarked(values), diags)
    }

    /// Evaluates the arguments of a method body (see
    /// [`decode_key_provider`](Self::decode_key_provider)).
    pub fn decode_method(&self, method: &MethodConfig) -> (BTreeMap<String, Value>, Diagnostics) {
        let ident = self.method_identifier(method);
        let (values, diags) = self.evaluate_attributes(&method.body, &ident);
        (unmarked(values), diags)
    }
}

fn unmarked(values: BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    values
        .into_iter()
        .map(|(k, v)| (k, v.unmark_deep().0))
        .collect()
}
