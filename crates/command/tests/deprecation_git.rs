//! The deprecation RFC's examples with a module from a local git
//! repository (installed by `init`) beside a local one: which warnings
//! `validate` and `plan-lite` show under each `-deprecation` level.

use std::path::Path;
use std::process::Command;

const REMOTE: &str = r#"variable "old_name" {
  type       = string
  default    = "d"
  deprecated = "Remote: use new_name."
}

output "old_out" {
  value      = var.old_name
  deprecated = "Remote: use new_out."
}
"#;

const LOCAL: &str = r#"variable "old_name" {
  type       = string
  default    = "d"
  deprecated = "Local: use new_name."
}

output "old_out" {
  value      = var.old_name
  deprecated = "Local: use new_out."
}
"#;

fn make_repo(dir: &Path) {
    make_repo_with(dir, &[("main.tf", REMOTE)]);
}

/// A git repository at `dir` holding `files`, tagged `v1.0.0`.
fn make_repo_with(dir: &Path, files: &[(&str, &str)]) {
    let repo = git2::Repository::init(dir).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    let mut index = repo.index().unwrap();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        index.add_path(Path::new(name)).unwrap();
    }
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let commit = repo
        .commit(Some("HEAD"), &sig, &sig, "c", &tree, &[])
        .unwrap();
    let obj = repo.find_object(commit, None).unwrap();
    repo.tag_lightweight("v1.0.0", &obj, false).unwrap();
}

fn run(work: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(args)
        .current_dir(work)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn deprecation_levels_with_a_git_module() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(&repo);
    let work = tmp.path().join("work");
    std::fs::create_dir_all(work.join("local")).unwrap();
    std::fs::write(work.join("local/main.tf"), LOCAL).unwrap();
    let src = format!("git::file://{}?ref=v1.0.0", repo.display());
    std::fs::write(
        work.join("main.tf"),
        format!(
            "module \"git\" {{\n  source   = \"{src}\"\n  old_name = \"x\"\n}}\n\nmodule \"loc\" {{\n  source   = \"./local\"\n  old_name = \"x\"\n}}\n\nlocals {{\n  a = module.git.old_out\n  b = module.loc.old_out\n}}\n"
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&work, &["init", "-backend=false", "-input=false"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");

    let (code, all, stderr) = run(&work, &["validate", "-no-color"]);
    assert_eq!(code, 0, "{stderr}");
    for msg in [
        "Remote: use new_name.",
        "Remote: use new_out.",
        "Local: use new_name.",
        "Local: use new_out.",
    ] {
        assert!(all.contains(msg), "{msg} missing:\n{all}");
    }
    assert_eq!(all.matches("Warning: ").count(), 4, "{all}");

    let (code, local, _) = run(
        &work,
        &["validate", "-no-color", "-deprecation=module:local"],
    );
    assert_eq!(code, 0);
    assert!(!local.contains("Remote:"), "{local}");
    assert!(local.contains("Local: use new_name.") && local.contains("Local: use new_out."));
    assert_eq!(local.matches("Warning: ").count(), 2, "{local}");

    let (code, none, _) = run(
        &work,
        &["validate", "-no-color", "-deprecation=module:none"],
    );
    assert_eq!(code, 0);
    assert_eq!(
        none,
        "Success! The configuration is valid, but there were some validation warnings as shown above.\n\n"
    );

    // -json lists every diagnostic, whatever the level.
    let (code, json, _) = run(&work, &["validate", "-json", "-deprecation=module:none"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["warning_count"], 4, "{json}");
}

/// A module inside the git package, called with `./sub` from the git
/// module: remote, because the call from the root to the git module is.
const REMOTE_WITH_SUB: &str = r#"module "sub" {
  source = "./sub"
}

output "passed" {
  value = module.sub.sub_out
}
"#;

const SUB: &str = r#"output "sub_out" {
  value      = "s"
  deprecated = "Nested: use other."
}
"#;

/// `-deprecation=module:local` keeps a module's warnings only when every
/// call from the root to it has a local source: the local module's, not
/// the git module's nor those of the `./sub` module inside it; plan-lite
/// follows the same rule as validate.
#[test]
fn local_level_follows_every_call_from_the_root() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo_with(&repo, &[("main.tf", REMOTE_WITH_SUB), ("sub/main.tf", SUB)]);
    let work = tmp.path().join("work");
    std::fs::create_dir_all(work.join("local")).unwrap();
    std::fs::write(work.join("local/main.tf"), LOCAL).unwrap();
    let src = format!("git::file://{}?ref=v1.0.0", repo.display());
    std::fs::write(
        work.join("main.tf"),
        format!(
            "module \"git\" {{\n  source = \"{src}\"\n}}\n\nmodule \"loc\" {{\n  source   = \"./local\"\n  old_name = \"x\"\n}}\n\nlocals {{\n  a = module.git.passed\n  b = module.loc.old_out\n}}\n"
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&work, &["init", "-backend=false", "-input=false"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");

    for command in ["validate", "plan-lite"] {
        let (code, all, stderr) = run(&work, &[command, "-no-color"]);
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(all.contains("Nested: use other."), "{command}:\n{all}");
        assert!(
            all.contains("module.git.module.sub.sub_out"),
            "{command}:\n{all}"
        );
        assert_eq!(all.matches("Warning: ").count(), 3, "{command}:\n{all}");

        let (code, local, stderr) =
            run(&work, &[command, "-no-color", "-deprecation=module:local"]);
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(!local.contains("Nested:"), "{command}:\n{local}");
        assert!(
            local.contains("Local: use new_name.") && local.contains("Local: use new_out."),
            "{command}:\n{local}"
        );
        assert_eq!(local.matches("Warning: ").count(), 2, "{command}:\n{local}");
    }
}
