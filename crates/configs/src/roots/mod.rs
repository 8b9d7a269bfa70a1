//! Root modules of a repository and what a change touches (`init
//! -recursive`, `validate -recursive`, `tofu-rs affected`).
//!
//! OpenTofu works on one root module at a time and has no notion of a tree
//! of roots; this is tofu-rs's own. A *configuration directory* is a
//! directory with configuration files; a *root* is one that no other
//! configuration directory of the tree calls as a local module (a `module`
//! block, or a test file's `run` block, whose source is `./…` or `../…`).
//! Hidden directories (`.git`, `.terraform`, …) are not searched.
//!
//! - [`tree`]: finding the configuration directories and their local calls.
//! - [`affected`]: the roots whose configuration includes a changed file.

pub mod affected;
pub mod tree;

pub use affected::{affected_roots, Affected};
pub use tree::{ConfigDir, ConfigTree, LocalCall};
