//! `module` blocks: calls of child modules, as OpenTofu's `module_call.go`,
//! with the static decoding of constant `source` / `version` arguments and
//! the override merge.

use std::sync::Arc;

use addrs::{parse_module_source, parse_module_source_registry, ModuleSource};
use hclsyntax::static_expr::expr_map;
use hclsyntax::{
    has_errors, Attribute, Block, BodySchema, Diagnostic, Diagnostics, Expr, Range, Traversal,
};

use crate::decode_value::decode_string;
use crate::depends_on::decode_depends_on;
use crate::merged_body::{merge_bodies, union_bodies, ConfigBody};
use crate::named_values::BAD_IDENTIFIER_DETAIL;
use crate::provider_ref::{decode_provider_config_ref, ProviderConfigRef};
use crate::version_constraint::{decode_version_constraint, VersionConstraint};

/// A `module` block.
#[derive(Debug, Clone)]
pub struct ModuleCall {
    pub name: String,
    pub name_range: Range,
    /// The `source` expression; evaluated statically (see
    /// [`decode_static_source`]).
    pub source: Option<Expr>,
    pub source_set: bool,
    /// The source string and address, once statically decoded.
    pub source_addr_raw: Option<String>,
    pub source_addr: Option<ModuleSource>,
    /// The `version` argument; evaluated statically (see
    /// [`decode_version_constraint`]).
    pub version_attr: Option<Arc<Attribute>>,
    /// The version constraint, once statically decoded.
    pub version: Option<VersionConstraint>,
    /// The arguments for the child module's variables (what is left after
    /// the meta-arguments, joined with any `_` escaping block).
    pub config: ConfigBody,
    pub count: Option<Expr>,
    pub for_each: Option<Expr>,
    /// `lifecycle { enabled = ... }`.
    pub enabled: Option<Expr>,
    pub providers: Vec<PassedProviderConfig>,
    pub depends_on: Vec<Traversal>,
    /// The block header (`module "name"`).
    pub decl_range: Range,
}

/// `providers = { child = parent }`: a provider configuration passed to a
/// child module, possibly under another local name.
#[derive(Debug, Clone)]
pub struct PassedProviderConfig {
    pub in_child: ProviderConfigRef,
    pub in_parent: ProviderConfigRef,
}

fn module_schema(override_file: bool) -> BodySchema {
    let schema = BodySchema::new(
        &[
            "source",
            "version",
            "count",
            "for_each",
            "depends_on",
            "providers",
        ],
        &[
            // Meta-argument escaping block.
            ("_", &[]),
            ("lifecycle", &[]),
            // Reserved for future use.
            ("locals", &[]),
            ("provider", &["type"]),
        ],
    );
    if override_file {
        schema
    } else {
        schema.require(&["source"])
    }
}

fn lifecycle_schema() -> BodySchema {
    BodySchema::new(&["enabled"], &[])
}

/// Decodes a `module` block. `source` and `version` are only recorded:
/// they are evaluated statically once the module is assembled.
pub fn decode_module_block(
    block: &Block,
    override_file: bool,
) -> (Option<ModuleCall>, Diagnostics) {
    let Some(label) = block.labels.first() else {
        return (None, Vec::new());
    };
    let (content, remain, mut diags) = block.body.partial_content(&module_schema(override_file));
    let mut mc = ModuleCall {
        name: label.value.clone(),
        name_range: label.range.clone(),
        source: None,
        source_set: false,
        source_addr_raw: None,
        source_addr: None,
        version_attr: None,
        version: None,
        config: ConfigBody::Single(remain),
        count: None,
        for_each: None,
        enabled: None,
        providers: Vec::new(),
        depends_on: Vec::new(),
        decl_range: block.def_range(),
    };

    if !hclsyntax::valid_identifier(&mc.name) {
        diags.push(Diagnostic::error(
            "Invalid module instance name",
            BAD_IDENTIFIER_DETAIL,
            label.range.clone(),
        ));
    }

    if let Some(attr) = content.attribute("version") {
        mc.version_attr = Some(attr.clone());
    }
    if let Some(attr) = content.attribute("source") {
        mc.source_set = true;
        mc.source = Some(attr.expr.clone());
    }

    let count = content.attribute("count");
    let for_each = content.attribute("for_each");
    mc.count = count.map(|a| a.expr.clone());
    mc.for_each = for_each.map(|a| a.expr.clone());

    if let Some(attr) = content.attribute("depends_on") {
        let (deps, more) = decode_depends_on(attr);
        diags.extend(more);
        mc.depends_on.extend(deps);
    }

    if let Some(attr) = content.attribute("providers") {
        let (providers, more) = decode_passed_provider_configs(attr);
        diags.extend(more);
        mc.providers.extend(providers);
    }

    let mut enabled: Option<Arc<Attribute>> = None;
    let mut seen_escape: Option<Range> = None;
    for b in &content.blocks {
        match b.type_name.as_str() {
            "_" => {
                if let Some(first) = &seen_escape {
                    diags.push(Diagnostic::error(
                        "Duplicate escaping block",
                        format!(
                            "The special block type \"_\" can be used to force particular arguments to be interpreted as module input variables rather than as meta-arguments, but each module block can have only one such block. The first escaping block was at {first}."
                        ),
                        b.def_range(),
                    ));
                    continue;
                }
                seen_escape = Some(b.def_range());
                mc.config = union_bodies(vec![mc.config.clone(), ConfigBody::Single(b.body.clone())]);
            }
            "lifecycle" => {
                let (lc, more) = b.body.content(&lifecycle_schema());
                diags.extend(more);
                if let Some(attr) = lc.attribute("enabled") {
                    mc.enabled = Some(attr.expr.clone());
                    enabled = Some(attr.clone());
                }
            }
            _ => diags.push(Diagnostic::error(
                "Reserved block type name in module block",
                format!(
                    "The block type name \"{}\" is reserved for use by OpenTofu in a future version.",
                    b.type_name
                ),
                b.type_range.clone(),
            )),
        }
    }

    diags.extend(repetition_conflicts(
        count.map(|a| &**a),
        enabled.as_deref(),
        for_each.map(|a| &**a),
        "module instances",
    ));

    (Some(mc), diags)
}

/// The errors for using more than one of `count`, `enabled` and
/// `for_each`; `what` is what they count ("module instances"). The subject
/// covers the names of the arguments involved.
pub fn repetition_conflicts(
    count: Option<&Attribute>,
    enabled: Option<&Attribute>,
    for_each: Option<&Attribute>,
    what: &str,
) -> Diagnostics {
    let set: Vec<(&str, &Attribute)> = [
        ("count", count),
        ("enabled", enabled),
        ("for_each", for_each),
    ]
    .into_iter()
    .filter_map(|(n, a)| a.map(|a| (n, a)))
    .collect();
    if set.len() < 2 {
        return Vec::new();
    }
    let names: Vec<String> = set.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    let joined = if names.len() == 2 {
        format!("{} and {}", names[0], names[1])
    } else {
        format!("{}, {}, and {}", names[0], names[1], names[2])
    };
    let mut start = set[0].1.name_range.clone();
    let mut end = set[0].1.name_range.clone();
    for (_, a) in &set[1..] {
        if a.name_range.start.byte < start.start.byte {
            start = a.name_range.clone();
        }
        if a.name_range.end.byte > end.end.byte {
            end = a.name_range.clone();
        }
    }
    vec![Diagnostic::error(
        format!("Invalid combination of {joined}"),
        format!(
            "The {joined} meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of {what} to be created."
        ),
        start.to(&end),
    )]
}

/// `decodePassedProviderConfigs`: the `providers` map of a module block.
pub fn decode_passed_provider_configs(
    attr: &Attribute,
) -> (Vec<PassedProviderConfig>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let pairs = match expr_map(&attr.expr) {
        Ok(p) => p,
        Err(more) => return (Vec::new(), more),
    };
    let mut seen: Vec<(String, Range)> = Vec::new();
    let mut out = Vec::new();
    for (key, value) in &pairs {
        let (k, key_diags) = decode_provider_config_ref(&key.expr, "providers");
        let key_err = has_errors(&key_diags);
        diags.extend(key_diags);
        let (v, value_diags) = decode_provider_config_ref(value, "providers");
        let value_err = has_errors(&value_diags);
        diags.extend(value_diags);
        let (Some(k), Some(v)) = (k, v) else { continue };
        if key_err || value_err {
            continue;
        }
        let match_key = k.display();
        if let Some((_, prev)) = seen.iter().find(|(m, _)| *m == match_key) {
            diags.push(Diagnostic::error(
                "Duplicate provider address",
                format!(
                    "A provider configuration was already passed to {match_key} at {prev}. Each child provider configuration can be assigned only once."
                ),
                value.range.clone(),
            ));
            continue;
        }
        seen.push((match_key, key.expr.range.to(&value.range)));
        out.push(PassedProviderConfig {
            in_child: k,
            in_parent: v,
        });
    }
    (out, diags)
}

/// Reads a constant `source` argument and parses it as a module source
/// address (a registry address when the call also has a `version`), with
/// OpenTofu's messages. Returns the source string and address.
pub fn decode_static_source(
    expr: &Expr,
    has_version: bool,
) -> (Option<(String, ModuleSource)>, Diagnostics) {
    match decode_string(expr) {
        Ok(raw) => {
            let (addr, diags) = parse_source_string(&raw, has_version, &expr.range);
            (addr.map(|a| (raw, a)), diags)
        }
        Err(diags) => (None, diags),
    }
}

/// Parses an already evaluated source string; an error is reported at
/// `range` (the source expression).
pub fn parse_source_string(
    raw: &str,
    has_version: bool,
    range: &Range,
) -> (Option<ModuleSource>, Diagnostics) {
    let parsed = if has_version {
        parse_module_source_registry(raw)
    } else {
        parse_module_source(raw)
    };
    match parsed {
        Ok(addr) => (Some(addr), Vec::new()),
        Err(err) => {
            let (summary, detail) = err.module_call_diagnostic(has_version);
            (
                None,
                vec![Diagnostic::error(summary, detail, range.clone())],
            )
        }
    }
}

impl ModuleCall {
    /// Decodes `version`, then `source`, when they are constants (what the
    /// static evaluator does when no variable or local is involved). A
    /// version that is null counts as none. When the version cannot be
    /// decoded the source is left alone: whether it must be a registry
    /// address is not known yet.
    pub fn decode_constant_static_fields(&mut self) -> Diagnostics {
        let mut diags = Diagnostics::new();
        if let Some(attr) = &self.version_attr {
            let (vc, more) = decode_version_constraint(attr);
            let failed = has_errors(&more);
            diags.extend(more);
            if failed {
                return diags;
            }
            self.version = Some(vc);
        }
        if let Some(expr) = &self.source {
            let (got, more) = decode_static_source(expr, self.has_version());
            diags.extend(more);
            if let Some((raw, addr)) = got {
                self.source_addr_raw = Some(raw);
                self.source_addr = Some(addr);
            }
        }
        diags
    }

    /// Whether the call has a (non-null) version constraint, once decoded:
    /// what makes its source a registry address.
    pub fn has_version(&self) -> bool {
        self.version
            .as_ref()
            .is_some_and(|v| !v.required.is_empty())
    }

    /// Whether the call leaves the caller's module package (any source but
    /// a local path).
    pub fn enters_new_package(&self) -> bool {
        self.source_addr
            .as_ref()
            .is_some_and(|a| !matches!(a, ModuleSource::Local(_)))
    }

    /// Applies an override file's block (`ModuleCall.merge`).
    pub fn merge(&mut self, over: &ModuleCall) -> Diagnostics {
        if over.source_set {
            self.source = over.source.clone();
            self.source_set = true;
            self.source_addr = over.source_addr.clone();
            self.source_addr_raw = over.source_addr_raw.clone();
        }
        if over.count.is_some() {
            self.count = over.count.clone();
        }
        if over.for_each.is_some() {
            self.for_each = over.for_each.clone();
        }
        if over.enabled.is_some() {
            self.enabled = over.enabled.clone();
        }
        if over.version_attr.is_some() {
            self.version_attr = over.version_attr.clone();
            self.version = over.version.clone();
        }
        self.config = merge_bodies(&self.config, &over.config);
        if !over.providers.is_empty() {
            self.providers = over.providers.clone();
        }
        let mut diags = Diagnostics::new();
        if let Some(first) = over.depends_on.first() {
            diags.push(Diagnostic::error(
                "Unsupported override",
                "The depends_on argument may not be overridden.",
                first.range(),
            ));
        }
        diags
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::{blocks, render};

    fn calls(name: &str, src: &str, override_file: bool) -> Option<(Vec<ModuleCall>, Diagnostics)> {
        let bs = blocks(name, src, "module", &["name"])?;
        let mut out = Vec::new();
        let mut diags = Vec::new();
        for b in bs {
            let (m, more) = decode_module_block(&b, override_file);
            diags.extend(more);
            out.extend(m);
        }
        Some((out, diags))
    }

    const MODULE_CALLS_TF: &str = "\nmodule \"foo\" {\n  source = \"./foo\"\n  # this block intentionally left (almost) blank\n}\n\nmodule \"bar\" {\n  source = \"hashicorp/bar/aws\"\n\n  boom = \"🎆\"\n  yes  = true\n}\n\nmodule \"baz\" {\n  source = \"git::https://example.com/\"\n\n  a = 1\n\n  count    = 12\n  for_each = [\"a\", \"b\", \"c\"]\n\n  depends_on = [\n    module.bar,\n  ]\n\n  providers = {\n    aws = aws.foo\n  }\n}\n\nmodule \"enabled_test\" {\n  source = \"./foo\"\n  lifecycle {\n    enabled = true\n  }\n  count = 0\n}\n";

    #[test]
    fn module_calls_fixture() {
        // testdata/invalid-files/module-calls.tf
        let Some((mut calls, diags)) = calls("module-calls.tf", MODULE_CALLS_TF, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec![
                "module-calls.tf:19,3-20,11: Invalid combination of \"count\" and \"for_each\"; The \"count\" and \"for_each\" meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created.",
                "module-calls.tf:34,5-36,8: Invalid combination of \"count\" and \"enabled\"; The \"count\" and \"enabled\" meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created.",
            ]
        );
        for c in &mut calls {
            assert!(c.decode_constant_static_fields().is_empty());
        }
        assert_eq!(
            calls[0].source_addr,
            Some(ModuleSource::Local("./foo".into()))
        );
        assert!(matches!(
            calls[1].source_addr,
            Some(ModuleSource::Registry { .. })
        ));
        assert_eq!(calls[2].depends_on[0].display(), "module.bar");
        assert_eq!(calls[2].providers[0].in_child.name, "aws");
        assert_eq!(calls[2].providers[0].in_parent.display(), "aws.foo");
        let (attrs, _) = calls[1].config.just_attributes();
        let names: Vec<_> = attrs.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, vec!["boom", "yes"]);
    }

    #[test]
    fn json_module_call() {
        let src = r#"{"module": {"m": {"source": "./m", "version": "1.0.0", "x": 1}}}"#;
        let (mut calls, diags) = calls("m.tf.json", src, false).unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        let diags = calls[0].decode_constant_static_fields();
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid registry module source address");
        assert!(diags[0]
            .detail
            .starts_with("Failed to parse module registry address: can't use local directory \"./m\" as a module registry address."));
        assert!(calls[0].version.is_some());
    }

    #[test]
    fn invalid_name_and_reserved_blocks() {
        let src = "module \"1x\" {\n  source = \"./a\"\n  locals {}\n}\n";
        let Some((_, diags)) = calls("m.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec![
                format!("m.tf:1,8-12: Invalid module instance name; {BAD_IDENTIFIER_DETAIL}"),
                "m.tf:3,3-9: Reserved block type name in module block; The block type name \"locals\" is reserved for use by OpenTofu in a future version.".to_string(),
            ]
        );
    }

    #[test]
    fn duplicate_passed_provider() {
        let src = "module \"m\" {\n  source = \"./a\"\n  providers = {\n    aws = aws.a\n    aws = aws.b\n  }\n}\n";
        let Some((_, diags)) = calls("m.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec!["m.tf:5,11-16: Duplicate provider address; A provider configuration was already passed to aws at m.tf:4,5-16. Each child provider configuration can be assigned only once."]
        );
    }

    #[test]
    fn escaping_block_joins_config() {
        let src = "module \"m\" {\n  source = \"./a\"\n  x = 1\n  _ {\n    count = 2\n  }\n}\n";
        let Some((calls, diags)) = calls("m.tf", src, false) else {
            return;
        };
        assert!(diags.is_empty(), "{diags:?}");
        assert!(calls[0].count.is_none());
        let (attrs, _) = calls[0].config.just_attributes();
        let names: Vec<_> = attrs.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, vec!["x", "count"]);
    }

    #[test]
    fn merge_overrides() {
        let base = r#"{"module": {"m": {"source": "./a", "x": 1}}}"#;
        let over = r#"{"module": {"m": {"source": "./b", "depends_on": ["module.z"]}}}"#;
        let (mut b, _) = calls("a.tf.json", base, false).unwrap();
        let (o, d) = calls("a_override.tf.json", over, true).unwrap();
        assert!(d.is_empty(), "{d:?}");
        let diags = b[0].merge(&o[0]);
        assert_eq!(diags[0].summary, "Unsupported override");
        assert_eq!(
            crate::decode_value::decode_string(b[0].source.as_ref().unwrap()).unwrap(),
            "./b"
        );
    }
}
