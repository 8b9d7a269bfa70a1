//! `.terraform/terraform.tfstate`: the working directory's record of the
//! backend in use (`internal/command/clistate`). Not a state file despite
//! its name: `{"version": 3, "backend": {"type", "config", "hash"}}`,
//! written as Go's `json.MarshalIndent(st, "", "    ")` prints it, plus a
//! newline. Older layouts with `serial`, `lineage` and `modules` are read
//! (those fields are ignored), other versions are refused.

use std::path::{Path, PathBuf};

use cty::{Type, Value};

/// The CLI state format version.
pub const STATE_VERSION: u64 = 3;

/// The file name inside the data directory.
pub const STATE_FILENAME: &str = "terraform.tfstate";

/// The recorded backend (`BackendState`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendState {
    /// The backend type (`local`, `s3`, ...; `cloud` for a cloud block).
    pub type_name: String,
    /// The configuration as compact JSON (`ConfigRaw`), decoded against
    /// the backend's schema when needed.
    pub config_raw: String,
    /// The hash of the configuration written in the files (`-backend-config`
    /// values excluded).
    pub hash: u64,
}

impl BackendState {
    /// The configuration as a value of the schema's type.
    pub fn config(&self, ty: &Type) -> Result<Value, String> {
        cty::json::unmarshal(&self.config_raw, ty)
    }
}

/// The whole file (`CLIState`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliState {
    pub backend: Option<BackendState>,
}

/// The path of the file for the data directory `data_dir`.
pub fn state_path(data_dir: &Path) -> PathBuf {
    data_dir.join(STATE_FILENAME)
}

/// `ReadState`: `Ok(None)` when the file is missing or empty.
pub fn read(path: &Path) -> Result<Option<CliState>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    if bytes.is_empty() {
        return Ok(None);
    }
    let doc: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("decoding CLI state file version failed: {e}"))?;
    let version = doc.get("version").and_then(serde_json::Value::as_u64);
    if version != Some(STATE_VERSION) {
        let v = version.unwrap_or(0);
        if String::from_utf8_lossy(&bytes).contains("\"terraform_version\"") {
            return Err(format!("found a resource state file (version {v}) where a backend configuration file (version {STATE_VERSION}) was expected; if TF_DATA_DIR is set, ensure it does not point to a directory containing a terraform.tfstate resource state file"));
        }
        return Err(format!(
            "tofu-rs does not support CLI state version {v}, please update"
        ));
    }
    let backend = match doc.get("backend") {
        None | Some(serde_json::Value::Null) => None,
        Some(b) => {
            let type_name = b
                .get("type")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_string();
            let config_raw = match b.get("config") {
                Some(c) => serde_json::to_string(c)
                    .map_err(|e| format!("decoding CLI state file failed: {e}"))?,
                None => "null".to_string(),
            };
            let hash = b
                .get("hash")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0);
            Some(BackendState {
                type_name,
                config_raw,
                hash,
            })
        }
    };
    Ok(Some(CliState { backend }))
}

/// `WriteState`'s bytes: Go's `MarshalIndent` with four spaces, the raw
/// configuration re-indented, and a final newline.
pub fn encode(st: &CliState) -> String {
    let mut compact = format!("{{\"version\":{STATE_VERSION}");
    if let Some(b) = &st.backend {
        compact.push_str(&format!(
            ",\"backend\":{{\"type\":{},\"config\":{},\"hash\":{}}}",
            cty::json::quote_string(&b.type_name),
            b.config_raw,
            b.hash
        ));
    }
    compact.push('}');
    let mut out = go_indent(&compact, "    ");
    out.push('\n');
    out
}

/// Writes the file atomically: a synced temporary file beside it, then a
/// rename (see [`initwd::atomic_file`]).
pub fn write(path: &Path, st: &CliState) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    initwd::atomic_file::write_atomic(path, encode(st).as_bytes())
}

/// Go's `json.Indent` of compact JSON: one element a line, empty objects
/// and arrays kept as `{}` / `[]`.
fn go_indent(src: &str, indent: &str) -> String {
    let mut out = String::with_capacity(src.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut need_indent = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str(indent);
        }
    };
    for c in src.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if need_indent && c != ']' && c != '}' {
            need_indent = false;
            depth += 1;
            newline(&mut out, depth);
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                need_indent = true;
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            '}' | ']' => {
                if need_indent {
                    // An empty object or array.
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// `Backend.Hash`: CRC-32 of cty's set-hash serialization of
/// `[type, config]`.
pub fn config_hash(type_name: &str, config: &Value) -> u64 {
    let tuple = Value::tuple(vec![Value::string(type_name), config.clone()]);
    u64::from(cty::value::set_hash(&tuple))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::LOCAL;

    fn local(path: Option<&str>, ws: Option<&str>) -> Value {
        let s = |v: Option<&str>| v.map(Value::string).unwrap_or(Value::null(Type::String));
        Value::object_from([("path", s(path)), ("workspace_dir", s(ws))])
    }

    #[test]
    fn hashes_match_opentofu() {
        // Values from OpenTofu's fixtures (facts section (d)).
        assert_eq!(
            config_hash("local", &local(Some("local-state.tfstate"), None)),
            4282859327
        );
        assert_eq!(
            config_hash("_test_local", &local(Some("local-state.tfstate"), None)),
            117044127
        );
        assert_eq!(config_hash("local", &local(None, None)), 666019178);
    }

    #[test]
    fn state_bytes() {
        let config = local(Some("custom.tfstate"), Some("ws"));
        let st = CliState {
            backend: Some(BackendState {
                type_name: "local".into(),
                config_raw: cty::json::marshal(&config).unwrap(),
                hash: 589137297,
            }),
        };
        insta::assert_snapshot!(encode(&st));
    }

    #[test]
    fn nested_and_empty_values_indent_as_go() {
        assert_eq!(
            go_indent(r#"{"a":[],"b":{},"c":["x",{"d":null}],"e":"{,:\"}"}"#, "  "),
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    \"x\",\n    {\n      \"d\": null\n    }\n  ],\n  \"e\": \"{,:\\\"}\"\n}"
        );
        assert_eq!(encode(&CliState::default()), "{\n    \"version\": 3\n}\n");
    }

    #[test]
    fn reads_legacy_layout_and_round_trips() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join(STATE_FILENAME);
        std::fs::write(
            &p,
            r#"{"version":3,"serial":1,"lineage":"x","backend":{"type":"local","config":{"path":"a","workspace_dir":null},"hash":5},"modules":[]}"#,
        )
        .unwrap();
        let st = read(&p).unwrap().unwrap();
        let b = st.backend.clone().unwrap();
        assert_eq!(b.hash, 5);
        assert_eq!(
            b.config(&LOCAL.implied_type()).unwrap(),
            local(Some("a"), None)
        );
        write(&p, &st).unwrap();
        assert_eq!(read(&p).unwrap().unwrap(), st);
        std::fs::write(&p, r#"{"version":4,"terraform_version":"1.0"}"#).unwrap();
        assert!(read(&p).unwrap_err().contains("resource state file"));
        std::fs::write(&p, "").unwrap();
        assert_eq!(read(&p).unwrap(), None);
    }
}
