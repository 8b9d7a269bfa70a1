//! Turning a traversal into a reference (`internal/addrs/parse_ref.go`):
//! the longest prefix that names an object, the range it covers, and the
//! steps left over for the evaluator to apply to that object's value.

use hclsyntax::{Diagnostic, Diagnostics, Literal, Range, StepKind, Traversal, TraversalStep};

use crate::instance_key::InstanceKey;
use crate::referenceable::*;

/// A reference found in an expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub subject: Referenceable,
    /// The source of the part of the traversal naming `subject`.
    pub source_range: Range,
    /// The steps after the subject (`.id` in `aws_instance.a.id`).
    pub remaining: Vec<TraversalStep>,
}

impl Reference {
    /// The subject and remaining steps in roughly the syntax that wrote
    /// them, for messages.
    pub fn display_string(&self) -> String {
        let mut s = self.subject.to_string();
        for step in &self.remaining {
            match &step.kind {
                StepKind::Attr(name) => {
                    s.push('.');
                    s.push_str(name);
                }
                StepKind::Index(Literal::String(k)) => {
                    s.push('[');
                    s.push_str(&crate::gourl::go_quote(k));
                    s.push(']');
                }
                StepKind::Index(Literal::Number(n)) => {
                    s.push('[');
                    s.push_str(&format_number_g10(n));
                    s.push(']');
                }
                StepKind::Index(_) => s.push_str("[]"),
            }
        }
        s
    }
}

/// Go's `big.Float.Text('g', 10)` for the number literals found in
/// traversals, which are almost always small integers.
fn format_number_g10(n: &str) -> String {
    match (n.parse::<i64>(), n.parse::<f64>()) {
        (Ok(i), _) => i.to_string(),
        (_, Ok(f)) => f.to_string(),
        _ => n.to_string(),
    }
}

/// One traversal element seen uniformly: the root is a name like `.attr`.
#[derive(Clone, Copy)]
enum Elem<'a> {
    Name(&'a str, &'a Range),
    Index(&'a Literal, &'a Range),
}

impl<'a> Elem<'a> {
    fn range(&self) -> &'a Range {
        match self {
            Elem::Name(_, r) | Elem::Index(_, r) => r,
        }
    }
}

fn elems(t: &Traversal) -> Vec<Elem<'_>> {
    let mut out = Vec::with_capacity(t.steps.len() + 1);
    out.push(Elem::Name(&t.root, &t.root_range));
    for step in &t.steps {
        out.push(match &step.kind {
            StepKind::Attr(name) => Elem::Name(name, &step.range),
            StepKind::Index(key) => Elem::Index(key, &step.range),
        });
    }
    out
}

/// The steps of `t` from element `from` (element 0 being the root).
fn steps_from(t: &Traversal, from: usize) -> Vec<TraversalStep> {
    t.steps
        .iter()
        .skip(from.saturating_sub(1))
        .cloned()
        .collect()
}

fn invalid_reference(detail: impl Into<String>, subject: Range) -> Diagnostics {
    vec![Diagnostic::error("Invalid reference", detail, subject)]
}

/// `ParseRef`: the reference a traversal makes, or OpenTofu's
/// `Invalid reference` (or related) error.
pub fn parse_ref(t: &Traversal) -> Result<Reference, Diagnostics> {
    let root = t.root.as_str();
    let root_range = &t.root_range;
    match root {
        "count" => single_attr_ref(t, |n| Referenceable::CountAttr(CountAttr { name: n })),
        "each" => single_attr_ref(t, |n| Referenceable::ForEachAttr(ForEachAttr { name: n })),
        "data" | "ephemeral" | "resource" if t.steps.len() < 2 => {
            let detail = match root {
                "data" => r#"The "data" object must be followed by two attribute names: the data source type and the resource name."#,
                "ephemeral" => r#"The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name."#,
                _ => r#"The "resource" object must be followed by two attribute names: the resource type and the resource name."#,
            };
            Err(invalid_reference(detail, t.range()))
        }
        "data" => resource_ref(ResourceMode::Data, root_range, t, 1),
        "ephemeral" => resource_ref(ResourceMode::Ephemeral, root_range, t, 1),
        "resource" => resource_ref(ResourceMode::Managed, root_range, t, 1),
        "local" => single_attr_ref(t, |n| Referenceable::LocalValue(LocalValue { name: n })),
        "module" => module_call_ref(t),
        "path" => single_attr_ref(t, |n| Referenceable::PathAttr(PathAttr { name: n })),
        "self" => Ok(Reference {
            subject: Referenceable::Self_,
            source_range: root_range.clone(),
            remaining: t.steps.clone(),
        }),
        "terraform" | "tofu" => single_attr_ref(t, |n| {
            Referenceable::TerraformAttr(TerraformAttr {
                alias: root.to_string(),
                name: n,
            })
        }),
        "var" => single_attr_ref(t, |n| Referenceable::InputVariable(InputVariable { name: n })),
        "template" | "lazy" | "arg" => Err(vec![Diagnostic::error(
            "Reserved symbol name",
            format!(
                "The symbol name {} is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.",
                crate::gourl::go_quote(root)
            ),
            root_range.clone(),
        )]),
        _ => resource_ref(ResourceMode::Managed, root_range, t, 0),
    }
}

/// `ParseRefFromTestingScope`: as [`parse_ref`], plus `output.NAME` and
/// `check.NAME`, which test files may refer to.
pub fn parse_ref_from_testing_scope(t: &Traversal) -> Result<Reference, Diagnostics> {
    match t.root.as_str() {
        "output" => single_attr_ref(t, |n| Referenceable::OutputValue(OutputValue { name: n })),
        "check" => single_attr_ref(t, |n| Referenceable::Check(Check { name: n })),
        _ => parse_ref(t),
    }
}

/// The attribute name after the root of a single-attribute object
/// (`var.NAME`), or the error for using the object another way.
fn first_attr(t: &Traversal) -> Result<(&str, &Range), Diagnostics> {
    let root = crate::gourl::go_quote(&t.root);
    let Some(first) = t.steps.first() else {
        return Err(invalid_reference(
            format!(
                "The {root} object cannot be accessed directly. Instead, access one of its attributes."
            ),
            t.root_range.clone(),
        ));
    };
    match &first.kind {
        StepKind::Attr(name) => Ok((name, &first.range)),
        StepKind::Index(_) => Err(invalid_reference(
            format!("The {root} object does not support this operation."),
            first.range.clone(),
        )),
    }
}

fn single_attr_ref(
    t: &Traversal,
    make: impl FnOnce(String) -> Referenceable,
) -> Result<Reference, Diagnostics> {
    let (name, range) = first_attr(t)?;
    Ok(Reference {
        subject: make(name.to_string()),
        source_range: t.root_range.to(range),
        remaining: t.steps[1..].to_vec(),
    })
}

/// `parseResourceRef` over the elements of `t` from `start` (0 for a bare
/// `type.name`, 1 after a `data`/`ephemeral`/`resource` prefix).
fn resource_ref(
    mode: ResourceMode,
    start_range: &Range,
    t: &Traversal,
    start: usize,
) -> Result<Reference, Diagnostics> {
    let all = elems(t);
    let trav = &all[start..];
    if trav.len() < 2 {
        let first = trav[0].range();
        let last = trav[trav.len() - 1].range();
        return Err(invalid_reference(
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            first.to(last),
        ));
    }
    let type_name = match trav[0] {
        Elem::Name(n, _) => n,
        Elem::Index(_, r) => {
            return Err(invalid_reference(
                r#"The "data" object does not support this operation."#,
                r.clone(),
            ))
        }
    };
    let (name, name_range) = match trav[1] {
        Elem::Name(n, r) => (n, r),
        Elem::Index(_, r) => {
            let what = match mode {
                ResourceMode::Data => "a data source",
                ResourceMode::Ephemeral => "an ephemeral resource",
                ResourceMode::Managed => "a resource type",
            };
            return Err(invalid_reference(
                format!("A reference to {what} must be followed by at least one attribute access, specifying the resource name."),
                r.clone(),
            ));
        }
    };
    let resource = Resource {
        mode,
        type_name: type_name.to_string(),
        name: name.to_string(),
    };
    let mut range = start_range.to(name_range);
    let mut next = start + 2;
    let Some(third) = all.get(next) else {
        return Ok(Reference {
            subject: Referenceable::Resource(resource),
            source_range: range,
            remaining: Vec::new(),
        });
    };
    let mut key = InstanceKey::None;
    if let Elem::Index(lit, r) = third {
        key = InstanceKey::from_literal(lit).map_err(|e| {
            vec![Diagnostic::error(
                "Invalid index key",
                format!("Invalid index for resource instance: {e}."),
                (*r).clone(),
            )]
        })?;
        range = range.to(r);
        next += 1;
    }
    Ok(Reference {
        subject: Referenceable::ResourceInstance(ResourceInstance { resource, key }),
        source_range: range,
        remaining: steps_from(t, next),
    })
}

fn module_call_ref(t: &Traversal) -> Result<Reference, Diagnostics> {
    let (name, name_range) = first_attr(t)?;
    let call = ModuleCall {
        name: name.to_string(),
    };
    let call_range = t.root_range.to(name_range);
    let mut remain: &[TraversalStep] = &t.steps[1..];
    let Some(first) = remain.first() else {
        return Ok(Reference {
            subject: Referenceable::ModuleCall(call),
            source_range: call_range,
            remaining: Vec::new(),
        });
    };
    let mut instance = ModuleCallInstance {
        call,
        key: InstanceKey::None,
    };
    if let StepKind::Index(lit) = &first.kind {
        instance.key = InstanceKey::from_literal(lit).map_err(|e| {
            vec![Diagnostic::error(
                "Invalid index key",
                format!("Invalid index for module instance: {e}."),
                first.range.clone(),
            )]
        })?;
        remain = &remain[1..];
        if remain.is_empty() {
            return Ok(Reference {
                subject: Referenceable::ModuleCallInstance(instance),
                source_range: call_range.to(&first.range),
                remaining: Vec::new(),
            });
        }
    }
    let next = &remain[0];
    match &next.kind {
        StepKind::Attr(name) => Ok(Reference {
            subject: Referenceable::ModuleCallInstanceOutput(ModuleCallInstanceOutput {
                call: instance,
                name: name.clone(),
            }),
            source_range: call_range.to(&next.range),
            remaining: remain[1..].to_vec(),
        }),
        StepKind::Index(_) => Err(invalid_reference(
            "Module instance objects do not support this operation.",
            next.range.clone(),
        )),
    }
}

#[cfg(test)]
#[path = "parse_ref_tests.rs"]
mod tests;
