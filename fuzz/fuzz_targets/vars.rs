//! Root variable values as `plan` and `console` collect them: `-var`
//! flags, `TF_VAR_` environment variables and a `-var-file` (native or
//! JSON syntax, generated or raw bytes), parsed by each declaration's
//! parsing mode and converted to its generated type constraint (optional
//! attributes with defaults included), then rendered as the console
//! shows values. Any panic or time-out is a bug: a bad value must end in
//! a diagnostic.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use command::variables::{collect_with_env, Unset};
use configs::module::Module;
use configs::parser::LoadedFile;
use libfuzzer_sys::fuzz_target;
use tfdiags::{Diagnostics, SourceMap};
use tofu_rs_fuzz::type_gen::{json_quote, TypeExpr, ValueLit};

/// Declared `v0`..`v4`; `undeclared` is not.
const NAMES: [&str; 6] = ["v0", "v1", "v2", "v3", "v4", "undeclared"];

#[derive(Arbitrary, Debug)]
struct Input {
    decls: Vec<Decl>,
    args: Vec<Arg>,
    env: Vec<(u8, String)>,
    file: Option<VarFile>,
    unset_unknown: bool,
}

#[derive(Arbitrary, Debug)]
struct Decl {
    ty: Option<TypeExpr>,
    default: Option<ValueLit>,
    nullable: Option<bool>,
    sensitive: bool,
}

#[derive(Arbitrary, Debug)]
enum Arg {
    /// `-var NAME=<value in HCL>`
    Value(u8, ValueLit),
    /// `-var` with whatever text (with or without `=`).
    Raw(String),
}

#[derive(Arbitrary, Debug)]
enum VarFile {
    Native(Vec<(u8, ValueLit)>),
    Json(Vec<(u8, ValueLit)>),
    Raw { json: bool, bytes: Vec<u8> },
}

fn name(i: u8) -> &'static str {
    NAMES[i as usize % NAMES.len()]
}

fn main_tf(decls: &[Decl]) -> String {
    let mut out = String::new();
    for (i, d) in decls.iter().take(5).enumerate() {
        out.push_str(&format!("variable \"v{i}\" {{\n"));
        if let Some(t) = &d.ty {
            out.push_str(&format!("  type = {}\n", t.render()));
        }
        if let Some(v) = &d.default {
            out.push_str(&format!("  default = {}\n", v.render()));
        }
        if let Some(n) = d.nullable {
            out.push_str(&format!("  nullable = {n}\n"));
        }
        if d.sensitive {
            out.push_str("  sensitive = true\n");
        }
        out.push_str("}\n");
    }
    out
}

/// The `-var-file`: its name, and its bytes.
fn var_file(f: &VarFile) -> (&'static str, Vec<u8>) {
    match f {
        VarFile::Native(items) => {
            let text: String = items
                .iter()
                .map(|(k, v)| format!("{} = {}\n", name(*k), v.render()))
                .collect();
            ("x.tfvars", text.into_bytes())
        }
        VarFile::Json(items) => {
            let fields: Vec<String> = items
                .iter()
                .map(|(k, v)| format!("{}: {}", json_quote(name(*k)), v.render_json()))
                .collect();
            (
                "x.tfvars.json",
                format!("{{{}}}", fields.join(",")).into_bytes(),
            )
        }
        VarFile::Raw { json: false, bytes } => ("x.tfvars", bytes.clone()),
        VarFile::Raw { json: true, bytes } => ("x.tfvars.json", bytes.clone()),
    }
}

/// A working directory of this process, holding only the `-var-file`.
fn work_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary working directory"))
        .path()
}

fuzz_target!(|input: Input| {
    let text = main_tf(&input.decls);
    let (file, parse_diags) = hclsyntax::parse_file("main.tf", text.as_bytes());
    if hclsyntax::has_errors(&parse_diags) {
        // The generator writes valid declarations; a type or default it
        // spells badly is decoded below and reported.
        return;
    }
    let (config, more) = configs::config_file::decode_file(&file.body, false, false);
    let loaded = LoadedFile {
        path: "main.tf".into(),
        source: file.source.clone(),
        config,
        diagnostics: more,
    };
    let (module, module_diags) = Module::from_files(vec![loaded], Vec::new());
    let mut sources = SourceMap::new();
    sources.insert(file.source.clone());

    let dir = work_dir();
    let mut args: Vec<(&str, String)> = input
        .args
        .iter()
        .take(8)
        .map(|a| match a {
            Arg::Value(k, v) => ("var", format!("{}={}", name(*k), v.render())),
            Arg::Raw(s) => ("var", s.clone()),
        })
        .collect();
    for stale in ["x.tfvars", "x.tfvars.json"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    if let Some(f) = &input.file {
        let (file_name, bytes) = var_file(f);
        std::fs::write(dir.join(file_name), bytes).expect("writing the -var-file");
        args.push(("var-file", file_name.to_string()));
    }
    let env: Vec<(String, String)> = input
        .env
        .iter()
        .take(4)
        .map(|(k, v)| (format!("TF_VAR_{}", name(*k)), v.clone()))
        .collect();
    let unset = if input.unset_unknown {
        Unset::Unknown
    } else {
        Unset::Error
    };
    let (vars, mut diags) = collect_with_env(&module, &args, dir, &env, unset);
    for f in &vars.files {
        sources.insert(f.clone());
    }
    for v in vars.values.values() {
        std::hint::black_box(cty::format::console_format(v));
    }
    diags.append(Diagnostics::from(module_diags));
    tofu_rs_fuzz::render_diagnostics(&diags, &sources);
});
