//! The project's test provider (`terraform-provider-testing`) installed
//! for a test: a plugin directory with one package whose executable is a
//! wrapper serving a given schema over a given protocol, logging each
//! start, as `init -plugin-dir` expects it
//! (`HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The test provider binary: built beside `tofu-rs` by `cargo test
/// --workspace`; built here when only this package's tests run.
pub fn binary() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_tofu-rs")).parent().unwrap();
    let bin = dir.join("terraform-provider-testing");
    if !bin.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "terraform-provider-testing"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(status.success(), "building terraform-provider-testing");
    }
    bin
}

/// A plugin directory under `root` serving `schema` (a file) over
/// `protocol` as `HOST/tofu-rs/TYPE` version 1.0.0 for both registry hosts,
/// each start appended to `root/starts.log`.
pub fn plugin_dir(root: &Path, type_name: &str, schema: &Path, protocol: u32) -> PathBuf {
    let plugins = root.join("plugins");
    let log = root.join("starts.log");
    for host in ["registry.terraform.io", "registry.opentofu.org"] {
        let pkg = plugins.join(format!("{host}/tofu-rs/{type_name}/1.0.0/linux_amd64"));
        std::fs::create_dir_all(&pkg).unwrap();
        let exe = pkg.join(format!("terraform-provider-{type_name}"));
        let script = format!(
            "#!/bin/sh\nTOFU_RS_TESTPROVIDER_SCHEMA='{}' TOFU_RS_TESTPROVIDER_PROTOCOL={protocol} TOFU_RS_TESTPROVIDER_LOG='{}' exec '{}' \"$@\"\n",
            schema.display(),
            log.display(),
            binary().display()
        );
        std::fs::write(&exe, script).unwrap();
        set_executable(&exe);
    }
    plugins
}

/// How many plugin processes started so far under `root`.
pub fn starts(root: &Path) -> usize {
    std::fs::read_to_string(root.join("starts.log"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

#[cfg(unix)]
pub fn set_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The test provider in the SDKs' debug mode (`-debug`), serving `schema`
/// over `protocol` until dropped, each start logged to `root/starts.log`.
pub struct DebugServer {
    child: std::process::Child,
    /// Its reattach configuration, as it printed it.
    config: serde_json::Value,
}

impl DebugServer {
    pub fn start(root: &Path, schema: &Path, protocol: u32) -> DebugServer {
        use std::io::BufRead;
        let mut child = Command::new(binary())
            .arg("-debug")
            .env("TOFU_RS_TESTPROVIDER_SCHEMA", schema)
            .env("TOFU_RS_TESTPROVIDER_PROTOCOL", protocol.to_string())
            .env("TOFU_RS_TESTPROVIDER_LOG", root.join("starts.log"))
            .env("PLUGIN_UNIX_SOCKET_DIR", root)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let prefix = "\tTF_REATTACH_PROVIDERS='";
        let line = stdout
            .lines()
            .map(Result::unwrap)
            .find(|l| l.starts_with(prefix))
            .expect("the debug server prints its reattach configuration");
        let json = &line[prefix.len()..line.len() - 1];
        let printed: serde_json::Value = serde_json::from_str(json).unwrap();
        let config = printed["registry.opentofu.org/tofu-rs/testing"].clone();
        assert!(config.is_object(), "{line}");
        DebugServer { child, config }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process still runs (reaped if it has ended).
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// `TF_REATTACH_PROVIDERS` naming this server as `tofu-rs/testing` on
    /// both registries (tofu-rs's default host and terraform's), with
    /// `Test` set to `test` and the other fields changed by `edit`.
    pub fn reattach_env(&self, test: bool, edit: impl Fn(&mut serde_json::Value)) -> String {
        let mut config = self.config.clone();
        config["Test"] = serde_json::Value::Bool(test);
        edit(&mut config);
        serde_json::json!({
            "registry.opentofu.org/tofu-rs/testing": config,
            "registry.terraform.io/tofu-rs/testing": config,
        })
        .to_string()
    }
}

impl Drop for DebugServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
