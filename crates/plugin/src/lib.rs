//! plugin: the provider plugin protocol as OpenTofu speaks it
//! (`internal/plugin`, `internal/plugin6`, hashicorp/go-plugin): starting a
//! provider executable, go-plugin's handshake and automatic mutual TLS,
//! gRPC for protocols 5 and 6 (`tfplugin5.proto`, `tfplugin6.proto`), and
//! the conversion of schemas, diagnostics and values between the protocol
//! and [`configschema`]/[`cty`]. Also the plugin side of go-plugin
//! ([`server`]), for tofu-rs's test provider. Knows nothing of
//! configuration files, the provider cache or commands: the caller finds
//! the executable and decides what the diagnostics mean.
//!
//! The API is blocking (callers run on plain or rayon threads); the I/O
//! runs on one shared internal runtime.
//!
//! ```no_run
//! use plugin::{launch, LaunchOptions};
//!
//! let client = launch(&LaunchOptions::new("/path/to/terraform-provider-x")).unwrap();
//! let (schema, diags) = client.get_provider_schema().unwrap();
//! let ty = schema.provider.block.as_ref().unwrap().implied_type();
//! let config = cty::Value::null(ty.clone());
//! let diags = client.validate_provider_config(&config, &ty).unwrap();
//! client.close();
//! ```
//!
//! No provider outlives tofu-rs: each is killed when its [`ProviderClient`]
//! is dropped, by [`kill_all`], and (Linux) by the kernel if tofu-rs dies.
//! A provider that already runs is attached to with [`attach`] instead
//! (`TF_REATTACH_PROVIDERS`); it is ended on close only when its
//! [`ReattachConfig`] is not in test mode.

mod client;
mod conn;
pub mod convert;
mod launch;
mod process;
pub mod proto;
mod reattach;
pub mod server;
mod sys;
mod tls;

pub use client::{ProviderClient, RpcError};
pub use convert::{ProviderDiagnostic, SchemaError, SchemaProblem, Severity, ValueError};
pub use launch::{
    launch, LaunchError, LaunchOptions, DEFAULT_START_TIMEOUT, MAGIC_COOKIE_KEY,
    MAGIC_COOKIE_VALUE, PROTOCOL_VERSIONS,
};
pub use process::{kill_all, LogSink};
pub use reattach::{attach, ReattachAddr, ReattachConfig};
