//! One SigV4-signed POST to an AWS endpoint, and the Go SDK's wording of
//! what went wrong (`operation error KMS: GenerateDataKey, https response
//! error StatusCode: 0, RequestID: , request send failed, ...`), which
//! OpenTofu passes on in its diagnostics.
//!
//! There are no retries: the SDK would retry throttling, 5xx answers and
//! connection failures up to `max_retries` times; tofu-rs reports the
//! first failure.

use gocompat::http::{AgentOptions, Timeout};
use std::io::Read;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::credentials::Credentials;
use super::sigv4;

/// How long a connection may take to open, and a whole request to finish.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// KMS and STS answers are small; more than this is not an answer.
const MAX_BODY: u64 = 1 << 20;

/// One operation of one service.
pub struct Call<'a> {
    /// The SDK's service ID (`KMS`, `STS`), as error messages name it.
    pub service_id: &'static str,
    /// The operation name (`GenerateDataKey`).
    pub operation: &'static str,
    /// The SigV4 signing name (`kms`, `sts`).
    pub signing_name: &'static str,
    pub region: &'a str,
    /// The endpoint URL; its path is the request path.
    pub endpoint: &'a str,
    /// Headers beyond `Host`, `X-Amz-Date` and the token: all signed.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// An answer, whatever its status.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// `X-Amzn-RequestId` (empty when absent).
    pub request_id: String,
    /// `X-Amzn-ErrorType`, which JSON protocol errors may carry.
    pub error_type: Option<String>,
    pub body: Vec<u8>,
}

impl Call<'_> {
    /// `operation error SERVICE: OPERATION, INNER` (smithy's `OperationError`).
    pub fn operation_error(&self, inner: &str) -> String {
        format!(
            "operation error {}: {}, {inner}",
            self.service_id, self.operation
        )
    }

    /// Sends the request signed with `creds` at `now`. `Err` is the
    /// complete operation error for a request that got no answer.
    pub fn send(&self, creds: &Credentials, now: SystemTime) -> Result<Reply, String> {
        let url = url::Url::parse(self.endpoint)
            .map_err(|e| self.operation_error(&format!("resolve endpoint: {e}")))?;
        let host = match (url.host_str(), url.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            (None, _) => {
                return Err(self.operation_error(&format!(
                    "resolve endpoint: endpoint {} has no host",
                    self.endpoint
                )))
            }
        };
        let secs = now
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let amz_date = sigv4::amz_date(secs);
        let mut headers = self.headers.clone();
        headers.push(("Host".into(), host));
        headers.push(("X-Amz-Date".into(), amz_date.clone()));
        if let Some(t) = &creds.session_token {
            headers.push(("X-Amz-Security-Token".into(), t.clone()));
        }
        let signature = sigv4::sign(
            &sigv4::Request {
                method: "POST",
                path: url.path(),
                query: url.query().unwrap_or(""),
                headers: &headers,
                payload: &self.body,
            },
            creds,
            self.region,
            self.signing_name,
            &amz_date,
        );
        let agent = AgentOptions {
            user_agent: format!("APN/1.0 OpenTofu/{} tofu-rs", env!("CARGO_PKG_VERSION")),
            connect_timeout: CONNECT_TIMEOUT,
            timeout: Timeout::WholeRequest(REQUEST_TIMEOUT),
            // The SDK does not follow redirects for KMS and STS.
            redirects: 0,
        }
        .build();
        let mut req = agent.post(url.as_str());
        for (k, v) in &headers {
            req = req.set(k, v);
        }
        req = req.set("Authorization", &signature.authorization);
        let resp = match req.send_bytes(&self.body) {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(ureq::Error::Transport(t)) => {
                return Err(self.operation_error(&format!(
                "https response error StatusCode: 0, RequestID: , request send failed, Post {}: {}",
                cty::format::go_quote(url.as_str()),
                go_dial_error(&url, &t)
            )))
            }
        };
        let status = resp.status();
        let request_id = resp
            .header("X-Amzn-RequestId")
            .or_else(|| resp.header("X-Amz-Request-Id"))
            .unwrap_or("")
            .to_string();
        let error_type = resp.header("X-Amzn-ErrorType").map(str::to_string);
        let mut body = Vec::new();
        resp.into_reader()
            .take(MAX_BODY)
            .read_to_end(&mut body)
            .map_err(|e| {
                self.operation_error(&format!(
                    "https response error StatusCode: {status}, RequestID: {request_id}, failed to read response body, {e}"
                ))
            })?;
        Ok(Reply {
            status,
            request_id,
            error_type,
            body,
        })
    }

    /// `https response error StatusCode: N, RequestID: ID, INNER` inside the
    /// operation error, for an answer that is an error.
    pub fn response_error(&self, reply: &Reply, inner: &str) -> String {
        self.operation_error(&format!(
            "https response error StatusCode: {}, RequestID: {}, {inner}",
            reply.status, reply.request_id
        ))
    }
}

/// Go's `net/http` wording of a failed dial (`dial tcp: lookup HOST: no
/// such host`), where ureq's failure maps onto one.
fn go_dial_error(url: &url::Url, t: &ureq::Transport) -> String {
    let host = url.host_str().unwrap_or_default();
    let port = url.port_or_known_default().unwrap_or(0);
    let io_kind = std::error::Error::source(t)
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .map(std::io::Error::kind);
    match (t.kind(), io_kind) {
        (ureq::ErrorKind::Dns, _) => format!("dial tcp: lookup {host}: no such host"),
        (_, Some(std::io::ErrorKind::ConnectionRefused)) => {
            format!("dial tcp {host}:{port}: connect: connection refused")
        }
        (_, Some(std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock)) => {
            "context deadline exceeded (Client.Timeout exceeded while awaiting headers)".into()
        }
        _ => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds() -> Credentials {
        Credentials {
            access_key_id: "AK".into(),
            secret_access_key: "SK".into(),
            session_token: None,
            source: "test".into(),
        }
    }

    fn call(endpoint: &str) -> Call<'_> {
        Call {
            service_id: "KMS",
            operation: "GenerateDataKey",
            signing_name: "kms",
            region: "eu-central-1",
            endpoint,
            headers: vec![],
            body: b"{}".to_vec(),
        }
    }

    #[test]
    fn refused_connection_in_go_words() {
        // A port that was just free: nothing listens there any more.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let endpoint = format!("http://127.0.0.1:{port}");
        let err = call(&endpoint)
            .send(&creds(), SystemTime::now())
            .unwrap_err();
        assert_eq!(
            err,
            format!("operation error KMS: GenerateDataKey, https response error StatusCode: 0, RequestID: , request send failed, Post \"http://127.0.0.1:{port}/\": dial tcp 127.0.0.1:{port}: connect: connection refused")
        );
    }

    #[test]
    fn an_endpoint_without_a_host() {
        let err = call("unix:/tmp/sock")
            .send(&creds(), SystemTime::now())
            .unwrap_err();
        assert!(err.starts_with("operation error KMS: GenerateDataKey, resolve endpoint:"));
    }
}
