//! Test helpers: git repositories built on the fly, and a tiny HTTP/1.1
//! server on 127.0.0.1 whose answers each test scripts.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
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

type Handler = dyn Fn(&str) -> Reply + Send + Sync;

/// An HTTP server on 127.0.0.1 answering each request's path (with query)
/// through a handler. Stops when dropped.
pub struct TestServer {
    pub addr: String,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    pub requests: Arc<Mutex<Vec<String>>>,
    pub count: Arc<AtomicUsize>,
}

impl TestServer {
    pub fn start(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let (s, r, c) = (stop.clone(), requests.clone(), count.clone());
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = conn else { continue };
                let (h, r, c) = (handler.clone(), r.clone(), c.clone());
                std::thread::spawn(move || serve(stream, &*h, &r, &c));
            }
        });
        TestServer {
            addr,
            stop,
            thread: Some(thread),
            requests,
            count,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn paths(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(&self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(mut stream: TcpStream, handler: &Handler, log: &Mutex<Vec<String>>, count: &AtomicUsize) {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let path = head
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("/")
        .to_string();
    count.fetch_add(1, Ordering::SeqCst);
    log.lock().unwrap().push(path.clone());
    match handler(&path) {
        Reply::Http(status, headers, body) => {
            let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in headers {
                out.push_str(&format!("{k}: {v}\r\n"));
            }
            out.push_str(&format!(
                "Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            ));
            let _ = stream.write_all(out.as_bytes());
            let _ = stream.write_all(&body);
        }
        Reply::Raw(bytes) => {
            let _ = stream.write_all(&bytes);
        }
        Reply::Hang(d) => std::thread::sleep(d),
    }
    let _ = stream.flush();
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Other",
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
