//! Package hashes as the dependency lock file records them: `h1:` is Go's
//! `dirhash.Hash1` over the package's files (so a zip and its unpacked
//! directory hash alike), `zh:` the legacy SHA-256 of the zip itself.

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

use base64::Engine;
use sha2::{Digest, Sha256};

/// The scheme prefix of the content hash.
pub const SCHEME_H1: &str = "h1:";
/// The scheme prefix of the legacy zip hash.
pub const SCHEME_ZIP: &str = "zh:";

/// A `scheme:value` hash string. Unknown schemes are kept (a later
/// OpenTofu may write them) and simply never match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hash(String);

impl Hash {
    /// `ParseHash`: anything with a non-empty scheme before a colon.
    pub fn parse(s: &str) -> Result<Hash, String> {
        depsfile::hash::parse_hash(s).map(|h| Hash(h.to_string()))
    }

    /// `zh:` from a SHA-256 sum.
    pub fn zip_from_sha256(sum: &[u8; 32]) -> Hash {
        Hash(format!("{SCHEME_ZIP}{}", hex_lower(sum)))
    }

    /// The scheme including its colon (`h1:`).
    pub fn scheme(&self) -> &str {
        let i = self
            .0
            .find(':')
            .expect("Hash invariant: parsed with a colon");
        &self.0[..=i]
    }

    /// The part after the scheme.
    pub fn value(&self) -> &str {
        &self.0[self.scheme().len()..]
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Lowercase hex, as Go's `%x`.
pub fn hex_lower(bytes: &[u8]) -> String {
    gocompat::hex::encode_to_string(bytes)
}

/// Decodes 64 hex digits into a SHA-256 sum.
pub fn parse_sha256_hex(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, chunk) in s.as_bytes().chunks(2).enumerate() {
        let pair = std::str::from_utf8(chunk).ok()?;
        out[i] = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

/// SHA-256 of everything `r` yields.
pub fn sha256_reader(mut r: impl Read) -> std::io::Result<[u8; 32]> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().into())
}

/// `dirhash.Hash1` over `(name, sha256)` pairs: the sorted
/// `"<hex>  <name>\n"` lines, hashed again and base64-encoded.
pub(crate) fn hash1(mut files: Vec<(String, [u8; 32])>) -> Result<Hash, String> {
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut summary = Sha256::new();
    for (name, sum) in &files {
        if name.contains('\n') {
            return Err("dirhash: filenames with newlines are not supported".to_string());
        }
        summary.update(format!("{}  {name}\n", hex_lower(sum)).as_bytes());
    }
    Ok(Hash(format!(
        "{SCHEME_H1}{}",
        base64::engine::general_purpose::STANDARD.encode(summary.finalize())
    )))
}

/// `PackageHashV1` of an unpacked package directory (`dirhash.HashDir`
/// with an empty prefix). The directory itself may be a symlink, as a
/// package linked from the plugin cache is; links inside are followed
/// for files, as Go's `os.Open` follows them.
pub fn package_hash_v1(dir: &Path) -> Result<Hash, String> {
    let root = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    collect_files(&root, "", &mut files)?;
    hash1(files)
}

fn collect_files(dir: &Path, rel: &str, out: &mut Vec<(String, [u8; 32])>) -> Result<(), String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel_name = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let path = entry.path();
        // filepath.Walk uses Lstat: a directory symlink is a "file" to it.
        let ft = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if ft.is_dir() {
            collect_files(&path, &rel_name, out)?;
        } else {
            let f = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let sum = sha256_reader(f).map_err(|e| format!("{}: {e}", path.display()))?;
            out.push((rel_name, sum));
        }
    }
    Ok(())
}

/// `PackageHashV1` of a packed package (`dirhash.HashZip`): every entry
/// name in the archive with the hash of its content.
pub fn package_hash_v1_zip(zip_path: &Path) -> Result<Hash, String> {
    let f = std::fs::File::open(zip_path).map_err(|e| format!("{}: {e}", zip_path.display()))?;
    hash_v1_zip_reader(f).map_err(|e| format!("{}: {e}", zip_path.display()))
}

/// [`package_hash_v1_zip`] of an archive already in memory or open.
pub fn hash_v1_zip_reader(r: impl Read + std::io::Seek) -> Result<Hash, String> {
    let mut archive = zip::ZipArchive::new(r).map_err(|e| e.to_string())?;
    let mut files = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let entry = archive.by_index(i).map_err(|e| e.to_string())?;
        let name = entry.name().to_string();
        let sum = sha256_reader(entry).map_err(|e| e.to_string())?;
        files.push((name, sum));
    }
    hash1(files)
}

/// `PackageHashLegacyZipSHA`: `zh:` and the zip's SHA-256.
pub fn package_hash_legacy_zip(zip_path: &Path) -> Result<Hash, String> {
    let f = std::fs::File::open(zip_path).map_err(|e| format!("{}: {e}", zip_path.display()))?;
    let sum = sha256_reader(f).map_err(|e| format!("{}: {e}", zip_path.display()))?;
    Ok(Hash::zip_from_sha256(&sum))
}

/// Where a package to hash lives.
#[derive(Debug, Clone, Copy)]
pub enum LocalPackage<'a> {
    Zip(&'a Path),
    /// A zip whose `zh:` hash is already known: computed while it was
    /// downloaded, so the archive is not read once more to check it.
    HashedZip(&'a Path, &'a Hash),
    Dir(&'a Path),
}

impl LocalPackage<'_> {
    /// The package's path.
    pub fn path(&self) -> &Path {
        match self {
            LocalPackage::Zip(p) | LocalPackage::HashedZip(p, _) | LocalPackage::Dir(p) => p,
        }
    }

    /// The `zh:` hash of a zip (`None` for a directory).
    pub fn zip_hash(&self) -> Option<Result<Hash, String>> {
        match self {
            LocalPackage::Zip(p) => Some(package_hash_legacy_zip(p)),
            LocalPackage::HashedZip(_, h) => Some(Ok((*h).clone())),
            LocalPackage::Dir(_) => None,
        }
    }
}

/// A writer that hashes what passes through it (SHA-256), so a download's
/// `zh:` hash comes with the download.
pub struct HashingWriter<'a, W: Write> {
    inner: &'a mut W,
    hasher: Sha256,
}

impl<'a, W: Write> HashingWriter<'a, W> {
    pub fn new(inner: &'a mut W) -> Self {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
        }
    }

    /// The `zh:` hash of everything written.
    pub fn zip_hash(self) -> Hash {
        Hash::zip_from_sha256(&self.hasher.finalize().into())
    }
}

impl<W: Write> Write for HashingWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// `PackageMatchesAnyHash`: whether the package matches one of `allowed`.
/// `zh:` hashes can only match a zip; unknown schemes never match.
pub fn hash_matches(pkg: LocalPackage<'_>, allowed: &[Hash]) -> Result<bool, String> {
    let mut h1: Option<Hash> = None;
    let mut zh: Option<Hash> = None;
    for want in allowed {
        match want.scheme() {
            SCHEME_H1 => {
                if h1.is_none() {
                    h1 = Some(match pkg {
                        LocalPackage::Zip(p) | LocalPackage::HashedZip(p, _) => {
                            package_hash_v1_zip(p)?
                        }
                        LocalPackage::Dir(p) => package_hash_v1(p)?,
                    });
                }
                if h1.as_ref() == Some(want) {
                    return Ok(true);
                }
            }
            SCHEME_ZIP => {
                if zh.is_none() {
                    let Some(hash) = pkg.zip_hash() else { continue };
                    zh = Some(hash?);
                }
                if zh.as_ref() == Some(want) {
                    return Ok(true);
                }
            }
            _ => {}
        }
    }
    Ok(false)
}

/// `PreferredHashes`: the hashes of schemes this version understands.
pub fn preferred_hashes(given: &[Hash]) -> Vec<Hash> {
    given
        .iter()
        .filter(|h| matches!(h.scheme(), SCHEME_H1 | SCHEME_ZIP))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_parts() {
        let h = Hash::parse("h1:abc=").unwrap();
        assert_eq!((h.scheme(), h.value()), ("h1:", "abc="));
        assert!(Hash::parse(":x").is_err());
        assert!(Hash::parse("nocolon").is_err());
        assert_eq!(parse_sha256_hex(&"ab".repeat(32)).unwrap()[0], 0xab);
        assert!(parse_sha256_hex("zz").is_none());
    }

    #[test]
    fn hashing_writer_gives_the_zip_hash_of_what_it_wrote() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("p.zip");
        let mut file = std::fs::File::create(&path).unwrap();
        let mut w = HashingWriter::new(&mut file);
        for chunk in [&b"PK\x03\x04"[..], &[7u8; 100_000][..], b"tail"] {
            w.write_all(chunk).unwrap();
        }
        let zh = w.zip_hash();
        drop(file);
        assert_eq!(zh, package_hash_legacy_zip(&path).unwrap());
        let known = LocalPackage::HashedZip(&path, &zh);
        assert!(hash_matches(known, std::slice::from_ref(&zh)).unwrap());
        let other = Hash::zip_from_sha256(&[0; 32]);
        assert!(!hash_matches(LocalPackage::HashedZip(&path, &other), &[zh]).unwrap());
    }

    #[test]
    fn dir_and_zip_hash_alike() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pkg");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("terraform-provider-x"), b"#!/bin/sh\n").unwrap();
        std::fs::write(dir.join("sub/README"), b"hi").unwrap();
        let zip_path = tmp.path().join("p.zip");
        let mut w = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        w.start_file("terraform-provider-x", opts).unwrap();
        std::io::Write::write_all(&mut w, b"#!/bin/sh\n").unwrap();
        w.start_file("sub/README", opts).unwrap();
        std::io::Write::write_all(&mut w, b"hi").unwrap();
        w.finish().unwrap();
        let a = package_hash_v1(&dir).unwrap();
        let b = package_hash_v1_zip(&zip_path).unwrap();
        assert_eq!(a, b);
        assert!(hash_matches(LocalPackage::Dir(&dir), std::slice::from_ref(&a)).unwrap());
        let zh = package_hash_legacy_zip(&zip_path).unwrap();
        assert!(hash_matches(LocalPackage::Zip(&zip_path), std::slice::from_ref(&zh)).unwrap());
        assert!(!hash_matches(LocalPackage::Dir(&dir), &[zh]).unwrap());
        assert!(!hash_matches(LocalPackage::Dir(&dir), &[Hash::parse("h9:x").unwrap()]).unwrap());
    }
}
