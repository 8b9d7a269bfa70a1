//! A package's `.gitmodules` and its submodule URLs, read as `git
//! submodule update --init` reads them: the file in the checked-out
//! tree, relative URLs (`./x`, `../x`) resolved against the parent
//! repository's URL, and `update = none` submodules left empty.

use std::path::Path;

/// One `[submodule "NAME"]` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Submodule {
    pub(crate) path: String,
    pub(crate) url: String,
    pub(crate) update_none: bool,
}

/// The submodules `.gitmodules` in `dir` names (none without the file).
pub(crate) fn read_gitmodules(dir: &Path) -> Result<Vec<Submodule>, String> {
    let file = dir.join(".gitmodules");
    if !file.is_file() {
        return Ok(Vec::new());
    }
    let cfg =
        git2::Config::open(&file).map_err(|e| format!("git submodule update: {}", e.message()))?;
    let mut names: Vec<String> = Vec::new();
    let mut entries = cfg
        .entries(Some(r"submodule\..*"))
        .map_err(|e| format!("git submodule update: {}", e.message()))?;
    while let Some(entry) = entries.next() {
        let Ok(entry) = entry else { continue };
        let Ok(name) = entry.name() else { continue };
        let Some(rest) = name.strip_prefix("submodule.") else {
            continue;
        };
        if let Some((sub, _)) = rest.rsplit_once('.') {
            if !names.iter().any(|n| n == sub) {
                names.push(sub.to_string());
            }
        }
    }
    let mut subs = Vec::new();
    for name in names {
        let get = |k: &str| cfg.get_string(&format!("submodule.{name}.{k}")).ok();
        let (Some(path), Some(url)) = (get("path"), get("url")) else {
            continue;
        };
        subs.push(Submodule {
            path: path.trim_end_matches('/').to_string(),
            url,
            update_none: get("update").as_deref() == Some("none"),
        });
    }
    Ok(subs)
}

/// git's `relative_url`: `./x` and `../x` taken against `base` (each
/// `../` drops one component, up to a `/` or an scp-style `:`); an
/// absolute path becomes a `file://` URL, and scp-style `user@host:path`
/// the `ssh://` URL git reads it as, so the transport check sees its
/// scheme.
pub(crate) fn resolve_submodule_url(base: &str, url: &str) -> String {
    scp_to_ssh(&join_relative(base, url))
}

/// `[user@]host:path` (a `:` before any `/`, no `://`) as
/// `ssh://[user@]host/path`; anything else unchanged.
fn scp_to_ssh(url: &str) -> String {
    if url.contains("://") {
        return url.to_string();
    }
    match url.split_once(':') {
        Some((host, path)) if !host.is_empty() && !host.contains('/') && host.len() > 1 => {
            let path = path.strip_prefix('/').unwrap_or(path);
            format!("ssh://{host}/{path}")
        }
        _ => url.to_string(),
    }
}

fn join_relative(base: &str, url: &str) -> String {
    if !(url.starts_with("./") || url.starts_with("../")) {
        if url.starts_with('/') {
            return format!("file://{url}");
        }
        return url.to_string();
    }
    let mut remote = base.trim_end_matches('/').to_string();
    let mut rest = url;
    let mut sep = '/';
    loop {
        if let Some(r) = rest.strip_prefix("./") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("../") {
            rest = r;
            if let Some(i) = remote.rfind(['/', ':']) {
                sep = remote.as_bytes()[i] as char;
                remote.truncate(i);
            }
        } else {
            break;
        }
    }
    format!("{remote}{sep}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_urls() {
        let cases = [
            ("file:///tmp/a/super", "../sub", "file:///tmp/a/sub"),
            ("file:///tmp/a/super/", "./sub", "file:///tmp/a/super/sub"),
            (
                "https://host/org/repo.git",
                "../other.git",
                "https://host/org/other.git",
            ),
            (
                "git@host:org/repo.git",
                "../other",
                "ssh://git@host/org/other",
            ),
            ("git@host:repo", "../other", "ssh://git@host/other"),
            (
                "https://x/y",
                "git@github.com:o/r.git",
                "ssh://git@github.com/o/r.git",
            ),
            ("https://x/y", "https://z/w", "https://z/w"),
            ("https://x/y", "/srv/git/w", "file:///srv/git/w"),
        ];
        for (base, url, want) in cases {
            assert_eq!(resolve_submodule_url(base, url), want, "{base} + {url}");
        }
    }

    #[test]
    fn gitmodules_sections() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join(".gitmodules"),
            "[submodule \"a.b\"]\n\tpath = lib/a\n\turl = ../a.git\n[submodule \"skip\"]\n\tpath = s\n\turl = x\n\tupdate = none\n",
        )
        .unwrap();
        let subs = read_gitmodules(d.path()).unwrap();
        assert_eq!(
            subs,
            [
                Submodule {
                    path: "lib/a".into(),
                    url: "../a.git".into(),
                    update_none: false
                },
                Submodule {
                    path: "s".into(),
                    url: "x".into(),
                    update_none: true
                }
            ]
        );
    }
}
