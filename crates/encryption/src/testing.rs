//! A fake AWS endpoint on loopback for the aws_kms tests (this crate's
//! unit tests and the command's `tests/init_aws_kms.rs`, through the
//! `test-support` feature): canned answers, one connection each, and the
//! requests as they arrived.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;

/// A request as the fake server received it.
#[derive(Debug)]
pub struct Received {
    pub path: String,
    /// Lowercased names.
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(String::as_str).unwrap_or("")
    }
}

/// Answers one connection per canned response, in order, and returns what
/// it received.
pub fn serve(responses: Vec<(u16, &'static str)>) -> (String, JoinHandle<Vec<Received>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let mut got = Vec::new();
        for (status, body) in responses {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            let mut headers = BTreeMap::new();
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).unwrap();
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                let (k, v) = h.split_once(':').unwrap();
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
            let len: usize = headers
                .get("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let mut req_body = vec![0; len];
            reader.read_exact(&mut req_body).unwrap();
            got.push(Received {
                path,
                headers,
                body: req_body,
            });
            let mut stream = stream;
            write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/x-amz-json-1.1\r\nX-Amzn-RequestId: req-{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                got.len(),
                body.len()
            )
            .unwrap();
        }
        got
    });
    (url, handle)
}
