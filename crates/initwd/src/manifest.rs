//! `.terraform/modules/modules.json` (`internal/modsdir/manifest.go`): the
//! record of which module call key is installed where, from which source
//! and at which version.
//!
//! Written exactly as OpenTofu writes it (one line of compact JSON, records
//! sorted by key, Go's HTML-safe string escaping) and read as tolerantly as
//! OpenTofu reads it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::atomic_file::write_atomic;

use crate::goversion::Version;

/// The manifest's file name inside the modules directory.
pub const MANIFEST_FILENAME: &str = "modules.json";

/// One installed module: `modsdir.Record`.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The module path joined with `.` (`""` for the root module).
    pub key: String,
    /// The normalized source address (`ModuleSource` display form).
    pub source: String,
    /// The exact version installed, for registry modules only.
    pub version: Option<Version>,
    /// Where the module's files are, relative to the working directory
    /// (or absolute), in the platform's path form.
    pub dir: String,
}

impl Record {
    /// The root module's record: key and source empty, `dir` as given.
    pub fn root(dir: impl Into<String>) -> Record {
        Record {
            key: String::new(),
            source: String::new(),
            version: None,
            dir: dir.into(),
        }
    }
}

/// Installed modules by key: `modsdir.Manifest`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    pub records: BTreeMap<String, Record>,
}

/// `Manifest.ModuleKey`: the module path joined with dots.
pub fn module_key(path: &addrs::Module) -> String {
    path.0.join(".")
}

/// Why a manifest could not be read.
#[derive(Debug)]
pub enum ManifestError {
    Io(std::io::Error),
    /// The file's content is not a valid manifest; OpenTofu's message.
    Invalid(String),
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ManifestError::Io(e) => write!(f, "{}", crate::pathutil::go_io_error_text(e)),
            ManifestError::Invalid(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for ManifestError {}

/// Go's `encoding/json` matches struct fields by name case-insensitively,
/// preferring an exact match; later duplicate members win.
fn field<'a>(obj: &'a serde_json::Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).or_else(|| {
        obj.iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
            .next_back()
    })
}

fn string_field(obj: &serde_json::Map<String, Value>, name: &str) -> Result<String, ManifestError> {
    match field(obj, name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(ManifestError::Invalid(format!(
            "error unmarshalling snapshot: json: cannot unmarshal {} into Go struct field Record.Modules.{name} of type string",
            gocompat::json::value_kind(other)
        ))),
    }
}

impl Manifest {
    /// An empty manifest.
    pub fn new() -> Manifest {
        Manifest::default()
    }

    /// `ReadManifestSnapshot`: an empty input is an empty manifest; any
    /// JSON layout is accepted; sources are normalized where they parse;
    /// two records with one key are an error.
    pub fn parse(src: &[u8]) -> Result<Manifest, ManifestError> {
        let mut manifest = Manifest::new();
        if src.is_empty() {
            return Ok(manifest);
        }
        let doc: Value = serde_json::from_slice(src)
            .map_err(|e| ManifestError::Invalid(format!("error unmarshalling snapshot: {e}")))?;
        let records = match &doc {
            Value::Null => return Ok(manifest),
            Value::Object(obj) => match field(obj, "Modules") {
                None | Some(Value::Null) => return Ok(manifest),
                Some(Value::Array(items)) => items,
                Some(other) => {
                    return Err(ManifestError::Invalid(format!(
                        "error unmarshalling snapshot: json: cannot unmarshal {} into Go struct field manifestSnapshotFile.Modules of type []modsdir.Record",
                        gocompat::json::value_kind(other)
                    )))
                }
            },
            other => {
                return Err(ManifestError::Invalid(format!(
                    "error unmarshalling snapshot: json: cannot unmarshal {} into Go value of type modsdir.manifestSnapshotFile",
                    gocompat::json::value_kind(other)
                )))
            }
        };
        let empty = serde_json::Map::new();
        for item in records {
            let obj = match item {
                Value::Object(o) => o,
                Value::Null => &empty,
                other => {
                    return Err(ManifestError::Invalid(format!(
                        "error unmarshalling snapshot: json: cannot unmarshal {} into Go struct field manifestSnapshotFile.Modules of type modsdir.Record",
                        gocompat::json::value_kind(other)
                    )))
                }
            };
            let key = string_field(obj, "Key")?;
            let mut source = string_field(obj, "Source")?;
            let version_str = string_field(obj, "Version")?;
            let dir = string_field(obj, "Dir")?;
            let version = if version_str.is_empty() {
                None
            } else {
                Some(Version::parse(&version_str).map_err(|e| {
                    ManifestError::Invalid(format!(
                        "invalid version {} for {key}: {e}",
                        addrs::go_quote(&version_str)
                    ))
                })?)
            };
            if !source.is_empty() {
                // Older releases wrote sources unnormalized; normalize on
                // read so the next init does not see a changed source.
                if let Ok(addr) = addrs::parse_module_source(&source) {
                    source = addr.to_string();
                }
            }
            if manifest.records.contains_key(&key) {
                return Err(ManifestError::Invalid(format!(
                    "snapshot file contains two records for path {key}"
                )));
            }
            manifest.records.insert(
                key.clone(),
                Record {
                    key,
                    source,
                    version,
                    dir: from_slash(&dir),
                },
            );
        }
        Ok(manifest)
    }

    /// `ReadManifestSnapshotForDir`: a missing file is an empty manifest.
    pub fn read_dir(modules_dir: &Path) -> Result<Manifest, ManifestError> {
        let path = modules_dir.join(MANIFEST_FILENAME);
        match std::fs::read(&path) {
            Ok(bytes) => Manifest::parse(&bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::new()),
            Err(e) => Err(ManifestError::Io(e)),
        }
    }

    /// `WriteSnapshot`'s bytes: `{"Modules":[…]}` on one line, no newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::from("{\"Modules\":[");
        for (i, r) in self.records.values().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"Key\":");
            go_json_string(&mut out, &r.key);
            out.push_str(",\"Source\":");
            go_json_string(&mut out, &r.source);
            if let Some(v) = &r.version {
                out.push_str(",\"Version\":");
                go_json_string(&mut out, &v.to_string());
            }
            out.push_str(",\"Dir\":");
            go_json_string(&mut out, &to_slash(&r.dir));
            out.push('}');
        }
        out.push_str("]}");
        out.into_bytes()
    }

    /// Writes `<modules_dir>/modules.json` atomically: a temporary file in
    /// the same directory, synced, then renamed over the old manifest, so
    /// a reader never sees a half-written file.
    pub fn write_dir(&self, modules_dir: &Path) -> std::io::Result<PathBuf> {
        let path = modules_dir.join(MANIFEST_FILENAME);
        write_atomic(&path, &self.to_bytes())?;
        Ok(path)
    }

    /// The record for `key`.
    pub fn get(&self, key: &str) -> Option<&Record> {
        self.records.get(key)
    }

    /// Adds or replaces the record for `record.key`.
    pub fn insert(&mut self, record: Record) {
        self.records.insert(record.key.clone(), record);
    }

    /// Removes the record for `key` and those of all its descendants
    /// (`key.*`), as the installer does before reinstalling a module.
    pub fn remove_with_descendants(&mut self, key: &str) {
        self.records.remove(key);
        let prefix = format!("{key}.");
        self.records.retain(|k, _| !k.starts_with(&prefix));
    }
}

/// `filepath.ToSlash`.
fn to_slash(p: &str) -> String {
    if std::path::MAIN_SEPARATOR == '/' {
        p.to_string()
    } else {
        p.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// `filepath.FromSlash`.
fn from_slash(p: &str) -> String {
    if std::path::MAIN_SEPARATOR == '/' {
        p.to_string()
    } else {
        p.replace('/', std::path::MAIN_SEPARATOR_STR)
    }
}

/// Go's `encoding/json` string encoding with HTML escaping on (the
/// default for `json.Marshal`).
pub fn go_json_string(out: &mut String, s: &str) {
    gocompat::json::push_string(out, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"net","Source":"registry.opentofu.org/hashicorp/consul/aws","Version":"0.1.0","Dir":".terraform/modules/net"},{"Key":"vpc","Source":"./modules/vpc","Dir":"modules/vpc"}]}"#;

    #[test]
    fn example_round_trips_byte_for_byte() {
        let m = Manifest::parse(EXAMPLE.as_bytes()).unwrap();
        assert_eq!(m.records.len(), 3);
        assert_eq!(
            m.get("net").unwrap().version.as_ref().unwrap().to_string(),
            "0.1.0"
        );
        assert_eq!(String::from_utf8(m.to_bytes()).unwrap(), EXAMPLE);
    }

    #[test]
    fn built_manifest_matches_example() {
        let mut m = Manifest::new();
        m.insert(Record {
            key: "vpc".into(),
            source: "./modules/vpc".into(),
            version: None,
            dir: "modules/vpc".into(),
        });
        m.insert(Record {
            key: "net".into(),
            source: "registry.opentofu.org/hashicorp/consul/aws".into(),
            version: Some(Version::parse("v0.1").unwrap()),
            dir: ".terraform/modules/net".into(),
        });
        m.insert(Record::root("."));
        assert_eq!(String::from_utf8(m.to_bytes()).unwrap(), EXAMPLE);
    }

    #[test]
    fn tolerant_reading() {
        assert!(Manifest::parse(b"").unwrap().records.is_empty());
        assert!(Manifest::parse(b"null").unwrap().records.is_empty());
        assert!(Manifest::parse(b"{}").unwrap().records.is_empty());
        let pretty = b"{\n  \"Modules\": [\n    {\"key\": \"a\", \"source\": \"hashicorp/consul/aws\", \"Dir\": \"x\", \"Extra\": 1}\n  ]\n}\n";
        let m = Manifest::parse(pretty).unwrap();
        let a = m.get("a").unwrap();
        assert_eq!(a.source, "registry.opentofu.org/hashicorp/consul/aws");
        assert_eq!(a.dir, "x");
        // An unparseable source is kept as written.
        let m = Manifest::parse(br#"{"Modules":[{"Key":"b","Source":"nope","Dir":"y"}]}"#).unwrap();
        assert_eq!(m.get("b").unwrap().source, "nope");
    }

    #[test]
    fn rejects_duplicates_and_bad_versions() {
        let dup = br#"{"Modules":[{"Key":"a","Dir":"x"},{"Key":"a","Dir":"y"}]}"#;
        assert_eq!(
            Manifest::parse(dup).unwrap_err().to_string(),
            "snapshot file contains two records for path a"
        );
        let bad = br#"{"Modules":[{"Key":"a","Version":"one","Dir":"x"}]}"#;
        assert_eq!(
            Manifest::parse(bad).unwrap_err().to_string(),
            "invalid version \"one\" for a: Malformed version: one"
        );
        let err = Manifest::parse(b"{").unwrap_err().to_string();
        assert!(err.starts_with("error unmarshalling snapshot: "), "{err}");
        let err = Manifest::parse(br#"{"Modules":[{"Key":1}]}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot unmarshal number"), "{err}");
    }

    #[test]
    fn go_escaping() {
        let mut m = Manifest::new();
        m.insert(Record {
            key: "a".into(),
            source: "git::https://example.com/x.git?ref=a&b=<c>".into(),
            version: None,
            dir: "d\u{2028}\"\\\u{1}\u{8}".into(),
        });
        assert_eq!(
            String::from_utf8(m.to_bytes()).unwrap(),
            r#"{"Modules":[{"Key":"a","Source":"git::https://example.com/x.git?ref=a\u0026b=\u003cc\u003e","Dir":"d\u2028\"\\\u0001\b"}]}"#
        );
    }

    #[test]
    fn remove_with_descendants() {
        let mut m = Manifest::new();
        for k in ["", "a", "a.b", "a.b.c", "ab", "b.a"] {
            m.insert(Record::root(k).clone_with_key(k));
        }
        m.remove_with_descendants("a");
        let keys: Vec<&str> = m.records.keys().map(|s| s.as_str()).collect();
        assert_eq!(keys, ["", "ab", "b.a"]);
    }

    impl Record {
        fn clone_with_key(mut self, k: &str) -> Record {
            self.key = k.to_string();
            self
        }
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(MANIFEST_FILENAME), b"old").unwrap();
        let m = Manifest::parse(EXAMPLE.as_bytes()).unwrap();
        let path = m.write_dir(dir.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), EXAMPLE);
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [MANIFEST_FILENAME]);
        assert_eq!(Manifest::read_dir(dir.path()).unwrap(), m);
        let missing = tempfile::tempdir().unwrap();
        assert!(Manifest::read_dir(missing.path())
            .unwrap()
            .records
            .is_empty());
    }
}
