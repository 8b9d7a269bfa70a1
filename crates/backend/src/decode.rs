//! Decoding a backend body against its schema with the static evaluator
//! (`Backend.Decode`, i.e. `StaticEvaluator.DecodeBlock` with the schema's
//! `hcldec` spec), and the `-backend-config` overrides merged over it
//! (`backendConfigOverrideBody` + `configs.MergeBodies`).
//!
//! Every attribute is optional here (`NoneRequired`): required arguments
//! may come from `-backend-config`, and OpenTofu decodes the same way.

use std::collections::BTreeMap;
use std::sync::Arc;

use configs::merged_body::ConfigBody;
use configs::static_eval::{has_mark_deep, StaticEvaluator, StaticIdentifier};
use cty::{Mark, Type, Value};
use hclsyntax::{
    AttributeSchema, BlockHeaderSchema, BodySchema, Diagnostic, Diagnostics, Range, SourceFile,
};

use super::schema::{BlockType, Nesting, Schema};

/// The HCL schema of a backend body: every attribute optional, every
/// block type without labels.
pub fn body_schema(schema: &Schema) -> BodySchema {
    BodySchema {
        attributes: schema
            .attrs
            .iter()
            .map(|a| AttributeSchema {
                name: a.name.into(),
                required: false,
            })
            .collect(),
        blocks: schema
            .blocks
            .iter()
            .map(|b| BlockHeaderSchema {
                type_name: b.name.into(),
                label_names: &[],
            })
            .collect(),
    }
}

/// A decoded configuration: the value of each attribute and block type
/// present, before the absent ones are filled in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    pub attrs: BTreeMap<String, Value>,
    pub blocks: BTreeMap<String, Value>,
}

impl Decoded {
    /// `configs.MergeBodies`: `over`'s arguments replace these, and a block
    /// type present in `over` replaces all of this one's blocks of that type.
    pub fn merge(&mut self, over: Decoded) {
        self.attrs.extend(over.attrs);
        self.blocks.extend(over.blocks);
    }

    /// The whole configuration object: absent attributes null, absent
    /// block types null (single) or empty (list, set), as `hcldec` builds it.
    pub fn to_value(&self, schema: &Schema) -> Value {
        let mut out = BTreeMap::new();
        for a in schema.attrs {
            let v = self
                .attrs
                .get(a.name)
                .cloned()
                .unwrap_or_else(|| Value::null(a.ty.implied_type()));
            out.insert(a.name.to_string(), v);
        }
        for b in schema.blocks {
            let v = self
                .blocks
                .get(b.name)
                .cloned()
                .unwrap_or_else(|| empty_blocks(b));
            out.insert(b.name.to_string(), v);
        }
        Value::object(out)
    }
}

fn empty_blocks(b: &BlockType) -> Value {
    match b.nesting {
        Nesting::Single => Value::null(b.object_type()),
        Nesting::List => Value::list_empty(b.object_type()),
        Nesting::Set => Value::set_empty(b.object_type()),
    }
}

/// Decodes `body` with `eval` as `ident`: unknown arguments and blocks are
/// errors, values are converted to the schema's types.
pub fn decode_body(
    eval: &StaticEvaluator,
    body: &ConfigBody,
    schema: &Schema,
    ident: &StaticIdentifier,
) -> (Decoded, Diagnostics) {
    let (content, mut diags) = body.content(&body_schema(schema));
    let mut out = Decoded::default();
    for a in schema.attrs {
        let Some(attr) = content.attribute(a.name) else {
            continue;
        };
        let (v, more) = eval.evaluate(&attr.expr, ident);
        let failed = hclsyntax::has_errors(&more);
        diags.extend(more);
        if failed {
            continue;
        }
        match convert_attr(&v, &a.ty.spec_type(), a.name, &attr.expr.range) {
            Ok(v) => {
                out.attrs.insert(a.name.to_string(), v);
            }
            Err(d) => diags.push(*d),
        }
    }
    for b in schema.blocks {
        let blocks: Vec<_> = content.blocks_of(b.name).collect();
        if blocks.is_empty() {
            continue;
        }
        if b.nesting == Nesting::Single {
            if let Some(second) = blocks.get(1) {
                diags.push(Diagnostic::error(
                    format!("Duplicate {} block", b.name),
                    format!(
                        "Only one {} block is allowed. Another was defined at {}.",
                        cty::format::go_quote(b.name),
                        blocks[0].def_range()
                    ),
                    second.def_range(),
                ));
                continue;
            }
        } else if b.max_items > 0 && blocks.len() > b.max_items {
            diags.push(Diagnostic::error(
                format!("Too many {} blocks", b.name),
                format!(
                    "No more than {} {} blocks are allowed",
                    b.max_items,
                    cty::format::go_quote(b.name)
                ),
                blocks[b.max_items].def_range(),
            ));
            continue;
        }
        let inner = Schema {
            attrs: b.attrs,
            blocks: &[],
        };
        let mut elems = Vec::new();
        for block in &blocks {
            let body = ConfigBody::Single(block.body.clone());
            let (d, more) = decode_body(eval, &body, &inner, ident);
            diags.extend(more);
            elems.push(d.to_value(&inner));
        }
        let v = match b.nesting {
            Nesting::Single => elems.pop(),
            Nesting::List => Value::list(b.object_type(), elems).ok(),
            Nesting::Set => Value::set(b.object_type(), elems).ok(),
        };
        if let Some(v) = v {
            out.blocks.insert(b.name.to_string(), v);
        }
    }
    (out, diags)
}

/// The configuration may hold no sensitive or ephemeral value: it is
/// stored in `.terraform/terraform.tfstate` in plain text.
pub fn refuse_marked(value: &Value, decl_range: &Range) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for (mark, word) in [
        (Mark::Sensitive, "sensitive"),
        (Mark::Ephemeral, "ephemeral"),
    ] {
        if has_mark_deep(value, &mark) {
            diags.push(Diagnostic::error(
                format!("Backend config contains {word} values"),
                format!("The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply {word} credentials via backend specific environment variables"),
                decl_range.clone(),
            ));
        }
    }
    diags
}

/// hcldec's conversion of an attribute's value to its type.
fn convert_attr(v: &Value, ty: &Type, name: &str, range: &Range) -> Result<Value, Box<Diagnostic>> {
    cty::convert::convert(v, ty).map_err(|e| {
        Box::new(Diagnostic::error(
            "Incorrect attribute value type",
            format!(
                "Inappropriate value for attribute {}: {}.",
                cty::format::go_quote(name),
                e.with_path()
            ),
            range.clone(),
        ))
    })
}

/// One `-backend-config` value (`key=value` or a file name), in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Override {
    /// `key=value`.
    Pair { key: String, value: String },
    /// A file of attributes.
    File(String),
}

impl Override {
    /// Reads one `-backend-config` value: a `key=value` pair when it holds
    /// an `=`, a file name otherwise.
    pub fn parse(raw: &str) -> Override {
        match raw.split_once('=') {
            Some((k, v)) => Override::Pair {
                key: k.to_string(),
                value: v.to_string(),
            },
            None => Override::File(raw.to_string()),
        }
    }
}

fn sourceless(summary: &str, detail: String) -> Diagnostic {
    Diagnostic {
        severity: hclsyntax::Severity::Error,
        summary: summary.to_string(),
        detail,
        subject: None,
        context: None,
    }
}

/// `backendConfigOverrideBody`: the `-backend-config` values decoded and
/// merged in command-line order (a file's body, then the `key=value`
/// pairs gathered since the previous file, as OpenTofu flushes them).
/// `None` when there were none; a single empty value gives an empty,
/// non-`None` override (it resets what the block's body set nothing for).
/// Source files read are added to `sources`.
pub fn decode_overrides(
    eval: &StaticEvaluator,
    raw: &[&str],
    schema: &Schema,
    ident: &StaticIdentifier,
    sources: &mut Vec<Arc<SourceFile>>,
) -> (Option<Decoded>, Diagnostics) {
    let mut diags = Diagnostics::new();
    if raw.is_empty() {
        return (None, diags);
    }
    let mut ret = Decoded::default();
    if raw.len() == 1 && raw[0].is_empty() {
        return (Some(ret), diags);
    }
    let mut pending = Decoded::default();
    for item in raw {
        match Override::parse(item) {
            Override::File(path) => {
                let bytes = match std::fs::read(&path) {
                    Ok(b) => b,
                    Err(_) => {
                        diags.push(sourceless(
                            "Failed to read file",
                            format!(
                                "The file {} could not be read.",
                                cty::format::go_quote(&path)
                            ),
                        ));
                        continue;
                    }
                };
                let (file, parse_diags) = hclsyntax::parse_file(&path, &bytes);
                sources.push(file.source.clone());
                let failed = hclsyntax::has_errors(&parse_diags);
                diags.extend(parse_diags);
                if failed {
                    continue;
                }
                let body = ConfigBody::Single(file.body.clone());
                let (decoded, more) = decode_body(eval, &body, schema, ident);
                let failed = hclsyntax::has_errors(&more);
                diags.extend(more);
                if failed {
                    continue;
                }
                ret.merge(std::mem::take(&mut pending));
                ret.merge(decoded);
            }
            Override::Pair { key, value } => {
                let Some(attr) = schema.attr(&key) else {
                    diags.push(sourceless(
                        "Invalid backend configuration argument",
                        format!("The backend configuration argument {} given on the command line is not expected for the selected backend type.", cty::format::go_quote(&key)),
                    ));
                    continue;
                };
                let synth = format!("-backend-config={item}");
                let (v, more) = value_from_cli(&synth, &value, &attr.ty.spec_type());
                let failed = hclsyntax::has_errors(&more);
                diags.extend(more);
                if failed {
                    continue;
                }
                pending.attrs.insert(key, v);
            }
        }
    }
    ret.merge(pending);
    (Some(ret), diags)
}

/// `configValueFromCLI`: a primitive converted from the string, anything
/// else parsed as an HCL expression (no variables, no functions).
fn value_from_cli(synth: &str, raw: &str, ty: &Type) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    if ty.is_primitive() {
        return match cty::convert::convert(&Value::string(raw), ty) {
            Ok(v) => (v, diags),
            Err(e) => {
                diags.push(sourceless(
                    "Invalid backend configuration value",
                    format!("Invalid backend configuration argument {synth}: {e}"),
                ));
                (Value::dynamic(), diags)
            }
        };
    }
    let (expr, d) = hclsyntax::native::parse_expression(raw, synth, hclsyntax::Pos::START);
    let failed = hclsyntax::has_errors(&d);
    diags.extend(d);
    if failed {
        return (Value::dynamic(), diags);
    }
    let (v, d) = lang::eval_expr(&expr, &lang::EvalContext::empty());
    let failed = hclsyntax::has_errors(&d);
    diags.extend(d);
    if failed {
        return (Value::dynamic(), diags);
    }
    match cty::convert::convert(&v, ty) {
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(sourceless(
                "Invalid backend configuration value",
                format!("Invalid backend configuration argument {synth}: {e}"),
            ));
            (Value::dynamic(), diags)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{self, LOCAL};
    use configs::static_eval::{RootVariables, StaticModuleCall};

    /// The root module in `dir` with its static evaluator, and its backend.
    fn load(src: &str) -> (tempfile::TempDir, configs::module::Module) {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("main.tf"), src).unwrap();
        let (m, diags) = configs::module::load_module_dir(d.path());
        assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
        let mut m = m.unwrap();
        let call = StaticModuleCall::root(RootVariables::default(), ".", "default");
        let diags = m.with_static_call(call);
        assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
        (d, m)
    }

    fn decode(src: &str, schema: &Schema) -> (Value, Diagnostics) {
        let (_d, m) = load(src);
        let eval = m.static_evaluator.clone().unwrap();
        let b = m.backend.clone().unwrap();
        let ident = eval.backend_identifier(&b);
        let (d, diags) = decode_body(&eval, &ConfigBody::Single(b.config.clone()), schema, &ident);
        (d.to_value(schema), diags)
    }

    #[test]
    fn attributes_are_converted_and_absent_ones_null() {
        let src = "locals {\n  n = 3\n}\nterraform {\n  backend \"s3\" {\n    bucket = \"b\"\n    max_retries = \"${local.n}\"\n    endpoints = { s3 = \"http://x\" }\n  }\n}\n";
        let (v, diags) = decode(src, &schema::S3);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(v.get_attr("bucket").unwrap(), Value::string("b"));
        assert_eq!(v.get_attr("max_retries").unwrap(), Value::number_int(3));
        assert!(v.get_attr("key").unwrap().is_null());
        let ep = v.get_attr("endpoints").unwrap();
        assert_eq!(ep.get_attr("s3").unwrap(), Value::string("http://x"));
        assert!(ep.get_attr("iam").unwrap().is_null());
    }

    #[test]
    fn wrong_types_and_unknown_arguments_are_errors() {
        let src = "terraform {\n  backend \"local\" {\n    path = [1]\n    nope = 1\n  }\n}\n";
        let (_, diags) = decode(src, &LOCAL);
        let summaries: Vec<&str> = diags.iter().map(|d| d.summary.as_str()).collect();
        assert!(summaries.contains(&"Unsupported argument"), "{summaries:?}");
        assert!(
            summaries.contains(&"Incorrect attribute value type"),
            "{summaries:?}"
        );
    }

    #[test]
    fn nested_blocks_decode_by_nesting() {
        let src = "terraform {\n  backend \"kubernetes\" {\n    secret_suffix = \"s\"\n  }\n}\n";
        let (v, diags) = decode(src, &schema::KUBERNETES);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(v.get_attr("exec").unwrap().length_int(), Some(0));
        let src = "terraform {\n  backend \"remote\" {\n    organization = \"o\"\n    workspaces {\n      name = \"w\"\n    }\n  }\n}\n";
        let (v, diags) = decode(src, &schema::REMOTE);
        assert!(diags.is_empty(), "{diags:?}");
        let ws = v.get_attr("workspaces").unwrap();
        assert_eq!(ws.get_attr("name").unwrap(), Value::string("w"));
        assert!(ws.get_attr("prefix").unwrap().is_null());
    }

    #[test]
    fn overrides_merge_in_order() {
        let (d, m) = load("terraform {\n  backend \"s3\" {}\n}\n");
        std::fs::write(
            d.path().join("b.hcl"),
            "bucket = \"from-file\"\nkey = \"k\"\n",
        )
        .unwrap();
        let file = d.path().join("b.hcl").to_string_lossy().into_owned();
        let eval = m.static_evaluator.clone().unwrap();
        let b = m.backend.clone().unwrap();
        let ident = eval.backend_identifier(&b);
        let raw = [
            "bucket=first",
            file.as_str(),
            "key=last",
            "assume_role_tags={a = \"b\"}",
            "max_retries=7",
        ];
        let mut sources = Vec::new();
        let (o, diags) = decode_overrides(&eval, &raw, &schema::S3, &ident, &mut sources);
        assert!(diags.is_empty(), "{diags:?}");
        let v = o.unwrap().to_value(&schema::S3);
        assert_eq!(v.get_attr("bucket").unwrap(), Value::string("from-file"));
        assert_eq!(v.get_attr("key").unwrap(), Value::string("last"));
        assert_eq!(v.get_attr("max_retries").unwrap(), Value::number_int(7));
        assert_eq!(
            v.get_attr("assume_role_tags").unwrap(),
            Value::map(Type::String, [("a".to_string(), Value::string("b"))].into()).unwrap()
        );
        let (_, diags) =
            decode_overrides(&eval, &["max_retries=x"], &schema::S3, &ident, &mut sources);
        assert_eq!(diags[0].summary, "Invalid backend configuration value");
        let (o, diags) = decode_overrides(&eval, &[""], &schema::S3, &ident, &mut sources);
        assert!(diags.is_empty() && o == Some(Decoded::default()));
    }
}
