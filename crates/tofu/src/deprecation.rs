//! Deprecated module variables and outputs (OpenTofu's deprecation RFC,
//! `internal/lang/marks`, `evalVariableDeprecation`).
//!
//! A deprecated output of a child module is read with a
//! [`Mark::Deprecated`] on its value ([`mark_outputs`]). The mark travels
//! through every operation of `lang`; wherever the walk consumes a value (a
//! local, an output, a module argument, `count`/`for_each`, a condition, a
//! resource argument) the marks are turned into `Value derived from a
//! deprecated source` warnings and removed before the value is stored, so
//! a mark never reaches a plan or another object. A caller that sets a
//! deprecated variable of a child module gets `Variable marked as
//! deprecated by the module author` ([`check_module_variable`]).
//!
//! The warnings carry a [`tfdiags::DeprecationCause`] so that the views can
//! de-duplicate, filter (`-deprecation=module:local|none`, with
//! [`is_local_module`]) and consolidate them; they are collected in the
//! walk's [`Sink`] and returned beside the walk's other diagnostics.

use std::sync::{Arc, Mutex};

use addrs::ModuleInstance;
use configs::config::Config;
use configs::merged_body::ConfigBody;
use configs::named_values::Variable;
use cty::{Mark, Path, PathStep, PathValueMarks, Value, ValueMarks};
use hclsyntax::body::BodySyntax;
use hclsyntax::{Attribute, Body, Expr, ExprKind, Range};

use crate::walk::Walk;

const DERIVED_SUMMARY: &str = "Value derived from a deprecated source";
const VARIABLE_SUMMARY: &str = "Variable marked as deprecated by the module author";
const ROOT_VARIABLE_SUMMARY: &str = "Deprecated variable used from the root module";

/// The deprecation warnings one walk found; nodes of a level push from
/// several threads.
#[derive(Debug, Default)]
pub struct Sink(Mutex<Vec<tfdiags::Diagnostic>>);

impl Sink {
    fn push(&self, diag: tfdiags::Diagnostic) {
        self.0
            .lock()
            .expect("deprecation sink poisoned: a node panicked")
            .push(diag);
    }

    /// The warnings found, in display order (nodes run in parallel, so the
    /// order they were pushed in means nothing).
    pub fn take(&self) -> tfdiags::Diagnostics {
        let list = std::mem::take(
            &mut *self
                .0
                .lock()
                .expect("deprecation sink poisoned: a node panicked"),
        );
        let mut diags: tfdiags::Diagnostics = list.into_iter().collect();
        diags.sort();
        diags
    }
}

/// The walk's diagnostics followed by its deprecation warnings.
pub fn with_deprecations(diags: hclsyntax::Diagnostics, sink: &Sink) -> tfdiags::Diagnostics {
    let mut out = tfdiags::Diagnostics::new();
    out.append(diags);
    out.append(sink.take());
    out
}

/// The diagnostics as HCL diagnostics (for callers that show no view):
/// the deprecation causes and resource addresses are dropped.
pub fn without_causes(diags: tfdiags::Diagnostics) -> hclsyntax::Diagnostics {
    diags
        .into_iter()
        .map(|d| hclsyntax::Diagnostic {
            severity: d.severity,
            summary: d.summary,
            detail: d.detail,
            subject: d.subject,
            context: d.context,
        })
        .collect()
}

/// `DeprecationCause.fullSubject` and the message, as the warnings end:
/// `module.m.x, which is deprecated with the following message: ...`, or
/// without the module for the root's objects and without the message
/// where the provider gave none.
fn deprecated_subject(cause: &cty::DeprecationCause) -> String {
    let subject = if cause.module_instance.is_empty() {
        cause.name.clone()
    } else {
        format!("{}.{}", cause.module_instance, cause.name)
    };
    if cause.message.is_empty() {
        format!("{subject}, which is deprecated.")
    } else {
        format!(
            "{subject}, which is deprecated with the following message:\n\n{}",
            cause.message
        )
    }
}

/// `configschema.Block.ValueMarks` for a resource instance's value as
/// others read it: sensitive attributes, and deprecated attributes and
/// blocks with `marks.DeprecationCauseResource` (the instance `resource`
/// of module instance `module`, the attribute's path).
pub fn resource_schema_marks(
    block: &configschema::Block,
    value: &Value,
    module: &ModuleInstance,
    resource: &addrs::ResourceInstance,
) -> Value {
    let marker = |path: &Path, message: &str| {
        Mark::Deprecated(Arc::new(cty::DeprecationCause {
            module_instance: module.to_string(),
            name: format!("{resource}{path}"),
            message: message.to_string(),
        }))
    };
    let marks = block.value_marks(value, &Path::root(), Some(&marker));
    if marks.is_empty() {
        value.clone()
    } else {
        value.mark_with_paths(&marks)
    }
}

/// The cause a deprecated output of module instance `module` carries.
pub fn output_cause(module: &ModuleInstance, name: &str, message: &str) -> Mark {
    Mark::Deprecated(Arc::new(cty::DeprecationCause {
        module_instance: module.to_string(),
        name: name.to_string(),
        message: message.to_string(),
    }))
}

/// `marks.DeprecatedOutput` for every deprecated output of `child` (the
/// configuration of module instance `inst`) in `outputs`, an object of its
/// output values. Root outputs are never marked.
pub fn mark_outputs(child: &Config, inst: &ModuleInstance, outputs: Value) -> Value {
    if inst.0.is_empty() || !has_deprecated_outputs(child) {
        return outputs;
    }
    let Some(attrs) = outputs.as_attrs() else {
        return outputs;
    };
    let mut attrs = attrs.clone();
    for (name, out) in &child.module.outputs {
        if out.deprecated.is_empty() {
            continue;
        }
        if let Some(v) = attrs.get_mut(name) {
            *v = v.mark(output_cause(inst, name, &out.deprecated));
        }
    }
    Value::object(attrs).with_marks(outputs.marks().iter().cloned())
}

/// Whether `child` declares any deprecated output.
pub fn has_deprecated_outputs(child: &Config) -> bool {
    child
        .module
        .outputs
        .values()
        .any(|o| !o.deprecated.is_empty())
}

/// The value `module.NAME` has in validate for a single-instance call
/// whose module declares deprecated outputs: an object of unknown outputs,
/// the deprecated ones marked (instead of one unknown object, which could
/// carry no mark per output).
pub fn validate_module_value(child: &Config, inst: &ModuleInstance) -> Value {
    let attrs = child
        .module
        .outputs
        .keys()
        .map(|name| (name.clone(), Value::dynamic()))
        .collect();
    mark_outputs(child, inst, Value::object(attrs))
}

/// Splits the deprecation marks off `v`: the value with every other mark
/// in place, and each deprecation cause with the path it was found at.
pub fn split_deprecations(v: &Value) -> (Value, Vec<(Path, Arc<cty::DeprecationCause>)>) {
    if !v.contains_marked() {
        return (v.clone(), Vec::new());
    }
    let (plain, paths) = v.unmark_deep_with_paths();
    let mut found = Vec::new();
    let mut kept = Vec::new();
    for pvm in paths {
        let mut others = ValueMarks::new();
        for m in pvm.marks {
            match m {
                Mark::Deprecated(cause) => found.push((pvm.path.clone(), cause)),
                other => {
                    others.insert(other);
                }
            }
        }
        if !others.is_empty() {
            kept.push(PathValueMarks {
                path: pvm.path,
                marks: others,
            });
        }
    }
    if found.is_empty() {
        return (v.clone(), Vec::new());
    }
    (plain.mark_with_paths(&kept), found)
}

/// `marks.ExtractDeprecatedDiagnosticsWithExpr`: a warning at `expr` for
/// every deprecation mark in `v`; returns `v` without them.
pub fn consume_expr(walk: &Walk<'_>, v: Value, expr: &Expr) -> Value {
    let (v, found) = split_deprecations(&v);
    for (path, cause) in found {
        let attr = path.to_string();
        let attr = attr.strip_prefix('.').unwrap_or(&attr);
        let source = if attr.is_empty() {
            "This value".to_string()
        } else {
            format!("This value's attribute {attr}")
        };
        let diag = tfdiags::Diagnostic::warning(
            DERIVED_SUMMARY,
            format!("{source} is derived from {}", deprecated_subject(&cause)),
            expr.range.clone(),
        )
        .with_deprecation(diag_cause(walk.root, &cause));
        walk.deprecations.push(diag);
    }
    v
}

/// The same for a value that is only looked at (a `count`, a condition):
/// the warnings, no value.
pub fn check_expr(walk: &Walk<'_>, v: &Value, expr: &Expr) {
    if v.contains_marked() {
        consume_expr(walk, v.clone(), expr);
    }
}

/// A `count` or `for_each` argument: warnings for a deprecated value it
/// reads (the expansion itself drops every mark). Evaluated here only when
/// the expression reads a module's outputs, the only marked values.
pub fn check_expansion(walk: &Walk<'_>, scope: &lang::Scope<'_>, expr: &Expr) {
    if !reads_module_outputs(expr) {
        return;
    }
    let (v, _) = scope.eval_expr(expr, &cty::Type::Dynamic);
    check_expr(walk, &v, expr);
}

/// `marks.ExtractDeprecationDiagnosticsWithBody`: warnings for the marks in
/// a resource's configuration value, at the argument each was found in,
/// about the resource `address`; returns the value without them.
pub fn consume_body(
    walk: &Walk<'_>,
    v: Value,
    body: &ConfigBody,
    address: impl FnOnce() -> String,
) -> Value {
    let (v, found) = split_deprecations(&v);
    if found.is_empty() {
        return v;
    }
    let address = address();
    for (path, cause) in found {
        let diag = tfdiags::Diagnostic::new(
            tfdiags::Severity::Warning,
            DERIVED_SUMMARY,
            format!("This value is derived from {}", deprecated_subject(&cause)),
            subject_in_body(body, &path),
        )
        .with_address(address.clone())
        .with_deprecation(diag_cause(walk.root, &cause));
        walk.deprecations.push(diag);
    }
    v
}

/// `evalVariableDeprecation`: a caller gave the deprecated variable `decl`
/// of module instance `inst` (configuration `child`) the value `given` in
/// the argument `arg`. A null value is no use of the variable.
pub fn check_module_variable(
    walk: &Walk<'_>,
    child: &Config,
    inst: &ModuleInstance,
    decl: &Variable,
    given: &Value,
    arg: &Attribute,
) {
    if decl.deprecated.is_empty() || given.is_null() {
        return;
    }
    let diag = tfdiags::Diagnostic::warning(
        VARIABLE_SUMMARY,
        format!(
            "Variable {} is marked as deprecated with the following message:\n{}",
            cty::format::go_quote(&decl.name),
            decl.deprecated
        ),
        arg.expr.range.clone(),
    )
    .with_deprecation(tfdiags::DeprecationCause {
        module: inst.to_string(),
        subject: decl.name.clone(),
        message: decl.deprecated.clone(),
        module_source: child.source_addr.as_ref().map(ToString::to_string),
    });
    walk.deprecations.push(diag);
}

/// `checkRootVariablesDeprecation` (plan): a warning for each deprecated
/// root variable the user set (anything but its default). It carries no
/// cause, so `-deprecation` never hides it.
pub fn root_variable_warnings<'a>(
    variables: impl IntoIterator<Item = &'a Variable>,
) -> tfdiags::Diagnostics {
    let mut diags = tfdiags::Diagnostics::new();
    for decl in variables {
        if decl.deprecated.is_empty() {
            continue;
        }
        diags.push(tfdiags::Diagnostic::warning(
            ROOT_VARIABLE_SUMMARY,
            format!(
                "The root variable {} is deprecated with the following message: {}",
                cty::format::go_quote(&decl.name),
                decl.deprecated
            ),
            decl.decl_range.clone(),
        ));
    }
    diags
}

/// Whether the expression reads a module call's outputs: only those
/// values can carry deprecation marks (every other object had its marks
/// removed when it was stored).
pub fn reads_module_outputs(expr: &Expr) -> bool {
    expr.variables().iter().any(|t| t.root == "module")
}

fn diag_cause(root: &Config, cause: &cty::DeprecationCause) -> tfdiags::DeprecationCause {
    let source = module_path_of(&cause.module_instance)
        .and_then(|path| root.descendant(&path))
        .and_then(|cfg| cfg.source_addr.as_ref())
        .map(ToString::to_string);
    tfdiags::DeprecationCause {
        module: cause.module_instance.clone(),
        subject: cause.name.clone(),
        message: cause.message.clone(),
        module_source: source,
    }
}

/// Whether the module a deprecation cause points at is "local": every call
/// from the root to it has a `./` or `../` source
/// (`configload.IsRemoteModuleSource`). A module that cannot be found is
/// taken as local, so that nothing is hidden by mistake.
pub fn is_local_module(root: &Config, cause: &tfdiags::DeprecationCause) -> bool {
    let Some(path) = module_path_of(&cause.module) else {
        return true;
    };
    let mut cfg = root;
    for name in &path {
        let Some(child) = cfg.children.get(name) else {
            return true;
        };
        if !child.source_addr.as_ref().is_some_and(|s| s.is_local()) {
            return false;
        }
        cfg = child;
    }
    true
}

/// The module path (call names) of a module instance address as
/// [`ModuleInstance`] prints it: `module.a["k"].module.b[0]` → `[a, b]`.
pub fn module_path_of(inst: &str) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut rest = inst;
    while !rest.is_empty() {
        rest = rest.strip_prefix("module.")?;
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        names.push(rest[..end].to_string());
        rest = &rest[end..];
        if let Some(after) = rest.strip_prefix('[') {
            rest = skip_key(after)?;
        }
        if !rest.is_empty() {
            rest = rest.strip_prefix('.')?;
        }
    }
    Some(names)
}

/// Skips an instance key and its closing bracket (`"k"]` or `0]`).
fn skip_key(s: &str) -> Option<&str> {
    if let Some(quoted) = s.strip_prefix('"') {
        let mut escaped = false;
        for (i, c) in quoted.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => return quoted[i + 1..].strip_prefix(']'),
                _ => {}
            }
        }
        return None;
    }
    let end = s.find(']')?;
    Some(&s[end + 1..])
}

/// `attributeDiagnostic.ElaborateFromConfigBody`: where in `body` the
/// value at `path` was written.
fn subject_in_body(body: &ConfigBody, path: &Path) -> Option<Range> {
    let missing = body.missing_item_range();
    let steps = &path.0;
    let Some(PathStep::GetAttr(_)) = steps.first() else {
        return missing;
    };
    let (final_step, index, traverse) = match steps.last() {
        Some(PathStep::Index(k)) if steps.len() >= 2 => {
            (&steps[steps.len() - 2], Some(k), &steps[..steps.len() - 1])
        }
        Some(last) => (last, None, &steps[..]),
        None => return missing,
    };
    let mut bodies = top_bodies(body);
    if traverse.len() > 1 {
        if let Some(b) = bodies.first().copied().and_then(|b| descend(b, traverse)) {
            bodies = vec![b];
        }
    }
    let PathStep::GetAttr(name) = final_step else {
        return bodies
            .first()
            .map(|b| b.missing_item_range.clone())
            .or(missing);
    };
    for b in &bodies {
        if let Some(attr) = find_attribute(b, name.as_str()) {
            return Some(match index {
                Some(k) => index_range(&attr, k),
                None => attr.expr.range.clone(),
            });
        }
    }
    bodies
        .first()
        .map(|b| b.missing_item_range.clone())
        .or(missing)
}

/// The single bodies of a configuration body, the overriding ones first.
fn top_bodies(body: &ConfigBody) -> Vec<&Body> {
    match body {
        ConfigBody::Single(b) => vec![b],
        ConfigBody::Union(parts) => parts.iter().flat_map(top_bodies).collect(),
        ConfigBody::Override { base, over } => {
            let mut out = top_bodies(over);
            out.extend(top_bodies(base));
            out
        }
    }
}

/// `traversePathSteps`: into nested blocks as far as the path names them.
fn descend<'b>(mut body: &'b Body, traverse: &[PathStep]) -> Option<&'b Body> {
    let mut i = 0;
    while i < traverse.len() {
        let PathStep::GetAttr(name) = &traverse[i] else {
            return Some(body);
        };
        let index = match traverse.get(i + 1) {
            Some(PathStep::Index(k)) => {
                i += 1;
                Some(k)
            }
            _ => None,
        };
        i += 1;
        let BodySyntax::Native { blocks, .. } = &*body.syntax else {
            return Some(body);
        };
        let matching: Vec<&Body> = blocks
            .iter()
            .filter(|b| &b.type_name == name)
            .map(|b| &b.body)
            .collect();
        if matching.is_empty() {
            continue;
        }
        body = match index.map(Value::unmark) {
            None if matching.len() == 1 => matching[0],
            Some(k) if k.as_str().is_some() => {
                let key = k.as_str().unwrap_or_default().to_string();
                match blocks.iter().find(|b| {
                    &b.type_name == name && b.labels.first().is_some_and(|l| l.value == key)
                }) {
                    Some(b) => &b.body,
                    None => return Some(body),
                }
            }
            Some(k) => {
                let n = k
                    .as_number()
                    .and_then(|n| n.to_i64())
                    .and_then(|n| usize::try_from(n).ok());
                match n.and_then(|n| matching.get(n)) {
                    Some(b) => b,
                    None => return Some(body),
                }
            }
            None => return Some(body),
        };
    }
    Some(body)
}

fn find_attribute(body: &Body, name: &str) -> Option<Arc<Attribute>> {
    match &*body.syntax {
        BodySyntax::Native { attributes, .. } => {
            attributes.iter().find(|a| a.name == name).cloned()
        }
        BodySyntax::Json(_) => body
            .just_attributes()
            .0
            .into_iter()
            .find(|a| a.name == name),
    }
}

/// `hclRangeFromIndexStepAndAttribute`: the element or map value an index
/// step points at, when the argument is written as a tuple or object.
fn index_range(attr: &Attribute, key: &Value) -> Range {
    let key = key.unmark();
    match (&attr.expr.unwrap_parens().kind, key.as_str()) {
        (ExprKind::Tuple(items), None) => key
            .as_number()
            .and_then(|n| n.to_i64())
            .and_then(|n| usize::try_from(n).ok())
            .and_then(|n| items.get(n))
            .map(|e| e.range.clone())
            .unwrap_or_else(|| attr.name_range.clone()),
        (ExprKind::Object(items), Some(k)) => items
            .iter()
            .find(|item| object_key(item) == Some(k))
            .map(|item| item.value.range.clone())
            .unwrap_or_else(|| attr.name_range.clone()),
        _ => attr.expr.range.clone(),
    }
}

fn object_key(item: &hclsyntax::ObjectItem) -> Option<&str> {
    if let Some(name) = item.key.as_bare_name() {
        return Some(name);
    }
    match &item.key.expr.unwrap_parens().kind {
        ExprKind::Literal(hclsyntax::Literal::String(s)) => Some(s),
        ExprKind::Template(parts) if parts.len() == 1 => match &parts[0].kind {
            ExprKind::Literal(hclsyntax::Literal::String(s)) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_paths_from_instance_addresses() {
        let p = |s: &str| module_path_of(s);
        assert_eq!(p(""), Some(vec![]));
        assert_eq!(p("module.a"), Some(vec!["a".to_string()]));
        assert_eq!(
            p("module.modA.module.modB"),
            Some(vec!["modA".to_string(), "modB".to_string()])
        );
        assert_eq!(
            p(r#"module.mod["a.]\"b"].module.c[3]"#),
            Some(vec!["mod".to_string(), "c".to_string()])
        );
        assert_eq!(p("var.x"), None);
    }

    #[test]
    fn split_keeps_other_marks() {
        let cause = output_cause(
            &ModuleInstance::root().child("m", addrs::InstanceKey::None),
            "o",
            "gone",
        );
        let v = Value::object_from([
            (
                "a",
                Value::string("x").mark(cause.clone()).mark(Mark::Sensitive),
            ),
            ("b", Value::string("y")),
        ]);
        let (plain, found) = split_deprecations(&v);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.to_string(), ".a");
        assert_eq!(found[0].1.module_instance, "module.m");
        let (_, marks) = plain.unmark_deep();
        assert!(marks.contains(&Mark::Sensitive));
        assert!(!marks.iter().any(|m| matches!(m, Mark::Deprecated(_))));
    }
}
