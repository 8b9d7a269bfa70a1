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
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(300),
        }
    }
}

/// go-getter's `XTerraformGetLimit`.
pub const X_TERRAFORM_GET_LIMIT: u32 = 10;

/// Go's `http.Client` gives up after this many redirects.
const MAX_REDIRECTS: usize = 10;

/// An HTTP agent with the given limits and rustls for HTTPS. It follows
/// no redirects itself: [`get`] follows them as Go's client does.
pub fn agent(settings: &HttpSettings) -> ureq::Agent {
    gocompat::http::AgentOptions {
        user_agent: gocompat::http::default_user_agent(),
        connect_timeout: settings.connect_timeout,
        timeout: gocompat::http::Timeout::WholeRequest(settings.request_timeout),
        redirects: 0,
    }
    .build()
}

/// Go's `net/http` wording for requests without a response, kept under
/// the names the installers' callers know.
pub use gocompat::http::{request_error, transport_error};

/// A GET as Go's `http.Client` does it: redirects followed up to ten
/// times (`Get "LOCATION": stopped after 10 redirects`), and only to
/// `http`/`https` URLs — a redirect to `file:///etc/passwd` is
/// `Get "file:///etc/passwd": unsupported protocol scheme "file"`.
/// Statuses are the caller's to judge.
fn get(agent: &ureq::Agent, url: &str) -> Result<ureq::Response, String> {
    let mut current =
        url::Url::parse(url).map_err(|e| format!("parse {}: {e}", addrs::go_quote(url)))?;
    let mut sent = 0;
    loop {
        let resp = match agent.get(current.as_str()).call() {
            Ok(resp) => resp,
            Err(ureq::Error::Status(_, resp)) => resp,
            Err(ureq::Error::Transport(t)) => return Err(transport_error(current.as_str(), &t)),
        };
        sent += 1;
        let location = match resp.status() {
            301 | 302 | 303 | 307 | 308 => resp.header("Location").map(str::to_string),
            _ => None,
        };
        let Some(location) = location else {
            return Ok(resp);
        };
        if sent >= MAX_REDIRECTS {
            return Err(format!(
                "Get {}: stopped after {MAX_REDIRECTS} redirects",
                addrs::go_quote(&location)
            ));
        }
        let next = current.join(&location).map_err(|e| {
            format!(
                "failed to parse Location header {}: {e}",
                addrs::go_quote(&location)
            )
        })?;
        if !matches!(next.scheme(), "http" | "https") {
            return Err(format!(
                "Get {}: unsupported protocol scheme {}",
                addrs::go_quote(next.as_str()),
                addrs::go_quote(next.scheme())
            ));
        }
        current = next;
    }
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

/// `HttpGetter.GetFile`: the body of a successful GET, streamed into
/// the file `dst` (no size limit: OpenTofu sets none, and nothing is
/// held in memory).
pub fn get_file(agent: &ureq::Agent, url: &str, dst: &std::path::Path) -> Result<(), String> {
    let resp = get(agent, url)?;
    if !(200..300).contains(&resp.status()) {
        return Err(format!("bad response code: {}", resp.status()));
    }
    let expected: Option<u64> = resp.header("Content-Length").and_then(|v| v.parse().ok());
    let mut out = std::fs::File::create(dst)
        .map_err(|e| crate::pathutil::path_error("open", &dst.display().to_string(), &e))?;
    let n = std::io::copy(&mut resp.into_reader(), &mut out).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            "unexpected EOF".to_string()
        } else {
            unpack::go_io_text(&e)
        }
    })?;
    if expected.is_some_and(|len| n < len) {
        return Err("short write".to_string());
    }
    Ok(())
}

/// The first half of `HttpGetter.Get`: asks `url` (with `terraform-get=1`
/// added) where the package really is, and returns that go-getter
/// address. OpenTofu detects nothing in it (its detector list is empty),
/// so a relative `X-Terraform-Get` (`./x`, `/x`) is
/// `invalid source string: ./x`, and only the getters OpenTofu registers
/// may be named (`file://` among them).
pub fn get_source_location(agent: &ureq::Agent, url: &str) -> Result<String, String> {
    let mut u = url::Url::parse(url).map_err(|e| format!("parse {}: {e}", addrs::go_quote(url)))?;
    u.query_pairs_mut().append_pair("terraform-get", "1");
    let resp = get(agent, u.as_str())?;
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
    detect_nothing(&source)?;
    Ok(source)
}

/// go-getter's `Detect` with no detectors: an address that already has
/// a scheme (after any `getter::` and before any `//subdir`) is kept,
/// anything else is `invalid source string`. Then the getter it names
/// must be one OpenTofu registers.
fn detect_nothing(source: &str) -> Result<(), String> {
    let (forced, rest) = super::forced_getter(source);
    let (package, _) = addrs::split_package_subdir(rest);
    let scheme = go_scheme(&package).filter(|_| url::Url::parse(&package).is_ok());
    let Some(scheme) = scheme else {
        return Err(format!("invalid source string: {source}"));
    };
    let protocol = if forced.is_empty() {
        scheme
    } else {
        forced.to_string()
    };
    const GETTERS: [&str; 8] = ["file", "gcs", "git", "hg", "http", "https", "oci", "s3"];
    if !GETTERS.contains(&protocol.as_str()) {
        return Err(format!(
            "no getter available for X-Terraform-Get source protocol: {}",
            addrs::go_quote(&protocol)
        ));
    }
    Ok(())
}

/// The scheme Go's `url.Parse` finds: letters first, then letters,
/// digits, `+`, `-` or `.`, up to a `:`.
fn go_scheme(s: &str) -> Option<String> {
    for (i, c) in s.char_indices() {
        match c {
            c if c.is_ascii_alphabetic() => {}
            '0'..='9' | '+' | '-' | '.' if i > 0 => {}
            ':' if i > 0 => return Some(s[..i].to_ascii_lowercase()),
            _ => return None,
        }
    }
    None
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
