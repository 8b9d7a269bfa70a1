//! The dependency lock file, `.terraform.lock.hcl` (OpenTofu's
//! `internal/depsfile`): which version of each provider a working directory
//! selected and the hashes its packages must match; read with OpenTofu's
//! diagnostics and written byte for byte as OpenTofu writes it. Also the
//! provider version and constraint types that the file records
//! (`getproviders.Version`, `VersionConstraints`), shared with `configs`
//! for provider requirements.
//!
//! Knows files, versions and provider addresses; nothing of registries,
//! downloads or hashing packages (the installer computes hashes and hands
//! them here as strings).

pub mod constraints;
mod decode;
mod encode;
pub mod hash;
mod locks;
pub mod version;
mod version_scan;

pub use constraints::{ConstraintOp, Selection, VersionConstraints};
pub use decode::{
    load_locks_from_bytes, load_locks_from_file, load_locks_if_present, TOFU_VERSION,
};
pub use encode::{save_locks_to_bytes, save_locks_to_file, LOCK_FILE_HEADER, LOCK_FILE_NAME};
pub use locks::{is_lockable, Locks, ProviderLock};
pub use version::Version;
