//! Module source addresses as an attack surface, end to end through
//! `tofu-rs init`: git refs and URLs that try to become git options,
//! subdirectories and links that try to leave the package, and HTTP
//! redirects and `X-Terraform-Get` answers that try to lead to local
//! paths or loop. Each answer is OpenTofu's (go-getter v1.8.6 with
//! OpenTofu's getter table and no detectors for `X-Terraform-Get`), as
//! `terraform init` printed them for the same servers where the two
//! agree. Parse-time cases that need no server are e2e fixtures
//! (`tests/e2e/init-source-*`).

use std::path::Path;
use std::sync::Arc;

use getproviders::testing::{HttpRequest, HttpResponse, LoopbackServer};
use unpack::testing::{file, tgz};

mod sandbox;

use sandbox::Sandbox;

fn module_tf(src: &str) -> String {
    format!("module \"m\" {{\n  source = \"{src}\"\n}}\n")
}

/// A repository holding `main.tf`, a symlink `out` leading out of it,
/// and a symlink `in` to a directory inside it.
fn make_repo(dir: &Path) {
    let repo = git2::Repository::init(dir).unwrap();
    std::fs::write(dir.join("main.tf"), "# ok\n").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/main.tf"), "# sub\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("main.tf")).unwrap();
    index.add_path(Path::new("sub/main.tf")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "c", &tree, &[])
        .unwrap();
}

fn make_repo_with_link(dir: &Path, target: &str) {
    make_repo(dir);
    let repo = git2::Repository::open(dir).unwrap();
    std::os::unix::fs::symlink(target, dir.join("out")).unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("out")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "link", &tree, &[&head])
        .unwrap();
}

#[test]
fn a_git_ref_is_never_an_option() {
    let repos = tempfile::tempdir().unwrap();
    let repo = repos.path().join("repo");
    make_repo(&repo);
    let pwned = repos.path().join("pwned");
    for query in [
        format!("ref=--upload-pack=touch%20{}", pwned.display()),
        format!("ref=-c%20core.sshCommand=touch%20{}", pwned.display()),
        format!("ref=--upload-pack=touch%20{}&depth=1", pwned.display()),
    ] {
        let src = format!("git::file://{}?{query}", repo.display());
        let sb = Sandbox::new(&module_tf(&src));
        let run = sb.init(&[]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.text.contains("Error: Failed to download module"),
            "{}",
            run.stderr
        );
        assert!(
            run.text.contains("error downloading 'file://"),
            "{}",
            run.stderr
        );
        let want = if query.contains("depth") {
            "Remote branch --upload-pack=touch".to_string()
        } else {
            // go-getter resolves the ref with `rev-parse --end-of-options`.
            let r = query.trim_start_matches("ref=").replace("%20", " ");
            format!("invalid ref: \"{r}\"")
        };
        assert!(run.text.contains(&want), "{want}: {}", run.stderr);
        assert!(!pwned.exists(), "a ref ran a command");
        sb.assert_sealed();
    }
}

#[test]
fn a_package_link_leading_out_is_refused() {
    // OpenTofu would load a `//out` subdirectory through the link;
    // tofu-rs refuses any package whose links leave it (the subdirectory
    // and everything read later stay inside the package).
    for (target, subdir) in [("../../../..", "//out"), ("/etc", "//out"), ("/etc", "")] {
        let repos = tempfile::tempdir().unwrap();
        let repo = repos.path().join("repo");
        make_repo_with_link(&repo, target);
        let src = format!("git::file://{}{subdir}", repo.display());
        let sb = Sandbox::new(&module_tf(&src));
        let run = sb.init(&[]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.text.contains(&format!(
                "symbolic link \"out\" points to \"{target}\", outside of the module package"
            )),
            "{}",
            run.stderr
        );
        sb.assert_sealed();
    }
}

/// `cause` after `error downloading '<url>': ` said `times` times: go-getter
/// wraps each nested `Get` once more.
fn nested(url: &str, times: usize, cause: &str) -> String {
    let mut s = String::new();
    for _ in 0..times {
        s.push_str(&format!("error downloading '{url}': "));
    }
    s + cause
}

#[test]
fn x_terraform_get_answers_as_opentofu() {
    let srv = server_with_self_references("file:///nonexistent");
    let base = srv.url("");
    let cases: Vec<(&str, Option<String>)> = vec![
        (
            "/rel",
            Some(nested(
                &format!("{base}/rel"),
                1,
                "invalid source string: ./pkg.tgz",
            )),
        ),
        (
            "/abs",
            Some(nested(
                &format!("{base}/abs"),
                1,
                "invalid source string: /pkg.tgz",
            )),
        ),
        (
            "/etc",
            Some(nested(
                &format!("{base}/etc"),
                1,
                "invalid source string: /etc",
            )),
        ),
        (
            "/git",
            Some(nested(
                &format!("{base}/git"),
                1,
                "invalid source string: git::--upload-pack=touch /tmp/x",
            )),
        ),
        (
            "/ext",
            Some(nested(
                &format!("{base}/ext"),
                1,
                "invalid source string: ext::sh -c touch% /tmp/x",
            )),
        ),
        (
            "/smb",
            Some(nested(
                &format!("{base}/smb"),
                1,
                "no getter available for X-Terraform-Get source protocol: \"smb\"",
            )),
        ),
        (
            "/loop",
            Some(nested(
                &format!("{base}/loop"),
                11,
                "too many X-Terraform-Get redirects: 11",
            )),
        ),
        (
            "/subup",
            Some(nested(
                &format!("{base}/subup"),
                1,
                "subdirectory component contain path traversal out of the repository",
            )),
        ),
        (
            "/redir-file",
            Some(nested(
                &format!("{base}/redir-file"),
                1,
                "Get \"file:///etc/passwd\": unsupported protocol scheme \"file\"",
            )),
        ),
        // An archive download's failure is not wrapped.
        (
            "/redir-file.tgz",
            Some("Get \"file:///etc/passwd\": unsupported protocol scheme \"file\"".to_string()),
        ),
        (
            "/rloop.tgz",
            Some("Get \"/rloop10.tgz\": stopped after 10 redirects".to_string()),
        ),
        ("/redir-ok.tgz", None),
        ("/subok", None),
        ("/full", None),
    ];
    for (path, want) in cases {
        let url = format!("{base}{path}");
        let sb = Sandbox::new(&module_tf(&url));
        let run = sb.init(&[]);
        match &want {
            Some(cause) => {
                assert_eq!(run.code, 1, "{path}: {}", run.stderr);
                let detail = format!(
                    "Could not download module \"m\" (main.tf:1) source code from \"{url}\": {cause}"
                );
                assert!(
                    run.text.contains(&detail),
                    "{path}: want {detail}\n{}",
                    run.stderr
                );
            }
            None => {
                assert_eq!(run.code, 0, "{path}: {}", run.stderr);
                assert!(
                    sb.work().join(".terraform/modules/m/main.tf").is_file(),
                    "{path}"
                );
            }
        }
        sb.assert_sealed();
    }
}

/// OpenTofu registers the `file` getter, and go-getter lets an
/// `X-Terraform-Get` answer name any registered getter: the package
/// becomes a link to that local directory, as `terraform init` makes
/// `.terraform/modules/m -> /etc`. Nothing is written there.
#[test]
fn x_terraform_get_may_name_a_local_directory() {
    let sb = Sandbox::new("");
    let target = sb.sentinel();
    let srv = server_with_self_references(&format!("file://{}", target.display()));
    std::fs::write(sb.work().join("main.tf"), module_tf(&srv.url("/local"))).unwrap();
    let run = sb.init(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pkg = sb.work().join(".terraform/modules/m");
    assert_eq!(std::fs::read_link(&pkg).unwrap(), target);
    std::fs::remove_file(&pkg).unwrap();
    sb.assert_sealed();
}

/// A server answering `X-Terraform-Get` and redirects per path;
/// `/pkg.tgz` is a good package and `/local` points at `local_url`.
fn server_with_self_references(local_url: &str) -> LoopbackServer {
    // The port is only known once the server runs, so self-references are
    // answered from a cell filled in afterwards.
    let me: Arc<std::sync::OnceLock<String>> = Arc::new(std::sync::OnceLock::new());
    let pkg = tgz(&[file("main.tf", "# ok\n"), file("sub/main.tf", "# sub\n")]);
    let local = local_url.to_string();
    let cell = me.clone();
    let handler = Arc::new(move |req: &HttpRequest| {
        let base = cell.get().cloned().unwrap_or_default();
        let reply = |status: u16, header: &str, value: String| HttpResponse::Reply {
            status,
            headers: vec![(header.to_string(), value)],
            body: Vec::new(),
        };
        match req.path.as_str() {
            "/pkg.tgz" => HttpResponse::Reply {
                status: 200,
                headers: Vec::new(),
                body: pkg.clone(),
            },
            "/rel" => reply(204, "X-Terraform-Get", "./pkg.tgz".into()),
            "/abs" => reply(204, "X-Terraform-Get", "/pkg.tgz".into()),
            "/etc" => reply(204, "X-Terraform-Get", "/etc".into()),
            "/git" => reply(
                204,
                "X-Terraform-Get",
                "git::--upload-pack=touch /tmp/x".into(),
            ),
            "/ext" => reply(204, "X-Terraform-Get", "ext::sh -c touch% /tmp/x".into()),
            "/smb" => reply(204, "X-Terraform-Get", "smb://host/share".into()),
            "/loop" => reply(204, "X-Terraform-Get", format!("{base}/loop")),
            "/full" => reply(204, "X-Terraform-Get", format!("{base}/pkg.tgz")),
            "/subok" => reply(204, "X-Terraform-Get", format!("{base}/pkg.tgz//sub")),
            "/subup" => reply(204, "X-Terraform-Get", format!("{base}/pkg.tgz//../..")),
            "/local" => reply(204, "X-Terraform-Get", local.clone()),
            "/redir-file" | "/redir-file.tgz" => {
                reply(302, "Location", "file:///etc/passwd".into())
            }
            "/redir-ok.tgz" => reply(302, "Location", "/pkg.tgz".into()),
            p if p.starts_with("/rloop") => {
                let n: u32 = p["/rloop".len()..]
                    .trim_end_matches(".tgz")
                    .parse()
                    .unwrap_or(0);
                reply(302, "Location", format!("/rloop{}.tgz", n + 1))
            }
            _ => HttpResponse::Reply {
                status: 404,
                headers: Vec::new(),
                body: Vec::new(),
            },
        }
    });
    let srv = LoopbackServer::start_handler(None, handler);
    me.set(srv.url("")).unwrap();
    srv
}
