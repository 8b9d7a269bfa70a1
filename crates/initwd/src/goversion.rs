//! Module versions as OpenTofu's installer reads them: hashicorp/go-version
//! (ported once in `gocompat::version`, re-exported here) plus the one
//! rule of the installer's own, which prereleases a constraint selects.

pub use gocompat::version::{Constraints, Version};

/// Whether a prerelease `v` was requested exactly, as OpenTofu decides it
/// with apparentlymart/go-versions' npm-style parser: the constraint may
/// not use commas (that parser rejects them, which excludes every
/// prerelease) and one of its space-separated terms must be the exact
/// version, written bare or with `=` (a `v` prefix tolerated).
pub fn prerelease_exactly_requested(constraint: &str, v: &Version) -> bool {
    if constraint.contains(',') || constraint.trim().is_empty() {
        return false;
    }
    let mut tokens = constraint.split_whitespace().peekable();
    let mut found = false;
    while let Some(tok) = tokens.next() {
        let (op, ver) = match tok.trim_start_matches(['=', '>', '<', '~', '^', '!']) {
            "" => {
                // Operator separated from its version by spaces.
                (tok, tokens.next().unwrap_or(""))
            }
            rest => (&tok[..tok.len() - rest.len()], rest),
        };
        if !op.is_empty() && op != "=" {
            continue;
        }
        let ver = ver.strip_prefix('v').unwrap_or(ver);
        if let Ok(want) = Version::parse(ver) {
            if want.segments() == v.segments() && want.prerelease() == v.prerelease() {
                found = true;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn prerelease_selection() {
        let pre = v("0.0.3-alpha.1");
        let cases = [
            ("<=0.0.3-alpha.1", false),
            ("=0.0.3-alpha.1", true),
            (">=0.0.3-alpha.1", false),
            ("0.0.3-alpha.1", true),
            ("0.0.3-alpha.1, >=0.0.2", false),
            ("<=v0.0.3-alpha.1", false),
            ("=v0.0.3-alpha.1", true),
            ("v0.0.3-alpha.1", true),
            ("= 0.0.3-alpha.1", true),
            ("", false),
        ];
        for (c, want) in cases {
            assert_eq!(prerelease_exactly_requested(c, &pre), want, "{c:?}");
        }
    }
}
