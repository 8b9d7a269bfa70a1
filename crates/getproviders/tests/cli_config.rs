//! Sources built from the CLI configuration, the implied local mirror
//! directories and `-plugin-dir`, installing for real (loopback and temp
//! dirs only).

use std::path::Path;
use std::time::Duration;

use getproviders::testing::{provider_zip, TestRegistry};
use getproviders::{
    build_source, install_all, parse_provider_cli_config, plugin_dir_source, HttpClient,
    HttpOptions, InstallSettings, NetworkSettings, Platform, ProviderCliConfig, ProviderRequest,
    Source, VersionConstraints,
};

fn linux() -> Platform {
    Platform::new("linux", "amd64")
}

fn net(reg: Option<&TestRegistry>) -> NetworkSettings {
    NetworkSettings {
        registry: reg.map(|r| r.registry_options()).unwrap_or_default(),
        http: HttpClient::new(HttpOptions {
            request_timeout: Duration::from_secs(5),
            retries: 0,
            ..HttpOptions::default()
        }),
    }
}

fn packed(mirror: &Path, host_ns_type: &str, type_name: &str, version: &str) {
    let dir = mirror.join(host_ns_type);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!(
            "terraform-provider-{type_name}_{version}_linux_amd64.zip"
        )),
        provider_zip(type_name, version),
    )
    .unwrap();
}

fn request(p: addrs::Provider) -> ProviderRequest {
    ProviderRequest {
        provider: p,
        constraints: VersionConstraints::any(),
        locked: None,
    }
}

fn settings<'a>(source: &'a dyn Source, target: &Path) -> InstallSettings<'a> {
    InstallSettings {
        source,
        platform: linux(),
        target_dir: target.to_path_buf(),
        cache: None,
        http: net(None).http,
        upgrade: false,
    }
}

#[test]
fn explicit_methods_route_providers_by_pattern() {
    let reg = TestRegistry::start();
    reg.publish(
        "acme",
        "widget",
        "1.0.0",
        &[(linux(), provider_zip("widget", "1.0.0"))],
    );
    let mirror = tempfile::tempdir().unwrap();
    packed(
        mirror.path(),
        "registry.opentofu.org/hashicorp/local",
        "local",
        "2.0.0",
    );
    let config = format!(
        r#"
provider_installation {{
  filesystem_mirror {{
    path    = "{}"
    include = ["hashicorp/*"]
  }}
  direct {{
    exclude = ["registry.opentofu.org/*/*"]
  }}
}}
"#,
        mirror.path().display()
    );
    let (cfg, diags) = parse_provider_cli_config("test.tfrc", config.as_bytes());
    assert!(diags.is_empty(), "{diags:?}");
    let (source, diags) = build_source(&cfg, Path::new("."), &net(Some(&reg)));
    assert!(diags.is_empty(), "{diags:?}");
    let work = tempfile::tempdir().unwrap();
    let results = install_all(
        &settings(&source, work.path()),
        &[
            request(addrs::Provider::default_for("local")),
            request(reg.provider("acme", "widget")),
            request(addrs::Provider::default_for("absent")),
        ],
    );
    assert_eq!(results[0].1.as_ref().unwrap().version.to_string(), "2.0.0");
    let widget = results[1].1.as_ref().unwrap();
    assert_eq!(
        widget.installed.auth_description(),
        format!("signed, key ID {}", reg.key.key_id)
    );
    // Neither the mirror (include) nor direct (exclude) may serve it.
    assert_eq!(
        results[2].1.as_ref().unwrap_err().0,
        "provider registry.opentofu.org/hashicorp/absent was not found in any of the search locations"
    );
}

#[test]
fn implied_vendor_directory_is_searched_first() {
    let cwd = tempfile::tempdir().unwrap();
    packed(
        &cwd.path().join("terraform.d/plugins"),
        "registry.opentofu.org/hashicorp/vendored",
        "vendored",
        "0.1.0",
    );
    let (source, diags) = build_source(&ProviderCliConfig::default(), cwd.path(), &net(None));
    assert!(diags.is_empty());
    // Found locally, so the registry is excluded for it: this works offline.
    let work = tempfile::tempdir().unwrap();
    let results = install_all(
        &settings(&source, work.path()),
        &[request(addrs::Provider::default_for("vendored"))],
    );
    assert_eq!(results[0].1.as_ref().unwrap().version.to_string(), "0.1.0");
}

#[test]
fn plugin_dirs_replace_every_other_source() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    packed(
        a.path(),
        "registry.opentofu.org/hashicorp/one",
        "one",
        "1.0.0",
    );
    packed(
        b.path(),
        "registry.opentofu.org/hashicorp/two",
        "two",
        "2.0.0",
    );
    let source = plugin_dir_source(&[a.path().to_path_buf(), b.path().to_path_buf()]);
    let work = tempfile::tempdir().unwrap();
    let results = install_all(
        &settings(&source, work.path()),
        &[
            request(addrs::Provider::default_for("one")),
            request(addrs::Provider::default_for("two")),
            request(addrs::Provider::default_for("three")),
        ],
    );
    assert!(results[0].1.is_ok() && results[1].1.is_ok());
    assert_eq!(
        results[2].1.as_ref().unwrap_err().0,
        "provider registry.opentofu.org/hashicorp/three was not found in any of the search locations"
    );
}
