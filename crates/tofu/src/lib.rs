//! tofu (being built).
