//! Where the KMS and STS requests go: an endpoint configured for the
//! service (`endpoints { sts = ... }`, `AWS_ENDPOINT_URL_KMS`,
//! `AWS_ENDPOINT_URL_STS`, `AWS_ENDPOINT_URL`, as the Go SDK's configured
//! endpoints), else the regional endpoint of the region's partition, with
//! the FIPS and dual-stack variants.

use super::config::AwsBase;
use super::Env;

/// The KMS endpoint (`https://kms.eu-central-1.amazonaws.com`).
pub fn kms(base: &AwsBase, env: Env<'_>) -> String {
    configured(env, "AWS_ENDPOINT_URL_KMS").unwrap_or_else(|| {
        regional(
            "kms",
            &base.region,
            base.use_fips_endpoint,
            base.use_dualstack_endpoint,
        )
    })
}

/// The STS endpoint for credential validation: `sts_region` over
/// `region`; `endpoints.sts` / `AWS_ENDPOINT_URL_STS` already folded into
/// `base.sts_endpoint`.
pub fn sts(base: &AwsBase, env: Env<'_>) -> (String, String) {
    let region = if base.sts_region.is_empty() {
        base.region.clone()
    } else {
        base.sts_region.clone()
    };
    let url = if !base.sts_endpoint.is_empty() {
        base.sts_endpoint.clone()
    } else {
        configured(env, "AWS_ENDPOINT_URL_STS").unwrap_or_else(|| {
            regional(
                "sts",
                &region,
                base.use_fips_endpoint,
                base.use_dualstack_endpoint,
            )
        })
    };
    (url, region)
}

/// The service's configured endpoint from the environment, unless
/// `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` turns them off.
fn configured(env: Env<'_>, service_var: &str) -> Option<String> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty());
    if var("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
        return None;
    }
    var(service_var).or_else(|| var("AWS_ENDPOINT_URL"))
}

/// `https://SERVICE[-fips].REGION.SUFFIX` for the region's partition.
fn regional(service: &str, region: &str, fips: bool, dualstack: bool) -> String {
    let fips = if fips { "-fips" } else { "" };
    format!(
        "https://{service}{fips}.{region}.{}",
        dns_suffix(region, dualstack)
    )
}

/// The partition's DNS suffix, by region prefix as the SDK's partition
/// table matches it.
fn dns_suffix(region: &str, dualstack: bool) -> &'static str {
    let (plain, dual) = if region.starts_with("cn-") {
        ("amazonaws.com.cn", "api.amazonwebservices.com.cn")
    } else if region.starts_with("us-isob-") {
        ("sc2s.sgov.gov", "sc2s.sgov.gov")
    } else if region.starts_with("us-isof-") {
        ("csp.hci.ic.gov", "csp.hci.ic.gov")
    } else if region.starts_with("us-iso-") {
        ("c2s.ic.gov", "c2s.ic.gov")
    } else if region.starts_with("eu-isoe-") {
        ("cloud.adc-e.uk", "cloud.adc-e.uk")
    } else {
        ("amazonaws.com", "api.aws")
    };
    if dualstack {
        dual
    } else {
        plain
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::Config;
    use super::*;

    fn base(region: &str, f: impl FnOnce(&mut Config)) -> AwsBase {
        let mut c = Config {
            kms_key_id: "k".into(),
            key_spec: "AES_256".into(),
            region: region.into(),
            ..Config::default()
        };
        f(&mut c);
        c.aws_base(&|_| None).unwrap()
    }

    #[test]
    fn regional_endpoints() {
        let none = |_: &str| None;
        assert_eq!(
            kms(&base("eu-central-1", |_| {}), &none),
            "https://kms.eu-central-1.amazonaws.com"
        );
        assert_eq!(
            kms(&base("cn-north-1", |_| {}), &none),
            "https://kms.cn-north-1.amazonaws.com.cn"
        );
        assert_eq!(
            kms(&base("us-east-1", |c| c.use_fips_endpoint = true), &none),
            "https://kms-fips.us-east-1.amazonaws.com"
        );
        assert_eq!(
            kms(
                &base("us-east-1", |c| c.use_dualstack_endpoint = true),
                &none
            ),
            "https://kms.us-east-1.api.aws"
        );
        assert_eq!(
            sts(
                &base("eu-west-1", |c| c.sts_region = "us-east-1".into()),
                &none
            ),
            (
                "https://sts.us-east-1.amazonaws.com".to_string(),
                "us-east-1".to_string()
            )
        );
    }

    #[test]
    fn configured_endpoints() {
        let env = |k: &str| {
            Some(
                match k {
                    "AWS_ENDPOINT_URL_KMS" => "http://127.0.0.1:4566",
                    "AWS_ENDPOINT_URL" => "http://localstack:4566",
                    _ => return None,
                }
                .to_string(),
            )
        };
        let b = base("eu-central-1", |_| {});
        assert_eq!(kms(&b, &env), "http://127.0.0.1:4566");
        assert_eq!(sts(&b, &env).0, "http://localstack:4566");
        let b = base("eu-central-1", |c| {
            c.endpoints = vec![super::super::config::ConfigEndpoints {
                iam: String::new(),
                sts: "sts.local:8080".into(),
            }]
        });
        assert_eq!(sts(&b, &env).0, "https://sts.local:8080");
        let ignore = |k: &str| match k {
            "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS" => Some("true".to_string()),
            other => env(other),
        };
        assert_eq!(
            kms(&base("eu-central-1", |_| {}), &ignore),
            "https://kms.eu-central-1.amazonaws.com"
        );
    }
}
