//! A fake AWS endpoint on loopback for the aws_kms tests (this crate's
//! unit tests and the command's `tests/init_aws_kms.rs`, through the
//! `test-support` feature): canned answers in order, and the requests as
//! they arrived. It serves through the workspace's one loopback server
//! (`testserver`).

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use testserver::{HttpRequest, HttpResponse, LoopbackServer};

/// A request as the fake server received it.
#[derive(Debug)]
pub struct Received {
    /// The request target: path and query.
    pub path: String,
    /// Lowercased names.
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(String::as_str).unwrap_or("")
    }

    fn of(request: &HttpRequest) -> Received {
        let path = if request.query.is_empty() {
            request.path.clone()
        } else {
            format!("{}?{}", request.path, request.query)
        };
        Received {
            path,
            headers: request.headers.iter().cloned().collect(),
            body: request.body.clone(),
        }
    }
}

/// The requests received so far, and a signal for each new one.
type Log = Arc<(Mutex<Vec<Received>>, Condvar)>;

/// Answers one request per canned response, in order, and returns (when
/// joined) what it received once every response was given.
pub fn serve(responses: Vec<(u16, &'static str)>) -> (String, JoinHandle<Vec<Received>>) {
    let expected = responses.len();
    let queue = Mutex::new(VecDeque::from(responses));
    let log: Log = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
    let seen = log.clone();
    let server = LoopbackServer::start_handler(
        None,
        Arc::new(move |request: &HttpRequest| {
            let (status, body) = queue
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop_front()
                .unwrap_or((500, "{\"message\":\"no canned response left\"}"));
            let (got, arrived) = &*seen;
            let mut got = got.lock().unwrap_or_else(PoisonError::into_inner);
            got.push(Received::of(request));
            arrived.notify_all();
            HttpResponse::Reply {
                status,
                headers: vec![
                    ("Content-Type".into(), "application/x-amz-json-1.1".into()),
                    ("X-Amzn-RequestId".into(), format!("req-{}", got.len())),
                ],
                body: body.as_bytes().to_vec(),
            }
        }),
    );
    let url = server.url("");
    let handle = std::thread::spawn(move || {
        let (got, arrived) = &*log;
        let mut got = got.lock().unwrap_or_else(PoisonError::into_inner);
        while got.len() < expected {
            got = arrived.wait(got).unwrap_or_else(PoisonError::into_inner);
        }
        drop(server);
        std::mem::take(&mut *got)
    });
    (url, handle)
}
