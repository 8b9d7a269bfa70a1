//! The `http`/`https` getter (go-getter's `HttpGetter`): a URL is either
//! an archive to download and unpack, or a page that names the real
//! package location in an `X-Terraform-Get` header (or a
//! `<meta name="terraform-get">` tag), which is then fetched in turn.

use std::io::Read;
use std::time::Duration;

/// Timeouts and limits for HTTP fetches.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    pub connect_timeout: Duration,
    /// Whole-request limit, so a server that never answers cannot hang
    /// `init`.
    pub request_timeout: Duration,
    /// Largest response body accepted.
    pub max_body_bytes: u64,
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(300),
            max_body_bytes: 1 << 30,
        }
    }
}

/// go-getter's `XTerraformGetLimit`.
pub const X_TERRAFORM_GET_LIMIT: u32 = 10;

/// An HTTP agent with the given limits and rustls for HTTPS.
pub fn agent(settings: &HttpSettings) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(settings.connect_timeout)
        .timeout(settings.request_timeout)
        .user_agent(&format!("OpenTofu/{} tofu-rs", env!("CARGO_PKG_VERSION")))
        .build()
}

/// Go's `Get "<url>": <cause>` wording for a GET that got no usable
/// response.
pub fn transport_error(url: &str, e: &ureq::Transport) -> String {
    request_error("GET", url, e)
}

/// Go's `<Method> "<url>": <cause>` wording (`Post "…": …`) for a request
/// that got no usable response: a timeout as Go's client words it, else
/// the underlying error without ureq's own prefix.
pub fn request_error(method: &str, url: &str, e: &ureq::Transport) -> String {
    let text = e.to_string();
    let cause = if e.kind() == ureq::ErrorKind::Io
        && (text.contains("timed out") || text.contains("WouldBlock"))
    {
        "context deadline exceeded (Client.Timeout exceeded while awaiting headers)".to_string()
    } else {
        std::error::Error::source(e)
            .map(|s| s.to_string())
            .unwrap_or(text)
    };
    let lower = method.to_ascii_lowercase();
    let mut chars = lower.chars();
    let verb: String = chars
        .next()
        .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default();
    format!("{verb} {}: {cause}", addrs::go_quote(url))
}

fn read_body(resp: ureq::Response, limit: u64) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    resp.into_reader()
        .take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("error reading response body: {e}"))?;
    if buf.len() as u64 > limit {
        return Err(format!("response body is larger than {limit} bytes"));
    }
    Ok(buf)
}

/// `HttpGetter.GetFile`: the body of a successful GET.
pub fn get_file(
    agent: &ureq::Agent,
    url: &str,
    settings: &HttpSettings,
) -> Result<Vec<u8>, String> {
    match agent.get(url).call() {
        Ok(resp) if (200..300).contains(&resp.status()) => read_body(resp, settings.max_body_bytes),
        Ok(resp) => Err(format!("bad response code: {}", resp.status())),
        Err(ureq::Error::Status(code, _)) => Err(format!("bad response code: {code}")),
        Err(ureq::Error::Transport(t)) => Err(transport_error(url, &t)),
    }
}

/// The first half of `HttpGetter.Get`: asks `url` (with `terraform-get=1`
/// added) where the package really is, and returns that go-getter
/// address, relative paths resolved against `url`.
pub fn get_source_location(agent: &ureq::Agent, url: &str) -> Result<String, String> {
    let mut u = url::Url::parse(url).map_err(|e| format!("parse {}: {e}", addrs::go_quote(url)))?;
    u.query_pairs_mut().append_pair("terraform-get", "1");
    let resp = match agent.get(u.as_str()).call() {
        Ok(resp) => resp,
        Err(ureq::Error::Status(code, _)) => return Err(format!("bad response code: {code}")),
        Err(ureq::Error::Transport(t)) => return Err(transport_error(u.as_str(), &t)),
    };
    if !(200..300).contains(&resp.status()) {
        return Err(format!("bad response code: {}", resp.status()));
    }
    let mut source = resp.header("X-Terraform-Get").unwrap_or("").to_string();
    if source.is_empty() {
        let body = read_body(resp, 10 << 20)?;
        source = meta_terraform_get(&String::from_utf8_lossy(&body)).unwrap_or_default();
    }
    if source.is_empty() {
        return Err("no source URL was returned".to_string());
    }
    if source.starts_with('/') || source.starts_with("./") || source.starts_with("../") {
        let base = url::Url::parse(url).map_err(|e| e.to_string())?;
        source = base
            .join(&source)
            .map_err(|e| format!("invalid relative URL {}: {e}", addrs::go_quote(&source)))?
            .to_string();
    }
    Ok(source)
}

/// The `content` of `<meta name="terraform-get" content="...">`.
fn meta_terraform_get(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("<meta") {
        let start = from + i;
        let end = lower[start..].find('>').map(|e| start + e)?;
        let tag = &html[start..end];
        let tag_lower = &lower[start..end];
        if tag_lower.contains("name=\"terraform-get\"")
            || tag_lower.contains("name='terraform-get'")
        {
            let ci = tag_lower.find("content=")?;
            let rest = &tag[ci + "content=".len()..];
            let quote = rest.chars().next()?;
            if quote == '"' || quote == '\'' {
                let inner = &rest[1..];
                return inner.find(quote).map(|e| inner[..e].to_string());
            }
        }
        from = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_tag() {
        let html = r#"<html><head><META name="terraform-get" content="git::https://x/y.git"></head></html>"#;
        assert_eq!(
            meta_terraform_get(html).as_deref(),
            Some("git::https://x/y.git")
        );
        assert_eq!(
            meta_terraform_get("<meta name=\"other\" content=\"a\">"),
            None
        );
    }
}
