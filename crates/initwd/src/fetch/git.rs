//! The `git::` getter (go-getter's `GitGetter`), implemented with libgit2:
//! clone a repository into a package directory, honouring `?ref=` (branch,
//! tag or commit), `?depth=N` (a shallow clone of a branch or tag) and
//! `?sshkey=` (a base64 private key), and initialize submodules.
//!
//! Unlike go-getter this does not run the user's `git`, so `insteadOf`
//! rewrites and `~/.ssh/config` do not apply; credentials come from the
//! git credential helpers (HTTPS) and the SSH agent.

use std::cell::Cell;
use std::path::Path;

use git2::build::CheckoutBuilder;
use git2::{
    AutotagOption, Cred, CredentialType, Direction, FetchOptions, Oid, RemoteCallbacks, Repository,
};

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
fn looks_like_commit_id(r: &str) -> bool {
    (7..=40).contains(&r.len()) && r.bytes().all(|c| c.is_ascii_hexdigit())
}

fn callbacks<'a>(ssh_key: Option<&'a str>, attempts: &'a Cell<u32>) -> RemoteCallbacks<'a> {
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

fn git_err(context: &str, e: git2::Error) -> String {
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

/// Clones `src` into `dst` (which must not exist or be empty) and checks
/// out the requested ref.
pub fn fetch_git(src: &GitSource, dst: &Path) -> Result<(), String> {
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
    std::fs::create_dir_all(dst)
        .map_err(|e| crate::pathutil::path_error("mkdir", &dst.display().to_string(), &e))?;
    let repo = Repository::init(dst).map_err(|e| git_err("git init", e))?;
    let mut remote = repo
        .remote("origin", &src.url)
        .map_err(|e| git_err("git remote", e))?;

    // The reference advertisement: what branches and tags exist, and which
    // branch the remote's HEAD names.
    let attempts = Cell::new(0);
    let fetch_attempts = Cell::new(0);
    let (heads, default_branch) = {
        let conn = remote
            .connect_auth(
                Direction::Fetch,
                Some(callbacks(src.ssh_key.as_deref(), &attempts)),
                None,
            )
            .map_err(|e| git_err("git clone", e))?;
        let heads: Vec<(String, Oid)> = conn
            .list()
            .map_err(|e| git_err("git ls-remote", e))?
            .iter()
            .map(|h| (h.name().to_string(), h.oid()))
            .collect();
        let default = conn
            .default_branch()
            .ok()
            .and_then(|b| b.as_str().ok().map(str::to_string));
        (heads, default)
    };
    let has = |name: &str| heads.iter().any(|(n, _)| n == name);
    let default_branch = default_branch
        .as_deref()
        .and_then(|b| b.strip_prefix("refs/heads/"))
        .map(str::to_string)
        .or_else(|| {
            // No symref advertised: pick the branch HEAD points at.
            let head = heads.iter().find(|(n, _)| n == "HEAD").map(|(_, o)| *o)?;
            heads
                .iter()
                .find(|(n, o)| *o == head && n.starts_with("refs/heads/"))
                .map(|(n, _)| n["refs/heads/".len()..].to_string())
        });

    let mut fo = FetchOptions::new();
    fo.remote_callbacks(callbacks(src.ssh_key.as_deref(), &fetch_attempts));

    if src.depth > 0 {
        // `git clone --depth N --branch <ref>`: only a branch or tag.
        let want = if src.reference.is_empty() {
            default_branch
                .clone()
                .unwrap_or_else(|| "master".to_string())
        } else {
            src.reference.clone()
        };
        let (refspec, local) = if has(&format!("refs/heads/{want}")) {
            (
                format!("+refs/heads/{want}:refs/remotes/origin/{want}"),
                format!("refs/remotes/origin/{want}"),
            )
        } else if has(&format!("refs/tags/{want}")) {
            (
                format!("+refs/tags/{want}:refs/tags/{want}"),
                format!("refs/tags/{want}"),
            )
        } else {
            let mut msg = format!("git clone: Remote branch {want} not found in upstream origin");
            if !src.reference.is_empty() && looks_like_commit_id(&src.reference) {
                msg.push_str(
                    " (note that setting 'depth' requires 'ref' to be a branch or tag name)",
                );
            }
            return Err(msg);
        };
        // libgit2's local transport cannot fetch shallow; a local clone
        // is cheap anyway, so `file://` gets the named ref in full.
        if !src.url.starts_with("file:") {
            fo.depth(i32::try_from(src.depth).unwrap_or(i32::MAX));
        }
        fo.download_tags(AutotagOption::None);
        remote
            .fetch(&[refspec.as_str()], Some(&mut fo), None)
            .map_err(|e| git_err("git clone", e))?;
        let commit = repo
            .revparse_single(&local)
            .and_then(|o| o.peel_to_commit())
            .map_err(|e| git_err("git clone", e))?;
        if local.starts_with("refs/remotes/") {
            checkout_branch(&repo, &want, &commit)?;
        } else {
            checkout_detached(&repo, &commit)?;
        }
    } else {
        fo.download_tags(AutotagOption::All);
        remote
            .fetch(
                &[
                    "+refs/heads/*:refs/remotes/origin/*",
                    "+refs/tags/*:refs/tags/*",
                ],
                Some(&mut fo),
                None,
            )
            .map_err(|e| git_err("git clone", e))?;
        // Like `git clone`: the default branch checked out first (its
        // files only written when no other ref replaces them at once)...
        if let Some(branch) = &default_branch {
            if let Ok(obj) = repo.revparse_single(&format!("refs/remotes/origin/{branch}")) {
                let commit = obj.peel_to_commit().map_err(|e| git_err("git clone", e))?;
                if src.reference.is_empty() {
                    checkout_branch(&repo, branch, &commit)?;
                } else {
                    create_branch(&repo, branch, &commit)?;
                }
            }
        }
        // ...then `git checkout <ref>`.
        if !src.reference.is_empty() {
            checkout_ref(&repo, &src.reference)?;
        }
    }
    drop(remote);
    update_submodules(&repo, src.ssh_key.as_deref())?;
    Ok(())
}

fn checkout_branch(repo: &Repository, name: &str, commit: &git2::Commit<'_>) -> Result<(), String> {
    create_branch(repo, name, commit)?;
    repo.checkout_tree(commit.as_object(), Some(CheckoutBuilder::new().force()))
        .map_err(|e| git_err("git checkout", e))
}

/// The local branch `name` tracking `origin/name`, made HEAD, without
/// touching the work tree (a checkout of another ref follows).
fn create_branch(repo: &Repository, name: &str, commit: &git2::Commit<'_>) -> Result<(), String> {
    let mut branch = repo
        .branch(name, commit, true)
        .map_err(|e| git_err("git checkout", e))?;
    let _ = branch.set_upstream(Some(&format!("origin/{name}")));
    repo.set_head(&format!("refs/heads/{name}"))
        .map_err(|e| git_err("git checkout", e))
}

fn checkout_detached(repo: &Repository, commit: &git2::Commit<'_>) -> Result<(), String> {
    repo.checkout_tree(commit.as_object(), Some(CheckoutBuilder::new().force()))
        .map_err(|e| git_err("git checkout", e))?;
    repo.set_head_detached(commit.id())
        .map_err(|e| git_err("git checkout", e))
}

/// go-getter's `checkout`: the ref resolved to a commit as `git rev-parse
/// --verify --end-of-options REF^{commit}` would, trying `REF`, then
/// `refs/remotes/origin/REF`, then `refs/tags/REF`; anything else is
/// `invalid ref: "REF"`. A ref is never an option to git (libgit2 has
/// none, and go-getter passes `--end-of-options`), so
/// `?ref=--upload-pack=...` is just a ref that does not resolve.
fn checkout_ref(repo: &Repository, r: &str) -> Result<(), String> {
    let candidates = [
        r.to_string(),
        format!("refs/remotes/origin/{r}"),
        format!("refs/tags/{r}"),
    ];
    for candidate in &candidates {
        // revparse would read `-x` or `a..b` as syntax; only names and
        // commit IDs are refs here.
        if candidate.starts_with('-') || candidate.contains("..") {
            continue;
        }
        let Ok(commit) = repo
            .revparse_single(candidate)
            .and_then(|o| o.peel_to_commit())
        else {
            continue;
        };
        // A local branch stays checked out as that branch (as `git
        // checkout NAME` leaves it); anything else is a detached HEAD.
        if repo.find_branch(r, git2::BranchType::Local).is_ok() && candidate == r {
            repo.checkout_tree(commit.as_object(), Some(CheckoutBuilder::new().force()))
                .map_err(|e| git_err("git checkout", e))?;
            return repo
                .set_head(&format!("refs/heads/{r}"))
                .map_err(|e| git_err("git checkout", e));
        }
        return checkout_detached(repo, &commit);
    }
    Err(format!("invalid ref: {}", addrs::go_quote(r)))
}

/// `git submodule update --init --recursive`.
fn update_submodules(repo: &Repository, ssh_key: Option<&str>) -> Result<(), String> {
    let subs = repo
        .submodules()
        .map_err(|e| git_err("git submodule update", e))?;
    for mut sub in subs {
        let attempts = Cell::new(0);
        let mut fo = FetchOptions::new();
        fo.remote_callbacks(callbacks(ssh_key, &attempts));
        let mut opts = git2::SubmoduleUpdateOptions::new();
        opts.fetch(fo);
        sub.update(true, Some(&mut opts))
            .map_err(|e| git_err("git submodule update", e))?;
        if let Ok(sub_repo) = sub.open() {
            update_submodules(&sub_repo, ssh_key)?;
        }
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
