//! `tofu-rs affected -git-base=REF` on a real repository: a pull request's
//! branch changes a shared module and one root's variables; the roots that
//! use them are listed, and a change made on the base branch after the
//! branch left it is not counted.

use std::path::Path;
use std::process::Command;

use git2::{IndexAddOption, Repository, Signature};

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn commit_all(repo: &Repository, message: &str) -> git2::Oid {
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"].iter(), IndexAddOption::DEFAULT, None)
        .unwrap();
    index.update_all(["*"].iter(), None).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = Signature::now("t", "t@example.com").unwrap();
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
        .unwrap()
}

fn affected(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tofu-rs"))
        .arg("affected")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn roots_touched_since_the_merge_base() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    let repo = Repository::init(root).unwrap();
    write(
        root,
        "live/a/main.tf",
        "module \"n\" {\n  source = \"../../modules/net\"\n}\n",
    );
    write(
        root,
        "live/b/main.tf",
        "module \"n\" {\n  source = \"../../modules/net\"\n}\n",
    );
    write(
        root,
        "live/c/main.tf",
        "variable \"x\" {\n  default = 1\n}\n",
    );
    write(
        root,
        "live/d/main.tf",
        "variable \"x\" {\n  default = 1\n}\n",
    );
    write(
        root,
        "modules/net/main.tf",
        "variable \"x\" {\n  default = 1\n}\n",
    );
    let first = commit_all(&repo, "first");
    let base = repo.find_commit(first).unwrap();
    repo.branch("main-line", &base, false).unwrap();

    // The pull request: a shared module changes (committed), live/c's
    // variables change (uncommitted).
    write(
        root,
        "modules/net/main.tf",
        "variable \"x\" {\n  default = 2\n}\n",
    );
    commit_all(&repo, "change the shared module");
    write(root, "live/c/prod.tfvars", "x = 3\n");

    // Meanwhile on the base branch: live/d changes, after this branch left.
    let sig = Signature::now("t", "t@example.com").unwrap();
    let mut index = git2::Index::new().unwrap();
    let blob = repo.blob(b"variable \"x\" {\n  default = 9\n}\n").unwrap();
    let mut tree = repo.treebuilder(Some(&base.tree().unwrap())).unwrap();
    let _ = &mut index;
    let live = base.tree().unwrap().get_path(Path::new("live")).unwrap();
    let live_tree = repo.find_tree(live.id()).unwrap();
    let d_entry = live_tree.get_path(Path::new("d")).unwrap();
    let mut d_builder = repo
        .treebuilder(Some(&repo.find_tree(d_entry.id()).unwrap()))
        .unwrap();
    d_builder.insert("main.tf", blob, 0o100644).unwrap();
    let mut live_builder = repo.treebuilder(Some(&live_tree)).unwrap();
    live_builder
        .insert("d", d_builder.write().unwrap(), 0o040000)
        .unwrap();
    tree.insert("live", live_builder.write().unwrap(), 0o040000)
        .unwrap();
    let new_tree = repo.find_tree(tree.write().unwrap()).unwrap();
    repo.commit(
        Some("refs/heads/main-line"),
        &sig,
        &sig,
        "base moves on",
        &new_tree,
        &[&base],
    )
    .unwrap();

    let (code, stdout, stderr) = affected(root, &["-git-base=main-line"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, "live/a\nlive/b\nlive/c\n");

    // From a subdirectory, only the roots under it.
    let (code, stdout, _) = affected(&root.join("live"), &["-git-base=main-line"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, "a\nb\nc\n");

    let (code, _, stderr) = affected(root, &["-git-base=no-such-ref"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("Failed to list the changed files"),
        "{stderr}"
    );
    assert!(
        stderr.contains("unknown git revision \"no-such-ref\""),
        "{stderr}"
    );
}
