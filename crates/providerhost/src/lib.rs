//! providerhost: the provider plugins one command uses (OpenTofu's
//! `command/meta_providers.go` and `plugins.ProviderManager`, plus what
//! OpenTofu lacks: schemas kept on disk). It finds each provider's
//! executable where `init` put it ([`locate`]), keeps each provider's
//! schema and the provider's answers to the `Validate*` calls in a cache
//! keyed by the executable's SHA-256 ([`schema_cache`], [`answer_cache`]),
//! and starts a plugin only when the cache cannot answer ([`host`]).
//!
//! Knows nothing of gRPC or of the handshake: a [`launch::Launcher`]
//! starts plugins (the CLI's speaks the plugin protocol; tests use fakes),
//! and nothing of configuration files beyond the lock file.

pub mod answer_cache;
pub mod cache_dir;
pub mod executable_hash;
pub mod host;
pub mod launch;
pub mod locate;
pub mod schema_cache;

pub use host::{ProviderHost, SchemaLoadError, SchemaShare};
pub use launch::{Launcher, RunningProvider, ValidateKind};
pub use locate::{locate_providers, LocatedProvider, ProviderLocations};
