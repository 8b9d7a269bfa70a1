//! The `aws_kms` key provider's configuration: its arguments (OpenTofu's
//! `aws_kms.Config`, the S3 backend's authentication arguments plus
//! `kms_key_id` and `key_spec`), decoded from the evaluated body as
//! `gohcl` decodes them, and the checks of `Config.validate` and
//! `Config.asAWSBase` with OpenTofu's messages.

use std::collections::BTreeMap;

use hclsyntax::{BodySchema, Diagnostic};

use super::decode::Decoder;
use super::Env;
use crate::evaluated_body::EvaluatedBody;

/// What aws-sdk-go-base names as the caller in credential errors.
pub const CALLER_DOCUMENTATION_URL: &str =
    "https://opentofu.org/docs/language/settings/backends/s3";

/// The data key specs KMS's `GenerateDataKey` takes, in the order the Go
/// SDK's `types.DataKeySpec.Values()` lists them.
const KEY_SPECS: &[&str] = &["AES_256", "AES_128"];

/// The arguments and blocks the provider's config struct declares (every
/// key provider block also takes `encrypted_metadata_alias`).
pub fn body_schema() -> BodySchema {
    BodySchema::new(
        &[
            "kms_key_id",
            "key_spec",
            "access_key",
            "max_retries",
            "profile",
            "region",
            "secret_key",
            "skip_credentials_validation",
            "skip_requesting_account_id",
            "sts_region",
            "token",
            "http_proxy",
            "https_proxy",
            "no_proxy",
            "insecure",
            "use_dualstack_endpoint",
            "use_fips_endpoint",
            "custom_ca_bundle",
            "ec2_metadata_service_endpoint",
            "ec2_metadata_service_endpoint_mode",
            "skip_metadata_api_check",
            "shared_credentials_files",
            "shared_config_files",
            "assume_role",
            "assume_role_with_web_identity",
            "allowed_account_ids",
            "forbidden_account_ids",
            "retry_mode",
            "encrypted_metadata_alias",
        ],
        &[("endpoints", &[])],
    )
    .require(&["kms_key_id", "key_spec"])
}

/// The arguments of an `endpoints` block (`ConfigEndpoints`).
pub fn endpoints_schema() -> BodySchema {
    BodySchema::new(&["iam", "sts"], &[])
}

/// `aws_kms.Config`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    pub kms_key_id: String,
    pub key_spec: String,
    pub access_key: String,
    pub endpoints: Vec<ConfigEndpoints>,
    pub max_retries: i64,
    pub profile: String,
    pub region: String,
    pub secret_key: String,
    pub skip_credentials_validation: bool,
    pub skip_requesting_account_id: bool,
    pub sts_region: String,
    pub token: String,
    pub http_proxy: Option<String>,
    pub https_proxy: Option<String>,
    pub no_proxy: String,
    pub insecure: bool,
    pub use_dualstack_endpoint: bool,
    pub use_fips_endpoint: bool,
    pub custom_ca_bundle: String,
    pub ec2_metadata_service_endpoint: String,
    pub ec2_metadata_service_endpoint_mode: String,
    pub skip_metadata_api_check: Option<bool>,
    pub shared_credentials_files: Vec<String>,
    pub shared_config_files: Vec<String>,
    pub assume_role: Option<AssumeRole>,
    pub assume_role_with_web_identity: Option<AssumeRoleWithWebIdentity>,
    pub allowed_account_ids: Vec<String>,
    pub forbidden_account_ids: Vec<String>,
    pub retry_mode: String,
}

/// An `endpoints` block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigEndpoints {
    pub iam: String,
    pub sts: String,
}

/// The `assume_role` object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssumeRole {
    pub role_arn: String,
    pub duration: String,
    pub external_id: String,
    pub policy: String,
    pub policy_arns: Vec<String>,
    pub session_name: String,
    pub tags: BTreeMap<String, String>,
    pub transitive_tag_keys: Vec<String>,
}

/// The `assume_role_with_web_identity` object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssumeRoleWithWebIdentity {
    pub role_arn: String,
    pub duration: String,
    pub policy: String,
    pub policy_arns: Vec<String>,
    pub session_name: String,
    pub web_identity_token: String,
    pub web_identity_token_file: String,
}

/// Whether the SDK may ask the EC2 instance metadata service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImdsState {
    /// `AWS_EC2_METADATA_DISABLED` decides.
    Default,
    Enabled,
    Disabled,
}

/// `awsbase.Config` as `asAWSBase` fills it: the configuration with its
/// environment fallbacks applied and its checks passed.
#[derive(Debug, Clone, PartialEq)]
pub struct AwsBase {
    pub access_key: String,
    pub secret_key: String,
    pub token: String,
    pub profile: String,
    /// `region`, or `AWS_REGION` / `AWS_DEFAULT_REGION` as the SDK reads them.
    pub region: String,
    pub sts_region: String,
    pub iam_endpoint: String,
    pub sts_endpoint: String,
    pub max_retries: i64,
    pub skip_credentials_validation: bool,
    pub skip_requesting_account_id: bool,
    pub use_dualstack_endpoint: bool,
    pub use_fips_endpoint: bool,
    pub custom_ca_bundle: String,
    pub imds: ImdsState,
    pub ec2_metadata_service_endpoint: String,
    pub shared_credentials_files: Vec<String>,
    pub shared_config_files: Vec<String>,
    pub assume_role: Option<AssumeRole>,
    pub assume_role_with_web_identity: Option<AssumeRoleWithWebIdentity>,
}

impl Config {
    /// `gohcl.DecodeBody` into the config struct. `Ok(None)` when an
    /// argument reads another key provider's output (not known here).
    pub fn decode(body: &EvaluatedBody) -> Result<Option<Config>, Vec<Diagnostic>> {
        if !body.is_complete() {
            return Ok(None);
        }
        let mut d = Decoder::default();
        let mut c = Config {
            kms_key_id: d.string(body, "kms_key_id"),
            key_spec: d.string(body, "key_spec"),
            access_key: d.string(body, "access_key"),
            max_retries: d.int(body, "max_retries"),
            profile: d.string(body, "profile"),
            region: d.string(body, "region"),
            secret_key: d.string(body, "secret_key"),
            skip_credentials_validation: d.bool(body, "skip_credentials_validation"),
            skip_requesting_account_id: d.bool(body, "skip_requesting_account_id"),
            sts_region: d.string(body, "sts_region"),
            token: d.string(body, "token"),
            http_proxy: d.opt_string(body, "http_proxy"),
            https_proxy: d.opt_string(body, "https_proxy"),
            no_proxy: d.string(body, "no_proxy"),
            insecure: d.bool(body, "insecure"),
            use_dualstack_endpoint: d.bool(body, "use_dualstack_endpoint"),
            use_fips_endpoint: d.bool(body, "use_fips_endpoint"),
            custom_ca_bundle: d.string(body, "custom_ca_bundle"),
            ec2_metadata_service_endpoint: d.string(body, "ec2_metadata_service_endpoint"),
            ec2_metadata_service_endpoint_mode: d
                .string(body, "ec2_metadata_service_endpoint_mode"),
            skip_metadata_api_check: d.opt_bool(body, "skip_metadata_api_check"),
            shared_credentials_files: d.strings(body, "shared_credentials_files"),
            shared_config_files: d.strings(body, "shared_config_files"),
            allowed_account_ids: d.strings(body, "allowed_account_ids"),
            forbidden_account_ids: d.strings(body, "forbidden_account_ids"),
            retry_mode: d.string(body, "retry_mode"),
            ..Config::default()
        };
        for block in body.blocks_of("endpoints") {
            c.endpoints.push(ConfigEndpoints {
                iam: d.string(block, "iam"),
                sts: d.string(block, "sts"),
            });
        }
        c.assume_role = d.object(body, "assume_role").map(|o| AssumeRole {
            role_arn: o.string("role_arn", true, &mut d),
            duration: o.string("duration", false, &mut d),
            external_id: o.string("external_id", false, &mut d),
            policy: o.string("policy", false, &mut d),
            policy_arns: o.strings("policy_arns", &mut d),
            session_name: o.string("session_name", false, &mut d),
            tags: o.string_map("tags", &mut d),
            transitive_tag_keys: o.strings("transitive_tag_keys", &mut d),
        });
        c.assume_role_with_web_identity =
            d.object(body, "assume_role_with_web_identity")
                .map(|o| AssumeRoleWithWebIdentity {
                    role_arn: o.string("role_arn", false, &mut d),
                    duration: o.string("duration", false, &mut d),
                    policy: o.string("policy", false, &mut d),
                    policy_arns: o.strings("policy_arns", &mut d),
                    session_name: o.string("session_name", false, &mut d),
                    web_identity_token: o.string("web_identity_token", false, &mut d),
                    web_identity_token_file: o.string("web_identity_token_file", false, &mut d),
                });
        if d.diags.is_empty() {
            Ok(Some(c))
        } else {
            Err(d.diags)
        }
    }

    /// `Config.validate`: the key provider's own arguments.
    pub fn validate(&self) -> Result<(), String> {
        if self.kms_key_id.is_empty() {
            return Err("no kms_key_id provided".into());
        }
        if self.key_spec.is_empty() {
            return Err("no key_spec provided".into());
        }
        if !KEY_SPECS.contains(&self.key_spec.as_str()) {
            return Err(format!(
                "invalid key_spec {}, expected one of [{}]",
                self.key_spec,
                KEY_SPECS.join(" ")
            ));
        }
        Ok(())
    }

    /// `Config.asAWSBase`: the checks in OpenTofu's order, then the
    /// settings with the environment fallbacks OpenTofu and the SDK apply.
    pub fn aws_base(&self, env: Env<'_>) -> Result<AwsBase, String> {
        let var = |name: &str| env(name).unwrap_or_default();
        let fallback = |val: &str, name: &str| {
            if val.is_empty() {
                var(name)
            } else {
                val.to_string()
            }
        };
        let files_fallback = |val: &[String], name: &str| -> Vec<String> {
            if !val.is_empty() {
                return val.to_vec();
            }
            let v = var(name);
            if v.is_empty() {
                Vec::new()
            } else {
                vec![v]
            }
        };
        if self.endpoints.len() > 1 {
            return Err("expected single aws_kms endpoints block, multiple provided".into());
        }
        let endpoints = self.endpoints.first().cloned().unwrap_or_default();
        if let Some(ar) = &self.assume_role {
            parse_assume_role_duration(&ar.duration)?;
            validate_policy_arns(&ar.policy_arns)?;
        }
        if let Some(wi) = &self.assume_role_with_web_identity {
            if !wi.web_identity_token.is_empty() && !wi.web_identity_token_file.is_empty() {
                return Err("conflicting config attributes: only web_identity_token or web_identity_token_file can be specified, not both".into());
            }
            parse_assume_role_duration(&wi.duration)?;
            validate_policy_arns(&wi.policy_arns)?;
        }
        if self.region.is_empty()
            && var("AWS_REGION").is_empty()
            && var("AWS_DEFAULT_REGION").is_empty()
        {
            return Err(r#"the "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set."#.into());
        }
        if !self.retry_mode.is_empty()
            && self.retry_mode != "standard"
            && self.retry_mode != "adaptive"
        {
            return Err(format!(
                "unknown RetryMode, {}: expected \"standard\" or \"adaptive\"",
                self.retry_mode
            ));
        }
        // OpenTofu maps `skip_metadata_api_check = true` to "enabled" and
        // `false` to "disabled" (the reverse of the S3 backend); kept as is.
        let imds = match self.skip_metadata_api_check {
            None => ImdsState::Default,
            Some(true) => ImdsState::Enabled,
            Some(false) => ImdsState::Disabled,
        };
        if !self.allowed_account_ids.is_empty() && !self.forbidden_account_ids.is_empty() {
            return Err("conflicting config attributes: only allowed_account_ids or forbidden_account_ids can be specified, not both".into());
        }
        let region = [
            self.region.clone(),
            var("AWS_REGION"),
            var("AWS_DEFAULT_REGION"),
        ]
        .into_iter()
        .find(|r| !r.is_empty())
        .unwrap_or_default();
        Ok(AwsBase {
            access_key: self.access_key.clone(),
            secret_key: self.secret_key.clone(),
            token: self.token.clone(),
            profile: self.profile.clone(),
            region,
            sts_region: self.sts_region.clone(),
            iam_endpoint: fallback(&include_proto(&endpoints.iam), "AWS_ENDPOINT_URL_IAM"),
            sts_endpoint: fallback(&include_proto(&endpoints.sts), "AWS_ENDPOINT_URL_STS"),
            max_retries: if self.max_retries == 0 {
                5
            } else {
                self.max_retries
            },
            skip_credentials_validation: self.skip_credentials_validation,
            skip_requesting_account_id: self.skip_requesting_account_id,
            use_dualstack_endpoint: self.use_dualstack_endpoint,
            use_fips_endpoint: self.use_fips_endpoint,
            custom_ca_bundle: fallback(&self.custom_ca_bundle, "AWS_CA_BUNDLE"),
            imds,
            ec2_metadata_service_endpoint: fallback(
                &self.ec2_metadata_service_endpoint,
                "AWS_EC2_METADATA_SERVICE_ENDPOINT",
            ),
            shared_credentials_files: files_fallback(
                &self.shared_credentials_files,
                "AWS_SHARED_CREDENTIALS_FILE",
            ),
            // OpenTofu's fallback is `AWS_SHARED_CONFIG_FILE`; the SDK's own
            // `AWS_CONFIG_FILE` applies when neither is set.
            shared_config_files: files_fallback(
                &self.shared_config_files,
                "AWS_SHARED_CONFIG_FILE",
            ),
            assume_role: self.assume_role.clone(),
            assume_role_with_web_identity: self.assume_role_with_web_identity.clone(),
        })
    }
}

/// `includeProtoIfNecessary`: OpenTofu's unanchored `[a-z]*://.*` match
/// holds for any endpoint containing `://`.
fn include_proto(endpoint: &str) -> String {
    if endpoint.is_empty() || endpoint.contains("://") {
        endpoint.to_string()
    } else {
        format!("https://{endpoint}")
    }
}

/// `parseAssumeRoleDuration`: empty is no duration; otherwise a Go
/// duration between 15 minutes and 12 hours.
fn parse_assume_role_duration(val: &str) -> Result<(), String> {
    if val.is_empty() {
        return Ok(());
    }
    let nanos = lang::functions::datetime::parse_duration(val).map_err(|e| {
        format!(
            "invalid assume_role duration {}: {e}",
            cty::format::go_quote(val)
        )
    })?;
    const MIN: i64 = 15 * 60 * 1_000_000_000;
    const MAX: i64 = 12 * 3600 * 1_000_000_000;
    if !(MIN..=MAX).contains(&nanos) {
        return Err(format!(
            "assume_role duration must be between 15m0s and 12h0m0s, had {}",
            go_duration_string(nanos)
        ));
    }
    Ok(())
}

/// `validatePolicyARNs`: each an ARN (`arn.Parse`) of an IAM policy.
fn validate_policy_arns(arns: &[String]) -> Result<(), String> {
    for v in arns {
        if !v.starts_with("arn:") {
            return Err("arn: invalid prefix".into());
        }
        let sections: Vec<&str> = v.splitn(6, ':').collect();
        if sections.len() != 6 {
            return Err("arn: not enough sections".into());
        }
        if !sections[5].starts_with("policy/") {
            return Err(format!(
                "arn must be a valid IAM Policy ARN, got {}",
                cty::format::go_quote(v)
            ));
        }
    }
    Ok(())
}

/// Go's `time.Duration.String` (`1h30m0s`, `90s` as `1m30s`, `500ms`).
pub fn go_duration_string(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let neg = nanos < 0;
    let u = nanos.unsigned_abs();
    let sign = if neg { "-" } else { "" };
    let frac = |v: u64, digits: u32| -> String {
        let scale = 10u64.pow(digits);
        let (whole, rest) = (v / scale, v % scale);
        if rest == 0 {
            whole.to_string()
        } else {
            let f = format!("{rest:0width$}", width = digits as usize);
            format!("{whole}.{}", f.trim_end_matches('0'))
        }
    };
    if u < 1_000 {
        return format!("{sign}{u}ns");
    }
    if u < 1_000_000 {
        return format!("{sign}{}µs", frac(u, 3));
    }
    if u < 1_000_000_000 {
        return format!("{sign}{}ms", frac(u, 6));
    }
    let secs = u / 1_000_000_000;
    let sub = u % 1_000_000_000;
    let s = frac((secs % 60) * 1_000_000_000 + sub, 9);
    let (h, m) = (secs / 3600, (secs % 3600) / 60);
    if h > 0 {
        format!("{sign}{h}h{m}m{s}s")
    } else if m > 0 {
        format!("{sign}{m}m{s}s")
    } else {
        format!("{sign}{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> Config {
        Config {
            kms_key_id: "alias/state".into(),
            key_spec: "AES_256".into(),
            region: "eu-central-1".into(),
            ..Config::default()
        }
    }

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn validate_messages() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("alias/x", "AES_256", None),
            ("alias/x", "AES_128", None),
            ("", "AES_256", Some("no kms_key_id provided")),
            ("alias/x", "", Some("no key_spec provided")),
            (
                "alias/x",
                "RSA_2048",
                Some("invalid key_spec RSA_2048, expected one of [AES_256 AES_128]"),
            ),
        ];
        for (id, spec, want) in cases {
            let c = Config {
                kms_key_id: id.to_string(),
                key_spec: spec.to_string(),
                ..Config::default()
            };
            assert_eq!(c.validate().err().as_deref(), *want, "{id:?} {spec:?}");
        }
    }

    #[test]
    fn region_from_config_or_environment() {
        let mut c = minimal();
        c.region.clear();
        assert_eq!(
            c.aws_base(&no_env).unwrap_err(),
            r#"the "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set."#
        );
        let env = |k: &str| (k == "AWS_DEFAULT_REGION").then(|| "ap-south-1".to_string());
        assert_eq!(c.aws_base(&env).unwrap().region, "ap-south-1");
        let env = |k: &str| match k {
            "AWS_REGION" => Some("us-west-2".to_string()),
            "AWS_DEFAULT_REGION" => Some("ap-south-1".to_string()),
            _ => None,
        };
        assert_eq!(c.aws_base(&env).unwrap().region, "us-west-2");
        assert_eq!(minimal().aws_base(&env).unwrap().region, "eu-central-1");
    }

    #[test]
    fn as_aws_base_checks() {
        let two_endpoints = Config {
            endpoints: vec![ConfigEndpoints::default(), ConfigEndpoints::default()],
            ..minimal()
        };
        let conflicting_accounts = Config {
            allowed_account_ids: vec!["1".into()],
            forbidden_account_ids: vec!["2".into()],
            ..minimal()
        };
        let role = |duration: &str, arns: &[&str]| Config {
            assume_role: Some(AssumeRole {
                role_arn: "arn:aws:iam::123456789012:role/x".into(),
                duration: duration.into(),
                policy_arns: arns.iter().map(|s| s.to_string()).collect(),
                ..AssumeRole::default()
            }),
            ..minimal()
        };
        let web = Config {
            assume_role_with_web_identity: Some(AssumeRoleWithWebIdentity {
                web_identity_token: "t".into(),
                web_identity_token_file: "f".into(),
                ..AssumeRoleWithWebIdentity::default()
            }),
            ..minimal()
        };
        let retry = Config {
            retry_mode: "bogus".into(),
            ..minimal()
        };
        let cases: Vec<(Config, &str)> = vec![
            (two_endpoints, "expected single aws_kms endpoints block, multiple provided"),
            (conflicting_accounts, "conflicting config attributes: only allowed_account_ids or forbidden_account_ids can be specified, not both"),
            (role("5m", &[]), "assume_role duration must be between 15m0s and 12h0m0s, had 5m0s"),
            (role("4x", &[]), r#"invalid assume_role duration "4x": time: unknown unit "x" in duration "4x""#),
            (role("1h", &["nope"]), "arn: invalid prefix"),
            (role("1h", &["arn:aws:iam"]), "arn: not enough sections"),
            (role("1h", &["arn:aws:iam::123456789012:role/x"]), r#"arn must be a valid IAM Policy ARN, got "arn:aws:iam::123456789012:role/x""#),
            (web, "conflicting config attributes: only web_identity_token or web_identity_token_file can be specified, not both"),
            (retry, r#"unknown RetryMode, bogus: expected "standard" or "adaptive""#),
        ];
        for (c, want) in cases {
            assert_eq!(c.aws_base(&no_env).unwrap_err(), want);
        }
        assert!(role("4h", &["arn:aws:iam::123456789012:policy/AR"])
            .aws_base(&no_env)
            .is_ok());
    }

    #[test]
    fn as_aws_base_fallbacks() {
        let env = |k: &str| {
            Some(
                match k {
                    "AWS_ENDPOINT_URL_STS" => "http://sts.local",
                    "AWS_SHARED_CREDENTIALS_FILE" => "/env/credentials",
                    "AWS_SHARED_CONFIG_FILE" => "/env/config",
                    _ => return None,
                }
                .to_string(),
            )
        };
        let base = minimal().aws_base(&env).unwrap();
        assert_eq!(base.max_retries, 5);
        assert_eq!(base.sts_endpoint, "http://sts.local");
        assert_eq!(base.iam_endpoint, "");
        assert_eq!(base.shared_credentials_files, vec!["/env/credentials"]);
        assert_eq!(base.shared_config_files, vec!["/env/config"]);
        assert_eq!(base.imds, ImdsState::Default);

        let c = Config {
            endpoints: vec![ConfigEndpoints {
                iam: "iam.local".into(),
                sts: "http://sts.example".into(),
            }],
            shared_credentials_files: vec!["~/creds".into()],
            max_retries: 2,
            skip_metadata_api_check: Some(false),
            ..minimal()
        };
        let base = c.aws_base(&env).unwrap();
        assert_eq!(base.iam_endpoint, "https://iam.local");
        assert_eq!(base.sts_endpoint, "http://sts.example");
        assert_eq!(base.shared_credentials_files, vec!["~/creds"]);
        assert_eq!(base.max_retries, 2);
        assert_eq!(base.imds, ImdsState::Disabled);
    }

    #[test]
    fn go_durations() {
        let s = 1_000_000_000i64;
        let cases = [
            (0, "0s"),
            (5 * 60 * s, "5m0s"),
            (13 * 3600 * s, "13h0m0s"),
            (90 * s, "1m30s"),
            (s + s / 2, "1.5s"),
            (500_000_000, "500ms"),
            (1_500, "1.5µs"),
            (12, "12ns"),
        ];
        for (n, want) in cases {
            assert_eq!(go_duration_string(n), want);
        }
    }
}
