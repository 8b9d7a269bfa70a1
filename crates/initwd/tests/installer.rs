//! The per-call install rules, end to end: local modules, git packages,
//! a loopback registry serving git and archive packages, reuse of the
//! manifest on a second run, and deduplicated fetches from many threads.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use addrs::{parse_module_source, Module, ModuleSource};
use common::{read, tar_gz, Reply, TestRepo, TestServer};
use hclsyntax::{Pos, Range};
use initwd::{
    download_line, install_line, HttpSettings, InstallHooks, InstallRequest, InstalledModule,
    InstallerConfig, Manifest, ModuleInstaller, PackageContext, PackageFetcher, RegistryClient,
    RegistryHosts, RegistryOptions, Version,
};

#[derive(Default)]
struct Lines(Mutex<Vec<String>>);

impl InstallHooks for Lines {
    fn download(&self, key: &str, package: &str, version: Option<&Version>) {
        self.0
            .lock()
            .unwrap()
            .push(download_line(key, package, version));
    }
    fn install(&self, key: &str, _version: Option<&Version>, dir: &str) {
        self.0.lock().unwrap().push(install_line(key, dir));
    }
}

fn call_range(line: usize) -> Range {
    let p = Pos::at(line, 1, 0);
    Range::new("main.tf".into(), p, p)
}

struct Env {
    work: tempfile::TempDir,
    hooks: Arc<Lines>,
}

impl Env {
    fn new() -> Env {
        Env {
            work: tempfile::tempdir().unwrap(),
            hooks: Arc::new(Lines::default()),
        }
    }

    fn write(&self, rel: &str, content: &str) {
        let p = self.work.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    fn installer(&self, registry: Option<RegistryClient>, upgrade: bool) -> ModuleInstaller {
        let mut cfg = InstallerConfig::new(self.work.path());
        cfg.upgrade = upgrade;
        ModuleInstaller::new(
            cfg,
            std::sync::Arc::new(PackageFetcher::new(HttpSettings::default())),
            registry,
            self.hooks.clone(),
        )
        .unwrap()
    }

    fn lines(&self) -> Vec<String> {
        std::mem::take(&mut *self.hooks.0.lock().unwrap())
    }
}

fn install(
    inst: &ModuleInstaller,
    path: &[&str],
    source: &str,
    version: Option<&str>,
    parent: Option<&PackageContext>,
) -> Result<InstalledModule, hclsyntax::Diagnostics> {
    let path = Module(path.iter().map(|s| s.to_string()).collect());
    let parent_path = Module(path.0[..path.0.len() - 1].to_vec());
    let source = parse_module_source(source).unwrap();
    inst.install(&InstallRequest {
        path: &path,
        parent_path: &parent_path,
        source: &source,
        version,
        parent_package: parent,
        call_range: &call_range(3),
    })
}

fn only_error(r: Result<InstalledModule, hclsyntax::Diagnostics>) -> (String, String) {
    let diags = r.unwrap_err();
    let errs: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errs.len(), 1, "{diags:#?}");
    (errs[0].summary.clone(), errs[0].detail.clone())
}

#[test]
fn local_modules_and_manifest() {
    let env = Env::new();
    env.write("modules/vpc/main.tf", "");
    env.write("modules/shared/main.tf", "");
    let inst = env.installer(None, false);
    let vpc = install(&inst, &["vpc"], "./modules/vpc", None, None).unwrap();
    assert_eq!(vpc.dir, "modules/vpc");
    assert_eq!(vpc.package, None);
    let shared = install(
        &inst,
        &["vpc", "shared"],
        "../shared",
        None,
        vpc.package.as_ref(),
    )
    .unwrap();
    assert_eq!(shared.dir, "modules/shared");
    inst.write_manifest().unwrap();
    assert_eq!(
        read(env.work.path().join(".terraform/modules/modules.json")),
        r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"./modules/vpc","Dir":"modules/vpc"},{"Key":"vpc.shared","Source":"../shared","Dir":"modules/shared"}]}"#
    );
    assert_eq!(
        env.lines(),
        ["- vpc in modules/vpc", "- vpc.shared in modules/shared"]
    );
}

#[cfg(unix)]
#[test]
fn local_symlinks_are_resolved() {
    let env = Env::new();
    env.write("real/child/main.tf", "");
    std::os::unix::fs::symlink("real/child", env.work.path().join("linked")).unwrap();
    let inst = env.installer(None, false);
    let m = install(&inst, &["c"], "./linked", None, None).unwrap();
    assert_eq!(m.dir, "real/child");
}

#[test]
fn local_errors() {
    let env = Env::new();
    env.write("modules/vpc/main.tf", "");
    let inst = env.installer(None, false);
    let (s, d) = only_error(install(
        &inst,
        &["vpc"],
        "./modules/vpc",
        Some("1.0.0"),
        None,
    ));
    assert_eq!(s, "Invalid version constraint");
    assert_eq!(
        d,
        "Cannot apply a version constraint to module \"vpc\" (at main.tf:3) because it has a relative local path."
    );
    let diags = install(&inst, &["nope"], "./nope", None, None).unwrap_err();
    assert_eq!(diags[0].summary, "Unreadable module directory");
    assert_eq!(
        diags[0].detail,
        "Unable to evaluate directory symlink: lstat nope: no such file or directory"
    );
}

fn git_package() -> TestRepo {
    let r = TestRepo::new();
    r.commit(
        &[
            ("main.tf", Some("# net\n")),
            ("modules/sub/main.tf", Some("# sub\n")),
            ("modules/other/main.tf", Some("# other\n")),
        ],
        "v1",
    );
    r.tag("v1.0.0");
    r
}

#[test]
fn git_package_with_subdir_and_local_calls_inside() {
    let repo = git_package();
    let env = Env::new();
    let inst = env.installer(None, false);
    let src = format!("{}//modules/sub?ref=v1.0.0", repo.source(""));
    let sub = install(&inst, &["net"], &src, None, None).unwrap();
    assert_eq!(sub.dir, ".terraform/modules/net/modules/sub");
    assert_eq!(
        read(env.work.path().join(&sub.dir).join("main.tf")),
        "# sub\n"
    );
    // A local call inside the package stays in it...
    let other = install(
        &inst,
        &["net", "other"],
        "../other",
        None,
        sub.package.as_ref(),
    )
    .unwrap();
    assert_eq!(other.dir, ".terraform/modules/net/modules/other");
    // ...and one that climbs out of it is refused.
    let (s, d) = only_error(install(
        &inst,
        &["net", "escape"],
        "../../../elsewhere",
        None,
        sub.package.as_ref(),
    ));
    assert_eq!(s, "Local module path escapes module package");
    assert_eq!(
        d,
        format!(
            "The given source directory for module.net.module.escape would be outside of its containing package {}. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.",
            addrs::go_quote(&repo.source("ref=v1.0.0"))
        )
    );
    let lines = env.lines();
    assert_eq!(
        lines[..2],
        [
            format!("Downloading {} for net...", repo.source("ref=v1.0.0")),
            "- net in .terraform/modules/net/modules/sub".to_string(),
        ]
    );
}

#[test]
fn git_errors() {
    let repo = git_package();
    let env = Env::new();
    let inst = env.installer(None, false);
    let (s, d) = only_error(install(&inst, &["a"], &repo.source("ref=nope"), None, None));
    assert_eq!(s, "Failed to download module");
    assert!(
        d.starts_with(
            "Could not download module \"a\" (main.tf:3) source code from \"git::file://"
        ),
        "{d}"
    );
    assert!(d.ends_with("invalid ref: \"nope\""), "{d}");
    assert!(!env.work.path().join(".terraform/modules/a").exists());

    let src = format!("{}//missing", repo.source(""));
    let (s, d) = only_error(install(&inst, &["b"], &src, None, None));
    assert_eq!(
        (s.as_str(), d.as_str()),
        (
            "Failed to expand subdir globs",
            "subdir \"missing\" not found"
        )
    );

    let (s, d) = only_error(install(&inst, &["c"], &repo.source(""), Some("1.0"), None));
    assert_eq!(s, "Invalid version constraint");
    assert_eq!(d, "Cannot apply a version constraint to module \"c\" (at main.tf:3) because it doesn't come from a module registry.");
}

/// A registry on loopback whose `ns/net/aws` versions download from a
/// git repository and whose `ns/arch/aws` downloads an archive.
fn registry_server(repo_url: String) -> TestServer {
    let archive = tar_gz(&[
        ("arch-1.0.0/main.tf", "# arch\n"),
        ("arch-1.0.0/sub/main.tf", "# arch sub\n"),
    ]);
    TestServer::start(move |path| match path {
        "/v1/modules/ns/net/aws/versions" => Reply::json(
            200,
            r#"{"modules":[{"versions":[{"version":"0.9.0"},{"version":"1.0.0"},{"version":"1.1.0-rc1"},{"version":"not-a-version"}]}]}"#,
        ),
        "/v1/modules/ns/net/aws/1.0.0/download" | "/v1/modules/ns/net/aws/0.9.0/download" => {
            Reply::Http(
                204,
                vec![("X-Terraform-Get".into(), repo_url.clone())],
                Vec::new(),
            )
        }
        "/v1/modules/ns/arch/aws/versions" => {
            Reply::json(200, r#"{"modules":[{"versions":[{"version":"1.0.0"}]}]}"#)
        }
        "/v1/modules/ns/arch/aws/1.0.0/download" => {
            Reply::json(200, r#"{"location":"/files/arch.tar.gz//*"}"#)
        }
        "/files/arch.tar.gz" => Reply::Http(200, Vec::new(), archive.clone()),
        "/v1/modules/ns/empty/aws/versions" => Reply::json(200, r#"{"modules":[{"versions":[]}]}"#),
        _ => Reply::status(404),
    })
}

fn registry_client(server: &TestServer) -> RegistryClient {
    let mut hosts = RegistryHosts::default();
    hosts.force_services(
        "registry.example.com",
        &[("modules.v1", &server.url("/v1/modules/"))],
    );
    RegistryClient::new(RegistryOptions {
        hosts,
        retries: 0,
        ..RegistryOptions::default()
    })
}

#[test]
fn registry_modules_install_and_are_reused_next_run() {
    let repo = git_package();
    let server = registry_server(repo.source("ref=v1.0.0"));
    let env = Env::new();
    env.write("main.tf", "");
    let inst = env.installer(Some(registry_client(&server)), false);
    let net = install(
        &inst,
        &["net"],
        "registry.example.com/ns/net/aws",
        Some(">= 0.9"),
        None,
    )
    .unwrap();
    assert_eq!(net.dir, ".terraform/modules/net");
    assert_eq!(net.version.as_ref().unwrap().to_string(), "1.0.0");
    assert_eq!(net.warnings.len(), 1);
    assert_eq!(
        net.warnings[0].summary,
        "Invalid response from remote module registry"
    );
    let arch = install(
        &inst,
        &["arch"],
        "registry.example.com/ns/arch/aws//sub",
        None,
        None,
    )
    .unwrap();
    assert_eq!(arch.dir, ".terraform/modules/arch/arch-1.0.0/sub");
    assert_eq!(
        read(env.work.path().join(&arch.dir).join("main.tf")),
        "# arch sub\n"
    );
    inst.write_manifest().unwrap();
    let written = read(env.work.path().join(".terraform/modules/modules.json"));
    assert_eq!(
        written,
        r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"arch","Source":"registry.example.com/ns/arch/aws//sub","Version":"1.0.0","Dir":".terraform/modules/arch/arch-1.0.0/sub"},{"Key":"net","Source":"registry.example.com/ns/net/aws","Version":"1.0.0","Dir":".terraform/modules/net"}]}"#
    );
    assert_eq!(
        env.lines(),
        [
            "Downloading registry.example.com/ns/net/aws 1.0.0 for net...",
            "- net in .terraform/modules/net",
            "Downloading registry.example.com/ns/arch/aws 1.0.0 for arch...",
            "- arch in .terraform/modules/arch/arch-1.0.0/sub",
        ]
    );

    // Second run: same sources, constraint still satisfied → nothing fetched.
    let requests_before = server.paths().len();
    let inst2 = env.installer(Some(registry_client(&server)), false);
    let again = install(
        &inst2,
        &["net"],
        "registry.example.com/ns/net/aws",
        Some("~> 1.0"),
        None,
    )
    .unwrap();
    assert!(again.already_installed);
    assert_eq!(again.dir, ".terraform/modules/net");
    assert_eq!(inst2.fetcher().download_count(), 0);
    assert_eq!(server.paths().len(), requests_before);
    assert!(env.lines().is_empty());

    // A constraint the installed version no longer meets → reinstall.
    let older = install(
        &inst2,
        &["net"],
        "registry.example.com/ns/net/aws",
        Some("< 1.0"),
        None,
    )
    .unwrap();
    assert!(!older.already_installed);
    assert_eq!(older.version.unwrap().to_string(), "0.9.0");

    // -upgrade reinstalls even when nothing changed.
    let inst3 = env.installer(Some(registry_client(&server)), true);
    let up = install(
        &inst3,
        &["arch"],
        "registry.example.com/ns/arch/aws//sub",
        None,
        None,
    )
    .unwrap();
    assert!(!up.already_installed);
}

#[test]
fn changed_source_drops_descendant_records() {
    let repo = git_package();
    let env = Env::new();
    env.write("modules/a/main.tf", "");
    env.write("modules/b/main.tf", "");
    let inst = env.installer(None, false);
    install(&inst, &["a"], &repo.source(""), None, None).unwrap();
    let a = inst.manifest();
    let pkg = PackageContext::defined_by(&parse_module_source(&repo.source("")).unwrap());
    install(&inst, &["a", "sub"], "./modules/sub", None, pkg.as_ref()).unwrap();
    assert!(inst.manifest().get("a.sub").is_some());
    assert!(a.get("a").is_some());
    inst.write_manifest().unwrap();

    let inst2 = env.installer(None, false);
    install(&inst2, &["a"], "./modules/a", None, None).unwrap();
    let m = inst2.manifest();
    assert!(m.get("a.sub").is_none());
    assert_eq!(m.get("a").unwrap().dir, "modules/a");
    assert!(!env.work.path().join(".terraform/modules/a").exists());
}

/// A run killed after replacing a module's directory but before its
/// final manifest write must not leave the old record naming the new
/// contents (the next run with the old source would trust them): the
/// record is dropped from the file on disk before the directory changes.
#[test]
fn a_replaced_module_is_unrecorded_on_disk_before_its_directory_changes() {
    let repo = git_package();
    repo.commit(&[("main.tf", Some("# net v2\n"))], "v2");
    repo.tag("v2.0.0");
    let env = Env::new();
    let inst = env.installer(None, false);
    install(&inst, &["a"], &repo.source("ref=v1.0.0"), None, None).unwrap();
    install(&inst, &["b"], &repo.source("ref=v1.0.0"), None, None).unwrap();
    inst.write_manifest().unwrap();
    let on_disk = || Manifest::read_dir(&env.work.path().join(".terraform/modules")).unwrap();
    assert!(on_disk().get("a").is_some());

    let inst2 = env.installer(None, false);
    install(&inst2, &["a"], &repo.source("ref=v2.0.0"), None, None).unwrap();
    // Killed here: `a` holds v2 and the manifest no longer claims v1;
    // `b`, untouched, keeps its record.
    assert_eq!(
        read(env.work.path().join(".terraform/modules/a/main.tf")),
        "# net v2\n"
    );
    let m = on_disk();
    assert!(m.get("a").is_none(), "{m:?}");
    assert!(m.get("b").is_some(), "{m:?}");
    // An unchanged module costs no write.
    let before = std::fs::metadata(env.work.path().join(".terraform/modules/modules.json"))
        .unwrap()
        .modified()
        .unwrap();
    install(&inst2, &["b"], &repo.source("ref=v1.0.0"), None, None).unwrap();
    let after = std::fs::metadata(env.work.path().join(".terraform/modules/modules.json"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
    inst2.write_manifest().unwrap();
    assert_eq!(on_disk(), inst2.manifest());
}

#[test]
fn registry_errors() {
    let repo = git_package();
    let server = registry_server(repo.source(""));
    let env = Env::new();
    let inst = env.installer(Some(registry_client(&server)), false);
    let (s, d) = only_error(install(
        &inst,
        &["m"],
        "registry.example.com/ns/missing/aws",
        None,
        None,
    ));
    assert_eq!(s, "Module not found");
    assert_eq!(d, "Module ns/missing/aws (\"m\" from main.tf:3) cannot be found in the module registry at registry.example.com.");
    let (s, d) = only_error(install(
        &inst,
        &["e"],
        "registry.example.com/ns/empty/aws",
        None,
        None,
    ));
    assert_eq!(s, "Module has no versions");
    assert_eq!(d, "Module \"registry.example.com/ns/empty/aws\" (main.tf:3) has no versions available on registry.example.com.");
    let (s, d) = only_error(install(
        &inst,
        &["n"],
        "registry.example.com/ns/net/aws",
        Some("> 5.0"),
        None,
    ));
    assert_eq!(s, "Unresolvable module version constraint");
    assert_eq!(d, "There is no available version of module \"registry.example.com/ns/net/aws\" (main.tf:3) which matches the given version constraint. The newest available version is 1.0.0.");
    let (s, d) = only_error(install(
        &inst,
        &["s"],
        "registry.example.com/ns/net/aws//nope",
        None,
        None,
    ));
    assert_eq!(s, "Module subdirectory not found");
    assert_eq!(d, "Cannot find directory \"nope\" in module \".terraform/modules/s\". The requested subdirectory was \"nope\".");
    // A prerelease only when asked for exactly.
    let (s, _) = only_error(install(
        &inst,
        &["p"],
        "registry.example.com/ns/net/aws",
        Some(">= 1.1.0-rc1"),
        None,
    ));
    assert_eq!(s, "Unresolvable module version constraint");

    let no_registry = env.installer(None, false);
    let (s, _) = only_error(install(
        &no_registry,
        &["x"],
        "registry.example.com/ns/net/aws",
        None,
        None,
    ));
    assert_eq!(s, "Registry-style module sources not supported");

    let down = TestServer::start(|_| Reply::Hang(Duration::from_secs(3)));
    let mut hosts = RegistryHosts::default();
    hosts.force_services("registry.example.com", &[("modules.v1", &down.url("/v1/"))]);
    let slow = RegistryClient::new(RegistryOptions {
        hosts,
        retries: 0,
        request_timeout: Duration::from_millis(200),
        ..RegistryOptions::default()
    });
    let inst = env.installer(Some(slow), false);
    let (s, d) = only_error(install(
        &inst,
        &["t"],
        "registry.example.com/ns/net/aws",
        None,
        None,
    ));
    assert_eq!(s, "Error accessing remote module registry");
    assert!(d.starts_with("Failed to retrieve available versions for module \"t\" (main.tf:3) from registry.example.com: the request failed, please try again later: Get "), "{d}");
}

#[test]
fn same_package_is_fetched_once_across_threads() {
    use rayon::prelude::*;
    let repo = git_package();
    let env = Env::new();
    let inst = env.installer(None, false);
    let src = repo.source("ref=v1.0.0");
    let names: Vec<String> = (0..8).map(|i| format!("m{i}")).collect();
    let results: Vec<_> = names
        .par_iter()
        .map(|n| install(&inst, &[n.as_str()], &src, None, None))
        .collect();
    for (n, r) in names.iter().zip(results) {
        let m = r.unwrap_or_else(|d| panic!("{n}: {d:#?}"));
        assert_eq!(m.dir, format!(".terraform/modules/{n}"));
        assert_eq!(
            read(env.work.path().join(&m.dir).join("modules/sub/main.tf")),
            "# sub\n"
        );
    }
    assert_eq!(inst.fetcher().download_count(), 1);
    // Packages are exported from the run's git store: none has a .git.
    let with_git = names
        .iter()
        .filter(|n| {
            env.work
                .path()
                .join(".terraform/modules")
                .join(n)
                .join(".git")
                .exists()
        })
        .count();
    assert_eq!(with_git, 0);
}

#[test]
fn manifest_read_errors_are_reported() {
    let env = Env::new();
    env.write(
        ".terraform/modules/modules.json",
        "{\"Modules\":[{\"Key\":\"a\"},{\"Key\":\"a\"}]}",
    );
    let cfg = InstallerConfig::new(env.work.path());
    let err = ModuleInstaller::new(
        cfg,
        std::sync::Arc::new(PackageFetcher::default()),
        None,
        env.hooks.clone(),
    )
    .err()
    .unwrap();
    assert_eq!(err[0].summary, "Failed to read modules manifest file");
    assert_eq!(
        err[0].detail,
        "Error reading manifest for .terraform/modules: snapshot file contains two records for path a."
    );
    let _ = Manifest::new();
    let _: Option<ModuleSource> = None;
}
