//! The plugin side of go-plugin (`plugin.Serve`): the cookie check, the
//! choice of protocol version, a Unix socket in a temporary directory, the
//! handshake line, mutual TLS with the client's certificate, and
//! go-plugin's own services beside the provider's. For tofu-rs's test
//! provider; a plugin built on it runs under terraform and OpenTofu.

use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;

use tokio::sync::Notify;
use tokio_stream::Stream;
use tonic::{Request, Response, Status};

use crate::conn::{Conn, Socket};
use crate::launch::{CORE_PROTOCOL_VERSION, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE};
use crate::proto::{goplugin, health};
use crate::tls;

/// Why a plugin could not serve; `Display` gives go-plugin's texts where
/// it has them.
#[derive(Debug)]
pub enum ServeError {
    /// Run by hand, without the client's cookie.
    NotAPlugin,
    /// Anything else (socket, certificate, gRPC).
    Other(String),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::NotAPlugin => f.write_str(
                "This binary is a plugin. These are not meant to be executed directly.\n\
                 Please execute the program that consumes these plugins, which will\n\
                 load any plugins automatically\n",
            ),
            ServeError::Other(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for ServeError {}

/// go-plugin's `protocolVersion`: the highest version the client offers
/// (`PLUGIN_PROTOCOL_VERSIONS`) that the plugin serves; without a match,
/// the plugin's last version, leaving the client to report the mismatch.
pub fn negotiate_version(offered: Option<&str>, served: &[u32]) -> u32 {
    let mut client: Vec<u32> = offered
        .unwrap_or("")
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    client.sort_unstable_by(|a, b| b.cmp(a));
    client
        .into_iter()
        .find(|v| served.contains(v))
        .or_else(|| served.last().copied())
        .expect("a plugin serves at least one protocol version")
}

/// Serves `routes` (the provider's service for the negotiated version,
/// which `make_routes` builds) until the client asks for shutdown. Checks
/// the cookie first; prints the handshake line on stdout.
pub fn serve(
    served: &[u32],
    make_routes: impl FnOnce(u32) -> tonic::service::Routes,
) -> Result<(), ServeError> {
    if std::env::var(MAGIC_COOKIE_KEY).ok().as_deref() != Some(MAGIC_COOKIE_VALUE) {
        return Err(ServeError::NotAPlugin);
    }
    let version = negotiate_version(
        std::env::var("PLUGIN_PROTOCOL_VERSIONS").ok().as_deref(),
        served,
    );
    let client_cert = std::env::var("PLUGIN_CLIENT_CERT")
        .ok()
        .filter(|s| !s.is_empty());
    let (acceptor, cert_field) = match client_cert {
        Some(pem) => {
            let client_der = tls::pem_to_der(&pem).ok_or_else(|| {
                ServeError::Other("client cert provided but failed to parse".into())
            })?;
            let ours = tls::generate_identity().map_err(|e| other(&e))?;
            let config = tls::server_config(&ours, client_der).map_err(|e| other(&e))?;
            use base64::Engine;
            let field = base64::engine::general_purpose::STANDARD_NO_PAD.encode(&ours.cert_der);
            (
                Some(tokio_rustls::TlsAcceptor::from(Arc::new(config))),
                field,
            )
        }
        None => (None, String::new()),
    };
    let announce = move |socket: &Path| {
        format!(
            "{CORE_PROTOCOL_VERSION}|{version}|unix|{}|grpc|{cert_field}\n",
            socket.display()
        )
    };
    run(make_routes(version), acceptor, announce, false)
}

/// The SDKs' debug mode: serves protocol `version` without the cookie or
/// TLS, for a client that attaches to it (`TF_REATTACH_PROVIDERS`), and
/// prints that variable's value for `provider_address` as the SDKs do.
/// Runs until interrupted (SIGINT, SIGTERM) or asked to shut down.
pub fn serve_debug(
    version: u32,
    provider_address: &str,
    make_routes: impl FnOnce(u32) -> tonic::service::Routes,
) -> Result<(), ServeError> {
    let address = provider_address.to_owned();
    let announce = move |socket: &Path| {
        let config = serde_json::json!({
            address: {
                "Protocol": "grpc",
                "ProtocolVersion": version,
                "Pid": std::process::id(),
                "Test": true,
                "Addr": {"Network": "unix", "String": socket.to_string_lossy()},
            }
        });
        format!(
            "Provider started. To attach OpenTofu, Terraform or tofu-rs, set the \
             TF_REATTACH_PROVIDERS environment variable with the following:\n\n\
             \t{REATTACH_ENV}='{config}'\n\n"
        )
    };
    run(make_routes(version), None, announce, true)
}

/// The variable through which a client is told of running providers.
pub const REATTACH_ENV: &str = "TF_REATTACH_PROVIDERS";

fn other(e: &dyn std::fmt::Display) -> ServeError {
    ServeError::Other(e.to_string())
}

/// Serves `routes` and go-plugin's services on a fresh Unix socket (TLS
/// with `acceptor`), printing `announce(socket)` on stdout once it
/// listens, until shut down (or, `until_signal`, interrupted).
fn run(
    routes: tonic::service::Routes,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    announce: impl FnOnce(&Path) -> String,
    until_signal: bool,
) -> Result<(), ServeError> {
    let dir = std::env::var_os("PLUGIN_UNIX_SOCKET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let socket_dir = make_socket_dir(&dir).map_err(|e| other(&e))?;
    let socket_path = socket_dir.join("plugin.sock");

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| other(&e))?;
    let result = rt.block_on(async {
        let listener = tokio::net::UnixListener::bind(&socket_path).map_err(|e| other(&e))?;
        let stop = Arc::new(Notify::new());
        let routes = routes
            .add_service(goplugin::grpc_controller_server::GrpcControllerServer::new(
                Controller { stop: stop.clone() },
            ))
            .add_service(goplugin::grpc_broker_server::GrpcBrokerServer::new(Broker))
            .add_service(goplugin::grpc_stdio_server::GrpcStdioServer::new(Stdio))
            .add_service(health::health_server::HealthServer::new(Health));

        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Conn, std::io::Error>>(16);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let tx = tx.clone();
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let conn = match acceptor {
                        None => Conn::Plain(Socket::Unix(stream)),
                        Some(a) => match a.accept(Socket::Unix(stream)).await {
                            Ok(s) => Conn::Server(Box::new(s)),
                            // A client without the pinned certificate.
                            Err(_) => return,
                        },
                    };
                    let _ = tx.send(Ok(conn)).await;
                });
            }
        });
        if until_signal {
            let stop = stop.clone();
            tokio::spawn(async move {
                interrupted().await;
                stop.notify_one();
            });
        }

        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(announce(&socket_path).as_bytes())
                .map_err(|e| other(&e))?;
            out.flush().map_err(|e| other(&e))?;
        }

        tonic::transport::Server::builder()
            .add_routes(routes)
            .serve_with_incoming_shutdown(
                tokio_stream::wrappers::ReceiverStream::new(rx),
                async move { stop.notified().await },
            )
            .await
            .map_err(|e| other(&e))
    });
    let _ = std::fs::remove_dir_all(&socket_dir);
    // Streams (the broker's, stdio's) would keep a graceful shutdown waiting.
    rt.shutdown_background();
    result
}

/// SIGINT or SIGTERM, whichever comes first.
async fn interrupted() {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Ok(mut int), Ok(mut term)) => {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
        }
        // Without handlers the default action (exit) still applies.
        _ => std::future::pending().await,
    }
}

/// A fresh private directory for the socket (go-plugin uses a temporary file name).
fn make_socket_dir(parent: &std::path::Path) -> std::io::Result<std::path::PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    for n in 0.. {
        let dir = parent.join(format!("plugin{}-{n}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("the loop returns")
}

struct Controller {
    stop: Arc<Notify>,
}

#[tonic::async_trait]
impl goplugin::grpc_controller_server::GrpcController for Controller {
    async fn shutdown(
        &self,
        _: Request<goplugin::Empty>,
    ) -> Result<Response<goplugin::Empty>, Status> {
        self.stop.notify_one();
        Ok(Response::new(goplugin::Empty {}))
    }
}

type BoxStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

/// The broker: this plugin never opens extra connections, so the stream
/// stays open and silent.
struct Broker;

#[tonic::async_trait]
impl goplugin::grpc_broker_server::GrpcBroker for Broker {
    async fn start_stream(
        &self,
        _: Request<tonic::Streaming<goplugin::ConnInfo>>,
    ) -> Result<Response<BoxStream<goplugin::ConnInfo>>, Status> {
        Ok(Response::new(Box::pin(tokio_stream::pending())))
    }
}

/// Stdio forwarding: the plugin writes to its real stdout and stderr, so
/// the stream stays silent.
struct Stdio;

#[tonic::async_trait]
impl goplugin::grpc_stdio_server::GrpcStdio for Stdio {
    async fn stream_stdio(
        &self,
        _: Request<()>,
    ) -> Result<Response<BoxStream<goplugin::StdioData>>, Status> {
        Ok(Response::new(Box::pin(tokio_stream::pending())))
    }
}

/// go-plugin's health service answers SERVING for "plugin".
struct Health;

#[tonic::async_trait]
impl health::health_server::Health for Health {
    async fn check(
        &self,
        _: Request<health::HealthCheckRequest>,
    ) -> Result<Response<health::HealthCheckResponse>, Status> {
        Ok(Response::new(health::HealthCheckResponse {
            status: health::health_check_response::ServingStatus::Serving as i32,
        }))
    }

    async fn watch(
        &self,
        _: Request<health::HealthCheckRequest>,
    ) -> Result<Response<BoxStream<health::HealthCheckResponse>>, Status> {
        Err(Status::unimplemented("watch is not supported"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_negotiation() {
        assert_eq!(negotiate_version(Some("5,6"), &[5, 6]), 6);
        assert_eq!(negotiate_version(Some("6,5"), &[5]), 5);
        assert_eq!(negotiate_version(Some("5"), &[6]), 6);
        assert_eq!(negotiate_version(None, &[5]), 5);
    }
}
