//! The few address parsers the block decoders need (OpenTofu's
//! `addrs.ParseRef`, `ParseTarget` and friends), with OpenTofu's messages.
//!
//! Kept local until the `addrs` crate offers them; the shapes are minimal on
//! purpose.

use hclsyntax::{Diagnostic, Diagnostics, Literal, Range, StepKind, Traversal, TraversalStep};

use crate::resource::ResourceMode;

/// An instance key: `[0]`, `["a"]`, or none (addrs' type, printed with
/// OpenTofu's key quoting).
pub use addrs::InstanceKey;

/// One `module.name[key]` step of a module instance path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleStep {
    pub name: String,
    pub key: InstanceKey,
}

/// A resource instance in a module instance: `module.a[0].aws_instance.b["k"]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceInstanceAddr {
    pub module: Vec<ModuleStep>,
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
    pub key: InstanceKey,
}

impl ResourceInstanceAddr {
    /// The resource within its module, without module path or key: the
    /// key to look its block up by ([`crate::Module::resource`]).
    pub fn resource(&self) -> addrs::Resource {
        addrs::Resource {
            mode: self.mode,
            type_name: self.type_name.clone(),
            name: self.name.clone(),
        }
    }

    /// The address as OpenTofu prints it.
    pub fn display(&self) -> String {
        let mut s = module_display(&self.module);
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(self.mode.prefix());
        s.push_str(&self.type_name);
        s.push('.');
        s.push_str(&self.name);
        s.push_str(&self.key.to_string());
        s
    }
}

/// `module.a.module.b["x"]`.
pub fn module_display(path: &[ModuleStep]) -> String {
    path.iter()
        .map(|s| format!("module.{}{}", s.name, s.key))
        .collect::<Vec<_>>()
        .join(".")
}

/// What a target-style address names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetAddr {
    Module(Vec<ModuleStep>),
    Resource(ResourceInstanceAddr),
}

/// A step as HCL treats a traversal element: root and attribute steps are
/// names; index steps carry a literal key.
enum Elem<'a> {
    Name(&'a str, &'a Range),
    Index(&'a Literal, &'a Range),
}

fn elems(t: &Traversal) -> Vec<Elem<'_>> {
    let mut out = vec![Elem::Name(&t.root, &t.root_range)];
    for TraversalStep { kind, range } in &t.steps {
        out.push(match kind {
            StepKind::Attr(n) => Elem::Name(n, range),
            StepKind::Index(l) => Elem::Index(l, range),
        });
    }
    out
}

fn elem_range<'a>(e: &Elem<'a>) -> &'a Range {
    match e {
        Elem::Name(_, r) | Elem::Index(_, r) => r,
    }
}

fn span(es: &[Elem<'_>]) -> Range {
    elem_range(&es[0]).to(elem_range(&es[es.len() - 1]))
}

fn err(summary: &str, detail: impl Into<String>, subject: Range) -> Diagnostics {
    vec![Diagnostic::error(summary, detail, subject)]
}

/// `ParseInstanceKey`.
fn instance_key(l: &Literal) -> Result<InstanceKey, String> {
    match l {
        Literal::String(s) => Ok(InstanceKey::String(s.clone())),
        Literal::Number(n) => match n.parse::<i64>() {
            Ok(i) => Ok(InstanceKey::Int(i)),
            Err(_) => Err("a number is not a valid index".to_string()),
        },
        _ => Err("either a string or an integer is required".to_string()),
    }
}

/// `parseModuleInstancePrefix` (`keys`) or `parseModulePrefix` (no
/// instance keys): the module path and what follows it.
fn module_prefix<'a>(
    es: &'a [Elem<'a>],
    keys: bool,
) -> Result<(Vec<ModuleStep>, &'a [Elem<'a>]), Diagnostics> {
    let mut remain = es;
    let mut path = Vec::new();
    while let Some(first) = remain.first() {
        let next = match first {
            Elem::Name(n, _) => *n,
            Elem::Index(_, r) => {
                return Err(err(
                    "Invalid address operator",
                    "Module address prefix must be followed by dot and then a name.",
                    (*r).clone(),
                ))
            }
        };
        if next != "module" {
            break;
        }
        let kw_range = elem_range(first);
        remain = &remain[1..];
        let name = match remain.first() {
            None => {
                return Err(err(
                    "Invalid address operator",
                    "Prefix \"module.\" must be followed by a module name.",
                    kw_range.clone(),
                ))
            }
            Some(Elem::Index(_, r)) => {
                return Err(err(
                    "Invalid address operator",
                    "Prefix \"module.\" must be followed by a module name.",
                    (*r).clone(),
                ))
            }
            Some(Elem::Name(n, _)) => n.to_string(),
        };
        remain = &remain[1..];
        let mut key = InstanceKey::None;
        if let (false, Some(Elem::Index(_, r))) = (keys, remain.first()) {
            return Err(err(
                "Module instance address with keys is not allowed",
                "Module address cannot be a module instance (e.g. \"module.a[0]\"), it must be a module instead (e.g. \"module.a\").",
                (*r).clone(),
            ));
        }
        if let Some(Elem::Index(l, r)) = remain.first() {
            key = match l {
                Literal::String(s) => InstanceKey::String(s.clone()),
                Literal::Number(n) => match n.parse::<i64>() {
                    Ok(i) => InstanceKey::Int(i),
                    Err(_) => {
                        return Err(err(
                            "Invalid address operator",
                            format!("Invalid module index: a number is required, not {n}."),
                            (*r).clone(),
                        ))
                    }
                },
                _ => {
                    return Err(err(
                        "Invalid address operator",
                        "Invalid module key: must be either a string or an integer.",
                        (*r).clone(),
                    ))
                }
            };
            remain = &remain[1..];
        }
        path.push(ModuleStep { name, key });
    }
    Ok((path, remain))
}

/// `parseResourceTypeAndName` after the mode prefix: the mode, type and
/// name, and the steps after them.
fn resource_type_and_name<'a>(
    es: &'a [Elem<'a>],
) -> Result<(ResourceMode, String, String, &'a [Elem<'a>]), Diagnostics> {
    let mut remain = es;
    let mut mode = ResourceMode::Managed;
    if let Some(Elem::Name(root, _)) = remain.first() {
        match *root {
            "data" => {
                mode = ResourceMode::Data;
                remain = &remain[1..];
            }
            "ephemeral" => {
                mode = ResourceMode::Ephemeral;
                remain = &remain[1..];
            }
            // OpenTofu reserves no other first word in an address (no
            // `resource.` prefix either, unlike terraform): `var.v` is the
            // managed resource of type "var".
            _ => {}
        }
    }
    if remain.len() < 2 {
        let subject = if remain.is_empty() {
            span(es)
        } else {
            span(remain)
        };
        return Err(err(
            "Invalid address",
            "Resource specification must include a resource type and name.",
            subject,
        ));
    }
    let type_name = match &remain[0] {
        Elem::Name(n, _) => n.to_string(),
        Elem::Index(_, r) => {
            let detail = match mode {
                ResourceMode::Managed => "A resource type name is required.",
                ResourceMode::Data => "A data source name is required.",
                ResourceMode::Ephemeral => "An ephemeral resource name is required.",
            };
            return Err(err("Invalid address", detail, (*r).clone()));
        }
    };
    let name = match &remain[1] {
        Elem::Name(n, _) => n.to_string(),
        Elem::Index(_, r) => {
            return Err(err(
                "Invalid address",
                "A resource name is required.",
                (*r).clone(),
            ))
        }
    };
    Ok((mode, type_name, name, &remain[2..]))
}

/// `parseResourceInstanceUnderModule`.
fn resource_under_module(
    module: Vec<ModuleStep>,
    es: &[Elem<'_>],
) -> Result<ResourceInstanceAddr, Diagnostics> {
    let (mode, type_name, name, remain) = resource_type_and_name(es)?;
    let key = match remain {
        [] => InstanceKey::None,
        [Elem::Index(l, r)] => instance_key(l).map_err(|e| {
            err(
                "Invalid address",
                format!("Invalid resource instance key: {e}."),
                (*r).clone(),
            )
        })?,
        [Elem::Name(_, r)] => {
            return Err(err(
                "Invalid address",
                "Resource instance key must be given in square brackets.",
                (*r).clone(),
            ))
        }
        [_, second, ..] => {
            return Err(err(
                "Invalid address",
                "Unexpected extra operators after address.",
                elem_range(second).clone(),
            ))
        }
    };
    Ok(ResourceInstanceAddr {
        module,
        mode,
        type_name,
        name,
        key,
    })
}

/// `ParseTarget` / `ParseMoveEndpoint`: a module instance path, or a
/// resource (instance) under one.
pub fn parse_target(t: &Traversal) -> Result<TargetAddr, Diagnostics> {
    let es = elems(t);
    let (path, remain) = module_prefix(&es, true)?;
    if remain.is_empty() {
        return Ok(TargetAddr::Module(path));
    }
    resource_under_module(path, remain).map(TargetAddr::Resource)
}

/// `ParseRemoveEndpoint` (internal/addrs/remove_endpoint.go) up to its
/// mode checks: a module, or a resource under one, neither with instance
/// keys (`parseModulePrefix`, `parseResourceUnderModule`). Any one step
/// after the resource name counts as a key, an attribute step too.
pub fn parse_config_removable(t: &Traversal) -> Result<TargetAddr, Diagnostics> {
    let es = elems(t);
    let (module, remain) = module_prefix(&es, false)?;
    if remain.is_empty() {
        return Ok(TargetAddr::Module(module));
    }
    let (mode, type_name, name, remain) = resource_type_and_name(remain)?;
    match remain {
        [] => Ok(TargetAddr::Resource(ResourceInstanceAddr {
            module,
            mode,
            type_name,
            name,
            key: InstanceKey::None,
        })),
        [only] => Err(err(
            "Resource instance address with keys is not allowed",
            "Resource address cannot be a resource instance (e.g. \"null_resource.a[0]\"), it must be a resource instead (e.g. \"null_resource.a\").",
            elem_range(only).clone(),
        )),
        [_, second, ..] => Err(err(
            "Invalid address",
            "Unexpected extra operators after address.",
            elem_range(second).clone(),
        )),
    }
}

/// `ParseAbsResourceInstance`.
pub fn parse_abs_resource_instance(t: &Traversal) -> Result<ResourceInstanceAddr, Diagnostics> {
    match parse_target(t)? {
        TargetAddr::Resource(r) => Ok(r),
        TargetAddr::Module(_) => Err(err(
            "Invalid address",
            "A resource instance address is required here. The module path must be followed by a resource instance specification.",
            t.range(),
        )),
    }
}

/// What a reference in an expression refers to, as far as the decoders
/// need to know (`addrs.ParseRef`'s subjects, coarsely).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefSubject {
    /// A resource or one instance of it.
    Resource {
        mode: ResourceMode,
        type_name: String,
        name: String,
    },
    /// `count.<name>`.
    CountAttr(String),
    /// `each.<name>`.
    EachAttr(String),
    /// Anything else that is a valid reference (`var.x`, `self`, ...).
    Other,
}

fn single_attr(es: &[Elem<'_>], root: &str) -> Result<String, Diagnostics> {
    match es.get(1) {
        None => Err(err(
            "Invalid reference",
            format!("The \"{root}\" object cannot be accessed directly. Instead, access one of its attributes."),
            elem_range(&es[0]).clone(),
        )),
        Some(Elem::Name(n, _)) => Ok(n.to_string()),
        Some(Elem::Index(_, r)) => Err(err(
            "Invalid reference",
            format!("The \"{root}\" object does not support this operation."),
            (*r).clone(),
        )),
    }
}

/// `addrs.ParseRef`, reduced to the subject kind.
pub fn parse_ref(t: &Traversal) -> Result<RefSubject, Diagnostics> {
    let es = elems(t);
    let root = t.root.as_str();
    match root {
        "count" => single_attr(&es, root).map(RefSubject::CountAttr),
        "each" => single_attr(&es, root).map(RefSubject::EachAttr),
        "data" | "resource" | "ephemeral" => {
            if es.len() < 3 {
                let detail = match root {
                    "data" => "The \"data\" object must be followed by two attribute names: the data source type and the resource name.",
                    "ephemeral" => "The \"ephemeral\" object must be followed by two attribute names: the ephemeral resource type and the resource name.",
                    _ => "The \"resource\" object must be followed by two attribute names: the resource type and the resource name.",
                };
                return Err(err("Invalid reference", detail, t.range()));
            }
            let mode = match root {
                "data" => ResourceMode::Data,
                "ephemeral" => ResourceMode::Ephemeral,
                _ => ResourceMode::Managed,
            };
            resource_ref(mode, &es[1..])
        }
        "local" | "path" | "terraform" | "var" => single_attr(&es, root).map(|_| RefSubject::Other),
        "module" => {
            single_attr(&es, root)?;
            let rest = &es[2..];
            let rest = match rest.first() {
                Some(Elem::Index(..)) => &rest[1..],
                _ => rest,
            };
            match rest.first() {
                None | Some(Elem::Name(..)) => Ok(RefSubject::Other),
                Some(Elem::Index(_, r)) => Err(err(
                    "Invalid reference",
                    "Module instance objects do not support this operation.",
                    (*r).clone(),
                )),
            }
        }
        "self" => Ok(RefSubject::Other),
        "template" | "lazy" | "arg" => Err(err(
            "Reserved symbol name",
            format!("The symbol name \"{root}\" is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name."),
            t.root_range.clone(),
        )),
        _ => resource_ref(ResourceMode::Managed, &es),
    }
}

fn resource_ref(mode: ResourceMode, es: &[Elem<'_>]) -> Result<RefSubject, Diagnostics> {
    if es.len() < 2 {
        return Err(err(
            "Invalid reference",
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            span(es),
        ));
    }
    let type_name = match &es[0] {
        Elem::Name(n, _) => n.to_string(),
        Elem::Index(_, r) => {
            return Err(err(
                "Invalid reference",
                "The \"data\" object does not support this operation.",
                (*r).clone(),
            ))
        }
    };
    let name = match &es[1] {
        Elem::Name(n, _) => n.to_string(),
        Elem::Index(_, r) => {
            let what = if mode == ResourceMode::Data {
                "data source"
            } else {
                "resource type"
            };
            return Err(err(
                "Invalid reference",
                format!("A reference to a {what} must be followed by at least one attribute access, specifying the resource name."),
                (*r).clone(),
            ));
        }
    };
    if let Some(Elem::Index(l, r)) = es.get(2) {
        if let Err(e) = instance_key(l) {
            return Err(err(
                "Invalid index key",
                format!("Invalid index for resource instance: {e}."),
                (*r).clone(),
            ));
        }
    }
    Ok(RefSubject::Resource {
        mode,
        type_name,
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(text: &str) -> Result<TargetAddr, Diagnostics> {
        let (t, diags) =
            hclsyntax::native::parse_traversal_abs(text, "main.tf", hclsyntax::Pos::START);
        assert!(diags.is_empty(), "{text}: {diags:?}");
        parse_target(&t.expect("a traversal"))
    }

    /// OpenTofu's parseResourceInstanceUnderModule reserves no first word
    /// (terraform refuses count, each, var, ... and takes a `resource.`
    /// prefix): every other name is a managed resource type.
    #[test]
    fn no_reserved_first_words() {
        for (text, type_name, name) in [
            ("var.v", "var", "v"),
            ("local.l", "local", "l"),
            ("count.index", "count", "index"),
            ("each.key", "each", "key"),
            ("path.module", "path", "module"),
            ("terraform.workspace", "terraform", "workspace"),
            ("template.t", "template", "t"),
            ("resource.a", "resource", "a"),
        ] {
            let Ok(TargetAddr::Resource(r)) = target(text) else {
                panic!("{text}: {:?}", target(text));
            };
            assert_eq!(
                (r.mode, r.type_name.as_str(), r.name.as_str()),
                (ResourceMode::Managed, type_name, name),
                "{text}"
            );
        }
        // `resource.a.b` is type "resource", name "a" and a step too many.
        let diags = target("resource.a.b").unwrap_err();
        assert_eq!(
            diags[0].detail,
            "Resource instance key must be given in square brackets."
        );
    }

    #[test]
    fn ephemeral_without_type_name() {
        let diags = target("ephemeral[0].a").unwrap_err();
        assert_eq!(diags[0].detail, "An ephemeral resource name is required.");
    }
}
