use std::path::Path;

use configs::module::load_module_dir;
use cty::format::console_format;

use super::*;

/// A working directory holding `files`, its module, and the collected
/// variables for `args` and `env`.
fn collect_in(
    files: &[(&str, &str)],
    args: &[(&str, &str)],
    env: &[(&str, &str)],
    unset: Unset,
) -> (RootVariables, Diagnostics) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let (module, diags) = load_module_dir(dir.path());
    // configs may check defaults against their types too; this module's
    // own check is what the tests look at.
    assert!(
        diags
            .iter()
            .all(|d| !d.is_error() || d.summary == "Invalid default value for variable"),
        "{diags:#?}"
    );
    let args: Vec<(&str, String)> = args.iter().map(|(k, v)| (*k, v.to_string())).collect();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    collect_with_env(&module.unwrap(), &args, dir.path(), &env, unset)
}

fn show(vars: &RootVariables, name: &str) -> String {
    console_format(&vars.values[name])
}

fn summaries(diags: &Diagnostics) -> Vec<String> {
    diags.iter().map(|d| d.summary.clone()).collect()
}

const DECLS: &str = r#"
variable "a" { default = "default" }
variable "b" { default = "default" }
variable "c" { default = "default" }
variable "d" { default = "default" }
variable "e" { default = "default" }
variable "f" { default = "default" }
variable "g" { default = "default" }
variable "h" { default = "default" }
"#;

#[test]
fn precedence_lowest_first() {
    let (vars, diags) = collect_in(
        &[
            ("main.tf", DECLS),
            ("terraform.tfvars", "b = \"tfvars\"\nc = \"tfvars\"\n"),
            (
                "terraform.tfvars.json",
                r#"{"c": "tfvars.json", "d": "tfvars.json"}"#,
            ),
            ("a.auto.tfvars", "d = \"a.auto\"\ne = \"a.auto\"\n"),
            (
                "b.auto.tfvars.json",
                r#"{"e": "b.auto.json", "f": "b.auto.json"}"#,
            ),
            ("x.tfvars", "g = \"x.tfvars\"\nh = \"x.tfvars\"\n"),
        ],
        &[("var", "f=cli"), ("var", "g=cli"), ("var-file", "x.tfvars")],
        &[("TF_VAR_a", "env"), ("TF_VAR_b", "env"), ("OTHER", "x")],
        Unset::Error,
    );
    assert!(diags.is_empty(), "{diags:#?}");
    let got: Vec<String> = "abcdefgh"
        .chars()
        .map(|c| show(&vars, &c.to_string()))
        .collect();
    assert_eq!(
        got,
        [
            "\"env\"",
            "\"tfvars\"",
            "\"tfvars.json\"",
            "\"a.auto\"",
            "\"b.auto.json\"",
            "\"cli\"",
            // -var-file after -var wins: command-line order.
            "\"x.tfvars\"",
            "\"x.tfvars\"",
        ]
    );
    assert_eq!(vars.set_by_user.len(), 8);
    assert_eq!(vars.sources["a"], ValueSource::EnvVar);
    assert_eq!(vars.sources["f"], ValueSource::CliArg);
    assert_eq!(vars.sources["h"], ValueSource::NamedFile);
}

#[test]
fn text_values_parse_by_type() {
    let decls = r#"
variable "s" { type = string }
variable "n" { type = number }
variable "l" { type = list(string) }
variable "any" {}
variable "m" { type = map(number) }
"#;
    let (vars, diags) = collect_in(
        &[("main.tf", decls)],
        &[
            ("var", "s=1 + 1"),
            ("var", "n=2"),
            ("var", "l=[\"a\", 2]"),
            ("var", "any=[1]"),
        ],
        &[("TF_VAR_m", "{ a = 1 }")],
        Unset::Error,
    );
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(show(&vars, "s"), "\"1 + 1\"");
    // Primitive types take the text literally, then convert it.
    assert_eq!(show(&vars, "n"), "2");
    assert_eq!(show(&vars, "l"), "tolist([\n  \"a\",\n  \"2\",\n])");
    // No type: the text is taken literally.
    assert_eq!(show(&vars, "any"), "\"[1]\"");
    assert_eq!(show(&vars, "m"), "tomap({\n  \"a\" = 1\n})");
}

#[test]
fn invalid_values() {
    let decls = r#"
variable "n" { type = number }
variable "l" { type = list(string) }
variable "f" { type = number }
"#;
    let (_, diags) = collect_in(
        &[("main.tf", decls), ("terraform.tfvars", "f = \"x\"\n")],
        &[("var", "n=\"abc\""), ("var", "l=[1")],
        &[],
        Unset::Error,
    );
    // A value that does not parse stops before conversion.
    assert_eq!(
        summaries(&diags),
        ["Unterminated tuple constructor expression"]
    );

    let (_, diags) = collect_in(
        &[("main.tf", decls), ("terraform.tfvars", "f = \"x\"\n")],
        &[("var", "n=\"abc\""), ("var", "l=[1]")],
        &[],
        Unset::Error,
    );
    let details: Vec<&str> = diags.iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        summaries(&diags),
        [
            "Invalid value for input variable",
            "Invalid value for input variable"
        ]
    );
    // The declaration is shown as `file:line,col-col` (here the file's
    // full temporary path).
    assert!(
        details[0].starts_with("The given value is not suitable for var.f declared at ")
            && details[0].ends_with("main.tf:4,1-13: a number is required."),
        "{}",
        details[0]
    );
    assert_eq!(
        details[1],
        "Unsuitable value for var.n set using -var=\"n=...\": a number is required."
    );
}

#[test]
fn undeclared_values() {
    let (_, diags) = collect_in(
        &[
            ("main.tf", ""),
            ("terraform.tfvars", "a = 1\nb = 2\nc = 3\nd = 4\n"),
        ],
        &[],
        &[("TF_VAR_e", "5")],
        Unset::Error,
    );
    assert_eq!(
        summaries(&diags),
        [
            "Value for undeclared variable",
            "Value for undeclared variable",
            "Values for undeclared variables"
        ]
    );
    assert!(!diags.has_errors());
    assert_eq!(
        diags.iter().last().unwrap().detail,
        "In addition to the other similar warnings shown, 2 other variable(s) defined without being declared."
    );

    let (_, diags) = collect_in(&[("main.tf", "")], &[("var", "x=1")], &[], Unset::Error);
    assert!(diags.has_errors());
    assert_eq!(diags.iter().next().unwrap().detail, "A variable named \"x\" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.");
}

#[test]
fn bad_flags_and_files() {
    let (_, diags) = collect_in(
        &[("main.tf", "")],
        &[
            ("var", "novalue"),
            ("var", "x =1"),
            ("var-file", "gone.tfvars"),
        ],
        &[],
        Unset::Error,
    );
    let details: Vec<&str> = diags.iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "The given -var option \"novalue\" is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".",
            "Variable name \"x \" is invalid due to trailing space. Did you mean -var=\"x=1\"?",
            "Given variables file gone.tfvars does not exist.",
        ]
    );

    let (_, diags) = collect_in(
        &[
            ("main.tf", ""),
            ("terraform.tfvars", "variable \"x\" {\n}\n"),
        ],
        &[],
        &[],
        Unset::Error,
    );
    assert_eq!(summaries(&diags), ["Variable declaration in .tfvars file"]);
}

#[test]
fn required_variables() {
    let decls = "variable \"r\" { type = list(string) }\n";
    let (vars, diags) = collect_in(&[("main.tf", decls)], &[], &[], Unset::Error);
    assert_eq!(summaries(&diags), ["No value for required variable"]);
    assert!(!vars.values["r"].is_known());

    let (vars, diags) = collect_in(&[("main.tf", decls)], &[], &[], Unset::Unknown);
    assert!(diags.is_empty(), "{diags:#?}");
    assert!(!vars.values["r"].is_known());
    assert_eq!(vars.values["r"].ty(), &Type::list(Type::String));
    assert!(vars.set_by_user.is_empty());
}

#[test]
fn null_and_defaults() {
    let decls = r#"
variable "nn" {
  type     = string
  default  = "d"
  nullable = false
}
variable "nr" {
  type     = string
  nullable = false
}
variable "ok" {
  type    = string
  default = "d"
}
variable "obj" {
  type = object({
    a = string
    b = optional(number, 7)
    c = optional(list(object({ d = optional(bool, true) })), [{}])
  })
  default = { a = "x" }
}
"#;
    let (vars, diags) = collect_in(
        &[("main.tf", decls)],
        &[("var", "nn=null"), ("var", "ok=null"), ("var", "nr=x")],
        &[],
        Unset::Error,
    );
    assert!(diags.is_empty(), "{diags:#?}");
    // A string variable takes "null" literally.
    assert_eq!(show(&vars, "nn"), "\"null\"");
    assert_eq!(
        show(&vars, "obj"),
        "{\n  \"a\" = \"x\"\n  \"b\" = 7\n  \"c\" = tolist([\n    {\n      \"d\" = true\n    },\n  ])\n}"
    );

    let (vars, diags) = collect_in(
        &[
            ("main.tf", decls),
            (
                "terraform.tfvars",
                "nn = null\nok = null\nnr = \"x\"\nobj = { a = \"y\", c = [{ d = false }, {}] }\n",
            ),
        ],
        &[],
        &[],
        Unset::Error,
    );
    assert!(diags.is_empty(), "{diags:#?}");
    // Not nullable: null means the default; nullable: null stays.
    assert_eq!(show(&vars, "nn"), "\"d\"");
    assert_eq!(show(&vars, "ok"), "tostring(null)");
    assert_eq!(
        show(&vars, "obj"),
        "{\n  \"a\" = \"y\"\n  \"b\" = 7\n  \"c\" = tolist([\n    {\n      \"d\" = false\n    },\n    {\n      \"d\" = true\n    },\n  ])\n}"
    );

    let (_, diags) = collect_in(
        &[("main.tf", decls), ("terraform.tfvars", "nr = null\n")],
        &[],
        &[],
        Unset::Error,
    );
    assert_eq!(summaries(&diags), ["Required variable not set"]);
}

#[test]
fn invalid_default() {
    let (vars, diags) = collect_in(
        &[(
            "main.tf",
            "variable \"n\" {\n  type    = number\n  default = \"x\"\n}\n",
        )],
        &[],
        &[],
        Unset::Error,
    );
    assert_eq!(summaries(&diags), ["Invalid default value for variable"]);
    assert!(!vars.values["n"].is_known());
}

#[test]
fn json_detection_for_other_names() {
    let (vars, diags) = collect_in(
        &[
            ("main.tf", "variable \"a\" {}\n"),
            ("vars.txt", "{ \"a\": \"from json\" }"),
        ],
        &[("var-file", "vars.txt")],
        &[],
        Unset::Error,
    );
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(show(&vars, "a"), "\"from json\"");
    assert!(vars.files.iter().any(|f| &**f.name() == "vars.txt"));
}

#[test]
fn auto_files() {
    assert!(is_auto_var_file("x.auto.tfvars"));
    assert!(is_auto_var_file("x.auto.tfvars.json"));
    assert!(!is_auto_var_file("terraform.tfvars"));
    assert!(!Path::new("x.auto.tfvars.bak")
        .to_str()
        .is_some_and(is_auto_var_file));
}
