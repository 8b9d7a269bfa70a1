//! Plugins that cannot be used, one per way of failing, each a tiny shell
//! script (or no file at all); the errors carry go-plugin's texts.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use plugin::{launch, LaunchError, LaunchOptions};

/// Writes `body` as an executable script `plugin` in `dir`.
fn script(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("terraform-provider-bad");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn fail(path: &Path) -> LaunchError {
    let mut opts = LaunchOptions::new(path);
    opts.start_timeout = Duration::from_secs(10);
    launch(&opts).unwrap_err()
}

const USUALLY: &str = "This usually means
  the plugin was not compiled for this architecture,
  the plugin is missing dynamic-link libraries necessary to run,
  the plugin is not executable by this process due to file permissions, or
  the plugin failed to negotiate the initial go-plugin protocol handshake
";

fn notes_prefix(path: &Path) -> String {
    format!(
        "\nAdditional notes about plugin:\n  Path: {}\n  Mode: -rwxr-xr-x\n  Owner: ",
        path.display()
    )
}

#[test]
fn missing_executable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terraform-provider-nope");
    let err = fail(&path);
    assert!(matches!(err, LaunchError::Start { .. }));
    assert_eq!(
        err.to_string(),
        format!("fork/exec {}: no such file or directory", path.display())
    );
}

#[test]
fn not_executable() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(dir.path(), "exit 0");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(
        fail(&path).to_string(),
        format!("fork/exec {}: permission denied", path.display())
    );
}

#[test]
fn exits_at_once() {
    // go-plugin closes its line channel when stdout ends, before it sees
    // the process exit, so an immediate exit reads as no handshake line.
    let dir = tempfile::tempdir().unwrap();
    let path = script(dir.path(), "echo 'something went wrong' >&2\nexit 1");
    let err = fail(&path).to_string();
    let want = format!(
        "Unrecognized remote plugin message: \nFailed to read any lines from plugin's stdout\n{USUALLY}{}",
        notes_prefix(&path)
    );
    assert!(err.starts_with(&want), "{err}");
    assert!(err.contains("\n  Group: "), "{err}");
}

#[test]
fn garbage_handshake() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(dir.path(), "echo 'hello there'\nexec sleep 30");
    let err = fail(&path).to_string();
    let want = format!(
        "Unrecognized remote plugin message: hello there\n{USUALLY}{}",
        notes_prefix(&path)
    );
    assert!(err.starts_with(&want), "{err}");
}

#[test]
fn never_answers() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(dir.path(), "exec sleep 30");
    let mut opts = LaunchOptions::new(&path);
    opts.start_timeout = Duration::from_millis(300);
    let started = Instant::now();
    let err = launch(&opts).unwrap_err();
    assert_eq!(err.to_string(), "timeout while waiting for plugin to start");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn unsupported_protocol_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(
        dir.path(),
        "echo '1|7|unix|/tmp/nowhere|grpc|'\nexec sleep 30",
    );
    assert_eq!(
        fail(&path).to_string(),
        "incompatible API version with plugin. Plugin version: 7, Client versions: [5 6]"
    );
}

#[test]
fn bad_core_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(
        dir.path(),
        "echo '2|6|unix|/tmp/nowhere|grpc|'\nexec sleep 30",
    );
    assert_eq!(
        fail(&path).to_string(),
        "incompatible core API version with plugin. Plugin version: 2, Core version: 1\n\n\
         To fix this, the plugin usually only needs to be recompiled.\n\
         Please report this to the plugin author"
    );
}

#[test]
fn not_a_grpc_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(dir.path(), "echo '1|5|unix|/tmp/nowhere'\nexec sleep 30");
    assert_eq!(
        fail(&path).to_string(),
        "unsupported plugin protocol \"netrpc\". Supported: [grpc]"
    );
}

#[test]
fn unknown_network() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(
        dir.path(),
        "echo '1|5|pipe|/tmp/nowhere|grpc|'\nexec sleep 30",
    );
    assert_eq!(
        fail(&path).to_string(),
        "unknown address type: /tmp/nowhere"
    );
}

#[test]
fn bad_server_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let cert = "A".repeat(64);
    let path = script(
        dir.path(),
        &format!("echo '1|6|unix|/tmp/nowhere|grpc|{cert}'\nexec sleep 30"),
    );
    let err = fail(&path);
    assert!(matches!(err, LaunchError::ServerCert(_)), "{err}");
    assert!(err.to_string().starts_with("error parsing server cert: "));
}

#[test]
fn nothing_listens() {
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("missing.sock");
    let path = script(
        dir.path(),
        &format!("echo '1|6|unix|{}|grpc|'\nexec sleep 30", sock.display()),
    );
    let err = fail(&path);
    assert!(matches!(err, LaunchError::Connect(_)), "{err}");
}
