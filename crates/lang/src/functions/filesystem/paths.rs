//! Go's `path/filepath` (Unix), `mitchellh/go-homedir` and the texts of
//! Go's `*PathError`s, which OpenTofu's file functions show.

use std::io;

/// `filepath.Clean`.
pub(crate) fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let p = path.as_bytes();
    let n = p.len();
    let rooted = p[0] == b'/';
    let mut out: Vec<u8> = Vec::with_capacity(n);
    let (mut r, mut dotdot) = (0, 0);
    if rooted {
        out.push(b'/');
        r = 1;
        dotdot = 1;
    }
    while r < n {
        if p[r] == b'/' || (p[r] == b'.' && (r + 1 == n || p[r + 1] == b'/')) {
            r += 1;
        } else if p[r] == b'.' && p[r + 1] == b'.' && (r + 2 == n || p[r + 2] == b'/') {
            r += 2;
            if out.len() > dotdot {
                let mut w = out.len() - 1;
                while w > dotdot && out[w] != b'/' {
                    w -= 1;
                }
                out.truncate(w);
            } else if !rooted {
                if !out.is_empty() {
                    out.push(b'/');
                }
                out.extend_from_slice(b"..");
                dotdot = out.len();
            }
        } else {
            if (rooted && out.len() != 1) || (!rooted && !out.is_empty()) {
                out.push(b'/');
            }
            while r < n && p[r] != b'/' {
                out.push(p[r]);
                r += 1;
            }
        }
    }
    if out.is_empty() {
        return ".".to_string();
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `filepath.Join`.
pub(crate) fn join(parts: &[&str]) -> String {
    let nonempty: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
    if nonempty.is_empty() {
        return String::new();
    }
    clean(&nonempty.join("/"))
}

/// `filepath.IsAbs`.
pub(crate) fn is_abs(path: &str) -> bool {
    path.starts_with('/')
}

/// `filepath.Base`.
pub(crate) fn base(path: &str) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".to_string();
    }
    match trimmed.rfind('/') {
        Some(i) => trimmed[i + 1..].to_string(),
        None => trimmed.to_string(),
    }
}

/// `filepath.Dir`.
pub(crate) fn dir(path: &str) -> String {
    let i = path.rfind('/').map_or(0, |i| i + 1);
    clean(&path[..i])
}

/// `filepath.Abs`.
pub(crate) fn abs(path: &str) -> Result<String, String> {
    if is_abs(path) {
        return Ok(clean(path));
    }
    let cwd = std::env::current_dir().map_err(|e| go_error_text(&e))?;
    Ok(join(&[&cwd.to_string_lossy(), path]))
}

/// `filepath.Rel`.
pub(crate) fn rel(basepath: &str, targpath: &str) -> Result<String, String> {
    let base = clean(basepath);
    let targ = clean(targpath);
    if targ == base {
        return Ok(".".to_string());
    }
    let base = if base == "." { String::new() } else { base };
    if is_abs(&base) != is_abs(&targ) {
        return Err(format!("Rel: can't make {targpath} relative to {basepath}"));
    }
    let bparts: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    let tparts: Vec<&str> = targ.split('/').filter(|s| !s.is_empty()).collect();
    let common = bparts
        .iter()
        .zip(&tparts)
        .take_while(|(a, b)| a == b)
        .count();
    if bparts[common..].contains(&"..") {
        return Err(format!("Rel: can't make {targpath} relative to {basepath}"));
    }
    let mut out: Vec<&str> = vec![".."; bparts.len() - common];
    out.extend_from_slice(&tparts[common..]);
    Ok(out.join("/"))
}

/// `homedir.Expand`.
pub(crate) fn expand_home(path: &str) -> Result<String, String> {
    if !path.starts_with('~') {
        return Ok(path.to_string());
    }
    if path.len() > 1 && !path[1..].starts_with('/') && !path[1..].starts_with('\\') {
        return Err("cannot expand user-specific home dir".to_string());
    }
    let home = std::env::var("HOME").unwrap_or_default();
    if home.is_empty() {
        return Err("blank output when reading home directory".to_string());
    }
    Ok(join(&[&home, &path[1..]]))
}

/// The text Go's `syscall.Errno` gives for an I/O error.
pub(crate) fn go_error_text(e: &io::Error) -> String {
    let known = match e.raw_os_error() {
        Some(1) => "operation not permitted",
        Some(2) => "no such file or directory",
        Some(5) => "input/output error",
        Some(13) => "permission denied",
        Some(20) => "not a directory",
        Some(21) => "is a directory",
        Some(24) => "too many open files",
        Some(36) => "file name too long",
        Some(40) => "too many levels of symbolic links",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_string();
    }
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::InvalidData => "invalid argument".into(),
        _ => {
            let s = e.to_string();
            // Drop Rust's " (os error N)" suffix and lower-case the start.
            let s = s.split(" (os error").next().unwrap_or(&s).to_string();
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
                None => s,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_paths() {
        let cleans = [
            ("", "."),
            ("abc", "abc"),
            ("abc/def/", "abc/def"),
            ("a/b/c/..", "a/b"),
            ("/../abc", "/abc"),
            ("../../abc", "../../abc"),
            ("abc/../../x", "../x"),
            ("./a//b/./c", "a/b/c"),
            ("/", "/"),
            ("//a", "/a"),
            ("a/..", "."),
            ("/a/..", "/"),
            ("abc/def/../../..", ".."),
            ("..", ".."),
            ("a/../..", ".."),
            ("a/b/../../../c", "../c"),
        ];
        for (i, w) in cleans {
            assert_eq!(clean(i), w, "clean({i:?})");
        }
        assert_eq!(base(""), ".");
        assert_eq!(base("/"), "/");
        assert_eq!(base("a/b/"), "b");
        assert_eq!(base("foo/bar/baz.txt"), "baz.txt");
        assert_eq!(dir(""), ".");
        assert_eq!(dir("foo/bar/baz.txt"), "foo/bar");
        assert_eq!(dir("/foo"), "/");
        assert_eq!(dir("foo"), ".");
        assert_eq!(dir("foo/"), "foo");
        assert_eq!(join(&["a", "", "b/../c"]), "a/c");
        assert_eq!(join(&["", ""]), "");
        assert_eq!(rel("a", "a/b/c").unwrap(), "b/c");
        assert_eq!(rel(".", "x/y").unwrap(), "x/y");
        assert_eq!(rel("a/b", "a/c").unwrap(), "../c");
        assert_eq!(rel("/a", "/a").unwrap(), ".");
        assert!(expand_home("~x/a").is_err());
        assert_eq!(expand_home("a/~").unwrap(), "a/~");
    }
}
