//! terraform-provider-testing: tofu-rs's test provider. It serves the
//! provider schema in the file named by `TOFU_RS_TESTPROVIDER_SCHEMA` (one
//! provider's entry of `providers schema -json`) over plugin protocol
//! `TOFU_RS_TESTPROVIDER_PROTOCOL` (5 or 6; default 6), appends a line to
//! `TOFU_RS_TESTPROVIDER_LOG` (if set) at every start, and behaves as
//! `logic.rs` says: Validate* calls reject the string "INVALID", plans make
//! computed attributes unknown, applies and reads fill in zero values.
//! It speaks go-plugin's server handshake, so terraform and OpenTofu run
//! it like any provider.

mod logic;
mod services;

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use plugin::server::{serve, ServeError};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = write!(std::io::stderr(), "{e}");
            if !e.ends_with('\n') {
                let _ = writeln!(std::io::stderr());
            }
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    if let Some(log) = std::env::var_os("TOFU_RS_TESTPROVIDER_LOG") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(|e| format!("opening {}: {e}", log.to_string_lossy()))?;
        writeln!(f, "start pid={}", std::process::id()).map_err(|e| e.to_string())?;
    }
    let protocol: u32 = match std::env::var("TOFU_RS_TESTPROVIDER_PROTOCOL")
        .ok()
        .as_deref()
    {
        None | Some("") | Some("6") => 6,
        Some("5") => 5,
        Some(other) => {
            return Err(format!(
                "TOFU_RS_TESTPROVIDER_PROTOCOL must be 5 or 6, not {other:?}"
            ))
        }
    };
    // The cookie check comes before the schema, so that running the
    // binary by hand says what go-plugin says.
    if std::env::var(plugin::MAGIC_COOKIE_KEY).ok().as_deref() != Some(plugin::MAGIC_COOKIE_VALUE) {
        return Err(ServeError::NotAPlugin.to_string());
    }
    let path = std::env::var_os("TOFU_RS_TESTPROVIDER_SCHEMA")
        .ok_or("TOFU_RS_TESTPROVIDER_SCHEMA is not set")?;
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("reading {}: {e}", path.to_string_lossy()))?;
    let schema = configschema::json::decode_provider(&text)
        .map_err(|e| format!("{}: {e}", path.to_string_lossy()))?;
    // Protocol 5 has no nested attribute types: the provider then plans
    // and validates against what it serves, their implied object types.
    let schema = if protocol == 5 {
        logic::without_nested_types(schema)
    } else {
        schema
    };
    let provider = Arc::new(services::TestProvider::new(schema));
    serve(&[protocol], |version| services::routes(version, provider)).map_err(|e| e.to_string())
}
