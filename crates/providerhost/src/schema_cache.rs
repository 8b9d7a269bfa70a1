//! Provider schemas on disk. An entry is keyed by the provider's address,
//! its version and its executable's SHA-256, so a provider rebuilt in
//! place (a development override) or swapped for another package never
//! reads an older schema. The entry is the provider's entry of `providers
//! schema -json` (which round-trips exactly) after two lines: a header
//! that repeats the key, and the entry's length and CRC-32. An entry whose
//! header does not match, whose body is not whole and unchanged, or that
//! does not decode, is not trusted and is fetched again. Because the body
//! is then known to be what our encoder wrote, it is decoded lazily
//! (`configschema::json::decode_provider_trusted`): a run decodes only the
//! resource types its configuration uses, not the 1,500 of the AWS
//! provider. Entries are written to a
//! temporary file and renamed into place, so a reader sees a whole entry
//! or none, even with many processes filling the cache at once.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use configschema::ProviderSchema;
use sha2::{Digest, Sha256};

use crate::executable_hash::hex;

/// What one cache entry is the schema of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaKey {
    /// `registry.opentofu.org/hashicorp/aws`.
    pub provider: String,
    /// The locked version, or empty for a development override.
    pub version: String,
    /// Lower-case hex SHA-256 of the executable.
    pub executable_sha256: String,
}

impl SchemaKey {
    fn header(&self) -> String {
        serde_json::json!({
            "format": 2,
            "provider": self.provider,
            "version": self.version,
            "executable_sha256": self.executable_sha256,
        })
        .to_string()
    }

    /// A digest of the whole key, naming the entry's file.
    pub fn digest(&self) -> String {
        hex(&Sha256::digest(self.header().as_bytes()))
    }
}

/// Why a cached entry was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No entry.
    Absent,
    /// An entry that is not a whole, matching, decodable schema.
    Damaged(String),
}

/// The schemas directory of a cache.
#[derive(Debug, Clone)]
pub struct SchemaCache {
    dir: PathBuf,
}

impl SchemaCache {
    pub fn new(cache_dir: &Path) -> SchemaCache {
        SchemaCache {
            dir: cache_dir.join("schemas"),
        }
    }

    fn path(&self, key: &SchemaKey) -> PathBuf {
        self.dir.join(format!("{}.json", key.digest()))
    }

    /// The cached schema for `key`.
    pub fn get(&self, key: &SchemaKey) -> Result<ProviderSchema, Miss> {
        let text = match fs::read_to_string(self.path(key)) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Miss::Absent),
            Err(e) => return Err(Miss::Damaged(e.to_string())),
        };
        let Some((header, rest)) = text.split_once('\n') else {
            return Err(Miss::Damaged("no header line".into()));
        };
        if header != key.header() {
            return Err(Miss::Damaged("the header does not match the key".into()));
        }
        let Some((check, doc)) = rest.split_once('\n') else {
            return Err(Miss::Damaged("no checksum line".into()));
        };
        if check != checksum_line(doc) {
            return Err(Miss::Damaged("the entry is not whole".into()));
        }
        configschema::json::decode_provider_trusted(std::sync::Arc::from(doc))
            .map_err(|e| Miss::Damaged(e.to_string()))
    }

    /// Stores `schema` under `key`.
    pub fn put(&self, key: &SchemaKey, schema: &ProviderSchema) -> std::io::Result<()> {
        let doc = configschema::json::encode_provider(schema);
        let mut text = key.header();
        text.push('\n');
        text.push_str(&checksum_line(&doc));
        text.push('\n');
        text.push_str(&doc);
        write_atomic(&self.path(key), text.as_bytes())
    }
}

/// The line that vouches for an entry's body: its length and CRC-32
/// (a cache guards against torn or damaged files, not against someone who
/// can write the cache, who could as well replace the plugin).
fn checksum_line(doc: &str) -> String {
    format!(
        "{{\"length\":{},\"crc32\":\"{:08x}\"}}",
        doc.len(),
        crc32fast::hash(doc.as_bytes())
    )
}

/// Writes `bytes` to `path` through a temporary file in the same
/// directory and a rename, creating the directory as needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("a cache path without a directory"))?;
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"provider":{"version":0,"block":{"attributes":{"region":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"}},"resource_schemas":{"x_thing":{"version":1,"block":{"attributes":{"id":{"type":"string","description_kind":"plain","computed":true}},"description_kind":"plain"}}}}"#;

    fn key(sum: &str) -> SchemaKey {
        SchemaKey {
            provider: "registry.opentofu.org/acme/x".into(),
            version: "1.2.3".into(),
            executable_sha256: sum.into(),
        }
    }

    #[test]
    fn round_trip_and_key_mismatch() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SchemaCache::new(dir.path());
        let schema = configschema::json::decode_provider(DOC).unwrap();
        assert_eq!(cache.get(&key("aa")), Err(Miss::Absent));
        cache.put(&key("aa"), &schema).unwrap();
        assert_eq!(cache.get(&key("aa")).unwrap(), schema);
        // Another executable: another entry.
        assert_eq!(cache.get(&key("bb")), Err(Miss::Absent));
    }

    #[test]
    fn damaged_entries_are_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SchemaCache::new(dir.path());
        let schema = configschema::json::decode_provider(DOC).unwrap();
        cache.put(&key("aa"), &schema).unwrap();
        let path = cache.path(&key("aa"));
        let whole = fs::read_to_string(&path).unwrap();
        let cases = [
            String::new(),
            whole[..whole.len() / 2].to_string(),
            whole.replace("\"aa\"", "\"bb\""),
            whole.replace("\"string\"", "\"strin\""),
            // Still a well-formed schema, but not the one stored: only the
            // checksum tells (types are decoded lazily).
            whole.replace("\"computed\":true", "\"optional\":true"),
            whole.replace("x_thing", "y_thing"),
            whole.split_once('\n').unwrap().0.to_string(),
            "\u{0}\u{1}garbage".to_string(),
        ];
        for junk in cases {
            fs::write(&path, &junk).unwrap();
            assert!(
                matches!(cache.get(&key("aa")), Err(Miss::Damaged(_))),
                "{junk:?} was trusted"
            );
        }
    }
}
