//! Target platforms named as Go names them (`linux_amd64`), because
//! provider packages, registry URLs and directory layouts all use Go's
//! `GOOS_GOARCH`.

use std::fmt;

/// An operating system and CPU architecture.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Platform {
    pub os: String,
    pub arch: String,
}

impl Platform {
    pub fn new(os: &str, arch: &str) -> Platform {
        Platform {
            os: os.to_string(),
            arch: arch.to_string(),
        }
    }

    /// The platform this process runs on, in Go's names.
    pub fn current() -> Platform {
        Platform::new(go_os(std::env::consts::OS), go_arch(std::env::consts::ARCH))
    }

    /// `ParsePlatform`: `os_arch`, with OpenTofu's messages.
    pub fn parse(s: &str) -> Result<Platform, String> {
        let parts: Vec<&str> = s.split('_').collect();
        if parts.len() != 2 {
            return Err("must be two words separated by an underscore".to_string());
        }
        let ws = |p: &str| p.contains([' ', '\t', '\n', '\r']);
        if ws(parts[0]) {
            return Err("OS portion must not contain whitespace".to_string());
        }
        if ws(parts[1]) {
            return Err("architecture portion must not contain whitespace".to_string());
        }
        Ok(Platform::new(parts[0], parts[1]))
    }
}

/// Rust's `std::env::consts::OS` to Go's `GOOS`.
pub fn go_os(rust_os: &str) -> &str {
    match rust_os {
        "macos" => "darwin",
        other => other,
    }
}

/// Rust's `std::env::consts::ARCH` to Go's `GOARCH`.
pub fn go_arch(rust_arch: &str) -> &str {
    match rust_arch {
        "x86_64" => "amd64",
        "x86" => "386",
        "aarch64" => "arm64",
        "powerpc64" => "ppc64",
        "loongarch64" => "loong64",
        "mips64" => "mips64",
        other => other,
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.os, self.arch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(go_os("macos"), "darwin");
        assert_eq!(go_arch("x86_64"), "amd64");
        assert_eq!(go_arch("aarch64"), "arm64");
        assert_eq!(
            Platform::parse("linux_amd64").unwrap().to_string(),
            "linux_amd64"
        );
        assert_eq!(
            Platform::parse("linux").unwrap_err(),
            "must be two words separated by an underscore"
        );
        if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
            assert_eq!(Platform::current().to_string(), "linux_amd64");
        }
    }
}
