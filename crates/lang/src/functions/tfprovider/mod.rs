//! The functions of OpenTofu's builtin provider `terraform.io/builtin/terraform`
//! (`internal/builtin/providers/tf/provider_functions.go`):
//! `encode_tfvars`, `decode_tfvars` and `encode_expr`, called as
//! `provider::<local name>::<function>`.
//!
//! Their parameters are provider function parameters: nulls are refused,
//! an unknown or dynamically typed argument makes the result unknown, and
//! marks are taken off the arguments and put on the result.

pub mod hclwrite;

use cty::{Type, Value};
use hclsyntax::{Diagnostic, Pos, Range, SourceFile};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};
use crate::{eval_expr, EvalContext};

/// The builtin provider's function names.
pub const FUNCTION_NAMES: [&str; 3] = ["decode_tfvars", "encode_expr", "encode_tfvars"];

/// Registers the three functions as `provider::<local_name>::<name>`, for
/// a module whose `required_providers` names the builtin provider
/// `local_name`.
pub fn register(table: &mut FunctionTable, local_name: &str) {
    let prefix = format!("provider::{local_name}::");
    table.insert_exact(format!("{prefix}decode_tfvars"), decode_tfvars());
    table.insert_exact(format!("{prefix}encode_tfvars"), encode_tfvars());
    table.insert_exact(format!("{prefix}encode_expr"), encode_expr());
}

fn decode_tfvars() -> Function {
    Function::new(
        vec![Param::new("content", Type::String)],
        None,
        |_| Ok(Type::Dynamic),
        |args, _| decode(args[0].as_str().unwrap_or_default()),
    )
}

/// The message OpenTofu joins the HCL errors under.
const FAILED_TO_DECODE: &str = "failed to decode tfvars content";

/// Parses `content` as a file body of attributes and evaluates each
/// without variables or functions, as `hclsyntax.ParseConfig`,
/// `JustAttributes` and `Expr.Value(nil)` do.
fn decode(content: &str) -> Result<Value, FnError> {
    let source = SourceFile::new("", content);
    let (body, diags) = hclsyntax::native::parse_body(&source);
    failed_if_errors(&diags)?;
    let (attrs, diags) = body.just_attributes();
    failed_if_errors(&diags)?;
    let ctx = EvalContext::empty();
    let mut vals = std::collections::BTreeMap::new();
    for attr in &attrs {
        let (v, diags) = eval_expr(&attr.expr, &ctx);
        failed_if_errors(&diags)?;
        vals.insert(attr.name.clone(), v);
    }
    Ok(Value::object(vals))
}

/// `errors.Join` of the decode error and each HCL error (`Diagnostic.Error`).
fn failed_if_errors(diags: &[Diagnostic]) -> Result<(), FnError> {
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let subject = d
                .subject
                .as_ref()
                .map_or_else(|| "<nil>".to_string(), |r| origin_zero(r).to_string());
            format!("{subject}: {}; {}", d.summary, d.detail)
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(FnError::general(format!(
        "{FAILED_TO_DECODE}\n{}",
        errors.join("\n")
    )))
}

/// OpenTofu parses the content starting at line 0, column 0, so the first
/// line's columns count from 0 and later lines are numbered one lower.
fn origin_zero(r: &Range) -> Range {
    let shift = |p: Pos| {
        if p.line <= 1 {
            Pos {
                line: 0,
                column: p.column.saturating_sub(1),
                byte: p.byte,
            }
        } else {
            Pos {
                line: p.line - 1,
                ..p
            }
        }
    };
    Range::new(r.filename.clone(), shift(r.start), shift(r.end))
}

fn encode_tfvars() -> Function {
    Function::new(
        vec![Param::new("input", Type::Dynamic)],
        None,
        |_| Ok(Type::String),
        |args, _| {
            let input = &args[0];
            let Type::Object(_) = input.ty() else {
                return Err(FnError::general("invalid input: must be an object"));
            };
            // hclwrite cannot write unknown values (OpenTofu panics);
            // Terraform's version answers an unknown string.
            if !input.is_wholly_known() {
                return Ok(Value::unknown(Type::String));
            }
            let attrs = input.as_attrs().cloned().unwrap_or_default();
            if let Some(bad) = attrs.keys().find(|k| !hclsyntax::valid_identifier(k)) {
                return Err(FnError::general(format!(
                    "invalid input: object key: {bad} - must be a valid identifier"
                )));
            }
            Ok(Value::string(hclwrite::attributes_text(
                attrs.iter().map(|(k, v)| (k.as_str(), v)),
            )))
        },
    )
}

fn encode_expr() -> Function {
    Function::new(
        vec![Param::new("expr", Type::Dynamic)],
        None,
        |_| Ok(Type::String),
        |args, _| {
            if !args[0].is_wholly_known() {
                return Err(FnError::general("input is not wholly known"));
            }
            Ok(Value::string(hclwrite::expr_text(&args[0])))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> FunctionTable {
        let mut t = FunctionTable::new();
        register(&mut t, "terraform");
        t
    }

    fn call(name: &str, arg: Value) -> Result<Value, String> {
        let t = table();
        let f = t
            .get(&format!("provider::terraform::{name}"))
            .expect("registered");
        f.call(&[arg]).map_err(|e| e.message().to_string())
    }

    fn n(s: &str) -> Value {
        Value::parse_number(s).unwrap()
    }

    #[test]
    fn decode_tfvars_values() {
        let got = call(
            "decode_tfvars",
            Value::string("a = 1\nb = [\"x\", true]\nc = { d = null }\n"),
        )
        .unwrap();
        let want = Value::object(
            [
                ("a".to_string(), n("1")),
                (
                    "b".to_string(),
                    Value::tuple(vec![Value::string("x"), Value::bool(true)]),
                ),
                (
                    "c".to_string(),
                    Value::object([("d".to_string(), Value::null(Type::Dynamic))].into()),
                ),
            ]
            .into(),
        );
        assert!(got.raw_equals(&want), "{got:?}");
        let empty = call("decode_tfvars", Value::string("")).unwrap();
        assert!(empty.raw_equals(&Value::empty_object()));
    }

    #[test]
    fn decode_tfvars_errors() {
        // The subjects are Terraform's (checked with `terraform console`),
        // moved to OpenTofu's origin of line 0, column 0.
        let cases = [
            ("test", ":0,0-4: Argument or block definition required; An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."),
            ("a = var.x", ":0,4-7: Variables not allowed; Variables may not be used here."),
            ("a = 1\nb = upper(\"x\")", ":1,5-15: Function calls not allowed; Functions may not be called here."),
            ("b {\n}", ":0,0-1: Unexpected \"b\" block; Blocks are not allowed here."),
        ]
        .map(|(src, e)| (src, format!("failed to decode tfvars content\n{e}")));
        for (src, want) in cases {
            assert_eq!(
                call("decode_tfvars", Value::string(src)),
                Err(want),
                "{src:?}"
            );
        }
    }

    #[test]
    fn encode_tfvars_cases() {
        let input = Value::object(
            [
                ("a".to_string(), n("1")),
                ("bb".to_string(), Value::string("x")),
            ]
            .into(),
        );
        assert_eq!(
            call("encode_tfvars", input).unwrap().as_str(),
            Some("a  = 1\nbb = \"x\"\n")
        );
        assert_eq!(
            call("encode_tfvars", Value::string("x")),
            Err("invalid input: must be an object".to_string())
        );
        let bad_key = Value::object([("7*7".to_string(), n("1"))].into());
        assert_eq!(
            call("encode_tfvars", bad_key),
            Err("invalid input: object key: 7*7 - must be a valid identifier".to_string())
        );
        assert_eq!(
            call("encode_tfvars", Value::null(Type::Dynamic)),
            Err("argument must not be null".to_string())
        );
        let partly = Value::object([("a".to_string(), Value::unknown(Type::String))].into());
        assert!(!call("encode_tfvars", partly).unwrap().is_known());
        assert!(!call("encode_tfvars", Value::dynamic()).unwrap().is_known());
    }

    #[test]
    fn encode_expr_cases() {
        assert_eq!(
            call("encode_expr", Value::string("x")).unwrap().as_str(),
            Some("\"x\"")
        );
        let partly = Value::tuple(vec![Value::unknown(Type::String)]);
        assert_eq!(
            call("encode_expr", partly),
            Err("input is not wholly known".to_string())
        );
        assert!(!call("encode_expr", Value::unknown(Type::String))
            .unwrap()
            .is_known());
        let secret = Value::string("s").mark(cty::Mark::Sensitive);
        let got = call("encode_expr", secret).unwrap();
        assert!(got.is_marked());
    }
}
