//! go-getter's `SubdirGlob`: a package subdirectory given as a glob
//! (`*` for "the single top-level directory of an archive") must match
//! exactly one path.

use std::path::{Path, PathBuf};

/// Expands `subdir` (slash-separated, possibly with `*`, `?`, `[…]`)
/// under `dst`. An empty subdir is `dst` itself.
pub fn expand_subdir_glob(dst: &Path, subdir: &str) -> Result<PathBuf, String> {
    if subdir.split('/').any(|p| p == "..") {
        return Err(format!("subdir {} contains '..'", addrs::go_quote(subdir)));
    }
    let mut matches = vec![dst.to_path_buf()];
    for part in subdir.split('/').filter(|p| !p.is_empty() && *p != ".") {
        let mut next = Vec::new();
        for base in &matches {
            if !has_meta(part) {
                let p = base.join(part);
                if std::fs::symlink_metadata(&p).is_ok() {
                    next.push(p);
                }
                continue;
            }
            let Ok(entries) = std::fs::read_dir(base) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            for name in names {
                if glob_match(part, &name)? {
                    next.push(base.join(name));
                }
            }
        }
        matches = next;
    }
    match matches.len() {
        0 => Err(format!("subdir {} not found", addrs::go_quote(subdir))),
        1 => Ok(matches.remove(0)),
        _ => Err(format!(
            "subdir {} matches multiple paths",
            addrs::go_quote(subdir)
        )),
    }
}

fn has_meta(s: &str) -> bool {
    s.contains(['*', '?', '[', '\\'])
}

/// Go's `path.Match` for one path element.
pub fn glob_match(pattern: &str, name: &str) -> Result<bool, String> {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    match_from(&p, &n).ok_or_else(|| "syntax error in pattern".to_string())
}

fn match_from(p: &[char], n: &[char]) -> Option<bool> {
    if p.is_empty() {
        return Some(n.is_empty());
    }
    match p[0] {
        '*' => {
            for i in 0..=n.len() {
                if match_from(&p[1..], &n[i..])? {
                    return Some(true);
                }
            }
            Some(false)
        }
        '?' => {
            if n.is_empty() {
                return Some(false);
            }
            match_from(&p[1..], &n[1..])
        }
        '[' => {
            let (matched, rest) = match_class(&p[1..], n.first().copied())?;
            if n.is_empty() || !matched {
                return Some(false);
            }
            match_from(rest, &n[1..])
        }
        '\\' => {
            let c = *p.get(1)?;
            if n.first() != Some(&c) {
                return Some(false);
            }
            match_from(&p[2..], &n[1..])
        }
        c => {
            if n.first() != Some(&c) {
                return Some(false);
            }
            match_from(&p[1..], &n[1..])
        }
    }
}

/// A `[...]` class (after the `[`): whether `c` is in it, and the pattern
/// after the closing `]`. `None` for a malformed class.
fn match_class(p: &[char], c: Option<char>) -> Option<(bool, &[char])> {
    let mut i = 0;
    let negate = p.first() == Some(&'^');
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        let lo = *p.get(i)?;
        if lo == ']' && !first {
            i += 1;
            break;
        }
        first = false;
        let lo = if lo == '\\' {
            i += 1;
            *p.get(i)?
        } else {
            lo
        };
        i += 1;
        let mut hi = lo;
        if p.get(i) == Some(&'-') && p.get(i + 1).is_some_and(|x| *x != ']') {
            i += 1;
            hi = *p.get(i)?;
            if hi == '\\' {
                i += 1;
                hi = *p.get(i)?;
            }
            i += 1;
        }
        if let Some(c) = c {
            if lo <= c && c <= hi {
                matched = true;
            }
        }
    }
    Some((matched != negate, &p[i..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*", "abc").unwrap());
        assert!(glob_match("a?c", "abc").unwrap());
        assert!(glob_match("[a-c]x", "bx").unwrap());
        assert!(!glob_match("[^a-c]x", "bx").unwrap());
        assert!(glob_match("mod-*", "mod-1.2").unwrap());
        assert!(glob_match("[", "x").is_err());
    }

    #[test]
    fn expands_single_top_dir() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("pkg-1.0/sub")).unwrap();
        assert_eq!(
            expand_subdir_glob(d.path(), "*").unwrap(),
            d.path().join("pkg-1.0")
        );
        assert_eq!(
            expand_subdir_glob(d.path(), "*/sub").unwrap(),
            d.path().join("pkg-1.0/sub")
        );
        assert_eq!(expand_subdir_glob(d.path(), "").unwrap(), d.path());
        assert_eq!(
            expand_subdir_glob(d.path(), "nope").unwrap_err(),
            "subdir \"nope\" not found"
        );
        std::fs::create_dir_all(d.path().join("other")).unwrap();
        assert_eq!(
            expand_subdir_glob(d.path(), "*").unwrap_err(),
            "subdir \"*\" matches multiple paths"
        );
    }
}
