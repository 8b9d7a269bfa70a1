//! `init` interrupted and run twice at once, against a loopback server
//! that accepts connections and never answers (the module download
//! hangs): SIGINT cancels the installation cleanly, SIGKILL leaves nothing
//! the next run cannot recover from, and a second `init` in the same
//! directory waits for the first or gives up with a clear error.

#![cfg(unix)]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = "variable \"module_source\" {\n  type = string\n}\n\nmodule \"test\" {\n  source = var.module_source\n}\n";

/// A working directory whose only module comes from `-var=module_source`,
/// and a local module to point it at once the server is out of the way.
fn work_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("main.tf"), CONFIG).unwrap();
    std::fs::create_dir_all(d.path().join("local")).unwrap();
    std::fs::write(
        d.path().join("local/main.tf"),
        "output \"v\" {\n  value = 1\n}\n",
    )
    .unwrap();
    d
}

fn init(dir: &Path, source: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tofu-rs"));
    cmd.arg("init")
        .arg("-backend=false")
        .arg("-input=false")
        .arg(format!("-var=module_source={source}"))
        .args(extra)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, _) in std::env::vars() {
        if k.starts_with("TF_") {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Starts an init whose download hangs, and returns once its request has
/// reached the server (the connection is kept open, unanswered).
fn start_hanging(dir: &Path) -> (Child, TcpListener, std::net::TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://127.0.0.1:{}/example.zip",
        listener.local_addr().unwrap().port()
    );
    let child = init(dir, &url, &[]).spawn().unwrap();
    let (conn, _) = listener.accept().unwrap();
    // Give the client a moment to send its request and start waiting.
    std::thread::sleep(Duration::from_millis(200));
    (child, listener, conn)
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig} failed");
}

/// Waits for `child`, failing the test if it takes longer than `limit`.
fn wait_within(child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        start.elapsed() < limit,
        "took {:?} (limit {limit:?})",
        start.elapsed()
    );
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn modules_dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join(".terraform/modules"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The next init, pointed at the local module, must succeed and leave a
/// complete manifest and no staging leftovers.
fn assert_next_init_recovers(dir: &Path) {
    let out = init(dir, "./local", &[]).output().unwrap();
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("- test in local\n"));
    let manifest = std::fs::read_to_string(dir.join(".terraform/modules/modules.json")).unwrap();
    assert_eq!(
        manifest,
        "{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},{\"Key\":\"test\",\"Source\":\"./local\",\"Dir\":\"local\"}]}"
    );
    assert_eq!(modules_dir_entries(dir), ["modules.json"]);
}

#[test]
fn sigint_cancels_a_hanging_download() {
    let d = work_dir();
    let (child, _listener, _conn) = start_hanging(d.path());
    signal(&child, "-INT");
    let out = wait_within(child, Duration::from_secs(10));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(
        stderr.ends_with("Module installation was canceled by an interrupt signal.\n"),
        "stderr:\n{stderr}"
    );
    assert!(
        stderr.contains("Error: Failed to download module"),
        "{stderr}"
    );
    assert!(stderr.contains("context canceled"), "{stderr}");
    // What was installed (the root only) is recorded; nothing of the
    // abandoned download is.
    let manifest =
        std::fs::read_to_string(d.path().join(".terraform/modules/modules.json")).unwrap();
    assert_eq!(
        manifest,
        "{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"}]}"
    );
    assert!(!d.path().join(".terraform/modules/test").exists());
    assert_next_init_recovers(d.path());
}

#[test]
fn sigkill_halfway_then_the_next_init_recovers() {
    let d = work_dir();
    let (mut child, _listener, _conn) = start_hanging(d.path());
    signal(&child, "-KILL");
    let status = child.wait().unwrap();
    assert!(!status.success());
    // Killed before writing the manifest: none, or an old complete one.
    if let Ok(m) = std::fs::read_to_string(d.path().join(".terraform/modules/modules.json")) {
        serde_json::from_str::<serde_json::Value>(&m).expect("manifest is whole JSON");
    }
    assert!(!d.path().join(".terraform/modules/test").exists());
    assert_next_init_recovers(d.path());
}

#[test]
fn a_second_init_gives_up_or_waits_for_the_first() {
    let d = work_dir();
    let (first, _listener, _conn) = start_hanging(d.path());

    // Told to wait one second at most, the second run fails cleanly and
    // touches nothing.
    let second = init(d.path(), "./local", &["-lock-timeout=1s"])
        .spawn()
        .unwrap();
    let out = wait_within(second, Duration::from_secs(10));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(
        stderr.contains("Error: Working directory is locked"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Another \"tofu init\" is using"),
        "{stderr}"
    );

    // A patient one proceeds as soon as the first is interrupted.
    let third = init(d.path(), "./local", &["-lock-timeout=30s"])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    signal(&first, "-INT");
    let first_out = wait_within(first, Duration::from_secs(10));
    assert_eq!(first_out.status.code(), Some(1));
    let out = wait_within(third, Duration::from_secs(20));
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("- test in local\n"));
    assert_eq!(modules_dir_entries(d.path()), ["modules.json"]);
}

#[test]
fn invalid_lock_timeout_is_refused() {
    let d = work_dir();
    let out = init(d.path(), "./local", &["-lock-timeout=soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "invalid value \"soon\" for flag -lock-timeout: parse error\n"
    );
    assert!(!d.path().join(".terraform").exists());
}

/// `init -recursive`: one SIGINT cancels every root's installation (the
/// roots share the hanging package: one request, the other root waiting
/// for it), each root says so, and the run ends at once with exit status 1.
#[test]
fn sigint_cancels_every_root_of_a_recursive_init() {
    let top = tempfile::tempdir().unwrap();
    for root in ["live/a", "live/b"] {
        let dir = top.path().join(root);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://127.0.0.1:{}/example.zip",
        listener.local_addr().unwrap().port()
    );
    let child = init(top.path(), &url, &["-recursive"]).spawn().unwrap();
    let (_conn, _) = listener.accept().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "-INT");
    let out = wait_within(child, Duration::from_secs(10));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("live/a: failed"), "{stdout}");
    assert!(stdout.contains("live/b: failed"), "{stdout}");
    assert!(
        stdout.ends_with("2 root modules initialized: 0 ok, 2 failed.\n"),
        "{stdout}"
    );
    assert_eq!(
        stderr
            .matches("Module installation was canceled by an interrupt signal.")
            .count(),
        2,
        "{stderr}"
    );
    for root in ["live/a", "live/b"] {
        assert_eq!(
            modules_dir_entries(&top.path().join(root)),
            ["modules.json"],
            "nothing of the abandoned download is left in {root}"
        );
    }
}
