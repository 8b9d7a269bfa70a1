//! HCL identifiers: what may name a block, an argument or a variable.

/// Whether `name` is a valid HCL identifier (`hclsyntax.ValidIdentifier`):
/// an ID_Start letter or `_`, followed by ID_Continue characters or `-`.
pub fn valid_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first == '_' || unicode_ident::is_xid_start(first))
        && chars.all(|c| c == '-' || unicode_ident::is_xid_continue(c))
}

#[cfg(test)]
mod tests {
    use super::valid_identifier;

    #[test]
    fn identifiers() {
        let cases = [
            ("foo", true),
            ("foo_bar", true),
            ("foo-bar", true),
            ("_foo", true),
            ("a1", true),
            ("héllo", true),
            ("名前", true),
            ("", false),
            ("1a", false),
            ("-a", false),
            ("a.b", false),
            ("a b", false),
            ("a!", false),
            ("a\"", false),
        ];
        for (name, want) in cases {
            assert_eq!(valid_identifier(name), want, "{name:?}");
        }
    }
}
