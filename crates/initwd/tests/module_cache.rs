//! The git store and the module cache, through `PackageFetcher` as
//! `init` uses it, against repositories built on the fly (`file://`).
//! Each "run" is a fetcher of its own (a process's worth of state) and a
//! modules directory of its own (a fresh `.terraform`).

mod common;

use std::path::{Path, PathBuf};

use common::{read, tar_gz, Reply, TestRepo, TestServer};
use git2::Oid;
use initwd::{Cancel, ModuleCache, PackageFetcher, RegistryPackage};

/// One run: a fetcher and a modules directory.
struct Run {
    fetcher: PackageFetcher,
    mods: tempfile::TempDir,
}

impl Run {
    fn new(cache: Option<&Path>) -> Run {
        Run {
            fetcher: PackageFetcher::default().with_cache(cache.map(ModuleCache::new)),
            mods: tempfile::tempdir().unwrap(),
        }
    }

    fn fetch(&self, name: &str, src: &str) -> PathBuf {
        self.fetch_with(name, src, false)
    }

    fn fetch_with(&self, name: &str, src: &str, upgrade: bool) -> PathBuf {
        let dir = self.mods.path().join(name);
        self.fetcher
            .fetch_package_with(&dir, src, upgrade, None, &Cancel::new())
            .unwrap_or_else(|e| panic!("{src}: {e}"));
        dir
    }

    fn counts(&self) -> (usize, usize, usize) {
        (
            self.fetcher.git_connect_count(),
            self.fetcher.git_fetch_count(),
            self.fetcher.cache_hit_count(),
        )
    }
}

/// `main` with a `v1.0.0` tag on the first commit and an annotated
/// `v2.0.0` on the second.
fn tagged_repo() -> (TestRepo, Oid) {
    let r = TestRepo::new();
    let first = r.commit(&[("main.tf", Some("# v1\n"))], "first");
    r.tag("v1.0.0");
    r.commit(&[("main.tf", Some("# v2\n"))], "second");
    r.annotated_tag("v2.0.0");
    (r, first)
}

/// The one package entry in a cache.
fn only_entry(cache: &Path) -> PathBuf {
    let entries: Vec<PathBuf> = std::fs::read_dir(cache.join("packages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries.into_iter().next().unwrap()
}

/// Rewrites a cached (read-only) file, as a careless user or a disk
/// might.
fn scribble(path: &Path, content: &str) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::write(path, content).unwrap();
}

#[test]
fn a_repository_is_fetched_once_for_two_tags() {
    let (r, _) = tagged_repo();
    for cache in [None, Some(tempfile::tempdir().unwrap())] {
        let run = Run::new(cache.as_ref().map(|c| c.path()));
        let a = run.fetch("a", &r.source("ref=v1.0.0"));
        let b = run.fetch("b", &r.source("ref=v2.0.0"));
        assert_eq!(read(a.join("main.tf")), "# v1\n");
        assert_eq!(read(b.join("main.tf")), "# v2\n");
        assert_eq!(run.counts(), (1, 1, 0), "cache: {}", cache.is_some());
        assert!(!a.join(".git").exists());
    }
}

#[test]
fn without_a_cache_the_stores_go_with_the_run() {
    let (r, _) = tagged_repo();
    let run = Run::new(None);
    run.fetch("a", &r.source("ref=v1.0.0"));
    let staging = |mods: &Path| {
        std::fs::read_dir(mods)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(initwd::STAGING_PREFIX)
            })
            .count()
    };
    assert_eq!(staging(run.mods.path()), 1, "the run's git stores");
    let mods = run.mods;
    drop(run.fetcher);
    assert_eq!(staging(mods.path()), 0);
}

/// A module (exec bit, symlink, a submodule with a submodule of its own)
/// exported from the store equals what `git clone` and `git submodule
/// update --init --recursive` check out, `.git` aside. The same module
/// naming its submodule by a relative URL exports the same tree (libgit2
/// itself resolves `../x` against `file:///` wrongly, so the reference
/// clone uses absolute URLs).
#[cfg(unix)]
#[test]
fn an_export_is_what_a_recursive_clone_checks_out() {
    use std::os::unix::fs::PermissionsExt;
    let deep = TestRepo::new();
    let deep_head = deep.commit(&[("deep.tf", Some("# deep\n"))], "deep");
    let sub = TestRepo::new();
    sub.commit(&[("sub.tf", Some("# sub\n"))], "sub");
    let sub_head = commit_with_submodule(&sub, "vendor/deep", &file_url(&deep), deep_head);
    let top = TestRepo::new();
    std::fs::write(top.path().join("run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(
        top.path().join("run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::create_dir_all(top.path().join("modules/a")).unwrap();
    std::fs::write(top.path().join("modules/a/main.tf"), "# a\n").unwrap();
    std::os::unix::fs::symlink("modules/a/main.tf", top.path().join("link.tf")).unwrap();
    top.commit_workdir("files");
    commit_with_submodule(&top, "sub", &file_url(&sub), sub_head);
    let rel_top = TestRepo::new();
    std::fs::write(rel_top.path().join("run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(
        rel_top.path().join("run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::create_dir_all(rel_top.path().join("modules/a")).unwrap();
    std::fs::write(rel_top.path().join("modules/a/main.tf"), "# a\n").unwrap();
    std::os::unix::fs::symlink("modules/a/main.tf", rel_top.path().join("link.tf")).unwrap();
    rel_top.commit_workdir("files");
    commit_with_submodule(&rel_top, "sub", &relative(&rel_top, &sub), sub_head);
    // A later commit on the submodule must not matter: the gitlink does.
    sub.commit(&[("sub.tf", Some("# later\n"))], "later");

    let clone = tempfile::tempdir().unwrap();
    let url = url::Url::from_file_path(top.path()).unwrap();
    let repo = git2::Repository::clone(url.as_str(), clone.path()).unwrap();
    update_submodules(&repo);

    for cache in [None, Some(tempfile::tempdir().unwrap())] {
        let run = Run::new(cache.as_ref().map(|c| c.path()));
        let pkg = run.fetch("m", &top.source(""));
        assert_eq!(snapshot(&pkg), snapshot(clone.path()));
        assert_eq!(read(pkg.join("sub/sub.tf")), "# sub\n");
        assert_eq!(read(pkg.join("sub/vendor/deep/deep.tf")), "# deep\n");
        // A second run: from the cache when there is one, the same tree.
        let again = Run::new(cache.as_ref().map(|c| c.path()));
        assert_eq!(snapshot(&again.fetch("m", &top.source(""))), snapshot(&pkg));
        let rel = snapshot(&again.fetch("rel", &rel_top.source("")));
        let gitmodules = |s: &[String]| -> Vec<String> {
            s.iter()
                .filter(|l| !l.starts_with(".gitmodules "))
                .cloned()
                .collect()
        };
        assert_eq!(gitmodules(&rel), gitmodules(&snapshot(&pkg)));
    }
}

fn file_url(r: &TestRepo) -> String {
    url::Url::from_file_path(r.path()).unwrap().to_string()
}

/// `../<dir name>`: `to` beside `from`, as `.gitmodules` would name it.
fn relative(from: &TestRepo, to: &TestRepo) -> String {
    assert_eq!(from.path().parent(), to.path().parent());
    format!("../{}", to.path().file_name().unwrap().to_string_lossy())
}

/// Commits the work tree plus `.gitmodules` and a gitlink at `path`.
fn commit_with_submodule(r: &TestRepo, path: &str, url: &str, commit: Oid) -> Oid {
    std::fs::write(
        r.path().join(".gitmodules"),
        format!("[submodule \"{path}\"]\n\tpath = {path}\n\turl = {url}\n"),
    )
    .unwrap();
    let mut index = r.repo.index().unwrap();
    index
        .add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let base = r.repo.find_tree(index.write_tree().unwrap()).unwrap();
    let tree_id = insert_at(&r.repo, &base, path, commit);
    let tree = r.repo.find_tree(tree_id).unwrap();
    let sig = git2::Signature::now("Test", "test@example.com").unwrap();
    let parent = r.repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
    let id = r
        .repo
        .commit(Some("HEAD"), &sig, &sig, "submodule", &tree, &parents)
        .unwrap();
    // The work tree and index follow HEAD again.
    r.repo
        .checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
        .unwrap();
    id
}

fn insert_at(repo: &git2::Repository, base: &git2::Tree<'_>, path: &str, commit: Oid) -> Oid {
    match path.split_once('/') {
        None => {
            let mut tb = repo.treebuilder(Some(base)).unwrap();
            tb.insert(path, commit, 0o160000).unwrap();
            tb.write().unwrap()
        }
        Some((dir, rest)) => {
            let sub = base
                .get_name(dir)
                .map(|e| repo.find_tree(e.id()).unwrap())
                .unwrap_or_else(|| {
                    repo.find_tree(repo.treebuilder(None).unwrap().write().unwrap())
                        .unwrap()
                });
            let id = insert_at(repo, &sub, rest, commit);
            let mut tb = repo.treebuilder(Some(base)).unwrap();
            tb.insert(dir, id, 0o040000).unwrap();
            tb.write().unwrap()
        }
    }
}

fn update_submodules(repo: &git2::Repository) {
    for mut s in repo.submodules().unwrap() {
        s.update(true, None).unwrap();
        update_submodules(&s.open().unwrap());
    }
}

/// Every path under `dir` but `.git`, with its kind, exec bit, content
/// or link target.
#[cfg(unix)]
fn snapshot(dir: &Path) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if name == ".git" {
                continue;
            }
            let rel = format!("{prefix}{name}");
            let md = std::fs::symlink_metadata(e.path()).unwrap();
            if md.file_type().is_symlink() {
                let t = std::fs::read_link(e.path()).unwrap();
                out.push(format!("{rel} -> {}", t.display()));
            } else if md.is_dir() {
                out.push(format!("{rel}/"));
                stack.push((e.path(), format!("{rel}/")));
            } else {
                let exec = md.permissions().mode() & 0o111 != 0;
                out.push(format!("{rel} exec={exec} {:?}", read(e.path())));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_cached_tag_installs_with_no_network() {
    let (r, first) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let warm = Run::new(Some(cache.path()));
    warm.fetch("a", &r.source("ref=v1.0.0"));
    warm.fetch("b", &r.source(&format!("ref={first}")));
    assert_eq!(
        warm.counts(),
        (1, 1, 1),
        "the commit ID found the tag's tree"
    );

    // The repository is gone: only the cache can answer.
    let src_tag = r.source("ref=v1.0.0");
    let src_id = r.source(&format!("ref={first}"));
    let moved = r.path().with_extension("moved");
    std::fs::rename(r.path(), &moved).unwrap();
    let cold = Run::new(Some(cache.path()));
    let a = cold.fetch("a", &src_tag);
    let b = cold.fetch("b", &src_id);
    assert_eq!(read(a.join("main.tf")), "# v1\n");
    assert_eq!(read(b.join("main.tf")), "# v1\n");
    assert_eq!(cold.counts(), (0, 0, 2));
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Hard links: the module's file is the cache's.
        let entry = only_entry(cache.path());
        let ino = |p: PathBuf| std::fs::metadata(p).unwrap().ino();
        assert_eq!(ino(a.join("main.tf")), ino(entry.join("files/main.tf")));
    }
    std::fs::rename(&moved, r.path()).unwrap();
}

#[test]
fn a_branch_is_resolved_again_every_run() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    for src in [r.source("ref=main"), r.source("")] {
        let one = Run::new(Some(cache.path()));
        assert_eq!(read(one.fetch("m", &src).join("main.tf")), "# v2\n");
    }
    r.commit(&[("main.tf", Some("# v3\n"))], "third");
    for src in [r.source("ref=main"), r.source("")] {
        let two = Run::new(Some(cache.path()));
        assert_eq!(read(two.fetch("m", &src).join("main.tf")), "# v3\n");
        // Nothing new upstream after the first of these: a look, no fetch.
        let three = Run::new(Some(cache.path()));
        assert_eq!(read(three.fetch("m", &src).join("main.tf")), "# v3\n");
        assert_eq!(three.counts(), (1, 0, 1));
    }
}

#[test]
fn upgrade_refreshes_a_moved_tag() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=v1.0.0");
    Run::new(Some(cache.path())).fetch("m", &src);
    // The tag is moved upstream (bad practice, but it happens).
    let head = r.commit(&[("main.tf", Some("# retagged\n"))], "retag");
    r.repo
        .tag_lightweight("v1.0.0", &r.repo.find_object(head, None).unwrap(), true)
        .unwrap();
    let plain = Run::new(Some(cache.path()));
    assert_eq!(read(plain.fetch("m", &src).join("main.tf")), "# v1\n");
    assert_eq!(
        plain.counts(),
        (0, 0, 1),
        "a tag is trusted without -upgrade"
    );
    let upgrade = Run::new(Some(cache.path()));
    assert_eq!(
        read(upgrade.fetch_with("m", &src, true).join("main.tf")),
        "# retagged\n"
    );
    assert_eq!(upgrade.counts().1, 1, "-upgrade fetches");
    let after = Run::new(Some(cache.path()));
    assert_eq!(read(after.fetch("m", &src).join("main.tf")), "# retagged\n");
}

/// Two runs filling one cache at once (separate fetchers, as separate
/// processes would be) both succeed and leave one good entry.
#[test]
fn concurrent_runs_fill_one_entry() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=v2.0.0");
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let run = Run::new(Some(cache.path()));
                    read(run.fetch("m", &src).join("main.tf"))
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), "# v2\n");
        }
    });
    let entry = only_entry(cache.path());
    assert!(entry.join("manifest.json").is_file());
    let leftovers = std::fs::read_dir(cache.path().join("tmp")).unwrap().count();
    assert_eq!(leftovers, 0);
    let next = Run::new(Some(cache.path()));
    next.fetch("m", &src);
    assert_eq!(next.counts(), (0, 0, 1));
}

#[test]
fn a_partial_entry_is_never_used() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=v1.0.0");
    Run::new(Some(cache.path())).fetch("m", &src);
    let entry = only_entry(cache.path());
    let hash = entry.file_name().unwrap().to_string_lossy().into_owned();

    // A run killed before its manifest: the entry is incomplete.
    std::fs::remove_file(entry.join("manifest.json")).unwrap();
    scribble(&entry.join("files/main.tf"), "# half\n");
    // And one killed while filling: its staging directory is left.
    let left = cache.path().join("tmp").join(format!("{hash}-killed"));
    std::fs::create_dir_all(left.join("files")).unwrap();
    std::fs::write(left.join("files/main.tf"), "# junk\n").unwrap();

    let run = Run::new(Some(cache.path()));
    assert_eq!(read(run.fetch("m", &src).join("main.tf")), "# v1\n");
    assert_eq!(run.counts().2, 0, "not a hit");
    assert!(entry.join("manifest.json").is_file());
    assert!(!left.exists(), "the killed run's staging is swept");
}

#[test]
fn a_corrupt_entry_is_detected_and_refetched() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=v1.0.0");
    let first = Run::new(Some(cache.path()));
    let installed = first.fetch("m", &src);
    let entry = only_entry(cache.path());

    // A user's edit in .terraform/modules reaches the cache through the
    // hard link; the next hit notices and refetches.
    scribble(&installed.join("main.tf"), "# edited by hand\n");
    let run = Run::new(Some(cache.path()));
    assert_eq!(read(run.fetch("m", &src).join("main.tf")), "# v1\n");
    assert_eq!(run.counts().2, 0, "a damaged entry is no hit");
    assert_eq!(read(entry.join("files/main.tf")), "# v1\n");

    // A file of the entry removed.
    std::fs::remove_file(entry.join("files/main.tf")).unwrap();
    let run = Run::new(Some(cache.path()));
    assert_eq!(read(run.fetch("m", &src).join("main.tf")), "# v1\n");
    assert_eq!(run.counts().2, 0);

    // Same size, same time: only the full check sees it.
    let f = entry.join("files/main.tf");
    let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
    scribble(&f, "# v9\n");
    std::fs::File::options()
        .write(true)
        .open(&f)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let full = Run {
        fetcher: PackageFetcher::default().with_cache(Some(
            ModuleCache::new(cache.path()).with_full_verification(true),
        )),
        mods: tempfile::tempdir().unwrap(),
    };
    assert_eq!(read(full.fetch("m", &src).join("main.tf")), "# v1\n");
    assert_eq!(full.counts().2, 0);
}

/// A registry package is kept by module, version and package address:
/// a later run downloads nothing. An archive is kept by its bytes' hash:
/// downloaded again, unpacked once.
#[test]
fn registry_packages_and_archives() {
    let tgz = tar_gz(&[("main.tf", "# archive\n")]);
    let server = TestServer::start(move |path| match path {
        "/pkg.tgz" => Reply::Http(200, Vec::new(), tgz.clone()),
        _ => Reply::status(404),
    });
    let src = server.url("/pkg.tgz");
    let cache = tempfile::tempdir().unwrap();
    let reg = RegistryPackage {
        module: "registry.example.com/ns/name/aws".into(),
        version: "1.2.3".into(),
    };
    let fetch = |run: &Run, reg: Option<&RegistryPackage>| {
        let dir = run.mods.path().join("m");
        run.fetcher
            .fetch_package_with(&dir, &src, false, reg, &Cancel::new())
            .unwrap();
        read(dir.join("main.tf"))
    };
    let first = Run::new(Some(cache.path()));
    assert_eq!(fetch(&first, Some(&reg)), "# archive\n");
    assert_eq!(server.paths().len(), 1);
    let second = Run::new(Some(cache.path()));
    assert_eq!(fetch(&second, Some(&reg)), "# archive\n");
    assert_eq!(server.paths().len(), 1, "no download for a cached version");
    assert_eq!(second.cache_hits(), 1);
    let plain = Run::new(Some(cache.path()));
    assert_eq!(fetch(&plain, None), "# archive\n");
    assert_eq!(
        server.paths().len(),
        2,
        "an archive is downloaded to be hashed"
    );
    assert_eq!(plain.cache_hits(), 1);
}

impl Run {
    fn cache_hits(&self) -> usize {
        self.fetcher.cache_hit_count()
    }
}

/// A cached store follows the remote: a branch deleted upstream is
/// pruned, and a ref naming it fails as it would in a fresh clone.
#[test]
fn a_branch_deleted_upstream_is_pruned() {
    let (r, _) = tagged_repo();
    r.branch("feature");
    r.commit(&[("feature.tf", Some("# f\n"))], "feature work");
    r.switch("main");
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=feature");
    let first = Run::new(Some(cache.path()));
    assert_eq!(read(first.fetch("f", &src).join("feature.tf")), "# f\n");
    r.repo
        .find_branch("feature", git2::BranchType::Local)
        .unwrap()
        .delete()
        .unwrap();
    let run = Run::new(Some(cache.path()));
    let err = run
        .fetcher
        .fetch_package(&run.mods.path().join("f"), &src, &Cancel::new())
        .unwrap_err()
        .to_string();
    assert!(err.ends_with("invalid ref: \"feature\""), "{err}");
}

/// A cached store that lost its objects (a disk problem, a bad copy) is
/// made anew rather than failing every later run.
#[test]
fn a_damaged_store_is_rebuilt() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=main");
    Run::new(Some(cache.path())).fetch("m", &src);
    let store = std::fs::read_dir(cache.path().join("git"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "git"))
        .unwrap();
    std::fs::remove_dir_all(store.join("objects")).unwrap();
    std::fs::create_dir_all(store.join("objects/pack")).unwrap();
    std::fs::create_dir_all(store.join("objects/info")).unwrap();
    std::fs::remove_dir_all(cache.path().join("packages")).unwrap();
    let run = Run::new(Some(cache.path()));
    assert_eq!(read(run.fetch("m", &src).join("main.tf")), "# v2\n");
}

/// A store whose commits survive but whose trees were lost: the export
/// finds the damage, the store is made anew and fetched whole.
#[test]
fn a_store_missing_trees_is_rebuilt() {
    let (r, _) = tagged_repo();
    let cache = tempfile::tempdir().unwrap();
    let src = r.source("ref=main");
    Run::new(Some(cache.path())).fetch("m", &src);
    let store = std::fs::read_dir(cache.path().join("git"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "git"))
        .unwrap();
    std::fs::remove_dir_all(store.join("objects")).unwrap();
    std::fs::create_dir_all(store.join("objects/pack")).unwrap();
    std::fs::create_dir_all(store.join("objects/info")).unwrap();
    // Only the commits and the annotated tag come back.
    let store_repo = git2::Repository::open_bare(&store).unwrap();
    let have = store_repo.odb().unwrap();
    let source = r.repo.odb().unwrap();
    source
        .foreach(|oid| {
            let obj = source.read(*oid).unwrap();
            if matches!(obj.kind(), git2::ObjectType::Commit | git2::ObjectType::Tag) {
                have.write(obj.kind(), obj.data()).unwrap();
            }
            true
        })
        .unwrap();
    std::fs::remove_dir_all(cache.path().join("packages")).unwrap();
    let run = Run::new(Some(cache.path()));
    assert_eq!(read(run.fetch("m", &src).join("main.tf")), "# v2\n");
    assert_eq!(run.counts(), (2, 1, 0), "listed, found whole, rebuilt");
}
