//! `tofu-rs init` with an `aws_kms` key provider, through the binary: a
//! fake STS and KMS on loopback (reached through `AWS_ENDPOINT_URL_STS` /
//! `AWS_ENDPOINT_URL_KMS`, as the Go SDK's configured endpoints), the
//! signed requests as they arrive, and init going on past encryption when
//! KMS answers, or stopping with OpenTofu's diagnostic when it does not,
//! before any provider is installed. No network beyond loopback.

use std::path::Path;
use std::process::{Command, Output};

use encryption::aws_kms::credentials::Credentials;
use encryption::aws_kms::sigv4;
use encryption::testing::{serve, Received};

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

const SUCCESS: &str = "OpenTofu has been successfully initialized!";

/// The corpus fixture `init-encryption-available`, with a provider source
/// that cannot resolve (so nothing is downloaded if init ever got that
/// far) and `extra` arguments for the key provider.
fn main_tf(extra: &str) -> String {
    format!(
        r#"
variable "encryption_kms_key_id" {{
  type    = string
  default = "1234abcd-12ab-34cd-56ef-1234567890ab"
}}

terraform {{
  required_providers {{
    aws = {{
      source  = "registry.example.invalid/hashicorp/aws"
      version = "5.8"
    }}
  }}

  encryption {{
    key_provider "aws_kms" "key" {{
      kms_key_id = var.encryption_kms_key_id
      region     = "eu-central-1"
      key_spec   = "AES_256"
      {extra}
    }}
    method "aes_gcm" "encrypt-aes" {{
      keys = key_provider.aws_kms.key
    }}
    state {{
      enforced = true
      method   = method.aes_gcm.encrypt-aes
    }}
    plan {{
      enforced = true
      method   = method.aes_gcm.encrypt-aes
    }}
  }}
}}
"#
    )
}

/// `tofu-rs init -no-color ARGS` in `dir`, with none of the caller's
/// `AWS_*` / `TF_*` variables, a home of its own, and `envs`.
fn init(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let cli_config = dir.join("cli.tfrc");
    std::fs::write(&cli_config, "").unwrap();
    let mut cmd = Command::new(BIN);
    cmd.arg("init")
        .arg("-no-color")
        .args(args)
        .current_dir(dir)
        .env("HOME", &home)
        .env("TF_CLI_CONFIG_FILE", &cli_config);
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") || (k.starts_with("TF_") && k != "TF_CLI_CONFIG_FILE") {
            cmd.env_remove(k);
        }
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// The diagnostics' text with the box drawing and the line wrapping
/// removed, so that a long detail can be matched as one string.
fn unwrapped(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(|l| l.trim_start_matches(['│', '╷', '╵']).trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The environment's test credentials, as the fake server checks them.
const CREDS: [(&str, &str); 2] = [
    ("AWS_ACCESS_KEY_ID", "AKIDFAKE"),
    ("AWS_SECRET_ACCESS_KEY", "fake/secret/key"),
];

/// The `Authorization` header must be the SigV4 signature of the request
/// as received, over the headers it lists, for `service` in eu-central-1.
fn assert_signed(r: &Received, service: &str) {
    let auth = r.header("authorization");
    let signed = auth
        .split("SignedHeaders=")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap_or_else(|| panic!("no SignedHeaders in {auth:?}"));
    let headers: Vec<(String, String)> = signed
        .split(';')
        .map(|h| (h.to_string(), r.header(h).to_string()))
        .collect();
    let creds = Credentials {
        access_key_id: CREDS[0].1.into(),
        secret_access_key: CREDS[1].1.into(),
        session_token: None,
        source: "test".into(),
    };
    let date = r.header("x-amz-date");
    let want = sigv4::sign(
        &sigv4::Request {
            method: "POST",
            path: &r.path,
            query: "",
            headers: &headers,
            payload: &r.body,
        },
        &creds,
        "eu-central-1",
        service,
        date,
    );
    assert_eq!(auth, want.authorization);
    assert!(
        auth.contains(&format!("/eu-central-1/{service}/aws4_request")),
        "{auth}"
    );
    assert!(
        signed.contains("host") && signed.contains("x-amz-date"),
        "{signed}"
    );
}

const CALLER_IDENTITY: &str = "<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::111122223333:user/ci</Arn><UserId>AIDA</UserId><Account>111122223333</Account></GetCallerIdentityResult></GetCallerIdentityResponse>";

const DATA_KEY: &str = r#"{"CiphertextBlob":"AQIDBAUGBwg=","KeyId":"arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab","Plaintext":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="}"#;

#[test]
fn init_goes_on_when_kms_answers() {
    let dir = tempfile::tempdir().unwrap();
    // No provider requirement: past encryption, init has nothing to fetch.
    let tf = main_tf("").replace(
        "required_providers {\n    aws = {\n      source  = \"registry.example.invalid/hashicorp/aws\"\n      version = \"5.8\"\n    }\n  }",
        "",
    );
    std::fs::write(dir.path().join("main.tf"), tf).unwrap();
    let (url, server) = serve(vec![(200, CALLER_IDENTITY), (200, DATA_KEY)]);
    let out = init(
        dir.path(),
        &[],
        &[
            CREDS[0],
            CREDS[1],
            ("AWS_ENDPOINT_URL_STS", &url),
            ("AWS_ENDPOINT_URL_KMS", &url),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(SUCCESS), "{stdout}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let got = server.join().unwrap();
    assert_eq!(got.len(), 2);
    let (sts, kms) = (&got[0], &got[1]);
    // Credentials validated with STS first, as aws-sdk-go-base does.
    assert_eq!(sts.body, b"Action=GetCallerIdentity&Version=2011-06-15");
    assert_signed(sts, "sts");
    assert_eq!(kms.path, "/");
    assert_eq!(kms.header("x-amz-target"), "TrentService.GenerateDataKey");
    assert_eq!(kms.header("content-type"), "application/x-amz-json-1.1");
    assert_eq!(kms.header("host"), url.trim_start_matches("http://"));
    let body: serde_json::Value = serde_json::from_slice(&kms.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"KeyId": "1234abcd-12ab-34cd-56ef-1234567890ab", "KeySpec": "AES_256"})
    );
    assert!(kms
        .header("authorization")
        .contains("SignedHeaders=content-type;host;x-amz-date;x-amz-target,"));
    assert_signed(kms, "kms");
}

#[test]
fn kms_error_is_unable_to_fetch_before_providers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        main_tf("skip_credentials_validation = true"),
    )
    .unwrap();
    let (url, server) = serve(vec![(
        400,
        r#"{"__type":"NotFoundException","message":"Key 'arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab' does not exist"}"#,
    )]);
    let out = init(
        dir.path(),
        &[],
        &[CREDS[0], CREDS[1], ("AWS_ENDPOINT_URL_KMS", &url)],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = unwrapped(&out.stderr);
    assert!(
        stderr.contains(
            "Error: Unable to fetch encryption key data key_provider.aws_kms.key failed with error: failed to generate key: operation error KMS: GenerateDataKey, https response error StatusCode: 400, RequestID: req-1, NotFoundException: Key 'arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab' does not exist"
        ),
        "{stderr}"
    );
    // Encryption is set up before providers are installed: nothing about
    // the provider, whose registry cannot even be resolved.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("provider"), "{stdout}");
    assert!(!stderr.contains("registry.example.invalid"), "{stderr}");
    assert_eq!(server.join().unwrap().len(), 1);
}

#[test]
fn rejected_credentials_are_unable_to_build() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), main_tf("")).unwrap();
    let (url, server) = serve(vec![(
        403,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>r</RequestId></ErrorResponse>",
    )]);
    let out = init(
        dir.path(),
        &[],
        &[CREDS[0], CREDS[1], ("AWS_ENDPOINT_URL", &url)],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = unwrapped(&out.stderr);
    assert!(
        stderr.contains("Error: Unable to build encryption key data key_provider.aws_kms.key failed with error: errors were encountered in aws kms configuration validating provider credentials: retrieving caller identity from STS: operation error STS: GetCallerIdentity, https response error StatusCode: 403, RequestID: req-1, api error InvalidClientTokenId: The security token included in the request is invalid. :"),
        "{stderr}"
    );
    assert_eq!(server.join().unwrap().len(), 1, "KMS is not asked");
}

#[test]
fn credentials_from_a_profile_in_home() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.tf"),
        main_tf("profile = \"ci\"\n      skip_credentials_validation = true"),
    )
    .unwrap();
    let aws = dir.path().join("home/.aws");
    std::fs::create_dir_all(&aws).unwrap();
    std::fs::write(
        aws.join("credentials"),
        format!(
            "[ci]\naws_access_key_id = {}\naws_secret_access_key = {}\n",
            CREDS[0].1, CREDS[1].1
        ),
    )
    .unwrap();
    let (url, server) = serve(vec![(500, r#"{"__type":"KMSInternalException"}"#)]);
    let out = init(dir.path(), &[], &[("AWS_ENDPOINT_URL_KMS", &url)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        unwrapped(&out.stderr).contains("StatusCode: 500, RequestID: req-1, KMSInternalException:")
    );
    // Signed with the profile's keys.
    assert_signed(&server.join().unwrap()[0], "kms");
}

#[test]
fn backend_false_builds_no_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.tf"), main_tf("")).unwrap();
    // A port nothing listens on: a key provider that ran would fail.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let out = init(
        dir.path(),
        &["-backend=false"],
        &[CREDS[0], CREDS[1], ("AWS_ENDPOINT_URL", &url)],
    );
    let stderr = unwrapped(&out.stderr);
    assert!(!stderr.contains("encryption key data"), "{stderr}");
}
