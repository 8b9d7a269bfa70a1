//! The parts of a resource's `lifecycle` block that need more than a
//! lookup: `ignore_changes`, `replace_triggered_by`, the self-reference
//! rule of conditions, and the count/enabled/for_each conflict.

use hclsyntax::static_expr::{as_keyword, expr_list};
use hclsyntax::{Attribute, Diagnostic, Diagnostics, Expr, Range, Traversal};

use crate::check_rule::CheckRule;
use crate::compat_shim::{is_ignore_changes_star, shim_abs_traversal};
use crate::local_addrs::{parse_ref, RefSubject};
use crate::resource::ResourceMode;

/// `ignore_changes`: either `all` or a list of attribute paths (the
/// quoted legacy forms are accepted with a warning, except `["*"]`).
pub(crate) struct IgnoreChanges {
    pub all: bool,
    pub paths: Vec<Traversal>,
}

pub(crate) fn decode_ignore_changes(attr: &Attribute) -> (IgnoreChanges, Diagnostics) {
    let mut out = IgnoreChanges {
        all: false,
        paths: Vec::new(),
    };
    let mut diags = Diagnostics::new();
    if as_keyword(&attr.expr).as_deref() == Some("all") {
        out.all = true;
        return (out, diags);
    }
    let exprs = match expr_list(&attr.expr) {
        Ok(exprs) => exprs,
        Err(more) => return (out, more),
    };
    let mut ignore_all_range: Option<Range> = None;
    for expr in &exprs {
        if is_ignore_changes_star(expr) {
            out.all = true;
            ignore_all_range = Some(expr.range.clone());
            diags.push(Diagnostic::error(
                "Invalid ignore_changes wildcard",
                "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
                attr.expr.range.clone(),
            ));
            continue;
        }
        // Relative traversals: the root names an attribute of the resource.
        let (traversal, more) = shim_abs_traversal(expr);
        diags.extend(more);
        if let Some(t) = traversal {
            out.paths.push(t);
        }
    }
    if out.all && !out.paths.is_empty() {
        let subject = ignore_all_range.unwrap_or_else(|| attr.expr.range.clone());
        diags.push(
            Diagnostic::error(
                "Invalid ignore_changes ruleset",
                "Cannot mix wildcard string \"*\" with non-wildcard references.",
                subject,
            )
            .with_context(attr.expr.range.clone()),
        );
    }
    (out, diags)
}

/// `decodeReplaceTriggeredBy`: each element must reference exactly one
/// resource, optionally indexed by `count.index` or `each.key`.
pub(crate) fn decode_replace_triggered_by(expr: &Expr) -> (Vec<Expr>, Diagnostics) {
    // JSON elements are strings spelling native expressions; expr_list
    // hands them back already read that way.
    let (exprs, mut diags) = match expr_list(expr) {
        Ok(exprs) => (exprs, Diagnostics::new()),
        Err(more) => (Vec::new(), more),
    };
    for expr in &exprs {
        let subject = expr.range.clone();
        let mut subjects = Vec::new();
        let mut ref_failed = false;
        for v in expr.variables() {
            match parse_ref(&v) {
                Ok(s) => subjects.push(s),
                Err(ref_diags) => {
                    ref_failed = true;
                    for d in ref_diags {
                        diags.push(Diagnostic {
                            subject: Some(subject.clone()),
                            ..d
                        });
                    }
                }
            }
        }
        if ref_failed {
            continue;
        }
        let mut resources = 0;
        for s in subjects {
            match s {
                RefSubject::Resource { .. } => resources += 1,
                RefSubject::EachAttr(name) => {
                    if name != "key" {
                        diags.push(Diagnostic::error(
                            "Invalid each reference in replace_triggered_by expression",
                            "Only each.key may be used in replace_triggered_by.",
                            subject.clone(),
                        ));
                    }
                }
                RefSubject::CountAttr(name) => {
                    if name != "index" {
                        diags.push(Diagnostic::error(
                            "Invalid count reference in replace_triggered_by expression",
                            "Only count.index may be used in replace_triggered_by.",
                            subject.clone(),
                        ));
                    }
                }
                RefSubject::Other => diags.push(Diagnostic::error(
                    "Invalid reference in replace_triggered_by expression",
                    "Only resources, count.index, and each.key may be used in replace_triggered_by.",
                    subject.clone(),
                )),
            }
        }
        match resources {
            0 => diags.push(Diagnostic::error(
                "Invalid replace_triggered_by expression",
                "Missing resource reference in replace_triggered_by expression.",
                subject,
            )),
            1 => {}
            _ => diags.push(Diagnostic::error(
                "Invalid replace_triggered_by expression",
                "Multiple resource references in replace_triggered_by expression.",
                subject,
            )),
        }
    }
    (exprs, diags)
}

/// `CheckRule.validateSelfReferences`: a resource's conditions may not
/// refer to the resource itself (they use `self` instead).
pub(crate) fn validate_self_references(
    rule: &CheckRule,
    check_type: &str,
    mode: ResourceMode,
    type_name: &str,
    name: &str,
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for expr in [&rule.condition, &rule.error_message].into_iter().flatten() {
        for v in expr.variables() {
            let Ok(RefSubject::Resource {
                mode: m,
                type_name: t,
                name: n,
            }) = parse_ref(&v)
            else {
                continue;
            };
            if m == mode && t == type_name && n == name {
                diags.push(Diagnostic::error(
                    format!("Invalid reference in {check_type}"),
                    format!(
                        "Configuration for {}{type_name}.{name} may not refer to itself.",
                        mode.prefix()
                    ),
                    expr.range.clone(),
                ));
                break;
            }
        }
    }
    diags
}

/// `complainRngAndMsg`: the names of the repetition arguments set (two or
/// more of `count`, `enabled`, `for_each`) and the range spanning them.
pub(crate) fn repetition_conflict(
    count: Option<&Range>,
    enabled: Option<&Range>,
    for_each: Option<&Range>,
    what: &str,
) -> Option<Diagnostic> {
    let mut ranges = Vec::new();
    let mut names = Vec::new();
    for (r, n) in [
        (count, "count"),
        (enabled, "enabled"),
        (for_each, "for_each"),
    ] {
        if let Some(r) = r {
            ranges.push(r.clone());
            names.push(format!("\"{n}\""));
        }
    }
    if names.len() < 2 {
        return None;
    }
    ranges.sort_by_key(|r| r.start.byte);
    let last = names.len() - 1;
    let msg = if names.len() >= 3 {
        names[last] = format!("and {}", names[last]);
        names.join(", ")
    } else {
        names.join(" and ")
    };
    let subject = ranges[0].to(&ranges[ranges.len() - 1]);
    Some(Diagnostic::error(
        format!("Invalid combination of {msg}"),
        format!("The {msg} meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of {what} to be created."),
        subject,
    ))
}
