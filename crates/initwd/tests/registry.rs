//! The registry client against a scripted server on 127.0.0.1.

mod common;

use std::time::{Duration, Instant};

use common::{Reply, TestServer};
use initwd::{RegistryClient, RegistryError, RegistryHosts, RegistryOptions};

fn package(raw: &str) -> addrs::ModuleRegistryPackage {
    match addrs::parse_module_source(raw).unwrap() {
        addrs::ModuleSource::Registry { package, .. } => package,
        other => panic!("not a registry source: {other:?}"),
    }
}

/// A client whose `registry.example.com` services point at `server`.
fn client_for(server: &TestServer, tweak: impl FnOnce(&mut RegistryOptions)) -> RegistryClient {
    let mut hosts = RegistryHosts::default();
    hosts.force_services(
        "registry.example.com",
        &[("modules.v1", &server.url("/v1/modules"))],
    );
    let mut opts = RegistryOptions {
        hosts,
        retry_wait: Duration::from_millis(10),
        request_timeout: Duration::from_secs(5),
        ..RegistryOptions::default()
    };
    tweak(&mut opts);
    RegistryClient::new(opts)
}

const VERSIONS: &str = r#"{"modules":[{"source":"registry.example.com/ns/net/aws","versions":[{"version":"1.0.0"},{"version":"1.2.0"},{"version":"2.0.0-beta"}]}]}"#;

#[test]
fn versions_and_locations_with_caching() {
    let server = TestServer::start(|path| match path {
        "/v1/modules/ns/net/aws/versions" => Reply::json(200, VERSIONS),
        "/v1/modules/ns/net/aws/1.2.0/download" => Reply::Http(
            204,
            vec![(
                "X-Terraform-Get".into(),
                "git::https://example.com/net.git?ref=v1.2.0".into(),
            )],
            Vec::new(),
        ),
        "/v1/modules/ns/net/aws/1.0.0/download" => {
            Reply::json(200, r#"{"location":"./archives/net-1.0.0.tgz"}"#)
        }
        "/v1/modules/ns/net/aws/0.9.0/download" => {
            Reply::json(200, r#"{"location":"/abs/net-0.9.0.tgz"}"#)
        }
        _ => Reply::status(404),
    });
    let client = client_for(&server, |_| {});
    let pkg = package("registry.example.com/ns/net/aws");
    let v = client.module_versions(&pkg).unwrap();
    assert_eq!(v.modules[0].versions, ["1.0.0", "1.2.0", "2.0.0-beta"]);
    client.module_versions(&pkg).unwrap();
    assert_eq!(
        client.module_location(&pkg, "1.2.0").unwrap(),
        "git::https://example.com/net.git?ref=v1.2.0"
    );
    assert_eq!(
        client.module_location(&pkg, "1.0.0").unwrap(),
        server.url("/v1/modules/ns/net/aws/1.0.0/archives/net-1.0.0.tgz")
    );
    assert_eq!(
        client.module_location(&pkg, "0.9.0").unwrap(),
        server.url("/abs/net-0.9.0.tgz")
    );
    client.module_location(&pkg, "1.2.0").unwrap();
    // Versions and each location asked once.
    assert_eq!(
        server.paths(),
        [
            "/v1/modules/ns/net/aws/versions",
            "/v1/modules/ns/net/aws/1.2.0/download",
            "/v1/modules/ns/net/aws/1.0.0/download",
            "/v1/modules/ns/net/aws/0.9.0/download",
        ]
    );
}

#[test]
fn not_found_and_bad_statuses() {
    let server = TestServer::start(|path| match path {
        "/v1/modules/ns/broken/aws/versions" => Reply::status(500),
        "/v1/modules/ns/net/aws/versions" => Reply::json(200, VERSIONS),
        "/v1/modules/ns/net/aws/1.0.0/download" => Reply::status(204),
        _ => Reply::status(404),
    });
    let client = client_for(&server, |_| {});
    let err = client
        .module_versions(&package("registry.example.com/ns/missing/aws"))
        .unwrap_err();
    assert_eq!(
        err,
        RegistryError::ModuleNotFound(
            "module registry.example.com/ns/missing/aws not found".into()
        )
    );
    let err = client
        .module_versions(&package("registry.example.com/ns/broken/aws"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        format!(
            "the request failed after 2 attempts, please try again later: 500 Internal Server Error returned from {}",
            server.url("/v1/modules/ns/broken/aws/versions")
        )
    );
    let pkg = package("registry.example.com/ns/net/aws");
    let err = client
        .module_location(&pkg, "1.0.0")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "failed to get download URL for \"registry.example.com/ns/net/aws\": 204 No Content resp:"
    );
    let err = client
        .module_location(&pkg, "3.0.0")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "module \"registry.example.com/ns/net/aws\" version \"3.0.0\" not found"
    );
}

#[test]
fn garbage_answers() {
    let server = TestServer::start(|path| match path {
        "/v1/modules/ns/junk/aws/versions" => Reply::json(200, "this is not json"),
        _ => Reply::Raw(b"NOT HTTP AT ALL\r\n\r\n".to_vec()),
    });
    let client = client_for(&server, |o| o.retries = 0);
    let err = client
        .module_versions(&package("registry.example.com/ns/junk/aws"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("expected ident") || !err.is_empty(),
        "{err}"
    );
    let err = client
        .module_versions(&package("registry.example.com/ns/raw/aws"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("the request failed, please try again later: Get \"http://127.0.0.1:"),
        "{err}"
    );
}

#[test]
fn silent_server_times_out_quickly() {
    let server = TestServer::start(|_| Reply::Hang(Duration::from_secs(5)));
    let client = client_for(&server, |o| {
        o.retries = 1;
        o.request_timeout = Duration::from_millis(300);
    });
    let start = Instant::now();
    let err = client
        .module_versions(&package("registry.example.com/ns/slow/aws"))
        .unwrap_err()
        .to_string();
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    assert!(
        err.starts_with("the request failed after 2 attempts"),
        "{err}"
    );
    assert!(err.contains("context deadline exceeded"), "{err}");
}

#[test]
fn unreachable_host() {
    // Bind and drop a listener to get a port nobody answers on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut hosts = RegistryHosts::default();
    hosts.force_services(
        "registry.example.com",
        &[(
            "modules.v1",
            &format!("http://127.0.0.1:{port}/v1/modules/"),
        )],
    );
    let client = RegistryClient::new(RegistryOptions {
        hosts,
        retries: 0,
        ..RegistryOptions::default()
    });
    let err = client
        .module_versions(&package("registry.example.com/ns/net/aws"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Connection refused") || err.contains("connection refused"),
        "{err}"
    );
}

#[test]
fn service_discovery_document() {
    let server = TestServer::start(|path| match path {
        "/.well-known/terraform.json" => Reply::json(
            200,
            r#"{"modules.v1":"/api/modules/","providers.v1":"/p/"}"#,
        ),
        "/api/modules/ns/net/aws/versions" => Reply::json(200, VERSIONS),
        _ => Reply::status(404),
    });
    let host = addrs::Hostname::for_comparison(&server.addr).unwrap();
    let client = RegistryClient::new(RegistryOptions {
        discovery_scheme: "http",
        ..RegistryOptions::default()
    });
    let base = client.discover(&host, "modules.v1").unwrap();
    assert_eq!(base.as_str(), server.url("/api/modules/"));
    let err = client
        .discover(&host, "modules.v2")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        format!("host {} does not support modules version 2", server.addr)
    );
    let err = client.discover(&host, "login.v1").unwrap_err().to_string();
    assert_eq!(
        err,
        format!("host {} does not provide a login service", server.addr)
    );
    // Discovery happens once per host.
    assert_eq!(server.paths(), ["/.well-known/terraform.json"]);
}

#[test]
fn discovery_failures() {
    let server = TestServer::start(|_| {
        Reply::Http(
            200,
            vec![("Content-Type".into(), "text/html".into())],
            b"<html/>".to_vec(),
        )
    });
    let host = addrs::Hostname::for_comparison(&server.addr).unwrap();
    let client = RegistryClient::new(RegistryOptions {
        discovery_scheme: "http",
        ..RegistryOptions::default()
    });
    let err = client.discover(&host, "modules.v1").unwrap_err();
    assert_eq!(
        err,
        RegistryError::ServiceUnreachable(
            "discovery URL returned an unsupported Content-Type \"text/html\"".into()
        )
    );
    let missing = TestServer::start(|_| Reply::status(404));
    let host = addrs::Hostname::for_comparison(&missing.addr).unwrap();
    let err = client
        .discover(&host, "modules.v1")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        format!("host {} does not provide a modules service", missing.addr)
    );
}
