//! Build and Provide against a fake AWS on loopback: the requests as sent
//! (headers, body, signature) and OpenTofu's wording of each failure.

use std::collections::BTreeMap;

use super::config::Config;
use super::credentials::Credentials;
use super::*;
use crate::testing::{serve, Received};

/// An environment of the given pairs plus test credentials, a home with
/// no `.aws` and IMDS left alone.
fn env_with(pairs: &[(&str, String)]) -> impl Fn(&str) -> Option<String> {
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    map.insert("AWS_ACCESS_KEY_ID".into(), "AKIDTEST".into());
    map.insert("AWS_SECRET_ACCESS_KEY".into(), "secret/test".into());
    map.insert("HOME".into(), "/nonexistent-home".into());
    for (k, v) in pairs {
        map.insert(k.to_string(), v.clone());
    }
    move |k| map.get(k).cloned()
}

fn config() -> Config {
    Config {
        kms_key_id: "alias/state".into(),
        key_spec: "AES_256".into(),
        region: "eu-central-1".into(),
        ..Config::default()
    }
}

fn test_credentials() -> Credentials {
    Credentials {
        access_key_id: "AKIDTEST".into(),
        secret_access_key: "secret/test".into(),
        session_token: None,
        source: "test".into(),
    }
}

/// Recomputes the signature of what the server received: it must match
/// the `Authorization` header, over the headers it names.
fn assert_signed(r: &Received, service: &str, region: &str) {
    let auth = r.header("authorization");
    let signed = auth
        .split("SignedHeaders=")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap();
    let headers: Vec<(String, String)> = signed
        .split(';')
        .map(|h| (h.to_string(), r.header(h).to_string()))
        .collect();
    let s = sigv4::sign(
        &sigv4::Request {
            method: "POST",
            path: &r.path,
            query: "",
            headers: &headers,
            payload: &r.body,
        },
        &test_credentials(),
        region,
        service,
        r.header("x-amz-date"),
    );
    assert_eq!(auth, s.authorization);
    assert!(auth.starts_with(&format!(
        "AWS4-HMAC-SHA256 Credential=AKIDTEST/{}/{region}/{service}/aws4_request, ",
        &r.header("x-amz-date")[..8]
    )));
}

const DATA_KEY: &str = r#"{"CiphertextBlob":"AQIDBA==","KeyId":"arn:aws:kms:eu-central-1:111122223333:key/1234abcd","Plaintext":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="}"#;

#[test]
fn generate_data_key_after_validating_credentials() {
    let (url, server) = serve(vec![
        (200, "<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::111122223333:user/t</Arn></GetCallerIdentityResult></GetCallerIdentityResponse>"),
        (200, DATA_KEY),
    ]);
    let env = env_with(&[
        ("AWS_ENDPOINT_URL_STS", url.clone()),
        ("AWS_ENDPOINT_URL_KMS", url.clone()),
    ]);
    let (out, meta) = run(&config(), &KeyMeta::default(), &env).unwrap();
    assert_eq!(out.encryption_key, (0u8..32).collect::<Vec<_>>());
    assert_eq!(out.decryption_key, None);
    assert_eq!(meta.ciphertext_blob, vec![1, 2, 3, 4]);
    assert_eq!(meta.to_json(), r#"{"ciphertext_blob":"AQIDBA=="}"#);

    let got = server.join().unwrap();
    let (sts, kms) = (&got[0], &got[1]);
    assert_eq!(sts.body, b"Action=GetCallerIdentity&Version=2011-06-15");
    assert_eq!(
        sts.header("content-type"),
        "application/x-www-form-urlencoded; charset=utf-8"
    );
    assert_signed(sts, "sts", "eu-central-1");
    assert_eq!(kms.path, "/");
    assert_eq!(kms.header("x-amz-target"), "TrentService.GenerateDataKey");
    assert_eq!(kms.header("content-type"), "application/x-amz-json-1.1");
    assert_eq!(
        String::from_utf8_lossy(&kms.body),
        r#"{"KeyId":"alias/state","KeySpec":"AES_256"}"#
    );
    assert!(kms
        .header("authorization")
        .contains("SignedHeaders=content-type;host;x-amz-date;x-amz-target,"));
    assert_signed(kms, "kms", "eu-central-1");
}

#[test]
fn session_tokens_are_sent_and_signed() {
    let (url, server) = serve(vec![(200, DATA_KEY)]);
    let env = env_with(&[
        ("AWS_ENDPOINT_URL_KMS", url),
        ("AWS_SESSION_TOKEN", "session-token".into()),
    ]);
    let c = Config {
        skip_credentials_validation: true,
        ..config()
    };
    run(&c, &KeyMeta::default(), &env).unwrap();
    let got = server.join().unwrap();
    assert_eq!(got.len(), 1, "no STS call when validation is skipped");
    assert_eq!(got[0].header("x-amz-security-token"), "session-token");
    assert!(got[0]
        .header("authorization")
        .contains(";x-amz-security-token;x-amz-target,"));
}

#[test]
fn stored_metadata_is_decrypted() {
    let (url, server) = serve(vec![
        (200, DATA_KEY),
        (200, r#"{"KeyId":"k","Plaintext":"//79/A=="}"#),
    ]);
    let env = env_with(&[("AWS_ENDPOINT_URL_KMS", url)]);
    let c = Config {
        skip_credentials_validation: true,
        ..config()
    };
    let meta = KeyMeta::from_json(r#"{"ciphertext_blob":"CQgHBg=="}"#).unwrap();
    let (out, _) = run(&c, &meta, &env).unwrap();
    assert_eq!(out.decryption_key, Some(vec![255, 254, 253, 252]));
    let got = server.join().unwrap();
    assert_eq!(got[1].header("x-amz-target"), "TrentService.Decrypt");
    assert_eq!(
        String::from_utf8_lossy(&got[1].body),
        r#"{"CiphertextBlob":"CQgHBg==","KeyId":"alias/state"}"#
    );
}

#[test]
fn kms_errors_in_opentofu_words() {
    let (url, server) = serve(vec![(
        400,
        r#"{"__type":"NotFoundException","message":"Alias arn:aws:kms:eu-central-1:111122223333:alias/state is not found."}"#,
    )]);
    let env = env_with(&[("AWS_ENDPOINT_URL_KMS", url)]);
    let c = Config {
        skip_credentials_validation: true,
        ..config()
    };
    let err = run(&c, &KeyMeta::default(), &env).unwrap_err();
    assert_eq!(err.summary(), "Unable to fetch encryption key data");
    assert_eq!(
        err.message(),
        "failed to generate key: operation error KMS: GenerateDataKey, https response error StatusCode: 400, RequestID: req-1, NotFoundException: Alias arn:aws:kms:eu-central-1:111122223333:alias/state is not found."
    );
    server.join().unwrap();

    let (url, server) = serve(vec![
        (200, DATA_KEY),
        (400, r#"{"__type":"InvalidCiphertextException"}"#),
    ]);
    let env = env_with(&[("AWS_ENDPOINT_URL_KMS", url)]);
    let meta = KeyMeta {
        ciphertext_blob: vec![9],
    };
    let err = run(&c, &meta, &env).unwrap_err();
    assert_eq!(
        err,
        Failure::Provide(": operation error KMS: Decrypt, https response error StatusCode: 400, RequestID: req-2, InvalidCiphertextException: ".into())
    );
    server.join().unwrap();
}

#[test]
fn rejected_credentials_fail_the_build() {
    let (url, server) = serve(vec![(
        403,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>abc</RequestId></ErrorResponse>",
    )]);
    let env = env_with(&[("AWS_ENDPOINT_URL", url)]);
    let err = run(&config(), &KeyMeta::default(), &env).unwrap_err();
    assert_eq!(err.summary(), "Unable to build encryption key data");
    assert_eq!(
        err.message(),
        "errors were encountered in aws kms configuration\nvalidating provider credentials: retrieving caller identity from STS: operation error STS: GetCallerIdentity, https response error StatusCode: 403, RequestID: req-1, api error InvalidClientTokenId: The security token included in the request is invalid. : "
    );
    server.join().unwrap();
}

#[test]
fn unreachable_kms_is_a_fetch_failure() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = env_with(&[("AWS_ENDPOINT_URL_KMS", format!("http://127.0.0.1:{port}"))]);
    let c = Config {
        skip_credentials_validation: true,
        ..config()
    };
    let err = run(&c, &KeyMeta::default(), &env).unwrap_err();
    assert_eq!(
        err,
        Failure::Provide(format!("failed to generate key: operation error KMS: GenerateDataKey, https response error StatusCode: 0, RequestID: , request send failed, Post \"http://127.0.0.1:{port}/\": dial tcp 127.0.0.1:{port}: connect: connection refused"))
    );
}

#[test]
fn build_failures_before_any_request() {
    let no_creds = |k: &str| (k == "HOME").then(|| "/nonexistent-home".to_string());
    let err = run(&config(), &KeyMeta::default(), &no_creds).unwrap_err();
    assert_eq!(
        err,
        Failure::Build("errors were encountered in aws kms configuration\nNo valid credential sources found : Please see https://opentofu.org/docs/language/settings/backends/s3\nfor more information about providing credentials.\n\nError: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, tofu-rs does not query the EC2 instance metadata service\n".into())
    );
    let env = env_with(&[]);
    let c = Config {
        key_spec: "AES_512".into(),
        ..config()
    };
    assert_eq!(
        run(&c, &KeyMeta::default(), &env).unwrap_err(),
        Failure::Build("invalid key_spec AES_512, expected one of [AES_256 AES_128]".into())
    );
    let c = Config {
        assume_role: Some(config::AssumeRole {
            role_arn: "arn:aws:iam::1:role/r".into(),
            ..config::AssumeRole::default()
        }),
        ..config()
    };
    assert_eq!(
        run(&c, &KeyMeta::default(), &env).unwrap_err(),
        Failure::Build("errors were encountered in aws kms configuration\ntofu-rs does not support assume_role for the aws_kms key provider : ".into())
    );
}

#[test]
fn key_meta_json() {
    assert_eq!(KeyMeta::from_json("{}").unwrap(), KeyMeta::default());
    assert_eq!(
        KeyMeta::from_json(r#"{"ciphertext_blob":null}"#).unwrap(),
        KeyMeta::default()
    );
    assert!(KeyMeta::from_json(r#"{"ciphertext_blob":"!!"}"#).is_err());
    assert!(KeyMeta::from_json("[").is_err());
}
