//! Static analysis of expressions (being written).
