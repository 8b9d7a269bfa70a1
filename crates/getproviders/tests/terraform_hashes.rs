//! The proof that our hashes are terraform's: the same provider zip in a
//! filesystem mirror is locked by `terraform providers lock` and installed
//! by `terraform init -plugin-dir`, and the `h1:` hashes it records, and
//! the layout it installs, must equal ours. Skipped (with a note) when
//! `terraform` is not on PATH.

#![allow(clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::Command;

use getproviders::testing::{zip_of, ZipEntry};
use getproviders::{
    install_package, package_hash_legacy_zip, package_hash_v1, package_hash_v1_zip,
    FilesystemMirrorSource, HttpClient, Platform, Source, Version,
};

fn terraform() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("terraform"))
        .find(|p| p.is_file())
}

/// The `hashes = [...]` strings of the lock file's only provider block.
fn lock_hashes(lock: &str) -> Vec<String> {
    let start = lock.find("hashes = [").expect("lock file has hashes");
    let end = start + lock[start..].find(']').expect("hashes list closes");
    lock[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"'))
        .filter_map(|l| l.split('"').next())
        .map(str::to_string)
        .collect()
}

fn run(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(terraform().expect("checked"))
        .args(args)
        .current_dir(dir)
        .env("TF_IN_AUTOMATION", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .output()
        .expect("terraform runs");
    assert!(
        out.status.success(),
        "terraform {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(dir.join(".terraform.lock.hcl")).expect("lock file written")
}

/// Relative path → (permission bits, contents) for every file under `dir`.
fn tree(dir: &Path) -> Vec<(String, u32, Vec<u8>)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let root = std::fs::canonicalize(dir).unwrap();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let mode = std::fs::metadata(&p).unwrap().permissions().mode();
                let rel = p
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, mode & 0o777, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn h1_hashes_and_layout_match_terraform() {
    if terraform().is_none() {
        eprintln!("skipped: terraform is not on PATH, so there is nothing to compare with");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mirror = tmp.path().join("mirror");
    let type_dir = mirror.join("registry.opentofu.org/hashicorp/fake");
    std::fs::create_dir_all(&type_dir).unwrap();
    // Several files, a subdirectory and names that sort differently by
    // byte and by path component, so ordering mistakes show.
    let zip = zip_of(&[
        ZipEntry::file(
            "terraform-provider-fake_v1.0.0",
            b"#!/bin/sh\necho fake\n",
            0o755,
        ),
        ZipEntry::file("README.md", b"# fake\n", 0o644),
        ZipEntry::file("docs/a-b.txt", b"dash\n", 0o644),
        ZipEntry::file("docs/a/b.txt", b"slash\n", 0o644),
        ZipEntry::file("LICENSE", b"MPL-2.0\n", 0o644),
    ]);
    let zip_path = type_dir.join("terraform-provider-fake_1.0.0_linux_amd64.zip");
    std::fs::write(&zip_path, &zip).unwrap();

    let config = r#"terraform {
  required_providers {
    fake = { source = "registry.opentofu.org/hashicorp/fake" }
  }
}
"#;
    // 1. `providers lock` hashes the packed zip (dirhash.HashZip).
    let lock_dir = tmp.path().join("lock");
    std::fs::create_dir_all(&lock_dir).unwrap();
    std::fs::write(lock_dir.join("main.tf"), config).unwrap();
    let mirror_arg = format!("-fs-mirror={}", mirror.display());
    let lock = run(
        &lock_dir,
        &["providers", "lock", &mirror_arg, "-platform=linux_amd64"],
    );
    let tf_hashes = lock_hashes(&lock);
    let ours_zip = package_hash_v1_zip(&zip_path).unwrap().to_string();
    assert_eq!(
        tf_hashes,
        std::slice::from_ref(&ours_zip),
        "lock file:\n{lock}"
    );

    // 2. `init -plugin-dir` unpacks it (dirhash.HashDir of the result).
    let init_dir = tmp.path().join("init");
    std::fs::create_dir_all(&init_dir).unwrap();
    std::fs::write(init_dir.join("main.tf"), config).unwrap();
    let plugin_arg = format!("-plugin-dir={}", mirror.display());
    let lock = run(
        &init_dir,
        &["init", "-backend=false", "-input=false", &plugin_arg],
    );
    assert_eq!(
        lock_hashes(&lock),
        std::slice::from_ref(&ours_zip),
        "lock file:\n{lock}"
    );

    // Ours, installed from the same mirror.
    let src = FilesystemMirrorSource::new(&mirror);
    let provider = addrs::Provider::default_for("fake");
    let meta = src
        .package_meta(
            &provider,
            &Version::parse("1.0.0").unwrap(),
            &Platform::new("linux", "amd64"),
        )
        .unwrap();
    let ours_dir = tmp.path().join("ours/.terraform/providers");
    let installed =
        install_package(&meta, &ours_dir, &[], &HttpClient::new(Default::default())).unwrap();
    assert_eq!(installed.hash.to_string(), ours_zip);
    assert!(installed
        .lock_hashes
        .iter()
        .any(|h| h.to_string() == ours_zip));

    let tf_pkg = init_dir
        .join(".terraform/providers/registry.opentofu.org/hashicorp/fake/1.0.0/linux_amd64");
    assert_eq!(package_hash_v1(&tf_pkg).unwrap().to_string(), ours_zip);
    assert_eq!(tree(&tf_pkg), tree(&installed.dir));

    // `zh:` is the plain SHA-256 of the archive, as `sha256sum` prints it.
    let zh = package_hash_legacy_zip(&zip_path).unwrap().to_string();
    assert_eq!(
        zh,
        format!("zh:{}", getproviders::testing::sha256_hex(&zip))
    );
}
