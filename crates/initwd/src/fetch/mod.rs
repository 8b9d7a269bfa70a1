//! Fetching one whole module package into a directory, as go-getter's
//! `Client.Get` does in directory mode with OpenTofu's getters: `git::`,
//! `http(s)://` (archives, or `X-Terraform-Get` indirection) and
//! `file://`. Subdirectories are never handled here: the installer always
//! fetches whole packages and selects `//subdir` afterwards.

pub mod git;
mod git_export;
mod git_resolve;
mod git_store;
mod git_submodules;
pub mod http;
mod session;
mod subdir;

use std::path::Path;

pub use http::HttpSettings;
pub use session::FetchSession;
pub(crate) use session::FetchStats;
pub use subdir::expand_subdir_glob;

use crate::module_cache::{CacheKey, Filled};

use crate::pathutil::{check_symlinks_inside, go_io_error_text, path_error};

/// go-getter's `getForcedGetter`: `git::https://x` → (`git`, `https://x`).
pub fn forced_getter(src: &str) -> (&str, &str) {
    if let Some(i) = src.find("::") {
        let (name, rest) = (&src[..i], &src[i + 2..]);
        if !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric()) {
            return (name, rest);
        }
    }
    ("", src)
}

/// Takes `archive=` out of the query, returning the format it names (or
/// the one the URL's extension implies) and the URL without it. A name
/// OpenTofu has no decompressor for (`archive=tar`) is no archive at
/// all, as go-getter treats it.
fn archive_and_url(url: &str) -> (Option<unpack::Format>, String) {
    let format = addrs::archive_format(url).and_then(|f| unpack::Format::from_name(&f));
    let Ok(mut u) = url::Url::parse(url) else {
        return (format, url.to_string());
    };
    if u.query_pairs().any(|(k, _)| k == "archive") {
        let rest: Vec<(String, String)> = u
            .query_pairs()
            .filter(|(k, _)| k != "archive")
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if rest.is_empty() {
            u.set_query(None);
        } else {
            u.query_pairs_mut().clear().extend_pairs(rest);
        }
    }
    (format, u.to_string())
}

/// go-getter's `RedactURL`: a password in the URL shown as `redacted`.
fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("redacted"));
            u.to_string()
        }
        _ => url.to_string(),
    }
}

/// Whether `package` is a local directory (a `file://` address that is
/// no archive): installed as a link to the directory, nothing to cache.
pub(crate) fn is_local_directory(package: &str) -> bool {
    let (force, url) = forced_getter(package);
    let (archive, url) = archive_and_url(url);
    archive.is_none() && (force == "file" || (force.is_empty() && url.starts_with("file:")))
}

/// [`redact`] for every URL in a space-separated text.
pub(crate) fn redact_in(text: &str) -> String {
    text.split(' ').map(redact).collect::<Vec<_>>().join(" ")
}

/// What a package fetch may use besides the package's address.
#[derive(Clone, Copy)]
pub(crate) struct FetchEnv<'a> {
    pub(crate) settings: &'a HttpSettings,
    pub(crate) session: &'a FetchSession,
    /// Refresh what the cache would reuse without asking (`-upgrade`).
    pub(crate) upgrade: bool,
    /// Where run-wide staging goes (git stores, without a cache): the
    /// modules directory.
    pub(crate) staging_near: &'a Path,
}

/// Fetches the package at `package` (a normalized go-getter address, no
/// `//subdir`) into `dst`, which must not exist yet, with no cache and a
/// session of its own. Errors read as go-getter's do (`error downloading
/// '<url>': <cause>`).
pub fn fetch_package(package: &str, dst: &Path, settings: &HttpSettings) -> Result<(), String> {
    let session = FetchSession::new(None);
    let near = dst.parent().unwrap_or(Path::new("."));
    let env = FetchEnv {
        settings,
        session: &session,
        upgrade: false,
        staging_near: near,
    };
    fetch_package_in(package, dst, &env)
}

/// [`fetch_package`] within a run's session.
pub(crate) fn fetch_package_in(
    package: &str,
    dst: &Path,
    env: &FetchEnv<'_>,
) -> Result<(), String> {
    fetch_package_depth(package, dst, env, 0)
}

fn fetch_package_depth(
    package: &str,
    dst: &Path,
    env: &FetchEnv<'_>,
    redirects: u32,
) -> Result<(), String> {
    let settings = env.settings;
    let (force, url) = forced_getter(package);
    let (archive, url) = archive_and_url(url);
    let scheme = match url::Url::parse(&url) {
        Ok(u) => u.scheme().to_string(),
        Err(e) => return Err(format!("parse {}: {e}", addrs::go_quote(&url))),
    };
    let getter = if force.is_empty() {
        scheme.as_str()
    } else {
        force
    };
    let wrap = |e: String| format!("error downloading '{}': {e}", redact(&url));
    match getter {
        "git" => {
            let src = git::parse_git_source(&url).map_err(wrap)?;
            git::fetch_git(&src, dst, env).map_err(wrap)?;
            check_symlinks_inside(dst).map_err(wrap)
        }
        "http" | "https" => {
            let agent = http::agent(settings);
            if let Some(format) = archive {
                // go-getter downloads into a temporary directory of its
                // own and unpacks from there; errors are not wrapped.
                let tmp = staging_dir(dst)
                    .map_err(|e| format!("Error creating temporary directory for archive: {e}"))?;
                let file = tmp.path().join("archive");
                http::get_file(&agent, &url, &file)?;
                return unpack_cached(format, &url, &file, dst, env);
            }
            if redirects >= http::X_TERRAFORM_GET_LIMIT {
                return Err(wrap(format!(
                    "too many X-Terraform-Get redirects: {}",
                    redirects + 1
                )));
            }
            let source = http::get_source_location(&agent, &url).map_err(wrap)?;
            // Each hop is a go-getter `Get` of its own, whose failure the
            // outer one wraps again: a loop of indirections reads as ten
            // nested `error downloading` before the limit's message.
            fetch_indirect(&source, dst, env, redirects + 1).map_err(wrap)
        }
        "file" => {
            if let Some(format) = archive {
                let path = file_url_path(&url)?;
                return unpack_cached(format, &url, Path::new(&path), dst, env);
            }
            fetch_file_dir(&url, dst).map_err(wrap)
        }
        "s3" | "gcs" | "hg" | "oci" => Err(format!(
            "download not supported for scheme '{getter}': this build of OpenTofu cannot install {getter} module packages"
        )),
        other => Err(format!("download not supported for scheme '{other}'")),
    }
}

/// Fetches the package an `X-Terraform-Get` answer names, as
/// go-getter's `HttpGetter.getSubdir` does when it names a subdirectory:
/// the whole package elsewhere, then only that subdirectory. A
/// subdirectory with `..` would have go-getter copy from outside its
/// temporary directory; it is refused in the words go-getter uses for
/// the same escape in a source address.
fn fetch_indirect(
    source: &str,
    dst: &Path,
    env: &FetchEnv<'_>,
    redirects: u32,
) -> Result<(), String> {
    let (pkg, sub) = addrs::split_package_subdir(source);
    if sub.is_empty() {
        return fetch_package_depth(&pkg, dst, env, redirects);
    }
    if unpack::contains_dot_dot(&addrs::clean_path(&sub)) {
        return Err(
            "subdirectory component contain path traversal out of the repository".to_string(),
        );
    }
    // go-getter's getSubdir: fetch the whole package elsewhere, then keep
    // only the subdirectory.
    let tmp = staging_dir(dst).map_err(|e| format!("failed to create temporary directory: {e}"))?;
    let whole = tmp.path().join("pkg");
    fetch_package_depth(&pkg, &whole, env, redirects)?;
    let sub_dir = expand_subdir_glob(&whole, &sub)?;
    check_symlinks_inside(&whole)?;
    std::fs::create_dir_all(dst)
        .map_err(|e| path_error("mkdir", &dst.display().to_string(), &e))?;
    copy_dir(&sub_dir, dst)
}

/// Unpacks the archive `file` (downloaded from `url`) into `dst`; with a
/// module cache, the unpacked tree is kept by the archive's address and
/// the SHA-256 of its bytes, so the same bytes are unpacked only once.
fn unpack_cached(
    format: unpack::Format,
    url: &str,
    file: &Path,
    dst: &Path,
    env: &FetchEnv<'_>,
) -> Result<(), String> {
    let unpack =
        |d: &Path| unpack::unpack_file(format, file, d, &mut ()).map_err(|e| e.to_string());
    let Some(cache) = &env.session.cache else {
        return unpack(dst);
    };
    let key = CacheKey::Archive {
        url: url.to_string(),
        sha256: crate::module_cache::file_sha256(file)?,
    };
    if cache.get_or_fill(&key, dst, false, unpack)? == Filled::Hit {
        FetchStats::bump(&env.session.stats.cache_hits);
    }
    Ok(())
}

/// Where go-getter would use a temporary directory of its own (an
/// archive's download, a whole package cut down to its subdirectory):
/// beside `dst` under the installer's staging name, not in the system's
/// temporary directory, so that what a killed run leaves is swept by the
/// next one.
fn staging_dir(dst: &Path) -> std::io::Result<tempfile::TempDir> {
    match dst.parent().filter(|p| p.is_dir()) {
        Some(p) => tempfile::Builder::new()
            .prefix(crate::fetcher::STAGING_PREFIX)
            .tempdir_in(p),
        None => tempfile::tempdir(),
    }
}

fn file_url_path(url: &str) -> Result<String, String> {
    let u = url::Url::parse(url).map_err(|e| e.to_string())?;
    let p = u
        .to_file_path()
        .map_err(|_| format!("invalid file URL {}", addrs::go_quote(url)))?;
    Ok(p.to_string_lossy().into_owned())
}

/// go-getter's `FileGetter.Get` (not copying): the package directory
/// becomes a symbolic link to the source directory.
fn fetch_file_dir(url: &str, dst: &Path) -> Result<(), String> {
    let path = file_url_path(url)?;
    match std::fs::metadata(&path) {
        Err(e) => {
            return Err(format!(
                "source path error: {}",
                path_error("stat", &path, &e)
            ))
        }
        Ok(m) if !m.is_dir() => return Err("source path must be a directory".to_string()),
        Ok(_) => {}
    }
    match std::fs::symlink_metadata(dst) {
        Ok(m) if !m.file_type().is_symlink() => {
            return Err("destination exists and is not a symlink".to_string())
        }
        Ok(_) => std::fs::remove_file(dst).map_err(|e| go_io_error_text(&e))?,
        Err(_) => {}
    }
    if let Some(parent) = dst.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| path_error("mkdir", &parent.display().to_string(), &e))?;
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&path, dst)
            .map_err(|e| path_error("symlink", &dst.display().to_string(), &e))
    }
    #[cfg(not(unix))]
    {
        std::fs::create_dir_all(dst).map_err(|e| go_io_error_text(&e))?;
        copy_dir(Path::new(&path), dst)
    }
}

/// OpenTofu's `copy.CopyDir`: copies `src` (links in its own path
/// resolved) into the existing `dst`, skipping dot files and directories,
/// recreating symbolic links with their targets unchanged and keeping the
/// executable bit.
pub fn copy_dir(src: &Path, dst: &Path) -> Result<(), String> {
    let src = std::fs::canonicalize(src).map_err(|e| {
        format!(
            "failed to evaluate symlinks for source {}: {}",
            addrs::go_quote(&src.display().to_string()),
            go_io_error_text(&e)
        )
    })?;
    copy_tree(&src, dst)
}

fn copy_tree(src: &Path, dst: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(src).map_err(|e| {
        format!(
            "error walking the path {}: {}",
            addrs::go_quote(&src.display().to_string()),
            go_io_error_text(&e)
        )
    })?;
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let from = entry.path();
        let to = dst.join(entry.file_name());
        let ft = entry.file_type().map_err(|e| go_io_error_text(&e))?;
        if ft.is_dir() {
            std::fs::create_dir_all(&to).map_err(|e| {
                format!(
                    "failed to create directory {}: {}",
                    addrs::go_quote(&to.display().to_string()),
                    go_io_error_text(&e)
                )
            })?;
            copy_tree(&from, &to)?;
        } else if ft.is_symlink() {
            let target = std::fs::read_link(&from).map_err(|e| go_io_error_text(&e))?;
            #[cfg(unix)]
            std::os::unix::fs::symlink(&target, &to).map_err(|e| {
                format!(
                    "failed to create symlink {}: {}",
                    addrs::go_quote(&to.display().to_string()),
                    go_io_error_text(&e)
                )
            })?;
            #[cfg(not(unix))]
            let _ = target;
        } else {
            std::fs::copy(&from, &to).map_err(|e| {
                format!(
                    "failed to copy contents from {} to {}: {}",
                    addrs::go_quote(&from.display().to_string()),
                    addrs::go_quote(&to.display().to_string()),
                    go_io_error_text(&e)
                )
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_getters() {
        assert_eq!(forced_getter("git::https://x/y"), ("git", "https://x/y"));
        assert_eq!(forced_getter("https://x/y"), ("", "https://x/y"));
    }

    #[test]
    fn archive_param_is_removed() {
        let (f, u) = archive_and_url("https://x/pkg?archive=zip&a=b");
        assert_eq!(f, Some(unpack::Format::Zip));
        assert_eq!(u, "https://x/pkg?a=b");
        let (f, u) = archive_and_url("https://x/pkg.tgz");
        assert_eq!(f, Some(unpack::Format::TarGz));
        assert_eq!(u, "https://x/pkg.tgz");
        let (f, _) = archive_and_url("https://x/pkg.zip?archive=false");
        assert_eq!(f, None);
        // OpenTofu registers no decompressor for plain tar.
        let (f, u) = archive_and_url("https://x/pkg?archive=tar");
        assert_eq!((f, u.as_str()), (None, "https://x/pkg"));
    }

    #[test]
    fn unknown_scheme() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(
            fetch_package("ftp://x/y", &d.path().join("p"), &HttpSettings::default()).unwrap_err(),
            "download not supported for scheme 'ftp'"
        );
    }

    #[test]
    fn copy_skips_dot_files() {
        let src = tempfile::tempdir().unwrap();
        let dst = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(src.path().join(".git/objects")).unwrap();
        std::fs::create_dir_all(src.path().join("sub")).unwrap();
        std::fs::write(src.path().join("sub/main.tf"), "x").unwrap();
        std::fs::write(src.path().join(".hidden"), "x").unwrap();
        copy_dir(src.path(), dst.path()).unwrap();
        assert!(dst.path().join("sub/main.tf").is_file());
        assert!(!dst.path().join(".git").exists());
        assert!(!dst.path().join(".hidden").exists());
    }
}
