//! Hash and crypto functions (OpenTofu `funcs/crypto.go`): base64sha256,
//! base64sha512, bcrypt, md5, rsadecrypt, sha1, sha256, sha512, uuid and
//! uuidv5.
//!
//! `bcrypt` and `uuid` are impure, as is `timestamp` (datetime family).
//! [`register`] installs the real functions; a caller evaluating in a
//! "pure only" pass (OpenTofu's validate walk) calls
//! [`register_impure`]`(table, true)` afterwards, which replaces all three
//! with versions that return unknown values (cty `function.Unpredictable`).

use std::sync::Arc;

use cty::{Type, Value};
use sha2::Digest;

use super::encoding::go_base64_decode;
use crate::functions::framework::{static_return, FnError, Function, FunctionTable, Param};

/// Names of the impure builtins.
pub const IMPURE_FUNCTIONS: [&str; 3] = ["bcrypt", "timestamp", "uuid"];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn hash_fn(f: fn(&[u8]) -> String) -> Function {
    Function::new(
        vec![Param::new("str", Type::String)],
        None,
        static_return(Type::String),
        move |args, _| {
            Ok(Value::string(f(args[0]
                .as_str()
                .unwrap_or_default()
                .as_bytes())))
        },
    )
}

fn bcrypt_fn() -> Function {
    Function::new(
        vec![Param::new("password", Type::String)],
        Some(Param::new("cost", Type::Number)),
        static_return(Type::String),
        |args, _| {
            let mut cost = 10i64;
            if args.len() > 1 {
                cost = super::numeric::to_int(&args[1]).map_err(FnError::general)?;
            }
            if args.len() > 2 {
                return Err(FnError::general(
                    "bcrypt() takes no more than two arguments",
                ));
            }
            let input = args[0].as_str().unwrap_or_default();
            let fail =
                |e: String| FnError::general(format!("error occurred generating password {e}"));
            if input.len() > 72 {
                return Err(fail("bcrypt: password length exceeds 72 bytes".into()));
            }
            // Go: costs below the minimum use the default cost.
            if cost < 4 {
                cost = 10;
            }
            if cost > 31 {
                return Err(fail(format!(
                    "crypto/bcrypt: cost {cost} is outside allowed range (4,31)"
                )));
            }
            let h =
                bcrypt::hash_with_result(input, cost as u32).map_err(|e| fail(e.to_string()))?;
            Ok(Value::string(h.format_for_version(bcrypt::Version::TwoA)))
        },
    )
}

/// hashicorp/go-uuid `GenerateUUID`: 128 random bits (no version bits).
fn random_uuid() -> String {
    let a = *uuid::Uuid::new_v4().as_bytes();
    let b = *uuid::Uuid::new_v4().as_bytes();
    let mut buf = a;
    // Replace the fixed version/variant bits with random ones.
    buf[6] = (a[6] & 0x0f) | (b[0] & 0xf0);
    buf[8] = (a[8] & 0x3f) | (b[1] & 0xc0);
    format!(
        "{}-{}-{}-{}-{}",
        hex(&buf[0..4]),
        hex(&buf[4..6]),
        hex(&buf[6..8]),
        hex(&buf[8..10]),
        hex(&buf[10..16])
    )
}

fn uuid_fn() -> Function {
    Function::new(vec![], None, static_return(Type::String), |_, _| {
        Ok(Value::string(random_uuid()))
    })
}

/// google/uuid `Parse`, with its error texts.
/// google/uuid's `Parse`, on the string's bytes as Go indexes them (a
/// multi-byte character is several bytes and never a hex digit): the
/// canonical form, `urn:uuid:` before it, braces around it (not checked,
/// as Go does not), or 32 hex digits.
fn parse_uuid(s: &str) -> Result<uuid::Uuid, String> {
    let b = s.as_bytes();
    let body: &[u8] = match b.len() {
        36 => b,
        45 => {
            let (prefix, rest) = b.split_at(9);
            if !prefix.eq_ignore_ascii_case(b"urn:uuid:") {
                return Err(format!(
                    "invalid urn prefix: {}",
                    hclsyntax::go_quote_bytes(prefix)
                ));
            }
            rest
        }
        38 => &b[1..],
        32 => return uuid_from_hex_pairs(b, (0..16).map(|i| i * 2)),
        n => return Err(format!("invalid UUID length: {n}")),
    };
    if [8, 13, 18, 23].iter().any(|&i| body.get(i) != Some(&b'-')) {
        return Err("invalid UUID format".into());
    }
    const PAIRS: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    uuid_from_hex_pairs(body, PAIRS.into_iter())
}

/// The sixteen bytes of a UUID from the hex digit pairs starting at
/// `starts`.
fn uuid_from_hex_pairs(
    b: &[u8],
    starts: impl Iterator<Item = usize>,
) -> Result<uuid::Uuid, String> {
    let hex = |c: u8| (c as char).to_digit(16);
    let mut bytes = [0u8; 16];
    for (out, i) in bytes.iter_mut().zip(starts) {
        let (Some(hi), Some(lo)) = (
            b.get(i).copied().and_then(hex),
            b.get(i + 1).copied().and_then(hex),
        ) else {
            return Err("invalid UUID format".into());
        };
        *out = (hi * 16 + lo) as u8;
    }
    Ok(uuid::Uuid::from_bytes(bytes))
}

fn uuidv5_fn() -> Function {
    Function::new(
        vec![
            Param::new("namespace", Type::String),
            Param::new("name", Type::String),
        ],
        None,
        static_return(Type::String),
        |args, _| {
            let ns_str = args[0].as_str().unwrap_or_default();
            let ns = match ns_str {
                "dns" => uuid::Uuid::NAMESPACE_DNS,
                "url" => uuid::Uuid::NAMESPACE_URL,
                "oid" => uuid::Uuid::NAMESPACE_OID,
                "x500" => uuid::Uuid::NAMESPACE_X500,
                other => parse_uuid(other).map_err(|e| {
                    FnError::general(format!("uuidv5() doesn't support namespace {other} ({e})"))
                })?,
            };
            let name = args[1].as_str().unwrap_or_default();
            Ok(Value::string(
                uuid::Uuid::new_v5(&ns, name.as_bytes())
                    .hyphenated()
                    .to_string(),
            ))
        },
    )
}

fn rsadecrypt_fn() -> Function {
    Function::new(
        vec![
            Param::new("ciphertext", Type::String),
            Param::new("privatekey", Type::String),
        ],
        None,
        static_return(Type::String),
        |args, _| {
            use rsa::pkcs1::DecodeRsaPrivateKey;
            use rsa::pkcs8::DecodePrivateKey;
            let s = args[0].as_str().unwrap_or_default();
            let key = args[1].as_str().unwrap_or_default();
            let b = go_base64_decode(s).map_err(|_| {
                FnError::arg(
                    0,
                    format!(
                        "failed to decode input {}: cipher text must be base64-encoded",
                        cty::format::go_quote(s)
                    ),
                )
            })?;
            let Some(begin) = key.find("-----BEGIN ") else {
                return Err(FnError::arg(1, "invalid private key: ssh: no key found"));
            };
            let pem_text = &key[begin..];
            let label_end = pem_text[11..].find("-----").map(|i| i + 11);
            let label = label_end.map_or("", |e| &pem_text[11..e]);
            let private = match label {
                "RSA PRIVATE KEY" => rsa::RsaPrivateKey::from_pkcs1_pem(pem_text).map_err(|e| {
                    FnError::arg(
                        1,
                        format!("invalid ASN1 data in the given private key: {e}"),
                    )
                })?,
                "PRIVATE KEY" => rsa::RsaPrivateKey::from_pkcs8_pem(pem_text)
                    .map_err(|e| FnError::arg(1, format!("invalid private key: {e}")))?,
                "EC PRIVATE KEY" | "DSA PRIVATE KEY" | "OPENSSH PRIVATE KEY" => {
                    return Err(FnError::arg(
                        1,
                        format!("invalid private key type {}", label.to_lowercase()),
                    ))
                }
                "" => return Err(FnError::arg(1, "invalid private key: ssh: no key found")),
                other => {
                    return Err(FnError::arg(
                        1,
                        format!(
                            "invalid private key: ssh: unsupported key type {}",
                            cty::format::go_quote(other)
                        ),
                    ))
                }
            };
            let out = private
                .decrypt(rsa::Pkcs1v15Encrypt, &b)
                .map_err(|_| FnError::general("failed to decrypt: crypto/rsa: decryption error"))?;
            Ok(Value::string(String::from_utf8_lossy(&out)))
        },
    )
}

/// cty `function.Unpredictable`: same signature, unknown result.
pub fn unpredictable(f: &Function) -> Function {
    let ret = f.return_type.clone();
    Function {
        params: f.params.clone(),
        var_param: f.var_param.clone(),
        return_type: ret.clone(),
        implementation: Arc::new(move |args, ty| {
            let _ = args;
            Ok(Value::unknown(ty.clone()))
        }),
        closure: None,
    }
}

/// Installs the impure functions (`bcrypt`, `timestamp`, `uuid`): the real
/// ones, or with `pure_only` versions that return unknown values.
pub fn register_impure(table: &mut FunctionTable, pure_only: bool) {
    let real = [
        ("bcrypt", bcrypt_fn()),
        ("timestamp", super::datetime::timestamp_fn()),
        ("uuid", uuid_fn()),
    ];
    for (name, f) in real {
        let f = if pure_only { unpredictable(&f) } else { f };
        table.insert(name, f);
    }
}

/// Registers this family's functions (with the real impure ones).
pub fn register(table: &mut FunctionTable) {
    table.insert("base64sha256", hash_fn(|b| b64(&sha2::Sha256::digest(b))));
    table.insert("base64sha512", hash_fn(|b| b64(&sha2::Sha512::digest(b))));
    table.insert("bcrypt", bcrypt_fn());
    table.insert("md5", hash_fn(|b| hex(&md5::Md5::digest(b))));
    table.insert("rsadecrypt", rsadecrypt_fn());
    table.insert("sha1", hash_fn(|b| hex(&sha1::Sha1::digest(b))));
    table.insert("sha256", hash_fn(|b| hex(&sha2::Sha256::digest(b))));
    table.insert("sha512", hash_fn(|b| hex(&sha2::Sha512::digest(b))));
    table.insert("uuid", uuid_fn());
    table.insert("uuidv5", uuidv5_fn());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: Vec<Value>) -> Result<Value, FnError> {
        let mut t = FunctionTable::new();
        register(&mut t);
        t.get(name).expect("registered").call(&args)
    }

    fn ok(name: &str, args: &[&str]) -> String {
        let args = args.iter().map(Value::string).collect();
        call(name, args).unwrap().as_str().unwrap().to_string()
    }

    #[test]
    fn hashes() {
        assert_eq!(
            ok("sha1", &["test"]),
            "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
        );
        assert_eq!(
            ok("sha256", &["test"]),
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        );
        assert_eq!(
            ok("sha512", &["test"]),
            "ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db27ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff"
        );
        assert_eq!(ok("md5", &["tada"]), "ce47d07243bb6eaf5e1322c81baf9bbf");
        assert_eq!(
            ok("base64sha256", &["test"]),
            "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="
        );
        assert_eq!(
            ok("base64sha512", &["test"]),
            "7iaw3Ur350mqGo7jwQrpkj9hiYB3Lkc/iBml1JQODbJ6wYX4oOHV+E+IvIh/1nsUNzLDBMxfqa2Ob1f1ACio/w=="
        );
    }

    #[test]
    fn uuids() {
        let u = ok("uuid", &[]);
        assert_eq!(u.len(), 36);
        assert_ne!(u, ok("uuid", &[]));
        assert_eq!(
            ok("uuidv5", &["dns", "tada"]),
            "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"
        );
        assert_eq!(
            ok("uuidv5", &["url", "tada"]),
            "2c1ff6b4-211f-577e-94de-d978b0caa16e"
        );
        assert_eq!(
            ok("uuidv5", &["oid", "tada"]),
            "61eeea26-5176-5288-87fc-232d6ed30d2f"
        );
        assert_eq!(
            ok("uuidv5", &["x500", "tada"]),
            "7e12415e-f7c9-57c3-9e43-52dc9950d264"
        );
        assert_eq!(
            ok("uuidv5", &["6ba7b810-9dad-11d1-80b4-00c04fd430c8", "tada"]),
            "faa898db-9b9d-5b75-86a9-149e7bb8e3b8"
        );
        let e = call("uuidv5", vec![Value::string("tada"), Value::string("tada")]).unwrap_err();
        assert_eq!(
            e.message(),
            "uuidv5() doesn't support namespace tada (invalid UUID length: 4)"
        );
    }

    /// Namespaces parsed on bytes as google/uuid does (answers recorded from
    /// terraform 1.11 console): a multi-byte character once made the parser
    /// slice inside it and abort the process.
    #[test]
    fn uuidv5_namespace_forms_and_multibyte_input() {
        let same = "05b16a01-46c6-56dd-bd6e-c6dfb4a1427a";
        for ns in [
            "URN:UUID:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
            "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
            "x6ba7b810-9dad-11d1-80b4-00c04fd430c8y",
            "6ba7b8109dad11d180b400c04fd430c8",
        ] {
            assert_eq!(ok("uuidv5", &[ns, "x"]), same, "{ns}");
        }
        let err = |ns: &str| {
            call("uuidv5", vec![Value::string(ns), Value::string("x")])
                .unwrap_err()
                .message()
                .to_string()
        };
        let cases = [
            (
                "éabcdefghijklmnopqrstuvwxyzabcdefghij",
                "invalid UUID format",
            ),
            (
                "abcdefghijklmnopqrstuvwxyzabcdefghijé",
                "invalid UUID format",
            ),
            ("6ba7b8109dad11d180b400c04fd430é", "invalid UUID format"),
            (
                "6ba7b810-9dad-11d1-80b4-00c04fd430cg",
                "invalid UUID format",
            ),
            (
                "6ba7b810_9dad-11d1-80b4-00c04fd430c8",
                "invalid UUID format",
            ),
            (
                "é6ba7b810-9dad-11d1-80b4-00c04fd430c}",
                "invalid UUID format",
            ),
            (
                "urn:uuié6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                "invalid urn prefix: \"urn:uuié\"",
            ),
            // The prefix ends inside a character: its bytes are escaped.
            (
                "urn:uuiXé6ba7b810-9dad-11d1-80b4-00c04fd430c",
                "invalid urn prefix: \"urn:uuiX\\xc3\"",
            ),
            ("short", "invalid UUID length: 5"),
        ];
        for (ns, want) in cases {
            assert_eq!(
                err(ns),
                format!("uuidv5() doesn't support namespace {ns} ({want})"),
                "{ns}"
            );
        }
    }

    #[test]
    fn bcrypt_hashes() {
        let h = ok("bcrypt", &["test"]);
        assert!(h.starts_with("$2a$10$"), "{h}");
        assert!(bcrypt::verify("test", &h).unwrap());
        let h = call("bcrypt", vec![Value::string("test"), Value::number_int(5)]).unwrap();
        assert!(h.as_str().unwrap().starts_with("$2a$05$"));
        let e = call("bcrypt", vec![Value::string("test"), Value::number_int(32)]).unwrap_err();
        assert_eq!(
            e.message(),
            "error occurred generating password crypto/bcrypt: cost 32 is outside allowed range (4,31)"
        );
        let e = call(
            "bcrypt",
            vec![
                Value::string("a"),
                Value::number_int(5),
                Value::number_int(5),
            ],
        )
        .unwrap_err();
        assert_eq!(e.message(), "bcrypt() takes no more than two arguments");
    }

    const PRIVATE_KEY: &str = "-----BEGIN RSA PRIVATE KEY-----
MIICXgIBAAKBgQDi7W/uUH57V6G3jii6Rf/+suJCJBu6vVof/8CNeOSnmX7Gs4U9
b1S3EQLJGB6oul5aWA8RTb0VPQF+Z9POJqitteidPT9vIKrt47WuSzXPTrmX4Cod
iOZY6ekLdD12uz9TxHKoacQh0VNtZzT3V1vWq+LhWofRimRPLutyxsrIOwIDAQAB
AoGBAIdeqtHYVMtRaFguRp9wGJkgrxZTofMQ98107LG4N3a/e0AfYVFXs4qNbEL3
z3pJyvVL6Jki7bPYs6ZrW49zwlTWL7Fb2n+pMxYV98kD4ZZvZDbtYoMF2qqtrNr1
yaGjIfVppn2BEp6giIXL05SuYlVCXeLmKDsPnutJzBRcNrH5AkEA94p1ssT0/J/p
a9TcEzdOPvYJfPqdOxMj+Mc+ynILyH0uqsmBD5po0ypBvtFgKVDUO4MSUFzHfvuF
f7XsiBSOjQJBAOqupba0oLzR0vNnRJdHZxQiQOSHQBPMHkNwVXaJ0MsQ7cBTMEYN
g+E3jf7hj4FyXIET3+hQNi/HJAf3hNd8g+cCQQDSUy7WCksuKqEmIeIr4Z32GQ7O
xhG6E/VId+J+GJCydMqmCjhCjavrX8gk3bma4TayqhdxeKN43TT84hJrPSwxAkEA
zWBDw221kSiqzLod66ngCl2jnprCN9EU1v3SvOcEowFQn1Pt1hBzzj+480pgNO9p
Bsjm1T6E/TDwVkyFo7LjFwJAetxWEckhFHjmnNm2aqT+g5Wz/MyyGZQqUsS0Av2W
6ZOiT8DQFikwXMyAIAKSJPFf4uepUoviNpjjmgxI4iSgvw==
-----END RSA PRIVATE KEY-----
";
    const CIPHERTEXT: &str = "PpO2W1WPkLuRHlP08kHkQyjx5ssMTMOirz6CCmheJVQHdWSgnusFQ274Yz+ct/A9XPykRdLjtVmYEzZr4Nbs3XG2lqNIQD/q8RfcSoAUK271Uec57O6lgDBKjqvyhr8lG402ghOLvH+RLdjQUH7YEIuyo8nxnovOlG4DIsCfEfM=";

    #[test]
    fn rsa_errors() {
        let e = call(
            "rsadecrypt",
            vec![Value::string("abc"), Value::string(PRIVATE_KEY)],
        )
        .unwrap_err();
        assert_eq!(
            e,
            FnError::arg(
                0,
                "failed to decode input \"abc\": cipher text must be base64-encoded"
            )
        );
        let e = call(
            "rsadecrypt",
            vec![Value::string("aGk="), Value::string("nope")],
        )
        .unwrap_err();
        assert_eq!(e, FnError::arg(1, "invalid private key: ssh: no key found"));
    }

    #[test]
    fn rsa_round_trip() {
        use rsa::pkcs1::DecodeRsaPrivateKey;
        let key = rsa::RsaPrivateKey::from_pkcs1_pem(PRIVATE_KEY).unwrap();
        let r = call(
            "rsadecrypt",
            vec![Value::string(CIPHERTEXT), Value::string(PRIVATE_KEY)],
        );
        assert_eq!(r.unwrap(), Value::string("hello"));
        let public = rsa::RsaPublicKey::from(&key);
        let mut rng = RngShim;
        let ct = public
            .encrypt(&mut rng, rsa::Pkcs1v15Encrypt, b"message")
            .unwrap();
        let r = call(
            "rsadecrypt",
            vec![Value::string(b64(&ct)), Value::string(PRIVATE_KEY)],
        )
        .unwrap();
        assert_eq!(r, Value::string("message"));
        let e = call(
            "rsadecrypt",
            vec![Value::string(b64(&[1u8; 128])), Value::string(PRIVATE_KEY)],
        )
        .unwrap_err();
        assert_eq!(
            e.message(),
            "failed to decrypt: crypto/rsa: decryption error"
        );
    }

    /// A deterministic RNG for the round-trip test (PKCS#1 v1.5 padding
    /// only needs non-zero bytes).
    struct RngShim;

    impl rsa::rand_core::RngCore for RngShim {
        fn next_u32(&mut self) -> u32 {
            0x5a5a_5a5a
        }
        fn next_u64(&mut self) -> u64 {
            0x5a5a_5a5a_5a5a_5a5a
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            dest.fill(0x5a);
        }
        fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rsa::rand_core::Error> {
            dest.fill(0x5a);
            Ok(())
        }
    }

    impl rsa::rand_core::CryptoRng for RngShim {}

    #[test]
    fn impure_replacements() {
        let mut t = FunctionTable::new();
        register_impure(&mut t, true);
        for name in IMPURE_FUNCTIONS {
            let f = t.get(name).unwrap();
            let args: Vec<Value> = f.params.iter().map(|_| Value::string("x")).collect();
            assert!(!f.call(&args).unwrap().is_known(), "{name}");
        }
    }
}
