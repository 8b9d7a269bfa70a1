//! Attaching to a provider that is already running (go-plugin's
//! `Reattach`, which OpenTofu's `unmanagedProviderFactory` uses for
//! `TF_REATTACH_PROVIDERS`): no process is started, no handshake line is
//! read and no TLS is used; the client dials the address the provider's
//! own harness printed (an SDK's debug mode, an acceptance test).
//!
//! Whether the process is ended afterwards is the config's `test` flag:
//! a test harness owns its process (`Test: true`, what the SDKs' debug
//! mode prints), otherwise closing the client shuts the process down as
//! go-plugin's `Kill` does.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::client::ProviderClient;
use crate::conn::runtime;
use crate::launch::{connect, Handshake, LaunchError, DEFAULT_START_TIMEOUT, PROTOCOL_VERSIONS};

/// Where a running provider listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReattachAddr {
    /// A Unix socket's path.
    Unix(PathBuf),
    /// A TCP address.
    Tcp(std::net::SocketAddr),
}

impl fmt::Display for ReattachAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReattachAddr::Unix(p) => write!(f, "{}", p.display()),
            ReattachAddr::Tcp(a) => write!(f, "{a}"),
        }
    }
}

/// go-plugin's `ReattachConfig`: how to reach a provider someone else runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReattachConfig {
    /// The RPC protocol; only `grpc` is spoken (empty means go-plugin's
    /// old `netrpc`).
    pub protocol: String,
    /// The plugin protocol version; 0 (old SDKs leave it out) means 5.
    pub protocol_version: i64,
    /// The provider's process id, for ending it when `test` is false.
    pub pid: i64,
    /// The harness owns the process: it is left running.
    pub test: bool,
    /// Where it listens.
    pub addr: ReattachAddr,
}

/// A process the client attached to and did not start.
#[derive(Debug)]
pub(crate) struct AttachedProcess {
    pid: i64,
    /// Closing the client ends the process (the config's `test` is false).
    end_on_close: bool,
}

impl AttachedProcess {
    pub(crate) fn pid(&self) -> u32 {
        u32::try_from(self.pid).unwrap_or(0)
    }

    pub(crate) fn ends_on_close(&self) -> bool {
        self.end_on_close
    }

    /// go-plugin's `Kill` for a reattached client not in test mode (the
    /// caller asks [`AttachedProcess::ends_on_close`] first): after the
    /// shutdown request (`asked` says whether it was answered), a grace
    /// period for the process to go, then SIGKILL.
    pub(crate) fn end(&self, asked: bool, grace: Duration) {
        if !crate::sys::is_other_process(self.pid) {
            return;
        }
        if asked {
            let deadline = Instant::now() + grace;
            while Instant::now() < deadline {
                if !crate::sys::process_exists(self.pid) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        crate::sys::kill_process(self.pid);
    }
}

/// OpenTofu's choice of protocol for an unmanaged provider, with its error.
fn protocol_version(config: &ReattachConfig) -> Result<u32, LaunchError> {
    match config.protocol_version {
        0 => Ok(5),
        v => PROTOCOL_VERSIONS
            .iter()
            .copied()
            .find(|&p| i64::from(p) == v)
            .ok_or(LaunchError::NoPluginsForProtocol(v)),
    }
}

/// Connects to the running provider `config` describes.
pub fn attach(config: &ReattachConfig) -> Result<ProviderClient, LaunchError> {
    let version = protocol_version(config)?;
    // go-plugin first dials once to see that something listens (on Unix
    // the process id alone proves nothing).
    let reachable = match &config.addr {
        ReattachAddr::Unix(path) => std::os::unix::net::UnixStream::connect(path).is_ok(),
        ReattachAddr::Tcp(addr) => {
            std::net::TcpStream::connect_timeout(addr, DEFAULT_START_TIMEOUT).is_ok()
        }
    };
    if !reachable {
        return Err(LaunchError::ReattachNotFound);
    }
    let protocol = if config.protocol.is_empty() {
        "netrpc"
    } else {
        config.protocol.as_str()
    };
    if protocol != "grpc" {
        return Err(LaunchError::UnsupportedProtocol(protocol.to_owned()));
    }
    let (network, address) = match &config.addr {
        ReattachAddr::Unix(p) => ("unix", p.to_string_lossy().into_owned()),
        ReattachAddr::Tcp(a) => ("tcp", a.to_string()),
    };
    let handshake = Handshake {
        version,
        network: network.to_owned(),
        address,
        server_cert: None,
    };
    let channel = runtime()
        .block_on(connect(&handshake, None))
        .map_err(LaunchError::Connect)?;
    let process = AttachedProcess {
        pid: config.pid,
        end_on_close: !config.test,
    };
    Ok(ProviderClient::new(
        version,
        channel,
        crate::client::Owner::Attached(process),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(version: i64, protocol: &str, addr: ReattachAddr) -> ReattachConfig {
        ReattachConfig {
            protocol: protocol.into(),
            protocol_version: version,
            pid: 0,
            test: true,
            addr,
        }
    }

    #[test]
    fn version_zero_is_five_and_others_must_be_spoken() {
        let addr = ReattachAddr::Unix("/nonexistent".into());
        assert_eq!(
            protocol_version(&config(0, "grpc", addr.clone())).unwrap(),
            5
        );
        assert_eq!(
            protocol_version(&config(6, "grpc", addr.clone())).unwrap(),
            6
        );
        let e = protocol_version(&config(4, "grpc", addr)).unwrap_err();
        assert_eq!(e.to_string(), "no supported plugins for protocol 4");
    }

    #[test]
    fn nothing_listening_is_process_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let addr = ReattachAddr::Unix(dir.path().join("none.sock"));
        let e = attach(&config(6, "grpc", addr)).unwrap_err();
        assert_eq!(e.to_string(), "reattachment process not found");
    }

    #[test]
    fn tcp_addresses_are_dialled_too() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let open = listener.local_addr().unwrap();
        // Something listens: the dial succeeds and the protocol is checked.
        let e = attach(&config(5, "netrpc", ReattachAddr::Tcp(open))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unsupported plugin protocol \"netrpc\". Supported: [grpc]"
        );
        drop(listener);
        // Nothing listens any more.
        let e = attach(&config(5, "grpc", ReattachAddr::Tcp(open))).unwrap_err();
        assert_eq!(e.to_string(), "reattachment process not found");
    }

    #[test]
    fn only_grpc_is_spoken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("listening.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let e = attach(&config(5, "", ReattachAddr::Unix(path.clone()))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unsupported plugin protocol \"netrpc\". Supported: [grpc]"
        );
        let e = attach(&config(5, "carrier-pigeon", ReattachAddr::Unix(path))).unwrap_err();
        assert!(e.to_string().contains("\"carrier-pigeon\""), "{e}");
    }

    #[test]
    fn test_mode_and_foreign_pids_are_never_signalled() {
        // A test-mode config is never ended...
        let test_mode = AttachedProcess {
            pid: i64::from(std::process::id()),
            end_on_close: false,
        };
        assert!(!test_mode.ends_on_close());
        test_mode.end(false, Duration::ZERO);
        // ...and no config makes tofu-rs signal itself, init, or every
        // process (kill(0) and kill(-1) mean groups, not one process).
        for pid in [0, -1, 1, i64::from(std::process::id())] {
            assert!(!crate::sys::is_other_process(pid), "{pid}");
        }
    }
}
