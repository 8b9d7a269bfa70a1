//! The cloud step against the fake service over plain HTTP (the host's
//! `tfe.v2` URL forced as a CLI configuration `host` block would); the
//! HTTPS path with real discovery is `tests/init_cloud.rs`'s.

use std::path::Path;
use std::time::Duration;

use cliconfig::RegistryHosts;
use configs::module::Module;
use configs::static_eval::{RootVariables, StaticModuleCall};
use testserver::HttpResponse;

use super::client::ClientOptions;
use super::config::CloudEnv;
use super::connect::ConnectOptions;
use super::workspace::Prompt;
use super::*;
use crate::testing::FakeTfe;
use crate::{check_initialized, Options, Outcome};

fn root(dir: &Path, src: &str) -> Module {
    std::fs::write(dir.join("main.tf"), src).unwrap();
    let (m, diags) = configs::module::load_module_dir(dir);
    assert!(!hclsyntax::has_errors(&diags), "{diags:?}");
    let mut m = m.unwrap();
    m.with_static_call(StaticModuleCall::root(
        RootVariables::new(Default::default()),
        ".",
        "default",
    ));
    m
}

fn connect_opts(fake: &FakeTfe, token: Option<&str>) -> ConnectOptions {
    let mut hosts = RegistryHosts::default();
    hosts.force_services(&fake.host(), &[("tfe.v2", &fake.base_url())]);
    if let Some(t) = token {
        hosts.tokens.insert(fake.host(), t.to_string());
    }
    ConnectOptions {
        hosts,
        client: ClientOptions {
            retry_max: 1,
            retry_wait_min: Duration::ZERO,
            retry_wait_max: Duration::ZERO,
            timeout: Duration::from_secs(5),
            ..ClientOptions::default()
        },
        discovery_scheme: "https",
    }
}

/// Answers prompts from a list, recording what was asked.
struct Answers(Vec<&'static str>, Vec<String>);

impl Prompt for Answers {
    fn input(&mut self, query: &str, description: &str) -> Result<String, String> {
        self.1.push(format!("{query}\n{description}"));
        if self.0.is_empty() {
            return Err("EOF".into());
        }
        Ok(self.0.remove(0).to_string())
    }
}

struct Run<'a> {
    fake: &'a FakeTfe,
    dir: &'a Path,
    env: CloudEnv,
    token: Option<&'static str>,
    opts: Options,
}

impl<'a> Run<'a> {
    fn new(fake: &'a FakeTfe, dir: &'a Path) -> Run<'a> {
        Run {
            fake,
            dir,
            env: CloudEnv::default(),
            token: Some("good-token"),
            opts: Options {
                data_dir: dir.join(".terraform"),
                ..Options::default()
            },
        }
    }

    fn init(&self, body: &str, prompt: Option<&mut dyn Prompt>) -> Outcome {
        let src = format!(
            "terraform {{\n  cloud {{\n    hostname = \"{}\"\n{body}  }}\n}}\n",
            self.fake.host()
        );
        let m = root(self.dir, &src);
        let cloud = m.cloud_config.clone().unwrap();
        init_cloud(
            &m,
            &cloud,
            &self.opts,
            CloudOptions {
                connect: connect_opts(self.fake, self.token),
                env: self.env.clone(),
                prompt,
            },
        )
    }

    fn environment(&self) -> Option<String> {
        std::fs::read_to_string(self.dir.join(".terraform/environment")).ok()
    }

    fn recorded(&self) -> String {
        std::fs::read_to_string(self.dir.join(".terraform/terraform.tfstate")).unwrap()
    }
}

const NAMED: &str =
    "    organization = \"acme\"\n    workspaces {\n      name = \"app-prod\"\n    }\n";
const TAGGED: &str =
    "    organization = \"acme\"\n    workspaces {\n      tags = [\"app\", \"prod\"]\n    }\n";

fn errors(out: &Outcome) -> Vec<(String, String)> {
    out.diags
        .iter()
        .map(|d| (d.summary.clone(), d.detail.clone()))
        .collect()
}

fn named_value(host: &str) -> Value {
    let s = Value::string;
    let null = || Value::null(cty::Type::String);
    Value::object_from([
        ("hostname", s(host)),
        ("organization", s("acme")),
        ("token", null()),
        (
            "workspaces",
            Value::object_from([
                ("name", s("app-prod")),
                ("project", null()),
                ("tags", Value::null(cty::Type::set(cty::Type::String))),
            ]),
        ),
    ])
}

#[test]
fn hashes_are_crc32_of_the_cty_serialization() {
    // zlib.crc32(b'<"cloud";<"app.terraform.io";"acme";~;<"app-prod";~;~;>;>;>')
    assert_eq!(
        state::config_hash("cloud", &named_value("app.terraform.io")),
        926662657
    );
    let tagged = Value::object_from([
        ("hostname", Value::string("app.terraform.io")),
        ("organization", Value::string("acme")),
        ("token", Value::null(cty::Type::String)),
        (
            "workspaces",
            Value::object_from([
                ("name", Value::null(cty::Type::String)),
                ("project", Value::null(cty::Type::String)),
                (
                    "tags",
                    Value::set(
                        cty::Type::String,
                        vec![Value::string("prod"), Value::string("app")],
                    )
                    .unwrap(),
                ),
            ]),
        ),
    ]);
    // ... `<~;~;["app";"prod";];>` for the workspaces block.
    assert_eq!(state::config_hash("cloud", &tagged), 393755256);
}

#[test]
fn a_named_workspace_is_created_selected_and_recorded() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    let out = run.init(NAMED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    assert!(out.messages.is_empty(), "{:?}", out.messages);
    assert_eq!(run.environment().as_deref(), Some("app-prod"));
    let ws = fake.workspaces();
    assert_eq!(ws.len(), 1);
    assert_eq!(ws[0].name, "app-prod");
    // The new workspace is set to the OpenTofu version tofu-rs stands in for.
    assert_eq!(ws[0].terraform_version, "1.10.0");
    assert_eq!(
        fake.writes(),
        vec![
            "POST /api/v2/organizations/acme/workspaces".to_string(),
            format!("PATCH /api/v2/workspaces/{}", ws[0].id),
        ]
    );
    // The hash covers the hostname, whose port changes from run to run.
    let hash = state::config_hash("cloud", &named_value(&fake.host()));
    let recorded = run
        .recorded()
        .replace(&fake.host(), "HOST")
        .replace(&hash.to_string(), "HASH");
    insta::assert_snapshot!(recorded);

    // A second run with nothing changed reads and writes nothing new.
    let before = fake.requests().len();
    let out = run.init(NAMED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    let again: Vec<String> = fake.requests()[before..].to_vec();
    assert_eq!(
        again,
        vec![
            "GET /api/v2/ping",
            "GET /api/v2/organizations/acme/entitlement-set",
            "GET /api/v2/organizations/acme/workspaces/app-prod",
            &format!("GET /api/v2/workspaces/{}/current-state-version", ws[0].id),
        ]
    );
    assert_eq!(fake.workspaces().len(), 1);
}

#[test]
fn the_token_is_sent_and_a_bad_one_refused() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let mut run = Run::new(&fake, d.path());
    run.token = Some("wrong");
    let out = run.init(NAMED, None);
    assert_eq!(
        errors(&out),
        vec![(
            format!(
                "Failed to read organization \"acme\" at host {}",
                fake.host()
            ),
            "Encountered an unexpected error while reading the organization settings: unauthorized"
                .to_string()
        )]
    );
    // The subject is the organization argument.
    let subject = out.diags[0].subject.as_ref().unwrap();
    assert_eq!(subject.start.line, 4);
    assert!(!d.path().join(".terraform/terraform.tfstate").exists());

    run.token = None;
    let out = run.init(NAMED, None);
    assert_eq!(out.diags[0].summary, "Required token could not be found");
    // The block's own token wins over the CLI configuration's.
    run.token = Some("wrong");
    let out = run.init(&format!("    token = \"good-token\"\n{NAMED}"), None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
}

#[test]
fn an_unknown_organization_says_so() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    let out = run.init(&NAMED.replace("acme", "nope"), None);
    let host = fake.host();
    assert_eq!(
        errors(&out),
        vec![(
            format!("Failed to read organization \"nope\" at host {host}"),
            format!("Encountered an unexpected error while reading the organization settings: organization \"nope\" at host {host} not found.\n\nPlease ensure that the organization and hostname are correct and that your API token for {host} is valid.")
        )]
    );
}

#[test]
fn old_or_missing_api_versions_are_refused() {
    for (version, in_automation) in [(Some("2.4"), false), (None, false), (Some("x"), true)] {
        let fake = FakeTfe::start(None);
        fake.with(|s| s.api_version = version.map(str::to_string));
        let d = tempfile::tempdir().unwrap();
        let mut run = Run::new(&fake, d.path());
        run.env.in_automation = in_automation;
        let out = run.init(NAMED, None);
        assert_eq!(out.diags.len(), 1, "{version:?}");
        assert_eq!(out.diags[0].summary, "Unsupported cloud backend version");
        if in_automation {
            assert!(out.diags[0].detail.contains("should never happen"));
        } else {
            assert_eq!(
                out.diags[0].detail,
                "The 'cloud' option is not supported with this version of the cloud backend."
            );
        }
        assert!(fake.writes().is_empty());
    }
}

#[test]
fn a_misbehaving_service_gets_a_diagnostic_not_a_panic() {
    let cases: Vec<(&str, &str, HttpResponse, &str)> = vec![
        (
            "GET",
            "/api/v2/organizations/acme/entitlement-set",
            HttpResponse::Reply {
                status: 500,
                headers: vec![],
                body: b"<html>oops</html>".to_vec(),
            },
            "Encountered an unexpected error while reading the organization settings: 500 Internal Server Error",
        ),
        (
            "GET",
            "/api/v2/organizations/acme/entitlement-set",
            HttpResponse::Reply {
                status: 200,
                headers: vec![],
                body: b"garbage".to_vec(),
            },
            "Encountered an unexpected error while reading the organization settings: invalid JSON:API response: expected value at line 1 column 1",
        ),
        (
            "GET",
            "/api/v2/ping",
            HttpResponse::Close,
            "Encountered an unexpected error while creating the cloud backend client: Get \"",
        ),
        (
            "GET",
            "/api/v2/organizations/acme/workspaces/app-prod",
            HttpResponse::Reply {
                status: 503,
                headers: vec![],
                body: br#"{"errors":[{"title":"maintenance","detail":"back soon"}]}"#.to_vec(),
            },
            "Failed to retrieve workspace app-prod: maintenance\n\nback soon",
        ),
    ];
    for (method, path, response, want) in cases {
        let fake = FakeTfe::start(None);
        fake.fail(method, path, response);
        let d = tempfile::tempdir().unwrap();
        let out = Run::new(&fake, d.path()).init(NAMED, None);
        assert_eq!(out.diags.len(), 1, "{path}: {:?}", errors(&out));
        assert!(
            out.diags[0].detail.starts_with(want),
            "{path}: {:?}",
            out.diags[0].detail
        );
    }
}

#[test]
fn a_service_that_never_answers_times_out() {
    let fake = FakeTfe::start(None);
    fake.fail(
        "GET",
        "/api/v2/organizations/acme/entitlement-set",
        HttpResponse::Hang(Duration::from_secs(10)),
    );
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    let m = root(
        d.path(),
        &format!(
            "terraform {{\n  cloud {{\n    hostname = \"{}\"\n{NAMED}  }}\n}}\n",
            fake.host()
        ),
    );
    let mut connect = connect_opts(&fake, Some("good-token"));
    connect.client.timeout = Duration::from_millis(300);
    let started = std::time::Instant::now();
    let out = init_cloud(
        &m,
        m.cloud_config.as_ref().unwrap(),
        &run.opts,
        CloudOptions {
            connect,
            env: CloudEnv::default(),
            prompt: None,
        },
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        out.diags[0].detail.ends_with(
            "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
        ),
        "{:?}",
        out.diags[0].detail
    );
}

#[test]
fn tags_select_among_matching_workspaces() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    // None yet, no input: OpenTofu's error, nothing recorded.
    let out = run.init(TAGGED, None);
    assert_eq!(out.diags[0].summary, "No existing workspaces.\n\nUse the \"tofu workspace\" command to create and select a new workspace.\nIf the backend already contains existing workspaces, you may need to update\nthe backend configuration.");
    assert!(!d.path().join(".terraform/terraform.tfstate").exists());

    // Asked for a name, the workspace is created with the tags.
    let mut answers = Answers(vec!["  fresh  "], vec![]);
    let out = run.init(TAGGED, Some(&mut answers));
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    assert!(answers.1[0].starts_with("\n[reset][bold][yellow]No workspaces found.[reset]\n\nThere are no workspaces with the configured tags (app, prod)\n"));
    assert_eq!(run.environment().as_deref(), Some("fresh"));
    let ws = fake.workspaces();
    assert_eq!(
        (ws[0].name.as_str(), ws[0].tags.clone()),
        ("fresh", vec!["app".to_string(), "prod".to_string()])
    );

    // Three matching (two pages) and the current one missing.
    fake.with(|s| {
        s.add_workspace("b", &["app", "prod", "x"]);
        s.add_workspace("a", &["prod", "app"]);
        s.add_workspace("other", &["app"]);
    });
    std::fs::write(d.path().join(".terraform/environment"), "gone").unwrap();
    let out = run.init(TAGGED, None);
    assert_eq!(
        out.diags[0].summary,
        "Currently selected workspace \"gone\" does not exist"
    );
    let mut answers = Answers(vec!["2"], vec![]);
    let out = run.init(TAGGED, Some(&mut answers));
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    assert!(
        answers.1[0]
            .ends_with("Please enter a number to select a workspace:\n\n1. a\n2. b\n3. fresh"),
        "{}",
        answers.1[0]
    );
    assert_eq!(run.environment().as_deref(), Some("b"));
    let mut answers = Answers(vec!["7"], vec![]);
    std::fs::write(d.path().join(".terraform/environment"), "gone").unwrap();
    let out = run.init(TAGGED, Some(&mut answers));
    assert_eq!(
        out.diags[0].summary,
        "Failed to select workspace: input not a valid number"
    );
}

#[test]
fn a_single_tagged_workspace_is_selected_and_missing_tags_added() {
    let fake = FakeTfe::start(None);
    fake.with(|s| s.add_workspace("only", &["app", "prod"]));
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    let out = run.init(TAGGED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    assert_eq!(run.environment().as_deref(), Some("only"));
    assert!(fake.writes().is_empty(), "{:?}", fake.writes());

    // TF_WORKSPACE names a workspace that lacks the tags: refused.
    let mut run = Run::new(&fake, d.path());
    fake.with(|s| s.add_workspace("untagged", &[]));
    run.env.workspace = Some("untagged".into());
    let out = run.init(TAGGED, None);
    assert_eq!(
        errors(&out),
        vec![(
            "Invalid workspace selection".to_string(),
            "OpenTofu failed to find workspace \"untagged\" with the tags specified in your configuration:\n[app, prod]".to_string()
        )]
    );
    run.env.workspace = Some("missing".into());
    let out = run.init(TAGGED, None);
    assert_eq!(
        out.diags[0].detail,
        "OpenTofu failed to find workspace \"missing\" in organization acme."
    );
}

#[test]
fn a_project_is_found_or_created_for_a_new_workspace() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let mut run = Run::new(&fake, d.path());
    run.env.project = "from-env".into();
    let out = run.init(NAMED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    let projects = fake.with(|s| s.projects.clone());
    assert_eq!(
        projects,
        vec![("prj-0001".to_string(), "from-env".to_string())]
    );
    assert_eq!(fake.workspaces()[0].project_id.as_deref(), Some("prj-0001"));
}

#[test]
fn an_unavailable_version_is_a_message_not_an_error() {
    let fake = FakeTfe::start(None);
    fake.with(|s| s.available_versions.clear());
    let d = tempfile::tempdir().unwrap();
    let out = Run::new(&fake, d.path()).init(NAMED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    assert_eq!(out.messages, vec!["\n[reset][yellow]The local OpenTofu version (1.10.0) is not available in the cloud backend, or your\norganization does not have access to it. The new workspace will use 1.6.0. You can\nchange this later in the workspace settings.[reset]".to_string()]);
}

#[test]
fn a_changed_block_reconnects_and_flags_are_refused() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let mut run = Run::new(&fake, d.path());
    assert!(run.init(NAMED, None).diags.is_empty());
    let m = root(
        d.path(),
        &format!(
            "terraform {{\n  cloud {{\n    hostname = \"{}\"\n{}  }}\n}}\n",
            fake.host(),
            NAMED.replace("app-prod", "app-dev")
        ),
    );
    let data = d.path().join(".terraform");
    let diags = check_initialized(&m, &data);
    assert_eq!(
        diags[0].summary,
        "Cloud backend initialization required: please run \"tofu init\""
    );
    assert!(diags[0].detail.starts_with("Reason: Cloud backend configuration block has changed.\n\nChanges to the cloud backend configuration block require reinitialization"));

    let out = run.init(&NAMED.replace("app-prod", "app-dev"), None);
    assert!(!out.diags.has_errors(), "{:?}", errors(&out));
    assert_eq!(
        out.messages,
        vec!["Cloud backend configuration has changed."]
    );
    assert_eq!(run.environment().as_deref(), Some("app-dev"));
    assert!(check_initialized(&m, &data).is_empty());

    run.opts.reconfigure = true;
    let out = run.init(NAMED, None);
    assert_eq!(out.diags[0].summary, "Invalid command-line option");
    assert!(out.diags[0]
        .detail
        .starts_with("The -reconfigure option is for in-place reconfiguration"));
    run.opts.reconfigure = false;
    run.opts.migrate_state = true;
    run.opts.force_copy = true;
    let out = run.init(NAMED, None);
    assert!(out.diags[0]
        .detail
        .starts_with("The -force-copy option is for migration between state backends only"));
}

#[test]
fn from_a_backend_with_state_tofu_rs_stops() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    let st = CliState {
        backend: Some(BackendState {
            type_name: "s3".into(),
            config_raw: "{}".into(),
            hash: 1,
        }),
    };
    state::write(&d.path().join(".terraform/terraform.tfstate"), &st).unwrap();
    let out = run.init(NAMED, None);
    assert_eq!(
        out.messages,
        vec!["Migrating from backend \"s3\" to cloud backend."]
    );
    assert_eq!(out.diags[0].summary, "State migration is not supported");
    assert!(fake.writes().is_empty());
}

#[test]
fn block_problems_are_placed_in_the_block() {
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let run = Run::new(&fake, d.path());
    let out = run.init(
        "    workspaces {\n      name = \"a\"\n      tags = [\"b\"]\n    }\n",
        None,
    );
    let got: Vec<_> = out
        .diags
        .iter()
        .map(|d| (d.summary.as_str(), d.subject.as_ref().map(|s| s.start.line)))
        .collect();
    // The organization is missing (the block's missing-item position) and
    // the strategy is ambiguous (a block, so the same position).
    assert_eq!(
        got,
        vec![
            ("Invalid or missing required argument", Some(2)),
            ("Invalid workspaces configuration", Some(2)),
        ]
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn init_ignores_the_workspace_version_as_opentofu_does() {
    // `InitCommand` calls `IgnoreVersionConflict` before `StateMgr`, so a
    // workspace pinned to another version is used as it is.
    let fake = FakeTfe::start(None);
    fake.with(|s| {
        s.add_workspace("app-prod", &[]);
        s.workspaces[0].terraform_version = "0.12.31".into();
    });
    let d = tempfile::tempdir().unwrap();
    let out = Run::new(&fake, d.path()).init(NAMED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    assert!(fake.writes().is_empty(), "{:?}", fake.writes());
    assert_eq!(fake.workspaces()[0].terraform_version, "0.12.31");
}

#[test]
fn tf_workspace_naming_the_block_workspace_must_exist() {
    // `Configure` checks TF_WORKSPACE when it equals the name, before
    // `StateMgr` could create the workspace.
    let fake = FakeTfe::start(None);
    let d = tempfile::tempdir().unwrap();
    let mut run = Run::new(&fake, d.path());
    run.env.workspace = Some("app-prod".into());
    let out = run.init(NAMED, None);
    assert_eq!(
        errors(&out),
        vec![(
            "Invalid workspace selection".to_string(),
            "OpenTofu failed to find workspace \"app-prod\" in organization acme.".to_string()
        )]
    );
    fake.with(|s| s.add_workspace("app-prod", &[]));
    let out = run.init(NAMED, None);
    assert!(out.diags.is_empty(), "{:?}", errors(&out));
    // TF_WORKSPACE is the current workspace: no environment file.
    assert_eq!(run.environment(), None);
}

#[test]
fn the_default_workspace_cannot_be_a_cloud_workspace() {
    let fake = FakeTfe::start(None);
    fake.with(|s| s.add_workspace("default", &["app", "prod"]));
    let d = tempfile::tempdir().unwrap();
    let out = Run::new(&fake, d.path()).init(TAGGED, None);
    assert_eq!(
        errors(&out),
        vec![(
            "Error loading state".to_string(),
            "default workspace not supported\nYou can create a new workspace with the \"workspace new\" command.".to_string()
        )]
    );
}
