//! Ephemeral values where they may not go: OpenTofu's
//! `validEphemeralReferences` (`internal/lang/eval.go`), run on every
//! decoded block. Outside ephemeral contexts (ephemeral resources and
//! provider configurations, whose schemas OpenTofu marks `Ephemeral`), only
//! write-only attributes may hold an ephemeral value.

use cty::{Mark, Value};

use crate::schemas::{ProviderDiagnostic, ProviderSeverity};

/// One diagnostic per ephemeral value found outside a write-only
/// attribute, with the attribute's path (to be placed by
/// [`super::in_config_body`]).
pub fn ephemeral_outside_write_only(
    schema: &configschema::Block,
    val: &Value,
) -> Vec<ProviderDiagnostic> {
    if !val.contains_marked() {
        return Vec::new();
    }
    let (_, marks) = val.unmark_deep_with_paths();
    let mut out = Vec::new();
    for pm in marks {
        if !pm.marks.contains(&Mark::Ephemeral) {
            continue;
        }
        // A dynamically-typed attribute's value may go deeper than the
        // schema: the nearest ancestor the schema has decides.
        let mut path = pm.path.clone();
        let mut attr = schema.attribute_by_path(&path);
        while attr.is_none() && !path.0.is_empty() {
            path.0.pop();
            attr = schema.attribute_by_path(&path);
        }
        if attr.is_some_and(|a| a.write_only) {
            continue;
        }
        let shown = if attr.is_some() { path } else { pm.path };
        out.push(ProviderDiagnostic {
            severity: ProviderSeverity::Error,
            summary: "Ephemeral value used in non-ephemeral context".into(),
            detail: format!(
                "Attribute {} is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.",
                addrs::go_quote(&shown.to_string())
            ),
            attribute: Some(shown),
        });
    }
    out
}
