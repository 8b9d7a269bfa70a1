//! Unmanaged providers: `TF_REATTACH_PROVIDERS` (OpenTofu's
//! `parseReattachProviders` in `cmd/tofu/main.go`), the providers that a
//! test harness or an SDK's debug mode already runs. tofu-rs attaches to
//! them instead of starting a plugin, `init` installs nothing for them,
//! and their schemas are never cached.
//!
//! The variable is a JSON object from provider source address to
//! go-plugin's reattach configuration:
//! `{"registry.opentofu.org/hashicorp/aws": {"Protocol": "grpc",
//! "ProtocolVersion": 5, "Pid": 1234, "Test": true, "Addr": {"Network":
//! "unix", "String": "/tmp/plugin123"}}}`. It is read as Go's
//! `encoding/json` reads it into OpenTofu's struct (field names match
//! without regard to case, unknown fields are ignored, `null` leaves a
//! field unset), with Go's error texts.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use addrs::Provider;
use gocompat::quote::quote as go_quote;
use plugin::{ReattachAddr, ReattachConfig};
use serde_json::Value;

/// The environment variable.
pub const REATTACH_ENV: &str = "TF_REATTACH_PROVIDERS";

/// The providers to attach to, by address.
pub type UnmanagedProviders = BTreeMap<Provider, ReattachConfig>;

/// The unmanaged providers the environment names (none when the variable
/// is unset or empty), or OpenTofu's error text. Read once per process:
/// a tcp address costs a name lookup, and every command and root asks.
pub fn from_env() -> &'static Result<UnmanagedProviders, String> {
    static PARSED: OnceLock<Result<UnmanagedProviders, String>> = OnceLock::new();
    PARSED.get_or_init(|| match std::env::var_os(REATTACH_ENV) {
        None => Ok(UnmanagedProviders::new()),
        Some(v) => parse(&String::from_utf8_lossy(v.as_encoded_bytes())),
    })
}

/// The unmanaged providers, for the commands: `cli::run_with` has already
/// stopped on a malformed value, so an error here means none.
pub fn configured() -> UnmanagedProviders {
    from_env().as_ref().cloned().unwrap_or_default()
}

/// `parseReattachProviders`.
pub fn parse(text: &str) -> Result<UnmanagedProviders, String> {
    let mut out = UnmanagedProviders::new();
    if text.is_empty() {
        return Ok(out);
    }
    let invalid = |e: String| format!("Invalid format for {REATTACH_ENV}: {e}");
    gocompat::json_syntax::check_valid(text.as_bytes()).map_err(invalid)?;
    let value: Value = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
    let entries = decode(&value).map_err(invalid)?;
    for (key, entry) in entries {
        let provider = addrs::parse_provider_source_string(&key).map_err(|diags| {
            let text = diags
                .first()
                .map(|d| {
                    if d.detail.is_empty() {
                        d.summary.clone()
                    } else {
                        format!("{}: {}", d.summary, d.detail)
                    }
                })
                .unwrap_or_default();
            format!(
                "Error parsing {} as a provider address: {text}",
                go_quote(&key)
            )
        })?;
        let addr = match entry.network.as_str() {
            "unix" => ReattachAddr::Unix(entry.address.clone().into()),
            "tcp" => ReattachAddr::Tcp(gocompat::net::resolve_tcp_addr(&entry.address).map_err(
                |e| {
                    format!(
                        "Invalid TCP address {} for {}: {e}",
                        go_quote(&entry.address),
                        go_quote(&key)
                    )
                },
            )?),
            other => {
                return Err(format!(
                    "Unknown address type {} for {}",
                    go_quote(other),
                    go_quote(&key)
                ))
            }
        };
        out.insert(
            provider,
            ReattachConfig {
                protocol: entry.protocol,
                protocol_version: entry.protocol_version,
                pid: entry.pid,
                test: entry.test,
                addr,
            },
        );
    }
    Ok(out)
}

/// One entry as OpenTofu's `reattachConfig` struct holds it.
#[derive(Debug, Default)]
struct Entry {
    protocol: String,
    protocol_version: i64,
    pid: i64,
    test: bool,
    network: String,
    address: String,
}

/// Go's type names, for its `UnmarshalTypeError`s.
const MAP_TYPE: &str = "map[string]main.reattachConfig";
const ENTRY_TYPE: &str = "main.reattachConfig";
const ADDR_TYPE: &str = "struct { Network string; String string }";

/// `json.Unmarshal` into `map[string]reattachConfig`: the entries in
/// document order, or the first type error (Go decodes everything, then
/// reports the earliest).
fn decode(value: &Value) -> Result<Vec<(String, Entry)>, String> {
    let mut first_error: Option<String> = None;
    let mut note = |e: String| {
        first_error.get_or_insert(e);
    };
    let mut entries = Vec::new();
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (key, v) in map {
                let mut entry = Entry::default();
                match v {
                    Value::Null => {}
                    Value::Object(fields) => decode_entry(fields, &mut entry, &mut note),
                    other => note(type_error(other, None, ENTRY_TYPE)),
                }
                entries.push((key.clone(), entry));
            }
        }
        other => note(type_error(other, None, MAP_TYPE)),
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(entries),
    }
}

/// The struct's fields; a key matches a field exactly or else without
/// regard to case; later keys overwrite earlier ones.
fn decode_entry(
    fields: &serde_json::Map<String, Value>,
    entry: &mut Entry,
    note: &mut impl FnMut(String),
) {
    let field = "reattachConfig";
    for (key, v) in fields {
        match field_named(key, &["Protocol", "ProtocolVersion", "Addr", "Pid", "Test"]) {
            Some("Protocol") => set_string(v, &mut entry.protocol, field, "Protocol", note),
            Some("ProtocolVersion") => set_int(
                v,
                &mut entry.protocol_version,
                field,
                "ProtocolVersion",
                note,
            ),
            Some("Pid") => set_int(v, &mut entry.pid, field, "Pid", note),
            Some("Test") => match v {
                Value::Null => {}
                Value::Bool(b) => entry.test = *b,
                other => note(type_error(other, Some((field, "Test")), "bool")),
            },
            Some("Addr") => match v {
                Value::Null => {}
                Value::Object(addr) => {
                    // Go names the anonymous struct "" in the error path.
                    for (key, v) in addr {
                        match field_named(key, &["Network", "String"]) {
                            Some("Network") => {
                                set_string(v, &mut entry.network, "", "Addr.Network", note)
                            }
                            Some("String") => {
                                set_string(v, &mut entry.address, "", "Addr.String", note)
                            }
                            _ => {}
                        }
                    }
                }
                other => note(type_error(other, Some((field, "Addr")), ADDR_TYPE)),
            },
            _ => {}
        }
    }
}

/// The field `key` names: an exact match, else one equal but for ASCII case.
fn field_named<'f>(key: &str, fields: &[&'f str]) -> Option<&'f str> {
    fields
        .iter()
        .find(|f| **f == key)
        .or_else(|| fields.iter().find(|f| f.eq_ignore_ascii_case(key)))
        .copied()
}

fn set_string(
    v: &Value,
    into: &mut String,
    owner: &str,
    field: &str,
    note: &mut impl FnMut(String),
) {
    match v {
        Value::Null => {}
        Value::String(s) => *into = s.clone(),
        other => note(type_error(other, Some((owner, field)), "string")),
    }
}

fn set_int(v: &Value, into: &mut i64, owner: &str, field: &str, note: &mut impl FnMut(String)) {
    match v {
        Value::Null => {}
        // Go's ParseInt: no fraction, no exponent, within 64 bits.
        Value::Number(n) => match n.to_string().parse::<i64>() {
            Ok(i) if !n.to_string().contains(['.', 'e', 'E']) => *into = i,
            _ => note(gocompat::json::unmarshal_type_error(
                &format!("number {n}"),
                Some((owner, field)),
                "int",
            )),
        },
        other => note(type_error(other, Some((owner, field)), "int")),
    }
}

/// Go's `UnmarshalTypeError` text for a value of the wrong kind.
fn type_error(v: &Value, field: Option<(&str, &str)>, go_type: &str) -> String {
    gocompat::json::unmarshal_type_error(gocompat::json::value_kind(v), field, go_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text).unwrap_err()
    }

    #[test]
    fn reads_what_the_sdks_print() {
        let got = parse(
            r#"{"registry.terraform.io/hashicorp/aws":{"Protocol":"grpc","ProtocolVersion":5,"Pid":47254,"Test":true,"Addr":{"Network":"unix","String":"/tmp/plugin2908212597"}}}"#,
        )
        .unwrap();
        let (provider, config) = got.iter().next().unwrap();
        assert_eq!(provider.to_string(), "registry.terraform.io/hashicorp/aws");
        assert_eq!(
            config,
            &ReattachConfig {
                protocol: "grpc".into(),
                protocol_version: 5,
                pid: 47254,
                test: true,
                addr: ReattachAddr::Unix("/tmp/plugin2908212597".into()),
            }
        );
    }

    #[test]
    fn fields_match_without_case_and_unknown_ones_are_ignored() {
        let got = parse(
            r#"{"hashicorp/null":{"protocol":"grpc","PROTOCOLVERSION":6,"pid":null,"extra":[1],"addr":{"network":"tcp","string":"127.0.0.1:4000"}}}"#,
        )
        .unwrap();
        let (provider, config) = got.iter().next().unwrap();
        assert_eq!(provider.to_string(), "registry.opentofu.org/hashicorp/null");
        assert_eq!(config.protocol_version, 6);
        assert_eq!(config.pid, 0);
        assert!(!config.test);
        assert_eq!(
            config.addr,
            ReattachAddr::Tcp("127.0.0.1:4000".parse().unwrap())
        );
    }

    #[test]
    fn empty_and_null_name_no_providers() {
        assert!(parse("").unwrap().is_empty());
        assert!(parse("null").unwrap().is_empty());
        assert!(parse("{}").unwrap().is_empty());
    }

    #[test]
    fn bad_json_gets_go_s_texts() {
        let cases = [
            ("{", "Invalid format for TF_REATTACH_PROVIDERS: unexpected end of JSON input"),
            ("x", "Invalid format for TF_REATTACH_PROVIDERS: invalid character 'x' looking for beginning of value"),
            ("[]", "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal array into Go value of type map[string]main.reattachConfig"),
            (r#"{"a":1}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal number into Go value of type main.reattachConfig"),
            (r#"{"a":{"Pid":"1"}}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal string into Go struct field reattachConfig.Pid of type int"),
            (r#"{"a":{"Pid":1.5}}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal number 1.5 into Go struct field reattachConfig.Pid of type int"),
            (r#"{"a":{"Test":"yes"}}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal string into Go struct field reattachConfig.Test of type bool"),
            (r#"{"a":{"Addr":"x"}}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal string into Go struct field reattachConfig.Addr of type struct { Network string; String string }"),
            (r#"{"a":{"Addr":{"Network":5}}}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal number into Go struct field .Addr.Network of type string"),
            // The earliest type error wins.
            (r#"{"a":{"Pid":"1","Test":1}}"#, "Invalid format for TF_REATTACH_PROVIDERS: json: cannot unmarshal string into Go struct field reattachConfig.Pid of type int"),
        ];
        for (input, want) in cases {
            assert_eq!(err(input), want, "{input}");
        }
    }

    #[test]
    fn deep_or_huge_values_are_errors_not_crashes() {
        let deep = format!(r#"{{"a":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
        assert!(err(&deep).starts_with("Invalid format for TF_REATTACH_PROVIDERS: "));
        let nested = format!(r#"{{"a":{{"x":{}{}}}}}"#, "[".repeat(500), "]".repeat(500));
        assert!(err(&nested).starts_with("Invalid format for TF_REATTACH_PROVIDERS: "));
        let many: String = (0..10_000)
            .map(|i| format!(r#""p{i}":{{"Addr":{{"Network":"unix","String":"/s{i}"}}}}"#))
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(parse(&format!("{{{many}}}")).unwrap().len(), 10_000);
    }

    #[test]
    fn bad_entries_get_opentofu_s_texts() {
        let unix = r#"{"Protocol":"grpc","Addr":{"Network":"unix","String":"/s"}}"#;
        assert_eq!(
            err(&format!(r#"{{"a/b/c/d":{unix}}}"#)),
            "Error parsing \"a/b/c/d\" as a provider address: Invalid provider source string: The \"source\" attribute must be in the format \"[hostname/][namespace/]name\""
        );
        assert_eq!(
            err(r#"{"hashicorp/aws":{"Addr":{"Network":"pipe","String":"x"}}}"#),
            "Unknown address type \"pipe\" for \"hashicorp/aws\""
        );
        assert_eq!(
            err(r#"{"hashicorp/aws":{}}"#),
            "Unknown address type \"\" for \"hashicorp/aws\""
        );
        assert_eq!(
            err(r#"{"hashicorp/aws":{"Addr":{"Network":"tcp","String":"localhost"}}}"#),
            "Invalid TCP address \"localhost\" for \"hashicorp/aws\": address localhost: missing port in address"
        );
    }
}
