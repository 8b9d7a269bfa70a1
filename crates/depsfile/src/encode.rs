//! Writing a lock file (`SaveLocksToBytes`, `SaveLocksToFile`): always the
//! same normalized layout, byte for byte what OpenTofu's `hclwrite` output
//! is, so that `tofu` and tofu-rs agree on the file and version control
//! diffs show only real changes.

use std::io::Write;
use std::path::Path;

use hclsyntax::{Diagnostic, Diagnostics, Severity};

use crate::locks::Locks;

/// The comment every lock file starts with.
pub const LOCK_FILE_HEADER: &str = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";

/// The lock file's name in a working directory.
pub const LOCK_FILE_NAME: &str = ".terraform.lock.hcl";

/// The lock file text for `locks`: the header, then one block per provider
/// in address order.
pub fn save_locks_to_bytes(locks: &Locks) -> Vec<u8> {
    let mut out = String::from(LOCK_FILE_HEADER);
    for lock in locks.all_providers() {
        out.push('\n');
        out.push_str(&format!(
            "provider {} {{\n",
            hcl_string(&lock.provider.to_string())
        ));
        let constraints = lock.constraints.to_string();
        // hclwrite aligns the `=` of consecutive single-line arguments; the
        // multi-line `hashes` ends the run, so it is never padded.
        let (version_key, constraints_key) = if constraints.is_empty() {
            ("version", "")
        } else {
            ("version    ", "constraints")
        };
        out.push_str(&format!(
            "  {version_key} = {}\n",
            hcl_string(&lock.version.to_string())
        ));
        if !constraints.is_empty() {
            out.push_str(&format!(
                "  {constraints_key} = {}\n",
                hcl_string(&constraints)
            ));
        }
        if !lock.hashes.is_empty() {
            out.push_str("  hashes = [\n");
            for hash in &lock.hashes {
                out.push_str(&format!("    {},\n", hcl_string(hash)));
            }
            out.push_str("  ]\n");
        }
        out.push_str("}\n");
    }
    out.into_bytes()
}

/// Writes the lock file atomically: a temporary file in the same directory,
/// then a rename, so readers (and an interrupted run) see the old file or
/// the new one, never half of one.
pub fn save_locks_to_file(locks: &Locks, path: &Path) -> Diagnostics {
    let bytes = save_locks_to_bytes(locks);
    match atomic_write(path, &bytes) {
        Ok(()) => Diagnostics::new(),
        Err(e) => vec![Diagnostic {
            severity: Severity::Error,
            summary: "Failed to update dependency lock file".into(),
            detail: format!(
                "Error while writing new dependency lock information to {}: {}.",
                path.display(),
                go_io_error(&e)
            ),
            subject: None,
            context: None,
        }],
    }
}

fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        // The name `init` sweeps up after a run killed before the rename
        // (`initwd::atomic_file`'s pattern).
        .prefix(".terraform.lock.hcl.tmp-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    set_mode_0644(tmp.as_file())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

// OpenTofu writes the file 0644; a temporary file starts 0600.
#[cfg(unix)]
fn set_mode_0644(f: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_mode_0644(_: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

fn go_io_error(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

/// A quoted HCL string as `hclwrite.TokensForValue` writes it
/// (`escapeQuotedStringLit`).
fn hcl_string(s: &str) -> String {
    hclsyntax::hclwrite_quote::quoted_string_lit(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ProviderLock, Version, VersionConstraints};
    use addrs::Provider;

    fn locks() -> Locks {
        let mut locks = Locks::new();
        let provider = |s: &str| addrs::parse_provider_source_string(s).unwrap();
        locks.set_provider(ProviderLock::new(
            provider("registry.opentofu.org/hashicorp/null"),
            Version::parse("3.2.0").unwrap(),
            VersionConstraints::parse(">= 3.0").unwrap(),
            vec![
                "zh:8b0f5ab3cf6a5d1d0d1e3b2b7d6f4a3d6d2b0b0e1f1a2d7b6f5e4d3c2b1a0f9e".into(),
                "h1:fBZ8ZfDXgbJ8gh7Xbb+6xz8JaKkBA2FvTN0ITKnHqKs=".into(),
            ],
        ));
        locks.set_provider(ProviderLock::new(
            provider("example.com/acme/widgets"),
            Version::parse("1.0.0-beta.1").unwrap(),
            VersionConstraints::default(),
            vec!["h1:abc=".into()],
        ));
        locks.set_provider(ProviderLock::new(
            provider("hashicorp/aws"),
            Version::parse("5.31.0").unwrap(),
            VersionConstraints::parse(">= 5.1, ~> 5.0, >= 5.1.0").unwrap(),
            Vec::new(),
        ));
        locks.set_provider(ProviderLock::new(
            Provider::default_for("random"),
            Version::parse("3.6.0").unwrap(),
            VersionConstraints::default(),
            Vec::new(),
        ));
        locks
    }

    #[test]
    fn snapshot() {
        let text = String::from_utf8(save_locks_to_bytes(&locks())).unwrap();
        insta::assert_snapshot!(text);
    }

    #[test]
    fn empty_is_just_the_header() {
        assert_eq!(
            save_locks_to_bytes(&Locks::new()),
            LOCK_FILE_HEADER.as_bytes()
        );
    }

    #[test]
    fn round_trip() {
        let locks = locks();
        let bytes = save_locks_to_bytes(&locks);
        let (back, diags) = crate::load_locks_from_bytes(&bytes, ".terraform.lock.hcl");
        assert!(diags.is_empty(), "{diags:?}");
        assert!(back.equal(&locks));
        // Constraints come back in their normal form.
        let summary = |l: &Locks| -> Vec<String> {
            l.all_providers()
                .map(|p| {
                    format!(
                        "{} {} {} {:?}",
                        p.provider, p.version, p.constraints, p.hashes
                    )
                })
                .collect()
        };
        assert_eq!(summary(&back), summary(&locks));
        assert_eq!(save_locks_to_bytes(&back), bytes);
    }

    #[test]
    fn atomic_file_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE_NAME);
        std::fs::write(&path, "old").unwrap();
        assert!(save_locks_to_file(&locks(), &path).is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), save_locks_to_bytes(&locks()));
        // Nothing but the lock file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644);
        }
        let missing = dir.path().join("no/such/dir/x.hcl");
        let diags = save_locks_to_file(&locks(), &missing);
        assert_eq!(diags[0].summary, "Failed to update dependency lock file");
    }

    #[test]
    fn quoting() {
        assert_eq!(hcl_string("a\"b\\c${d}%{e}$f"), r#""a\"b\\c$${d}%%{e}$f""#);
    }

    /// hclwrite escapes what Go's `unicode.IsPrint` rejects, not only
    /// controls: U+200B and U+00A0 were once written raw here.
    #[test]
    fn hcl_string_escapes_go_non_printables() {
        assert_eq!(
            hcl_string("a\u{200b}b\u{a0}\u{1}"),
            r#""a\u200bb\u00a0\u0001""#
        );
    }
}
