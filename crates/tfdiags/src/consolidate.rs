//! What the human views do to a list before printing it: drop repeated
//! deprecation warnings, filter them by `-deprecation`, and fold similar
//! diagnostics into one (`tfdiags/consolidate_warnings.go`,
//! `views/deprecation_level.go`).
//!
//! JSON outputs list the raw diagnostics and use none of this.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::{DeprecationCause, Diagnostic, Severity};
use crate::diagnostics::Diagnostics;

/// Which module deprecation warnings to show (`-deprecation=module:<level>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeprecationLevel {
    /// Every deprecation warning (the default).
    #[default]
    All,
    /// Only those whose module is reached through local sources alone.
    Local,
    /// No deprecation warning that carries a cause.
    None,
}

impl DeprecationLevel {
    /// Parses the text after `module:`; `all`, empty and anything unknown
    /// mean [`DeprecationLevel::All`].
    pub fn parse(s: &str) -> DeprecationLevel {
        match s {
            "local" => DeprecationLevel::Local,
            "none" => DeprecationLevel::None,
            _ => DeprecationLevel::All,
        }
    }

    /// Whether `diag` survives this level. `is_local` says whether the
    /// cause's module is local (every call from the root to it has a local
    /// source). Diagnostics without a deprecation cause always survive.
    pub fn allows(self, diag: &Diagnostic, is_local: &dyn Fn(&DeprecationCause) -> bool) -> bool {
        let Some(cause) = &diag.extra.deprecation else {
            return true;
        };
        match self {
            DeprecationLevel::All => true,
            DeprecationLevel::None => false,
            DeprecationLevel::Local => is_local(cause),
        }
    }
}

/// Drops every diagnostic whose deprecation cause (module, subject,
/// message) was already seen earlier in the list.
pub fn dedupe_deprecations(diags: Diagnostics) -> Diagnostics {
    let mut seen: HashSet<(String, String, String)> = HashSet::new();
    diags
        .into_iter()
        .filter(|d| match &d.extra.deprecation {
            Some(c) => seen.insert((c.module.clone(), c.subject.clone(), c.message.clone())),
            None => true,
        })
        .collect()
}

/// Keeps the diagnostics `level` allows.
pub fn filter_deprecations(
    diags: Diagnostics,
    level: DeprecationLevel,
    is_local: &dyn Fn(&DeprecationCause) -> bool,
) -> Diagnostics {
    if level == DeprecationLevel::All {
        return diags;
    }
    diags
        .into_iter()
        .filter(|d| level.allows(d, is_local))
        .collect()
}

/// The key diagnostics are grouped by: the summary (plus any extra key);
/// for deprecation warnings also the cause's subject, message and module
/// source (or module path when the source is unknown), so two calls of the
/// same module fold together.
pub fn consolidation_key(diag: &Diagnostic) -> String {
    let mut key = diag.summary.clone();
    if let Some(extra) = &diag.extra.consolidation_key {
        key.push('\0');
        key.push_str(extra);
    }
    if let Some(c) = &diag.extra.deprecation {
        for part in [
            c.subject.as_str(),
            c.message.as_str(),
            c.module_source.as_deref().unwrap_or(&c.module),
        ] {
            key.push('\0');
            key.push_str(part);
        }
    }
    key
}

/// `Diagnostics.Consolidate`: of the diagnostics of `severity` that have a
/// subject, at most `threshold` per key are shown; from the `threshold`-th
/// on, they fold into that one, whose detail gains
/// `(and one more similar warning elsewhere)` /
/// `(and N more similar warnings elsewhere)`. The views call it with a
/// threshold of 1.
pub fn consolidate(diags: Diagnostics, threshold: usize, severity: Severity) -> Diagnostics {
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    let mut stats: HashMap<String, usize> = HashMap::new();
    let mut groups: HashMap<String, usize> = HashMap::new();
    for diag in diags {
        if diag.severity != severity || diag.subject.is_none() || diag.extra.do_not_consolidate {
            out.push(diag);
            continue;
        }
        let key = consolidation_key(&diag);
        if let Some(&leader) = groups.get(&key) {
            out[leader].extra.consolidated.push(diag.subject);
            continue;
        }
        let seen = stats.entry(key.clone()).or_insert(0);
        *seen += 1;
        if *seen == threshold {
            groups.insert(key, out.len());
        }
        out.push(diag);
    }
    for diag in &mut out {
        let extra = diag.extra.consolidated.len();
        if extra == 0 {
            continue;
        }
        let kind = match diag.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let msg = if extra == 1 {
            format!("(and one more similar {kind} elsewhere)")
        } else {
            format!("(and {extra} more similar {kind}s elsewhere)")
        };
        if diag.detail.is_empty() {
            diag.detail = msg;
        } else {
            diag.detail = format!("{}\n\n{}", diag.detail, msg);
        }
    }
    out.into()
}

/// Everything `views.View.Diagnostics` does before printing: sort, drop
/// repeated deprecation causes, filter by `level`, then consolidate
/// warnings (and errors when asked).
pub fn prepare_for_view(
    mut diags: Diagnostics,
    level: DeprecationLevel,
    is_local: &dyn Fn(&DeprecationCause) -> bool,
    consolidate_warnings: bool,
    consolidate_errors: bool,
) -> Diagnostics {
    diags.sort();
    let mut diags = filter_deprecations(dedupe_deprecations(diags), level, is_local);
    if consolidate_warnings {
        diags = consolidate(diags, 1, Severity::Warning);
    }
    if consolidate_errors {
        diags = consolidate(diags, 1, Severity::Error);
    }
    diags
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclsyntax::SourceFile;

    fn cause(module: &str, subject: &str, source: &str) -> DeprecationCause {
        DeprecationCause {
            module: module.into(),
            subject: subject.into(),
            message: "output deprecated".into(),
            module_source: Some(source.into()),
        }
    }

    fn warn(f: &SourceFile, at: usize, c: DeprecationCause) -> Diagnostic {
        Diagnostic::warning(
            "Value derived from a deprecated source",
            format!("This value is derived from {}.{}.", c.module, c.subject),
            f.range(at, at + 1),
        )
        .with_deprecation(c)
    }

    #[test]
    fn same_source_consolidates_and_duplicates_drop() {
        let f = SourceFile::new("main.tf", "0123456789");
        let diags: Diagnostics = vec![
            warn(&f, 5, cause("module.call", "modout1", "./mod1")), // duplicate of the first
            warn(&f, 1, cause("module.call", "modout1", "./mod1")),
            warn(&f, 2, cause("module.call", "modout2", "./mod1")),
            warn(&f, 3, cause("module.second_call", "modout1", "./mod1")),
            warn(&f, 4, cause("module.other", "modout1", "./other")),
        ]
        .into();
        let out = prepare_for_view(diags, DeprecationLevel::All, &|_| true, true, false);
        let details: Vec<&str> = out.iter().map(|d| d.detail.as_str()).collect();
        assert_eq!(
            details,
            [
                "This value is derived from module.call.modout1.\n\n(and one more similar warning elsewhere)",
                "This value is derived from module.call.modout2.",
                "This value is derived from module.other.modout1.",
            ]
        );
    }

    #[test]
    fn plain_warnings_consolidate_by_summary() {
        let f = SourceFile::new("main.tf", "0123456789");
        let mut diags = Diagnostics::new();
        for i in 0..4 {
            diags.push(Diagnostic::warning("Same", "", f.range(i, i + 1)));
        }
        diags.push(Diagnostic::warning_sourceless("Same", ""));
        diags.push(Diagnostic::error("Same", "", f.range(0, 1)));
        let out = consolidate(diags, 1, Severity::Warning);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].detail, "(and 3 more similar warnings elsewhere)");
        assert_eq!(out[0].extra.consolidated.len(), 3);
        let threshold2 = consolidate(
            (0..3)
                .map(|i| Diagnostic::warning("S", "d", f.range(i, i + 1)))
                .collect(),
            2,
            Severity::Warning,
        );
        assert_eq!(threshold2.len(), 2);
        assert_eq!(threshold2[0].detail, "d");
        assert_eq!(
            threshold2[1].detail,
            "d\n\n(and one more similar warning elsewhere)"
        );
    }

    #[test]
    fn deprecation_levels() {
        let f = SourceFile::new("main.tf", "0123456789");
        let remote = warn(&f, 1, cause("module.reg", "o", "hashicorp/x/aws"));
        let local = warn(&f, 2, cause("module.loc", "o", "./loc"));
        let other = Diagnostic::warning("Other", "", f.range(3, 4));
        let all: Diagnostics = vec![remote, local, other].into();
        let is_local = |c: &DeprecationCause| {
            c.module_source
                .as_deref()
                .is_some_and(|s| s.starts_with("./"))
        };
        let count = |lvl| filter_deprecations(all.clone(), lvl, &is_local).len();
        assert_eq!(count(DeprecationLevel::All), 3);
        assert_eq!(count(DeprecationLevel::Local), 2);
        assert_eq!(count(DeprecationLevel::None), 1);
        assert_eq!(DeprecationLevel::parse("local"), DeprecationLevel::Local);
        assert_eq!(DeprecationLevel::parse("bogus"), DeprecationLevel::All);
        assert_eq!(DeprecationLevel::parse(""), DeprecationLevel::All);
    }
}
