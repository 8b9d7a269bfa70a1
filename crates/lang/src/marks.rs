//! The marks OpenTofu puts on values (`internal/lang/marks`) and helpers
//! to ask about them. The marks themselves are cty's [`cty::Mark`].

use cty::{Mark, Value};

/// Values derived from sensitive input.
pub const SENSITIVE: Mark = Mark::Sensitive;

/// Values from ephemeral sources, never persisted.
pub const EPHEMERAL: Mark = Mark::Ephemeral;

/// Whether `v` carries `mark` itself (not inside).
pub fn has(v: &Value, mark: &Mark) -> bool {
    v.has_mark(mark)
}

/// Whether `v` or anything inside it carries `mark`.
pub fn contains(v: &Value, mark: &Mark) -> bool {
    let (_, marks) = v.unmark_deep();
    marks.contains(mark)
}

/// Whether `v` or anything inside it is sensitive.
pub fn contains_sensitive(v: &Value) -> bool {
    contains(v, &SENSITIVE)
}

/// Whether `v` or anything inside it carries a deprecation mark.
pub fn contains_deprecated(v: &Value) -> bool {
    let (_, marks) = v.unmark_deep();
    marks.iter().any(|m| matches!(m, Mark::Deprecated(_)))
}
