//! `tofu-rs init` with a module cache: set in the CLI configuration for
//! one root and by `TF_MODULE_CACHE_DIR` for another, the second root
//! installs a tagged git module with its repository gone.

mod sandbox;

use std::path::Path;

use sandbox::Sandbox;

/// A repository at `dir` with `main.tf`, tagged `v1.0.0`.
fn make_repo(dir: &Path) {
    let repo = git2::Repository::init(dir).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    std::fs::write(dir.join("main.tf"), "output \"x\" {\n  value = 1\n}\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("main.tf")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let commit = repo
        .commit(Some("HEAD"), &sig, &sig, "c", &tree, &[])
        .unwrap();
    let obj = repo.find_object(commit, None).unwrap();
    repo.tag_lightweight("v1.0.0", &obj, false).unwrap();
}

#[test]
fn a_second_root_installs_from_the_cache() {
    let repos = tempfile::tempdir().unwrap();
    let repo = repos.path().join("net");
    make_repo(&repo);
    let cache = tempfile::tempdir().unwrap();
    let main_tf = format!(
        "module \"net\" {{\n  source = \"git::file://{}?ref=v1.0.0\"\n}}\n",
        repo.display()
    );

    let first = Sandbox::new(&main_tf);
    first.set_cli_config(&format!(
        "module_cache_dir = \"{}\"\n",
        cache.path().display()
    ));
    let run = first.init(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        cache.path().join("packages").is_dir(),
        "the file's setting is used"
    );

    std::fs::rename(&repo, repos.path().join("gone")).unwrap();
    let second = Sandbox::new(&main_tf);
    let run = second.init(&[("TF_MODULE_CACHE_DIR", cache.path())]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let installed = second.work().join(".terraform/modules/net/main.tf");
    assert!(installed.is_file());
    assert!(
        run.stdout.contains("Downloading git::file://"),
        "{}",
        run.stdout
    );
    second.assert_sealed();

    // Without the cache the repository is needed, and gone.
    let third = Sandbox::new(&main_tf);
    let run = third.init(&[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.text.contains("Failed to download module"),
        "{}",
        run.text
    );
}

/// Two `init` processes filling one cache at once both succeed and leave
/// one entry, with nothing half-made behind.
#[test]
fn two_processes_fill_one_cache() {
    let repos = tempfile::tempdir().unwrap();
    let repo = repos.path().join("net");
    make_repo(&repo);
    let cache = tempfile::tempdir().unwrap();
    let main_tf = format!(
        "module \"net\" {{\n  source = \"git::file://{}?ref=v1.0.0\"\n}}\n",
        repo.display()
    );
    let boxes: Vec<Sandbox> = (0..3).map(|_| Sandbox::new(&main_tf)).collect();
    std::thread::scope(|s| {
        let runs: Vec<_> = boxes
            .iter()
            .map(|b| s.spawn(|| b.init(&[("TF_MODULE_CACHE_DIR", cache.path())])))
            .collect();
        for r in runs {
            let run = r.join().unwrap();
            assert_eq!(run.code, 0, "{}", run.stderr);
        }
    });
    for b in &boxes {
        assert!(b.work().join(".terraform/modules/net/main.tf").is_file());
    }
    let entries = std::fs::read_dir(cache.path().join("packages"))
        .unwrap()
        .count();
    assert_eq!(entries, 1);
    let staging = std::fs::read_dir(cache.path().join("tmp")).unwrap().count();
    assert_eq!(staging, 0);
}
