//! Static evaluation applied to modules: module sources and versions from
//! variables and locals (in the root and through child calls), provider
//! `for_each`, `const` variables, backends, and the corpus error files.

use addrs::LocalProviderConfig;
use cty::Value;

use super::tests::{any_range, module, root_call, sorted};
use super::*;
use crate::named_values::testing::render;

fn source_of(m: &crate::module::Module, call: &str) -> Option<String> {
    m.module_calls[call]
        .source_addr
        .as_ref()
        .map(|a| a.to_string())
}

#[test]
fn module_source_and_version_from_variables() {
    let src = "variable \"src\" {}\nvariable \"ver\" {\n  default = \"~> 1.2\"\n}\nlocals {\n  base = \"hashicorp/consul\"\n}\nmodule \"local\" {\n  source = \"./modules/${var.src}\"\n}\nmodule \"reg\" {\n  source  = \"${local.base}/aws\"\n  version = var.ver\n}\nmodule \"nullver\" {\n  source  = \"./x\"\n  version = var.src == \"never\" ? \"1.0\" : null\n}\n";
    let (mut m, diags) = module(&[("main.tf", src)]);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(m.module_calls["local"].source_addr.is_none());
    let diags = m.with_static_call(root_call(&[("src", Value::string("net"))]));
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(source_of(&m, "local").as_deref(), Some("./modules/net"));
    assert_eq!(
        m.module_calls["local"].source_addr_raw.as_deref(),
        Some("./modules/net")
    );
    assert_eq!(
        source_of(&m, "reg").as_deref(),
        Some("registry.opentofu.org/hashicorp/consul/aws")
    );
    let reg = &m.module_calls["reg"];
    assert_eq!(reg.version.as_ref().unwrap().required.to_string(), "~> 1.2");
    assert!(!m.module_calls["nullver"].has_version());
    assert_eq!(source_of(&m, "nullver").as_deref(), Some("./x"));
    assert!(m.static_evaluator().is_some());
}

#[test]
fn missing_variable_in_module_source() {
    let src = "variable \"src\" {}\n\nmodule \"mod\" {\n  source = var.src\n}\n";
    let (mut m, _) = module(&[("main.tf", src)]);
    let diags = m.with_static_call(root_call(&[]));
    assert_eq!(
        render(&diags),
        vec![
            "main.tf:1,1-15: Failed to request input from user for variable var.src; ",
            "main.tf:4,12-19: Unable to compute static value; module.mod.source depends on var.src which is not available",
        ]
    );
    assert!(m.module_calls["mod"].source_addr.is_none());
}

#[test]
fn refused_references_in_module_fields() {
    let src = "locals {\n  x = data.http.x.body\n}\nmodule \"a\" {\n  source = \"./m-${count.index}\"\n}\nmodule \"b\" {\n  source = aws_s3_bucket.b.bucket\n}\nmodule \"c\" {\n  source = local.x\n}\nmodule \"d\" {\n  source = \"./d\"\n  version = module.a.v\n}\n";
    let (mut m, _) = module(&[("main.tf", src)]);
    let diags = m.with_static_call(root_call(&[]));
    assert_eq!(
        sorted(&diags),
        vec![
            "main.tf:11,12-19: Unable to compute static value; module.c.source depends on local.x which is not available",
            "main.tf:15,13-23: Module output not supported in static context; Unable to use module.a.v in static context, which is required by module.d.version",
            "main.tf:2,7-18: Dynamic value in static context; Unable to use data.http.x in static context, which is required by local.x",
            "main.tf:5,19-30: Dynamic value in static context; Unable to use count.index in static context, which is required by module.a.source",
            "main.tf:8,12-27: Dynamic value in static context; Unable to use aws_s3_bucket.b in static context, which is required by module.b.source",
        ]
    );
}

#[test]
fn invalid_sources_and_versions() {
    let src = "variable \"v\" {\n  default = \"1.0.0\"\n}\nvariable \"foo\" {\n  default = \"foo\"\n}\nvariable \"secret\" {\n  sensitive = true\n  default = \"1.0.0\"\n}\nmodule \"local_with_version\" {\n  source  = \"./local\"\n  version = var.v\n}\nmodule \"bare\" {\n  source = var.foo\n}\nmodule \"badver\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"${var.v} and more\"\n}\nmodule \"listver\" {\n  source  = \"hashicorp/consul/aws\"\n  version = [var.v]\n}\nmodule \"sensver\" {\n  source  = \"hashicorp/consul/aws\"\n  version = var.secret\n}\nmodule \"listsrc\" {\n  source = [var.v]\n}\n";
    let (mut m, diags) = module(&[("main.tf", src)]);
    assert!(diags.is_empty(), "{diags:?}");
    let diags = m.with_static_call(root_call(&[]));
    assert_eq!(
        sorted(&diags),
        vec![
            "main.tf:12,13-22: Invalid registry module source address; Failed to parse module registry address: can't use local directory \"./local\" as a module registry address.\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.",
            "main.tf:16,12-19: Invalid module source address; OpenTofu failed to determine your intended installation method for remote module package \"foo\".\n\nIf you intended this as a path relative to the current module, use \"./foo\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
            "main.tf:20,13-32: Invalid version constraint; This string does not use correct version constraint syntax.",
            "main.tf:24,13-20: Invalid version constraint; A string value is required for version.",
            "main.tf:28,13-23: Invalid version constraint; Sensitive values, or values derived from sensitive values, cannot be used as version arguments.",
            "main.tf:31,12-19: Unsuitable value type; Unsuitable value: string required",
        ]
    );
}

const PARENT_TF: &str = "variable \"src\" {}\nlocals {\n  grand = \"./g-${var.src}\"\n}\nmodule \"child\" {\n  source = \"./c\"\n  src    = local.grand\n}\nmodule \"lazy\" {\n  source = \"./c\"\n}\n";
const CHILD_TF: &str = "variable \"src\" {}\nmodule \"grand\" {\n  source = var.src\n}\n";

fn child_of(
    parent: &crate::module::Module,
    call: &str,
) -> (crate::module::Module, hclsyntax::Diagnostics) {
    let (mut child, diags) = module(&[("c/main.tf", CHILD_TF)]);
    assert!(diags.is_empty(), "{diags:?}");
    let eval = parent.static_evaluator().expect("parent evaluated");
    let child_call = StaticModuleCall::for_child(eval, &parent.module_calls[call]);
    assert_eq!(
        child_call.addr.to_string(),
        format!("module.{call}"),
        "child address"
    );
    let diags = child.with_static_call(child_call);
    (child, diags)
}

#[test]
fn child_source_from_parent_arguments() {
    let (mut parent, _) = module(&[("main.tf", PARENT_TF)]);
    let diags = parent.with_static_call(root_call(&[("src", Value::string("x"))]));
    assert!(diags.is_empty(), "{diags:?}");
    let (child, diags) = child_of(&parent, "child");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(source_of(&child, "grand").as_deref(), Some("./g-x"));
}

#[test]
fn child_variable_chain_crosses_modules() {
    let (mut parent, _) = module(&[("main.tf", PARENT_TF)]);
    // The parent itself needs no variable: nothing is reported yet.
    let diags = parent.with_static_call(root_call(&[]));
    assert!(diags.is_empty(), "{diags:?}");
    let (child, diags) = child_of(&parent, "child");
    assert_eq!(
        render(&diags),
        vec![
            "main.tf:1,1-15: Failed to request input from user for variable var.src; ",
            "main.tf:3,3-27: Unable to compute static value; local.grand depends on var.src which is not available",
            "main.tf:7,3-23: Unable to compute static value; module.child:var.src depends on local.grand which is not available",
            "c/main.tf:3,12-19: Unable to compute static value; module.child:module.grand.source depends on module.child:var.src which is not available",
        ]
    );
    assert!(child.module_calls["grand"].source_addr.is_none());
}

#[test]
fn child_missing_required_argument() {
    let (mut parent, _) = module(&[("main.tf", PARENT_TF)]);
    parent.with_static_call(root_call(&[("src", Value::string("x"))]));
    let (_, diags) = child_of(&parent, "lazy");
    assert_eq!(
        render(&diags),
        vec![
            "main.tf:9,15-15: Missing required variable in module call; ",
            "c/main.tf:3,12-19: Unable to compute static value; module.lazy:module.grand.source depends on module.lazy:var.src which is not available",
        ]
    );
}

#[test]
fn const_variables_are_evaluated_at_load() {
    let src = "variable \"n\" {\n  type  = number\n  const = true\n}\nvariable \"unused\" {\n  type = number\n}\n";
    let (mut m, diags) = module(&[("main.tf", src)]);
    assert!(diags.is_empty(), "{diags:?}");
    let diags = m.with_static_call(root_call(&[
        ("n", Value::string("abc")),
        ("unused", Value::string("abc")),
    ]));
    assert_eq!(
        render(&diags),
        vec!["Invalid value for input variable; The given value is not suitable for var.n declared at main.tf:1,1-13: a number is required."]
    );
    let (mut m, _) = module(&[("main.tf", src)]);
    let diags = m.with_static_call(root_call(&[("n", Value::string("12"))]));
    assert!(diags.is_empty(), "{diags:?}");
    let (v, _) = m.static_evaluator().unwrap().variable_value("n");
    assert_eq!(v, Value::number_int(12));
}

fn provider_instances(src: &str) -> (crate::module::Module, hclsyntax::Diagnostics) {
    let (mut m, diags) = module(&[("main.tf", src)]);
    assert!(diags.is_empty(), "{diags:?}");
    let diags = m.with_static_call(root_call(&[]));
    (m, diags)
}

#[test]
fn provider_for_each_instances_from_values() {
    let src = "locals {\n  regions = {us = \"us-east-1\", eu = \"eu-west-1\"}\n}\nprovider \"aws\" {\n  alias    = \"by_region\"\n  for_each = local.regions\n}\nprovider \"aws\" {\n  alias    = \"by_set\"\n  for_each = toset([\"a\", \"b\"])\n}\nprovider \"aws\" {\n  alias    = \"empty\"\n  for_each = toset([])\n}\n";
    let (m, diags) = provider_instances(src);
    assert!(diags.is_empty(), "{diags:?}");
    let keys = |alias: &str| -> Vec<String> {
        m.provider_configs[&LocalProviderConfig::new("aws", alias)]
            .instances
            .as_ref()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(keys("by_region"), vec!["eu", "us"]);
    assert_eq!(keys("by_set"), vec!["a", "b"]);
    assert!(keys("empty").is_empty());
    assert_eq!(
        m.provider_configs[&LocalProviderConfig::new("aws", "by_region")]
            .instances
            .as_ref()
            .unwrap()["us"],
        Value::string("us-east-1")
    );
}

#[test]
fn provider_for_each_errors() {
    let src = "variable \"s\" {\n  sensitive = true\n  default = {a = 1}\n}\nprovider \"p\" {\n  alias = \"tuple\"\n  for_each = [\"a\"]\n}\nprovider \"p\" {\n  alias = \"numbers\"\n  for_each = toset([1])\n}\nprovider \"p\" {\n  alias = \"null\"\n  for_each = null\n}\nprovider \"p\" {\n  alias = \"sensitive\"\n  for_each = var.s\n}\nprovider \"p\" {\n  alias = \"each\"\n  for_each = {(each.key) = 1}\n}\nprovider \"p\" {\n  alias = \"list\"\n  for_each = tolist([\"a\"])\n}\n";
    let (m, diags) = provider_instances(src);
    assert_eq!(
        sorted(&diags),
        vec![
            "main.tf:11,14-24: Invalid for_each argument; The given \"for_each\" argument value is unsuitable: \"for_each\" supports sets of strings, but you have provided a set containing type number.",
            "main.tf:15,14-18: Invalid for_each argument; The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null.",
            "main.tf:19,14-19: Invalid for_each argument; Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.",
            "main.tf:23,16-24: Dynamic value in static context; Unable to use each.key in static context, which is required by provider.p.each.for_each",
            "main.tf:27,14-27: Invalid for_each argument; The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type list of string.",
            "main.tf:7,14-19: Invalid for_each argument; The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type tuple.",
        ]
    );
    assert!(m.provider_configs.values().all(|p| p.instances.is_none()));
}

#[test]
fn backend_bodies() {
    // TestStaticEvaluator_DecodeBlock, with the arguments decoded as they
    // are written.
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "valid",
            "\nlocals {\n\tstatic = \"static\"\n}\n\nterraform {\n\tbackend \"valid\" {\n\t\tthing = local.static\n\t}\n}",
            &[],
        ),
        (
            "badref",
            "\nterraform {\n\tbackend \"badref\" {\n\t\tthing = count\n\t}\n}",
            &["eval.tf:4,11-16: Invalid reference; The \"count\" object cannot be accessed directly. Instead, access one of its attributes."],
        ),
        (
            "badeval",
            "\nterraform {\n\tbackend \"badeval\" {\n\t\tthing = module.foo.bar\n\t}\n}",
            &["eval.tf:4,11-25: Module output not supported in static context; Unable to use module.foo.bar in static context, which is required by backend.badeval"],
        ),
        (
            "sensitive",
            "\nlocals {\n\tsens = sensitive(\"magic\")\n}\nterraform {\n\tbackend \"sensitive\" {\n\t\tthing = local.sens\n\t}\n}",
            &["eval.tf:6,2-21: Backend config contains sensitive values; The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply sensitive credentials via backend specific environment variables"],
        ),
        (
            "ephemeral",
            "\nvariable \"backend_cfg\" {\n\tephemeral = true\n    default = \"foo\"\n}\nterraform {\n\tbackend \"my_backend\" {\n\t\tthing = var.backend_cfg\n\t}\n}",
            &["eval.tf:7,2-22: Backend config contains ephemeral values; The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply ephemeral credentials via backend specific environment variables"],
        ),
        (
            "missing",
            "\nvariable \"state_path\" {}\nterraform {\n\tbackend \"local\" {\n\t\tpath = var.state_path\n\t}\n}",
            &[
                "eval.tf:2,1-22: Failed to request input from user for variable var.state_path; ",
                "eval.tf:4,2-17: Unable to compute static value; backend.local depends on var.state_path which is not available",
            ],
        ),
    ];
    for (name, src, want) in cases {
        let (mut m, diags) = module(&[("eval.tf", src)]);
        assert!(diags.is_empty(), "{name}: {diags:?}");
        let diags = m.with_static_call(root_call(&[]));
        assert!(diags.is_empty(), "{name}: {diags:?}");
        let eval = m.static_evaluator().unwrap();
        let (values, diags) = eval.decode_backend(m.backend.as_ref().unwrap());
        assert_eq!(render(&diags), *want, "{name}");
        if want.is_empty() {
            assert_eq!(values["thing"], Value::string("static"));
        }
    }
}

#[test]
fn identifiers_of_other_blocks() {
    let (m, _) = module(&[("main.tf", "")]);
    let eval = StaticEvaluator::new(&m, root_call(&[]));
    let id = eval.identifier("provider.aws.by_region.for_each", any_range());
    assert_eq!(id.to_string(), "provider.aws.by_region.for_each");
}

/// The `# ERROR: summary` markers of corpus files against the diagnostics
/// of loading and statically evaluating them as root modules.
#[test]
fn corpus_error_file_markers() {
    let base = std::path::Path::new("/work/shared/corpus/opentofu/internal/configs/testdata");
    if !base.exists() {
        return;
    }
    for name in [
        "module-sensitive.tf",
        "module-local-source-with-version.tf",
        "module-invalid-registry-source-with-module.tf",
    ] {
        let src = std::fs::read_to_string(base.join("error-files").join(name)).unwrap();
        let mut want: Vec<(usize, String)> = src
            .lines()
            .enumerate()
            .filter_map(|(i, l)| {
                l.split_once("# ERROR: ")
                    .map(|(_, s)| (i + 1, s.trim().to_string()))
            })
            .collect();
        let (mut m, mut diags) = module(&[(name, &src)]);
        diags.extend(m.with_static_call(root_call(&[])));
        let mut got: Vec<(usize, String)> = diags
            .into_iter()
            .filter(|d| d.is_error())
            .filter_map(|d| d.subject.map(|r| (r.start.line as usize, d.summary)))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{name}");
    }

    let src = std::fs::read_to_string(base.join("provider_for_each/main.tf")).unwrap();
    let (mut m, mut diags) = module(&[("main.tf", &src)]);
    diags.extend(m.with_static_call(root_call(&[])));
    assert!(diags.is_empty(), "{diags:?}");
    let instances = m.provider_configs[&LocalProviderConfig::new("dummy", "key")]
        .instances
        .as_ref();
    assert!(instances.is_some_and(|i| i.is_empty()));
}

/// A chain of 20,000 locals in a module source (issue 16): one recursion
/// per link overflowed the stack, and the identifier stack was copied at
/// every level. OpenTofu's growable stacks evaluate it; so does this. A
/// long cycle is still found, and reported at its links.
#[test]
fn twenty_thousand_locals_in_a_module_source() {
    const LINKS: usize = 20_000;
    let src = chain_of_locals(LINKS, "\"./m\"");
    let (mut m, diags) = module(&[("main.tf", &src)]);
    assert!(diags.is_empty(), "{diags:?}");
    let diags = m.with_static_call(root_call(&[]));
    assert!(diags.is_empty(), "{:?}", diags.first());
    assert_eq!(source_of(&m, "m").as_deref(), Some("./m"));

    // A cycle of 5,000 (each link also reports the link it depends on,
    // so the diagnostics grow with the square of its length).
    const CYCLE: usize = 5_000;
    let cyclic = chain_of_locals(CYCLE, &format!("local.l{CYCLE}"));
    let (mut m, diags) = module(&[("main.tf", &cyclic)]);
    assert!(diags.is_empty(), "{diags:?}");
    let diags = m.with_static_call(root_call(&[]));
    assert!(
        diags.iter().any(|d| d.summary == "Circular reference"),
        "{:?}",
        diags.first()
    );
}

/// `l0 = FIRST`, `l1 = local.l0`, ... `lN = local.l(N-1)`, and a module
/// whose source is `local.lN`.
fn chain_of_locals(links: usize, first: &str) -> String {
    let mut src = format!("locals {{\n  l0 = {first}\n");
    for i in 1..=links {
        src.push_str(&format!("  l{i} = local.l{}\n", i - 1));
    }
    src.push_str(&format!(
        "}}\nmodule \"m\" {{\n  source = local.l{links}\n}}\n"
    ));
    src
}
