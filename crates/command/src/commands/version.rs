//! `tofu-rs version`: the version and the platform, as `tofu version`.

use crate::flags::options;
use crate::view::Streams;

/// The version tofu-rs reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The platform in Go's `os_arch` spelling.
pub fn platform() -> String {
    let os = std::env::consts::OS;
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    format!("{os}_{arch}")
}

options! {
    /// `tofu-rs version`'s flags.
    pub struct VersionOptions {
        /// `-json`: the version as a JSON document.
        json: bool => ["json"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match VersionOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    if opts.json {
        let doc = serde_json::json!({
            "terraform_version": VERSION,
            "platform": platform(),
            "provider_selections": {},
        });
        streams.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        ));
    } else {
        streams.print(&format!("tofu-rs v{VERSION}\non {}\n", platform()));
    }
    0
}
