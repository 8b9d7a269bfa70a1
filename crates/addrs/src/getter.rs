//! go-getter's address handling as OpenTofu configures it
//! (`internal/getmodules`): splitting off `//subdir`, forced getters
//! (`git::`), and the detectors that turn shorthands such as
//! `github.com/o/r` into full package addresses.
//!
//! Only string manipulation lives here; fetching is the installer's job.

use crate::gourl::{encode_query, parse_query, GoUrl};

/// Why a package address could not be normalized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetectError {
    /// No detector recognized the address and it is not absolute, so it may
    /// be a relative path missing its `./` prefix (`getmodules.MaybeRelativePathErr`).
    MaybeRelativePath { addr: String },
    /// Any other detector failure, with go-getter's message.
    Other(String),
}

impl std::fmt::Display for DetectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DetectError::MaybeRelativePath { addr } => write!(
                f,
                "OpenTofu cannot detect a supported external module source type for {addr}"
            ),
            DetectError::Other(msg) => f.write_str(msg),
        }
    }
}

/// go-getter's `SourceDirSubdir`: splits `pkg//subdir?query` into
/// `pkg?query` and `subdir`, ignoring the `//` of a `scheme://`.
pub fn source_dir_subdir(src: &str) -> (String, String) {
    let stop = src.find('?').unwrap_or(src.len());
    let offset = src[..stop].find("://").map(|i| i + 3).unwrap_or(0);
    let Some(idx) = src[offset..stop].find("//") else {
        return (src.to_string(), String::new());
    };
    let idx = idx + offset;
    let mut subdir = src[idx + 2..].to_string();
    let mut pkg = src[..idx].to_string();
    if let Some(q) = subdir.find('?') {
        pkg.push_str(&subdir[q..]);
        subdir.truncate(q);
    }
    (pkg, subdir)
}

/// `getmodules.SplitPackageSubdir`: [`source_dir_subdir`] with the subdir
/// cleaned as a slash path.
pub fn split_package_subdir(given: &str) -> (String, String) {
    let (pkg, subdir) = source_dir_subdir(given);
    if subdir.is_empty() {
        (pkg, subdir)
    } else {
        (pkg, clean_path(&subdir))
    }
}

/// go-getter's `getForcedGetter`: `git::https://x` → (`git`, `https://x`).
pub fn forced_getter(src: &str) -> (&str, &str) {
    if let Some(i) = src.find("::") {
        let (name, rest) = (&src[..i], &src[i + 2..]);
        if !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric()) && !rest.is_empty() {
            return (name, rest);
        }
    }
    ("", src)
}

/// `getmodules.NormalizePackageAddress`: runs go-getter's detection over a
/// package address (subdir already split off) and returns the normalized
/// address and any subdirectory a detector introduced.
pub fn normalize_package_address(given: &str) -> Result<(String, String), DetectError> {
    let result = detect(given)?;
    Ok(split_package_subdir(&result))
}

/// go-getter's `Detect` with OpenTofu's detector list: GitHub, Git (scp-like
/// SSH), BitBucket, GCS, S3, then absolute file paths.
fn detect(src: &str) -> Result<String, DetectError> {
    let (force, get_src) = forced_getter(src);
    let (get_src, subdir) = source_dir_subdir(get_src);
    if let Ok(u) = GoUrl::parse(&get_src) {
        if !u.scheme.is_empty() {
            return Ok(src.to_string());
        }
    }
    type Detector = fn(&str) -> Result<Option<String>, DetectError>;
    let detectors: [Detector; 6] = [
        detect_github,
        detect_git_ssh,
        detect_bitbucket,
        detect_gcs,
        detect_s3,
        detect_file,
    ];
    for d in detectors {
        if let Some(result) = d(&get_src)? {
            return handle_detected(&result, force, &subdir);
        }
    }
    Err(DetectError::Other(format!("invalid source string: {src}")))
}

fn handle_detected(detected: &str, src_force: &str, subdir: &str) -> Result<String, DetectError> {
    let (detect_force, result) = forced_getter(detected);
    let (mut result, detect_subdir) = source_dir_subdir(result);
    let mut subdir = subdir.to_string();
    if !detect_subdir.is_empty() {
        subdir = if subdir.is_empty() {
            detect_subdir
        } else {
            clean_path(&format!("{detect_subdir}/{subdir}"))
        };
    }
    if !subdir.is_empty() {
        let mut u = GoUrl::parse(&result)
            .map_err(|e| DetectError::Other(format!("Error parsing URL: {e}")))?;
        u.path.push_str("//");
        u.path.push_str(&subdir);
        u.raw_path = u.path.clone();
        result = u.to_go_string();
    }
    if !src_force.is_empty() {
        Ok(format!("{src_force}::{result}"))
    } else if !detect_force.is_empty() {
        Ok(format!("{detect_force}::{result}"))
    } else {
        Ok(result)
    }
}

fn detect_github(src: &str) -> Result<Option<String>, DetectError> {
    if !src.starts_with("github.com/") {
        return Ok(None);
    }
    let parts: Vec<&str> = src.split('?').collect();
    if parts.len() > 2 {
        return Err(DetectError::Other(
            "there is more than 1 '?' in the URL".to_string(),
        ));
    }
    let segs: Vec<&str> = parts[0].split('/').collect();
    if segs.len() < 3 {
        return Err(DetectError::Other(
            "GitHub URLs should be github.com/username/repo".to_string(),
        ));
    }
    let mut u = GoUrl::parse(&format!("https://{}", segs[..3].join("/")))
        .map_err(|e| DetectError::Other(format!("error parsing GitHub URL: {e}")))?;
    if !u.path.ends_with(".git") {
        u.path.push_str(".git");
    }
    if segs.len() > 3 {
        u.path.push_str("//");
        u.path.push_str(&segs[3..].join("/"));
    }
    if parts.len() == 2 {
        u.raw_query = parts[1].to_string();
    }
    Ok(Some(format!("git::{}", u.to_go_string())))
}

/// The scp-like `user@host:path` form: go-getter's
/// `^(?:([^@]+)@)?([^:]+):/?(.+)$`, as (user, host, path).
fn match_scp_like(src: &str) -> Option<(&str, &str, &str)> {
    // host `[^:]+` runs to the first colon; `/?` gives way when the path
    // would otherwise be empty.
    let host_path = |rest: &str| -> Option<(usize, usize)> {
        let colon = rest.find(':')?;
        if colon == 0 {
            return None;
        }
        let after = &rest[colon + 1..];
        let path_start = if after.starts_with('/') && after.len() > 1 {
            colon + 2
        } else {
            colon + 1
        };
        (path_start < rest.len()).then_some((colon, path_start))
    };
    // The optional user group is tried first; `[^@]+` stops at the first '@'.
    if let Some(at) = src.find('@').filter(|at| *at > 0) {
        let rest = &src[at + 1..];
        if let Some((colon, path_start)) = host_path(rest) {
            return Some((&src[..at], &rest[..colon], &rest[path_start..]));
        }
    }
    let (colon, path_start) = host_path(src)?;
    Some(("", &src[..colon], &src[path_start..]))
}

fn detect_git_ssh(src: &str) -> Result<Option<String>, DetectError> {
    let Some((user, host, path)) = match_scp_like(src) else {
        return Ok(None);
    };
    if user != "git" {
        return Ok(None);
    }
    let (path, query) = match path.find('?') {
        Some(q) => (&path[..q], Some(&path[q + 1..])),
        None => (path, None),
    };
    let mut u = GoUrl {
        scheme: "ssh".to_string(),
        user: Some((user.to_string(), None)),
        host: host.to_string(),
        path: path.to_string(),
        ..GoUrl::default()
    };
    if let Some(q) = query {
        let (values, err) = parse_query(q);
        if let Some(e) = err {
            return Err(DetectError::Other(format!(
                "error parsing Git SSH URL: {e}"
            )));
        }
        u.raw_query = encode_query(&values);
    }
    Ok(Some(format!("git::{}", u.to_go_string())))
}

/// go-getter asks BitBucket's API whether a repository is Git or Mercurial;
/// BitBucket has hosted only Git for years, so this assumes Git without a
/// network request.
fn detect_bitbucket(src: &str) -> Result<Option<String>, DetectError> {
    if !src.starts_with("bitbucket.org/") {
        return Ok(None);
    }
    let mut u = GoUrl::parse(&format!("https://{src}"))
        .map_err(|e| DetectError::Other(format!("error parsing BitBucket URL: {e}")))?;
    if !u.path.ends_with(".git") {
        u.path.push_str(".git");
    }
    Ok(Some(format!("git::{}", u.to_go_string())))
}

fn detect_gcs(src: &str) -> Result<Option<String>, DetectError> {
    if !src.contains(".googleapis.com/") {
        return Ok(None);
    }
    let parts: Vec<&str> = src.split('/').collect();
    if parts.len() < 5 {
        return Err(DetectError::Other("URL is not a valid GCS URL".to_string()));
    }
    let url = format!(
        "https://www.googleapis.com/storage/{}/{}/{}",
        parts[2],
        parts[3],
        parts[4..].join("/")
    );
    let u = GoUrl::parse(&url)
        .map_err(|e| DetectError::Other(format!("error parsing GCS URL: {e}")))?;
    Ok(Some(format!("gcs::{}", u.to_go_string())))
}

/// go-getter v1.8.6's `S3Detector`: only an address naming an
/// `.amazonaws.com/` host is S3's to judge (anything else, however
/// malformed, goes on to the next detector).
fn detect_s3(src: &str) -> Result<Option<String>, DetectError> {
    if !src.contains(".amazonaws.com/") {
        return Ok(None);
    }
    let full = src.to_string();
    let parts: Vec<&str> = full.split('/').collect();
    let invalid = || DetectError::Other("URL is not a valid S3 URL".to_string());
    if parts.len() < 2 {
        return Err(invalid());
    }
    let host: Vec<&str> = parts[0].split('.').collect();
    let rest = parts[1..].join("/");
    let url = match host.len() {
        3 => format!("https://{}.amazonaws.com/{rest}", host[0]),
        4 => format!("https://{}.amazonaws.com/{}/{rest}", host[1], host[0]),
        5 if host[1] == "s3" => format!("https://s3.{}.amazonaws.com/{}/{rest}", host[2], host[0]),
        _ => return Err(invalid()),
    };
    let u =
        GoUrl::parse(&url).map_err(|e| DetectError::Other(format!("error parsing S3 URL: {e}")))?;
    Ok(Some(format!("s3::{}", u.to_go_string())))
}

/// OpenTofu's replacement file detector: absolute paths become `file://`
/// URLs, anything else may be a relative path missing its prefix.
fn detect_file(src: &str) -> Result<Option<String>, DetectError> {
    if src.is_empty() {
        return Ok(None);
    }
    match src.strip_prefix('/') {
        Some(rest) => Ok(Some(format!("file:///{rest}"))),
        None => Err(DetectError::MaybeRelativePath {
            addr: src.to_string(),
        }),
    }
}

/// The archive format go-getter would unpack the package as: the `archive`
/// query argument, else the longest known extension of the URL path.
/// `archive=false` (or any false boolean) disables unpacking.
pub fn archive_format(package: &str) -> Option<String> {
    const FORMATS: [&str; 11] = [
        "bz2", "gz", "xz", "zip", "tar.bz2", "tar.tbz2", "tar.gz", "tgz", "tar.xz", "txz",
        "tar.zst",
    ];
    let (_, rest) = forced_getter(package);
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, q),
        None => (rest, ""),
    };
    let (values, _) = parse_query(query);
    if let Some(v) = values.get("archive").and_then(|v| v.first()) {
        if !v.is_empty() {
            if matches!(v.as_str(), "0" | "f" | "F" | "false" | "FALSE" | "False") {
                return None;
            }
            return Some(v.clone());
        }
    }
    FORMATS
        .iter()
        .filter(|f| **f != "tar.zst")
        .filter(|f| path.ends_with(&format!(".{f}")))
        .max_by_key(|f| f.len())
        .map(|f| f.to_string())
}

/// `path` relative to `base`, lexically, both cleaned first (`path.Clean`):
/// `modules/vpc` from `live/prod` is `../../modules/vpc`, and a path from
/// itself is `.`. Both are relative to the same directory, or both absolute.
pub fn relative_path(path: &str, base: &str) -> String {
    let (path, base) = (clean_path(path), clean_path(base));
    let parts = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .map(str::to_string)
            .collect()
    };
    let (p, b) = (parts(&path), parts(&base));
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = vec!["..".to_string(); b.len() - common];
    out.extend(p[common..].iter().cloned());
    if out.is_empty() {
        ".".to_string()
    } else {
        out.join("/")
    }
}

/// Go's `path.Clean`.
pub fn clean_path(p: &str) -> String {
    if p.is_empty() {
        return ".".to_string();
    }
    let rooted = p.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|l| *l != "..") {
                    out.pop();
                } else if !rooted {
                    out.push("..");
                }
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative_path("modules/vpc", "live/prod"),
            "../../modules/vpc"
        );
        assert_eq!(relative_path("live/prod/", "./live/prod"), ".");
        assert_eq!(relative_path("live/a/../b", "live"), "b");
        assert_eq!(relative_path("/a/b/c", "/a/d"), "../b/c");
    }

    #[test]
    fn subdir_splitting() {
        let cases = [
            ("dom.com/path/?q=p", "dom.com/path/?q=p", ""),
            (
                "proto://dom.com/path//*?q=p",
                "proto://dom.com/path?q=p",
                "*",
            ),
            (
                "proto://dom.com/path//path2?q=p",
                "proto://dom.com/path?q=p",
                "path2",
            ),
            ("hashicorp/consul/aws//foo", "hashicorp/consul/aws", "foo"),
            ("/tmp/foo//example", "/tmp/foo", "example"),
        ];
        for (input, pkg, sub) in cases {
            assert_eq!(
                source_dir_subdir(input),
                (pkg.to_string(), sub.to_string()),
                "{input}"
            );
        }
    }

    #[test]
    fn detection() {
        let cases = [
            (
                "github.com/hashicorp/foo",
                "git::https://github.com/hashicorp/foo.git",
            ),
            (
                "github.com/hashicorp/foo.git",
                "git::https://github.com/hashicorp/foo.git",
            ),
            (
                "github.com/hashicorp/foo/bar",
                "git::https://github.com/hashicorp/foo.git//bar",
            ),
            (
                "github.com/hashicorp/foo?foo=bar",
                "git::https://github.com/hashicorp/foo.git?foo=bar",
            ),
            (
                "git@github.com:hashicorp/foo.git",
                "git::ssh://git@github.com/hashicorp/foo.git",
            ),
            (
                "git@github.com:hashicorp/foo.git?ref=v1&a=b",
                "git::ssh://git@github.com/hashicorp/foo.git?a=b&ref=v1",
            ),
            (
                "git@github.com:org/project.git//module/a?ref=test-branch",
                "git::ssh://git@github.com/org/project.git//module/a?ref=test-branch",
            ),
            (
                "bitbucket.org/hashicorp/tf-test-git",
                "git::https://bitbucket.org/hashicorp/tf-test-git.git",
            ),
            (
                "s3.amazonaws.com/bucket/foo",
                "s3::https://s3.amazonaws.com/bucket/foo",
            ),
            (
                "bucket.s3.amazonaws.com/foo",
                "s3::https://s3.amazonaws.com/bucket/foo",
            ),
            (
                "bucket.s3.eu-west-1.amazonaws.com/foo/bar.baz",
                "s3::https://s3.eu-west-1.amazonaws.com/bucket/foo/bar.baz",
            ),
            ("/foo/bar", "file:///foo/bar"),
            (
                "git::github.com/hashicorp/foo",
                "git::https://github.com/hashicorp/foo.git",
            ),
            ("https://example.com/x", "https://example.com/x"),
        ];
        for (input, want) in cases {
            assert_eq!(detect(input).as_deref(), Ok(want), "{input}");
        }
    }

    #[test]
    fn relative_paths_are_rejected() {
        assert_eq!(
            detect("boop/bloop").unwrap_err().to_string(),
            "OpenTofu cannot detect a supported external module source type for boop/bloop"
        );
    }

    #[test]
    fn archive_formats() {
        let cases = [
            ("https://example.com/module.zip", Some("zip")),
            ("https://example.com/module.tar.gz", Some("tar.gz")),
            ("https://example.com/module.tgz", Some("tgz")),
            ("https://example.com/module?archive=tar", Some("tar")),
            ("https://example.com/module.zip?archive=false", None),
            ("git::https://example.com/module.git", None),
        ];
        for (input, want) in cases {
            assert_eq!(archive_format(input).as_deref(), want, "{input}");
        }
    }

    #[test]
    fn go_path_clean() {
        for (i, w) in [
            ("a/../b", "b"),
            ("./a//b/", "a/b"),
            ("../a", "../a"),
            ("a/../../b", "../b"),
            ("/../a", "/a"),
            ("", "."),
            ("example/../../invalid", "../invalid"),
        ] {
            assert_eq!(clean_path(i), w, "{i}");
        }
    }
}
