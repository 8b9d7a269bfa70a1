//! A working directory for provider tests run through the binary: its own
//! empty CLI configuration, home and data directory, no plugin cache and
//! no TF_DATA_DIR, so a test sees only the sources it configures.
//! Shared by init_providers.rs and providers_lock.rs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a run printed and how it ended.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

pub struct Work {
    pub dir: tempfile::TempDir,
    /// `TF_CLI_CONFIG_FILE`: empty until a test writes one.
    pub cli_config: PathBuf,
    /// More environment for every run (e.g. `TF_PLUGIN_CACHE_DIR`).
    pub envs: Vec<(String, String)>,
}

impl Work {
    pub fn new(main_tf: &str) -> Work {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.tf"), main_tf).unwrap();
        let cli_config = dir.path().join("cli.tfrc");
        std::fs::write(&cli_config, "").unwrap();
        Work {
            dir,
            cli_config,
            envs: Vec::new(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `bin` with `args`, in this directory and its isolated environment.
    pub fn command(&self, bin: &Path, args: &[&str]) -> Command {
        let home = self.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let mut cmd = Command::new(bin);
        cmd.args(args)
            .current_dir(self.path())
            .env("TF_CLI_CONFIG_FILE", &self.cli_config)
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env_remove("TF_PLUGIN_CACHE_DIR")
            .env_remove("TF_DATA_DIR")
            .env_remove("TF_IN_AUTOMATION");
        for (k, v) in &self.envs {
            cmd.env(k, v);
        }
        cmd
    }

    pub fn lock_file(&self) -> String {
        std::fs::read_to_string(self.path().join(".terraform.lock.hcl")).unwrap_or_default()
    }
}
