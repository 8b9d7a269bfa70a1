//! Where `terraform` is installed: the lock file it writes for providers
//! from a filesystem mirror, read by tofu-rs and written back, must come
//! out byte for byte the same (apart from the header naming the tool).

use std::path::Path;
use std::process::Command;

fn terraform_available() -> bool {
    Command::new("terraform")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// An unpacked provider package: `HOST/NS/TYPE/VERSION/OS_ARCH/` holding
/// an executable (never run: locking only hashes it).
fn add_package(mirror: &Path, addr: &str, version: &str, platform: &str, body: &str) {
    let ty = addr.rsplit('/').next().unwrap();
    let dir = mirror.join(addr).join(version).join(platform);
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join(format!("terraform-provider-{ty}_v{version}_x5"));
    std::fs::write(&exe, format!("#!/bin/sh\n# {body}\nexit 1\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
#[allow(clippy::print_stderr)]
fn rewrites_terraform_lock_file_byte_for_byte() {
    if !terraform_available() {
        eprintln!("skipped: `terraform` is not on PATH");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mirror = tmp.path().join("mirror");
    for platform in ["linux_amd64", "darwin_arm64"] {
        add_package(
            &mirror,
            "registry.opentofu.org/hashicorp/null",
            "3.2.0",
            platform,
            platform,
        );
        add_package(
            &mirror,
            "registry.opentofu.org/hashicorp/null",
            "3.1.0",
            platform,
            "old",
        );
        add_package(
            &mirror,
            "example.com/acme/widgets",
            "1.0.0-beta.1",
            platform,
            platform,
        );
        add_package(
            &mirror,
            "registry.opentofu.org/hashicorp/random",
            "3.6.0",
            platform,
            "r",
        );
    }
    let cfg = tmp.path().join("cfg");
    std::fs::create_dir_all(&cfg).unwrap();
    std::fs::write(
        cfg.join("main.tf"),
        r#"terraform {
  required_providers {
    null    = { source = "registry.opentofu.org/hashicorp/null", version = ">= 3.0" }
    widgets = { source = "example.com/acme/widgets", version = "1.0.0-beta.1" }
    random  = { source = "registry.opentofu.org/hashicorp/random", version = "~> 3.1, >= 3.5, < 4" }
  }
}
"#,
    )
    .unwrap();
    let cli_config = tmp.path().join("empty.tfrc");
    std::fs::write(&cli_config, "").unwrap();
    let out = Command::new("terraform")
        .current_dir(&cfg)
        .env("TF_CLI_CONFIG_FILE", &cli_config)
        .env("CHECKPOINT_DISABLE", "1")
        .env("TF_IN_AUTOMATION", "1")
        .args([
            "providers",
            "lock",
            "-platform=linux_amd64",
            "-platform=darwin_arm64",
        ])
        .arg(format!("-fs-mirror={}", mirror.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "terraform providers lock failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(cfg.join(".terraform.lock.hcl")).unwrap();
    let expected = written.replacen("\"terraform init\"", "\"tofu init\"", 1);
    assert_ne!(written, expected, "terraform's header names terraform");

    let (locks, diags) =
        depsfile::load_locks_from_bytes(expected.as_bytes(), ".terraform.lock.hcl");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(locks.all_providers().count(), 3);
    let null = locks
        .all_providers()
        .find(|l| l.provider.type_name == "null")
        .unwrap();
    assert_eq!(null.version.to_string(), "3.2.0");
    assert_eq!(null.hashes.len(), 2, "one h1: hash per platform");
    let ours = String::from_utf8(depsfile::save_locks_to_bytes(&locks)).unwrap();
    assert_eq!(ours, expected);
    assert!(
        expected.contains("constraints = \"~> 3.1, >= 3.5.0, < 4.0.0\""),
        "{expected}"
    );
}
