//! initwd (being built).
