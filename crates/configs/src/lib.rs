//! configs (being built).
