//! The provider's answers to `Validate*` calls, on disk. A provider that
//! is not configured can only look at the configuration it is given, so
//! the same executable given the same value of the same type gives the
//! same answer: remembering it lets a repeated `validate` start no plugin
//! at all. The key is a SHA-256 over the executable's hash, the call, the
//! type name and the value's msgpack encoding (which keeps unknowns apart
//! from nulls). The value's type is not in it: the executable, the call
//! and the type name decide the schema, and so the type. Sensitive marks are not part of it: the
//! plugin never sees them either.

use std::fs;
use std::path::{Path, PathBuf};

use cty::{Path as CtyPath, PathStep, Type, Value};
use sha2::{Digest, Sha256};
use tofu::schemas::{ProviderDiagnostic, ProviderSeverity};

use crate::executable_hash::hex;
use crate::launch::ValidateKind;

/// The answers directory of a cache.
#[derive(Debug, Clone)]
pub struct AnswerCache {
    dir: PathBuf,
}

impl AnswerCache {
    pub fn new(cache_dir: &Path) -> AnswerCache {
        AnswerCache {
            dir: cache_dir.join("answers"),
        }
    }

    /// The key of one call, or `None` when the value cannot be encoded
    /// (then the call is simply made).
    pub fn key(
        executable_sha256: &str,
        kind: ValidateKind,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Option<String> {
        let bytes = configschema::msgpack::marshal(&config.unmark_deep().0, ty).ok()?;
        let mut h = Sha256::new();
        for part in [
            executable_sha256.as_bytes(),
            kind.as_str().as_bytes(),
            type_name.as_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        h.update(&bytes);
        Some(hex(&h.finalize()))
    }

    fn path(&self, key: &str) -> PathBuf {
        let (a, b) = key.split_at(2.min(key.len()));
        self.dir.join(a).join(format!("{b}.json"))
    }

    /// The remembered answer, if there is a whole one.
    pub fn get(&self, key: &str) -> Option<Vec<ProviderDiagnostic>> {
        let text = fs::read_to_string(self.path(key)).ok()?;
        decode(&text)
    }

    /// Remembers an answer (best effort: a failure only costs a call).
    pub fn put(&self, key: &str, diags: &[ProviderDiagnostic]) {
        if let Some(text) = encode(diags) {
            let _ = crate::schema_cache::write_atomic(&self.path(key), text.as_bytes());
        }
    }
}

fn encode(diags: &[ProviderDiagnostic]) -> Option<String> {
    let mut out = Vec::new();
    for d in diags {
        let attribute = match &d.attribute {
            None => serde_json::Value::Null,
            Some(path) => {
                let mut steps = Vec::new();
                for step in &path.0 {
                    steps.push(match step {
                        PathStep::GetAttr(name) => serde_json::json!({ "attr": name }),
                        PathStep::Index(v) => serde_json::json!({
                            "type": cty::json::marshal_type(v.ty()),
                            "value": cty::json::marshal(v).ok()?,
                        }),
                    });
                }
                serde_json::Value::Array(steps)
            }
        };
        out.push(serde_json::json!({
            "severity": match d.severity { ProviderSeverity::Error => "error", ProviderSeverity::Warning => "warning" },
            "summary": d.summary,
            "detail": d.detail,
            "attribute": attribute,
        }));
    }
    Some(serde_json::Value::Array(out).to_string())
}

fn decode(text: &str) -> Option<Vec<ProviderDiagnostic>> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut out = Vec::new();
    for d in v.as_array()? {
        let severity = match d.get("severity")?.as_str()? {
            "error" => ProviderSeverity::Error,
            "warning" => ProviderSeverity::Warning,
            _ => return None,
        };
        let attribute = match d.get("attribute")? {
            serde_json::Value::Null => None,
            serde_json::Value::Array(steps) => {
                let mut path = Vec::new();
                for s in steps {
                    if let Some(name) = s.get("attr") {
                        path.push(PathStep::GetAttr(name.as_str()?.to_string()));
                    } else {
                        let ty = cty::json::unmarshal_type(s.get("type")?.as_str()?).ok()?;
                        let value = cty::json::unmarshal(s.get("value")?.as_str()?, &ty).ok()?;
                        path.push(PathStep::Index(value));
                    }
                }
                Some(CtyPath(path))
            }
            _ => return None,
        };
        out.push(ProviderDiagnostic {
            severity,
            summary: d.get("summary")?.as_str()?.to_string(),
            detail: d.get("detail")?.as_str()?.to_string(),
            attribute,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip_with_paths() {
        let dir = tempfile::tempdir().unwrap();
        let cache = AnswerCache::new(dir.path());
        let ty = Type::object_from([("name", Type::String)]);
        let v = Value::object_from([("name", Value::string("INVALID"))]);
        let key = AnswerCache::key("ab", ValidateKind::Managed, "x_thing", &v, &ty).unwrap();
        assert_eq!(cache.get(&key), None);
        let diags = vec![ProviderDiagnostic {
            severity: ProviderSeverity::Error,
            summary: "Invalid value".into(),
            detail: "The test provider rejects the value INVALID.".into(),
            attribute: Some(CtyPath(vec![
                PathStep::GetAttr("rule".into()),
                PathStep::Index(Value::number_int(2)),
                PathStep::Index(Value::string("k")),
            ])),
        }];
        cache.put(&key, &diags);
        assert_eq!(cache.get(&key), Some(diags));
        cache.put(&key, &[]);
        assert_eq!(cache.get(&key), Some(vec![]));
    }

    #[test]
    fn keys_tell_values_unknowns_types_and_calls_apart() {
        let ty = Type::object_from([("name", Type::String)]);
        let a = Value::object_from([("name", Value::string("a"))]);
        let unknown = Value::object_from([("name", Value::unknown(Type::String))]);
        let null = Value::object_from([("name", Value::null(Type::String))]);
        let k =
            |v: &Value, kind, t: &str, sum: &str| AnswerCache::key(sum, kind, t, v, &ty).unwrap();
        let base = k(&a, ValidateKind::Managed, "x", "s");
        assert_ne!(base, k(&unknown, ValidateKind::Managed, "x", "s"));
        assert_ne!(
            k(&unknown, ValidateKind::Managed, "x", "s"),
            k(&null, ValidateKind::Managed, "x", "s")
        );
        assert_ne!(base, k(&a, ValidateKind::Data, "x", "s"));
        assert_ne!(base, k(&a, ValidateKind::Managed, "y", "s"));
        assert_ne!(base, k(&a, ValidateKind::Managed, "x", "t"));
        assert_eq!(
            base,
            k(
                &a.mark(cty::Mark::Sensitive),
                ValidateKind::Managed,
                "x",
                "s"
            )
        );
    }

    #[test]
    fn damaged_answers_are_not_used() {
        for junk in ["", "{", "[{}]", "[{\"severity\":\"fatal\"}]", "[1]"] {
            assert_eq!(decode(junk), None, "{junk}");
        }
    }
}
