//! `init -recursive` and `validate -recursive` on a generated monorepo:
//! roots under `live/` calling a git repository (two tags) directly and
//! through a shared local module. Each root must end up exactly as `init`
//! run in it alone leaves it, and each verdict must be the one `validate`
//! run in it alone gives. A root that fails fails the whole run, and
//! nobody else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

/// A repository with `main.tf` at tags `v1` and `v2`.
fn make_repo(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let repo = git2::Repository::init(dir).unwrap();
    let mut parent = None;
    for tag in ["v1", "v2"] {
        let text = format!(
            "variable \"name\" {{\n  type = string\n}}\n\noutput \"id\" {{\n  value = \"{tag}-${{var.name}}\"\n}}\n"
        );
        let commit = support::commit_main_tf(&repo, dir, &text, parent, tag);
        let obj = repo.find_object(commit, None).unwrap();
        repo.tag_lightweight(tag, &obj, false).unwrap();
        parent = Some(commit);
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The monorepo: `live/app{1..4}` are good roots, `live/typo` refers to
/// an undeclared variable (init succeeds, validate fails) and
/// `live/badref` calls a tag that does not exist (init fails).
fn make_monorepo(tmp: &Path) -> PathBuf {
    let repo = tmp.join("repo");
    make_repo(&repo);
    let src = |tag: &str| format!("git::file://{}?ref={tag}", repo.display());
    let mono = tmp.join("mono");
    write(
        &mono.join("modules/shared/main.tf"),
        &format!(
            "variable \"name\" {{\n  type = string\n}}\n\nmodule \"remote\" {{\n  source = \"{}\"\n  name   = var.name\n}}\n\noutput \"id\" {{\n  value = module.remote.id\n}}\n",
            src("v1")
        ),
    );
    for i in 1..=4 {
        let tag = if i % 2 == 0 { "v2" } else { "v1" };
        write(
            &mono.join(format!("live/app{i}/main.tf")),
            &format!(
                "module \"direct\" {{\n  source = \"{}\"\n  name   = \"app{i}\"\n}}\n\nmodule \"shared\" {{\n  source = \"../../modules/shared\"\n  name   = \"app{i}\"\n}}\n\noutput \"ids\" {{\n  value = [module.direct.id, module.shared.id]\n}}\n",
                src(tag)
            ),
        );
    }
    // Relative paths in expressions are the root's, as in a run there.
    write(
        &mono.join("live/app1/templates/motd.tftpl"),
        "hello ${name}\n",
    );
    write(
        &mono.join("live/app1/files.tf"),
        "output \"motd\" {\n  value = templatefile(\"./templates/motd.tftpl\", { name = \"app1\" })\n}\n\noutput \"here\" {\n  value = fileexists(\"${path.cwd}/templates/motd.tftpl\") ? file(abspath(\"templates/motd.tftpl\")) : file(\"missing\")\n}\n",
    );
    write(
        &mono.join("live/typo/main.tf"),
        "module \"shared\" {\n  source = \"../../modules/shared\"\n  name   = var.nme\n}\n",
    );
    write(
        &mono.join("live/badref/main.tf"),
        &format!(
            "module \"direct\" {{\n  source = \"{}\"\n  name   = \"x\"\n}}\n",
            src("v9")
        ),
    );
    mono
}

fn tofu(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("TF_DATA_DIR")
        .env_remove("TF_MODULE_CACHE_DIR")
        .output()
        .unwrap()
}

const ROOTS: [&str; 6] = [
    "live/app1",
    "live/app2",
    "live/app3",
    "live/app4",
    "live/badref",
    "live/typo",
];

/// Every file below `dir`, by relative path, with its contents.
fn files_below(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_name() == ".git" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[test]
fn init_recursive_leaves_each_root_as_init_in_it_would() {
    let tmp = tempfile::tempdir().unwrap();
    let mono = make_monorepo(tmp.path());
    let alone = tmp.path().join("alone");
    support::copy_dir(&mono, &alone);

    let out = tofu(
        &mono,
        &["init", "-recursive", "-backend=false", "-input=false"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    for root in ROOTS {
        let expect = if root == "live/badref" {
            "failed"
        } else {
            "ok"
        };
        assert!(
            stdout.contains(&format!("{root}: {expect}")),
            "{root} should be {expect}:\n{stdout}"
        );
    }
    assert!(
        stdout.ends_with("\n6 root modules initialized: 5 ok, 1 failed.\n"),
        "{stdout}"
    );
    assert!(
        stderr.contains("v9"),
        "the failing root says why:\n{stderr}"
    );

    for root in ROOTS {
        let single = tofu(
            &alone.join(root),
            &["init", "-backend=false", "-input=false"],
        );
        assert_eq!(
            single.status.code(),
            Some(if root == "live/badref" { 1 } else { 0 }),
            "init alone in {root}"
        );
        if root == "live/badref" {
            continue;
        }
        let data = |base: &Path| files_below(&base.join(root).join(".terraform"));
        assert_eq!(
            data(&mono),
            data(&alone),
            "{root}'s .terraform differs from a plain init's"
        );
    }
}

#[test]
fn validate_recursive_gives_each_root_its_own_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let mono = make_monorepo(tmp.path());
    let init = tofu(
        &mono,
        &["init", "-recursive", "-backend=false", "-input=false"],
    );
    assert_eq!(init.status.code(), Some(1));

    let out = tofu(&mono, &["validate", "-recursive", "-json"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let docs: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let roots: Vec<&str> = docs.iter().map(|d| d["root"].as_str().unwrap()).collect();
    assert_eq!(roots, ROOTS, "one document per root, in path order");
    for doc in &docs {
        let root = doc["root"].as_str().unwrap();
        let single = tofu(
            &mono,
            &[
                "-chdir=".to_string() + root,
                "validate".into(),
                "-json".into(),
            ]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        );
        let alone: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
        assert_eq!(
            doc["result"]["valid"], alone["valid"],
            "{root}: -recursive and a validate of its own disagree"
        );
        assert_eq!(doc["result"]["error_count"], alone["error_count"], "{root}");
        let expect_valid = !matches!(root, "live/typo" | "live/badref");
        assert_eq!(doc["result"]["valid"], expect_valid, "{root}");
    }

    // An explicit list replaces the discovery: only the good roots, all ok.
    let out = tofu(&mono, &["validate", "-recursive", "live/app1", "live/app2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(
        stdout,
        "live/app1: ok\nlive/app2: ok\n\n2 root modules validated: 2 ok, 0 failed.\n"
    );
}

#[test]
fn an_absolute_data_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mono = make_monorepo(tmp.path());
    let out = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(["init", "-recursive", "-backend=false"])
        .current_dir(&mono)
        .env("NO_COLOR", "1")
        .env("TF_DATA_DIR", tmp.path().join("data"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Shared data directory"), "{stderr}");
    assert!(!tmp.path().join("data").exists());
}

/// `live/a` and `live/b` under `tmp/mono`, each calling module `bad` from
/// a repository whose tag `v1` holds `main_tf`; the monorepo's top.
fn two_roots_sharing(tmp: &Path, main_tf: &str) -> PathBuf {
    let repo = tmp.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let git = git2::Repository::init(&repo).unwrap();
    let commit = support::commit_main_tf(&git, &repo, main_tf, None, "v1");
    git.tag_lightweight("v1", &git.find_object(commit, None).unwrap(), false)
        .unwrap();
    let mono = tmp.join("mono");
    for root in ["live/a", "live/b"] {
        write(
            &mono.join(root).join("main.tf"),
            &format!(
                "module \"bad\" {{\n  source = \"git::file://{}?ref=v1\"\n}}\n",
                repo.display()
            ),
        );
    }
    mono
}

/// Two roots installing the same remote module each get their own copy;
/// `validate -recursive` parses the copies once, and still names each
/// root's own copy in what it reports about the module.
#[test]
fn each_root_is_shown_its_own_copy_of_a_shared_remote_module() {
    let tmp = tempfile::tempdir().unwrap();
    let mono = two_roots_sharing(
        tmp.path(),
        "output \"broken\" {\n  value = var.missing\n}\n",
    );
    let init = tofu(&mono, &["init", "-recursive", "-backend=false"]);
    assert_eq!(init.status.code(), Some(0));
    let out = tofu(&mono, &["validate", "-recursive", "-json"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for (line, root) in stdout.lines().zip(["live/a", "live/b"]) {
        let doc: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(doc["root"], root);
        let diag = &doc["result"]["diagnostics"][0];
        assert_eq!(diag["summary"], "Reference to undeclared input variable");
        assert_eq!(
            diag["range"]["filename"],
            format!("{root}/.terraform/modules/bad/main.tf"),
            "{line}"
        );
        assert_eq!(diag["snippet"]["code"], "  value = var.missing", "{line}");
    }
    // The human form quotes the code from each root's own copy too.
    let out = tofu(&mono, &["validate", "-recursive", "-no-color"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for root in ["live/a", "live/b"] {
        assert!(
            stderr.contains(&format!(
                "on {root}/.terraform/modules/bad/main.tf line 2, in output \"broken\":\n   2:   value = var.missing"
            )),
            "{stderr}"
        );
    }
}

/// The same for `init -recursive`: a remote module that does not parse is
/// reported in each root's own copy.
#[test]
fn init_names_each_roots_own_copy_of_a_broken_remote_module() {
    let tmp = tempfile::tempdir().unwrap();
    let mono = two_roots_sharing(tmp.path(), "output \"x\" {\n  value =\n}\n");
    let out = tofu(
        &mono,
        &["init", "-recursive", "-backend=false", "-no-color"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for root in ["live/a", "live/b"] {
        assert!(
            stderr.contains(&format!("on {root}/.terraform/modules/bad/main.tf line")),
            "{stderr}"
        );
    }
}

/// A module source built from a file the root reads with a path relative
/// to itself: discovery, init and validate all read it from the root, as a
/// run there would, so the called module is no root of its own and the
/// root initializes and validates.
#[test]
fn static_evaluation_reads_files_from_the_root() {
    let tmp = tempfile::tempdir().unwrap();
    let mono = tmp.path().join("mono");
    write(
        &mono.join("modules/net/main.tf"),
        "variable \"cidr\" {\n  type = string\n}\n\noutput \"cidr\" {\n  value = var.cidr\n}\n",
    );
    write(
        &mono.join("live/prod/settings.json"),
        "{\"net\": \"../../modules/net\", \"cidr\": \"10.0.0.0/16\"}\n",
    );
    write(
        &mono.join("live/prod/main.tf"),
        "locals {\n  settings = jsondecode(file(\"./settings.json\"))\n}\n\nmodule \"net\" {\n  source = local.settings.net\n  cidr   = local.settings.cidr\n}\n\noutput \"where\" {\n  value = [path.root, path.module, module.net.cidr]\n}\n",
    );
    let out = tofu(
        &mono,
        &["init", "-recursive", "-backend=false", "-no-color"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        "live/prod: ok\n\n1 root module initialized: 1 ok, 0 failed.\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest =
        std::fs::read_to_string(mono.join("live/prod/.terraform/modules/modules.json")).unwrap();
    assert!(
        manifest.contains("\"Dir\":\"../../modules/net\""),
        "{manifest}"
    );
    let out = tofu(&mono, &["validate", "-recursive", "-no-color"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
