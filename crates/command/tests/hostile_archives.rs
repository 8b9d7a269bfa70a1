//! `tofu-rs init` fed hostile archives end to end: module packages
//! (tar.gz and zip, by extension and by `?archive=`) from a loopback
//! server, and provider packages from a network mirror. Each must fail
//! with the words OpenTofu (go-getter v1.8.6) uses — or, where OpenTofu
//! unpacks the archive, succeed harmlessly — and leave nothing outside
//! the working directory. The expected texts are what `terraform init`
//! (same go-getter behaviour) printed for the same archives.

use getproviders::testing::{LoopbackServer, Route, TestRegistry};
use getproviders::Platform;
use unpack::testing::*;

mod sandbox;
mod test_certs;

use sandbox::Sandbox;

/// Builds an archive given the sentinel directory's path (for links and
/// names that aim at it).
type Build = Box<dyn Fn(&str) -> Vec<u8>>;

fn module_tf(url: &str) -> String {
    format!("module \"m\" {{\n  source = \"{url}\"\n}}\n")
}

/// Serves `bytes` at `path` and runs `init` on a module from there.
fn init_module(
    path: &str,
    bytes: Vec<u8>,
    build: impl FnOnce(&Sandbox),
) -> (Sandbox, sandbox::Run, String) {
    let server = LoopbackServer::start();
    let route = path.split('?').next().unwrap();
    server.route(route, Route::bytes(bytes));
    let url = server.url(path);
    let sb = Sandbox::new(&module_tf(&url));
    build(&sb);
    let run = sb.init(&[]);
    (sb, run, url)
}

fn failed_download(url: &str, cause: &str) -> String {
    format!("Could not download module \"m\" (main.tf:1) source code from \"{url}\": {cause}")
}

#[test]
fn dot_dot_entries_are_refused() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "/evil.tar.gz",
            tgz(&[
                file("main.tf", "# ok\n"),
                file("../../../sentinel/x", "evil"),
            ]),
            "entry contains '..': ../../../sentinel/x",
        ),
        (
            "/evil.zip",
            zip(&[zfile("main.tf", "# ok\n"), zfile("a/../../x", "evil")]),
            "entry contains '..': a/../../x",
        ),
        (
            "/download?archive=zip",
            zip(&[zfile("main.tf", "# ok\n"), zfile("..\\..\\x", "evil")]),
            "entry contains '..': ..\\..\\x",
        ),
        (
            "/download?archive=tgz",
            tgz(&[file("main.tf", "# ok\n"), file("a/..", "evil")]),
            "entry contains '..': a/..",
        ),
    ];
    for (path, bytes, cause) in cases {
        let (sb, run, url) = init_module(path, bytes, |_| {});
        assert_eq!(run.code, 1, "{path}: {}", run.stderr);
        assert!(
            run.text.contains("Error: Failed to download module"),
            "{}",
            run.stderr
        );
        // The diagnostic names the address as written, `archive=` and all.
        assert!(
            run.text.contains(&failed_download(&url, cause)),
            "{path}: {}",
            run.stderr
        );
        sb.assert_sealed();
        assert!(!sb.work().join(".terraform/modules/m").exists());
    }
}

#[test]
fn links_in_archives_become_files_and_cannot_be_written_through() {
    let cases: Vec<(&str, Build, &str)> = vec![
        (
            "/link.tar.gz",
            Box::new(|s: &str| {
                tgz(&[
                    file("main.tf", "# ok\n"),
                    symlink("l", s),
                    file("l/keep", "evil"),
                ])
            }),
            ".terraform/modules/m/l/keep: not a directory",
        ),
        (
            "/dot.tar.gz",
            Box::new(|_: &str| {
                tgz(&[
                    file("main.tf", "# ok\n"),
                    symlink("l", "."),
                    file("l/x", "evil"),
                ])
            }),
            ".terraform/modules/m/l/x: not a directory",
        ),
        (
            "/chain.tgz",
            Box::new(|_: &str| {
                tgz(&[
                    file("main.tf", "# ok\n"),
                    symlink("b", "../../../../sentinel"),
                    symlink("a", "b"),
                    file("a/keep", "evil"),
                ])
            }),
            ".terraform/modules/m/a/keep: not a directory",
        ),
        (
            "/dirlink.tar.gz",
            Box::new(|s: &str| tgz(&[file("main.tf", "# ok\n"), symlink("l", s), dir("l/")])),
            ".terraform/modules/m/l: not a directory",
        ),
        (
            "/link.zip",
            Box::new(|s: &str| {
                zip(&[
                    zfile("main.tf", "# ok\n"),
                    zlink("l", s),
                    zfile("l/keep", "evil"),
                ])
            }),
            ".terraform/modules/m/l: not a directory",
        ),
    ];
    for (path, build, tail) in cases {
        let server = LoopbackServer::start();
        let url = server.url(path);
        let sb = Sandbox::new(&module_tf(&url));
        server.route(
            path,
            Route::bytes(build(&sb.sentinel().display().to_string())),
        );
        let run = sb.init(&[]);
        assert_eq!(run.code, 1, "{path}: {}", run.stderr);
        assert!(
            run.text.contains("Error: Failed to download module"),
            "{}",
            run.stderr
        );
        assert!(run.text.contains(&format!("\"{url}\": ")), "{}", run.stderr);
        assert!(run.text.contains(tail), "{path}: {}", run.stderr);
        sb.assert_sealed();
    }
}

#[test]
fn harmless_shapes_unpack_inside() {
    // OpenTofu unpacks these: an absolute name lands under the package,
    // links and hard links become plain files, the last duplicate wins.
    let server = LoopbackServer::start();
    let url = server.url("/odd.tar.gz");
    let sb = Sandbox::new(&module_tf(&url));
    let sentinel = sb.sentinel().display().to_string();
    server.route(
        "/odd.tar.gz",
        Route::bytes(tgz(&[
            file("main.tf", "# one\n"),
            file(&format!("{sentinel}/abs.tf"), "# abs\n"),
            symlink("up", "../../../.."),
            hardlink("h", &format!("{sentinel}/keep")),
            file("h", "overwritten"),
            special("fifo", b'6'),
            file("main.tf", "# two\n"),
        ])),
    );
    let run = sb.init(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pkg = sb.work().join(".terraform/modules/m");
    assert_eq!(
        std::fs::read_to_string(pkg.join("main.tf")).unwrap(),
        "# two\n"
    );
    assert_eq!(
        std::fs::read_to_string(pkg.join(sentinel.trim_start_matches('/')).join("abs.tf")).unwrap(),
        "# abs\n"
    );
    assert_eq!(
        std::fs::read_to_string(pkg.join("h")).unwrap(),
        "overwritten"
    );
    assert_eq!(std::fs::read_to_string(pkg.join("up")).unwrap(), "");
    sb.assert_sealed();
}

#[test]
fn broken_archives_are_errors() {
    let good = tgz(&[file("main.tf", &"x".repeat(4000))]);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "/cut.tar.gz",
            good[..good.len() / 2].to_vec(),
            "unexpected EOF",
        ),
        (
            "/html.zip",
            b"<html>502 Bad Gateway</html>".to_vec(),
            "zip: not a valid zip file",
        ),
        (
            "/html.tgz",
            b"<html>502 Bad Gateway</html>".to_vec(),
            "gzip: invalid header",
        ),
        (
            "/lying.zip",
            zip(&[Z {
                declared_size: Some(3),
                deflate: true,
                ..zfile("main.tf", &"y".repeat(500))
            }]),
            "zip: not a valid zip file",
        ),
    ];
    for (path, bytes, cause) in cases {
        let (sb, run, url) = init_module(path, bytes, |_| {});
        assert_eq!(run.code, 1, "{path}: {}", run.stderr);
        assert!(
            run.text.contains(&failed_download(&url, cause)),
            "{path}: {}",
            run.stderr
        );
        sb.assert_sealed();
    }
    // An archive of directories only is go-getter's "empty archive",
    // naming the temporary copy it unpacked from.
    let (sb, run, url) = init_module("/dirs.tar.gz", tgz(&[dir("a/")]), |_| {});
    assert_eq!(run.code, 1);
    assert!(
        run.text.contains(&failed_download(&url, "empty archive: ")),
        "{}",
        run.stderr
    );
    assert!(run.text.contains("/archive"), "{}", run.stderr);
    sb.assert_sealed();
}

const NULL_TF: &str = r#"
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "3.2.1"
    }
  }
}
"#;

#[test]
#[allow(clippy::print_stderr)] // the skip notice
fn hostile_provider_zips_from_a_network_mirror() {
    let certs = tempfile::tempdir().unwrap();
    let Some((ca, chain, key)) = test_certs::certificates(certs.path()) else {
        eprintln!("skipped: the openssl command is not available to make test certificates");
        return;
    };
    let provider = addrs::Provider::new(
        addrs::Hostname::for_comparison("registry.opentofu.org").unwrap(),
        "hashicorp",
        "null",
    );
    let binary = "terraform-provider-null_v3.2.1";
    let cases: Vec<(Build, &str)> = vec![
        (
            Box::new(move |_: &str| {
                zip(&[
                    zfile(binary, "#!/bin/sh\n"),
                    zfile("../../../../../../../../sentinel/x", "evil"),
                ])
            }),
            "entry contains '..': ../../../../../../../../sentinel/x",
        ),
        (
            Box::new(move |_: &str| zip(&[zfile(binary, "#!/bin/sh\n"), zfile("..\\x", "evil")])),
            "entry contains '..': ..\\x",
        ),
        (
            Box::new(move |s: &str| {
                zip(&[
                    zfile(binary, "#!/bin/sh\n"),
                    zlink("sneaky", s),
                    zfile("sneaky/keep", "evil"),
                ])
            }),
            "/sneaky: not a directory",
        ),
    ];
    for (build, cause) in cases {
        let mirror = TestRegistry::start_tls(&chain, &key);
        let sb = Sandbox::new(NULL_TF);
        let bytes = build(&sb.sentinel().display().to_string());
        // The listing names the hostile zip's own hash, so it passes the
        // checksum and reaches the unpacker.
        mirror.mirror(&provider, "3.2.1", &Platform::current(), &bytes);
        sb.set_cli_config(&format!(
            "provider_installation {{\n  network_mirror {{\n    url = \"{}\"\n  }}\n}}\n",
            mirror.server.url("/mirror/")
        ));
        let run = sb.init(&[("SSL_CERT_FILE", &ca)]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.text.contains(
                "Error: Failed to install provider Error while installing hashicorp/null v3.2.1: "
            ),
            "{}",
            run.stderr
        );
        assert!(run.text.contains(cause), "{cause}: {}", run.stderr);
        sb.assert_sealed();
        let installed = sb
            .work()
            .join(".terraform/providers/registry.opentofu.org/hashicorp/null/3.2.1");
        assert!(
            !installed.join(Platform::current().to_string()).exists(),
            "a refused package was installed"
        );
    }
}
