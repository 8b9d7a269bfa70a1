//! A deprecated output feeding 10,000 resource instances, against the same
//! configuration without `deprecated`: the marks, the warnings and their
//! removal must cost little (issue 6 asks for less than 20% more).
//!
//! `validate`: 10,000 resource blocks (validate evaluates each block once).
//! `plan`: one block with `count = 10000`.

use std::hint::black_box;
use std::path::Path;

use addrs::ModuleSource;
use configs::config::Config;
use configs::config_build::{build_config, LoadedModule, ModuleRequest, ModuleWalker};
use configs::module::load_module_dir;
use criterion::{criterion_group, criterion_main, Criterion};
use hclsyntax::Diagnostics;

struct LocalWalker;

impl ModuleWalker for LocalWalker {
    fn load_module(&self, req: &ModuleRequest<'_>) -> (Option<LoadedModule>, Diagnostics) {
        let Some(ModuleSource::Local(rel)) = req.source_addr else {
            return (None, Vec::new());
        };
        let dir = req.parent_dir.join(rel);
        let (module, diags) = load_module_dir(&dir);
        let module = module.map(|module| LoadedModule {
            module,
            dir,
            version: None,
        });
        (module, diags)
    }
}

fn child(deprecated: bool) -> String {
    let dep = if deprecated {
        "  deprecated = \"use new_out\"\n"
    } else {
        ""
    };
    format!("output \"out\" {{\n  value = \"v\"\n{dep}}}\n")
}

fn blocks_root(n: usize) -> String {
    let mut s = String::from("module \"m\" {\n  source = \"./child\"\n}\n");
    for i in 0..n {
        s.push_str(&format!(
            "resource \"terraform_data\" \"r{i}\" {{\n  input = module.m.out\n}}\n"
        ));
    }
    s
}

fn count_root(n: usize) -> String {
    format!("module \"m\" {{\n  source = \"./child\"\n}}\nresource \"terraform_data\" \"r\" {{\n  count = {n}\n  input = module.m.out\n}}\n")
}

fn load(dir: &Path, root: &str, deprecated: bool) -> Config {
    std::fs::create_dir_all(dir.join("child")).unwrap();
    std::fs::write(dir.join("main.tf"), root).unwrap();
    std::fs::write(dir.join("child/main.tf"), child(deprecated)).unwrap();
    let (module, diags) = load_module_dir(dir);
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    let (cfg, diags) = build_config(module.unwrap(), &LocalWalker);
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    cfg
}

fn bench(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("deprecated_output_10k");
    group.sample_size(10);
    for deprecated in [false, true] {
        let label = if deprecated { "deprecated" } else { "plain" };
        let dir = tempfile::tempdir().unwrap();
        let cfg = load(dir.path(), &blocks_root(N), deprecated);
        let warnings = tofu::validate_with_causes(&cfg).warning_count();
        assert_eq!(warnings, if deprecated { N } else { 0 });
        group.bench_function(format!("validate/{label}"), |b| {
            b.iter(|| black_box(tofu::validate_with_causes(&cfg)))
        });
        let dir = tempfile::tempdir().unwrap();
        let cfg = load(dir.path(), &count_root(N), deprecated);
        group.bench_function(format!("plan/{label}"), |b| {
            b.iter(|| black_box(tofu::plan_with_causes(&cfg, Default::default())))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
