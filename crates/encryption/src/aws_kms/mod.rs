//! OpenTofu's `aws_kms` key provider (`internal/encryption/keyprovider/
//! aws_kms`): `Build` checks the configuration, finds credentials and
//! validates them with STS (as aws-sdk-go-base's `GetAwsConfig` does);
//! `Provide` asks KMS for a data key (`GenerateDataKey`), and decrypts the
//! stored one (`Decrypt`) when metadata from encrypted data is given.
//!
//! Everything that reads the environment takes an [`Env`] lookup, so that
//! tests pass their own and never touch the process environment.

pub mod config;
pub mod credentials;
mod decode;
mod endpoints;
mod kms_client;
mod shared_config;
pub mod sigv4;
mod sts_client;
mod transport;

use std::time::SystemTime;

use base64::Engine;

use config::Config;
use kms_client::KmsClient;

/// An environment variable lookup (`std::env::var` in the binary).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// One of aws-sdk-go-base's diagnostics: OpenTofu folds them into its
/// error as `SUMMARY : DETAIL` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsDiag {
    pub summary: String,
    pub detail: String,
}

impl AwsDiag {
    /// A diagnostic made from a plain error (`AddSimpleError`): the error
    /// is the summary, the detail is empty.
    pub fn simple(err: &str) -> AwsDiag {
        AwsDiag {
            summary: err.to_string(),
            detail: String::new(),
        }
    }
}

/// Which step failed; OpenTofu names the step in the diagnostic's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// `Config.Build`: configuration, credentials, their validation.
    Build(String),
    /// `KeyProvider.Provide`: the KMS calls.
    Provide(String),
}

impl Failure {
    /// The diagnostic summary OpenTofu's `setupKeyProvider` gives the step.
    pub fn summary(&self) -> &'static str {
        match self {
            Failure::Build(_) => "Unable to build encryption key data",
            Failure::Provide(_) => "Unable to fetch encryption key data",
        }
    }

    /// The key provider's error, after `failed with error: `.
    pub fn message(&self) -> &str {
        match self {
            Failure::Build(m) | Failure::Provide(m) => m,
        }
    }
}

/// `keyMeta`: what the provider stores beside encrypted data, serialized
/// as `{"ciphertext_blob": "<base64>"}` (Go's JSON for a byte slice).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyMeta {
    pub ciphertext_blob: Vec<u8>,
}

impl KeyMeta {
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "ciphertext_blob": base64::engine::general_purpose::STANDARD.encode(&self.ciphertext_blob)
        })
        .to_string()
    }

    /// Stored metadata; `Err` is the JSON decoder's message.
    pub fn from_json(text: &str) -> Result<KeyMeta, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let blob = match v.get("ciphertext_blob") {
            None | Some(serde_json::Value::Null) => Vec::new(),
            Some(serde_json::Value::String(s)) => base64::engine::general_purpose::STANDARD
                .decode(s)
                .map_err(|e| e.to_string())?,
            Some(_) => return Err("ciphertext_blob is not a string".into()),
        };
        Ok(KeyMeta {
            ciphertext_blob: blob,
        })
    }
}

/// `keyprovider.Output`: the key to encrypt with and, when metadata was
/// given, the key the stored data was encrypted with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub encryption_key: Vec<u8>,
    pub decryption_key: Option<Vec<u8>>,
}

/// A built key provider: a KMS client for the configured key.
pub struct KeyProvider {
    kms_key_id: String,
    key_spec: String,
    kms: KmsClient,
}

/// `Config.Build`. `Err` is the message after `failed with error: `.
pub fn build(config: &Config, env: Env<'_>) -> Result<KeyProvider, String> {
    config.validate()?;
    let base = config.aws_base(env)?;
    let aws_errors = |d: AwsDiag| aws_config_error(&[d]);
    if base.assume_role_with_web_identity.is_some() {
        return Err(aws_errors(AwsDiag::simple(
            "tofu-rs does not support assume_role_with_web_identity for the aws_kms key provider",
        )));
    }
    let creds = credentials::resolve(&base, env).map_err(aws_errors)?;
    if base.assume_role.is_some() {
        return Err(aws_errors(AwsDiag::simple(
            "tofu-rs does not support assume_role for the aws_kms key provider",
        )));
    }
    if !base.skip_credentials_validation {
        let (url, region) = endpoints::sts(&base, env);
        sts_client::get_caller_identity(&url, &region, &creds, SystemTime::now()).map_err(|e| {
            aws_errors(AwsDiag::simple(&format!(
                "validating provider credentials: retrieving caller identity from STS: {e}"
            )))
        })?;
    }
    Ok(KeyProvider {
        kms_key_id: config.kms_key_id.clone(),
        key_spec: config.key_spec.clone(),
        kms: KmsClient {
            endpoint: endpoints::kms(&base, env),
            region: base.region.clone(),
            credentials: creds,
        },
    })
}

impl KeyProvider {
    /// `keyProvider.Provide`: a new data key, and the stored one decrypted
    /// when `meta` holds one.
    pub fn provide(&self, meta: &KeyMeta) -> Result<(Output, KeyMeta), String> {
        let key = self
            .kms
            .generate_data_key(&self.kms_key_id, &self.key_spec, SystemTime::now())
            .map_err(|e| format!("failed to generate key: {e}"))?;
        let mut out = Output {
            encryption_key: key.plaintext,
            decryption_key: None,
        };
        if !meta.ciphertext_blob.is_empty() {
            // OpenTofu wraps this failure with an empty message, so its
            // text starts with ": ".
            let plain = self
                .kms
                .decrypt(&self.kms_key_id, &meta.ciphertext_blob, SystemTime::now())
                .map_err(|e| format!(": {e}"))?;
            out.decryption_key = Some(plain);
        }
        Ok((
            out,
            KeyMeta {
                ciphertext_blob: key.ciphertext_blob,
            },
        ))
    }
}

/// Build, then Provide with `meta` (none when nothing encrypted is read,
/// as in `init`).
pub fn run(config: &Config, meta: &KeyMeta, env: Env<'_>) -> Result<(Output, KeyMeta), Failure> {
    let provider = build(config, env).map_err(Failure::Build)?;
    provider.provide(meta).map_err(Failure::Provide)
}

/// How `Config.Build` reports aws-sdk-go-base's error diagnostics.
fn aws_config_error(diags: &[AwsDiag]) -> String {
    let mut out = String::from("errors were encountered in aws kms configuration");
    for d in diags {
        out.push('\n');
        out.push_str(&d.summary);
        out.push_str(" : ");
        out.push_str(&d.detail);
    }
    out
}

#[cfg(test)]
mod tests;
