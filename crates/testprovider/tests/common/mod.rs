//! Helpers shared by the test provider's integration tests.

#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use configschema::{AttributeType, Block, ProviderSchema};

/// The test provider binary cargo built for these tests.
pub fn provider_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_terraform-provider-testing"))
}

/// The fixture schema (one provider's entry of `providers schema -json`).
pub fn schema_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schema.json")
}

/// The fixture schema, decoded.
pub fn schema() -> configschema::ProviderSchema {
    let text = std::fs::read_to_string(schema_path()).unwrap();
    configschema::json::decode_provider(&text).unwrap()
}

/// Launch options for the test provider speaking `protocol`, logging
/// starts to `log` if given.
pub fn options(protocol: u32, log: Option<&Path>) -> plugin::LaunchOptions {
    let mut opts = plugin::LaunchOptions::new(provider_binary());
    opts.env = vec![
        ("TOFU_RS_TESTPROVIDER_SCHEMA".into(), schema_path().into()),
        (
            "TOFU_RS_TESTPROVIDER_PROTOCOL".into(),
            OsString::from(protocol.to_string()),
        ),
    ];
    if let Some(log) = log {
        opts.env.push((
            "TOFU_RS_TESTPROVIDER_LOG".into(),
            log.as_os_str().to_owned(),
        ));
    }
    opts
}

/// True while a process with this id exists (and is not a zombie).
pub fn pid_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            // The state follows the parenthesised command name.
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Waits up to two seconds for a process to be gone.
pub fn wait_gone(pid: u32) -> bool {
    for _ in 0..200 {
        if !pid_alive(pid) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    false
}

/// What protocol 5 can carry of a schema: nested attribute types become
/// their implied types.
pub fn flattened(schema: &ProviderSchema) -> ProviderSchema {
    fn block(b: &Block) -> Block {
        let mut b = b.clone();
        for a in b.attributes.values_mut() {
            if let AttributeType::Nested(_) = a.ty {
                a.ty = AttributeType::Type(a.implied_type());
            }
        }
        for nb in b.block_types.values_mut() {
            nb.block = block(&nb.block);
        }
        b
    }
    let mut s = schema.clone();
    for m in [
        &mut s.resources,
        &mut s.data_sources,
        &mut s.ephemeral_resources,
    ] {
        for v in m.values_mut() {
            v.block = v.block.as_ref().map(block);
        }
    }
    s.provider.block = s.provider.block.as_ref().map(block);
    s
}
