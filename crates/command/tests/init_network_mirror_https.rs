//! `tofu-rs init` from a network mirror over HTTPS, end to end through the
//! binary: the CLI configuration only accepts an `https:` mirror (as
//! OpenTofu), so the mirror runs on loopback with a certificate signed by
//! a CA made for the test, which `SSL_CERT_FILE` makes the binary trust.
//! The certificates come from the `openssl` command; without it the test
//! is skipped, saying so.

use std::path::Path;

use getproviders::testing::{h1_of_zip, provider_zip, TestRegistry};
use getproviders::Platform;

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

mod provider_work;
mod test_certs;

use provider_work::{Run, Work};
use test_certs::certificates;

const MAIN_TF: &str = r#"
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 3.0"
    }
  }
}
"#;

#[test]
#[allow(clippy::print_stderr)] // the skip notice
fn init_installs_from_a_network_mirror_over_https() {
    let certs = tempfile::tempdir().unwrap();
    let Some((ca, chain, key)) = certificates(certs.path()) else {
        eprintln!("skipped: the openssl command is not available to make test certificates");
        return;
    };
    let mirror = TestRegistry::start_tls(&chain, &key);
    let provider = addrs::Provider::new(
        addrs::Hostname::for_comparison("registry.opentofu.org").unwrap(),
        "hashicorp",
        "null",
    );
    let zip = provider_zip("null", "3.2.1");
    mirror.mirror(&provider, "3.2.1", &Platform::current(), &zip);

    let w = Work::new(MAIN_TF);
    let mirror_url = mirror.server.url("/mirror/");
    assert!(mirror_url.starts_with("https://127.0.0.1:"), "{mirror_url}");
    std::fs::write(
        &w.cli_config,
        format!(
            "provider_installation {{\n  network_mirror {{\n    url = \"{mirror_url}\"\n  }}\n}}\n"
        ),
    )
    .unwrap();
    let run = |ssl_cert_file: &Path| -> Run {
        let mut cmd = w.command(Path::new(BIN), &["init", "-no-color", "-backend=false"]);
        cmd.env("SSL_CERT_FILE", ssl_cert_file)
            .env_remove("SSL_CERT_DIR");
        cmd.output().unwrap().into()
    };

    // Not trusted without the test CA: a TLS error, nothing installed.
    let untrusted = run(&certs.path().join("srv.csr"));
    assert_eq!(
        untrusted.code, 1,
        "{}\n{}",
        untrusted.stdout, untrusted.stderr
    );
    assert_eq!(w.lock_file(), "");

    let r = run(&ca);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("- Installing hashicorp/null v3.2.1...\n- Installed hashicorp/null v3.2.1 (verified checksum)\n"),
        "{}",
        r.stdout
    );
    let installed = w
        .path()
        .join(".terraform/providers/registry.opentofu.org/hashicorp/null/3.2.1")
        .join(Platform::current().to_string());
    assert!(installed.is_dir(), "{} not installed", installed.display());
    let lock = w.lock_file();
    assert!(lock.contains(&h1_of_zip(&zip)), "{lock}");
    let paths: Vec<String> = mirror
        .server
        .requests()
        .into_iter()
        .map(|r| r.path)
        .collect();
    assert!(
        paths.contains(&"/mirror/registry.opentofu.org/hashicorp/null/index.json".to_string()),
        "{paths:?}"
    );
}
