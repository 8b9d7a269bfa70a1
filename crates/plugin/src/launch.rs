//! Starting a provider the way OpenTofu does (`providerFactory` with
//! go-plugin's `Client.Start`): the environment, the handshake line, mutual
//! TLS and the gRPC connection, with go-plugin's error texts.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tonic::transport::{Channel, Endpoint};

use crate::client::ProviderClient;
use crate::conn::{runtime, Conn, Socket};
use crate::process::{first_line, FirstLine, LogSink, PluginProcess};
use crate::tls;

/// OpenTofu's handshake cookie (`internal/plugin/serve.go`).
pub const MAGIC_COOKIE_KEY: &str = "TF_PLUGIN_MAGIC_COOKIE";
/// The cookie's value; it never changes.
pub const MAGIC_COOKIE_VALUE: &str =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/// go-plugin's own protocol version (`CoreProtocolVersion`).
pub const CORE_PROTOCOL_VERSION: u32 = 1;
/// The plugin protocol versions OpenTofu speaks, in the order they are offered.
pub const PROTOCOL_VERSIONS: [u32; 2] = [5, 6];
/// go-plugin's default time limit for the handshake (`StartTimeout`).
pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long `close` waits for a plugin to exit after asking it to.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// How to start a provider.
#[derive(Clone)]
pub struct LaunchOptions {
    /// The provider's executable.
    pub executable: PathBuf,
    /// Its arguments (OpenTofu passes none).
    pub args: Vec<OsString>,
    /// Environment added to tofu-rs's own.
    pub env: Vec<(OsString, OsString)>,
    /// How long the provider may take to print its handshake line.
    pub start_timeout: Duration,
    /// Where the provider's stderr, and its stdout after the handshake, go,
    /// line by line; `None` discards them (OpenTofu sends them to its log).
    pub log: Option<LogSink>,
}

impl LaunchOptions {
    /// Options for `executable` with go-plugin's defaults.
    pub fn new(executable: impl Into<PathBuf>) -> LaunchOptions {
        LaunchOptions {
            executable: executable.into(),
            args: Vec::new(),
            env: Vec::new(),
            start_timeout: DEFAULT_START_TIMEOUT,
            log: None,
        }
    }
}

impl fmt::Debug for LaunchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LaunchOptions")
            .field("executable", &self.executable)
            .field("args", &self.args)
            .field("env", &self.env)
            .field("start_timeout", &self.start_timeout)
            .field("log", &self.log.is_some())
            .finish()
    }
}

/// Why a provider could not be started; `Display` gives go-plugin's text.
#[derive(Debug)]
pub enum LaunchError {
    /// The executable could not be run (missing, not executable, ...).
    Start {
        /// The executable.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// No handshake line within the time limit.
    Timeout,
    /// The first line of stdout is no handshake (or stdout closed first).
    Unrecognized {
        /// The line, trimmed (empty when none came).
        line: String,
        /// True when stdout closed without a line.
        no_lines: bool,
        /// go-plugin's notes about the executable (`Diagnose`).
        notes: String,
    },
    /// The core protocol version is not a number.
    CoreVersionSyntax(String),
    /// The core protocol version is not go-plugin's.
    IncompatibleCore(String),
    /// The plugin protocol version is not a number.
    VersionSyntax(String),
    /// The plugin speaks a protocol version OpenTofu does not.
    IncompatibleVersion(i64),
    /// The network is neither `tcp` nor `unix`.
    UnknownNetwork {
        /// The address the plugin gave.
        address: String,
    },
    /// The plugin is not a gRPC plugin.
    UnsupportedProtocol(String),
    /// The server certificate in the handshake is not base64 or not a certificate.
    ServerCert(String),
    /// Making our own certificate failed.
    Certificate(String),
    /// The gRPC connection failed.
    Connect(String),
    /// Nothing listens at an unmanaged provider's address (go-plugin's
    /// `ErrProcessNotFound`).
    ReattachNotFound,
    /// An unmanaged provider's protocol version is not one OpenTofu speaks.
    NoPluginsForProtocol(i64),
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Start { path, source } => {
                write!(f, "fork/exec {}: {}", path.display(), go_errno_text(source))
            }
            LaunchError::Timeout => f.write_str("timeout while waiting for plugin to start"),
            LaunchError::Unrecognized {
                line,
                no_lines,
                notes,
            } => {
                write!(f, "Unrecognized remote plugin message: {line}")?;
                if *no_lines {
                    f.write_str("\nFailed to read any lines from plugin's stdout")?;
                }
                write!(f, "\n{UNRECOGNIZED_NOTES}{notes}")
            }
            LaunchError::CoreVersionSyntax(s) => write!(
                f,
                "error parsing core protocol version: {}",
                atoi_error(s)
            ),
            LaunchError::IncompatibleCore(v) => write!(
                f,
                "incompatible core API version with plugin. Plugin version: {v}, Core version: {CORE_PROTOCOL_VERSION}\n\n\
                 To fix this, the plugin usually only needs to be recompiled.\n\
                 Please report this to the plugin author"
            ),
            LaunchError::VersionSyntax(s) => write!(
                f,
                "Error parsing protocol version {}: {}",
                gocompat::quote::quote(s),
                atoi_error(s)
            ),
            LaunchError::IncompatibleVersion(v) => write!(
                f,
                "incompatible API version with plugin. Plugin version: {v}, Client versions: [{} {}]",
                PROTOCOL_VERSIONS[0], PROTOCOL_VERSIONS[1]
            ),
            LaunchError::UnknownNetwork { address } => write!(f, "unknown address type: {address}"),
            LaunchError::UnsupportedProtocol(p) => write!(
                f,
                "unsupported plugin protocol {}. Supported: [grpc]",
                gocompat::quote::quote(p)
            ),
            LaunchError::ServerCert(e) => write!(f, "error parsing server cert: {e}"),
            LaunchError::Certificate(e) | LaunchError::Connect(e) => f.write_str(e),
            LaunchError::ReattachNotFound => f.write_str("reattachment process not found"),
            LaunchError::NoPluginsForProtocol(v) => {
                write!(f, "no supported plugins for protocol {v}")
            }
        }
    }
}

impl std::error::Error for LaunchError {}

/// cmdrunner's `unrecognizedRemotePluginMessage`, before its notes.
const UNRECOGNIZED_NOTES: &str = "This usually means
  the plugin was not compiled for this architecture,
  the plugin is missing dynamic-link libraries necessary to run,
  the plugin is not executable by this process due to file permissions, or
  the plugin failed to negotiate the initial go-plugin protocol handshake
";

/// Go's `syscall.Errno` text for the errors exec gives; Rust's own text,
/// without its "(os error N)", for the rest.
fn go_errno_text(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(libc::ENOENT) => "no such file or directory".into(),
        Some(libc::EACCES) => "permission denied".into(),
        Some(libc::ENOEXEC) => "exec format error".into(),
        Some(libc::ENOTDIR) => "not a directory".into(),
        Some(libc::ETXTBSY) => "text file busy".into(),
        Some(libc::ELOOP) => "too many levels of symbolic links".into(),
        Some(libc::E2BIG) => "argument list too long".into(),
        _ => {
            let text = e.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text);
            let mut chars = text.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => String::new(),
            }
        }
    }
}

/// `strconv.Atoi`'s error for `s`.
fn atoi_error(s: &str) -> String {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let why = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        "value out of range"
    } else {
        "invalid syntax"
    };
    format!("strconv.Atoi: parsing {}: {why}", gocompat::quote::quote(s))
}

/// Go's `strconv.Atoi` (a 64-bit int).
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// cmdrunner's `additionalNotesAboutCommand` (Unix).
fn additional_notes(path: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return String::new();
    };
    let (uid, gid) = crate::sys::ids();
    let user = |id: u32| lookup_name("/etc/passwd", id);
    let group = |id: u32| lookup_name("/etc/group", id);
    let mut notes = String::from("\nAdditional notes about plugin:\n");
    notes += &format!("  Path: {}\n", path.display());
    notes += &format!("  Mode: {}\n", go_file_mode(&meta));
    notes += &format!(
        "  Owner: {} [{}] (current: {uid} [{}])\n",
        meta.uid(),
        user(meta.uid()),
        user(uid)
    );
    notes += &format!(
        "  Group: {} [{}] (current: {gid} [{}])\n",
        meta.gid(),
        group(meta.gid()),
        group(gid)
    );
    if let Some(machine) = elf_machine(path) {
        notes += &format!(
            "  ELF architecture: {machine} (current architecture: {})\n",
            go_arch()
        );
    }
    notes
}

/// A user or group name from `/etc/passwd` or `/etc/group`, or `?`.
fn lookup_name(file: &str, id: u32) -> String {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|text| {
            text.lines().find_map(|l| {
                let mut f = l.split(':');
                let name = f.next()?;
                f.next()?;
                (f.next()?.parse::<u32>().ok()? == id).then(|| name.to_owned())
            })
        })
        .unwrap_or_else(|| "?".into())
}

/// Go's `FileMode.String` for files and directories.
fn go_file_mode(meta: &std::fs::Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode();
    let mut s = String::from(if meta.is_dir() { "d" } else { "-" });
    for (i, c) in "rwxrwxrwx".chars().enumerate() {
        s.push(if mode & (1 << (8 - i)) != 0 { c } else { '-' });
    }
    s
}

/// An ELF file's machine, as Go's `elf.Machine` names it.
fn elf_machine(path: &Path) -> Option<&'static str> {
    use std::io::Read;
    let mut head = [0u8; 20];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    if &head[..4] != b"\x7fELF" {
        return None;
    }
    let machine = if head[5] == 2 {
        u16::from_be_bytes([head[18], head[19]])
    } else {
        u16::from_le_bytes([head[18], head[19]])
    };
    Some(match machine {
        3 => "EM_386",
        40 => "EM_ARM",
        62 => "EM_X86_64",
        183 => "EM_AARCH64",
        243 => "EM_RISCV",
        _ => "EM_UNKNOWN",
    })
}

fn go_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "x86" => "386",
        "aarch64" => "arm64",
        "riscv64" => "riscv64",
        other => other,
    }
}

/// What the handshake line says.
#[derive(Debug, PartialEq)]
pub(crate) struct Handshake {
    pub version: u32,
    pub network: String,
    pub address: String,
    pub server_cert: Option<Vec<u8>>,
}

/// go-plugin's parsing of the handshake line, in its order of checks.
pub(crate) fn parse_handshake(line: &str, path: &Path) -> Result<Handshake, LaunchError> {
    let line = line.trim();
    let parts: Vec<&str> = line.split('|').collect();
    if parts.len() < 4 {
        return Err(LaunchError::Unrecognized {
            line: line.to_owned(),
            no_lines: false,
            notes: additional_notes(path),
        });
    }
    match atoi(parts[0]) {
        None => return Err(LaunchError::CoreVersionSyntax(parts[0].to_owned())),
        Some(v) if v != i64::from(CORE_PROTOCOL_VERSION) => {
            return Err(LaunchError::IncompatibleCore(parts[0].to_owned()))
        }
        Some(_) => {}
    }
    let version = match atoi(parts[1]) {
        None => return Err(LaunchError::VersionSyntax(parts[1].to_owned())),
        Some(v) => match PROTOCOL_VERSIONS.iter().find(|&&p| i64::from(p) == v) {
            Some(&p) => p,
            None => return Err(LaunchError::IncompatibleVersion(v)),
        },
    };
    let network = parts[2];
    if network != "tcp" && network != "unix" {
        return Err(LaunchError::UnknownNetwork {
            address: parts[3].to_owned(),
        });
    }
    let protocol = parts.get(4).copied().unwrap_or("netrpc");
    if protocol != "grpc" {
        return Err(LaunchError::UnsupportedProtocol(protocol.to_owned()));
    }
    // go-plugin ignores a sixth field of 50 characters or fewer (old plugins
    // put other things there).
    let server_cert = match parts.get(5) {
        Some(cert) if cert.len() > 50 => {
            use base64::Engine;
            let der = base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(cert)
                .map_err(|e| LaunchError::ServerCert(e.to_string()))?;
            Some(der)
        }
        _ => None,
    };
    Ok(Handshake {
        version,
        network: network.to_owned(),
        address: parts[3].to_owned(),
        server_cert,
    })
}

/// Starts a provider and connects to it. The process is killed if any
/// step fails.
pub fn launch(opts: &LaunchOptions) -> Result<ProviderClient, LaunchError> {
    let identity = tls::generate_identity().map_err(|e| LaunchError::Certificate(e.0))?;
    let versions: Vec<String> = PROTOCOL_VERSIONS.iter().map(u32::to_string).collect();
    let mut env: Vec<(OsString, OsString)> = opts.env.clone();
    env.extend(
        [
            (MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE.to_owned()),
            ("PLUGIN_MIN_PORT", "10000".to_owned()),
            ("PLUGIN_MAX_PORT", "25000".to_owned()),
            ("PLUGIN_PROTOCOL_VERSIONS", versions.join(",")),
            ("PLUGIN_CLIENT_CERT", identity.cert_pem.clone()),
        ]
        .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    let (process, lines) =
        PluginProcess::spawn(&opts.executable, &opts.args, env, opts.log.clone()).map_err(
            |source| LaunchError::Start {
                path: opts.executable.clone(),
                source,
            },
        )?;
    let result = (|| {
        let handshake = match first_line(&lines, opts.start_timeout) {
            FirstLine::Line(line) => parse_handshake(&line, &opts.executable)?,
            FirstLine::NoLines => {
                return Err(LaunchError::Unrecognized {
                    line: String::new(),
                    no_lines: true,
                    notes: additional_notes(&opts.executable),
                })
            }
            FirstLine::Timeout => return Err(LaunchError::Timeout),
        };
        let tls = match handshake.server_cert.clone() {
            Some(der) => {
                use x509_cert::der::Decode;
                x509_cert::Certificate::from_der(&der)
                    .map_err(|e| LaunchError::ServerCert(e.to_string()))?;
                Some(Arc::new(
                    tls::client_config(&identity, der)
                        .map_err(|e| LaunchError::Certificate(e.0))?,
                ))
            }
            None => None,
        };
        let channel = runtime()
            .block_on(connect(&handshake, tls))
            .map_err(LaunchError::Connect)?;
        Ok((handshake.version, channel))
    })();
    match result {
        Ok((version, channel)) => Ok(ProviderClient::new(
            version,
            channel,
            crate::client::Owner::Child(process),
        )),
        Err(e) => {
            process.kill_now();
            Err(e)
        }
    }
}

/// Dials the plugin's address and sets up gRPC over it.
pub(crate) async fn connect(
    handshake: &Handshake,
    tls: Option<Arc<rustls::ClientConfig>>,
) -> Result<Channel, String> {
    let network = handshake.network.clone();
    let address = handshake.address.clone();
    let connector = tower::service_fn(move |_: tonic::transport::Uri| {
        let (network, address, tls) = (network.clone(), address.clone(), tls.clone());
        async move {
            let socket = if network == "unix" {
                Socket::Unix(tokio::net::UnixStream::connect(&address).await?)
            } else {
                Socket::Tcp(tokio::net::TcpStream::connect(&address).await?)
            };
            let conn = match tls {
                None => Conn::Plain(socket),
                Some(config) => {
                    let name = rustls::pki_types::ServerName::try_from("localhost")
                        .expect("localhost is a valid server name");
                    let stream = tokio_rustls::TlsConnector::from(config)
                        .connect(name, socket)
                        .await?;
                    Conn::Client(Box::new(stream))
                }
            };
            Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(conn))
        }
    });
    Endpoint::from_static("http://plugin")
        .connect_with_connector(connector)
        .await
        .map_err(|e| {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                text = format!("{text}: {s}");
                source = s.source();
            }
            text
        })
}

/// Asks a plugin to stop, then kills it if it has not after a short grace
/// (go-plugin's `Kill`). A provider attached to in test mode is left alone.
pub(crate) fn shutdown(channel: &Channel, owner: &crate::client::Owner) {
    use crate::client::Owner;
    if let Owner::Attached(p) = owner {
        if !p.ends_on_close() {
            return;
        }
    }
    let mut controller =
        crate::proto::goplugin::grpc_controller_client::GrpcControllerClient::new(channel.clone());
    let asked = runtime().block_on(async {
        tokio::time::timeout(
            SHUTDOWN_GRACE,
            controller.shutdown(crate::proto::goplugin::Empty {}),
        )
        .await
    });
    let asked = matches!(asked, Ok(Ok(_)));
    match owner {
        Owner::Child(process) => {
            if !(asked && process.wait_exit(SHUTDOWN_GRACE)) {
                process.kill_now();
            }
        }
        Owner::Attached(p) => p.end(asked, SHUTDOWN_GRACE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_lines() {
        let p = Path::new("/nonexistent");
        let h = parse_handshake("1|6|unix|/tmp/plugin123|grpc|\n", p).unwrap();
        assert_eq!(h.version, 6);
        assert_eq!(h.network, "unix");
        assert_eq!(h.server_cert, None);
        let cases = [
            ("hello", "Unrecognized remote plugin message: hello\nThis usually means\n"),
            ("x|5|unix|/a|grpc", "error parsing core protocol version: strconv.Atoi: parsing \"x\": invalid syntax"),
            ("2|5|unix|/a|grpc", "incompatible core API version with plugin. Plugin version: 2, Core version: 1\n\nTo fix this, the plugin usually only needs to be recompiled.\nPlease report this to the plugin author"),
            ("1|v|unix|/a|grpc", "Error parsing protocol version \"v\": strconv.Atoi: parsing \"v\": invalid syntax"),
            ("1|7|unix|/a|grpc", "incompatible API version with plugin. Plugin version: 7, Client versions: [5 6]"),
            ("1|5|pipe|/a|grpc", "unknown address type: /a"),
            ("1|5|unix|/a", "unsupported plugin protocol \"netrpc\". Supported: [grpc]"),
            ("1|5|unix|/a|grpc|!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", "error parsing server cert: "),
        ];
        for (line, want) in cases {
            let got = parse_handshake(line, p).unwrap_err().to_string();
            assert!(got.starts_with(want), "{line}: {got}");
        }
    }

    #[test]
    fn errno_texts_are_go_s() {
        let e = std::io::Error::from_raw_os_error(libc::ENOENT);
        assert_eq!(go_errno_text(&e), "no such file or directory");
        let e = std::io::Error::from_raw_os_error(libc::EIO);
        assert_eq!(go_errno_text(&e), "input/output error");
    }
}
