//! The HTTP client every network source and the installer share: ureq
//! (the client `initwd` already uses) with timeouts, OpenTofu's retry
//! policy and Go's error wording, and downloads streamed to a file.

use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use gocompat::http::transport_error;

/// Limits and retries for requests.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Whole-request timeout for metadata requests
    /// (`TF_REGISTRY_CLIENT_TIMEOUT`, 10 s by default).
    pub request_timeout: Duration,
    /// Timeout for one package download (headers and each read).
    pub download_timeout: Duration,
    /// Extra attempts after a transport error, 429 or 5xx
    /// (`TF_REGISTRY_DISCOVERY_RETRY`, 1 by default).
    pub retries: u32,
    /// Pause before a retry.
    pub retry_wait: Duration,
    /// Sent as `X-Terraform-Version`.
    pub tofu_version: String,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            request_timeout: Duration::from_secs(10),
            download_timeout: Duration::from_secs(600),
            retries: 1,
            retry_wait: Duration::from_secs(1),
            tofu_version: "1.10.0".to_string(),
        }
    }
}

impl HttpOptions {
    /// The defaults adjusted by the environment variables OpenTofu reads.
    pub fn from_env() -> HttpOptions {
        let mut o = HttpOptions::default();
        let positive = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|v| *v > 0)
        };
        if let Some(t) = positive("TF_REGISTRY_CLIENT_TIMEOUT") {
            o.request_timeout = Duration::from_secs(t);
        }
        if let Some(r) = positive("TF_REGISTRY_DISCOVERY_RETRY") {
            o.retries = u32::try_from(r).unwrap_or(u32::MAX);
        }
        o
    }
}

/// A client for one run.
#[derive(Clone)]
pub struct HttpClient {
    opts: HttpOptions,
    // Built on first use: building an agent loads the system's root
    // certificates, which a run that installs nothing over HTTP(S) (local
    // modules, built-in providers, a warm cache) should not pay for.
    agent: Arc<OnceLock<ureq::Agent>>,
    download_agent: Arc<OnceLock<ureq::Agent>>,
}

/// A response with any status.
pub struct Response {
    pub status: u16,
    pub status_text: String,
    /// The URL that answered, after redirects.
    pub final_url: String,
    pub content_type: String,
    pub inner: ureq::Response,
}

impl Response {
    /// Go's `resp.Status`: `404 Not Found`.
    pub fn status_line(&self) -> String {
        format!("{} {}", self.status, self.status_text)
    }

    /// The body, at most `limit` bytes.
    pub fn into_bytes(self, limit: u64) -> Result<Vec<u8>, String> {
        let mut buf = Vec::new();
        self.inner
            .into_reader()
            .take(limit)
            .read_to_end(&mut buf)
            .map_err(|e| format!("error reading response body: {e}"))?;
        Ok(buf)
    }
}

fn agent(timeout: Duration, whole_request: bool) -> ureq::Agent {
    let mut opts = gocompat::http::AgentOptions::new(timeout, 5);
    if !whole_request {
        // A large download may take long; only stalls are errors.
        opts.timeout = gocompat::http::Timeout::EachIo(timeout);
    }
    opts.build()
}

impl HttpClient {
    pub fn new(opts: HttpOptions) -> HttpClient {
        HttpClient {
            agent: Arc::default(),
            download_agent: Arc::default(),
            opts,
        }
    }

    fn agent(&self) -> &ureq::Agent {
        self.agent
            .get_or_init(|| agent(self.opts.request_timeout, true))
    }

    fn download_agent(&self) -> &ureq::Agent {
        self.download_agent
            .get_or_init(|| agent(self.opts.download_timeout, false))
    }

    pub fn options(&self) -> &HttpOptions {
        &self.opts
    }

    /// A GET with retryablehttp's policy: transport errors, 429 and 5xx
    /// (but 501) are retried; when attempts run out the error says so.
    pub fn get(&self, url: &str, token: Option<&str>) -> Result<Response, String> {
        let attempts = self.opts.retries + 1;
        let mut last_err = String::new();
        for attempt in 0..attempts {
            if attempt > 0 {
                std::thread::sleep(self.opts.retry_wait);
            }
            let mut req = self
                .agent()
                .get(url)
                .set("X-Terraform-Version", &self.opts.tofu_version);
            if let Some(t) = token {
                req = req.set("Authorization", &format!("Bearer {t}"));
            }
            let resp = match req.call() {
                Ok(r) => r,
                Err(ureq::Error::Status(_, r)) => r,
                Err(ureq::Error::Transport(t)) => {
                    last_err = format!(": {}", transport_error(url, &t));
                    continue;
                }
            };
            let s = resp.status();
            if s == 429 || (s >= 500 && s != 501) {
                last_err = format!(": {} {} returned from {url}", s, resp.status_text());
                continue;
            }
            return Ok(Response {
                status: s,
                status_text: resp.status_text().to_string(),
                final_url: resp.get_url().to_string(),
                content_type: resp.header("Content-Type").unwrap_or("").to_string(),
                inner: resp,
            });
        }
        Err(if attempts > 1 {
            format!(
                "the request failed after {attempts} attempts, please try again later{last_err}"
            )
        } else {
            format!("the request failed, please try again later{last_err}")
        })
    }

    /// `installFromHTTPURL`'s fetch: streams a 200 body into `out`,
    /// failing if the server sends less than it announced.
    pub fn download(&self, url: &str, out: &mut impl Write) -> Result<u64, String> {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default();
        let resp = match self.download_agent().get(url).call() {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => {
                return Err(format!(
                    "unsuccessful request to {url}: {} {}",
                    r.status(),
                    r.status_text()
                ))
            }
            Err(ureq::Error::Transport(t)) => {
                return Err(format!("{host}: {}", transport_error(url, &t)))
            }
        };
        if resp.status() != 200 {
            return Err(format!(
                "unsuccessful request to {url}: {} {}",
                resp.status(),
                resp.status_text()
            ));
        }
        let expected: Option<u64> = resp
            .header("Content-Length")
            .and_then(|v| v.trim().parse().ok());
        let mut reader = resp.into_reader();
        let n = copy_large(&mut reader, out).map_err(|e| match expected {
            Some(len) => format!("incorrect response size: expected {len} bytes: {e}"),
            None => format!("error reading response body: {e}"),
        })?;
        if let Some(len) = expected {
            if n < len {
                return Err(format!(
                    "incorrect response size: expected {len} bytes, but got {n} bytes"
                ));
            }
        }
        Ok(n)
    }
}

/// `io::copy` with a 1 MB buffer: packages are tens of MB, and 8 KB
/// pieces cost a write system call each.
fn copy_large(r: &mut impl Read, w: &mut impl Write) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        // Fill the buffer (TLS hands out one record at a time) before
        // writing it.
        let mut filled = 0;
        while filled < buf.len() {
            match r.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if filled == 0 {
            return Ok(total);
        }
        w.write_all(&buf[..filled])?;
        total += filled as u64;
    }
}

/// Go's `mime.ParseMediaType` media type, lowercased, for the JSON checks.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}
