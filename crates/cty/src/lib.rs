//! cty (being built).
