//! lang (being built).
