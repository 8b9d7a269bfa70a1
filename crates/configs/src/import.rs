//! `import` blocks: existing infrastructure brought under a resource
//! address, optionally repeated with `for_each`.

use hclsyntax::static_expr::{abs_traversal, native_view};
use hclsyntax::{
    has_errors, Block, BodySchema, Diagnostic, Diagnostics, Expr, ExprKind, Range, Traversal,
};

use crate::local_addrs::{parse_abs_resource_instance, ResourceInstanceAddr};
use crate::provider_ref::{decode_provider_config_ref, ProviderConfigRef};
use crate::resource::ResourceMode;

/// The module and resource an import targets, whatever its instance keys
/// turn out to be (OpenTofu's `addrs.ConfigResource`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportTarget {
    /// Module call names from the root module.
    pub module: Vec<String>,
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
}

impl ImportTarget {
    /// The resource within its module: the key to look its block up by
    /// ([`crate::Module::resource`]).
    pub fn resource(&self) -> addrs::Resource {
        addrs::Resource {
            mode: self.mode,
            type_name: self.type_name.clone(),
            name: self.name.clone(),
        }
    }

    /// The resource address without instance keys (`module.a.aws_instance.b`).
    pub fn display(&self) -> String {
        let mut s: String = self.module.iter().map(|m| format!("module.{m}.")).collect();
        s.push_str(self.mode.prefix());
        s.push_str(&self.type_name);
        s.push('.');
        s.push_str(&self.name);
        s
    }
}

/// An `import` block.
#[derive(Debug, Clone)]
pub struct Import {
    pub id: Option<Expr>,
    /// Identifies the object by its resource identity instead of `id`.
    pub identity: Option<Expr>,
    /// The `to` address as written (JSON strings already read as native
    /// expressions); instance keys may be dynamic.
    pub to: Option<Expr>,
    /// The module and resource `to` names.
    pub static_to: Option<ImportTarget>,
    /// The full instance address, when `to` has only constant keys.
    pub resolved_to: Option<ResourceInstanceAddr>,
    pub for_each: Option<Expr>,
    pub provider_config_ref: Option<ProviderConfigRef>,
    pub decl_range: Range,
    pub provider_decl_range: Option<Range>,
}

fn import_schema() -> BodySchema {
    BodySchema::new(&["provider", "id", "identity", "to", "for_each"], &[]).require(&["to"])
}

const INVALID_TO_DETAIL: &str = "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module";

/// `absTraversalForImportToExpr`: the traversal of `to` with dynamic index
/// steps left out.
fn import_to_traversal(expr: &Expr) -> Result<Traversal, Diagnostics> {
    match &expr.kind {
        ExprKind::Index { collection, .. } => import_to_traversal(collection),
        ExprKind::RelativeTraversal { source, steps } => {
            let mut t = import_to_traversal(source)?;
            t.steps.extend(steps.iter().cloned());
            Ok(t)
        }
        ExprKind::ScopeTraversal(t) => Ok(t.clone()),
        _ => Err(vec![Diagnostic::error(
            "Invalid import address expression",
            INVALID_TO_DETAIL,
            expr.range.clone(),
        )]),
    }
}

/// Decodes an `import` block.
pub fn decode_import_block(block: &Block) -> (Import, Diagnostics) {
    let mut imp = Import {
        id: None,
        identity: None,
        to: None,
        static_to: None,
        resolved_to: None,
        for_each: None,
        provider_config_ref: None,
        decl_range: block.def_range(),
        provider_decl_range: None,
    };
    let (content, mut diags) = block.body.content(&import_schema());

    let id_attr = content.attribute("id");
    let identity_attr = content.attribute("identity");
    imp.id = id_attr.map(|a| a.expr.clone());
    imp.identity = identity_attr.map(|a| a.expr.clone());

    if let Some(attr) = content.attribute("to") {
        // A JSON string spells the address as a native expression.
        let (to, more) = native_view(&attr.expr);
        let failed = has_errors(&more);
        diags.extend(more);
        if failed {
            return (imp, diags);
        }
        let to = to.into_owned();
        match import_to_traversal(&to).and_then(|t| parse_abs_resource_instance(&t)) {
            Ok(addr) => {
                imp.static_to = Some(ImportTarget {
                    module: addr.module.iter().map(|m| m.name.clone()).collect(),
                    mode: addr.mode,
                    type_name: addr.type_name.clone(),
                    name: addr.name.clone(),
                });
            }
            Err(more) => {
                // Without the target the provider cannot be checked either.
                diags.extend(more);
                imp.to = Some(to);
                return (imp, diags);
            }
        }
        imp.resolved_to = abs_traversal(&to)
            .ok()
            .and_then(|t| parse_abs_resource_instance(&t).ok());
        imp.to = Some(to);
    }

    if let Some(attr) = content.attribute("provider") {
        if imp.static_to.as_ref().is_some_and(|t| !t.module.is_empty()) {
            diags.push(Diagnostic::error(
                "Invalid import provider argument",
                "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.",
                attr.range.clone(),
            ));
        }
        let (pref, more) = decode_provider_config_ref(&attr.expr, "provider");
        diags.extend(more);
        imp.provider_config_ref = pref;
        imp.provider_decl_range = Some(attr.range.clone());
    }

    if let Some(attr) = content.attribute("for_each") {
        imp.for_each = Some(attr.expr.clone());
    }

    match (id_attr, identity_attr) {
        (None, None) => diags.push(Diagnostic::error(
            "Missing required import argument",
            "One of 'id' or 'identity' must be specified in an import block to identify the resource instance to import.",
            block.def_range(),
        )),
        (Some(a), Some(b)) => {
            let (first, last) = if a.range.start.byte <= b.range.start.byte {
                (a, b)
            } else {
                (b, a)
            };
            diags.push(Diagnostic::error(
                "Conflicting import arguments",
                "Only one of 'id' or 'identity' can be specified in an import block. 'id' identifies the resource instance by its ID, while 'identity' identifies the resource instance by its Resource Identity. Choose one method to identify the resource instance to import.",
                first.range.to(&last.range),
            ));
        }
        _ => {}
    }
    (imp, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_block, parse_named};

    fn decode(src: &str) -> (Import, Diagnostics) {
        let file = parse_named("main.tf", src);
        decode_import_block(&first_block(&file))
    }

    #[test]
    fn provider_in_module_import_clashes() {
        // invalid-import-files/import-and-module-clash.tf, from its import block.
        let src = "\n\n\n\n\n\n\nimport {\n  provider = local\n  id = \"foo/bar\"\n  to = module.importable_resource.local_file.foo\n}\n";
        let (imp, diags) = decode(src);
        assert_eq!(diags.len(), 1, "{diags:?}");
        let d = &diags[0];
        assert_eq!(
            format!("{}: {}; {}", d.subject.as_ref().unwrap(), d.summary, d.detail),
            "main.tf:9,3-19: Invalid import provider argument; The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources."
        );
        let to = imp.static_to.unwrap();
        assert_eq!(to.display(), "module.importable_resource.local_file.foo");
    }

    #[test]
    fn dynamic_keys() {
        let (imp, diags) = decode(
            "import {\n  for_each = var.m\n  id = each.value\n  to = module.m[each.key].aws_s3_bucket.b[each.key]\n}\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(imp.static_to.unwrap().display(), "module.m.aws_s3_bucket.b");
        assert!(imp.resolved_to.is_none());
        let (imp, _) =
            decode("import {\n  id = \"x\"\n  to = module.m[2].aws_s3_bucket.b[\"k\"]\n}\n");
        assert_eq!(
            imp.resolved_to.unwrap().display(),
            "module.m[2].aws_s3_bucket.b[\"k\"]"
        );
    }

    #[test]
    fn id_rules() {
        let (_, diags) = decode("import {\n  to = a.b\n}\n");
        assert_eq!(diags[0].summary, "Missing required import argument");
        let (_, diags) = decode("import {\n  to = a.b\n  id = \"x\"\n  identity = {}\n}\n");
        assert_eq!(diags[0].summary, "Conflicting import arguments");
        let s = diags[0].subject.as_ref().unwrap();
        assert_eq!((s.start.line, s.end.line), (3, 4));
    }

    #[test]
    fn invalid_to() {
        let (_, diags) = decode("import {\n  id = \"x\"\n  to = upper(\"a\")\n}\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid import address expression");
        let (_, diags) = decode("import {\n  id = \"x\"\n  to = module.a\n}\n");
        assert_eq!(diags[0].summary, "Invalid address");
    }
}
