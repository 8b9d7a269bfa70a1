//! The loopback HTTP/1.1 server the tests of every crate use (the module
//! installer's, the provider installer's, the command's): `127.0.0.1` on a
//! random port, plain or over TLS, answering by routes (with a pace, for
//! tests that interrupt a client mid-transfer) or by a handler, and
//! misbehaving on purpose where a test needs it (truncated bodies, hangs,
//! raw bytes).
//!
//! A hand-rolled `std::net` server rather than a crate: misbehaving on
//! purpose is a few lines here and awkward through a real server's API,
//! and it keeps the dependency list short. Test code only; knows nothing
//! of registries or OpenTofu.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How the server answers one path.
#[derive(Debug, Clone)]
pub enum Route {
    /// A normal response.
    Body {
        status: u16,
        content_type: String,
        body: Vec<u8>,
    },
    /// Headers announcing `announced` bytes, then only `body`, then close.
    Truncated { body: Vec<u8>, announced: usize },
    /// Read the request and say nothing for this long.
    Hang(Duration),
}

impl Route {
    pub fn json(body: &serde_json::Value) -> Route {
        Route::Body {
            status: 200,
            content_type: "application/json".to_string(),
            body: body.to_string().into_bytes(),
        }
    }

    pub fn bytes(body: Vec<u8>) -> Route {
        Route::Body {
            status: 200,
            content_type: "application/octet-stream".to_string(),
            body,
        }
    }

    pub fn status(status: u16) -> Route {
        Route::Body {
            status,
            content_type: "text/plain".to_string(),
            body: format!("status {status}").into_bytes(),
        }
    }
}

/// A request the server saw: its path and `Authorization` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenRequest {
    pub path: String,
    pub authorization: Option<String>,
}

type Routes = Arc<Mutex<HashMap<String, Route>>>;

/// How slowly a server answers routed requests: a pause before the
/// response, then the body in chunks with a pause after each. Tests that
/// interrupt a client use it to stretch each phase of its work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pace {
    pub before_response: Duration,
    /// Bytes per chunk; 0 sends the body in one write.
    pub chunk_bytes: usize,
    pub chunk_pause: Duration,
}

impl Pace {
    /// Full speed.
    pub const NONE: Pace = Pace {
        before_response: Duration::ZERO,
        chunk_bytes: 0,
        chunk_pause: Duration::ZERO,
    };
}

/// A whole request, for servers that answer through a handler
/// ([`LoopbackServer::start_handler`]): APIs with methods, query strings
/// and request bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    pub method: String,
    /// The path, still percent-encoded, without the query.
    pub path: String,
    /// The raw query string (after `?`), empty when there is none.
    pub query: String,
    /// Names lowercased, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first header called `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a handler answers.
#[derive(Debug, Clone)]
pub enum HttpResponse {
    Reply {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Say nothing for this long, then close.
    Hang(Duration),
    /// These bytes as they are (a malformed response), then close.
    Raw(Vec<u8>),
    /// Close the connection without answering.
    Close,
}

/// A request handler for [`LoopbackServer::start_handler`].
pub type Handler = Arc<dyn Fn(&HttpRequest) -> HttpResponse + Send + Sync>;

/// An HTTP/1.1 server on `127.0.0.1`, a random port, one thread per
/// connection; stopped when dropped.
pub struct LoopbackServer {
    addr: String,
    /// `http` or `https`.
    scheme: &'static str,
    routes: Routes,
    seen: Arc<Mutex<Vec<SeenRequest>>>,
    stop: Arc<AtomicBool>,
    pace: Arc<Mutex<Pace>>,
}

/// A connection the server answers on: plain TCP or TLS over it.
trait Conn: Read + Write {
    /// Ends the exchange (TLS: close_notify; both: shut the socket down).
    fn finish(&mut self);
}

impl Conn for TcpStream {
    fn finish(&mut self) {
        let _ = self.flush();
        let _ = self.shutdown(std::net::Shutdown::Both);
    }
}

impl Conn for rustls::StreamOwned<rustls::ServerConnection, TcpStream> {
    fn finish(&mut self) {
        self.conn.send_close_notify();
        let _ = self.flush();
        let _ = self.sock.shutdown(std::net::Shutdown::Both);
    }
}

impl LoopbackServer {
    pub fn start() -> LoopbackServer {
        LoopbackServer::start_with(None)
    }

    /// The server over HTTPS with the given PEM certificate chain and
    /// private key (clients trust it through `SSL_CERT_FILE`).
    pub fn start_tls(cert_chain_pem: &[u8], key_pem: &[u8]) -> LoopbackServer {
        LoopbackServer::start_with(Some(tls_config(cert_chain_pem, key_pem)))
    }

    /// A server (HTTPS when `tls` holds a PEM certificate chain and key)
    /// whose every request is answered by `handler`; the routes are not
    /// used.
    pub fn start_handler(tls: Option<(&[u8], &[u8])>, handler: Handler) -> LoopbackServer {
        let config = tls.map(|(chain, key)| tls_config(chain, key));
        LoopbackServer::start_inner(config, Some(handler))
    }

    fn start_with(tls: Option<Arc<rustls::ServerConfig>>) -> LoopbackServer {
        LoopbackServer::start_inner(tls, None)
    }

    fn start_inner(
        tls: Option<Arc<rustls::ServerConfig>>,
        handler: Option<Handler>,
    ) -> LoopbackServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let tls_enabled = tls.is_some();
        let addr = listener.local_addr().expect("local addr").to_string();
        let routes: Routes = Arc::default();
        let seen: Arc<Mutex<Vec<SeenRequest>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let pace: Arc<Mutex<Pace>> = Arc::default();
        let (r, s, st, pc) = (routes.clone(), seen.clone(), stop.clone(), pace.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if st.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (r, s, tls, h) = (r.clone(), s.clone(), tls.clone(), handler.clone());
                let pace = *pc.lock().expect("pace lock");
                std::thread::spawn(move || match (tls, h) {
                    (None, None) => serve(conn, &r, &s, pace),
                    (None, Some(h)) => serve_handler(conn, &h, &s),
                    (Some(config), h) => {
                        let Ok(server) = rustls::ServerConnection::new(config) else {
                            return;
                        };
                        let stream = rustls::StreamOwned::new(server, conn);
                        match h {
                            None => serve(stream, &r, &s, pace),
                            Some(h) => serve_handler(stream, &h, &s),
                        }
                    }
                });
            }
        });
        LoopbackServer {
            addr,
            scheme: if tls_enabled { "https" } else { "http" },
            routes,
            seen,
            stop,
            pace,
        }
    }

    /// How slowly routed requests on connections accepted from now on
    /// are answered (handlers are not paced).
    pub fn set_pace(&self, pace: Pace) {
        *self.pace.lock().expect("pace lock") = pace;
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// `http://127.0.0.1:PORT` (or `https://`) + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}://{}{path}", self.scheme, self.addr)
    }

    pub fn route(&self, path: &str, route: Route) {
        self.routes
            .lock()
            .expect("routes lock")
            .insert(path.to_string(), route);
    }

    pub fn requests(&self) -> Vec<SeenRequest> {
        self.seen.lock().expect("seen lock").clone()
    }
}

impl Drop for LoopbackServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(&self.addr);
    }
}

/// The rustls server configuration for a PEM certificate chain and key.
fn tls_config(cert_chain_pem: &[u8], key_pem: &[u8]) -> Arc<rustls::ServerConfig> {
    let certs: Vec<_> = rustls_pemfile::certs(&mut Cursor::new(cert_chain_pem))
        .collect::<Result<_, _>>()
        .expect("PEM certificates");
    let key = rustls_pemfile::private_key(&mut Cursor::new(key_pem))
        .expect("PEM key")
        .expect("a private key");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .expect("server certificate");
    Arc::new(config)
}

fn serve(mut conn: impl Conn, routes: &Routes, seen: &Mutex<Vec<SeenRequest>>, pace: Pace) {
    // Requests have no body: the headers are all there is to read.
    let mut reader = BufReader::new(&mut conn);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let path = line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .split('?')
        .next()
        .unwrap_or("/")
        .to_string();
    let mut authorization = None;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h == "\r\n" || h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("authorization") {
                authorization = Some(v.trim().to_string());
            }
        }
    }
    drop(reader);
    seen.lock().expect("seen lock").push(SeenRequest {
        path: path.clone(),
        authorization,
    });
    let route = routes
        .lock()
        .expect("routes lock")
        .get(&path)
        .cloned()
        .unwrap_or_else(|| Route::status(404));
    let head = |status: u16, ct: &str, len: usize| {
        format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: {ct}\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n",
            reason(status)
        )
    };
    std::thread::sleep(pace.before_response);
    match route {
        Route::Body {
            status,
            content_type,
            body,
        } => {
            let _ = conn.write_all(head(status, &content_type, body.len()).as_bytes());
            if pace.chunk_bytes == 0 {
                let _ = conn.write_all(&body);
            } else {
                for chunk in body.chunks(pace.chunk_bytes) {
                    if conn.write_all(chunk).and_then(|()| conn.flush()).is_err() {
                        break;
                    }
                    std::thread::sleep(pace.chunk_pause);
                }
            }
        }
        Route::Truncated { body, announced } => {
            let _ = conn.write_all(head(200, "application/zip", announced).as_bytes());
            let _ = conn.write_all(&body);
        }
        Route::Hang(d) => std::thread::sleep(d),
    }
    conn.finish();
}

/// One request read whole, answered by `handler`.
fn serve_handler(mut conn: impl Conn, handler: &Handler, seen: &Mutex<Vec<SeenRequest>>) {
    let mut reader = BufReader::new(&mut conn);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("GET").to_string();
    let target = parts.next().unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h == "\r\n" || h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    drop(reader);
    let request = HttpRequest {
        method,
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body,
    };
    seen.lock().expect("seen lock").push(SeenRequest {
        path: request.path.clone(),
        authorization: request.header("authorization").map(str::to_string),
    });
    match handler(&request) {
        HttpResponse::Reply {
            status,
            headers,
            body,
        } => {
            let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in &headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str(&format!(
                "Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            ));
            let _ = conn.write_all(head.as_bytes());
            let _ = conn.write_all(&body);
        }
        HttpResponse::Raw(bytes) => {
            let _ = conn.write_all(&bytes);
        }
        HttpResponse::Hang(d) => std::thread::sleep(d),
        HttpResponse::Close => {}
    }
    conn.finish();
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        201 => "Created",
        204 => "No Content",
        _ => "Status",
    }
}
