//! What an object's expressions refer to, and which graph nodes those
//! references mean (OpenTofu's `ReferenceTransformer` and
//! `lang.ReferencesInExpr`).

use addrs::{parse_ref, Module as ModulePath, Reference, Referenceable};
use configs::config::Config;
use configs::merged_body::ConfigBody;
use hclsyntax::body::BodySyntax;
use hclsyntax::{Body, Expr, Traversal};

use super::{Node, NodeKind};

/// The references among `traversals` that parse (the evaluation reports
/// those that do not).
pub fn references_in(traversals: impl IntoIterator<Item = Traversal>) -> Vec<Reference> {
    traversals
        .into_iter()
        .filter_map(|t| parse_ref(&t).ok())
        .collect()
}

/// Every traversal in every expression of a block body, nested blocks
/// included (a resource body has no schema here to say which is which).
pub fn body_traversals(body: &ConfigBody, out: &mut Vec<Traversal>) {
    match body {
        ConfigBody::Single(b) => raw_body_traversals(b, out),
        ConfigBody::Union(parts) => parts.iter().for_each(|p| body_traversals(p, out)),
        ConfigBody::Override { base, over } => {
            body_traversals(base, out);
            body_traversals(over, out);
        }
    }
}

fn raw_body_traversals(body: &Body, out: &mut Vec<Traversal>) {
    block_traversals(body, false, out)
}

/// `in_dynamic`: the body of a `dynamic` block, whose `iterator` names a
/// variable instead of referring to anything (dynblock's variables walk
/// skips it).
fn block_traversals(body: &Body, in_dynamic: bool, out: &mut Vec<Traversal>) {
    match &*body.syntax {
        BodySyntax::Native { attributes, blocks } => {
            for a in attributes {
                let names_iterator = in_dynamic && a.name == "iterator";
                if !body.is_attr_hidden(&a.name) && !names_iterator {
                    out.extend(a.expr.variables());
                }
            }
            for b in blocks {
                if !body.is_block_hidden(&b.type_name) {
                    block_traversals(&b.body, b.type_name == "dynamic", out);
                }
            }
        }
        BodySyntax::Json(_) => {
            let (attrs, _) = body.just_attributes();
            for a in attrs {
                out.extend(a.expr.variables());
            }
        }
    }
}

/// Traversals of optional expressions.
pub fn expr_traversals<'a>(exprs: impl IntoIterator<Item = &'a Expr>, out: &mut Vec<Traversal>) {
    for e in exprs {
        out.extend(e.variables());
    }
}

/// The nodes, in module `module` (whose configuration is `config`), that
/// `refs` need. References to things that are not declared lead nowhere:
/// evaluating them reports the error.
pub fn dependencies_of_refs(config: &Config, module: &ModulePath, refs: &[Reference]) -> Vec<Node> {
    let m = &config.module;
    let node = |kind: NodeKind| Node {
        module: module.clone(),
        kind,
    };
    let mut out = Vec::new();
    for r in refs {
        match &r.subject {
            Referenceable::InputVariable(v) if m.variables.contains_key(&v.name) => {
                out.push(node(NodeKind::Variable(v.name.clone())))
            }
            Referenceable::LocalValue(l) if m.locals.contains_key(&l.name) => {
                out.push(node(NodeKind::Local(l.name.clone())))
            }
            Referenceable::ModuleCall(c) => module_outputs(config, module, &c.name, None, &mut out),
            Referenceable::ModuleCallInstance(c) => {
                module_outputs(config, module, &c.call.name, None, &mut out)
            }
            Referenceable::ModuleCallInstanceOutput(o) => {
                module_outputs(config, module, &o.call.call.name, Some(&o.name), &mut out)
            }
            Referenceable::Resource(res) if declared(config, res) => {
                out.push(node(NodeKind::Resource(res.clone())))
            }
            Referenceable::ResourceInstance(ri) if declared(config, &ri.resource) => {
                out.push(node(NodeKind::Resource(ri.resource.clone())))
            }
            _ => {}
        }
    }
    out
}

fn declared(config: &Config, res: &addrs::Resource) -> bool {
    config.module.resource(res).is_some()
}

/// `module.c` or `module.c.out`: the call (its expansion) and the outputs.
fn module_outputs(
    config: &Config,
    module: &ModulePath,
    call: &str,
    output: Option<&str>,
    out: &mut Vec<Node>,
) {
    if !config.module.module_calls.contains_key(call) {
        return;
    }
    out.push(Node {
        module: module.clone(),
        kind: NodeKind::ModuleCall(call.to_string()),
    });
    let Some(child) = config.children.get(call) else {
        return;
    };
    let child_path = module.child(call);
    let named = output.filter(|o| child.module.outputs.contains_key(*o));
    match named {
        Some(o) => out.push(Node {
            module: child_path,
            kind: NodeKind::Output(o.to_string()),
        }),
        None => out.extend(child.module.outputs.keys().map(|o| Node {
            module: child_path.clone(),
            kind: NodeKind::Output(o.clone()),
        })),
    }
}
