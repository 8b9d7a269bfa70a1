//! Package hashes as the lock file records them: a scheme keyword, a colon
//! and a scheme-specific value (`h1:` over a package's contents, `zh:` over
//! its original zip). Computing them is the installer's business.

/// The scheme of hashes over a package's unpacked contents.
pub const HASH_SCHEME_1: &str = "h1:";
/// The legacy scheme of hashes over a package's zip archive.
pub const HASH_SCHEME_ZIP: &str = "zh:";

/// `getproviders.ParseHash`: any scheme is accepted (so a lock file written
/// by a later version still loads) as long as there is one.
pub fn parse_hash(s: &str) -> Result<&str, String> {
    match s.find(':') {
        Some(colon) if colon >= 1 => Ok(s),
        _ => Err("hash string must start with a scheme keyword followed by a colon".into()),
    }
}

/// Sorts and deduplicates hashes, which are a set: equal sets then compare
/// equal and are written in one order (`NewProviderLock`).
pub fn normalize_hashes(hashes: &mut Vec<String>) {
    hashes.sort();
    hashes.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes() {
        assert!(parse_hash("h1:abc=").is_ok());
        assert!(parse_hash("zh:0123").is_ok());
        assert!(parse_hash("future:x").is_ok());
        assert!(parse_hash(":x").is_err());
        assert!(parse_hash("nocolon").is_err());
        let mut hs = vec!["zh:b".to_string(), "h1:a".into(), "zh:b".into()];
        normalize_hashes(&mut hs);
        assert_eq!(hs, ["h1:a", "zh:b"]);
    }
}
