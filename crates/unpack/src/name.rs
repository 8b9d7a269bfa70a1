//! Where an archive entry may land: go-getter's name rules, and the
//! lexical rule for symbolic links that other package sources (git
//! clones) are checked with.

use std::path::{Component, Path, PathBuf};

use crate::error::UnpackError;

/// go-getter's `containsDotDot`: a `..` element, with `/` and `\` both
/// taken as separators (a zip made on Windows may use either).
pub fn contains_dot_dot(name: &str) -> bool {
    name.split(['/', '\\']).any(|part| part == "..")
}

/// The path an entry named `name` takes under the destination, as
/// go-getter's `filepath.Join(dst, name)` leaves it: `..` refused,
/// `.` and empty elements dropped, an absolute name put under the
/// destination. On unix `\` is an ordinary character, as it is to Go;
/// `a\b.tf` is one file of that name. The empty path is the destination
/// itself.
pub fn entry_rel_path(name: &str) -> Result<PathBuf, UnpackError> {
    if contains_dot_dot(name) {
        return Err(UnpackError::DotDot(name.to_string()));
    }
    Ok(name
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect())
}

/// Whether a symbolic link at `link_rel` (relative to a package root)
/// whose target is `target` stays inside the package when followed
/// lexically: not absolute, and no `..` climbing above the root.
pub fn link_stays_inside(link_rel: &Path, target: &Path) -> bool {
    if target.is_absolute() || target.has_root() {
        return false;
    }
    let mut depth: i64 = link_rel
        .parent()
        .map(|p| {
            p.components()
                .filter(|c| matches!(c, Component::Normal(_)))
                .count() as i64
        })
        .unwrap_or(0);
    for comp in target.components() {
        match comp {
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for (name, want) in [
            ("main.tf", Some("main.tf")),
            ("./a//b/", Some("a/b")),
            ("/etc/passwd", Some("etc/passwd")),
            ("./", Some("")),
            ("a\\b.tf", Some("a\\b.tf")),
            ("../x", None),
            ("a/../../x", None),
            ("a/..", None),
            ("..\\x", None),
            ("a\\..\\..\\x", None),
        ] {
            let got = entry_rel_path(name).ok();
            assert_eq!(got.as_deref(), want.map(Path::new), "{name}");
        }
        // Dots inside a name are not `..`.
        assert!(!contains_dot_dot("a/..b/c.."));
    }

    #[test]
    fn link_rule() {
        let inside = |l: &str, t: &str| link_stays_inside(Path::new(l), Path::new(t));
        assert!(inside("a/link", "../b"));
        assert!(inside("link", "x/../y"));
        assert!(inside("link", "."));
        assert!(!inside("link", ".."));
        assert!(!inside("link", "../b"));
        assert!(!inside("a/link", "../../b"));
        assert!(!inside("a/link", "/etc/passwd"));
    }
}
