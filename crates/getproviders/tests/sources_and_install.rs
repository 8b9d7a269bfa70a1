//! Sources and installation end to end, against a registry and network
//! mirror served on loopback and filesystem mirrors in temp dirs, with
//! packages and signing keys made by the tests.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use getproviders::testing::{provider_zip, zip_of, Route, TestKey, TestRegistry, ZipEntry};
use getproviders::{
    install_all, install_package, package_hash_v1, FilesystemMirrorSource, HttpClient, HttpOptions,
    InstallAction, InstallSettings, LockedProvider, MultiSource, MultiSourceSelector,
    NetworkMirrorSource, PackageLocation, Platform, PluginCache, ProviderRequest, RegistrySource,
    Source, Version, VersionConstraints,
};

fn linux() -> Platform {
    Platform::new("linux", "amd64")
}

fn http() -> HttpClient {
    HttpClient::new(HttpOptions {
        request_timeout: Duration::from_secs(5),
        download_timeout: Duration::from_secs(5),
        retries: 0,
        retry_wait: Duration::from_millis(10),
        ..HttpOptions::default()
    })
}

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

fn registry_with(versions: &[&str]) -> TestRegistry {
    let reg = TestRegistry::start();
    for ver in versions {
        reg.publish(
            "acme",
            "widget",
            ver,
            &[(linux(), provider_zip("widget", ver))],
        );
    }
    reg
}

fn source(reg: &TestRegistry) -> RegistrySource {
    RegistrySource::new(reg.registry_options(), http())
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o111 != 0
}

#[test]
fn registry_happy_path_installs_signed_package() {
    let reg = registry_with(&["1.0.0", "1.2.0", "2.0.0-beta1"]);
    let src = source(&reg);
    let p = reg.provider("acme", "widget");
    let (versions, warnings) = src.available_versions(&p).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(versions, [v("1.0.0"), v("1.2.0"), v("2.0.0-beta1")]);
    let picked = VersionConstraints::parse("~> 1.0")
        .unwrap()
        .newest_allowed(&versions)
        .cloned()
        .unwrap();
    assert_eq!(picked, v("1.2.0"));

    let meta = src.package_meta(&p, &picked, &linux()).unwrap();
    assert!(
        matches!(meta.location, PackageLocation::HttpUrl(ref u) if u.ends_with("terraform-provider-widget_1.2.0_linux_amd64.zip"))
    );
    let tmp = tempfile::tempdir().unwrap();
    let installed = install_package(&meta, tmp.path(), &[], &http()).unwrap();
    let want_dir = tmp
        .path()
        .join(reg.host())
        .join("acme/widget/1.2.0/linux_amd64");
    assert_eq!(installed.dir, want_dir);
    let exe = want_dir.join("terraform-provider-widget_v1.2.0");
    assert!(is_executable(&exe));
    assert_eq!(
        installed.auth_description(),
        format!("signed, key ID {}", reg.key.key_id)
    );
    assert_eq!(installed.hash, package_hash_v1(&want_dir).unwrap());
    let lock: Vec<String> = installed
        .lock_hashes
        .iter()
        .map(|h| h.to_string())
        .collect();
    assert!(lock.contains(&installed.hash.to_string()));
    assert!(lock.iter().any(|h| h.starts_with("zh:")));
    // No scratch left beside the package.
    let siblings: Vec<_> = std::fs::read_dir(want_dir.parent().unwrap())
        .unwrap()
        .collect();
    assert_eq!(siblings.len(), 1);
}

#[test]
fn registry_sends_credentials_and_reports_unknown_providers() {
    let reg = registry_with(&["1.0.0"]);
    let mut opts = reg.registry_options();
    opts.hosts
        .tokens
        .insert(reg.host().to_string(), "sekrit".to_string());
    let src = RegistrySource::new(opts, http());
    src.available_versions(&reg.provider("acme", "widget"))
        .unwrap();
    assert!(reg
        .server
        .requests()
        .iter()
        .any(|r| r.path.ends_with("/versions")
            && r.authorization.as_deref() == Some("Bearer sekrit")));
    let err = src
        .available_versions(&reg.provider("acme", "nothing"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "provider registry {0} does not have a provider named {0}/acme/nothing",
            reg.host()
        )
    );
    let err = src
        .package_meta(
            &reg.provider("acme", "widget"),
            &v("1.0.0"),
            &Platform::new("plan9", "mips"),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "provider {}/acme/widget 1.0.0 is not available for plan9_mips",
            reg.host()
        )
    );
}

#[test]
fn registry_garbage_is_a_query_failure() {
    let reg = registry_with(&[]);
    reg.server.route(
        "/v1/providers/acme/widget/versions",
        Route::Body {
            status: 200,
            content_type: "application/json".into(),
            body: b"<html>not json".to_vec(),
        },
    );
    let err = source(&reg)
        .available_versions(&reg.provider("acme", "widget"))
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!(
            "could not query provider registry for {}/acme/widget: ",
            reg.host()
        )),
        "{msg}"
    );
}

#[test]
fn registry_timing_out_is_reported() {
    let reg = registry_with(&[]);
    reg.server.route(
        "/v1/providers/acme/widget/versions",
        Route::Hang(Duration::from_secs(3)),
    );
    let quick = HttpClient::new(HttpOptions {
        request_timeout: Duration::from_millis(300),
        retries: 0,
        ..HttpOptions::default()
    });
    let src = RegistrySource::new(reg.registry_options(), quick);
    let started = std::time::Instant::now();
    let err = src
        .available_versions(&reg.provider("acme", "widget"))
        .unwrap_err()
        .to_string();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        err.contains("the request failed, please try again later"),
        "{err}"
    );
}

#[test]
fn registry_host_unreachable() {
    // A port nothing listens on: bind, learn the port, close.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let reg = registry_with(&[]);
    let src = source(&reg);
    let p = getproviders::testing::TestRegistry::provider(&reg, "acme", "widget");
    let dead = addrs::Provider::new(
        addrs::Hostname::for_comparison(&format!("127.0.0.1:{port}")).unwrap(),
        &p.namespace,
        &p.type_name,
    );
    let err = src.available_versions(&dead).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("could not connect to 127.0.0.1:{port}: ")),
        "{err}"
    );
}

#[test]
fn tampered_zip_is_refused_and_nothing_installed() {
    let reg = registry_with(&["1.0.0"]);
    reg.replace_archive(
        "acme",
        "widget",
        "1.0.0",
        &linux(),
        Route::bytes(provider_zip("widget", "6.6.6")),
    );
    let src = source(&reg);
    let p = reg.provider("acme", "widget");
    let meta = src.package_meta(&p, &v("1.0.0"), &linux()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let err = install_package(&meta, tmp.path(), &[], &http()).unwrap_err();
    assert!(
        err.0.starts_with("archive has incorrect checksum zh:"),
        "{err}"
    );
    assert!(!tmp
        .path()
        .join(reg.host())
        .join("acme/widget/1.0.0/linux_amd64")
        .exists());
}

#[test]
fn bad_signature_is_refused() {
    let reg = TestRegistry::start();
    let zip = provider_zip("widget", "1.0.0");
    let sums = format!(
        "{}  terraform-provider-widget_1.0.0_linux_amd64.zip\n",
        getproviders::testing::sha256_hex(&zip)
    );
    // Signed by the listed key, but over another document.
    let sig = reg.key.sign(b"something else entirely\n");
    reg.publish_with(
        "acme",
        "widget",
        "1.0.0",
        &[(linux(), zip)],
        sums.as_bytes(),
        &sig,
        &[&reg.key.public_armored],
    );
    let meta = source(&reg)
        .package_meta(&reg.provider("acme", "widget"), &v("1.0.0"), &linux())
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let err = install_package(&meta, tmp.path(), &[], &http()).unwrap_err();
    assert!(
        err.0.starts_with("the provider is not signed with a valid signing key; please contact the provider author (error checking signature: openpgp: invalid signature"),
        "{err}"
    );
}

#[test]
fn unknown_signing_key_is_refused() {
    let reg = TestRegistry::start();
    let stranger = TestKey::generate("Someone Else <x@example.com>");
    let zip = provider_zip("widget", "1.0.0");
    let sums = format!(
        "{}  terraform-provider-widget_1.0.0_linux_amd64.zip\n",
        getproviders::testing::sha256_hex(&zip)
    );
    let sig = stranger.sign(sums.as_bytes());
    reg.publish_with(
        "acme",
        "widget",
        "1.0.0",
        &[(linux(), zip)],
        sums.as_bytes(),
        &sig,
        &[&reg.key.public_armored],
    );
    let meta = source(&reg)
        .package_meta(&reg.provider("acme", "widget"), &v("1.0.0"), &linux())
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let err = install_package(&meta, tmp.path(), &[], &http()).unwrap_err();
    assert_eq!(
        err.0,
        "the provider is not signed with a valid signing key; please contact the provider author (authentication signature from unknown issuer)"
    );
}

#[test]
fn network_mirror_happy_path() {
    let reg = TestRegistry::start();
    let provider = addrs::Provider::default_for("widget");
    let zip = provider_zip("widget", "3.1.0");
    reg.mirror(&provider, "3.1.0", &linux(), &zip);
    let base = url::Url::parse(&reg.server.url("/mirror/")).unwrap();
    let src = NetworkMirrorSource::new(base, http(), Default::default());
    assert_eq!(src.available_versions(&provider).unwrap().0, [v("3.1.0")]);
    let meta = src.package_meta(&provider, &v("3.1.0"), &linux()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let installed = install_package(&meta, tmp.path(), &[], &http()).unwrap();
    assert_eq!(installed.auth_description(), "verified checksum");
    assert!(installed
        .dir
        .ends_with("registry.opentofu.org/hashicorp/widget/3.1.0/linux_amd64"));
    let err = src
        .package_meta(&provider, &v("3.1.0"), &Platform::new("darwin", "arm64"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "provider mirror {} does not have a package of registry.opentofu.org/hashicorp/widget 3.1.0 for darwin_arm64",
            reg.server.url("/mirror/")
        )
    );
}

#[test]
fn filesystem_mirror_packed_and_unpacked() {
    let mirror = tempfile::tempdir().unwrap();
    let type_dir = mirror.path().join("registry.opentofu.org/hashicorp/widget");
    std::fs::create_dir_all(&type_dir).unwrap();
    std::fs::write(
        type_dir.join("terraform-provider-widget_1.0.0_linux_amd64.zip"),
        provider_zip("widget", "1.0.0"),
    )
    .unwrap();
    let unpacked = type_dir.join("2.0.0/linux_amd64");
    std::fs::create_dir_all(&unpacked).unwrap();
    std::fs::write(
        unpacked.join("terraform-provider-widget_v2.0.0"),
        "#!/bin/sh\n",
    )
    .unwrap();
    // Noise that must be ignored.
    std::fs::write(type_dir.join("notes.txt"), "x").unwrap();
    std::fs::create_dir_all(type_dir.join("not-a-version/linux_amd64")).unwrap();

    let src = FilesystemMirrorSource::new(mirror.path());
    let p = addrs::Provider::default_for("widget");
    assert_eq!(
        src.available_versions(&p).unwrap().0,
        [v("1.0.0"), v("2.0.0")]
    );
    let work = tempfile::tempdir().unwrap();
    for ver in ["1.0.0", "2.0.0"] {
        let meta = src.package_meta(&p, &v(ver), &linux()).unwrap();
        let installed = install_package(&meta, work.path(), &[], &http()).unwrap();
        assert_eq!(installed.auth_description(), "unauthenticated");
        assert!(installed
            .dir
            .join(format!("terraform-provider-widget_v{ver}"))
            .exists());
    }
    // The unpacked layout is linked, not copied.
    let linked = work
        .path()
        .join("registry.opentofu.org/hashicorp/widget/2.0.0/linux_amd64");
    assert!(std::fs::symlink_metadata(&linked)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn dot_dot_entry_is_refused() {
    let mirror = tempfile::tempdir().unwrap();
    let type_dir = mirror.path().join("registry.opentofu.org/hashicorp/evil");
    std::fs::create_dir_all(&type_dir).unwrap();
    std::fs::write(
        type_dir.join("terraform-provider-evil_1.0.0_linux_amd64.zip"),
        zip_of(&[
            ZipEntry::file("terraform-provider-evil", b"#!/bin/sh\n", 0o755),
            ZipEntry::file("../../../../escaped", b"gotcha", 0o644),
        ]),
    )
    .unwrap();
    let src = FilesystemMirrorSource::new(mirror.path());
    let p = addrs::Provider::default_for("evil");
    let meta = src.package_meta(&p, &v("1.0.0"), &linux()).unwrap();
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join("providers");
    let err = install_package(&meta, &target, &[], &http()).unwrap_err();
    assert!(
        err.0.contains("entry contains '..': ../../../../escaped"),
        "{err}"
    );
    assert!(!work.path().join("escaped").exists());
    let version_dir = target.join("registry.opentofu.org/hashicorp/evil/1.0.0");
    assert_eq!(std::fs::read_dir(&version_dir).unwrap().count(), 0);
}

#[test]
fn archive_that_is_not_a_zip_is_refused_and_nothing_installed() {
    let mirror = tempfile::tempdir().unwrap();
    let type_dir = mirror.path().join("registry.opentofu.org/hashicorp/junk");
    std::fs::create_dir_all(&type_dir).unwrap();
    std::fs::write(
        type_dir.join("terraform-provider-junk_1.0.0_linux_amd64.zip"),
        b"<html>502 Bad Gateway</html>",
    )
    .unwrap();
    let src = FilesystemMirrorSource::new(mirror.path());
    let meta = src
        .package_meta(&addrs::Provider::default_for("junk"), &v("1.0.0"), &linux())
        .unwrap();
    let work = tempfile::tempdir().unwrap();
    let err = install_package(&meta, work.path(), &[], &http()).unwrap_err();
    assert!(
        err.0.starts_with("failed to unpack provider package "),
        "{err}"
    );
    let version_dir = work
        .path()
        .join("registry.opentofu.org/hashicorp/junk/1.0.0");
    assert_eq!(std::fs::read_dir(&version_dir).unwrap().count(), 0);
}

/// go-getter (OpenTofu's unzip) never makes links: the link entry is a
/// plain file holding its target's text, so the entry written "through"
/// it fails as Go's `MkdirAll` does.
#[test]
fn escaping_symlink_is_refused() {
    let mirror = tempfile::tempdir().unwrap();
    let type_dir = mirror.path().join("registry.opentofu.org/hashicorp/evil");
    std::fs::create_dir_all(&type_dir).unwrap();
    std::fs::write(
        type_dir.join("terraform-provider-evil_1.0.0_linux_amd64.zip"),
        zip_of(&[
            ZipEntry::link("sneaky", "../../../../../../etc"),
            ZipEntry::file("sneaky/passwd", b"root::0:0\n", 0o644),
        ]),
    )
    .unwrap();
    let src = FilesystemMirrorSource::new(mirror.path());
    let meta = src
        .package_meta(&addrs::Provider::default_for("evil"), &v("1.0.0"), &linux())
        .unwrap();
    let work = tempfile::tempdir().unwrap();
    let err = install_package(&meta, work.path(), &[], &http()).unwrap_err();
    assert!(err.0.ends_with("/sneaky: not a directory"), "{err}");
    assert!(err.0.contains(": mkdir "), "{err}");
    assert!(!work
        .path()
        .join("registry.opentofu.org/hashicorp/evil/1.0.0/linux_amd64")
        .exists());
}

#[test]
fn interrupted_download_leaves_previous_installation() {
    let reg = registry_with(&["1.0.0"]);
    let src = source(&reg);
    let p = reg.provider("acme", "widget");
    let meta = src.package_meta(&p, &v("1.0.0"), &linux()).unwrap();
    let work = tempfile::tempdir().unwrap();
    let first = install_package(&meta, work.path(), &[], &http()).unwrap();
    let before = package_hash_v1(&first.dir).unwrap();

    let zip = provider_zip("widget", "1.0.0");
    reg.replace_archive(
        "acme",
        "widget",
        "1.0.0",
        &linux(),
        Route::Truncated {
            body: zip[..zip.len() / 2].to_vec(),
            announced: zip.len(),
        },
    );
    let err = install_package(&meta, work.path(), &[], &http()).unwrap_err();
    assert!(err.0.contains("incorrect response size"), "{err}");
    assert_eq!(package_hash_v1(&first.dir).unwrap(), before);
    let siblings: Vec<_> = std::fs::read_dir(first.dir.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(siblings, ["linux_amd64"]);
}

#[test]
fn lock_file_hashes_are_enforced() {
    let reg = registry_with(&["1.0.0"]);
    let meta = source(&reg)
        .package_meta(&reg.provider("acme", "widget"), &v("1.0.0"), &linux())
        .unwrap();
    let work = tempfile::tempdir().unwrap();
    let wrong =
        getproviders::Hash::parse("h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").unwrap();
    let err = install_package(&meta, work.path(), &[wrong], &http()).unwrap_err();
    assert_eq!(
        err.0,
        format!("the current package for {}/acme/widget 1.0.0 doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification", reg.host())
    );
    let ok = install_package(&meta, work.path(), &[], &http()).unwrap();
    // Reinstalling with the recorded hash succeeds.
    install_package(&meta, work.path(), &ok.lock_hashes, &http()).unwrap();
}

#[test]
fn plugin_cache_is_filled_once_and_linked() {
    let reg = registry_with(&["1.0.0"]);
    let src = source(&reg);
    let p = reg.provider("acme", "widget");
    let meta = src.package_meta(&p, &v("1.0.0"), &linux()).unwrap();
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = PluginCache::new(cache_dir.path());
    let (w1, w2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (first, outcome) = cache.install(&meta, w1.path(), &[], &http()).unwrap();
    assert_eq!(outcome, getproviders::CacheOutcome::Fetched);
    assert!(std::fs::symlink_metadata(&first.dir)
        .unwrap()
        .file_type()
        .is_symlink());
    let downloads = |reg: &TestRegistry| {
        reg.server
            .requests()
            .iter()
            .filter(|r| r.path.ends_with(".zip"))
            .count()
    };
    assert_eq!(downloads(&reg), 1);
    let (second, outcome) = cache
        .install(&meta, w2.path(), &first.lock_hashes, &http())
        .unwrap();
    assert_eq!(outcome, getproviders::CacheOutcome::Linked);
    assert_eq!(downloads(&reg), 1);
    assert_eq!(second.hash, first.hash);
    assert!(second.dir.join("terraform-provider-widget_v1.0.0").exists());
}

#[test]
fn parallel_install_from_a_multi_source() {
    let reg = registry_with(&["1.0.0", "1.1.0"]);
    reg.publish(
        "acme",
        "gadget",
        "0.3.0",
        &[(linux(), provider_zip("gadget", "0.3.0"))],
    );
    let mirror = tempfile::tempdir().unwrap();
    let type_dir = mirror.path().join("registry.opentofu.org/hashicorp/local");
    std::fs::create_dir_all(&type_dir).unwrap();
    std::fs::write(
        type_dir.join("terraform-provider-local_2.5.0_linux_amd64.zip"),
        provider_zip("local", "2.5.0"),
    )
    .unwrap();
    let multi = MultiSource {
        selectors: vec![
            MultiSourceSelector {
                include: getproviders::parse_patterns(&["hashicorp/*".to_string()]).unwrap(),
                ..MultiSourceSelector::new(Arc::new(FilesystemMirrorSource::new(mirror.path())))
            },
            // Only the loopback host: nothing here may reach the internet.
            MultiSourceSelector {
                include: getproviders::parse_patterns(&[format!("{}/*/*", reg.host())]).unwrap(),
                ..MultiSourceSelector::new(Arc::new(source(&reg)))
            },
        ],
    };
    let work = tempfile::tempdir().unwrap();
    let settings = InstallSettings {
        source: &multi,
        platform: linux(),
        target_dir: work.path().join(".terraform/providers"),
        cache: None,
        http: http(),
        upgrade: false,
    };
    let req = |p: addrs::Provider, c: &str, locked: Option<LockedProvider>| ProviderRequest {
        provider: p,
        constraints: VersionConstraints::parse(c).unwrap(),
        locked,
    };
    let requests = vec![
        req(reg.provider("acme", "widget"), ">= 1.0", None),
        req(
            reg.provider("acme", "gadget"),
            "",
            Some(LockedProvider {
                version: v("0.3.0"),
                hashes: vec![],
            }),
        ),
        req(addrs::Provider::default_for("local"), "~> 2.0", None),
        req(reg.provider("acme", "widget"), "> 5", None),
        req(addrs::Provider::default_for("missing"), "", None),
    ];
    let results = install_all(&settings, &requests);
    let ok = |i: usize| results[i].1.as_ref().unwrap();
    assert_eq!(ok(0).version, v("1.1.0"));
    assert_eq!(ok(0).action, InstallAction::Installed);
    assert_eq!(ok(1).version, v("0.3.0"));
    assert_eq!(ok(2).version, v("2.5.0"));
    assert_eq!(
        results[3].1.as_ref().unwrap_err().0,
        "no available releases match the given constraints > 5.0.0"
    );
    assert_eq!(
        results[4].1.as_ref().unwrap_err().0,
        "provider registry.opentofu.org/hashicorp/missing was not found in any of the search locations"
    );

    // A second run with the recorded hashes finds everything in place.
    let relock: Vec<ProviderRequest> = requests[..3]
        .iter()
        .zip(&results)
        .map(|(r, (_, res))| {
            let res = res.as_ref().unwrap();
            ProviderRequest {
                locked: Some(LockedProvider {
                    version: res.version.clone(),
                    hashes: res.installed.lock_hashes.clone(),
                }),
                ..r.clone()
            }
        })
        .collect();
    for (_, r) in install_all(&settings, &relock) {
        assert_eq!(r.unwrap().action, InstallAction::AlreadyInstalled);
    }
    // A locked version outside the constraints is OpenTofu's error.
    let mut bad = relock[0].clone();
    bad.constraints = VersionConstraints::parse("< 1.1").unwrap();
    let r = install_all(&settings, &[bad]);
    assert_eq!(
        r[0].1.as_ref().unwrap_err().0,
        format!("locked provider {}/acme/widget 1.1.0 does not match configured version constraint < 1.1.0; must use tofu init -upgrade to allow selection of new versions", reg.host())
    );
}

#[test]
fn default_registry_without_keys_skips_signing() {
    let reg = TestRegistry::start();
    let zip = provider_zip("widget", "1.0.0");
    let sums = format!(
        "{}  terraform-provider-widget_1.0.0_linux_amd64.zip\n",
        getproviders::testing::sha256_hex(&zip)
    );
    reg.publish_with(
        "hashicorp",
        "widget",
        "1.0.0",
        &[(linux(), zip)],
        sums.as_bytes(),
        b"junk",
        &[],
    );
    let src = RegistrySource::new(reg.default_registry_options(), http());
    let p = addrs::Provider::default_for("widget");
    let meta = src.package_meta(&p, &v("1.0.0"), &linux()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let installed = install_package(&meta, tmp.path(), &[], &http()).unwrap();
    assert_eq!(installed.auth_description(), "signing skipped");
    assert!(installed
        .lock_hashes
        .iter()
        .any(|h| h.as_str().starts_with("zh:")));
}

#[test]
fn registry_package_data_adds_other_platforms_hashes() {
    let reg = TestRegistry::start();
    reg.send_package_data(true);
    let mac = Platform::new("darwin", "arm64");
    let mac_zip = zip_of(&[ZipEntry::file(
        "terraform-provider-widget_v1.0.0",
        b"mac\n",
        0o755,
    )]);
    reg.publish(
        "acme",
        "widget",
        "1.0.0",
        &[
            (linux(), provider_zip("widget", "1.0.0")),
            (mac, mac_zip.clone()),
        ],
    );
    let src = source(&reg);
    let meta = src
        .package_meta(&reg.provider("acme", "widget"), &v("1.0.0"), &linux())
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let installed = install_package(&meta, tmp.path(), &[], &http()).unwrap();
    let mac_h1 = getproviders::testing::h1_of_zip(&mac_zip);
    assert!(
        installed.lock_hashes.iter().any(|h| h.as_str() == mac_h1),
        "{:?}",
        installed.lock_hashes
    );
    // A package of another size than announced is refused first.
    reg.replace_archive(
        "acme",
        "widget",
        "1.0.0",
        &linux(),
        Route::bytes(provider_zip("widget", "1.0.0-and-more")),
    );
    let err = install_package(&meta, tmp.path(), &[], &http()).unwrap_err();
    assert!(
        err.0
            .starts_with("registry response indicates a package of size "),
        "{err}"
    );
}
