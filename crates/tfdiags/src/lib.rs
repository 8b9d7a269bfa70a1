//! tfdiags (being built).
