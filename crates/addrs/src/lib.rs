//! addrs (being built).
