//! `init` with git sources: a repository built on the fly with a tag,
//! called twice in the tree with `git::file://...?ref=v1.0.0`. Both calls
//! are installed, and the package is fetched only once.

use std::path::Path;
use std::process::Command;

mod support;
use std::sync::Arc;

use command::module_install::InstallWalker;
use configs::config_build::build_config;
use configs::module::load_module_dir;
use initwd::{InstallerConfig, ModuleInstaller, NoHooks, PackageFetcher};

/// A repository with `main.tf` at tag `v1.0.0`, and a later commit that
/// must not be installed.
fn make_repo(dir: &Path) {
    let repo = git2::Repository::init(dir).unwrap();
    let commit = |content: &str, parent: Option<git2::Oid>| {
        support::commit_main_tf(&repo, dir, content, parent, "c")
    };
    let first = commit("output \"v\" {\n  value = \"1.0.0\"\n}\n", None);
    let obj = repo.find_object(first, None).unwrap();
    repo.tag_lightweight("v1.0.0", &obj, false).unwrap();
    commit("output \"v\" {\n  value = \"2.0.0\"\n}\n", Some(first));
}

fn setup() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(&repo);
    let work = tmp.path().join("work");
    std::fs::create_dir_all(work.join("wrap")).unwrap();
    let src = format!("git::file://{}?ref=v1.0.0", repo.display());
    std::fs::write(
        work.join("main.tf"),
        format!("module \"a\" {{\n  source = \"{src}\"\n}}\n\nmodule \"w\" {{\n  source = \"./wrap\"\n}}\n"),
    )
    .unwrap();
    std::fs::write(
        work.join("wrap/main.tf"),
        format!("module \"b\" {{\n  source = \"{src}\"\n}}\n"),
    )
    .unwrap();
    (tmp, src)
}

#[test]
fn init_installs_git_tag_twice_from_one_fetch() {
    let (tmp, src) = setup();
    let work = tmp.path().join("work");
    let out = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(["init", "-backend=false", "-input=false"])
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    let expected = format!(
        "Initializing modules...\nDownloading {src} for a...\n- a in .terraform/modules/a\n- w in wrap\nDownloading {src} for w.b...\n- w.b in .terraform/modules/w.b\n\nInitializing provider plugins...\n\nOpenTofu has been successfully initialized!\n"
    );
    assert!(stdout.starts_with(&expected), "stdout:\n{stdout}");
    let manifest = std::fs::read_to_string(work.join(".terraform/modules/modules.json")).unwrap();
    assert_eq!(
        manifest,
        format!(
            "{{\"Modules\":[{{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"}},{{\"Key\":\"a\",\"Source\":\"{src}\",\"Dir\":\".terraform/modules/a\"}},{{\"Key\":\"w\",\"Source\":\"./wrap\",\"Dir\":\"wrap\"}},{{\"Key\":\"w.b\",\"Source\":\"{src}\",\"Dir\":\".terraform/modules/w.b\"}}]}}"
        )
    );
    for key in ["a", "w.b"] {
        let tf = std::fs::read_to_string(work.join(format!(".terraform/modules/{key}/main.tf")))
            .unwrap();
        assert!(tf.contains("1.0.0"), "{key} has the tagged commit: {tf}");
    }

    // A second run finds everything installed and downloads nothing.
    let again = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(["init", "-backend=false"])
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success());
    assert!(
        stdout
            .starts_with("Initializing modules...\n\nInitializing provider plugins...\n\nOpenTofu has been successfully initialized!"),
        "{stdout}"
    );

    // validate loads the installed tree.
    let validate = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .args(["validate", "-json"])
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        validate.status.success(),
        "{}",
        String::from_utf8_lossy(&validate.stdout)
    );
}

#[test]
fn the_package_is_fetched_once() {
    let (tmp, _src) = setup();
    let work = tmp.path().join("work");
    let installer = ModuleInstaller::new(
        InstallerConfig::new(&work),
        std::sync::Arc::new(PackageFetcher::default()),
        None,
        Arc::new(NoHooks),
    )
    .unwrap();
    let walker = InstallWalker::new(&installer, &work);
    let (root, diags) = load_module_dir(&work);
    assert!(diags.is_empty(), "{diags:?}");
    let (config, diags) = build_config(root.unwrap(), &walker);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(installer.fetcher().download_count(), 1);
    let b = config
        .descendant(&["w".to_string(), "b".to_string()])
        .unwrap();
    assert!(b.module.outputs.contains_key("v"));
    assert_eq!(b.path.to_string(), "module.w.module.b");
}
