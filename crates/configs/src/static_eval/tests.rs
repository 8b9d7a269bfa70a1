//! The evaluator's rules, ported from OpenTofu's
//! `static_evaluator_test.go`: locals chains, missing values, cycles,
//! refused references, the "depends on" chain, functions, decoding.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cty::Value;
use hclsyntax::{Diagnostic, Diagnostics, Pos};

use super::*;
use crate::config_file::decode_file;
use crate::module::Module;
use crate::named_values::testing::render;
use crate::parser::LoadedFile;

/// A module from `(file name, source)` pairs, loaded from directory `dir`.
pub(super) fn module(files: &[(&str, &str)]) -> (Module, Diagnostics) {
    let loaded = files
        .iter()
        .map(|(name, src)| {
            let (file, mut diagnostics) = hclsyntax::parse_file(name, src.as_bytes());
            let (config, more) = decode_file(&file.body, false, false);
            diagnostics.extend(more);
            LoadedFile {
                path: PathBuf::from(name),
                source: file.source,
                config,
                diagnostics,
            }
        })
        .collect();
    let (mut m, diags) = Module::from_files(loaded, Vec::new());
    m.source_dir = PathBuf::from("dir");
    (m, diags)
}

pub(super) fn root_call(values: &[(&str, Value)]) -> StaticModuleCall {
    let values: BTreeMap<String, Value> = values
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    StaticModuleCall::root(RootVariables::new(values), "<testing>", "")
}

/// Diagnostics rendered and sorted (OpenTofu's `assertExactDiagnostics`
/// compares them without regard to order).
pub(super) fn sorted(diags: &[Diagnostic]) -> Vec<String> {
    let mut out = render(diags);
    out.sort();
    out
}

const EVAL_TF: &str = "
variable \"str\" {
\ttype = string
}
variable \"str_map\" {
\ttype = map(string)
}
variable \"str_def\" {
\ttype = string
\tdefault = \"sane default\"
}
variable \"str_map_def\" {
\ttype = map(string)
\tdefault = {
\t\tkeyA = \"A\"
\t}
}
# Should/can variable checks be performed during static evaluation?

locals {
\t# Simple static cases
\tstatic = \"static\"
\tstatic_ref = local.static
\tstatic_fn = md5(local.static)
\tpath_root = path.root
\tpath_module = path.module

\t# Variable References with Defaults
\tvar_str_def_ref = var.str_def
\tvar_map_def_access = var.str_map_def[\"keyA\"]

\t# Variable References without Defaults
\tvar_str_ref = var.str
\tvar_map_access = var.str_map[\"keyA\"]

\t# Bad References
\tinvalid_ref = invalid.attribute
\tunavailable_ref = foo.bar.attribute

\t# Circular References
\tcircular = local.circular
\tcircular_ref = local.circular
\tcircular_a = local.circular_b
\tcircular_b = local.circular_a

\t# Dependency chain
\tref_a = var.str
\tref_b = local.ref_a
\tref_c = local.ref_b

\t# Missing References
\tlocal_missing = local.missing
\tvar_missing = var.missing

\t# Terraform 
\tws = terraform.workspace

\t# Functions
\tfunc = md5(\"my-string\")
\tmissing_func = missing_fn(\"my-string\")
\tprovider_func = provider::type::fn(\"my-string\")
}

resource \"foo\" \"bar\" {}
\t";

fn eval_module() -> Module {
    let (m, diags) = module(&[("eval.tf", EVAL_TF)]);
    assert!(diags.is_empty(), "{diags:?}");
    m
}

/// Evaluates local `name`'s expression as `local.<name>`.
fn eval_local(m: &Module, eval: &StaticEvaluator, name: &str) -> (Value, Diagnostics) {
    let local = &m.locals[name];
    let ident = eval.identifier(format!("local.{name}"), local.decl_range.clone());
    eval.evaluate(&local.expr, &ident)
}

fn string_of(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v:?}"))
        .to_string()
}

#[test]
fn simple_static_cases() {
    let m = eval_module();
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    for (name, want) in [
        ("static", "static"),
        ("static_ref", "static"),
        ("static_fn", "a81259cef8e959c624df1d456e5d3297"),
        ("path_root", "<testing>"),
        ("path_module", "dir"),
        ("func", "f887f41a53a46e2d40a3f8f86cacaaa2"),
    ] {
        let (v, diags) = eval_local(&m, &eval, name);
        assert!(diags.is_empty(), "{name}: {diags:?}");
        assert_eq!(string_of(&v), want, "{name}");
    }
}

#[test]
fn valid_variables() {
    let m = eval_module();
    let str_map = Value::map_infer(BTreeMap::from([(
        "keyA".to_string(),
        Value::string("mapa"),
    )]))
    .unwrap();
    let eval = StaticEvaluator::new(
        &m,
        root_call(&[("str", Value::string("vara")), ("str_map", str_map)]),
    );
    for (name, want) in [
        ("var_str_def_ref", "sane default"),
        ("var_map_def_access", "A"),
        ("var_str_ref", "vara"),
        ("var_map_access", "mapa"),
    ] {
        let (v, diags) = eval_local(&m, &eval, name);
        assert!(diags.is_empty(), "{name}: {diags:?}");
        assert_eq!(string_of(&v), want, "{name}");
    }
}

#[test]
fn bad_references() {
    let m = eval_module();
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    for (name, want) in [
        ("invalid_ref", "eval.tf:37,16-33: Dynamic value in static context; Unable to use invalid.attribute in static context, which is required by local.invalid_ref"),
        ("unavailable_ref", "eval.tf:38,20-27: Dynamic value in static context; Unable to use foo.bar in static context, which is required by local.unavailable_ref"),
    ] {
        let (_, diags) = eval_local(&m, &eval, name);
        assert_eq!(render(&diags), vec![want.to_string()], "{name}");
    }
}

#[test]
fn circular_references() {
    let m = eval_module();
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    let cases: &[(&str, &[&str])] = &[
        (
            "circular",
            &["eval.tf:41,2-27: Circular reference; local.circular is self referential"],
        ),
        (
            "circular_ref",
            &[
                "eval.tf:41,2-27: Circular reference; local.circular is self referential",
                "eval.tf:42,2-31: Unable to compute static value; local.circular_ref depends on local.circular which is not available",
            ],
        ),
        (
            "circular_a",
            &[
                "eval.tf:43,2-31: Circular reference; local.circular_a is self referential",
                "eval.tf:43,2-31: Unable to compute static value; local.circular_a depends on local.circular_b which is not available",
            ],
        ),
    ];
    for (name, want) in cases {
        let (_, diags) = eval_local(&m, &eval, name);
        assert_eq!(sorted(&diags), *want, "{name}");
    }
    // Asking again (results inside cycles are not cached) says the same,
    // and from the other end of the cycle names that end.
    let (_, diags) = eval_local(&m, &eval, "circular_b");
    assert_eq!(
        sorted(&diags),
        vec![
            "eval.tf:44,2-31: Circular reference; local.circular_b is self referential",
            "eval.tf:44,2-31: Unable to compute static value; local.circular_b depends on local.circular_a which is not available",
        ]
    );
}

#[test]
fn dependency_chain() {
    let m = eval_module();
    let vars = FnVariables(|v: &crate::named_values::Variable| {
        (
            None,
            vec![Diagnostic::error(
                "Variable value not provided",
                format!("var.{} not included", v.name),
                v.decl_range.clone(),
            )],
        )
    });
    let call = StaticModuleCall::new(addrs::Module::root(), Arc::new(vars), "<testing>", "");
    let eval = StaticEvaluator::new(&m, call);
    let (_, diags) = eval_local(&m, &eval, "ref_c");
    assert_eq!(
        render(&diags),
        vec![
            "eval.tf:2,1-15: Variable value not provided; var.str not included",
            "eval.tf:47,2-17: Unable to compute static value; local.ref_a depends on var.str which is not available",
            "eval.tf:48,2-21: Unable to compute static value; local.ref_b depends on local.ref_a which is not available",
            "eval.tf:49,2-21: Unable to compute static value; local.ref_c depends on local.ref_b which is not available",
        ]
    );
}

#[test]
fn missing_references() {
    let m = eval_module();
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    for (name, want) in [
        (
            "local_missing",
            "eval.tf:52,18-31: Undefined local; Undefined local local.missing",
        ),
        (
            "var_missing",
            "eval.tf:53,16-27: Undefined variable; Undefined variable var.missing",
        ),
    ] {
        let (_, diags) = eval_local(&m, &eval, name);
        assert_eq!(render(&diags), vec![want.to_string()], "{name}");
    }
}

#[test]
fn missing_root_variable_without_prompt() {
    let m = eval_module();
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    let (_, diags) = eval_local(&m, &eval, "var_str_ref");
    assert_eq!(
        render(&diags),
        vec![
            "eval.tf:2,1-15: Failed to request input from user for variable var.str; ",
            "eval.tf:33,2-23: Unable to compute static value; local.var_str_ref depends on var.str which is not available",
        ]
    );
}

#[test]
fn prompt_answers_once() {
    let m = eval_module();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let prompt: Arc<PromptFn> = Arc::new(move |_v: &crate::named_values::Variable| {
        counter.fetch_add(1, Ordering::SeqCst);
        (Some(Value::string("typed")), Vec::new())
    });
    let root = RootVariables {
        values: BTreeMap::new(),
        prompt: Some(prompt),
    };
    let eval = StaticEvaluator::new(&m, StaticModuleCall::root(root, "<testing>", ""));
    for name in ["var_str_ref", "ref_a", "ref_c"] {
        let (v, diags) = eval_local(&m, &eval, name);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(string_of(&v), "typed");
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1);
}

#[test]
fn workspace() {
    let m = eval_module();
    let call = StaticModuleCall::root(RootVariables::default(), "<testing>", "my-workspace");
    let eval = StaticEvaluator::new(&m, call);
    let (v, diags) = eval_local(&m, &eval, "ws");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(string_of(&v), "my-workspace");
}

#[test]
fn functions() {
    let m = eval_module();
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    let (_, diags) = eval_local(&m, &eval, "missing_func");
    assert_eq!(
        render(&diags),
        vec!["eval.tf:60,17-27: Call to unknown function; There is no function named \"missing_fn\"."]
    );
    let (_, diags) = eval_local(&m, &eval, "provider_func");
    assert_eq!(
        render(&diags),
        vec!["eval.tf:61,18-36: Provider function in static context; Unable to use provider::type::fn in static context, which is required by local.provider_func"]
    );
}

fn expr(src: &str) -> hclsyntax::Expr {
    let (e, diags) = hclsyntax::native::parse_expression(src, "eval.tf", Pos::START);
    assert!(diags.is_empty(), "{diags:?}");
    e
}

/// Expressions evaluated as `local.test` in a module with `src`.
fn refusals(src: &str, cases: &[(&str, &str)]) {
    let (m, diags) = module(&[("main.tf", src)]);
    assert!(diags.is_empty(), "{diags:?}");
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    let ident = eval.identifier("local.test", any_range());
    for (text, want) in cases {
        let (_, diags) = eval.decode_expression(&expr(text), &ident);
        let got = render(&diags).join("\n");
        assert_eq!(got, *want, "{text}");
    }
}

/// A range for identifiers whose own range the test does not look at.
pub(super) fn any_range() -> hclsyntax::Range {
    hclsyntax::SourceFile::new("main.tf", "").range(0, 0)
}

#[test]
fn decode_expression_refusals() {
    let src = "variable \"e\" {\n  ephemeral = true\n  default = \"x\"\n}\nvariable \"s\" {\n  sensitive = true\n  default = \"x\"\n}\nlocals {\n  sens = sensitive(\"magic\")\n}\n";
    refusals(
        src,
        &[
            ("\"static\"", ""),
            (
                "count",
                "eval.tf:1,1-6: Invalid reference; The \"count\" object cannot be accessed directly. Instead, access one of its attributes.",
            ),
            (
                "module.foo.bar",
                "eval.tf:1,1-15: Module output not supported in static context; Unable to use module.foo.bar in static context, which is required by local.test",
            ),
            (
                "module.foo",
                "eval.tf:1,1-11: Dynamic value in static context; Unable to use module.foo in static context, which is required by local.test",
            ),
            (
                "\"./m-${count.index}\"",
                "eval.tf:1,8-19: Dynamic value in static context; Unable to use count.index in static context, which is required by local.test",
            ),
            (
                "each.key",
                "eval.tf:1,1-9: Dynamic value in static context; Unable to use each.key in static context, which is required by local.test",
            ),
            (
                "self",
                "eval.tf:1,1-5: Dynamic value in static context; Unable to use self in static context, which is required by local.test",
            ),
            (
                "aws_instance.foo[0].id",
                "eval.tf:1,1-20: Dynamic value in static context; Unable to use aws_instance.foo[0] in static context, which is required by local.test",
            ),
            (
                "data.http.x.body",
                "eval.tf:1,1-12: Dynamic value in static context; Unable to use data.http.x in static context, which is required by local.test",
            ),
            (
                "terraform.applying",
                "eval.tf:1,1-19: Invalid attribute in static context; The applying attribute can not be used during static evaluation and is only valid in the plan and apply phases of execution",
            ),
            (
                "terraform.env",
                "eval.tf:1,1-14: Invalid \"terraform\" attribute; The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The \"state environment\" concept was renamed to \"workspace\" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.",
            ),
            (
                "path.modul",
                "eval.tf:1,1-11: Invalid \"path\" attribute; The \"path\" object does not have an attribute named \"modul\". Did you mean \"module\"?",
            ),
            (
                "local.sens",
                "eval.tf:1,1-11: Sensitive value not allowed; Sensitive values, or values derived from sensitive values, cannot be used as local.test.",
            ),
            (
                "\"${var.s}-x\"",
                "eval.tf:1,1-13: Sensitive value not allowed; Sensitive values, or values derived from sensitive values, cannot be used as local.test.",
            ),
            (
                "var.e",
                "eval.tf:1,1-6: Ephemeral value not allowed; Ephemeral values, or values derived from ephemeral values, cannot be used as local.test.",
            ),
        ],
    );
}

#[test]
fn refusal_comes_before_any_variable_is_read() {
    // count.index is refused although var.missing_value has no value: the
    // variable source is never asked.
    let (m, _) = module(&[("main.tf", "variable \"v\" {}\n")]);
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let vars = FnVariables(move |_v: &crate::named_values::Variable| {
        counter.fetch_add(1, Ordering::SeqCst);
        (None, Vec::new())
    });
    let call = StaticModuleCall::new(addrs::Module::root(), Arc::new(vars), ".", "");
    let eval = StaticEvaluator::new(&m, call);
    let ident = eval.identifier("local.test", any_range());
    let (_, diags) = eval.evaluate(&expr("\"${var.v}-${count.index}\""), &ident);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Dynamic value in static context");
    assert_eq!(asked.load(Ordering::SeqCst), 0);
}

#[test]
fn locals_and_variables_are_computed_once() {
    let src = "variable \"v\" {}\nlocals {\n  a = upper(var.v)\n  b = \"${local.a}-${var.v}\"\n  c = \"${local.a}${local.b}\"\n}\n";
    let (m, _) = module(&[("main.tf", src)]);
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let vars = FnVariables(move |_v: &crate::named_values::Variable| {
        counter.fetch_add(1, Ordering::SeqCst);
        (Some(Value::string("x")), Vec::new())
    });
    let call = StaticModuleCall::new(addrs::Module::root(), Arc::new(vars), ".", "");
    let eval = StaticEvaluator::new(&m, call);
    let (v, diags) = eval_local(&m, &eval, "c");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(string_of(&v), "XX-x");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
}

#[test]
fn variable_conversion_and_nullability() {
    let src = "variable \"n\" {\n  type = number\n}\nvariable \"nn\" {\n  nullable = false\n}\nvariable \"nd\" {\n  nullable = false\n  default = \"d\"\n}\nvariable \"nullable\" {\n  default = \"d\"\n}\nvariable \"notconst\" {\n  const = false\n  default = \"x\"\n}\n";
    let (m, diags) = module(&[("main.tf", src)]);
    assert!(diags.is_empty(), "{diags:?}");
    let null = Value::null(cty::Type::String);
    let eval = StaticEvaluator::new(
        &m,
        root_call(&[
            ("n", Value::string("abc")),
            ("nn", null.clone()),
            ("nd", null.clone()),
            ("nullable", null),
        ]),
    );
    let ident = eval.identifier("local.test", any_range());
    let (_, diags) = eval.evaluate(&expr("var.n"), &ident);
    assert_eq!(
        render(&diags),
        vec![
            "Invalid value for input variable; The given value is not suitable for var.n declared at main.tf:1,1-13: a number is required.",
            "main.tf:1,1-1: Unable to compute static value; local.test depends on var.n which is not available",
        ]
    );
    let (_, diags) = eval.evaluate(&expr("var.nn"), &ident);
    assert_eq!(
        render(&diags)[0],
        "Required variable not set; The given value is not suitable for var.nn defined at main.tf:4,1-14: required variable may not be set to null."
    );
    let (v, diags) = eval.evaluate(&expr("var.nd"), &ident);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(string_of(&v), "d");
    let (v, diags) = eval.evaluate(&expr("var.nullable"), &ident);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(v.is_null());
    let (_, diags) = eval.evaluate(&expr("var.notconst"), &ident);
    assert_eq!(
        render(&diags),
        vec!["eval.tf:1,1-13: Unable to use variable in static context; The variable \"notconst\" cannot be used in a static context, because it is declared as \"const = false\"."]
    );
}
