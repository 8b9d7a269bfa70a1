//! The evaluation context of the `eval` target: variables bound to values
//! of every kind (unknown, null, sensitive, nested, huge, multibyte), and
//! the console's function table with the filesystem functions confined to
//! a sandbox directory (reading whatever path the fuzzer spells, such as
//! `/dev/zero`, or globbing `/`, is not a bug in tofu-rs).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use addrs::{
    CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, PathAttr, Resource,
    TerraformAttr,
};
use cty::{Mark, Type, Value};
use hclsyntax::{Diagnostic, Diagnostics, Range};
use lang::{Data, FnError, FunctionTable};

use crate::expr_gen::VAR_NAMES;

/// The filesystem functions whose first argument is a path that is read.
const READING_FUNCTIONS: &[&str] = &[
    "file",
    "filebase64",
    "fileexists",
    "fileset",
    "filebase64sha256",
    "filebase64sha512",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "templatefile",
];

/// The sandbox: a directory with a few files the generated paths name
/// (see [`crate::text_gen::SPECIAL`]). Made once per process.
pub fn sandbox() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory for the sandbox");
        let p = dir.path();
        let write = |name: &str, bytes: &[u8]| {
            std::fs::write(p.join(name), bytes).expect("writing a sandbox file");
        };
        std::fs::create_dir_all(p.join("dir/sub")).expect("sandbox dirs");
        write("a.txt", b"hello\n");
        write("dir/b.txt", "日本語\n".as_bytes());
        write("dir/sub/c.txt", b"");
        write("bin.dat", &(0..=255u8).collect::<Vec<u8>>());
        write(
            "tpl.tftpl",
            b"${a} %{ for x in b }[${x}]%{ endfor } ${jsonencode(a)}\n",
        );
        write("rec.tftpl", b"${templatefile(\"rec.tftpl\", {})}");
        dir
    })
    .path()
}

/// Whether reading `p` (relative to the sandbox) stays inside it.
fn inside_sandbox(p: &str) -> bool {
    let base = sandbox();
    let full = base.join(p);
    match full.canonicalize() {
        Ok(real) => real.starts_with(base.canonicalize().unwrap_or_else(|_| base.into())),
        // Missing: the function reports it; nothing is read. Anything
        // but a plain relative name is refused all the same, so that a
        // path that appears between the check and the read is harmless.
        Err(_) => !Path::new(p).is_absolute() && !p.contains(".."),
    }
}

/// The console's function table, the reading functions confined to the
/// sandbox.
pub fn function_table() -> Arc<FunctionTable> {
    static TABLE: OnceLock<Arc<FunctionTable>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let base = sandbox().to_string_lossy().into_owned();
            tofu::function_table_with(|t| {
                lang::functions::typeconv::register_console(t);
                lang::functions::filesystem::register_with_base_dir(t, &base);
                for name in READING_FUNCTIONS {
                    let mut f = t.get(name).expect("a filesystem function").clone();
                    let inner = f.implementation.clone();
                    f.implementation = Arc::new(move |args: &[Value], ty: &Type| {
                        match args.first().and_then(Value::as_str) {
                            Some(p) if !inside_sandbox(p) => {
                                Err(FnError::general("outside the fuzz sandbox"))
                            }
                            _ => inner(args, ty),
                        }
                    });
                    t.insert(*name, f);
                }
            })
        })
        .clone()
}

/// Every function name a call may use (the `names` of the generator).
pub fn function_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        function_table()
            .names()
            .into_iter()
            .map(str::to_string)
            .collect()
    })
}

/// Parameter count of `name`, and whether it is variadic.
pub fn arity(name: &str) -> Option<(usize, bool)> {
    let table = function_table();
    let f = table.get(name)?;
    Some((f.params.len(), f.var_param.is_some()))
}

/// The values `var.NAME` and `local.NAME` answer.
pub fn variables() -> &'static BTreeMap<String, Value> {
    static VARS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    VARS.get_or_init(make_variables)
}

fn make_variables() -> BTreeMap<String, Value> {
    let s = Value::string;
    let list = |vs: Vec<Value>| Value::list(Type::String, vs).expect("strings");
    let secret = |v: Value| v.mark(Mark::Sensitive);
    let map = |pairs: &[(&str, Value)]| {
        let ty = pairs[0].1.ty().clone();
        Value::map(
            ty,
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
        .expect("one element type")
    };
    let big = Value::parse_number(&format!("1{}", "0".repeat(60))).expect("a number");
    let vars: Vec<(&str, Value)> = vec![
        ("str", s("hello")),
        ("num", Value::number_int(42)),
        ("big", big),
        ("bool", Value::bool(true)),
        ("list", list(vec![s("a"), s("b"), s("c")])),
        ("map", map(&[("a", s("1")), ("b", s("2"))])),
        (
            "set",
            Value::set(
                Type::Number,
                vec![Value::number_int(1), Value::number_int(2)],
            )
            .expect("numbers"),
        ),
        (
            "tuple",
            Value::tuple(vec![s("x"), Value::number_int(1), Value::null(Type::Bool)]),
        ),
        (
            "obj",
            Value::object_from([("a", s("x")), ("b", Value::number_int(2))]),
        ),
        (
            "nested",
            Value::object_from([
                ("a", list(vec![s("x")])),
                (
                    "b",
                    Value::tuple(vec![Value::object_from([("name", s("n"))])]),
                ),
                ("tags", map(&[("k", s("v"))])),
            ]),
        ),
        ("multibyte", s("日本語👩‍👩‍👧e\u{301}\u{200B}")),
        ("unknown_str", Value::unknown(Type::String)),
        ("unknown_num", Value::unknown(Type::Number)),
        ("unknown_list", Value::unknown(Type::list(Type::String))),
        (
            "unknown_obj",
            Value::unknown(Type::object(
                [("a".to_string(), Type::String)].into_iter().collect(),
            )),
        ),
        ("unknown_dyn", Value::dynamic()),
        (
            "partly_unknown",
            Value::object_from([
                ("a", Value::unknown(Type::String)),
                ("b", list(vec![s("x"), Value::unknown(Type::String)])),
            ]),
        ),
        ("null_str", Value::null(Type::String)),
        ("null_list", Value::null(Type::list(Type::String))),
        ("null_dyn", Value::null(Type::Dynamic)),
        ("secret", secret(s("hunter2"))),
        ("secret_list", secret(list(vec![s("a"), s("b")]))),
        ("secret_map", secret(map(&[("k", s("v"))]))),
        (
            "secret_inside",
            Value::object_from([("a", secret(s("x"))), ("b", s("y"))]),
        ),
        ("secret_unknown", secret(Value::unknown(Type::String))),
        ("empty_list", Value::list_empty(Type::String)),
        ("empty_map", Value::map_empty(Type::String)),
        ("empty_obj", Value::empty_object()),
    ];
    debug_assert!(vars.iter().all(|(n, _)| VAR_NAMES.contains(n)));
    vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The console's view of a configuration with those variables and locals
/// and nothing else.
pub struct FuzzData;

fn unknown_ref(what: &str, range: &Range) -> (Value, Diagnostics) {
    (
        Value::dynamic(),
        vec![Diagnostic::error(
            "Reference to undeclared object",
            format!("There is no {what} here."),
            range.clone(),
        )],
    )
}

fn lookup(name: &str, range: &Range) -> (Value, Diagnostics) {
    match variables().get(name) {
        Some(v) => (v.clone(), Diagnostics::new()),
        None => unknown_ref(name, range),
    }
}

impl Data for FuzzData {
    fn get_count_attr(&self, _: &CountAttr, range: &Range) -> (Value, Diagnostics) {
        unknown_ref("count", range)
    }
    fn get_for_each_attr(&self, _: &ForEachAttr, range: &Range) -> (Value, Diagnostics) {
        unknown_ref("each", range)
    }
    fn get_resource(&self, _: &Resource, range: &Range) -> (Value, Diagnostics) {
        unknown_ref("resource", range)
    }
    fn get_local_value(&self, addr: &LocalValue, range: &Range) -> (Value, Diagnostics) {
        lookup(&addr.name, range)
    }
    fn get_module(&self, _: &ModuleCall, range: &Range) -> (Value, Diagnostics) {
        unknown_ref("module", range)
    }
    fn get_path_attr(&self, addr: &PathAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "module" | "root" => (Value::string("."), Diagnostics::new()),
            "cwd" => (
                Value::string(sandbox().to_string_lossy()),
                Diagnostics::new(),
            ),
            _ => unknown_ref("path attribute", range),
        }
    }
    fn get_terraform_attr(&self, _: &TerraformAttr, _: &Range) -> (Value, Diagnostics) {
        (Value::string("default"), Diagnostics::new())
    }
    fn get_input_variable(&self, addr: &InputVariable, range: &Range) -> (Value, Diagnostics) {
        lookup(&addr.name, range)
    }
}
