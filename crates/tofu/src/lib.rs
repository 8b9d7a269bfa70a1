//! The configuration graph, its walk, count/for_each expansion, validate and
//! plan-lite (OpenTofu's internal/tofu). Knows nothing of the command line
//! or of how results are rendered: it takes a loaded [`configs::Config`]
//! tree and root variable values, and returns diagnostics and a
//! [`plans::Plan`].

pub mod plans;
