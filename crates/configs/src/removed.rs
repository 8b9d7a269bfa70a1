//! `removed` blocks: a resource or module taken out of the configuration,
//! destroyed or only forgotten (`lifecycle { destroy = false }`), with
//! optional destroy-time provisioners.

use hclsyntax::static_expr::abs_traversal;
use hclsyntax::{has_errors, Block, BodySchema, Diagnostic, Diagnostics, Range, Traversal};

use crate::decode_value::decode_bool;
use crate::local_addrs::{parse_config_removable, TargetAddr};
use crate::provisioner::{decode_provisioner_block, Provisioner, ProvisionerWhen};
use crate::resource::ResourceMode;

/// A `removed` block.
#[derive(Debug, Clone)]
pub struct Removed {
    /// The removed object (never with instance keys, never a data source).
    pub from: Option<TargetAddr>,
    pub from_range: Option<Range>,
    /// `lifecycle { destroy = ... }`; false when unset.
    pub destroy: bool,
    pub destroy_set: bool,
    pub provisioners: Vec<Provisioner>,
    pub decl_range: Range,
}

fn removed_schema() -> BodySchema {
    BodySchema::new(&["from"], &[("lifecycle", &[]), ("provisioner", &["type"])]).require(&["from"])
}

/// `ParseRemoveEndpoint` (internal/addrs/remove_endpoint.go): a module or
/// a resource, without instance keys, neither a data source nor an
/// ephemeral resource.
fn parse_remove_endpoint(t: &Traversal) -> Result<TargetAddr, Diagnostics> {
    let addr = parse_config_removable(t)?;
    if let TargetAddr::Resource(r) = &addr {
        if r.mode == ResourceMode::Data {
            return Err(vec![Diagnostic::error(
                "Data source address is not allowed",
                "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.",
                t.range(),
            )]);
        }
        if r.mode == ResourceMode::Ephemeral {
            return Err(vec![Diagnostic::error(
                "Ephemeral resource address is not allowed",
                "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.",
                t.range(),
            )]);
        }
    }
    Ok(addr)
}

/// Decodes a `removed` block.
pub fn decode_removed_block(block: &Block) -> (Removed, Diagnostics) {
    let mut removed = Removed {
        from: None,
        from_range: None,
        destroy: false,
        destroy_set: false,
        provisioners: Vec::new(),
        decl_range: block.def_range(),
    };
    let (content, mut diags) = block.body.content(&removed_schema());

    if let Some(attr) = content.attribute("from") {
        match abs_traversal(&attr.expr) {
            Ok(t) => match parse_remove_endpoint(&t) {
                Ok(addr) => {
                    removed.from = Some(addr);
                    removed.from_range = Some(t.range());
                }
                Err(more) => diags.extend(more),
            },
            Err(more) => diags.extend(more),
        }
    }

    let mut seen_lifecycle: Option<Range> = None;
    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "lifecycle" => {
                if let Some(first) = &seen_lifecycle {
                    diags.push(Diagnostic::error(
                        "Duplicate lifecycle block",
                        format!("The removed block already has a lifecycle block at {first}."),
                        inner.def_range(),
                    ));
                    continue;
                }
                seen_lifecycle = Some(inner.def_range());
                let (lc, more) = inner.body.content(&BodySchema::new(&["destroy"], &[]));
                diags.extend(more);
                if let Some(attr) = lc.attribute("destroy") {
                    match decode_bool(&attr.expr) {
                        Ok(b) => removed.destroy = b,
                        Err(more) => diags.extend(more),
                    }
                    removed.destroy_set = true;
                }
            }
            "provisioner" => {
                let (pv, more) = decode_provisioner_block(inner);
                diags.extend(more);
                let Some(pv) = pv else { continue };
                if pv.when != ProvisionerWhen::Destroy {
                    diags.push(Diagnostic::error(
                        "Invalid \"removed.provisioner\" block",
                        "\"removed\" blocks can only contain destroy provisioners. \"removed.provisioner.when = destroy\" expected",
                        inner.def_range(),
                    ));
                    continue;
                }
                if matches!(removed.from, Some(TargetAddr::Module(_))) {
                    diags.push(Diagnostic::error(
                        "Invalid \"removed\" block",
                        "\"removed\" blocks containing \"provisioner\"s can only target resources. Found one block that is targeting a module",
                        removed.decl_range.clone(),
                    ));
                    continue;
                }
                removed.provisioners.push(pv);
            }
            _ => {}
        }
    }

    if !has_errors(&diags) {
        if !removed.destroy_set {
            diags.push(Diagnostic::warning(
                "Missing lifecycle from the removed block",
                "It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior.",
                removed.decl_range.clone(),
            ));
        } else if !removed.destroy && !removed.provisioners.is_empty() {
            diags.push(Diagnostic::warning(
                "Removed block provisioners will not be executed",
                "The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed.",
                removed.decl_range.clone(),
            ));
        }
    }
    (removed, diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_block, parse};

    fn decode(src: &str) -> (Removed, Diagnostics) {
        let file = parse(src);
        decode_removed_block(&first_block(&file))
    }

    #[test]
    fn forgets_or_destroys() {
        for (from, destroy) in [("test.foo", false), ("module.a", true)] {
            let (r, diags) = decode(&format!(
                "removed {{\n  from = {from}\n  lifecycle {{\n    destroy = {destroy}\n  }}\n}}\n"
            ));
            assert!(diags.is_empty(), "{diags:?}");
            assert!(r.destroy_set);
            assert_eq!(r.destroy, destroy);
        }
    }

    #[test]
    fn missing_lifecycle_warns() {
        let (_, diags) = decode("removed {\n  from = test.foo\n}\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Missing lifecycle from the removed block");
        assert!(!diags[0].is_error());
    }

    /// The first error and its columns (all on line 2).
    fn refused(from: &str) -> (String, String, u32, u32) {
        let (_, diags) = decode(&format!(
            "removed {{\n  from = {from}\n  lifecycle {{\n    destroy = false\n  }}\n}}\n"
        ));
        let d = &diags[0];
        let r = d.subject.as_ref().unwrap();
        assert_eq!((r.start.line, r.end.line), (2, 2), "{from}");
        (
            d.summary.clone(),
            d.detail.clone(),
            r.start.column,
            r.end.column,
        )
    }

    /// ParseRemoveEndpoint's texts and ranges (internal/addrs/
    /// remove_endpoint.go, module.go's parseModulePrefix, parse_target.go's
    /// parseResourceUnderModule).
    #[test]
    fn refuses_data_ephemeral_and_instances() {
        let keys = "Resource address cannot be a resource instance (e.g. \"null_resource.a[0]\"), it must be a resource instead (e.g. \"null_resource.a\").";
        for (from, summary, detail, columns) in [
            (
                "data.test.foo",
                "Data source address is not allowed",
                "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.",
                (10, 23),
            ),
            (
                "ephemeral.test.foo",
                "Ephemeral resource address is not allowed",
                "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.",
                (10, 28),
            ),
            ("test.foo[0]", "Resource instance address with keys is not allowed", keys, (18, 21)),
            // Data sources are refused only once the address parsed.
            ("data.test.foo[\"a\"]", "Resource instance address with keys is not allowed", keys, (23, 28)),
            // Any one step after the name is taken for a key.
            ("test.foo.id", "Resource instance address with keys is not allowed", keys, (18, 21)),
            (
                "module.a[0]",
                "Module instance address with keys is not allowed",
                "Module address cannot be a module instance (e.g. \"module.a[0]\"), it must be a module instead (e.g. \"module.a\").",
                (18, 21),
            ),
            ("module.a.o", "Invalid address", "Resource specification must include a resource type and name.", (18, 20)),
        ] {
            let want = (summary.to_string(), detail.to_string(), columns.0, columns.1);
            assert_eq!(refused(from), want, "{from}");
        }
    }

    #[test]
    fn provisioners_must_be_destroy_time() {
        let (r, diags) = decode(
            "removed {\n  from = test.foo\n  lifecycle {\n    destroy = true\n  }\n  provisioner \"local-exec\" {\n    when = destroy\n  }\n  provisioner \"local-exec\" {\n  }\n}\n",
        );
        assert_eq!(r.provisioners.len(), 1);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid \"removed.provisioner\" block");
        assert_eq!(diags[0].subject.as_ref().unwrap().start.line, 9);
    }
}
