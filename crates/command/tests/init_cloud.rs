//! `tofu-rs init` with a `cloud` block, end to end through the binary,
//! against the fake HCP Terraform API (`backend::testing`)
//! over HTTPS on loopback: real service discovery of `tfe.v2`, a test CA
//! trusted through `SSL_CERT_FILE`, the token from the CLI configuration.
//! Without the `openssl` command (for the certificates) the tests are
//! skipped, saying so.

use std::path::{Path, PathBuf};

#[allow(dead_code)] // the lock-file helper is for provider tests
mod provider_work;
mod test_certs;

use backend::testing::FakeTfe;
use getproviders::testing::HttpResponse;
use provider_work::{Run, Work};

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

struct Cloud {
    fake: FakeTfe,
    ca: PathBuf,
    _certs: tempfile::TempDir,
}

fn cloud() -> Option<Cloud> {
    let certs = tempfile::tempdir().unwrap();
    let (ca, chain, key) = test_certs::certificates(certs.path())?;
    let fake = FakeTfe::start(Some((&chain, &key)));
    Some(Cloud {
        fake,
        ca,
        _certs: certs,
    })
}

macro_rules! cloud_or_skip {
    () => {
        match cloud() {
            Some(c) => c,
            None => {
                #[allow(clippy::print_stderr)]
                {
                    eprintln!(
                        "skipped: the openssl command is not available to make test certificates"
                    );
                }
                return;
            }
        }
    };
}

fn main_tf(host: &str, body: &str) -> String {
    format!("terraform {{\n  cloud {{\n    hostname     = \"{host}\"\n    organization = \"acme\"\n{body}  }}\n}}\n")
}

const NAMED: &str = "    workspaces {\n      name = \"app-prod\"\n    }\n";

impl Cloud {
    /// A working directory whose CLI configuration holds the fake's token.
    fn work(&self, body: &str) -> Work {
        let w = Work::new(&main_tf(&self.fake.host(), body));
        std::fs::write(
            &w.cli_config,
            format!(
                "credentials \"{}\" {{\n  token = \"good-token\"\n}}\n",
                self.fake.host()
            ),
        )
        .unwrap();
        w
    }

    fn run(&self, w: &Work, args: &[&str]) -> Run {
        let mut cmd = w.command(Path::new(BIN), args);
        cmd.env("SSL_CERT_FILE", &self.ca)
            .env_remove("SSL_CERT_DIR")
            .env_remove("TF_WORKSPACE")
            .env_remove("TF_CLOUD_ORGANIZATION")
            .env_remove("TF_CLOUD_HOSTNAME")
            .env_remove("TF_CLOUD_PROJECT");
        for (k, _) in std::env::vars() {
            if k.starts_with("TF_TOKEN_") {
                cmd.env_remove(k);
            }
        }
        cmd.output().unwrap().into()
    }

    /// `text` with the fake's port replaced, for snapshots.
    fn redact(&self, text: &str) -> String {
        text.replace(&self.fake.host(), "127.0.0.1:PORT")
    }
}

fn file(w: &Work, rel: &str) -> Option<String> {
    std::fs::read_to_string(w.path().join(rel)).ok()
}

#[test]
fn init_creates_and_records_a_named_workspace_over_https() {
    let c = cloud_or_skip!();
    let w = c.work(NAMED);
    let r = c.run(&w, &["init", "-no-color"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.stderr, "");
    insta::assert_snapshot!("init_cloud_success_stdout", r.stdout);
    let discovery = c
        .fake
        .requests()
        .into_iter()
        .next()
        .expect("a discovery request");
    assert_eq!(discovery, "GET /.well-known/terraform.json");
    // Every API request carried the token from the CLI configuration.
    let auth: Vec<_> = c
        .fake
        .server
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/api/v2/") && r.path != "/api/v2/ping")
        .map(|r| r.authorization)
        .collect();
    assert!(!auth.is_empty());
    assert!(auth
        .iter()
        .all(|a| a.as_deref() == Some("Bearer good-token")));
    assert_eq!(
        file(&w, ".terraform/environment").as_deref(),
        Some("app-prod")
    );
    let recorded = file(&w, ".terraform/terraform.tfstate").unwrap();
    assert!(recorded.contains("\"type\": \"cloud\""), "{recorded}");
    assert_eq!(c.fake.workspaces().len(), 1);
    let writes = c.fake.writes();
    assert_eq!(writes.len(), 2, "{writes:?}");

    // Unchanged: the same reads again, no writes, the same output.
    let again = c.run(&w, &["init", "-no-color"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout, r.stdout);
    assert_eq!(c.fake.writes(), writes);
    assert_eq!(file(&w, ".terraform/terraform.tfstate").unwrap(), recorded);

    // Other commands accept the recorded block, and see a changed one.
    let plan = c.run(&w, &["plan-lite", "-no-color"]);
    assert_eq!(plan.code, 0, "{}", plan.stderr);
    std::fs::write(
        w.path().join("main.tf"),
        main_tf(&c.fake.host(), &NAMED.replace("app-prod", "app-dev")),
    )
    .unwrap();
    let plan = c.run(&w, &["plan-lite", "-no-color"]);
    assert_eq!(plan.code, 1);
    insta::assert_snapshot!("plan_lite_cloud_changed_stderr", plan.stderr);

    // Init again: the new workspace is selected and created.
    let changed = c.run(&w, &["init", "-no-color"]);
    assert_eq!(changed.code, 0, "{}", changed.stderr);
    assert!(changed.stdout.starts_with(
        "\nInitializing cloud backend...\nCloud backend configuration has changed.\n"
    ));
    assert_eq!(
        file(&w, ".terraform/environment").as_deref(),
        Some("app-dev")
    );
    assert_eq!(c.fake.workspaces().len(), 2);

    // Removing the block: tofu-rs does not move the cloud's state.
    std::fs::write(w.path().join("main.tf"), "").unwrap();
    std::fs::write(
        w.path().join("main.tf"),
        "variable \"x\" {\n  default = 1\n}\n",
    )
    .unwrap();
    let unset = c.run(&w, &["init", "-no-color"]);
    assert_eq!(unset.code, 1, "{}", unset.stdout);
    assert!(unset
        .stdout
        .contains("Migrating from cloud backend to local state.\n"));
    insta::assert_snapshot!("init_cloud_unset_stderr", unset.stderr);
}

#[test]
fn colored_output_uses_the_cloud_success_message() {
    let c = cloud_or_skip!();
    let w = c.work(NAMED);
    let r = c.run(&w, &["init"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(
        "\x1b[0m\x1b[1m\x1b[32mCloud backend has been successfully initialized!\x1b[0m\x1b[32m"
    ));
}

#[test]
fn tokens_come_from_tf_token_variables_and_the_login_file() {
    let c = cloud_or_skip!();
    let w = c.work(NAMED);
    std::fs::write(&w.cli_config, "").unwrap();
    let r = c.run(&w, &["init", "-no-color"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("init_cloud_no_token_stderr", c.redact(&r.stderr));

    // TF_TOKEN_<host>: dots as underscores (the port stays as it is).
    let var = format!("TF_TOKEN_{}", c.fake.host().replace('.', "_"));
    let mut cmd = w.command(Path::new(BIN), &["init", "-no-color"]);
    cmd.env("SSL_CERT_FILE", &c.ca).env(&var, "good-token");
    let r: Run = cmd.output().unwrap().into();
    assert_eq!(r.code, 0, "{}", r.stderr);

    // credentials.tfrc.json, read when no TF_CLI_CONFIG_FILE overrides.
    let home = w.path().join("home");
    std::fs::create_dir_all(home.join(".terraform.d")).unwrap();
    std::fs::write(
        home.join(".terraform.d/credentials.tfrc.json"),
        format!(
            "{{\"credentials\":{{\"{}\":{{\"token\":\"good-token\"}}}}}}",
            c.fake.host()
        ),
    )
    .unwrap();
    let mut cmd = w.command(Path::new(BIN), &["init", "-no-color"]);
    cmd.env("SSL_CERT_FILE", &c.ca)
        .env_remove("TF_CLI_CONFIG_FILE");
    let r: Run = cmd.output().unwrap().into();
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn service_problems_are_reported_with_opentofus_messages() {
    let c = cloud_or_skip!();
    // An organization that does not exist.
    let w = Work::new(&main_tf(&c.fake.host(), NAMED).replace("\"acme\"", "\"nope\""));
    std::fs::write(
        &w.cli_config,
        format!(
            "credentials \"{}\" {{\n  token = \"good-token\"\n}}\n",
            c.fake.host()
        ),
    )
    .unwrap();
    let r = c.run(&w, &["init", "-no-color"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("init_cloud_unknown_org_stderr", c.redact(&r.stderr));
    assert!(file(&w, ".terraform/terraform.tfstate").is_none());

    // A server error while reading the organization.
    let w = c.work(NAMED);
    c.fake.fail(
        "GET",
        "/api/v2/organizations/acme/entitlement-set",
        HttpResponse::Reply {
            status: 500,
            headers: vec![],
            body: b"not json".to_vec(),
        },
    );
    let r = c.run(&w, &["init", "-no-color"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("init_cloud_server_error_stderr", c.redact(&r.stderr));
}

#[test]
fn an_old_api_or_a_silent_server_stops_init() {
    let c = cloud_or_skip!();
    c.fake.with(|s| s.api_version = Some("2.4".into()));
    let w = c.work(NAMED);
    let r = c.run(&w, &["init", "-no-color"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("init_cloud_old_api_stderr", r.stderr);

    c.fake.fail("GET", "/api/v2/ping", HttpResponse::Close);
    let r = c.run(&w, &["init", "-no-color"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("Error: Failed to create the cloud backend client"),
        "{}",
        r.stderr
    );
    assert!(c.fake.writes().is_empty());
}

#[test]
fn an_untrusted_certificate_fails_discovery() {
    let c = cloud_or_skip!();
    let w = c.work(NAMED);
    let mut cmd = w.command(Path::new(BIN), &["init", "-no-color"]);
    // Only the system's roots: the test CA is unknown.
    cmd.env_remove("SSL_CERT_FILE").env_remove("SSL_CERT_DIR");
    let r: Run = cmd.output().unwrap().into();
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(&format!(
            "Error: A network issue prevented cloud configuration; failed to request discovery document: Get \"https://{}/.well-known/terraform.json\"",
            c.fake.host()
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("on main.tf line 3, in terraform:"),
        "{}",
        r.stderr
    );
}

#[test]
fn tags_without_input_need_the_workspace_to_exist() {
    let c = cloud_or_skip!();
    let body = "    workspaces {\n      tags = [\"app\"]\n    }\n";
    let w = c.work(body);
    let r = c.run(&w, &["init", "-no-color", "-input=false"]);
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("init_cloud_tags_none_stderr", r.stderr);

    c.fake.with(|s| {
        s.add_workspace("app-a", &["app"]);
        s.add_workspace("app-b", &["app"]);
    });
    let r = c.run(&w, &["init", "-no-color", "-input=false"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("Error: Currently selected workspace \"default\" does not exist"),
        "{}",
        r.stderr
    );
    // TF_WORKSPACE picks one of them.
    let mut cmd = w.command(Path::new(BIN), &["init", "-no-color", "-input=false"]);
    cmd.env("SSL_CERT_FILE", &c.ca).env("TF_WORKSPACE", "app-b");
    let r: Run = cmd.output().unwrap().into();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(file(&w, ".terraform/environment").is_none());
    assert!(c.fake.writes().is_empty(), "{:?}", c.fake.writes());
}
