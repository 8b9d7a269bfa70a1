//! The cache on its own, with fills that write files directly.

use std::path::Path;

use super::entry::Filled;
use super::{CacheKey, ModuleCache};

fn key(n: &str) -> CacheKey {
    CacheKey::Archive {
        url: format!("https://example.com/{n}.tgz"),
        sha256: "0".repeat(64),
    }
}

fn fill_two(d: &Path) -> Result<(), String> {
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("main.tf"), "# main\n").unwrap();
    std::fs::write(d.join("sub/x.tf"), "# x\n").unwrap();
    Ok(())
}

#[test]
fn fills_once_then_links() {
    let root = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(root.path());
    let k = key("a");
    let got = cache
        .get_or_fill(&k, &out.path().join("one"), false, fill_two)
        .unwrap();
    assert_eq!(got, Filled::Fetched);
    let got = cache
        .get_or_fill(&k, &out.path().join("two"), false, |_| {
            panic!("a complete entry is not filled again")
        })
        .unwrap();
    assert_eq!(got, Filled::Hit);
    assert_eq!(
        std::fs::read_to_string(out.path().join("two/sub/x.tf")).unwrap(),
        "# x\n"
    );
    // `refresh` fills again even when the entry is fine.
    let got = cache
        .get_or_fill(&k, &out.path().join("three"), true, fill_two)
        .unwrap();
    assert_eq!(got, Filled::Fetched);
    assert!(!cache.get(&key("other"), &out.path().join("four")).unwrap());
    assert!(!out.path().join("four").exists());
}

#[test]
fn only_what_the_manifest_lists_is_installed() {
    let root = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(root.path());
    let k = key("a");
    cache
        .get_or_fill(&k, &out.path().join("one"), false, fill_two)
        .unwrap();
    let entry = cache.entry_dir(&k);
    std::fs::write(entry.join("files/stray.tf"), "# stray\n").unwrap();
    assert!(cache.get(&k, &out.path().join("two")).unwrap());
    assert!(!out.path().join("two/stray.tf").exists());
}

#[test]
fn a_manifest_naming_paths_outside_is_malformed() {
    let root = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(root.path());
    let k = key("a");
    cache
        .get_or_fill(&k, &out.path().join("one"), false, fill_two)
        .unwrap();
    let entry = cache.entry_dir(&k);
    let manifest = std::fs::read_to_string(entry.join("manifest.json")).unwrap();
    std::fs::write(
        entry.join("manifest.json"),
        manifest.replace("\"sub/x.tf\"", "\"../../x.tf\""),
    )
    .unwrap();
    assert!(cache.verify(&k, &entry).is_err());
    assert!(!cache.get(&k, &out.path().join("two")).unwrap());
    assert!(!entry.exists(), "a bad entry is removed");
}

#[test]
fn a_failed_fill_leaves_nothing() {
    let root = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(root.path());
    let k = key("a");
    let err = cache
        .get_or_fill(&k, &out.path().join("one"), false, |d| {
            fill_two(d)?;
            Err("boom".to_string())
        })
        .unwrap_err();
    assert_eq!(err, "boom");
    assert!(!cache.entry_dir(&k).exists());
    assert_eq!(
        std::fs::read_dir(root.path().join("tmp")).unwrap().count(),
        0
    );
    assert!(!out.path().join("one").exists());
}
