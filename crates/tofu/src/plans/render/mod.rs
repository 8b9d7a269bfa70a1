//! Rendering a [`Plan`](super::Plan): OpenTofu's human plan output
//! ([`human`]) and the plan document `tofu show -json` prints ([`json`]).
//! Both read the same JSON views of the planned values ([`values`]), so
//! what one shows as unknown or sensitive the other does too.
//!
//! Nothing here prints: the renderers return strings or hand their parts to
//! a callback, and the command writes them out.

mod config_json;
pub mod human;
pub mod json;
mod jsonw;
mod values;

#[cfg(test)]
mod tests;

pub use human::{render_plan, render_plan_to, HumanOptions};
pub use json::{plan_document, DocumentInfo};
