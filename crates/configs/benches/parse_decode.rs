//! Parse + decode throughput on a generated ~5 MB configuration (one file,
//! and the same bytes split over 20 files loaded as a module directory).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../examples/gen_config.rs"]
mod gen_config;

fn bench(c: &mut Criterion) {
    let per_resource = gen_config::generate_file(100, 1).len();
    let text = gen_config::generate_file(0, 5_000_000 / per_resource);
    let bytes = text.as_bytes();

    let mut group = c.benchmark_group("parse_decode");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    group.bench_function("one_5mb_file", |b| {
        b.iter(|| {
            let (file, diags) = hclsyntax::parse_file("main.tf", bytes);
            let (config, more) = configs::config_file::decode_file(&file.body, false, false);
            assert!(diags.is_empty() && more.is_empty());
            config
        })
    });

    let dir = tempfile::tempdir().unwrap();
    gen_config::generate_dir(dir.path(), 5.0, 20).unwrap();
    let total: u64 = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    group.throughput(Throughput::Bytes(total));
    group.bench_function("module_dir_20_files", |b| {
        b.iter(|| {
            let (module, diags) = configs::module::load_module_dir(dir.path());
            assert!(diags.is_empty());
            module
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
