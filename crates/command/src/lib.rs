//! The tofu-rs command line: OpenTofu's commands and flags over the
//! tofu-rs crates. Thin on purpose: each command parses its flags, calls the
//! library crates and renders through [`view::View`].

pub mod cli;
pub mod commands;
pub mod crash;
pub mod flags;
pub mod git_changes;
pub mod go_duration;
pub mod interrupt;
pub mod loader;
pub mod module_install;
pub mod plugin_launcher;
pub mod provider_install;
pub mod provider_schemas;
pub mod recursive;
pub mod root_eval;
pub mod unmanaged_providers;
pub mod variables;
pub mod view;

pub use cli::run;
