//! The git getter against repositories built on the fly, fetched through
//! `git::file://` URLs.

mod common;

use common::{list_files, read, TestRepo};
use initwd::fetch::fetch_package;
use initwd::HttpSettings;

/// A repository with history on `main`, a `v1.0.0` tag on the first
/// commit, an annotated `v2.0.0` tag, and a `feature` branch.
fn sample_repo() -> (TestRepo, git2::Oid) {
    let r = TestRepo::new();
    let first = r.commit(
        &[
            ("main.tf", Some("# v1\n")),
            ("modules/sub/main.tf", Some("# sub v1\n")),
        ],
        "first",
    );
    r.tag("v1.0.0");
    r.commit(&[("main.tf", Some("# v2\n"))], "second");
    r.annotated_tag("v2.0.0");
    r.branch("feature");
    r.commit(&[("feature.tf", Some("# feature\n"))], "feature work");
    r.switch("main");
    r.commit(&[("main.tf", Some("# main head\n"))], "third");
    (r, first)
}

fn fetch(src: &str) -> (tempfile::TempDir, Result<(), String>) {
    let dst = tempfile::tempdir().unwrap();
    let res = fetch_package(src, &dst.path().join("pkg"), &HttpSettings::default());
    (dst, res)
}

#[test]
fn default_branch_head() {
    let (r, _) = sample_repo();
    let (d, res) = fetch(&r.source(""));
    res.unwrap();
    let pkg = d.path().join("pkg");
    assert_eq!(read(pkg.join("main.tf")), "# main head\n");
    assert_eq!(list_files(&pkg), ["main.tf", "modules/sub/main.tf"]);
    // An export from the run's git store, not a clone: no .git (nothing
    // after init reads it).
    assert!(!pkg.join(".git").exists());
}

#[test]
fn ref_tag_branch_and_commit() {
    let (r, first) = sample_repo();
    let cases = [
        ("ref=v1.0.0", "main.tf", "# v1\n"),
        ("ref=v2.0.0", "main.tf", "# v2\n"),
        ("ref=feature", "feature.tf", "# feature\n"),
        ("ref=main", "main.tf", "# main head\n"),
    ];
    for (q, file, want) in cases {
        let (d, res) = fetch(&r.source(q));
        res.unwrap_or_else(|e| panic!("{q}: {e}"));
        assert_eq!(read(d.path().join("pkg").join(file)), want, "{q}");
    }
    let full = first.to_string();
    for id in [full.as_str(), &full[..7]] {
        let (d, res) = fetch(&r.source(&format!("ref={id}")));
        res.unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(read(d.path().join("pkg/main.tf")), "# v1\n");
    }
}

#[test]
fn shallow_clones_of_branch_and_tag() {
    let (r, first) = sample_repo();
    for (q, want) in [
        ("ref=v1.0.0&depth=1", "# v1\n"),
        ("ref=feature&depth=1", "# v2\n"),
        ("depth=1", "# main head\n"),
    ] {
        let (d, res) = fetch(&r.source(q));
        res.unwrap_or_else(|e| panic!("{q}: {e}"));
        assert_eq!(read(d.path().join("pkg/main.tf")), want, "{q}");
    }
    // depth needs a named ref, as with `git clone --depth 1 --branch`.
    let (_, res) = fetch(&r.source(&format!("ref={first}&depth=1")));
    let err = res.unwrap_err();
    assert!(
        err.contains("note that setting 'depth' requires 'ref' to be a branch or tag name"),
        "{err}"
    );
}

/// go-getter v1.8.6 (OpenTofu's) resolves the ref itself before the
/// checkout; one that names nothing is `invalid ref: "REF"`.
#[test]
fn nonexistent_ref_reports_the_cause() {
    let (r, _) = sample_repo();
    let (d, res) = fetch(&r.source("ref=nope"));
    let err = res.unwrap_err();
    assert!(err.starts_with("error downloading 'file://"), "{err}");
    assert!(err.ends_with("invalid ref: \"nope\""), "{err}");
    let _ = d;
    let (_, res) = fetch(&r.source("ref=nope&depth=1"));
    assert!(res
        .unwrap_err()
        .contains("Remote branch nope not found in upstream origin"),);
}

#[test]
fn missing_repository() {
    let d = tempfile::tempdir().unwrap();
    let url = url::Url::from_file_path(d.path().join("absent")).unwrap();
    let (_, res) = fetch(&format!("git::{url}"));
    let err = res.unwrap_err();
    assert!(err.starts_with("error downloading 'file://"), "{err}");
    assert!(err.contains("git clone: "), "{err}");
}

#[cfg(unix)]
#[test]
fn symlink_escaping_the_package_is_refused() {
    let r = TestRepo::new();
    std::fs::write(r.path().join("main.tf"), "# x\n").unwrap();
    std::os::unix::fs::symlink("../../../../etc/passwd", r.path().join("secrets.tf")).unwrap();
    r.commit_workdir("escape");
    let (_, res) = fetch(&r.source(""));
    let err = res.unwrap_err();
    assert!(
        err.contains("symbolic link \"secrets.tf\" points to \"../../../../etc/passwd\", outside of the module package"),
        "{err}"
    );

    // Links that stay inside are fine.
    let ok = TestRepo::new();
    std::fs::create_dir_all(ok.path().join("a")).unwrap();
    std::fs::write(ok.path().join("a/real.tf"), "# y\n").unwrap();
    std::os::unix::fs::symlink("a/real.tf", ok.path().join("link.tf")).unwrap();
    ok.commit_workdir("inside");
    let (d, res) = fetch(&ok.source(""));
    res.unwrap();
    assert_eq!(read(d.path().join("pkg/link.tf")), "# y\n");
}

#[test]
fn destination_must_be_empty() {
    let (r, _) = sample_repo();
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("x"), "").unwrap();
    let err = fetch_package(&r.source(""), d.path(), &HttpSettings::default()).unwrap_err();
    assert!(
        err.contains("already exists and is not an empty directory"),
        "{err}"
    );
}
