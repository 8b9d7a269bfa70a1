//! Cases from OpenTofu's `testdata/config-diagnostics` and
//! `testdata/provider_for_each`, built with a walker that loads local
//! sources relative to the calling module.

use std::path::Path;

use addrs::ModuleSource;
use hclsyntax::{Diagnostics, Severity};

use crate::config_build::{build_config, LoadedModule, ModuleRequest, ModuleWalker};
use crate::module::load_module_dir;

struct LocalWalker;

impl ModuleWalker for LocalWalker {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        let Some(ModuleSource::Local(rel)) = req.source_addr else {
            return (None, Vec::new());
        };
        let dir = req.parent_dir.join(rel);
        let (module, diags) = load_module_dir(&dir);
        let loaded = module.map(|module| LoadedModule {
            module,
            dir,
            version: None,
        });
        (loaded, diags)
    }
}

/// Builds the configuration made of `files` and renders its diagnostics
/// as OpenTofu's tests do, file names relative to the root, each prefixed
/// with its severity.
pub(crate) fn build(files: &[(&str, &str)]) -> Vec<String> {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let (module, diags) = load_module_dir(d.path());
    assert!(diags.is_empty(), "{diags:?}");
    let (_, diags) = build_config(module.unwrap(), &LocalWalker);
    render(d.path(), &diags)
}

fn render(root: &Path, diags: &Diagnostics) -> Vec<String> {
    let prefix = format!("{}/", root.display());
    diags
        .iter()
        .map(|d| {
            let sev = match d.severity {
                Severity::Error => "E",
                Severity::Warning => "W",
            };
            let at = d
                .subject
                .as_ref()
                .map(|r| format!("{r}: ").replace("/./", "/").replace(&prefix, ""))
                .unwrap_or_default();
            format!("{sev} {at}{}; {}", d.summary, d.detail)
        })
        .collect()
}

fn assert_prefixes(got: &[String], want: &[&str]) {
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for w in want {
        assert!(
            got.iter().any(|g| g.starts_with(w)),
            "missing {w:?} in {got:#?}"
        );
    }
}

#[test]
fn incorrect_type() {
    let got = build(&[
        (
            "main.tf",
            "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n    baz = {\n      source = \"hashicorp/baz\"\n    }\n  }\n}\n\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    foo = foo\n    baz = baz\n  }\n}\n",
        ),
        (
            "mod/main.tf",
            "terraform {\n  required_providers {\n    foo = {\n      source = \"example.com/vendor/foo\"\n    }\n  }\n}\n\nresource \"foo_resource\" \"a\" {\n}\n\nresource \"baz_resource\" \"a\" {\n}\n",
        ),
    ]);
    assert_prefixes(
        &got,
        &[
            "W main.tf:16,5-8: Reference to undefined provider; There is no explicit declaration for local provider name \"baz\" in module.mod, so OpenTofu is assuming you mean to pass a configuration for \"hashicorp/baz\".",
            "E main.tf:15,11-14: Provider type mismatch; The local name \"foo\" in the root module represents provider \"hashicorp/foo\", but \"foo\" in module.mod represents \"example.com/vendor/foo\".",
        ],
    );
}

#[test]
fn empty_configs_are_redundant() {
    let got = build(&[
        (
            "main.tf",
            "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n    }\n    baz = {\n      source = \"hashicorp/baz\"\n    }\n  }\n}\n\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    foo = foo\n    foo.bar = foo\n    baz = baz\n    baz.bing = baz\n  }\n}\n",
        ),
        (
            "mod/main.tf",
            "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n      configuration_aliases = [ foo.bar ]\n    }\n  }\n}\n\nprovider \"foo\" {\n}\n\nprovider \"foo\" {\n  alias = \"bar\"\n}\n\nprovider \"baz\" {\n}\n\nprovider \"baz\" {\n  alias = \"bing\"\n}\n",
        ),
    ]);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(
        got[0],
        "W mod/main.tf:17,1-15: Redundant empty provider block; Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"baz\" blocks and then adding or updating an entry like the following to the required_providers block of module.mod:\n    baz = {\n      source = \"hashicorp/baz\"\n      configuration_aliases = [\n        baz,\n        baz.bing,\n      ]\n    }"
    );
    assert!(got[1].starts_with("W mod/main.tf:10,1-15: Redundant empty provider block;"));
}

#[test]
fn module_rules() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str]);
    let cases: &[Case] = &[
        (
            "override-provider",
            &[
                ("main.tf", "terraform {\n  required_providers {\n    bar = {\n      version = \"~>1.0.0\"\n    }\n  }\n}\n\nprovider \"bar\" {\n  value = \"not ok\"\n}\n\nmodule \"mod\" {\n  source = \"./mod\"\n  providers = {\n    bar = bar\n  }\n}\n"),
                ("mod/main.tf", "terraform {\n  required_providers {\n    bar = {\n      version = \"~>1.0.0\"\n    }\n  }\n}\n\nprovider \"bar\" {\n  value = \"ok\"\n}\n"),
            ],
            &["E main.tf:16,5-8: Cannot override provider configuration; The configuration of module.mod has its own local configuration for bar, and so it cannot accept an overridden configuration provided by the root module."],
        ),
        (
            "required-alias",
            &[
                ("main.tf", "module \"mod\" {\n  source = \"./mod\"\n}\n"),
                ("mod/main.tf", "terraform {\n  required_providers {\n    foo = {\n      source = \"hashicorp/foo\"\n      version = \"1.0.0\"\n      configuration_aliases = [ foo.bar ]\n    }\n  }\n}\n\nresource \"foo_resource\" \"a\" {\n  provider = foo.bar\n}\n"),
            ],
            &["E main.tf:1,1-13: Missing required provider configuration; The child module requires an additional configuration for provider hashicorp/foo, with the local name \"foo.bar\"."],
        ),
        (
            "nested-provider",
            &[
                ("root.tf", "module \"child\" {\n  count = 1\n  source = \"./child\"\n}\n"),
                ("child/main.tf", "module \"child2\" {\n  source = \"./child2\"\n}\n"),
                ("child/child2/main.tf", "provider \"aws\" {\n  value = \"foo\"\n}\n"),
            ],
            &["E root.tf:2,11-12: Module is incompatible with count, for_each, enabled and depends_on; The module at module.child.module.child2 is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module \"./child2\", consider"],
        ),
        (
            "pass-inherited-provider",
            &[
                ("main.tf", "provider \"test\" {\n  value = \"ok\"\n}\n\nmodule \"mod\" {\n  source = \"./mod\"\n}\n"),
                ("mod/main.tf", "terraform {\n  required_providers {\n    test = {\n      source = \"hashicorp/test\"\n    }\n  }\n}\n\nmodule \"mod2\" {\n  source = \"../mod2\"\n  providers = {\n    test.foo = test\n  }\n}\n"),
                ("mod2/main.tf", "terraform {\n  required_providers {\n    test = {\n      source = \"hashicorp/test\"\n      configuration_aliases = [test.foo]\n    }\n  }\n}\n\nresource \"test_resource\" \"foo\" {\n  provider = test.foo\n}\n"),
            ],
            &["W main.tf:5,1-13: Missing required provider configuration; The configuration for module.mod expects to inherit a configuration for provider hashicorp/test with local name \"test\", but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for \"test\" to the \"providers\" argument in the module \"mod\" block."],
        ),
        (
            "unknown-root-provider",
            &[
                ("main.tf", "module \"mod\" {\n  source = \"./mod\"\n  providers = {\n    bar = bar\n  }\n}\n"),
                ("mod/main.tf", "terraform {\n  required_providers {\n    bar = {\n      version = \"~>1.0.0\"\n    }\n  }\n}\n\nresource \"bar_resource\" \"x\" {\n}\n"),
            ],
            &["W main.tf:4,11-14: Reference to undefined provider; There is no explicit declaration for local provider name \"bar\" in the root module, so OpenTofu is assuming you mean to pass a configuration for provider \"hashicorp/bar\"."],
        ),
        (
            "duplicate required provider",
            &[(
                "main.tf",
                "terraform {\n  required_providers {\n    a = { source = \"hashicorp/aws\" }\n    b = { source = \"hashicorp/aws\" }\n  }\n}\nresource \"aws_instance\" \"x\" {}\n",
            )],
            &[
                "W main.tf:4,9-37: Duplicate required provider; Provider hashicorp/aws with the local name \"b\" was previously required as \"a\". A provider can only be required once within required_providers.",
                "W main.tf:7,1-28: Duplicate required provider; Provider \"registry.opentofu.org/hashicorp/aws\" was implicitly required via resource \"aws_instance.x\", but listed in required_providers as \"a\".",
                "W main.tf:7,1-28: Duplicate required provider; Provider \"registry.opentofu.org/hashicorp/aws\" was implicitly required via resource \"aws_instance.x\", but listed in required_providers as \"b\".",
            ],
        ),
    ];
    for (name, files, want) in cases {
        let got = build(files);
        assert_eq!(got.len(), want.len(), "{name}: {got:#?}");
        for w in *want {
            assert!(
                got.iter().any(|g| g.starts_with(w)),
                "{name}: missing {w:?} in {got:#?}"
            );
        }
    }
}

#[test]
fn provider_for_each_references() {
    let main = "terraform {\n  required_providers {\n    dummy = {\n      source = \"my/dummy\"\n    }\n  }\n}\n\nlocals {\n  fe = {}\n}\n\nprovider \"dummy\" {\n  alias = \"key\"\n  for_each = local.fe\n}\n\nresource \"dummy_warning\" \"test\" {\n  for_each = local.fe\n  provider = dummy.key[each.key]\n}\n\nmodule \"mod_warning\" {\n  source = \"./mod\"\n  for_each = local.fe\n  providers = {\n    dummy = dummy.key[each.key]\n  }\n}\n\nresource \"dummy_error\" \"test\" {\n  for_each = local.fe\n  provider = dumme.key[each.key]\n}\n\nmodule \"mod_error\" {\n  source = \"./mod\"\n  for_each = local.fe\n  providers = {\n    dummy = dumme.key[each.key]\n  }\n}\n";
    let got = build(&[
        ("main.tf", main),
        ("mod/main.tf", "terraform {\n  required_providers {\n    dummy = {\n      source = \"my/dummy\"\n    }\n  }\n}\n"),
    ]);
    assert_prefixes(
        &got,
        &[
            "E main.tf:40,13-22: Invalid module provider configuration; This module doesn't declare a provider \"dumme\" block with alias = \"key\", which is required for use with for_each.",
            "W main.tf:25,14-22: Provider configuration for_each matches module; This provider configuration uses the same for_each expression as a module, which means that subsequent removal of elements from this collection would cause a planning error.",
            "W main.tf:19,14-22: Provider configuration for_each matches resource;",
            "E main.tf:33,14-23: Invalid resource provider configuration; This module doesn't declare a provider \"dumme\" block with alias = \"key\", which is required for use with for_each.",
        ],
    );
    assert!(
        got[1].ends_with("tofu apply -destroy -target=module.mod_warning"),
        "{}",
        got[1]
    );
}

#[test]
fn identical_for_each_is_syntactic() {
    let src = "locals {\n  s = toset([])\n  b = true\n}\nprovider \"null\" {\n  for_each = {\"foo\": \"bar\"}\n  alias = \"plain\"\n}\nresource \"null_resource\" \"plain\" {\n  for_each = {\"foo\": \"bar\"}\n  provider = null.plain[each.key]\n}\nprovider \"null\" {\n  for_each = local.s\n  alias = \"parens\"\n}\nresource \"null_resource\" \"parens\" {\n  for_each = (local.s)\n  provider = null.parens[each.key]\n}\nprovider \"null\" {\n  for_each = {for s in local.s : s => upper(s)}\n  alias = \"for\"\n}\nresource \"null_resource\" \"for\" {\n  for_each = {for s in local.s : s => upper(s)}\n  provider = null.for[each.key]\n}\nprovider \"null\" {\n  for_each = local.b ? local.s : []\n  alias = \"differs\"\n}\nresource \"null_resource\" \"differs\" {\n  for_each = local.b ? local.s : toset([])\n  provider = null.differs[each.key]\n}\n";
    let got = build(&[("main.tf", src)]);
    // Constant for_each never warns; different expressions never warn.
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(
        got[0].starts_with("W main.tf:26,14-48: Provider configuration for_each matches resource")
    );
    assert!(
        got[1].starts_with("W main.tf:18,14-23: Provider configuration for_each matches resource")
    );
    assert!(got[1].ends_with("-target=null_resource.parens"));
}

#[test]
fn provider_key_validation() {
    let src = "provider \"a\" {\n  alias = \"x\"\n  for_each = var.m\n}\nprovider \"a\" {\n  alias = \"y\"\n  region = \"r\"\n}\nresource \"a_b\" \"keyless\" {\n  provider = a.x\n}\nresource \"a_b\" \"not_instanced\" {\n  provider = a.y[\"k\"]\n}\nvariable \"m\" {}\n";
    let got = build(&[("main.tf", src)]);
    assert_eq!(
        got,
        vec![
            "E main.tf:10,14-17: Invalid resource provider configuration; A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.",
            "E main.tf:13,14-22: Invalid resource provider configuration; An instance key can be specified only for a provider configuration that uses for_each.",
        ]
    );
}

/// OpenTofu's `TestConfigProviderRequirementsDuplicate`
/// (`testdata/duplicate-local-name`): the Go test loads the module and
/// builds it even though loading failed (the one-label resource), so it
/// sees three diagnostics: the load error and two duplicate-requirement
/// warnings. (The CLI's loader stops after the load error, as
/// OpenTofu's `Loader.loadConfig` does, and reports only the first.)
#[test]
fn duplicate_local_name_load_then_build() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("main.tf"),
        "terraform {\n  required_providers {\n    test = {\n      source = \"hashicorp/test\"\n    }\n    dupe = {\n      source = \"hashicorp/test\"\n    }\n    other = {\n      source = \"hashicorp/default\"\n    }\n\n    wrong-name = {\n      source = \"hashicorp/foo\"\n    }\n  }\n}\n\nprovider \"default\" {\n}\n\nresource \"foo_resource\" {\n}\n",
    )
    .unwrap();
    let (module, mut diags) = load_module_dir(d.path());
    let (_, more) = build_config(module.expect("a module despite the error"), &LocalWalker);
    diags.extend(more);
    let got = render(d.path(), &diags);
    assert_prefixes(
        &got,
        &[
            "E main.tf:22,25-26: Missing name for resource; All resource blocks must have 2 labels (type, name).",
            "W main.tf:9,13-11,6: Duplicate required provider; Provider hashicorp/default with the local name \"other\" was implicitly required via a configuration block as \"default\". The provider configuration block name must match the name used in required_providers.",
            "W main.tf:3,12-5,6: Duplicate required provider; Provider hashicorp/test with the local name \"test\" was previously required as \"dupe\". A provider can only be required once within required_providers.",
        ],
    );
}
