//! `tofu-rs version`: the version and the platform, as `tofu version`.

use crate::flags::{self, bool_flag};
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

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let parsed = match flags::parse(args, &[bool_flag("json")]) {
        Ok(p) => p,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    if parsed.bool("json", false) {
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
