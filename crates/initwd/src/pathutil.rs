//! Go's path helpers as the installer relies on them: `filepath.Join`
//! (which cleans), `filepath.EvalSymlinks` (which keeps relative paths
//! relative), and Go's wording of I/O errors.
//!
//! Paths here are relative to an explicit working directory rather than
//! the process's, so installs in different directories can run side by
//! side in one process.

use std::io;
use std::path::{Path, PathBuf};

/// `filepath.Join`: the non-empty parts joined with `/`, then cleaned.
pub fn join(parts: &[&str]) -> String {
    let parts: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return String::new();
    }
    addrs::clean_path(&parts.join("/"))
}

/// Resolves `p` (absolute, or relative to `base`) for file system calls.
pub fn under(base: &Path, p: &str) -> PathBuf {
    let path = Path::new(p);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    }
}

/// Go's text for an I/O error (one implementation, in `unpack`, the
/// lowest crate that words file system errors as Go does).
pub use unpack::go_io_text as go_io_error_text;

/// An `*fs.PathError` message: `op path: reason`.
pub fn path_error(op: &str, path: &str, e: &io::Error) -> String {
    format!("{op} {path}: {}", go_io_error_text(e))
}

/// `filepath.EvalSymlinks` for unix-style paths, resolving relative paths
/// against `base` but returning them in the same (relative) form Go does:
/// each component is checked with `lstat`, links are followed (relative
/// link targets replace the last component, absolute ones restart from
/// `/`), and the result is cleaned. Fails if a component is missing or a
/// non-final component is not a directory.
pub fn eval_symlinks(base: &Path, path: &str) -> Result<String, String> {
    let mut path = path.to_string();
    let mut vol_len = usize::from(path.starts_with('/'));
    let mut vol = path[..vol_len].to_string();
    let mut dest = vol.clone();
    let mut links = 0;
    let mut start = vol_len;
    while start < path.len() {
        let b = path.as_bytes();
        while start < b.len() && b[start] == b'/' {
            start += 1;
        }
        let mut end = start;
        while end < b.len() && b[end] != b'/' {
            end += 1;
        }
        let comp = &path[start..end];
        if comp.is_empty() {
            break;
        }
        if comp == "." {
            start = end;
            continue;
        }
        if comp == ".." {
            let r = dest[vol_len.min(dest.len())..]
                .rfind('/')
                .map(|i| i + vol_len);
            match r {
                Some(r) if &dest[r + 1..] != ".." => dest.truncate(r),
                _ => {
                    if dest.len() > vol_len {
                        dest.push('/');
                    }
                    dest.push_str("..");
                }
            }
            start = end;
            continue;
        }
        if !dest.is_empty() && !dest.ends_with('/') {
            dest.push('/');
        }
        dest.push_str(comp);
        let full = under(base, &dest);
        let meta = std::fs::symlink_metadata(&full).map_err(|e| path_error("lstat", &dest, &e))?;
        if !meta.file_type().is_symlink() {
            if !meta.is_dir() && end < path.len() {
                return Err(format!("lstat {dest}: not a directory"));
            }
            start = end;
            continue;
        }
        links += 1;
        if links > 255 {
            return Err("EvalSymlinks: too many links".to_string());
        }
        let link = std::fs::read_link(&full).map_err(|e| path_error("readlink", &dest, &e))?;
        let link = link.to_string_lossy().into_owned();
        let rest = path[end..].to_string();
        path = format!("{link}{rest}");
        if link.starts_with('/') {
            dest = "/".to_string();
            vol = "/".to_string();
            vol_len = 1;
            start = 1;
        } else {
            match dest[vol_len.min(dest.len())..]
                .rfind('/')
                .map(|i| i + vol_len)
            {
                Some(r) => dest.truncate(r),
                None => dest = vol.clone(),
            }
            start = 0;
        }
    }
    Ok(addrs::clean_path(&dest))
}

/// Refuses a fetched package that holds symlinks leading outside it, so a
/// package cannot make later reads (module loading, copying) escape into
/// the rest of the file system. Returns the first offending link.
pub fn check_symlinks_inside(root: &Path) -> Result<(), String> {
    fn walk(root: &Path, dir: &Path) -> Result<(), String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| path_error("open", &dir.display().to_string(), &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| go_io_error_text(&e))?;
            let path = entry.path();
            let ft = entry.file_type().map_err(|e| go_io_error_text(&e))?;
            let rel = path.strip_prefix(root).unwrap_or(&path);
            if ft.is_symlink() {
                let target = std::fs::read_link(&path)
                    .map_err(|e| path_error("readlink", &path.display().to_string(), &e))?;
                if !unpack::link_stays_inside(rel, &target) {
                    return Err(format!(
                        "symbolic link {} points to {}, outside of the module package",
                        addrs::go_quote(&rel.to_string_lossy()),
                        addrs::go_quote(&target.to_string_lossy())
                    ));
                }
            } else if ft.is_dir() {
                if rel == Path::new(".git") {
                    continue;
                }
                walk(root, &path)?;
            }
        }
        Ok(())
    }
    walk(root, root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_cleans() {
        assert_eq!(join(&[".", "./modules/vpc"]), "modules/vpc");
        assert_eq!(
            join(&[".terraform/modules/net", "../x"]),
            ".terraform/modules/x"
        );
        assert_eq!(join(&["a", ""]), "a");
        assert_eq!(join(&["/abs", "./b"]), "/abs/b");
    }

    #[cfg(unix)]
    #[test]
    fn eval_symlinks_keeps_relative_form() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        std::fs::create_dir_all(base.join("real/sub")).unwrap();
        std::os::unix::fs::symlink("real", base.join("link")).unwrap();
        std::os::unix::fs::symlink("../real/sub", base.join("real/up")).unwrap();
        assert_eq!(eval_symlinks(base, "link/sub").unwrap(), "real/sub");
        assert_eq!(eval_symlinks(base, "./real/up").unwrap(), "real/sub");
        assert_eq!(eval_symlinks(base, "real/../real/sub").unwrap(), "real/sub");
        assert_eq!(eval_symlinks(base, ".").unwrap(), ".");
        assert_eq!(
            eval_symlinks(base, "nope/x").unwrap_err(),
            "lstat nope: no such file or directory"
        );
        let abs = base.join("real").to_string_lossy().into_owned();
        std::os::unix::fs::symlink(&abs, base.join("abs")).unwrap();
        assert_eq!(
            eval_symlinks(base, "abs/sub").unwrap(),
            format!("{abs}/sub")
        );
    }
}
