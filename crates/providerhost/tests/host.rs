//! The host with a fake launcher: which runs start a plugin, what the
//! cache keeps, and what is not trusted.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use addrs::{Provider, ResourceMode};
use configschema::ProviderSchema;
use cty::{Type, Value};
use providerhost::{Launcher, LocatedProvider, ProviderHost, RunningProvider, ValidateKind};
use tofu::schemas::{ProviderDiagnostic, ProviderSeverity, ProviderValidator};

const DOC: &str = r#"{"provider":{"version":0,"block":{"attributes":{"region":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"}},"resource_schemas":{"x_thing":{"version":0,"block":{"attributes":{"name":{"type":"string","description_kind":"plain","optional":true},"id":{"type":"string","description_kind":"plain","computed":true}},"description_kind":"plain"}}}}"#;

#[derive(Default)]
struct Fake {
    starts: AtomicUsize,
    attaches: AtomicUsize,
    validations: AtomicUsize,
    fail_launch: Mutex<Option<String>>,
    doc: Mutex<Option<String>>,
}

struct FakeRunning(Arc<Fake>);

impl RunningProvider for FakeRunning {
    fn schema(&self) -> Result<(ProviderSchema, Vec<ProviderDiagnostic>), String> {
        let doc = self
            .0
            .doc
            .lock()
            .unwrap()
            .clone()
            .unwrap_or_else(|| DOC.to_string());
        Ok((configschema::json::decode_provider(&doc).unwrap(), vec![]))
    }

    fn validate(
        &self,
        _kind: ValidateKind,
        _type_name: &str,
        config: &Value,
        _ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, String> {
        self.0.validations.fetch_add(1, Ordering::SeqCst);
        let name = config.get_attr("name");
        Ok(match name {
            Some(v) if v == Value::string("INVALID") => vec![ProviderDiagnostic {
                severity: ProviderSeverity::Error,
                summary: "Invalid value".into(),
                detail: "The test provider rejects the value INVALID.".into(),
                attribute: Some(cty::Path::root().get_attr("name")),
            }],
            _ => vec![],
        })
    }
}

struct FakeLauncher(Arc<Fake>);

impl Launcher for FakeLauncher {
    fn launch(&self, _exe: &Path) -> Result<Box<dyn RunningProvider>, String> {
        if let Some(e) = self.0.fail_launch.lock().unwrap().clone() {
            return Err(e);
        }
        self.0.starts.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(FakeRunning(self.0.clone())))
    }

    fn attach(&self, p: &Provider) -> Result<Box<dyn RunningProvider>, String> {
        if p != &provider() {
            return Err(format!("nothing runs for {p}"));
        }
        self.0.attaches.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(FakeRunning(self.0.clone())))
    }
}

fn provider() -> Provider {
    addrs::parse_provider_source_string("acme/x").unwrap()
}

fn package(dir: &Path) -> LocatedProvider {
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("terraform-provider-x_v1.0.0"), b"#!/bin/sh\n").unwrap();
    LocatedProvider {
        provider: provider(),
        version: "1.0.0".into(),
        package_dir: pkg,
    }
}

fn host(fake: &Arc<Fake>, cache: Option<PathBuf>, located: &LocatedProvider) -> ProviderHost {
    ProviderHost::new(
        Arc::new(FakeLauncher(fake.clone())),
        cache,
        [located.clone()],
    )
}

#[test]
fn a_warm_run_starts_no_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    let cold = host(&fake, Some(cache.clone()), &located);
    let (schemas, errors) = cold.load_schemas(&[provider()]);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(schemas[&provider()].resources.contains_key("x_thing"));
    let cfg = Value::object_from([
        ("name", Value::string("INVALID")),
        ("id", Value::null(Type::String)),
    ]);
    let diags = cold.validate_resource_config(&provider(), ResourceMode::Managed, "x_thing", &cfg);
    assert_eq!(diags.len(), 1);
    assert_eq!(cold.starts(), 1);
    drop(cold);

    let warm = host(&fake, Some(cache.clone()), &located);
    let (schemas, errors) = warm.load_schemas(&[provider()]);
    assert!(errors.is_empty());
    assert!(schemas[&provider()].resources.contains_key("x_thing"));
    let again = warm.validate_resource_config(&provider(), ResourceMode::Managed, "x_thing", &cfg);
    assert_eq!(again, diags, "the remembered answer, path included");
    assert_eq!(warm.starts(), 0);
    assert_eq!(fake.starts.load(Ordering::SeqCst), 1);
    assert_eq!(fake.validations.load(Ordering::SeqCst), 1);

    // Another value is another question: the plugin is started for it.
    let other = Value::object_from([
        ("name", Value::string("fine")),
        ("id", Value::null(Type::String)),
    ]);
    assert!(warm
        .validate_resource_config(&provider(), ResourceMode::Managed, "x_thing", &other)
        .is_empty());
    assert_eq!(warm.starts(), 1);
}

#[test]
fn a_changed_executable_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    host(&fake, Some(cache.clone()), &located).load_schemas(&[provider()]);
    std::thread::sleep(std::time::Duration::from_millis(10));
    std::fs::write(
        located.package_dir.join("terraform-provider-x_v1.0.0"),
        b"#!/bin/sh\n# rebuilt\n",
    )
    .unwrap();
    *fake.doc.lock().unwrap() = Some(DOC.replace("x_thing", "x_other"));
    let h = host(&fake, Some(cache), &located);
    let (schemas, _) = h.load_schemas(&[provider()]);
    assert!(schemas[&provider()].resources.contains_key("x_other"));
    assert_eq!(h.starts(), 1);
}

#[test]
fn a_corrupt_entry_is_refetched_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    host(&fake, Some(cache.clone()), &located).load_schemas(&[provider()]);
    let entries: Vec<_> = std::fs::read_dir(cache.join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1);
    std::fs::write(&entries[0], b"{\"truncated").unwrap();
    let h = host(&fake, Some(cache.clone()), &located);
    let (schemas, errors) = h.load_schemas(&[provider()]);
    assert!(errors.is_empty());
    assert!(schemas[&provider()].resources.contains_key("x_thing"));
    assert_eq!(h.starts(), 1);
    // Replaced by a whole entry: the next run is warm again.
    let h = host(&fake, Some(cache), &located);
    h.load_schemas(&[provider()]);
    assert_eq!(h.starts(), 0);
}

#[test]
fn without_a_cache_every_run_asks() {
    let dir = tempfile::tempdir().unwrap();
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    for _ in 0..2 {
        let h = host(&fake, None, &located);
        h.load_schemas(&[provider()]);
        assert_eq!(h.starts(), 1);
    }
}

#[test]
fn launch_failures_and_missing_executables_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    *fake.fail_launch.lock().unwrap() = Some("plugin exited before we could connect".into());
    let (_, errors) = host(&fake, None, &located).load_schemas(&[provider()]);
    assert_eq!(
        errors[0].message,
        "failed to instantiate provider \"registry.opentofu.org/acme/x\" to obtain schema: plugin exited before we could connect"
    );
    let empty = LocatedProvider {
        package_dir: dir.path().join("empty"),
        ..located.clone()
    };
    std::fs::create_dir_all(&empty.package_dir).unwrap();
    let (_, errors) = host(&fake, None, &empty).load_schemas(&[provider()]);
    assert_eq!(
        errors[0].message,
        "failed to instantiate provider \"registry.opentofu.org/acme/x\" to obtain schema: could not find executable file starting with terraform-provider-x"
    );
    let unknown = addrs::parse_provider_source_string("acme/y").unwrap();
    let (_, errors) = host(&fake, None, &located).load_schemas(&[unknown]);
    assert_eq!(
        errors[0].message,
        "failed to instantiate provider \"registry.opentofu.org/acme/y\" to obtain schema: unavailable provider \"registry.opentofu.org/acme/y\""
    );
}

#[test]
fn executable_names_follow_opentofu() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("p");
    std::fs::create_dir_all(pkg.join("terraform-provider-x_dir")).unwrap();
    for name in [
        "terraform-provider-xy",
        "README",
        "terraform-provider-x.exe",
        "terraform-provider-x_v2",
    ] {
        std::fs::write(pkg.join(name), b"").unwrap();
    }
    let located = LocatedProvider {
        provider: provider(),
        version: "1.0.0".into(),
        package_dir: pkg.clone(),
    };
    assert_eq!(
        located.executable().unwrap(),
        pkg.join("terraform-provider-x.exe")
    );
}

#[test]
fn hosts_sharing_schemas_read_each_once() {
    let dir = tempfile::tempdir().unwrap();
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    let share = Arc::new(providerhost::SchemaShare::default());
    let cache = Some(dir.path().join("cache"));
    let hosts: Vec<ProviderHost> = (0..8)
        .map(|_| host(&fake, cache.clone(), &located).sharing(share.clone()))
        .collect();
    let schemas: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = hosts
            .iter()
            .map(|h| s.spawn(|| h.load_schemas(&[provider()]).0))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(fake.starts.load(Ordering::SeqCst), 1);
    for s in &schemas[1..] {
        assert!(Arc::ptr_eq(&s[&provider()], &schemas[0][&provider()]));
    }
}

#[test]
fn an_unmanaged_provider_is_attached_to_and_never_cached() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let located = package(dir.path());
    let fake = Arc::new(Fake::default());
    let cfg = Value::object_from([
        ("name", Value::string("INVALID")),
        ("id", Value::null(Type::String)),
    ]);
    for run in 1..=2 {
        // The installed package of the same address is not used.
        let h = host(&fake, Some(cache.clone()), &located).with_unmanaged([provider()]);
        assert!(h.has_provider(&provider()));
        let (schemas, errors) = h.load_schemas(&[provider()]);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(schemas[&provider()].resources.contains_key("x_thing"));
        let diags = h.validate_resource_config(&provider(), ResourceMode::Managed, "x_thing", &cfg);
        assert_eq!(diags.len(), 1);
        assert_eq!(h.starts(), 0);
        assert_eq!(
            fake.attaches.load(Ordering::SeqCst),
            run,
            "one attach per run"
        );
        assert_eq!(
            fake.validations.load(Ordering::SeqCst),
            run,
            "never answered from the cache"
        );
    }
    assert_eq!(fake.starts.load(Ordering::SeqCst), 0);
    assert!(
        !cache.exists() || std::fs::read_dir(&cache).unwrap().next().is_none(),
        "nothing was cached"
    );
}

#[test]
fn an_unmanaged_provider_that_cannot_be_reached_names_why() {
    let fake = Arc::new(Fake::default());
    let other = addrs::parse_provider_source_string("acme/y").unwrap();
    let h =
        ProviderHost::new(Arc::new(FakeLauncher(fake)), None, []).with_unmanaged([other.clone()]);
    let e = h.schema(&other).unwrap_err();
    assert_eq!(
        e,
        "failed to instantiate provider \"registry.opentofu.org/acme/y\" to obtain schema: nothing runs for registry.opentofu.org/acme/y"
    );
}
