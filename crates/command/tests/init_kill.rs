//! `init` killed with SIGKILL at random points (issue 16): one
//! configuration installs a git module, a registry module and an archive
//! module, three providers through a plugin cache, records a local
//! backend and writes the lock file, against a loopback registry that
//! answers slowly so the kills spread over every phase.
//!
//! After each kill, the files a later run reads are whole and true: the
//! lock file and `.terraform/terraform.tfstate` are absent, the old ones
//! or the new ones; `modules.json` is one of those or a manifest that
//! keeps only records of either (the installer drops a record before it
//! replaces the module's directory), and every directory a record names
//! holds that record's module; every provider directory in `.terraform`
//! and in the cache is a whole package. The next `init` then succeeds and
//! leaves exactly what an uninterrupted run leaves, with no staging
//! leftovers in the working directory. Also: two `init`s sharing one
//! plugin cache at once, and two in one working directory at once.
//!
//! `TOFU_RS_KILL_RUNS` sets the number of kills (default 50) and
//! `TOFU_RS_KILL_SEED` the seed; both are printed, with every kill's
//! trigger and delay, so a failure can be replayed.

#![cfg(unix)]
#![allow(clippy::print_stderr)] // the seed and the kill log, for replaying failures

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use getproviders::testing::{zip_of, Pace, Route, TestRegistry, ZipEntry};
use getproviders::Platform;

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

/// The providers of configuration A and of B. The lock file must differ
/// between them without `-upgrade`, so the set changes (a locked version
/// must stay acceptable, and a changed constraint alone does not rewrite
/// the lock file, as in OpenTofu). Both select alpha 2.0.0 over 1.0.0.
fn providers(conf: Conf) -> [(&'static str, &'static str); 3] {
    let third = match conf {
        Conf::A => "gamma",
        Conf::B => "delta",
    };
    [("alpha", ">= 1.0.0"), ("beta", "1.0.0"), (third, "1.0.0")]
}

/// What the registry publishes.
const PUBLISHED: [(&str, &str); 5] = [
    ("alpha", "1.0.0"),
    ("alpha", "2.0.0"),
    ("beta", "1.0.0"),
    ("gamma", "1.0.0"),
    ("delta", "1.0.0"),
];

/// The module call names; each changes its source between A and B.
const MODULES: [&str; 3] = ["git", "reg", "arch"];

/// How slowly the registry answers while a run is being killed.
const SLOW: Pace = Pace {
    before_response: Duration::from_millis(20),
    chunk_bytes: 16 * 1024,
    chunk_pause: Duration::from_millis(6),
};

/// splitmix64: small, seedable, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Incompressible bytes, the same for the same `label`, so packages are
/// big enough for the slow server to stretch their download.
fn noise(label: &str, len: usize) -> Vec<u8> {
    let mut rng = Rng(label
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31) ^ b as u64));
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(&rng.next().to_le_bytes());
    }
    out.truncate(len);
    out
}

fn provider_package(type_name: &str, version: &str) -> Vec<u8> {
    let script = format!("#!/bin/sh\necho \"terraform-provider-{type_name} {version}\"\n");
    zip_of(&[
        ZipEntry::file(
            &format!("terraform-provider-{type_name}_v{version}"),
            script.as_bytes(),
            0o755,
        ),
        ZipEntry::file(
            "blob.bin",
            &noise(&format!("{type_name}{version}"), 96 * 1024),
            0o644,
        ),
    ])
}

fn module_tar_gz(value: &str) -> Vec<u8> {
    let main = format!("output \"v\" {{\n  value = \"{value}\"\n}}\n");
    let blob = noise(value, 64 * 1024);
    let mut b = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::fast(),
    ));
    for (name, data) in [("main.tf", main.as_bytes()), ("blob.bin", &blob)] {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_cksum();
        b.append_data(&mut h, name, data).unwrap();
    }
    b.into_inner().unwrap().finish().unwrap()
}

/// A repository with tags `v1` and `v2`, each a different `main.tf`.
fn make_git_repo(dir: &Path) {
    let repo = git2::Repository::init(dir).unwrap();
    let mut parent: Option<git2::Oid> = None;
    for tag in ["v1", "v2"] {
        let content = format!("output \"v\" {{\n  value = \"git-{tag}\"\n}}\n");
        let id = support::commit_main_tf(&repo, dir, &content, parent, tag);
        let obj = repo.find_object(id, None).unwrap();
        repo.tag_lightweight(tag, &obj, false).unwrap();
        parent = Some(id);
    }
}

/// Configuration A or B: every module source, the provider constraints
/// and the backend path differ between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Conf {
    A,
    B,
}

impl Conf {
    fn other(self) -> Conf {
        match self {
            Conf::A => Conf::B,
            Conf::B => Conf::A,
        }
    }

    fn n(self) -> u8 {
        match self {
            Conf::A => 1,
            Conf::B => 2,
        }
    }
}

/// One file system entry, as compared between runs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Dir,
    File {
        data: Vec<u8>,
        mode: u32,
    },
    /// A link, its target shown relative to the plugin cache when it
    /// points there (`cache:/...`).
    Link(String),
}

type Tree = BTreeMap<String, Entry>;

/// Names that staging, backups and temporary files carry: what an
/// interrupted run may leave, and no run may trust.
fn is_leftover(name: &str) -> bool {
    let lock_file = name.ends_with(".lock") && name.starts_with('.');
    name.starts_with('.') && !lock_file && name != ".git"
}

/// Everything below `root` except `.git` directories and leftovers
/// (returned apart, as paths relative to `root`).
fn tree(root: &Path, cache: &Path) -> (Tree, Vec<String>) {
    let mut out = Tree::new();
    let mut leftovers = Vec::new();
    walk(root, root, cache, &mut out, &mut leftovers);
    (out, leftovers)
}

fn walk(root: &Path, dir: &Path, cache: &Path, out: &mut Tree, left: &mut Vec<String>) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        if name == ".git" {
            continue;
        }
        if is_leftover(&name) {
            left.push(rel);
            continue;
        }
        let Ok(md) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if md.file_type().is_symlink() {
            let target = std::fs::read_link(&p).unwrap();
            let shown = match target.strip_prefix(cache) {
                Ok(r) => format!("cache:/{}", r.display()),
                Err(_) => target.display().to_string(),
            };
            out.insert(rel, Entry::Link(shown));
        } else if md.is_dir() {
            out.insert(rel, Entry::Dir);
            walk(root, &p, cache, out, left);
        } else {
            let data = std::fs::read(&p).unwrap_or_default();
            let mode = md.permissions().mode() & 0o777;
            out.insert(rel, Entry::File { data, mode });
        }
    }
}

/// What a working directory holds after an `init`.
#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    manifest: Option<Vec<u8>>,
    lock: Option<Vec<u8>>,
    backend: Option<Vec<u8>>,
    /// `.terraform/modules` without the manifest.
    modules: Tree,
    /// `.terraform/providers`.
    providers: Tree,
}

impl Snapshot {
    fn take(work: &Path, cache: &Path) -> (Snapshot, Vec<String>) {
        let read = |p: &str| std::fs::read(work.join(p)).ok();
        let (mut modules, left) = tree(&work.join(".terraform/modules"), cache);
        modules.remove("modules.json");
        let (providers, more) = tree(&work.join(".terraform/providers"), cache);
        let mut left: Vec<String> = left.into_iter().map(|p| format!("modules/{p}")).collect();
        left.extend(more.into_iter().map(|p| format!("providers/{p}")));
        let snap = Snapshot {
            manifest: read(".terraform/modules/modules.json"),
            lock: read(".terraform.lock.hcl"),
            backend: read(".terraform/terraform.tfstate"),
            modules,
            providers,
        };
        (snap, left)
    }

    /// Without the providers `conf` does not use: `init` leaves those of
    /// an earlier configuration in `.terraform/providers`, as OpenTofu
    /// does.
    fn for_conf(mut self, conf: Conf) -> Snapshot {
        let used: Vec<&str> = providers(conf).iter().map(|p| p.0).collect();
        self.providers
            .retain(|k, _| k.split('/').nth(2).is_none_or(|t| used.contains(&t)));
        self
    }

    /// What differs from `other`, readably.
    fn diff(&self, other: &Snapshot) -> String {
        let mut out = String::new();
        for (what, a, b) in [
            ("modules.json", &self.manifest, &other.manifest),
            (".terraform.lock.hcl", &self.lock, &other.lock),
            (
                ".terraform/terraform.tfstate",
                &self.backend,
                &other.backend,
            ),
        ] {
            if a != b {
                let show = |v: &Option<Vec<u8>>| match v {
                    None => "(absent)".to_string(),
                    Some(b) => text(b),
                };
                out.push_str(&format!("{what}:\n{}\n  vs\n{}\n", show(a), show(b)));
            }
        }
        for (what, a, b) in [
            (".terraform/modules", &self.modules, &other.modules),
            (".terraform/providers", &self.providers, &other.providers),
        ] {
            for k in a.keys().chain(b.keys()).collect::<BTreeSet<_>>() {
                let show = |e: Option<&Entry>| match e {
                    None => "(absent)".to_string(),
                    Some(Entry::Dir) => "directory".to_string(),
                    Some(Entry::Link(t)) => format!("link to {t}"),
                    Some(Entry::File { data, mode }) => {
                        format!("file of {} bytes, mode {mode:o}", data.len())
                    }
                };
                if a.get(k) != b.get(k) {
                    out.push_str(&format!(
                        "{what}/{k}: {} vs {}\n",
                        show(a.get(k)),
                        show(b.get(k))
                    ));
                }
            }
        }
        out
    }

    /// The module directory a manifest record names, as installed.
    fn module_files(&self, key: &str) -> Tree {
        let prefix = format!("{key}/");
        self.modules
            .iter()
            .filter_map(|(k, v)| k.strip_prefix(&prefix).map(|r| (r.to_string(), v.clone())))
            .collect()
    }

    fn manifest_records(&self) -> Vec<serde_json::Value> {
        records(self.manifest.as_deref().unwrap_or(b"{}"))
    }
}

fn records(manifest: &[u8]) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_slice(manifest).expect("the manifest is whole JSON");
    v.get("Modules")
        .and_then(|m| m.as_array())
        .cloned()
        .unwrap_or_default()
}

/// The loopback registry, the git repository, the CLI configuration and
/// the plugin cache every run shares.
struct World {
    root: tempfile::TempDir,
    registry: TestRegistry,
    cache: PathBuf,
    repo: PathBuf,
}

impl World {
    fn new() -> World {
        let root = tempfile::tempdir().unwrap();
        let registry = TestRegistry::start();
        let platform = Platform::current();
        for (ty, v) in PUBLISHED {
            registry.publish(
                "hashicorp",
                ty,
                v,
                &[(platform.clone(), provider_package(ty, v))],
            );
        }
        let s = &registry.server;
        s.route(
            "/v1/modules/hashicorp/thing/aws/versions",
            Route::json(&serde_json::json!({"modules": [{
                "source": "hashicorp/thing/aws",
                "versions": [{"version": "1.0.0"}, {"version": "2.0.0"}],
            }]})),
        );
        for n in [1, 2] {
            s.route(
                &format!("/v1/modules/hashicorp/thing/aws/{n}.0.0/download"),
                Route::json(&serde_json::json!({
                    "location": s.url(&format!("/archives/thing-{n}.0.0.tar.gz"))
                })),
            );
            s.route(
                &format!("/archives/thing-{n}.0.0.tar.gz"),
                Route::bytes(module_tar_gz(&format!("reg-{n}"))),
            );
            s.route(
                &format!("/archives/arch-v{n}.tar.gz"),
                Route::bytes(module_tar_gz(&format!("arch-{n}"))),
            );
        }
        let repo = root.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        make_git_repo(&repo);
        std::fs::write(
            root.path().join("cli.tfrc"),
            format!(
                "host \"registry.opentofu.org\" {{\n  services = {{\n    \"providers.v1\" = \"{}\"\n    \"modules.v1\" = \"{}\"\n  }}\n}}\nprovider_installation {{\n  direct {{}}\n}}\n",
                s.url("/v1/providers/"),
                s.url("/v1/modules/")
            ),
        )
        .unwrap();
        let cache = root.path().join("cache");
        std::fs::create_dir_all(&cache).unwrap();
        std::fs::create_dir_all(root.path().join("tmp")).unwrap();
        World {
            root,
            registry,
            cache,
            repo,
        }
    }

    fn main_tf(&self, conf: Conf) -> String {
        let n = conf.n();
        let mut required = String::new();
        for (name, constraint) in providers(conf) {
            required.push_str(&format!(
                "    {name} = {{\n      source  = \"hashicorp/{name}\"\n      version = \"{constraint}\"\n    }}\n"
            ));
        }
        format!(
            "terraform {{\n  backend \"local\" {{\n    path = \"state-{n}.tfstate\"\n  }}\n  required_providers {{\n{required}  }}\n}}\n\nmodule \"git\" {{\n  source = \"git::file://{}?ref=v{n}\"\n}}\n\nmodule \"reg\" {{\n  source  = \"hashicorp/thing/aws\"\n  version = \"{n}.0.0\"\n}}\n\nmodule \"arch\" {{\n  source = \"{}\"\n}}\n",
            self.repo.display(),
            self.registry
                .server
                .url(&format!("/archives/arch-v{n}.tar.gz"))
        )
    }

    fn new_work_dir(&self, name: &str) -> PathBuf {
        let w = self.root.path().join(name);
        std::fs::create_dir_all(&w).unwrap();
        w
    }

    fn tmp(&self) -> PathBuf {
        self.root.path().join("tmp")
    }

    /// `init` in `work` for `conf`, with the shared CLI configuration,
    /// plugin cache and temporary directory.
    fn init(&self, work: &Path, conf: Conf, extra: &[&str]) -> Command {
        std::fs::write(work.join("main.tf"), self.main_tf(conf)).unwrap();
        self.command(work, extra)
    }

    fn command(&self, work: &Path, extra: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(["init", "-input=false", "-no-color", "-reconfigure"])
            .args(extra)
            .current_dir(work)
            .stdin(Stdio::null());
        for (k, _) in std::env::vars() {
            if k.starts_with("TF_") {
                cmd.env_remove(k);
            }
        }
        let home = self.root.path().join("home");
        cmd.env("TF_CLI_CONFIG_FILE", self.root.path().join("cli.tfrc"))
            .env("TF_PLUGIN_CACHE_DIR", &self.cache)
            .env("TF_MODULE_CACHE_DIR", self.module_cache())
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env("TMPDIR", self.tmp())
            .env_remove("NO_COLOR");
        cmd
    }

    /// The module cache (`TF_MODULE_CACHE_DIR`) every run shares.
    fn module_cache(&self) -> PathBuf {
        self.root.path().join("module-cache")
    }

    fn snapshot(&self, work: &Path) -> (Snapshot, Vec<String>) {
        Snapshot::take(work, &self.cache)
    }

    fn cache_tree(&self) -> (Tree, Vec<String>) {
        tree(&self.cache, &self.cache)
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn assert_success(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what} failed ({:?})\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// Removes the working directory's `init` products (a fresh start).
fn clear_work_dir(work: &Path) {
    let _ = std::fs::remove_dir_all(work.join(".terraform"));
    let _ = std::fs::remove_file(work.join(".terraform.lock.hcl"));
}

/// The uninterrupted results for A and B, from a fresh directory and
/// after the other configuration (they must agree), and the cache as
/// those runs fill it.
struct References {
    snap: BTreeMap<Conf, Snapshot>,
    cache: Tree,
}

impl References {
    fn compute(world: &World) -> References {
        let mut snap = BTreeMap::new();
        for conf in [Conf::A, Conf::B] {
            let w = world.new_work_dir(&format!("ref-{conf:?}"));
            let out = world.init(&w, conf, &[]).output().unwrap();
            assert_success(&out, "reference init");
            let (s, left) = world.snapshot(&w);
            let s = s.for_conf(conf);
            assert!(left.is_empty(), "leftovers after a clean run: {left:?}");
            // From the other configuration's complete state: the same.
            let out = world.init(&w, conf.other(), &[]).output().unwrap();
            assert_success(&out, "reference init");
            let out = world.init(&w, conf, &[]).output().unwrap();
            assert_success(&out, "reference init");
            let (again, _) = world.snapshot(&w);
            let again = again.for_conf(conf);
            assert!(
                again == s,
                "{conf:?} after {:?} differs from fresh:\n{}",
                conf.other(),
                again.diff(&s)
            );
            for key in MODULES {
                assert!(!s.module_files(key).is_empty(), "module {key} is installed");
            }
            snap.insert(conf, s);
        }
        let (cache, left) = world.cache_tree();
        assert!(
            left.is_empty(),
            "cache leftovers after clean runs: {left:?}"
        );
        References { snap, cache }
    }
}

/// What a poll of the working directory looks for before it kills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Trigger {
    /// A delay drawn from the whole run's length.
    Timer,
    BackendRecorded,
    ModuleStaging,
    ModuleInPlace,
    ManifestWritten,
    ProviderDownloading,
    CacheStaging,
    ProviderInPlace,
    LockWritten,
}

const EVENTS: [Trigger; 8] = [
    Trigger::BackendRecorded,
    Trigger::ModuleStaging,
    Trigger::ModuleInPlace,
    Trigger::ManifestWritten,
    Trigger::ProviderDownloading,
    Trigger::CacheStaging,
    Trigger::ProviderInPlace,
    Trigger::LockWritten,
];

fn names_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Directories `depth` levels below `root`.
fn dirs_at(root: &Path, depth: usize) -> Vec<PathBuf> {
    let mut level = vec![root.to_path_buf()];
    for _ in 0..depth {
        level = level
            .iter()
            .flat_map(|d| names_in(d).into_iter().map(move |n| d.join(n)))
            .collect();
    }
    level
}

impl Trigger {
    /// Whether the event has happened, given the files before the run.
    fn fired(self, world: &World, work: &Path, before: &Snapshot, target: &Snapshot) -> bool {
        let read = |p: &str| std::fs::read(work.join(p)).ok();
        match self {
            Trigger::Timer => false,
            Trigger::BackendRecorded => {
                read(".terraform/terraform.tfstate") == target.backend
                    && before.backend != target.backend
            }
            Trigger::ModuleStaging => names_in(&work.join(".terraform/modules"))
                .iter()
                .any(|n| n.starts_with(".tofu-rs-fetch-")),
            Trigger::ModuleInPlace => MODULES.iter().any(|k| {
                let main = format!("{k}/main.tf");
                let want = match target.modules.get(&main) {
                    Some(Entry::File { data, .. }) => data,
                    _ => return false,
                };
                before.modules.get(&main) != target.modules.get(&main)
                    && read(&format!(".terraform/modules/{main}")).as_ref() == Some(want)
            }),
            Trigger::ManifestWritten => read(".terraform/modules/modules.json") != before.manifest,
            Trigger::ProviderDownloading => dirs_at(&world.cache, 4)
                .iter()
                .any(|d| names_in(d).iter().any(|n| n.starts_with(".tmp-download-"))),
            Trigger::CacheStaging => dirs_at(&world.cache, 4).iter().any(|d| {
                names_in(d)
                    .iter()
                    .any(|n| n.starts_with(".tmp-") && !n.starts_with(".tmp-download-"))
            }),
            Trigger::ProviderInPlace => {
                dirs_at(&work.join(".terraform/providers"), 5)
                    .iter()
                    .any(|d| {
                        let rel = d
                            .strip_prefix(work.join(".terraform/providers"))
                            .unwrap()
                            .display()
                            .to_string();
                        !before.providers.contains_key(&rel) && target.providers.contains_key(&rel)
                    })
            }
            Trigger::LockWritten => read(".terraform.lock.hcl") != before.lock,
        }
    }
}

/// How far a killed run had come, judged by the files it left.
fn phase(now: &Snapshot, old: &Snapshot, new: &Snapshot) -> String {
    let changed = |a: &Option<Vec<u8>>, o: &Option<Vec<u8>>, n: &Option<Vec<u8>>| a == n && o != n;
    if changed(&now.lock, &old.lock, &new.lock) {
        return "lock file written".into();
    }
    let names = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    if changed(&now.manifest, &old.manifest, &new.manifest) {
        // The packages this run had to put in place, and those it had.
        let (done, todo): (Vec<String>, Vec<String>) = new
            .providers
            .keys()
            .filter(|k| is_package(k) && old.providers.get(*k) != new.providers.get(*k))
            .map(|k| k.split('/').nth(2).unwrap_or(k).to_string())
            .partition(|t| {
                new.providers
                    .keys()
                    .filter(|k| is_package(k) && k.split('/').nth(2) == Some(t))
                    .all(|k| now.providers.get(k) == new.providers.get(k))
            });
        return format!(
            "providers (in place: {}; to do: {})",
            names(done),
            names(todo)
        );
    }
    if changed(&now.backend, &old.backend, &new.backend) {
        let done: Vec<String> = MODULES
            .iter()
            .filter(|k| {
                let f = now.module_files(k);
                !f.is_empty() && f == new.module_files(k)
            })
            .map(|k| k.to_string())
            .collect();
        return format!("modules (in place: {})", names(done));
    }
    "before the backend record".into()
}

/// The kill-time checks: every file a later run reads is absent, old,
/// new, or (the manifest) made of old and new records that are true.
fn check_killed(world: &World, work: &Path, old: &Snapshot, new: &Snapshot, refs: &References) {
    let (now, _) = world.snapshot(work);
    for (what, got, o, n) in [
        ("lock file", &now.lock, &old.lock, &new.lock),
        ("backend record", &now.backend, &old.backend, &new.backend),
    ] {
        assert!(
            got.is_none() || got == o || got == n,
            "{what} is neither absent, old nor new:\n{}",
            text(got.as_deref().unwrap_or_default())
        );
    }
    if let Some(m) = &now.manifest {
        let old_records = old.manifest_records();
        let new_records = new.manifest_records();
        for r in records(m) {
            let key = r["Key"].as_str().unwrap().to_string();
            if key.is_empty() {
                continue;
            }
            let from = if old_records.contains(&r) {
                old
            } else if new_records.contains(&r) {
                new
            } else {
                panic!("manifest record {r} is neither old nor new:\n{}", text(m));
            };
            // A recorded directory is trusted by the next run: it must be
            // that record's module (or gone, which the next run notices).
            let files = now.module_files(&key);
            assert!(
                files.is_empty() || files == from.module_files(&key),
                "module {key} does not hold what modules.json records ({r})"
            );
        }
    }
    // Provider directories in `.terraform` are links into the cache; a
    // package in the cache is whole. (A link whose target is gone is
    // not trusted: the next run finds no directory there.)
    let (cache, _) = world.cache_tree();
    for (k, e) in now.providers.iter().filter(|(k, _)| is_package(k)) {
        let Entry::Link(target) = e else {
            panic!("provider {k} is not a link into the cache: {e:?}");
        };
        let rel = target
            .strip_prefix("cache:/")
            .expect("links into the cache");
        assert!(is_package(rel), "provider {k} links to {target}");
    }
    for pkg in cache.keys().filter(|k| is_package(k)) {
        assert_eq!(
            subtree(&cache, pkg),
            subtree(&refs.cache, pkg),
            "cache package {pkg} is not whole"
        );
    }
}

/// `host/namespace/type/version/os_arch`: a package directory's path.
fn is_package(rel: &str) -> bool {
    rel.matches('/').count() == 4
}

fn subtree(t: &Tree, prefix: &str) -> Tree {
    let p = format!("{prefix}/");
    t.iter()
        .filter_map(|(k, v)| k.strip_prefix(&p).map(|r| (r.to_string(), v.clone())))
        .collect()
}

/// The result of one kill, for the summary.
struct KillRecord {
    trigger: Trigger,
    phase: String,
    leftovers: Vec<String>,
    fired: bool,
}

/// Kinds of leftover by where they are, for the summary.
fn leftover_kind(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.starts_with(".tofu-rs-fetch-") {
        "module staging"
    } else if path.starts_with("tmp/") {
        "TMPDIR"
    } else if name.starts_with(".tmp-download-") {
        "partial provider download"
    } else if path.starts_with("cache/") {
        "plugin cache staging"
    } else if name.starts_with(".modules.json") {
        "manifest temp"
    } else if name.starts_with(".terraform.lock.hcl") {
        "lock file temp"
    } else if name.starts_with(".terraform.tfstate") {
        "backend record temp"
    } else {
        "provider staging in .terraform"
    }
}

/// Every leftover in the working directory, the cache and TMPDIR, paths
/// prefixed by where they are.
fn all_leftovers(world: &World, work: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let (_, l) = world.snapshot(work);
    out.extend(l.into_iter().map(|p| format!(".terraform/{p}")));
    for n in names_in(&work.join(".terraform")) {
        if is_leftover(&n) && n != ".tofu-rs-init.lock" {
            out.push(format!(".terraform/{n}"));
        }
    }
    for n in names_in(work) {
        if n.starts_with(".terraform.lock.hcl") && n != ".terraform.lock.hcl" {
            out.push(n);
        }
    }
    let (_, l) = world.cache_tree();
    out.extend(l.into_iter().map(|p| format!("cache/{p}")));
    out.extend(
        names_in(&world.tmp())
            .into_iter()
            .map(|n| format!("tmp/{n}")),
    );
    out
}

fn runs() -> usize {
    std::env::var("TOFU_RS_KILL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50)
}

fn seed() -> u64 {
    std::env::var("TOFU_RS_KILL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        })
}

/// Runs `cmd` slowly served and returns how long it took.
fn timed_slow(world: &World, mut cmd: Command) -> Duration {
    world.registry.server.set_pace(SLOW);
    let start = Instant::now();
    let out = cmd.output().unwrap();
    let took = start.elapsed();
    world.registry.server.set_pace(Pace::NONE);
    assert_success(&out, "measured init");
    took
}

#[test]
fn sigkill_at_random_points_then_the_next_init_recovers() {
    let started = Instant::now();
    let seed = seed();
    let runs = runs();
    eprintln!("init_kill: seed {seed} (TOFU_RS_KILL_SEED), {runs} runs (TOFU_RS_KILL_RUNS)");
    let mut rng = Rng(seed);
    let world = World::new();
    let refs = References::compute(&world);
    let work = world.new_work_dir("work");

    // How long whole slow runs take, fresh and after the other
    // configuration: the ranges timed kills are drawn from.
    let mut fresh_len = timed_slow(&world, world.init(&work, Conf::A, &[]));
    let mut change_len = timed_slow(&world, world.init(&work, Conf::B, &[]));
    eprintln!("init_kill: slow runs take {fresh_len:?} fresh, {change_len:?} after a change");
    let mut current = Some(Conf::B);
    let mut log: Vec<KillRecord> = Vec::new();

    // Runs that finish before their kill (a timer past the end on a busy
    // machine, an event that never came) do not count: go on until
    // `runs` runs were killed.
    let mut killed = 0;
    let mut i = 0;
    while killed < runs {
        assert!(i < runs * 3, "only {killed} of {i} runs were killed");
        // A fresh directory now and then (sometimes with a fresh cache);
        // otherwise the complete state of the other configuration.
        let fresh = current.is_none() || rng.chance(25);
        if fresh {
            clear_work_dir(&work);
            if rng.chance(33) {
                let _ = std::fs::remove_dir_all(&world.cache);
                std::fs::create_dir_all(&world.cache).unwrap();
                let _ = std::fs::remove_dir_all(world.module_cache());
            }
        }
        let target = match (fresh, current) {
            (false, Some(c)) => c.other(),
            _ => {
                if rng.chance(50) {
                    Conf::A
                } else {
                    Conf::B
                }
            }
        };
        let (before, _) = world.snapshot(&work);
        let new = &refs.snap[&target];

        let trigger = if rng.chance(50) {
            Trigger::Timer
        } else {
            EVENTS[rng.below(EVENTS.len() as u64) as usize]
        };
        let span = if fresh { fresh_len } else { change_len };
        let delay = Duration::from_micros(rng.below(span.as_micros() as u64 + 1));
        let jitter = Duration::from_micros(rng.below(3000));
        world.registry.server.set_pace(SLOW);
        let mut cmd = world.init(&work, target, &[]);
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        let mut child: Child = cmd.spawn().unwrap();
        let start = Instant::now();
        let mut fired = false;
        loop {
            if let Some(_status) = child.try_wait().unwrap() {
                break;
            }
            let due = match trigger {
                Trigger::Timer => start.elapsed() >= delay,
                t => t.fired(&world, &work, &before, new),
            };
            if due {
                fired = true;
                if trigger != Trigger::Timer {
                    std::thread::sleep(jitter);
                }
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_micros(300));
        }
        let status = child.wait().unwrap();
        let at = start.elapsed();
        world.registry.server.set_pace(Pace::NONE);
        if fired {
            killed += 1;
        } else {
            // A whole run: timed kills are drawn from no longer a span.
            let len = if fresh {
                &mut fresh_len
            } else {
                &mut change_len
            };
            *len = (*len).min(at);
        }
        if !fired {
            assert!(status.success(), "run {i}: init failed without a kill");
        }

        let old_snap = match (fresh, current) {
            (false, Some(c)) => refs.snap[&c].clone(),
            _ => before.clone(),
        };
        let (now, _) = world.snapshot(&work);
        let phase = phase(&now, &old_snap, new);
        let leftovers = all_leftovers(&world, &work);
        eprintln!(
            "init_kill: run {i}: {} -> {target:?}, {trigger:?}{}, killed at {at:?}{}: {phase}; leftovers {leftovers:?}",
            if fresh { "fresh".to_string() } else { format!("{:?}", current.unwrap()) },
            if trigger == Trigger::Timer { format!(" {delay:?}") } else { format!(" +{jitter:?}") },
            if fired { "" } else { " (not killed: it finished)" },
        );
        check_killed(&world, &work, &old_snap, new, &refs);

        // The next init, usually for the same configuration, sometimes
        // back to the one before (a record of the old module must not
        // be trusted if its directory now holds the new one).
        // (Not once the new lock file is written: it holds a provider
        // version the old configuration refuses, as it would for anyone.)
        let recover = match (fresh, current) {
            (false, Some(c)) if rng.chance(25) && now.lock != new.lock => c,
            _ => target,
        };
        let out = world.init(&work, recover, &[]).output().unwrap();
        assert_success(&out, &format!("run {i}: init after the kill"));
        let (after, left) = world.snapshot(&work);
        let after = after.for_conf(recover);
        assert!(
            after == refs.snap[&recover],
            "run {i}: init after the kill ({recover:?}) differs from an uninterrupted one:\n{}",
            after.diff(&refs.snap[&recover])
        );
        assert!(
            left.is_empty(),
            "run {i}: leftovers after recovery: {left:?}"
        );
        let stray: Vec<String> = all_leftovers(&world, &work)
            .into_iter()
            .filter(|p| !p.starts_with("cache/") && !p.starts_with("tmp/"))
            .collect();
        assert!(
            stray.is_empty(),
            "run {i}: leftovers after recovery: {stray:?}"
        );
        // What the cache holds is whole (checked against the references).
        let (cache, _) = world.cache_tree();
        for (k, e) in &cache {
            assert_eq!(refs.cache.get(k), Some(e), "run {i}: cache entry {k}");
        }
        // Every module cache entry in use is whole: a kill while one was
        // filled left it in staging, never in `packages/` without its
        // manifest (which is written last).
        for entry in names_in(&world.module_cache().join("packages")) {
            let dir = world.module_cache().join("packages").join(&entry);
            assert!(
                dir.join("manifest.json").is_file(),
                "run {i}: module cache entry {entry} has no manifest"
            );
        }
        // Nothing is downloaded to TMPDIR, where no run would clean up.
        let tmp = names_in(&world.tmp());
        assert!(tmp.is_empty(), "run {i}: left in TMPDIR: {tmp:?}");
        current = Some(recover);
        log.push(KillRecord {
            trigger,
            phase,
            leftovers,
            fired,
        });
        i += 1;
    }

    // Every version used once more: cache leftovers are cleaned when their
    // version is next installed or linked.
    for conf in [Conf::A, Conf::B] {
        let out = world.init(&work, conf, &[]).output().unwrap();
        assert_success(&out, "final init");
    }
    let (_, left) = world.cache_tree();
    assert!(left.is_empty(), "cache leftovers at the end: {left:?}");

    let mut phases: BTreeMap<String, usize> = BTreeMap::new();
    let mut triggers: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &log {
        let main = r.phase.split(" (").next().unwrap().to_string();
        *phases.entry(main).or_default() += 1;
        *phases.entry(r.phase.clone()).or_default() += usize::from(r.phase.contains('('));
        *triggers
            .entry(format!(
                "{:?}{}",
                r.trigger,
                if r.fired { "" } else { " (finished first)" }
            ))
            .or_default() += 1;
        for k in r
            .leftovers
            .iter()
            .map(|p| leftover_kind(p))
            .collect::<BTreeSet<_>>()
        {
            *kinds.entry(k).or_default() += 1;
        }
    }
    phases.retain(|_, n| *n > 0);
    eprintln!("init_kill: phases hit: {phases:#?}");
    eprintln!("init_kill: triggers: {triggers:#?}");
    eprintln!("init_kill: kills that left each kind of leftover: {kinds:#?}");
    eprintln!(
        "init_kill: {killed} kills in {} runs, {:?}",
        log.len(),
        started.elapsed()
    );
}

/// Two `init`s in different directories, one plugin cache, started
/// together: both succeed and the cache ends whole.
#[test]
fn two_inits_sharing_a_plugin_cache_both_succeed() {
    let world = World::new();
    let refs = References::compute(&world);
    for round in 0..4 {
        // Empty cache each round, so both want to fill it at once; in odd
        // rounds both have the lock file already (the cache is then
        // trusted once filled); in the last the two configurations differ.
        let _ = std::fs::remove_dir_all(&world.cache);
        std::fs::create_dir_all(&world.cache).unwrap();
        let confs = if round == 3 {
            [Conf::A, Conf::B]
        } else {
            [Conf::A, Conf::A]
        };
        let dirs: Vec<PathBuf> = (0..2)
            .map(|n| {
                let d = world.new_work_dir(&format!("shared-{round}-{n}"));
                if round % 2 == 1 {
                    std::fs::write(
                        d.join(".terraform.lock.hcl"),
                        refs.snap[&confs[n]].lock.as_ref().unwrap(),
                    )
                    .unwrap();
                }
                d
            })
            .collect();
        world.registry.server.set_pace(Pace {
            before_response: Duration::from_millis(5),
            ..SLOW
        });
        let children: Vec<Child> = dirs
            .iter()
            .zip(confs)
            .map(|(d, c)| {
                let mut cmd = world.init(d, c, &[]);
                cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
                cmd.spawn().unwrap()
            })
            .collect();
        for ((child, d), c) in children.into_iter().zip(&dirs).zip(confs) {
            let out = child.wait_with_output().unwrap();
            assert_success(&out, &format!("round {round}: concurrent init"));
            let (snap, left) = world.snapshot(d);
            let snap = snap.for_conf(c);
            assert!(
                snap == refs.snap[&c],
                "round {round}:\n{}",
                snap.diff(&refs.snap[&c])
            );
            assert!(left.is_empty(), "round {round}: {left:?}");
        }
        world.registry.server.set_pace(Pace::NONE);
        let (cache, left) = world.cache_tree();
        assert!(left.is_empty(), "round {round}: cache leftovers {left:?}");
        for (k, e) in &cache {
            assert_eq!(refs.cache.get(k), Some(e), "round {round}: cache entry {k}");
        }
    }
}

/// Two `init`s in one directory at once: the second waits for the first
/// (or, told not to wait, fails with the lock error); either way the
/// directory ends valid.
#[test]
fn two_inits_in_one_directory_leave_it_valid() {
    let world = World::new();
    let refs = References::compute(&world);
    let work = world.new_work_dir("same");
    // (configuration, fresh start, how many at once, the last impatient)
    let rounds = [
        (Conf::A, true, 2, false),
        (Conf::A, false, 2, true),
        (Conf::B, true, 3, false),
        (Conf::A, false, 3, true),
        (Conf::B, true, 3, false),
    ];
    for (round, (conf, fresh, n, impatient)) in rounds.into_iter().enumerate() {
        if fresh {
            clear_work_dir(&work);
        }
        world.registry.server.set_pace(SLOW);
        std::fs::write(work.join("main.tf"), world.main_tf(conf)).unwrap();
        let children: Vec<Child> = (0..n)
            .map(|i| {
                let extra: &[&str] = if impatient && i == n - 1 {
                    &["-lock-timeout=0s"]
                } else {
                    &[]
                };
                let mut cmd = world.command(&work, extra);
                cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
                cmd.spawn().unwrap()
            })
            .collect();
        let outs: Vec<Output> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        world.registry.server.set_pace(Pace::NONE);
        for (i, out) in outs.iter().enumerate() {
            if out.status.success() {
                continue;
            }
            let stderr = text(&out.stderr);
            assert!(
                impatient && i == n - 1 && stderr.contains("Error: Working directory is locked"),
                "round {round}: init {i} failed other than an impatient one on the lock:\n{stderr}"
            );
        }
        let out = world.command(&work, &[]).output().unwrap();
        assert_success(&out, "the init after");
        let (snap, left) = world.snapshot(&work);
        let snap = snap.for_conf(conf);
        assert!(
            snap == refs.snap[&conf],
            "round {round}:\n{}",
            snap.diff(&refs.snap[&conf])
        );
        assert!(left.is_empty(), "round {round}: {left:?}");
    }
}
