//! terraform-provider-testing: tofu-rs's test provider. It serves the
//! provider schema in the file named by `TOFU_RS_TESTPROVIDER_SCHEMA` (one
//! provider's entry of `providers schema -json`) over plugin protocol
//! `TOFU_RS_TESTPROVIDER_PROTOCOL` (5 or 6; default 6), appends a line to
//! `TOFU_RS_TESTPROVIDER_LOG` (if set) at every start, and behaves as
//! `logic.rs` says: Validate* calls reject the string "INVALID", plans make
//! computed attributes unknown, applies and reads fill in zero values.
//! It speaks go-plugin's server handshake, so terraform and OpenTofu run
//! it like any provider.
//!
//! Run by hand as `terraform-provider-testing -debug [-address=ADDR]`, it
//! serves as the SDKs' debug mode does: no cookie, no TLS, and the
//! `TF_REATTACH_PROVIDERS` value to attach to it (under the provider
//! address ADDR, by default [`DEFAULT_ADDRESS`]) printed on stdout; it
//! runs until interrupted.

mod logic;
mod services;

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use plugin::server::{serve, serve_debug, ServeError};

/// The provider address `-debug` announces when `-address` is not given.
const DEFAULT_ADDRESS: &str = "registry.opentofu.org/tofu-rs/testing";

/// How the provider was asked to run.
enum Mode {
    /// Started by a client, with go-plugin's handshake.
    Plugin,
    /// `-debug`: serving for clients that attach, under this address.
    Debug(String),
}

/// `-debug` and `-address=ADDR` (single or double dash, as Go's flag
/// package reads them).
fn mode(args: impl Iterator<Item = String>) -> Result<Mode, String> {
    let mut debug = false;
    let mut address = DEFAULT_ADDRESS.to_owned();
    for arg in args {
        let flag = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'));
        match flag {
            Some("debug") | Some("debug=true") => debug = true,
            Some("debug=false") => debug = false,
            Some(f) if f.starts_with("address=") => address = f["address=".len()..].to_owned(),
            _ => return Err(format!("unknown argument {arg:?}; usage: terraform-provider-testing [-debug [-address=ADDR]]")),
        }
    }
    Ok(if debug {
        Mode::Debug(address)
    } else {
        Mode::Plugin
    })
}

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
    let mode = mode(std::env::args().skip(1))?;
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
    if matches!(mode, Mode::Plugin)
        && std::env::var(plugin::MAGIC_COOKIE_KEY).ok().as_deref()
            != Some(plugin::MAGIC_COOKIE_VALUE)
    {
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
    let routes = |version| services::routes(version, provider);
    match mode {
        Mode::Plugin => serve(&[protocol], routes),
        Mode::Debug(address) => serve_debug(protocol, &address, routes),
    }
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Mode, String> {
        mode(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn flags_choose_the_mode() {
        assert!(matches!(parsed(&[]), Ok(Mode::Plugin)));
        assert!(matches!(parsed(&["-debug=false"]), Ok(Mode::Plugin)));
        match parsed(&["-debug"]) {
            Ok(Mode::Debug(a)) => assert_eq!(a, DEFAULT_ADDRESS),
            _ => panic!("-debug is debug mode"),
        }
        match parsed(&["--address=example.com/x/y", "--debug"]) {
            Ok(Mode::Debug(a)) => assert_eq!(a, "example.com/x/y"),
            _ => panic!("flags in any order"),
        }
        let e = parsed(&["-verbose"]).err().unwrap();
        assert!(e.starts_with("unknown argument \"-verbose\""), "{e}");
    }
}
