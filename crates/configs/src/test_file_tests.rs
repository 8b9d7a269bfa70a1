use super::*;
use crate::named_values::testing::render;
use crate::provider_validation::tests::build;

fn decode(src: &str) -> (TestFile, Vec<String>) {
    let (file, diags) = hclsyntax::parse_file("main.tftest.hcl", src.as_bytes());
    assert!(diags.is_empty(), "{diags:?}");
    let (tf, diags) = decode_test_file(&file.body);
    (tf, render(&diags))
}

#[test]
fn runs_providers_and_modules() {
    let (tf, diags) = decode(
        "variables {\n  a = 1\n}\nprovider \"foo\" {}\nprovider \"foo\" {\n  alias = \"bar\"\n}\nrun \"one\" {\n  command = plan\n  providers = {\n    foo = foo.bar\n  }\n  module {\n    source = \"./setup\"\n  }\n  plan_options {\n    mode = refresh-only\n  }\n  assert {\n    condition = var.a == 1\n    error_message = \"x\"\n  }\n  expect_failures = [var.a]\n}\nrun \"two\" {}\n",
    );
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(tf.variables.as_ref().map(Vec::len), Some(1));
    assert_eq!(
        tf.providers.keys().cloned().collect::<Vec<_>>(),
        vec![
            addrs::LocalProviderConfig::new("foo", ""),
            addrs::LocalProviderConfig::new("foo", "bar")
        ]
    );
    assert_eq!(tf.runs.len(), 2);
    let one = &tf.runs[0];
    assert_eq!(one.command, TestCommand::Plan);
    assert_eq!(one.options.mode, TestMode::RefreshOnly);
    assert_eq!(one.providers[0].in_parent.display(), "foo.bar");
    assert_eq!(
        one.module
            .as_ref()
            .unwrap()
            .source
            .as_ref()
            .unwrap()
            .to_string(),
        "./setup"
    );
    assert_eq!(one.check_rules.len(), 1);
    assert!(one.validate().is_empty());
    assert_eq!(tf.runs[1].command, TestCommand::Apply);
    assert!(tf.runs[1].options.refresh);
}

#[test]
fn decode_errors() {
    let (tf, diags) = decode(
        "run \"a\" {\n  command = destroy\n}\nrun \"b\" {\n  module {}\n}\nrun \"c\" {\n  plan_options {\n    mode = refresh-only\n    refresh = false\n  }\n}\nvariables {}\nvariables {}\nmock_provider \"m\" {\n  for_each = {}\n}\n",
    );
    assert!(tf.runs.is_empty());
    assert_eq!(
        diags,
        vec![
            "main.tftest.hcl:2,13-20: Invalid \"command\" keyword; The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
            "main.tftest.hcl:5,3-9: Missing \"source\" attribute for module block; You must specify a source attribute when executing alternate modules during test executions.",
            "main.tftest.hcl:10,5-20: Incompatible plan options; The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode.",
            "main.tftest.hcl:14,1-10: Multiple \"variables\" blocks; This test file already has a variables block defined at main.tftest.hcl:13,1-10.",
            "main.tftest.hcl:16,14-16: Alias required when using \"for_each\"; The for_each argument is allowed only for provider configurations with an alias.",
        ]
    );
}

#[test]
fn expect_failures_must_be_checkable() {
    let (tf, diags) = decode("run \"a\" {\n  expect_failures = [local.x, output.y]\n}\n");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        render(&tf.runs[0].validate()),
        vec!["main.tftest.hcl:2,22-29: Invalid `expect_failures` reference; You cannot expect failures from local.x. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources."]
    );
}

#[test]
fn duplicated_overrides() {
    let (tf, diags) = decode(
        "override_resource {\n  target = aws_instance.a\n  values = { id = \"x\" }\n}\noverride_resource {\n  target = aws_instance.a\n}\noverride_module {\n  target = module.m\n  outputs = \"no\"\n}\n",
    );
    assert_eq!(
        diags,
        vec![
            "main.tftest.hcl:10,3-17: Object expected; The attribute `outputs` must be an object."
        ]
    );
    assert_eq!(
        render(&tf.validate()),
        vec!["main.tftest.hcl:6,12-26: Duplicated `override_resource` block; It is not allowed to have multiple `override_resource` blocks with the same target: `aws_instance.a`."]
    );
}

const MAIN_TF: &str = "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n      configuration_aliases = [foo.bar]\n    }\n  }\n}\n\nprovider \"bar\" {}\n\nresource \"foo_resource\" \"resource\" {}\n\nresource \"bar_resource\" \"resource\" {}\n";

#[test]
fn tests_provider_mismatch() {
    let test = "\nprovider \"foo\" {}\n\nprovider \"foo\" {\n  alias = \"bar\"\n}\n\nprovider \"bar\" {\n  alias = \"foo\"\n}\n\nrun \"default_should_be_fine\" {}\n\nrun \"bit_complicated_still_okay\"{\n\n  providers = {\n    foo = foo\n    foo.bar = foo.bar\n    bar = bar.foo\n  }\n\n}\n\nrun \"mismatched_foo_direct\" {\n\n  providers = {\n    foo = bar // bad!\n    foo.bar = foo.bar\n    bar = bar.foo\n  }\n\n}\n";
    let got = build(&[("main.tf", MAIN_TF), ("main.tftest.hcl", test)]);
    assert_eq!(
        got,
        vec!["E main.tftest.hcl:27,11-14: Provider type mismatch; The local name \"bar\" in main.tftest.hcl represents provider \"registry.opentofu.org/hashicorp/bar\", but \"foo\" in the root module represents \"registry.opentofu.org/hashicorp/foo\".\n\nThis means the provider definition for \"bar\" within main.tftest.hcl, or other provider definitions with the same name, have been referenced by multiple run blocks and assigned to different provider types."]
    );
}

#[test]
fn tests_provider_mismatch_with_module() {
    let test = "\nprovider \"foo\" {}\n\nprovider \"foo\" {\n  alias = \"bar\"\n}\n\nprovider \"bar\" {}\n\nrun \"setup_module\" {\n\n  module {\n    source = \"./setup\"\n  }\n\n}\n\nrun \"main_module\" {}\n";
    let setup = "terraform {\n    required_providers {\n        foo = {\n            source = \"hashicorp/bar\"\n            configuration_aliases = [ foo.bar ]\n        }\n        bar = {\n            source = \"hashicorp/foo\"\n        }\n    }\n}\n\nresource \"foo_resource\" \"resource\" {}\n\nresource \"bar_resource\" \"resource\" {}\n";
    let got = build(&[
        ("main.tf", MAIN_TF),
        ("main.tftest.hcl", test),
        ("setup/main.tf", setup),
    ]);
    let summaries: Vec<&str> = got.iter().map(|g| &g[..g.find(';').unwrap()]).collect();
    assert_eq!(
        summaries,
        vec![
            "E main.tftest.hcl:2,1-15: Provider type mismatch",
            "E main.tftest.hcl:4,1-15: Provider type mismatch",
            "E main.tftest.hcl:8,1-15: Provider type mismatch",
        ]
    );
    assert!(got[1].contains("The provider \"foo.bar\" in main.tftest.hcl represents provider \"registry.opentofu.org/hashicorp/bar\", but \"foo.bar\" in the root module represents \"registry.opentofu.org/hashicorp/foo\"."));
    assert!(got[2].ends_with("This means the provider definition for \"bar\" within main.tftest.hcl has been referenced by multiple run blocks and assigned to different provider types."));
}

#[test]
fn test_directory_files_and_tofu_twins() {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("a.tftest.hcl", "run \"x\" {}\n"),
        ("a.tofutest.hcl", "run \"y\" {}\n"),
        ("tests/b.tftest.hcl", "run \"z\" {}\n"),
        ("tests/sub/c.tftest.hcl", "run \"w\" {}\n"),
    ] {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let (loaded, diags) = load_test_files(d.path(), DEFAULT_TEST_DIRECTORY);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        loaded.files.keys().collect::<Vec<_>>(),
        vec!["a.tofutest.hcl", "tests/b.tftest.hcl"]
    );
    let (_, diags) = load_test_files(d.path(), "missing");
    assert_eq!(diags[0].summary, "Test directory does not exist");
}

#[test]
fn modules_of_test_runs_are_known_to_the_module() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("main.tf"), "").unwrap();
    std::fs::create_dir_all(d.path().join("tests")).unwrap();
    std::fs::write(
        d.path().join("tests/main.tftest.hcl"),
        "run \"setup\" {\n  module {\n    source = \"./setup\"\n  }\n}\n",
    )
    .unwrap();
    let (m, diags) = crate::module::load_module_dir(d.path());
    assert!(diags.is_empty(), "{diags:?}");
    assert!(!m.unwrap().has_test_run_modules(), "tests not loaded yet");
    let (m, diags) = crate::module::load_module_dir_with_tests(d.path(), DEFAULT_TEST_DIRECTORY);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(m.unwrap().has_test_run_modules());
}
