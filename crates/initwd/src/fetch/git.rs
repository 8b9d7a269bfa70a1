//! The `git::` getter (go-getter's `GitGetter`), implemented with libgit2:
//! a repository's tree at `?ref=` (branch, tag or commit; `?depth=N`
//! limits it to a branch or tag, as a shallow clone does), fetched with
//! `?sshkey=` (a base64 private key) when given, submodules included.
//! Unlike go-getter there is no clone per package: each repository is
//! fetched once a run into a bare store (`git_store`), and each package
//! is the commit's tree exported from it (`git_export`) — with no `.git`,
//! which nothing after `init` reads — or linked from the module cache.
//!
//! Unlike go-getter this does not run the user's `git`, so `insteadOf`
//! rewrites and `~/.ssh/config` do not apply; credentials come from the
//! git credential helpers (HTTPS) and the SSH agent.

use std::cell::Cell;
use std::path::Path;

use git2::{Cred, CredentialType, Oid, RemoteCallbacks};

use super::git_export::{export_commit, ExportError};
use super::git_resolve::{resolve, Resolved};
use super::git_submodules::{read_gitmodules, resolve_submodule_url};
use super::session::FetchStats;
use super::FetchEnv;
use crate::module_cache::{CacheKey, Filled, RefRecord};

/// A git package address taken apart: the URL to clone (without the
/// parameters go-getter consumes) and those parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSource {
    /// The clone URL, other query parameters kept (sorted, as Go's
    /// `url.Values.Encode` leaves them).
    pub url: String,
    /// `?ref=`: a branch, tag or commit; empty for the default branch.
    pub reference: String,
    /// `?depth=`: 0 for a full clone. A value that is not an integer is
    /// ignored, as go-getter ignores it.
    pub depth: u32,
    /// `?sshkey=`: the decoded private key.
    pub ssh_key: Option<String>,
}

/// Splits `url` (the part after `git::`) into a [`GitSource`].
pub fn parse_git_source(raw: &str) -> Result<GitSource, String> {
    let mut u = url::Url::parse(raw).map_err(|e| format!("parse {}: {e}", addrs::go_quote(raw)))?;
    let mut reference = String::new();
    let mut depth = 0;
    let mut ssh_key = None;
    let mut rest: Vec<(String, String)> = Vec::new();
    if u.query().is_some() {
        for (k, v) in u.query_pairs() {
            match k.as_ref() {
                "ref" => {
                    if reference.is_empty() {
                        reference = v.into_owned();
                    }
                }
                "depth" => {
                    if depth == 0 {
                        depth = v.parse::<u32>().unwrap_or(0);
                    }
                }
                "sshkey" => {
                    if ssh_key.is_none() {
                        let decoded = decode_base64(&v).ok_or_else(|| {
                            "failed to decode sshkey: illegal base64 data".to_string()
                        })?;
                        ssh_key = Some(String::from_utf8_lossy(&decoded).into_owned());
                    }
                }
                _ => rest.push((k.into_owned(), v.into_owned())),
            }
        }
        rest.sort_by(|a, b| a.0.cmp(&b.0));
        if rest.is_empty() {
            u.set_query(None);
        } else {
            let mut ser = url::form_urlencoded::Serializer::new(String::new());
            for (k, v) in &rest {
                ser.append_pair(k, v);
            }
            u.set_query(Some(&ser.finish()));
        }
    }
    Ok(GitSource {
        url: u.to_string(),
        reference,
        depth,
        ssh_key,
    })
}

/// Standard or URL-safe base64, padding optional.
fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// `^[0-9a-f]{7,40}$`: go-getter's guess that a ref is a commit ID.
pub(crate) fn looks_like_commit_id(r: &str) -> bool {
    (7..=40).contains(&r.len()) && r.bytes().all(|c| c.is_ascii_hexdigit())
}

pub(crate) fn callbacks<'a>(
    ssh_key: Option<&'a str>,
    attempts: &'a Cell<u32>,
) -> RemoteCallbacks<'a> {
    let mut cb = RemoteCallbacks::new();
    cb.credentials(move |url, username, allowed| {
        // libgit2 asks again after each rejected credential; stop after a
        // few rounds rather than loop forever.
        attempts.set(attempts.get() + 1);
        if attempts.get() > 3 {
            return Err(git2::Error::from_str("authentication failed"));
        }
        let user = username.unwrap_or("git");
        if allowed.contains(CredentialType::USERNAME) {
            return Cred::username(user);
        }
        if allowed.contains(CredentialType::SSH_KEY) {
            return match ssh_key {
                Some(key) => Cred::ssh_key_from_memory(user, None, key, None),
                None => Cred::ssh_key_from_agent(user),
            };
        }
        if allowed.contains(CredentialType::USER_PASS_PLAINTEXT) {
            if let Ok(cfg) = git2::Config::open_default() {
                if let Ok(c) = Cred::credential_helper(&cfg, url, username) {
                    return Ok(c);
                }
            }
        }
        if allowed.contains(CredentialType::DEFAULT) {
            return Cred::default();
        }
        Err(git2::Error::from_str("no usable credentials"))
    });
    cb
}

pub(crate) fn git_err(context: &str, e: git2::Error) -> String {
    format!("{context}: {}", e.message())
}

/// The transports `git clone` allows by default (its `protocol.allow`
/// "always" list, plus `file`) in the URL forms libgit2 reads. Anything
/// else would be libgit2 guessing — it reads `ext::sh -c ...` as an SSH
/// host called `ext` — where OpenTofu's git refuses.
const TRANSPORTS: [&str; 7] = ["http", "https", "ssh", "git", "file", "git+ssh", "ssh+git"];

/// Refuses a URL naming a transport OpenTofu's `git` would not use, in
/// git's words: `<helper>::<address>` runs a remote helper, and `ext`
/// (which runs a command) is never allowed.
fn check_transport(url: &str) -> Result<(), String> {
    if let Some((helper, _)) = url.split_once("::") {
        if !helper.is_empty() && !helper.contains(['/', ':']) {
            return Err(if helper == "ext" {
                format!("git clone: transport '{helper}' not allowed")
            } else {
                format!("git clone: Unable to find remote helper for '{helper}'")
            });
        }
    }
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    match scheme {
        Some(s) if TRANSPORTS.contains(&s.as_str()) => Ok(()),
        Some(s) => Err(format!("git clone: Unable to find remote helper for '{s}'")),
        None => Err(format!("git clone: repository '{url}' does not exist")),
    }
}

/// Fetches `src` into `dst` (which must not exist or be empty): the
/// ref resolved in the repository's store (fetched at most once a run),
/// then the commit's tree, submodules included, exported into `dst` or
/// linked from the module cache.
pub(crate) fn fetch_git(src: &GitSource, dst: &Path, env: &FetchEnv<'_>) -> Result<(), String> {
    check_transport(&src.url)?;
    if dst.exists()
        && std::fs::read_dir(dst)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(format!(
            "destination path '{}' already exists and is not an empty directory",
            dst.display()
        ));
    }
    let session = env.session;
    let shallow = src.depth > 0;
    // A tag or full commit ID resolved by an earlier run: no network at
    // all when the cache has its tree, only the store when it has the
    // commit.
    let mut known = None;
    if let (Some(cache), false) = (&session.cache, env.upgrade) {
        if let Some(rec) = cache
            .git_ref(&src.url, &src.reference, shallow)
            .filter(|r| r.kind.is_immutable())
        {
            let key = CacheKey::Git {
                url: src.url.clone(),
                commit: rec.commit.clone(),
            };
            if cache.get(&key, dst)? {
                FetchStats::bump(&session.stats.cache_hits);
                return Ok(());
            }
            known = Oid::from_str(&rec.commit).ok().map(|commit| Resolved {
                commit,
                kind: rec.kind,
            });
        }
    }
    let resolved = session.stores.with_store(
        src,
        env.staging_near,
        &session.stats,
        env.upgrade,
        |store| match known {
            Some(k) if store.has_commit(k.commit) => Ok(Some(k)),
            _ => resolve(store, src),
        },
    )?;
    let Some(resolved) = resolved else {
        // No default branch (an empty repository): an empty package.
        return std::fs::create_dir_all(dst)
            .map_err(|e| crate::pathutil::path_error("mkdir", &dst.display().to_string(), &e));
    };
    let Some(cache) = &session.cache else {
        return export_recursive(src, resolved.commit, dst, env, None);
    };
    let commit = resolved.commit.to_string();
    cache.record_git_ref(
        &src.url,
        &src.reference,
        shallow,
        &RefRecord {
            commit: commit.clone(),
            kind: resolved.kind,
        },
    );
    let key = CacheKey::Git {
        url: src.url.clone(),
        commit,
    };
    let filled = cache.get_or_fill(&key, dst, false, |d| {
        export_recursive(src, resolved.commit, d, env, None)
    })?;
    if filled == Filled::Hit {
        FetchStats::bump(&session.stats.cache_hits);
    }
    Ok(())
}

/// Empties `dir` (what a failed export wrote) for another attempt.
fn clear_dir(dir: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(crate::pathutil::path_error(
            "remove",
            &dir.display().to_string(),
            &e,
        )),
        _ => Ok(()),
    }
}

/// How deep submodules may nest (a repository that is its own
/// submodule would otherwise never end).
const SUBMODULE_DEPTH_LIMIT: usize = 16;

/// Exports `commit` of `src` into `dst`, then each submodule into its
/// directory from its own store (`git submodule update --init
/// --recursive`). `submodule` is this repository's path in its parent's
/// tree, for messages. The store is let go before submodules are
/// visited, so a cycle of submodules cannot wait on itself.
fn export_recursive(
    src: &GitSource,
    commit: Oid,
    dst: &Path,
    env: &FetchEnv<'_>,
    submodule: Option<(&str, usize)>,
) -> Result<(), String> {
    let depth = submodule.map_or(0, |(_, d)| d);
    if depth > SUBMODULE_DEPTH_LIMIT {
        return Err("git submodule update: submodules nested too deeply".to_string());
    }
    let session = env.session;
    let export = || {
        session.stores.with_store(
            src,
            env.staging_near,
            &session.stats,
            env.upgrade,
            |store| {
                if !store.ensure_commit(commit)? {
                    return Err(match submodule {
                        Some((path, _)) => format!(
                            "git submodule update: Fetched in submodule path '{path}', but it did not contain {commit}. Direct fetching of that commit failed."
                        ),
                        None => format!("git checkout: commit {commit} not found"),
                    });
                }
                Ok(export_commit(&store.repo, commit, dst))
            },
        )
    };
    let links = match export()? {
        // A store missing objects its commits need (damaged on disk)
        // cannot mend itself by fetching: the remote believes it has
        // them. Made anew, it is fetched whole.
        Err(ExportError::MissingObject(_)) => {
            session.stores.discard(src, env.staging_near)?;
            clear_dir(dst)?;
            export()?.map_err(ExportError::into_text)?
        }
        other => other.map_err(ExportError::into_text)?,
    };
    if links.is_empty() {
        return Ok(());
    }
    let modules = read_gitmodules(dst)?;
    for link in links {
        let Some(sub) = modules.iter().find(|m| m.path == link.path) else {
            return Err(format!(
                "git submodule update: No url found for submodule path '{}' in .gitmodules",
                link.path
            ));
        };
        if sub.update_none {
            continue;
        }
        let url = resolve_submodule_url(&src.url, &sub.url);
        check_transport(&url)?;
        let sub_src = GitSource {
            url,
            reference: String::new(),
            depth: 0,
            ssh_key: src.ssh_key.clone(),
        };
        let sub_dst = link
            .path
            .split('/')
            .fold(dst.to_path_buf(), |p, part| p.join(part));
        export_recursive(
            &sub_src,
            link.commit,
            &sub_dst,
            env,
            Some((&link.path, depth + 1)),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_parameters() {
        let s = parse_git_source("https://example.com/r.git?ref=v1.2&depth=1&x=2&a=1").unwrap();
        assert_eq!(s.url, "https://example.com/r.git?a=1&x=2");
        assert_eq!(s.reference, "v1.2");
        assert_eq!(s.depth, 1);
        let s = parse_git_source("ssh://git@example.com/r.git?depth=abc").unwrap();
        assert_eq!(s.url, "ssh://git@example.com/r.git");
        assert_eq!(s.depth, 0);
        let s = parse_git_source("ssh://git@example.com/r.git?sshkey=aGVsbG8=").unwrap();
        assert_eq!(s.ssh_key.as_deref(), Some("hello"));
        assert!(parse_git_source("ssh://x/r?sshkey=%25%25").is_err());
    }

    #[test]
    fn transports() {
        assert!(check_transport("https://example.com/r.git").is_ok());
        assert!(check_transport("file:///tmp/r").is_ok());
        assert!(check_transport("ssh://git@example.com/r.git").is_ok());
        assert_eq!(
            check_transport("ext::sh%20-c%20touch").unwrap_err(),
            "git clone: transport 'ext' not allowed"
        );
        assert_eq!(
            check_transport("fd::3").unwrap_err(),
            "git clone: Unable to find remote helper for 'fd'"
        );
        assert_eq!(
            check_transport("gopher://x/r").unwrap_err(),
            "git clone: Unable to find remote helper for 'gopher'"
        );
    }

    #[test]
    fn commit_id_guess() {
        assert!(looks_like_commit_id("abcdef1"));
        assert!(!looks_like_commit_id("v1.0.0"));
        assert!(!looks_like_commit_id("abc"));
    }
}
