//! HCL identifiers: what may name a block, an argument or a variable.

/// Whether `s` is a valid HCL identifier: a letter or `_` (any Unicode
/// ID_Start) followed by letters, digits, `_` or `-` (Unicode ID_Continue).
pub fn valid_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_alphabetic() => {}
        _ => return false,
    }
    chars.all(|c| c == '_' || c == '-' || c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::valid_identifier;

    #[test]
    fn identifiers() {
        for ok in ["a", "_a", "a-b", "a_1", "été"] {
            assert!(valid_identifier(ok), "{ok}");
        }
        for bad in ["", "1a", "-a", "a.b", "a b", "a\"b"] {
            assert!(!valid_identifier(bad), "{bad}");
        }
    }
}
