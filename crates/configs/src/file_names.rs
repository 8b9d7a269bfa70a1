//! Which files of a directory make up a module, as OpenTofu decides it:
//! extensions, ignored editor files, override files, and `.tofu` files
//! hiding their `.tf` twins.

use std::path::{Path, PathBuf};

/// The configuration extensions, longest first so `.tf.json` wins over
/// `.json`-less matching.
const CONFIG_EXTENSIONS: [&str; 4] = [".tofu.json", ".tf.json", ".tofu", ".tf"];
const TEST_EXTENSIONS: [&str; 4] = [
    ".tofutest.json",
    ".tftest.json",
    ".tofutest.hcl",
    ".tftest.hcl",
];

/// What a file is to the module loader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileRole {
    Primary,
    Override,
    Test,
}

/// The configuration or test extension of `name`, if it has one.
pub fn config_extension(name: &str) -> Option<&'static str> {
    CONFIG_EXTENSIONS
        .iter()
        .chain(TEST_EXTENSIONS.iter())
        .find(|ext| name.ends_with(*ext) && name.len() > ext.len())
        .copied()
}

/// Whether OpenTofu skips this file name (hidden, editor backup or lock
/// files).
pub fn is_ignored_file(name: &str) -> bool {
    name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#'))
}

/// The role of a file name, or `None` when it is not part of a module.
pub fn file_role(name: &str) -> Option<FileRole> {
    if is_ignored_file(name) {
        return None;
    }
    let ext = config_extension(name)?;
    if TEST_EXTENSIONS.contains(&ext) {
        return Some(FileRole::Test);
    }
    let base = &name[..name.len() - ext.len()];
    if base == "override" || base.ends_with("_override") {
        Some(FileRole::Override)
    } else {
        Some(FileRole::Primary)
    }
}

/// The `.tofu` twin that hides a `.tf` file of the same base name.
fn tofu_twin(name: &str) -> Option<String> {
    let pairs = [
        (".tf.json", ".tofu.json"),
        (".tf", ".tofu"),
        (".tftest.hcl", ".tofutest.hcl"),
        (".tftest.json", ".tofutest.json"),
    ];
    pairs.iter().find_map(|(tf, tofu)| {
        let base = name.strip_suffix(tf)?;
        // `.tf` must not match the tail of `.tftest.hcl` etc.: the caller
        // passes whole names, and `x.tf.json` is handled by the first pair.
        Some(format!("{base}{tofu}"))
    })
}

/// The module files of a directory, in lexical order per role.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DirFiles {
    pub primary: Vec<PathBuf>,
    pub overrides: Vec<PathBuf>,
    pub tests: Vec<PathBuf>,
}

/// Sorts names into roles and drops `.tf` files hidden by a `.tofu` twin in
/// the same role.
pub fn classify(names: &[String]) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut names: Vec<&String> = names.iter().collect();
    names.sort();
    let mut primary = Vec::new();
    let mut overrides = Vec::new();
    let mut tests = Vec::new();
    for name in &names {
        match file_role(name) {
            Some(FileRole::Primary) => primary.push((*name).clone()),
            Some(FileRole::Override) => overrides.push((*name).clone()),
            Some(FileRole::Test) => tests.push((*name).clone()),
            None => {}
        }
    }
    let drop_hidden = |list: Vec<String>| -> Vec<String> {
        let all = list.clone();
        list.into_iter()
            .filter(|n| match tofu_twin(n) {
                Some(twin) => !all.contains(&twin),
                None => true,
            })
            .collect()
    };
    (
        drop_hidden(primary),
        drop_hidden(overrides),
        drop_hidden(tests),
    )
}

/// Lists the module files of `dir`. Subdirectories are never part of a
/// module. The error is OpenTofu's "Failed to read module directory".
pub fn dir_files(dir: &Path) -> Result<DirFiles, String> {
    let entries = std::fs::read_dir(dir).map_err(|_| {
        format!(
            "Module directory {} does not exist or cannot be read.",
            dir.display()
        )
    })?;
    let mut names = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        // Follow symlinks: a linked file is a file.
        if path.is_dir() {
            continue;
        }
        if let Some(name) = entry.file_name().to_str() {
            names.push(name.to_string());
        }
    }
    let (primary, overrides, tests) = classify(&names);
    let join = |v: Vec<String>| v.into_iter().map(|n| dir.join(n)).collect();
    Ok(DirFiles {
        primary: join(primary),
        overrides: join(overrides),
        tests: join(tests),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn roles_by_name() {
        assert_eq!(file_role("main.tf"), Some(FileRole::Primary));
        assert_eq!(file_role("main.tofu.json"), Some(FileRole::Primary));
        assert_eq!(file_role("override.tf"), Some(FileRole::Override));
        assert_eq!(file_role("a_override.tofu.json"), Some(FileRole::Override));
        assert_eq!(file_role("a.tftest.hcl"), Some(FileRole::Test));
        assert_eq!(file_role("main.tf~"), None);
        assert_eq!(file_role(".main.tf"), None);
        assert_eq!(file_role("#main.tf#"), None);
        assert_eq!(file_role("main.hcl"), None);
        assert_eq!(file_role("README.md"), None);
        assert_eq!(file_role("x.tfvars"), None);
        // "override" must be the whole base name or end with _override.
        assert_eq!(file_role("myoverride.tf"), Some(FileRole::Primary));
    }

    #[test]
    fn tofu_files_hide_tf_twins_per_role() {
        let (p, o, t) = classify(&names(&[
            "main.tf",
            "main.tofu",
            "vars.tf.json",
            "vars.tofu.json",
            "other.tf",
            "x_override.tf",
            "x_override.tofu",
            "a.tftest.hcl",
            "a.tofutest.hcl",
            "b.tf.json",
            "b.tofu",
        ]));
        assert_eq!(
            p,
            names(&[
                "b.tf.json",
                "b.tofu",
                "main.tofu",
                "other.tf",
                "vars.tofu.json"
            ])
        );
        assert_eq!(o, names(&["x_override.tofu"]));
        assert_eq!(t, names(&["a.tofutest.hcl"]));
    }
}
