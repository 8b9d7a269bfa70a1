//! A working directory inside a parent that also holds a sentinel
//! directory, for tests that feed `tofu-rs init` hostile packages and
//! check nothing was written outside the working directory.
//! Shared by hostile_archives.rs and hostile_sources.rs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

/// What a run printed and how it ended; `text` is stderr with line
/// breaks made spaces, so wrapped diagnostics can be matched whole.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub text: String,
}

pub struct Sandbox {
    parent: tempfile::TempDir,
}

impl Sandbox {
    /// `parent/work/main.tf` holding `main_tf`, and `parent/sentinel/keep`.
    pub fn new(main_tf: &str) -> Sandbox {
        let parent = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(parent.path().join("work/home")).unwrap();
        std::fs::create_dir_all(parent.path().join("sentinel")).unwrap();
        std::fs::write(parent.path().join("sentinel/keep"), "keep").unwrap();
        std::fs::write(parent.path().join("work/main.tf"), main_tf).unwrap();
        std::fs::write(parent.path().join("work/cli.tfrc"), "").unwrap();
        Sandbox { parent }
    }

    pub fn work(&self) -> PathBuf {
        self.parent.path().join("work")
    }

    pub fn sentinel(&self) -> PathBuf {
        self.parent.path().join("sentinel")
    }

    pub fn set_cli_config(&self, text: &str) {
        std::fs::write(self.work().join("cli.tfrc"), text).unwrap();
    }

    /// `tofu-rs init -no-color -backend=false` with an isolated
    /// environment and `envs` added.
    pub fn init(&self, envs: &[(&str, &Path)]) -> Run {
        let home = self.work().join("home");
        let mut cmd = Command::new(BIN);
        cmd.args(["init", "-no-color", "-backend=false", "-input=false"])
            .current_dir(self.work())
            .env("TF_CLI_CONFIG_FILE", self.work().join("cli.tfrc"))
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env("NO_COLOR", "1")
            .env_remove("TF_PLUGIN_CACHE_DIR")
            .env_remove("TF_MODULE_CACHE_DIR")
            .env_remove("TF_DATA_DIR")
            .env_remove("TF_IN_AUTOMATION");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            text: stderr.split_whitespace().collect::<Vec<_>>().join(" "),
            stderr,
        }
    }

    /// Nothing beside the working directory changed, the sentinel holds
    /// only its file, and nothing under `.terraform` is a symbolic link
    /// (the only way a later read could leave the working directory).
    pub fn assert_sealed(&self) {
        let mut top = names(self.parent.path());
        top.sort();
        assert_eq!(
            top,
            ["sentinel", "work"],
            "written beside the working directory"
        );
        assert_eq!(
            names(&self.sentinel()),
            ["keep"],
            "written into the sentinel"
        );
        assert_eq!(
            std::fs::read_to_string(self.sentinel().join("keep")).unwrap(),
            "keep"
        );
        for name in names(&self.work()) {
            assert!(
                [
                    ".terraform",
                    ".terraform.lock.hcl",
                    "cli.tfrc",
                    "home",
                    "main.tf"
                ]
                .contains(&name.as_str()),
                "unexpected {name} in the working directory"
            );
        }
        if let Some(link) = first_link(&self.work().join(".terraform")) {
            panic!("{} is a symbolic link", link.display());
        }
    }
}

fn names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn first_link(dir: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    for e in entries {
        let e = e.unwrap();
        let ft = e.file_type().unwrap();
        if ft.is_symlink() {
            return Some(e.path());
        }
        if ft.is_dir() {
            if let Some(l) = first_link(&e.path()) {
                return Some(l);
            }
        }
    }
    None
}
