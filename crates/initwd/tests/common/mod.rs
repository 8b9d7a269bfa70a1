//! Test helpers: git repositories built on the fly, and an HTTP/1.1
//! server on 127.0.0.1 (`testserver`'s) whose answers each test scripts.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use git2::{Oid, Repository, Signature};

/// A git repository in a temporary directory.
pub struct TestRepo {
    pub dir: tempfile::TempDir,
    pub repo: Repository,
}

impl TestRepo {
    /// An empty repository whose initial branch is `main`.
    pub fn new() -> TestRepo {
        let dir = tempfile::tempdir().unwrap();
        let mut opts = git2::RepositoryInitOptions::new();
        opts.initial_head("main");
        let repo = Repository::init_opts(dir.path(), &opts).unwrap();
        TestRepo { dir, repo }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `git::file:///…` with optional query.
    pub fn source(&self, query: &str) -> String {
        let url = url::Url::from_file_path(self.path()).unwrap();
        if query.is_empty() {
            format!("git::{url}")
        } else {
            format!("git::{url}?{query}")
        }
    }

    /// Writes files (content `None` deletes) and commits on HEAD.
    pub fn commit(&self, files: &[(&str, Option<&str>)], msg: &str) -> Oid {
        for (path, content) in files {
            let p = self.path().join(path);
            match content {
                Some(c) => {
                    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                    std::fs::write(&p, c).unwrap();
                }
                None => {
                    let _ = std::fs::remove_file(&p);
                }
            }
        }
        self.commit_workdir(msg)
    }

    /// Commits whatever is in the work tree.
    pub fn commit_workdir(&self, msg: &str) -> Oid {
        let mut index = self.repo.index().unwrap();
        index
            .add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.update_all(["*"].iter(), None).unwrap();
        index.write().unwrap();
        let tree_id = index.write_tree().unwrap();
        let tree = self.repo.find_tree(tree_id).unwrap();
        let sig = Signature::now("Test", "test@example.com").unwrap();
        let parent = self.repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        self.repo
            .commit(Some("HEAD"), &sig, &sig, msg, &tree, &parents)
            .unwrap()
    }

    pub fn tag(&self, name: &str) {
        let head = self.repo.head().unwrap().peel_to_commit().unwrap();
        self.repo
            .tag_lightweight(name, head.as_object(), false)
            .unwrap();
    }

    pub fn annotated_tag(&self, name: &str) {
        let head = self.repo.head().unwrap().peel_to_commit().unwrap();
        let sig = Signature::now("Test", "test@example.com").unwrap();
        self.repo
            .tag(name, head.as_object(), &sig, "release", false)
            .unwrap();
    }

    /// Creates `name` at HEAD and switches to it.
    pub fn branch(&self, name: &str) {
        let head = self.repo.head().unwrap().peel_to_commit().unwrap();
        self.repo.branch(name, &head, false).unwrap();
        self.switch(name);
    }

    pub fn switch(&self, name: &str) {
        self.repo.set_head(&format!("refs/heads/{name}")).unwrap();
        self.repo
            .checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
            .unwrap();
    }
}

/// What a scripted server does with one request.
pub enum Reply {
    /// Status, headers, body.
    Http(u16, Vec<(String, String)>, Vec<u8>),
    /// Raw bytes, then close.
    Raw(Vec<u8>),
    /// Read the request, never answer (closed after the given time).
    Hang(Duration),
}

impl Reply {
    pub fn json(status: u16, body: &str) -> Reply {
        Reply::Http(
            status,
            vec![("Content-Type".into(), "application/json".into())],
            body.as_bytes().to_vec(),
        )
    }

    pub fn status(status: u16) -> Reply {
        Reply::Http(status, Vec::new(), Vec::new())
    }
}

/// An HTTP server on 127.0.0.1 answering each request's path (with query)
/// through a handler: `testserver`'s loopback server, plus the log of
/// paths and the request count these tests check. Stops when dropped.
pub struct TestServer {
    pub addr: String,
    pub requests: Arc<Mutex<Vec<String>>>,
    pub count: Arc<AtomicUsize>,
    _server: testserver::LoopbackServer,
}

impl TestServer {
    pub fn start(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> TestServer {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        let (r, c) = (requests.clone(), count.clone());
        let server = testserver::LoopbackServer::start_handler(
            None,
            Arc::new(move |req: &testserver::HttpRequest| {
                let path = if req.query.is_empty() {
                    req.path.clone()
                } else {
                    format!("{}?{}", req.path, req.query)
                };
                c.fetch_add(1, Ordering::SeqCst);
                r.lock().unwrap().push(path.clone());
                match handler(&path) {
                    Reply::Http(status, headers, body) => testserver::HttpResponse::Reply {
                        status,
                        headers,
                        body,
                    },
                    Reply::Raw(bytes) => testserver::HttpResponse::Raw(bytes),
                    Reply::Hang(d) => testserver::HttpResponse::Hang(d),
                }
            }),
        );
        TestServer {
            addr: server.addr().to_string(),
            requests,
            count,
            _server: server,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn paths(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

/// A gzipped tar of `files` (path, content).
pub fn tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(gz);
    for (name, content) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(content.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, name, content.as_bytes()).unwrap();
    }
    b.into_inner().unwrap().finish().unwrap()
}

/// Every file under `dir` (relative, sorted), `.git` skipped.
pub fn list_files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            if e.file_name() == ".git" {
                continue;
            }
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

pub fn read(p: impl AsRef<Path>) -> String {
    std::fs::read_to_string(p).unwrap()
}

pub fn tmp_path(d: &tempfile::TempDir, rel: &str) -> PathBuf {
    d.path().join(rel)
}
