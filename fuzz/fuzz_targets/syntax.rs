//! Native HCL syntax and JSON syntax, whole files: parsed, decoded as a
//! module file (every top-level block's decoder runs) or as a test file,
//! combined into a module, statically evaluated, validated when the module
//! calls no other module (validate would otherwise read module sources),
//! and every diagnostic rendered. The first byte picks the file kind;
//! the rest is the file. Any panic, stack overflow or time-out is a bug:
//! a bad file must end in diagnostics.
#![no_main]

use std::collections::BTreeMap;
use std::path::PathBuf;

use configs::module::Module;
use configs::parser::LoadedFile;
use configs::static_eval::{RootVariables, StaticModuleCall};
use libfuzzer_sys::fuzz_target;
use tfdiags::{Diagnostics, SourceMap};

const NAMES: [&str; 5] = [
    "main.tf",
    "main.tf.json",
    "main.tofu",
    "main.tftest.hcl",
    "main.tftest.json",
];

fuzz_target!(|data: &[u8]| {
    let Some((&kind, bytes)) = data.split_first() else {
        return;
    };
    let name = NAMES[kind as usize % NAMES.len()];
    let (file, parse_diags) = hclsyntax::parse_file(name, bytes);
    let mut sources = SourceMap::new();
    sources.insert(file.source.clone());
    let mut diags: Diagnostics = parse_diags.into();

    if name.contains(".tftest.") {
        let (test, more) = configs::test_file::decode_test_file(&file.body);
        diags.append(Diagnostics::from(more));
        diags.append(Diagnostics::from(test.validate()));
        for run in &test.runs {
            diags.append(Diagnostics::from(run.validate()));
        }
        tofu_rs_fuzz::render_diagnostics(&diags, &sources);
        return;
    }

    let is_tofu = name.ends_with(".tofu");
    let (config, more) = configs::config_file::decode_file(&file.body, false, is_tofu);
    let loaded = LoadedFile {
        path: PathBuf::from(name),
        source: file.source.clone(),
        config,
        diagnostics: more,
    };
    let (mut module, more) = Module::from_files(vec![loaded], Vec::new());
    diags.append(Diagnostics::from(more));
    let call = StaticModuleCall::root(RootVariables::new(BTreeMap::new()), ".", "default");
    diags.append(Diagnostics::from(module.with_static_call(call)));
    if !diags.has_errors() && module.module_calls.is_empty() {
        let config = configs::config::Config::root(module);
        diags.append(tofu::validate(&config));
    }
    // FUZZ_SHOW=1 lists the diagnostics an input (an artifact) produces.
    if std::env::var_os("FUZZ_SHOW").is_some() {
        for d in diags.iter() {
            eprintln!("{:?}: {} ({:?})", d.severity, d.summary, d.subject);
        }
    }
    tofu_rs_fuzz::render_diagnostics(&diags, &sources);
});
