//! The HTTP getter against a loopback server: archives by extension and
//! by `?archive=`, `X-Terraform-Get` indirection, and failures.

mod common;

use std::io::Write;
use std::time::{Duration, Instant};

use common::{list_files, read, tar_gz, Reply, TestRepo, TestServer};
use initwd::fetch::fetch_package;
use initwd::HttpSettings;

fn zip(files: &[(&str, &str)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (n, c) in files {
        w.start_file(*n, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(c.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn archives_and_indirection() {
    let repo = TestRepo::new();
    repo.commit(&[("main.tf", Some("# from git\n"))], "c");
    let git_src = repo.source("");
    let tgz = tar_gz(&[("mod/main.tf", "# tgz\n")]);
    let zipped = zip(&[("main.tf", "# zip\n"), ("sub/x.tf", "# x\n")]);
    // The server's own address is known only once it runs.
    let port = std::sync::Arc::new(std::sync::OnceLock::<String>::new());
    let base = port.clone();
    let server = TestServer::start(move |path| {
        let meta_target = format!("{}/pkg.tgz", base.get().unwrap());
        match path {
            "/pkg.tgz" => Reply::Http(200, Vec::new(), tgz.clone()),
            "/download/pkg" => Reply::Http(200, Vec::new(), zipped.clone()),
            "/indirect?terraform-get=1" => Reply::Http(
                200,
                vec![("X-Terraform-Get".into(), git_src.clone())],
                Vec::new(),
            ),
            "/meta?terraform-get=1" => Reply::Http(
                200,
                Vec::new(),
                format!("<html><meta name=\"terraform-get\" content=\"{meta_target}\"></html>")
                    .into_bytes(),
            ),
            "/nothing?terraform-get=1" => Reply::status(200),
            _ => Reply::status(404),
        }
    });
    port.set(server.url("")).unwrap();
    let settings = HttpSettings::default();
    let d = tempfile::tempdir().unwrap();

    fetch_package(&server.url("/pkg.tgz"), &d.path().join("a"), &settings).unwrap();
    assert_eq!(read(d.path().join("a/mod/main.tf")), "# tgz\n");

    fetch_package(
        &server.url("/download/pkg?archive=zip"),
        &d.path().join("b"),
        &settings,
    )
    .unwrap();
    assert_eq!(list_files(&d.path().join("b")), ["main.tf", "sub/x.tf"]);

    fetch_package(&server.url("/indirect"), &d.path().join("c"), &settings).unwrap();
    assert_eq!(read(d.path().join("c/main.tf")), "# from git\n");

    fetch_package(&server.url("/meta"), &d.path().join("e"), &settings).unwrap();
    assert_eq!(read(d.path().join("e/mod/main.tf")), "# tgz\n");

    let err = fetch_package(&server.url("/nothing"), &d.path().join("f"), &settings).unwrap_err();
    assert_eq!(
        err,
        format!(
            "error downloading '{}': no source URL was returned",
            server.url("/nothing")
        )
    );
    let err =
        fetch_package(&server.url("/missing.zip"), &d.path().join("g"), &settings).unwrap_err();
    // go-getter returns an archive download's failure unwrapped.
    assert_eq!(err, "bad response code: 404");
}

#[test]
fn garbage_archive_and_silence() {
    let server = TestServer::start(|path| match path {
        "/bad.zip" => Reply::Http(200, Vec::new(), b"not a zip".to_vec()),
        _ => Reply::Hang(Duration::from_secs(5)),
    });
    let settings = HttpSettings {
        request_timeout: Duration::from_millis(300),
        ..HttpSettings::default()
    };
    let d = tempfile::tempdir().unwrap();
    let err = fetch_package(&server.url("/bad.zip"), &d.path().join("a"), &settings).unwrap_err();
    assert_eq!(err, "zip: not a valid zip file");
    let start = Instant::now();
    let err = fetch_package(&server.url("/slow.tgz"), &d.path().join("b"), &settings).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(3));
    assert!(err.contains("context deadline exceeded"), "{err}");
}

#[cfg(unix)]
#[test]
fn file_packages_are_linked() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("main.tf"), "# local\n").unwrap();
    let d = tempfile::tempdir().unwrap();
    let url = url::Url::from_file_path(src.path()).unwrap();
    fetch_package(url.as_str(), &d.path().join("p"), &HttpSettings::default()).unwrap();
    assert!(std::fs::symlink_metadata(d.path().join("p"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read(d.path().join("p/main.tf")), "# local\n");
    let err = fetch_package(
        "file:///definitely/not/here",
        &d.path().join("q"),
        &HttpSettings::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        "error downloading 'file:///definitely/not/here': source path error: stat /definitely/not/here: no such file or directory"
    );
}
