//! Quoting an address for a copy-pastable `-exclude=` suggestion, as
//! `shquot.POSIXShellSplit` does: bare when every byte is safe, otherwise
//! single-quoted with embedded quotes written `'\''`.

pub fn posix_shell_quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        return arg.to_string();
    }
    format!("'{}'", arg.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(posix_shell_quote("terraform_data.a"), "terraform_data.a");
        assert_eq!(
            posix_shell_quote(r#"module.a["x"].terraform_data.b"#),
            r#"'module.a["x"].terraform_data.b'"#
        );
        assert_eq!(posix_shell_quote("it's"), r"'it'\''s'");
    }
}
