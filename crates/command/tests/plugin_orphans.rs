//! No plugin outlives the command: when `tofu-rs validate` is interrupted
//! (Ctrl-C) or ends with an error while plugins are running, every plugin
//! process it started is gone too.
//!
//! Two providers are required: the test provider, which starts and
//! answers, and a plugin that never completes its handshake, so the run is
//! caught with both alive.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::testprovider;

const MAIN_TF: &str = r#"
terraform {
  required_providers {
    testing = { source = "tofu-rs/testing", version = "1.0.0" }
    hang    = { source = "tofu-rs/hang", version = "1.0.0" }
  }
}
resource "testing_thing" "a" {
  name = "x"
}
"#;

fn fixture_schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testprovider/tests/fixtures/schema.json")
}

/// Adds `hang`, whose executable is the shell script `script`.
fn add_second_plugin(plugins: &Path, script: &str) {
    for host in ["registry.terraform.io", "registry.opentofu.org"] {
        let pkg = plugins.join(format!("{host}/tofu-rs/hang/1.0.0/linux_amd64"));
        std::fs::create_dir_all(&pkg).unwrap();
        let exe = pkg.join("terraform-provider-hang");
        std::fs::write(&exe, script).unwrap();
        testprovider::set_executable(&exe);
    }
}

/// A working directory initialised with the test provider and `hang`
/// (the script `hang_script`); returns the root, the directory and the
/// schema cache.
fn initialised(hang_script: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let plugins = testprovider::plugin_dir(root.path(), "testing", &fixture_schema(), 6);
    add_second_plugin(&plugins, hang_script);
    let work = root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("main.tf"), MAIN_TF).unwrap();
    let cache = root.path().join("cache");
    let init = tofu(&work, &cache)
        .args(["init", "-input=false", "-no-color"])
        .arg(format!("-plugin-dir={}", plugins.display()))
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    (root, work, cache)
}

fn tofu(dir: &Path, cache: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tofu-rs"));
    cmd.current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        .env("TOFU_RS_SCHEMA_CACHE_DIR", cache)
        .env_remove("TF_DATA_DIR");
    cmd
}

/// pids from lines `start pid=N` (the test provider's log) or `N`.
fn pids_in(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("start pid=").parse().ok())
        .collect()
}

/// True while `pid` is a process that has not exited (a zombie has).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

fn wait_until(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

struct Running {
    _dirs: [tempfile::TempDir; 2],
    child: Child,
    plugin_pids: Vec<i32>,
}

/// Starts `validate` and returns once both plugins are running: the test
/// provider, and `hang`, which records its pid and sleeps without ever
/// printing a handshake line.
fn validate_with_live_plugins() -> Running {
    let scratch = tempfile::tempdir().unwrap();
    let hang_pids = scratch.path().join("hang.pids");
    let (root, work, cache) = initialised(&format!(
        "#!/bin/sh\necho $$ >> '{}'\nexec sleep 600\n",
        hang_pids.display()
    ));
    let child = tofu(&work, &cache)
        .args(["validate", "-no-color"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let log = root.path().join("starts.log");
    wait_until("both plugins to start", Duration::from_secs(30), || {
        !pids_in(&log).is_empty() && !pids_in(&hang_pids).is_empty()
    });
    let plugin_pids: Vec<i32> = pids_in(&log)
        .into_iter()
        .chain(pids_in(&hang_pids))
        .collect();
    for &pid in &plugin_pids {
        assert!(
            alive(pid),
            "plugin {pid} should be running before the signal"
        );
    }
    Running {
        _dirs: [root, scratch],
        child,
        plugin_pids,
    }
}

fn signal(pid: u32, sig: &str) {
    let status = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Sends `sig` to tofu-rs alone while both plugins run, as when it runs in
/// the background or under a CI runner (the plugins must not depend on a
/// terminal signalling their process group too); both must end.
fn signal_ends_every_plugin(sig: &str) {
    let mut run = validate_with_live_plugins();
    signal(run.child.id(), sig);
    let status = run.child.wait().unwrap();
    assert!(!status.success());
    for &pid in &run.plugin_pids {
        wait_until(
            &format!("plugin {pid} to end"),
            Duration::from_secs(10),
            || !alive(pid),
        );
    }
}

#[test]
fn ctrl_c_during_validate_leaves_no_plugin_running() {
    signal_ends_every_plugin("-INT");
}

#[test]
fn termination_during_validate_leaves_no_plugin_running() {
    signal_ends_every_plugin("-TERM");
}

#[test]
fn a_plugin_that_fails_to_start_leaves_no_other_plugin_running() {
    let (root, work, cache) = initialised("#!/bin/sh\nexit 3\n");
    let out = tofu(&work, &cache)
        .args(["validate", "-no-color"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("registry.opentofu.org/tofu-rs/hang"),
        "{stderr}"
    );
    let pids = pids_in(&root.path().join("starts.log"));
    assert!(!pids.is_empty(), "the test provider was started");
    for pid in pids {
        assert!(!alive(pid), "plugin {pid} outlived validate");
    }
}
