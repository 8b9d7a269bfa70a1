//! The object a provider's diagnostic is about: OpenTofu places what a
//! `Validate*` call returns with `InConfigBody(body, addr)`, which also
//! names the resource (`aws_instance.web`, `ephemeral.x.y`) or provider
//! configuration (`provider["registry.opentofu.org/hashicorp/aws"]`) it
//! came from: the `with ADDRESS,` line and the JSON `address`. The walk's
//! HCL diagnostics carry no address, so the walk records each such
//! diagnostic here and the addresses are attached when its diagnostics
//! become `tfdiags` ones, as [`super::expression_values`] does for values.

use std::collections::HashMap;
use std::sync::Mutex;

use hclsyntax::{Diagnostic, Range};

/// Summary, detail and subject: a provider's diagnostic about one object.
type Key = (String, String, Option<Range>);

/// The addresses recorded during a walk, by diagnostic.
#[derive(Default)]
pub struct AddressSink {
    recorded: Mutex<HashMap<Key, String>>,
}

impl AddressSink {
    /// Records that `diag` is about the object at `address`.
    pub fn record(&self, diag: &Diagnostic, address: &str) {
        let key = (
            diag.summary.clone(),
            diag.detail.clone(),
            diag.subject.clone(),
        );
        self.lock().insert(key, address.to_owned());
    }

    /// `diags` with the recorded addresses attached.
    pub fn attach(&self, diags: tfdiags::Diagnostics) -> tfdiags::Diagnostics {
        let recorded = std::mem::take(&mut *self.lock());
        if recorded.is_empty() {
            return diags;
        }
        diags
            .into_iter()
            .map(|diag| {
                let key = (
                    diag.summary.clone(),
                    diag.detail.clone(),
                    diag.subject.clone(),
                );
                match recorded.get(&key) {
                    Some(address) if diag.address.is_none() => diag.with_address(address.clone()),
                    _ => diag,
                }
            })
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, String>> {
        // A panic while holding the lock leaves only addresses behind.
        self.recorded.lock().unwrap_or_else(|e| e.into_inner())
    }
}
