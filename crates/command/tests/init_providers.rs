//! `tofu-rs init` installing providers, end to end through the binary:
//! a filesystem mirror given with `-plugin-dir`, a registry on loopback
//! named by a CLI configuration file, re-runs that reuse the lock file,
//! `-upgrade`, `-lockfile=readonly`, and a tampered package that must
//! leave the previous installation and lock file as they were. Where
//! `terraform` is on PATH, its `init -plugin-dir` on the same mirror is
//! compared with ours. No network beyond loopback.

use std::path::{Path, PathBuf};
use std::process::Command;

use getproviders::testing::{provider_zip, Route, TestRegistry};
use getproviders::Platform;

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

const SUCCESS: &str = "OpenTofu has been successfully initialized!\n";

const LOCK_CREATED: &str = "\nOpenTofu has created a lock file .terraform.lock.hcl to record the provider\nselections it made above. Include this file in your version control repository\nso that OpenTofu can guarantee to make the same selections by default when\nyou run \"tofu init\" in the future.\n";

mod provider_work;

use provider_work::{Run, Work};

/// `tofu-rs init -no-color -backend=false ARGS` in `w`, with colour
/// settings left to the flag (NO_COLOR removed).
trait InitRun {
    fn run(&self, args: &[&str]) -> Run;
    fn installed(&self, host_ns_type: &str, version: &str) -> PathBuf;
}

impl InitRun for Work {
    fn run(&self, args: &[&str]) -> Run {
        let mut init_args = vec!["init", "-no-color", "-backend=false"];
        init_args.extend_from_slice(args);
        let mut cmd = self.command(Path::new(BIN), &init_args);
        cmd.env_remove("NO_COLOR");
        cmd.output().unwrap().into()
    }

    fn installed(&self, host_ns_type: &str, version: &str) -> PathBuf {
        self.path()
            .join(".terraform/providers")
            .join(host_ns_type)
            .join(version)
            .join(Platform::current().to_string())
    }
}

fn packed(mirror: &Path, host_ns_type: &str, type_name: &str, version: &str) -> Vec<u8> {
    let dir = mirror.join(host_ns_type);
    std::fs::create_dir_all(&dir).unwrap();
    let zip = provider_zip(type_name, version);
    std::fs::write(
        dir.join(format!(
            "terraform-provider-{type_name}_{version}_{}.zip",
            Platform::current()
        )),
        &zip,
    )
    .unwrap();
    zip
}

const NULL_TF: &str = r#"
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = ">= 1.0"
    }
  }
}
"#;

fn incomplete_warning(providers: &str) -> String {
    format!(
        "\nWarning: Incomplete lock file information for providers\n\nDue to your customized provider installation methods, OpenTofu was forced to\ncalculate lock file checksums locally for the following providers:\n  - {providers}\n\nThe current .terraform.lock.hcl file only includes checksums for {},\nso OpenTofu running on another platform will fail to install these providers.\n\nTo calculate additional checksums for another platform, run:\n  tofu providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)\n",
        Platform::current()
    )
}

#[test]
fn plugin_dir_install_reuse_upgrade_and_readonly() {
    let mirror = tempfile::tempdir().unwrap();
    let zip = packed(
        mirror.path(),
        "registry.opentofu.org/hashicorp/null",
        "null",
        "1.0.0",
    );
    let w = Work::new(NULL_TF);
    let dir_arg = format!("-plugin-dir={}", mirror.path().display());

    // First run: found in the mirror, installed, lock file created.
    let r = w.run(&[&dir_arg]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let expected_head = "\nInitializing provider plugins...\n- Finding hashicorp/null versions matching \">= 1.0.0\"...\n- Installing hashicorp/null v1.0.0...\n- Installed hashicorp/null v1.0.0 (unauthenticated)\n";
    assert!(r.stdout.starts_with(expected_head), "{}", r.stdout);
    assert!(r.stdout.contains(LOCK_CREATED), "{}", r.stdout);
    assert!(
        r.stdout.contains(&incomplete_warning("hashicorp/null")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(SUCCESS));
    let h1 = getproviders::testing::h1_of_zip(&zip);
    assert_eq!(
        w.lock_file(),
        format!(
            "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\nprovider \"registry.opentofu.org/hashicorp/null\" {{\n  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n    \"{h1}\",\n  ]\n}}\n"
        )
    );
    let dir = w.installed("registry.opentofu.org/hashicorp/null", "1.0.0");
    assert!(dir.join("terraform-provider-null_v1.0.0").is_file());
    assert_eq!(
        std::fs::read_to_string(w.path().join(".terraform/plugin_path")).unwrap(),
        format!("[\n  \"{}\"\n]", mirror.path().display())
    );

    // Second run: the lock is reused and the package already there.
    let lock_before = w.lock_file();
    let r = w.run(&[&dir_arg]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        format!("\nInitializing provider plugins...\n- Reusing previous version of hashicorp/null from the dependency lock file\n- Using previously-installed hashicorp/null v1.0.0\n\n{SUCCESS}\nYou may now begin working with OpenTofu. Try running \"tofu plan\" to see\nany changes that are required for your infrastructure. All OpenTofu commands\nshould now work.\n\nIf you ever set or change modules or backend configuration for OpenTofu,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.\n")
    );
    assert_eq!(w.lock_file(), lock_before);

    // A newer version appears: kept out by the lock until -upgrade.
    packed(
        mirror.path(),
        "registry.opentofu.org/hashicorp/null",
        "null",
        "1.1.0",
    );
    let r = w.run(&[&dir_arg]);
    assert_eq!(r.code, 0);
    assert!(r
        .stdout
        .contains("- Using previously-installed hashicorp/null v1.0.0"));
    assert_eq!(w.lock_file(), lock_before);

    // -upgrade with -lockfile=readonly conflict.
    let r = w.run(&[&dir_arg, "-upgrade", "-lockfile=readonly"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "The -upgrade flag conflicts with -lockfile=readonly.\n"
    );

    let r = w.run(&[&dir_arg, "-upgrade"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("- Finding hashicorp/null versions matching \">= 1.0.0\"...\n- Installing hashicorp/null v1.1.0...\n- Installed hashicorp/null v1.1.0 (unauthenticated)\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\nOpenTofu has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.\n"));
    assert!(w.lock_file().contains("version     = \"1.1.0\""));

    // A constraint the lock no longer satisfies.
    std::fs::write(w.path().join("main.tf"), NULL_TF.replace(">= 1.0", "< 1.1")).unwrap();
    let r = w.run(&[&dir_arg]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("Error: Failed to resolve provider packages\n\nCould not resolve provider hashicorp/null: locked provider\nregistry.opentofu.org/hashicorp/null 1.1.0 does not match configured version\nconstraint < 1.1.0; must use tofu init -upgrade to allow selection of new\nversions\n"),
        "{}",
        r.stderr
    );

    // Readonly: a new provider cannot be recorded.
    let lock_before = w.lock_file();
    std::fs::write(
        w.path().join("main.tf"),
        format!("{NULL_TF}\nresource \"random_id\" \"x\" {{}}\n"),
    )
    .unwrap();
    packed(
        mirror.path(),
        "registry.opentofu.org/hashicorp/random",
        "random",
        "3.0.0",
    );
    let r = w.run(&[&dir_arg, "-lockfile=readonly"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("Error: Provider dependency changes detected\n\nChanges to the required provider dependencies were detected, but the lock\nfile is read-only. To use and record these requirements, run \"tofu init\"\nwithout the \"-lockfile=readonly\" flag.\n"),
        "{}",
        r.stderr
    );
    assert_eq!(w.lock_file(), lock_before);
}

#[test]
fn builtin_provider_is_announced_and_not_locked() {
    let w = Work::new(
        "data \"terraform_remote_state\" \"x\" {\n  backend = \"local\"\n  config = { path = \"x\" }\n}\n",
    );
    let r = w.run(&["-backend=false"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with(
        "\nInitializing provider plugins...\n- terraform.io/builtin/terraform is built in to OpenTofu\n\nOpenTofu has been successfully initialized!\n"
    ), "{}", r.stdout);
    assert!(!w.path().join(".terraform.lock.hcl").exists());
}

fn registry_cli_config(reg: &TestRegistry, extra: &str) -> String {
    format!(
        "host \"registry.opentofu.org\" {{\n  services = {{\n    \"providers.v1\" = \"{}\"\n  }}\n}}\nprovider_installation {{\n  direct {{}}\n}}\n{extra}",
        reg.server.url("/v1/providers/")
    )
}

#[test]
fn registry_on_loopback_signed_then_tampered_upgrade_changes_nothing() {
    let reg = TestRegistry::start();
    let zip = provider_zip("null", "2.0.0");
    reg.publish(
        "hashicorp",
        "null",
        "2.0.0",
        &[(Platform::current(), zip.clone())],
    );
    let w = Work::new(NULL_TF);
    std::fs::write(&w.cli_config, registry_cli_config(&reg, "")).unwrap();

    let r = w.run(&[]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "\nInitializing provider plugins...\n- Finding hashicorp/null versions matching \">= 1.0.0\"...\n- Installing hashicorp/null v2.0.0...\n- Installed hashicorp/null v2.0.0 (signed, key ID {})\n\nProviders are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://opentofu.org/docs/cli/plugins/signing/\n{LOCK_CREATED}",
            reg.key.key_id
        )),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("Incomplete lock file"));
    let lock = w.lock_file();
    assert!(
        lock.contains(&getproviders::testing::h1_of_zip(&zip)),
        "{lock}"
    );
    assert!(
        lock.contains(&format!("zh:{}", getproviders::testing::sha256_hex(&zip))),
        "{lock}"
    );

    // 2.1.0 is published, but its archive is not the one SHA256SUMS names.
    reg.publish(
        "hashicorp",
        "null",
        "2.1.0",
        &[(Platform::current(), provider_zip("null", "2.1.0"))],
    );
    reg.replace_archive(
        "hashicorp",
        "null",
        "2.1.0",
        &Platform::current(),
        Route::bytes(provider_zip("null", "6.6.6")),
    );
    let r = w.run(&["-upgrade"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("- Finding hashicorp/null versions matching \">= 1.0.0\"...\n- Installing hashicorp/null v2.1.0...\n") || !r.stdout.contains("Installed hashicorp/null v2.1.0"), "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "Error: Failed to install provider\n\nError while installing hashicorp/null v2.1.0:"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(w.lock_file(), lock);
    assert!(w
        .installed("registry.opentofu.org/hashicorp/null", "2.0.0")
        .join("terraform-provider-null_v2.0.0")
        .is_file());
    assert!(!w
        .installed("registry.opentofu.org/hashicorp/null", "2.1.0")
        .exists());

    // And the locked version still installs from scratch.
    std::fs::remove_dir_all(w.path().join(".terraform")).unwrap();
    let r = w.run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r
        .stdout
        .contains("- Reusing previous version of hashicorp/null from the dependency lock file\n- Installing hashicorp/null v2.0.0...\n"));
    assert_eq!(w.lock_file(), lock);
}

#[test]
fn plugin_cache_links_on_second_directory() {
    let reg = TestRegistry::start();
    reg.publish(
        "hashicorp",
        "null",
        "2.0.0",
        &[(Platform::current(), provider_zip("null", "2.0.0"))],
    );
    let cache = tempfile::tempdir().unwrap();
    let mut first = Work::new(NULL_TF);
    std::fs::write(&first.cli_config, registry_cli_config(&reg, "")).unwrap();
    first.envs.push((
        "TF_PLUGIN_CACHE_DIR".into(),
        cache.path().display().to_string(),
    ));
    let r = first.run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r
        .stdout
        .contains("- Installing hashicorp/null v2.0.0 to the shared cache directory...\n"));

    // A second directory with the same lock file links from the cache.
    let mut second = Work::new(NULL_TF);
    std::fs::write(&second.cli_config, registry_cli_config(&reg, "")).unwrap();
    std::fs::write(second.path().join(".terraform.lock.hcl"), first.lock_file()).unwrap();
    second.envs = first.envs.clone();
    let downloads = |reg: &TestRegistry| {
        reg.server
            .requests()
            .iter()
            .filter(|r| r.path.contains("/download/") || r.path.starts_with("/files/"))
            .count()
    };
    let before = downloads(&reg);
    let r = second.run(&[]);
    // The cached copy matches the lock: the package is not even asked for.
    assert_eq!(downloads(&reg), before);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("- Reusing previous version of hashicorp/null from the dependency lock file\n- Using hashicorp/null v2.0.0 from the shared cache directory\n"),
        "{}",
        r.stdout
    );
    assert_eq!(second.lock_file(), first.lock_file());
}

/// `terraform init -plugin-dir` and ours on the same mirror: same
/// `.terraform/providers` tree, same `plugin_path`, same lock entries.
#[test]
#[allow(clippy::print_stdout)] // the printed reason for skipping
fn same_as_terraform_with_plugin_dir() {
    let Some(terraform) = which("terraform") else {
        println!("skipped: terraform is not on PATH");
        return;
    };
    let mirror = tempfile::tempdir().unwrap();
    packed(
        mirror.path(),
        "registry.opentofu.org/hashicorp/null",
        "null",
        "3.2.0",
    );
    packed(
        mirror.path(),
        "registry.opentofu.org/acme/widget",
        "widget",
        "0.1.0",
    );
    let tf = "terraform {\n  required_providers {\n    null = {\n      source  = \"registry.opentofu.org/hashicorp/null\"\n      version = \"~> 3.0\"\n    }\n    widget = {\n      source = \"registry.opentofu.org/acme/widget\"\n    }\n  }\n}\n";
    let ours = Work::new(tf);
    let theirs = Work::new(tf);
    let dir_arg = format!("-plugin-dir={}", mirror.path().display());
    let r = ours.run(&[&dir_arg]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = Command::new(terraform)
        .args(["init", "-no-color", &dir_arg])
        .current_dir(theirs.path())
        .env("TF_CLI_CONFIG_FILE", &theirs.cli_config)
        .env("HOME", theirs.path())
        .env_remove("TF_PLUGIN_CACHE_DIR")
        .env_remove("TF_DATA_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        tree(&ours.path().join(".terraform/providers")),
        tree(&theirs.path().join(".terraform/providers"))
    );
    assert_eq!(
        std::fs::read_to_string(ours.path().join(".terraform/plugin_path")).unwrap(),
        std::fs::read_to_string(theirs.path().join(".terraform/plugin_path")).unwrap()
    );
    // Terraform's header names itself; the entries must be the same.
    let body = |s: String| s.split_once("\n\n").map(|(_, b)| b.to_string()).unwrap();
    assert_eq!(body(ours.lock_file()), body(theirs.lock_file()));
    // And the progress lines, tool names aside.
    let lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("- "))
            .map(|l| l.replace("registry.opentofu.org/", ""))
            .collect()
    };
    let mut a = lines(&r.stdout);
    let mut b = lines(&String::from_utf8_lossy(&out.stdout));
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|f| f.is_file())
    })
}

/// Every entry below `root` with its kind and mode, links shown as links.
fn tree(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    use std::os::unix::fs::PermissionsExt;
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        let md = std::fs::symlink_metadata(&p).unwrap();
        if md.is_dir() {
            out.push(format!("{rel}/ {:o}", md.permissions().mode() & 0o777));
            walk(root, &p, out);
        } else if md.file_type().is_symlink() {
            out.push(format!("{rel} -> link"));
        } else {
            out.push(format!("{rel} {:o}", md.permissions().mode() & 0o777));
        }
    }
}
