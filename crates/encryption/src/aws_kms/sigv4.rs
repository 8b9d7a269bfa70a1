//! AWS Signature Version 4, as the Go SDK's `v4.Signer` signs the KMS and
//! STS requests of the `aws_kms` key provider: a canonical request over
//! the method, path, query, signed headers and payload hash; a string to
//! sign naming the date, region and service; a key derived from the secret
//! by four HMAC-SHA256 steps.

use gocompat::hex::encode_to_string as hex_lower;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use super::credentials::Credentials;

/// The algorithm name in the string to sign and the `Authorization` header.
const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// What is signed of one request. Header names are compared lowercased;
/// `host` and `x-amz-date` must be among them, as they are in every
/// request the SDK signs.
pub struct Request<'a> {
    pub method: &'a str,
    /// The canonical URI: the path, already percent-encoded (`/`).
    pub path: &'a str,
    /// The canonical query string (empty for the POSTs sent here).
    pub query: &'a str,
    pub headers: &'a [(String, String)],
    pub payload: &'a [u8],
}

/// The intermediate strings and the header that carries the signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub canonical_request: String,
    pub string_to_sign: String,
    /// The `Authorization` header value.
    pub authorization: String,
}

/// Signs `req` for `service` in `region` at `amz_date` (`YYYYMMDDTHHMMSSZ`).
pub fn sign(
    req: &Request<'_>,
    creds: &Credentials,
    region: &str,
    service: &str,
    amz_date: &str,
) -> Signature {
    let mut headers: Vec<(String, String)> = req
        .headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), canonical_header_value(v)))
        .collect();
    headers.sort_by(|a, b| a.0.cmp(&b.0));
    // Repeated names become one line with the values comma-separated.
    let mut merged: Vec<(String, String)> = Vec::new();
    for (k, v) in headers {
        match merged.last_mut() {
            Some((lk, lv)) if *lk == k => {
                lv.push(',');
                lv.push_str(&v);
            }
            _ => merged.push((k, v)),
        }
    }
    let signed_headers = merged
        .iter()
        .map(|(k, _)| k.as_str())
        .collect::<Vec<_>>()
        .join(";");
    let canonical_headers: String = merged.iter().map(|(k, v)| format!("{k}:{v}\n")).collect();
    let canonical_request = format!(
        "{}\n{}\n{}\n{}\n{}\n{}",
        req.method,
        req.path,
        req.query,
        canonical_headers,
        signed_headers,
        hex_sha256(req.payload)
    );
    let date = &amz_date[..amz_date.len().min(8)];
    let scope = format!("{date}/{region}/{service}/aws4_request");
    let string_to_sign = format!(
        "{ALGORITHM}\n{amz_date}\n{scope}\n{}",
        hex_sha256(canonical_request.as_bytes())
    );
    let mut key = hmac(
        format!("AWS4{}", creds.secret_access_key).as_bytes(),
        date.as_bytes(),
    );
    for part in [region, service, "aws4_request"] {
        key = hmac(&key, part.as_bytes());
    }
    let signature = hex_lower(&hmac(&key, string_to_sign.as_bytes()));
    let authorization = format!(
        "{ALGORITHM} Credential={}/{scope}, SignedHeaders={signed_headers}, Signature={signature}",
        creds.access_key_id
    );
    Signature {
        canonical_request,
        string_to_sign,
        authorization,
    }
}

/// `X-Amz-Date` for seconds since the Unix epoch (`20150830T123600Z`).
pub fn amz_date(unix_secs: u64) -> String {
    gocompat::time::rfc3339_utc(unix_secs).replace(['-', ':'], "")
}

/// Lowercase hex of the SHA-256 of `data` (the payload hash of the
/// canonical request).
pub fn hex_sha256(data: &[u8]) -> String {
    hex_lower(&Sha256::digest(data))
}

/// Trimmed, with runs of spaces inside the value collapsed to one.
fn canonical_header_value(v: &str) -> String {
    v.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The credentials of AWS's published SigV4 test suite.
    fn suite_credentials() -> Credentials {
        Credentials {
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
            session_token: None,
            source: "test".into(),
        }
    }

    fn suite_headers() -> Vec<(String, String)> {
        vec![
            ("Host".into(), "example.amazonaws.com".into()),
            ("X-Amz-Date".into(), "20150830T123600Z".into()),
        ]
    }

    /// `get-vanilla` from the AWS SigV4 test suite: canonical request,
    /// string to sign and signature as published.
    #[test]
    fn get_vanilla_vector() {
        let headers = suite_headers();
        let s = sign(
            &Request {
                method: "GET",
                path: "/",
                query: "",
                headers: &headers,
                payload: b"",
            },
            &suite_credentials(),
            "us-east-1",
            "service",
            "20150830T123600Z",
        );
        assert_eq!(
            s.canonical_request,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            s.string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"
        );
        assert_eq!(
            s.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        );
    }

    /// `post-vanilla` from the same suite.
    #[test]
    fn post_vanilla_vector() {
        let headers = suite_headers();
        let s = sign(
            &Request {
                method: "POST",
                path: "/",
                query: "",
                headers: &headers,
                payload: b"",
            },
            &suite_credentials(),
            "us-east-1",
            "service",
            "20150830T123600Z",
        );
        assert!(s.authorization.ends_with(
            "Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"
        ));
    }

    #[test]
    fn header_values_are_trimmed_and_merged() {
        let headers = vec![
            ("X-Amz-Date".into(), "20150830T123600Z".into()),
            ("My-Header".into(), "  a   b  ".into()),
            ("host".into(), "example.amazonaws.com".into()),
            ("my-header".into(), "c".into()),
        ];
        let s = sign(
            &Request {
                method: "GET",
                path: "/",
                query: "",
                headers: &headers,
                payload: b"",
            },
            &suite_credentials(),
            "us-east-1",
            "service",
            "20150830T123600Z",
        );
        assert!(s
            .canonical_request
            .contains("host:example.amazonaws.com\nmy-header:a b,c\nx-amz-date:"));
        assert!(s
            .authorization
            .contains("SignedHeaders=host;my-header;x-amz-date,"));
    }

    #[test]
    fn amz_date_form() {
        // 2015-08-30T12:36:00Z
        assert_eq!(amz_date(1_440_938_160), "20150830T123600Z");
    }
}
