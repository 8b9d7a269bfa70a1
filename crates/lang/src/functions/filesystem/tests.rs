//! Filesystem function tests (OpenTofu `filesystem_test.go`, `crypto_test.go`
//! file hashes, Terraform console checks), in temporary directories.

use std::collections::BTreeMap;
use std::fs;
use std::sync::Arc;

use cty::{Mark, Type, Value};

use crate::context::EvalContext;
use crate::functions::framework::{FnError, FunctionTable};
use crate::functions::test_util::{call, call_err, s};

fn table(base: &str) -> FunctionTable {
    let mut t = FunctionTable::new();
    super::register_with_base_dir(&mut t, base);
    t
}

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(p.join("hello.txt"), "Hello World").unwrap();
    fs::write(p.join("icon.png"), [0x89u8, 0x50, 0x4e, 0x47, 0xff, 0xfe]).unwrap();
    fs::create_dir_all(p.join("sub/deep")).unwrap();
    fs::write(p.join("sub/a.txt"), "a").unwrap();
    fs::write(p.join("sub/b.tmpl"), "b").unwrap();
    fs::write(p.join("sub/deep/c.txt"), "c").unwrap();
    fs::write(p.join("sub/.hidden.txt"), "h").unwrap();
    dir
}

fn base_of(d: &tempfile::TempDir) -> String {
    d.path().to_string_lossy().into_owned()
}

#[test]
fn file_and_base64() {
    let d = fixture();
    let t = table(&base_of(&d));
    assert_eq!(
        call(&t, "file", vec![s("hello.txt")]).unwrap(),
        s("Hello World")
    );
    assert_eq!(
        call(&t, "filebase64", vec![s("hello.txt")]).unwrap(),
        s("SGVsbG8gV29ybGQ=")
    );
    assert_eq!(
        call(&t, "filebase64", vec![s("icon.png")]).unwrap(),
        s("iVBOR//+")
    );
    let e = call(&t, "file", vec![s("icon.png")]).unwrap_err();
    assert_eq!(
        e,
        FnError::general("contents of \"icon.png\" are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead")
    );
    let e = call(&t, "file", vec![s("nope.txt")]).unwrap_err();
    assert_eq!(
        e,
        FnError::arg(0, "no file exists at \"nope.txt\"; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource")
    );
    let e = call(&t, "file", vec![s("nope.txt").mark(Mark::Sensitive)]).unwrap_err();
    assert!(e
        .message()
        .starts_with("no file exists at (sensitive value);"));
    let e = call(&t, "file", vec![s("sub")]).unwrap_err();
    assert_eq!(
        e,
        FnError::arg(
            0,
            format!(
                "failed to read file: read {}/sub: is a directory",
                base_of(&d)
            )
        )
    );
    let got = call(&t, "file", vec![s("hello.txt").mark(Mark::Sensitive)]).unwrap();
    assert!(got.has_mark(&Mark::Sensitive));
    // Absolute paths ignore the base directory.
    let abs = format!("{}/sub/a.txt", base_of(&d));
    assert_eq!(
        call(&table("/nonexistent"), "file", vec![s(&abs)]).unwrap(),
        s("a")
    );
}

#[test]
fn file_hashes() {
    let d = fixture();
    let t = table(&base_of(&d));
    let cases = [
        ("filemd5", "b10a8db164e0754105b7a99be72e3fe5"),
        ("filesha1", "0a4d55a8d778e5022fab701977c5d840bbc486d0"),
        (
            "filesha256",
            "a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e",
        ),
        (
            "filesha512",
            "2c74fd17edafd80e8447b0d46741ee243b7eb74dd2149a0ab1b9246fb30382f27e853d8585719e0e67cbda0daa8f51671064615d645ae27acb15bfb1447f459b",
        ),
        (
            "filebase64sha256",
            "pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=",
        ),
        (
            "filebase64sha512",
            "LHT9F+2v2A6ER7DUZ0HuJDt+t03SFJoKsbkkb7MDgvJ+hT2FhXGeDmfL2g2qj1FnEGRhXWRa4nrLFb+xRH9Fmw==",
        ),
    ];
    for (name, want) in cases {
        assert_eq!(
            call(&t, name, vec![s("hello.txt")]).unwrap(),
            s(want),
            "{name}"
        );
    }
    let e = call(&t, "filemd5", vec![s("nope")]).unwrap_err();
    assert_eq!(
        e,
        FnError::general(format!(
            "open {}/nope: no such file or directory",
            base_of(&d)
        ))
    );
    let e = call(&t, "filemd5", vec![s("sub")]).unwrap_err();
    assert_eq!(
        e,
        FnError::general(format!("read {}/sub: is a directory", base_of(&d)))
    );
}

#[test]
fn fileexists() {
    let d = fixture();
    let t = table(&base_of(&d));
    assert_eq!(
        call(&t, "fileexists", vec![s("hello.txt")]).unwrap(),
        Value::bool(true)
    );
    assert_eq!(
        call(&t, "fileexists", vec![s("nope.txt")]).unwrap(),
        Value::bool(false)
    );
    assert_eq!(
        call(&t, "fileexists", vec![s("hello.txt/x")]).unwrap(),
        Value::bool(false)
    );
    let e = call(&t, "fileexists", vec![s("sub")]).unwrap_err();
    assert_eq!(
        e,
        FnError::arg(
            1,
            format!("\"{}/sub\" is a directory, not a file", base_of(&d))
        )
    );
}

fn strset(v: &[&str]) -> Value {
    if v.is_empty() {
        return Value::set_empty(Type::String);
    }
    Value::set(Type::String, v.iter().map(|x| s(x)).collect()).unwrap()
}

#[test]
fn fileset() {
    let d = fixture();
    let t = table(&base_of(&d));
    let fs_ = |p: &str, pat: &str| call(&t, "fileset", vec![s(p), s(pat)]).unwrap();
    assert_eq!(fs_(".", "*.txt"), strset(&["hello.txt"]));
    assert_eq!(fs_(".", "hello.txt"), strset(&["hello.txt"]));
    assert_eq!(fs_(".", "nope.txt"), strset(&[]));
    assert_eq!(fs_(".", "sub"), strset(&[]));
    assert_eq!(
        fs_(".", "**/*.txt"),
        strset(&[
            "hello.txt",
            "sub/.hidden.txt",
            "sub/a.txt",
            "sub/deep/c.txt"
        ])
    );
    assert_eq!(
        fs_("sub", "**"),
        strset(&[".hidden.txt", "a.txt", "b.tmpl", "deep/c.txt"])
    );
    assert_eq!(
        fs_("sub", "*.{txt,tmpl}"),
        strset(&[".hidden.txt", "a.txt", "b.tmpl"])
    );
    assert_eq!(fs_("sub", "[ab].*"), strset(&["a.txt", "b.tmpl"]));
    assert_eq!(fs_(".", "sub/*/c.txt"), strset(&["sub/deep/c.txt"]));
    assert_eq!(fs_("sub/deep", "../a.txt"), strset(&["../a.txt"]));
    assert_eq!(fs_("missing", "*"), strset(&[]));
    let e = call(&t, "fileset", vec![s("."), s("[")]).unwrap_err();
    assert_eq!(
        e,
        FnError::general(format!(
            "failed to glob pattern \"{}/[\": syntax error in pattern",
            base_of(&d)
        ))
    );
    let got = call(
        &t,
        "fileset",
        vec![s("."), s("*.txt").mark(Mark::Sensitive)],
    )
    .unwrap();
    assert!(got.has_mark(&Mark::Sensitive));
}

#[test]
fn path_functions() {
    let t = table(".");
    let one = |f: &str, a: &str| call(&t, f, vec![s(a)]).unwrap();
    assert_eq!(one("basename", "foo/bar/baz.txt"), s("baz.txt"));
    assert_eq!(one("basename", "a/b/"), s("b"));
    assert_eq!(one("basename", ""), s("."));
    assert_eq!(one("basename", "/"), s("/"));
    assert_eq!(one("dirname", "foo/bar/baz.txt"), s("foo/bar"));
    assert_eq!(one("dirname", ""), s("."));
    assert_eq!(one("dirname", "/foo"), s("/"));
    assert_eq!(one("abspath", "/a/../b/"), s("/b"));
    let cwd = std::env::current_dir().unwrap();
    assert_eq!(
        one("abspath", "a/../b"),
        s(&format!("{}/b", cwd.to_string_lossy()))
    );
    assert_eq!(one("pathexpand", "/etc/x"), s("/etc/x"));
    if let Ok(home) = std::env::var("HOME") {
        if !home.is_empty() {
            assert_eq!(
                one("pathexpand", "~/x"),
                s(&super::paths::join(&[&home, "x"]))
            );
        }
    }
    assert_eq!(
        call_err(&t, "pathexpand", vec![s("~x/a")]),
        "cannot expand user-specific home dir"
    );
}

/// Evaluates `src` with the filesystem functions of `base` available.
fn eval(base: &str, src: &str) -> Result<Value, String> {
    let (expr, diags) = hclsyntax::native::parse_expression(src, "test.tf", hclsyntax::Pos::START);
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    let mut t = table(base);
    crate::functions::collection::register(&mut t);
    let ctx = EvalContext::new(BTreeMap::new(), Arc::new(t));
    let (v, diags) = crate::eval::eval_expr(&expr, &ctx);
    match diags.iter().find(|d| d.is_error()) {
        Some(d) => Err(format!("{}: {}", d.summary, d.detail)),
        None => Ok(v),
    }
}

#[test]
fn templatefile() {
    let d = fixture();
    let p = d.path();
    fs::write(p.join("hello.tmpl"), "Hello, ${name}!").unwrap();
    fs::write(
        p.join("list.tmpl"),
        "%{ for x in list ~}\n${x}\n%{ endfor ~}",
    )
    .unwrap();
    fs::write(p.join("value.tmpl"), "${val}").unwrap();
    fs::write(p.join("func.tmpl"), "${join(\",\", reverse(list))}").unwrap();
    fs::write(p.join("bad.tmpl"), "${").unwrap();
    fs::write(
        p.join("recursive.tmpl"),
        "${templatefile(\"recursive.tmpl\", {})}",
    )
    .unwrap();
    let base = base_of(&d);
    assert_eq!(
        eval(&base, r#"templatefile("hello.tmpl", {name = "Jodie"})"#),
        Ok(s("Hello, Jodie!"))
    );
    assert_eq!(
        eval(&base, r#"templatefile("list.tmpl", {list = ["a", "b"]})"#),
        Ok(s("a\nb\n"))
    );
    assert_eq!(
        eval(&base, r#"templatefile("value.tmpl", {val = 12})"#),
        Ok(Value::number_int(12))
    );
    let e = eval(&base, r#"templatefile("hello.tmpl", {})"#).unwrap_err();
    assert!(
        e.contains("vars map does not contain key \"name\", referenced at hello.tmpl:1,10-14"),
        "{e}"
    );
    let e = eval(&base, r#"templatefile("hello.tmpl", "x")"#).unwrap_err();
    assert!(e.contains("invalid vars value: must be a map"), "{e}");
    let e = eval(&base, r#"templatefile("hello.tmpl", {"1a" = 1, name = 2})"#).unwrap_err();
    assert!(e.contains("invalid template variable name \"1a\""), "{e}");
    let e = eval(&base, r#"templatefile("nope.tmpl", {})"#).unwrap_err();
    assert!(e.contains("no file exists at \"nope.tmpl\""), "{e}");
    let e = eval(&base, r#"templatefile("bad.tmpl", {})"#).unwrap_err();
    assert!(e.starts_with("Error in function call"), "{e}");
    let e = eval(&base, r#"templatefile("recursive.tmpl", {})"#).unwrap_err();
    assert!(e.contains("maximum recursion depth 1024 reached in"), "{e}");
}
