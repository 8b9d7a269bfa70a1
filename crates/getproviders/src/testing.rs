//! Test fixtures for provider installation (feature `test-support`):
//! provider zips of a small executable script, an OpenPGP key made on the
//! spot to sign SHA256SUMS documents, and a loopback HTTP server that
//! plays a provider registry and a network mirror — including the ways
//! they misbehave (garbage, hangs, truncated bodies).
//!
//! The server is a hand-rolled `std::net` one rather than a crate:
//! misbehaving on purpose (announcing more bytes than it sends, never
//! answering) is a few lines here and awkward through a real server's API,
//! and it keeps the dependency list short.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use addrs::{Hostname, Provider};
use pgp::composed::{
    ArmorOptions, DetachedSignature, EncryptionCaps, KeyType, SecretKeyParamsBuilder,
    SignedPublicKey, SignedSecretKey,
};
use pgp::crypto::hash::HashAlgorithm;
use pgp::ser::Serialize;
use pgp::types::{KeyDetails, Password};
use sha2::{Digest, Sha256};

use crate::hash::{hash_v1_zip_reader, hex_lower};
use crate::platform::Platform;

/// One file (or link) to put in a test zip.
#[derive(Debug, Clone)]
pub struct ZipEntry {
    pub name: String,
    pub data: Vec<u8>,
    pub mode: u32,
    /// Makes the entry a symbolic link to this target.
    pub symlink: Option<String>,
}

impl ZipEntry {
    pub fn file(name: &str, data: &[u8], mode: u32) -> ZipEntry {
        ZipEntry {
            name: name.to_string(),
            data: data.to_vec(),
            mode,
            symlink: None,
        }
    }

    pub fn link(name: &str, target: &str) -> ZipEntry {
        ZipEntry {
            name: name.to_string(),
            data: Vec::new(),
            mode: 0o777,
            symlink: Some(target.to_string()),
        }
    }
}

/// A zip of exactly these entries, names written as given.
pub fn zip_of(entries: &[ZipEntry]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for e in entries {
        let opts = zip::write::SimpleFileOptions::default().unix_permissions(e.mode);
        match &e.symlink {
            Some(t) => w
                .add_symlink(e.name.as_str(), t.as_str(), opts)
                .expect("in-memory zip accepts links"),
            None => {
                w.start_file(e.name.as_str(), opts)
                    .expect("in-memory zip accepts files");
                w.write_all(&e.data).expect("in-memory zip write");
            }
        }
    }
    w.finish().expect("in-memory zip finishes").into_inner()
}

/// A provider package: the executable `terraform-provider-TYPE_vVERSION`
/// (a shell script that says which provider it is) and a README.
pub fn provider_zip(type_name: &str, version: &str) -> Vec<u8> {
    let script = format!("#!/bin/sh\necho \"terraform-provider-{type_name} {version}\"\n");
    zip_of(&[
        ZipEntry::file(
            &format!("terraform-provider-{type_name}_v{version}"),
            script.as_bytes(),
            0o755,
        ),
        ZipEntry::file("README.md", b"A provider built by a test.\n", 0o644),
    ])
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(data: &[u8]) -> String {
    hex_lower(&Sha256::digest(data))
}

/// The `h1:` hash of a zip in memory.
pub fn h1_of_zip(data: &[u8]) -> String {
    hash_v1_zip_reader(Cursor::new(data))
        .expect("test zip hashes")
        .to_string()
}

/// A signing key generated for one test.
pub struct TestKey {
    secret: SignedSecretKey,
    /// The public key, ASCII-armored, as registries list it.
    pub public_armored: String,
    /// Its key ID as OpenTofu prints it (uppercase hex).
    pub key_id: String,
}

impl TestKey {
    /// A fresh Ed25519 key that can sign.
    pub fn generate(user_id: &str) -> TestKey {
        let mut params = SecretKeyParamsBuilder::default();
        params
            .key_type(KeyType::Ed25519Legacy)
            .can_certify(true)
            .can_sign(true)
            .can_encrypt(EncryptionCaps::None)
            .primary_user_id(user_id.into());
        let secret = params
            .build()
            .expect("key params are complete")
            .generate(rand::thread_rng())
            .expect("key generation");
        let public = SignedPublicKey::from(secret.clone());
        let public_armored = public
            .to_armored_string(ArmorOptions::default())
            .expect("armoring a public key");
        let key_id = hex_lower(public.primary_key.legacy_key_id().as_ref()).to_uppercase();
        TestKey {
            secret,
            public_armored,
            key_id,
        }
    }

    /// A binary detached signature over `data`.
    pub fn sign(&self, data: &[u8]) -> Vec<u8> {
        DetachedSignature::sign_binary_data(
            rand::thread_rng(),
            &self.secret.primary_key,
            &Password::empty(),
            HashAlgorithm::Sha256,
            data,
        )
        .expect("signing")
        .to_bytes()
        .expect("serializing a signature")
    }
}

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

/// `(namespace, type)` → version → platforms published.
type Published = BTreeMap<(String, String), BTreeMap<String, Vec<String>>>;

/// A provider registry (and network mirror) on loopback. Its hostname is
/// `127.0.0.1:PORT`, found through real service discovery over `http`.
pub struct TestRegistry {
    pub server: LoopbackServer,
    pub key: TestKey,
    versions: Mutex<Published>,
    package_data: AtomicBool,
}

impl TestRegistry {
    pub fn start() -> TestRegistry {
        TestRegistry::start_on(LoopbackServer::start())
    }

    /// The registry over HTTPS ([`LoopbackServer::start_tls`]).
    pub fn start_tls(cert_chain_pem: &[u8], key_pem: &[u8]) -> TestRegistry {
        TestRegistry::start_on(LoopbackServer::start_tls(cert_chain_pem, key_pem))
    }

    fn start_on(server: LoopbackServer) -> TestRegistry {
        server.route(
            "/.well-known/terraform.json",
            Route::json(&serde_json::json!({"providers.v1": "/v1/providers/"})),
        );
        TestRegistry {
            server,
            key: TestKey::generate("Test Registry <test@example.com>"),
            versions: Mutex::default(),
            package_data: AtomicBool::new(false),
        }
    }

    /// Whether later publications send the `packages` extension (every
    /// platform's `h1:`/`zh:` hashes and size) in download responses.
    pub fn send_package_data(&self, on: bool) {
        self.package_data.store(on, Ordering::SeqCst);
    }

    /// A registry that plays `registry.opentofu.org` through a CLI
    /// configuration `host` block, so no name is ever resolved.
    pub fn default_registry_options(&self) -> initwd::RegistryOptions {
        let mut o = self.registry_options();
        o.hosts.force_services(
            addrs::DEFAULT_PROVIDER_REGISTRY_HOST,
            &[("providers.v1", &self.server.url("/v1/providers/"))],
        );
        o
    }

    /// `127.0.0.1:PORT`.
    pub fn host(&self) -> &str {
        self.server.addr()
    }

    /// `127.0.0.1:PORT/<namespace>/<type>`.
    pub fn provider(&self, namespace: &str, type_name: &str) -> Provider {
        Provider::new(
            Hostname::for_comparison(self.host()).expect("loopback host parses"),
            namespace,
            type_name,
        )
    }

    /// Discovery over `http`, short timeouts, no retry pauses.
    pub fn registry_options(&self) -> initwd::RegistryOptions {
        initwd::RegistryOptions {
            discovery_scheme: "http",
            request_timeout: Duration::from_secs(5),
            discovery_timeout: Duration::from_secs(5),
            retries: 0,
            retry_wait: Duration::from_millis(10),
            ..initwd::RegistryOptions::default()
        }
    }

    fn files_path(ns: &str, ty: &str, version: &str, file: &str) -> String {
        format!("/files/{ns}/{ty}/{version}/{file}")
    }

    /// Publishes `version` with one zip per platform, signed by `self.key`.
    pub fn publish(&self, ns: &str, ty: &str, version: &str, packages: &[(Platform, Vec<u8>)]) {
        let mut sums = String::new();
        for (platform, zip) in packages {
            sums.push_str(&format!(
                "{}  terraform-provider-{ty}_{version}_{platform}.zip\n",
                sha256_hex(zip)
            ));
        }
        let sums = sums.into_bytes();
        let sig = self.key.sign(&sums);
        self.publish_with(
            ns,
            ty,
            version,
            packages,
            &sums,
            &sig,
            &[&self.key.public_armored],
        );
    }

    /// Like [`TestRegistry::publish`] with the SHA256SUMS document, its
    /// signature and the listed keys given, to serve broken ones.
    #[allow(clippy::too_many_arguments)]
    pub fn publish_with(
        &self,
        ns: &str,
        ty: &str,
        version: &str,
        packages: &[(Platform, Vec<u8>)],
        sums: &[u8],
        sig: &[u8],
        keys: &[&str],
    ) {
        let s = &self.server;
        s.route(
            &Self::files_path(ns, ty, version, "SHA256SUMS"),
            Route::bytes(sums.to_vec()),
        );
        s.route(
            &Self::files_path(ns, ty, version, "SHA256SUMS.sig"),
            Route::bytes(sig.to_vec()),
        );
        let keys: Vec<serde_json::Value> = keys
            .iter()
            .map(|k| serde_json::json!({"ascii_armor": k}))
            .collect();
        let mut package_data = serde_json::Map::new();
        if self.package_data.load(Ordering::SeqCst) {
            for (platform, zip) in packages {
                package_data.insert(
                    platform.to_string(),
                    serde_json::json!({
                        "hashes": [h1_of_zip(zip), format!("zh:{}", sha256_hex(zip))],
                        "package_size": zip.len(),
                    }),
                );
            }
        }
        for (platform, zip) in packages {
            let filename = format!("terraform-provider-{ty}_{version}_{platform}.zip");
            s.route(
                &Self::files_path(ns, ty, version, &filename),
                Route::bytes(zip.clone()),
            );
            s.route(
                &format!(
                    "/v1/providers/{ns}/{ty}/{version}/download/{}/{}",
                    platform.os, platform.arch
                ),
                Route::json(&serde_json::json!({
                    "protocols": ["5.0"],
                    "os": platform.os,
                    "arch": platform.arch,
                    "filename": filename,
                    "download_url": Self::files_path(ns, ty, version, &filename),
                    "shasums_url": Self::files_path(ns, ty, version, "SHA256SUMS"),
                    "shasums_signature_url": Self::files_path(ns, ty, version, "SHA256SUMS.sig"),
                    "shasum": sha256_hex(zip),
                    "signing_keys": {"gpg_public_keys": keys},
                    "packages": package_data,
                })),
            );
        }
        let mut all = self.versions.lock().expect("versions lock");
        let entry = all.entry((ns.to_string(), ty.to_string())).or_default();
        entry.insert(
            version.to_string(),
            packages.iter().map(|(p, _)| p.to_string()).collect(),
        );
        let list: Vec<serde_json::Value> = entry
            .iter()
            .map(|(v, plats)| {
                let platforms: Vec<serde_json::Value> = plats
                    .iter()
                    .map(|p| {
                        let (os, arch) = p.split_once('_').unwrap_or((p, ""));
                        serde_json::json!({"os": os, "arch": arch})
                    })
                    .collect();
                serde_json::json!({"version": v, "protocols": ["5.0"], "platforms": platforms})
            })
            .collect();
        s.route(
            &format!("/v1/providers/{ns}/{ty}/versions"),
            Route::json(&serde_json::json!({ "versions": list })),
        );
    }

    /// Replaces the archive a download URL serves (to tamper with it).
    pub fn replace_archive(
        &self,
        ns: &str,
        ty: &str,
        version: &str,
        platform: &Platform,
        route: Route,
    ) {
        let filename = format!("terraform-provider-{ty}_{version}_{platform}.zip");
        self.server
            .route(&Self::files_path(ns, ty, version, &filename), route);
    }

    /// Serves `zip` through the network mirror protocol under `/mirror/`
    /// for `provider` (its hostname as the first path segment), listing
    /// its `h1:` hash.
    pub fn mirror(&self, provider: &Provider, version: &str, platform: &Platform, zip: &[u8]) {
        let base = format!(
            "/mirror/{}/{}/{}",
            provider.hostname.as_str(),
            provider.namespace,
            provider.type_name
        );
        let filename = format!(
            "terraform-provider-{}_{version}_{platform}.zip",
            provider.type_name
        );
        self.server.route(
            &format!("{base}/index.json"),
            Route::json(&serde_json::json!({"versions": {version: {}}})),
        );
        self.server.route(
            &format!("{base}/{version}.json"),
            Route::json(&serde_json::json!({"archives": {
                platform.to_string(): {"url": filename, "hashes": [h1_of_zip(zip)]}
            }})),
        );
        self.server
            .route(&format!("{base}/{filename}"), Route::bytes(zip.to_vec()));
    }
}
