//! The configuration graph, its walk, count/for_each expansion, validate and
//! plan-lite (OpenTofu's internal/tofu). Not built yet: this crate is empty
//! until the graph work starts; nothing depends on it.
