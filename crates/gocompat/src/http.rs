//! The HTTP agent every network client of tofu-rs builds (ureq, rustls)
//! and Go's `net/http` wording for requests that got no response, which
//! OpenTofu's messages embed (`Get "https://…": context deadline exceeded
//! (Client.Timeout exceeded while awaiting headers)`).
//!
//! Only with the `http` feature: the crates below the installers never
//! link an HTTP client.

use std::time::Duration;

/// `OpenTofu/VERSION tofu-rs`, the user agent of the installers.
pub fn default_user_agent() -> String {
    format!("OpenTofu/{} tofu-rs", env!("CARGO_PKG_VERSION"))
}

/// What limits a request's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// Go's `http.Client.Timeout`: the whole request, body included.
    WholeRequest(Duration),
    /// Each read and write: a long download may take as long as it needs,
    /// only a stall is an error.
    EachIo(Duration),
}

/// The settings of one agent; every client states all of them, so
/// gathering the agents here changed none.
#[derive(Debug, Clone)]
pub struct AgentOptions {
    pub user_agent: String,
    pub connect_timeout: Duration,
    pub timeout: Timeout,
    /// How many redirects ureq follows itself; 0 where the caller follows
    /// them as Go's client does (scheme checks, Go's wording).
    pub redirects: u32,
}

impl AgentOptions {
    /// The installers' agent: [`default_user_agent`], one timeout for
    /// connecting and for the whole request, `redirects` followed by ureq.
    pub fn new(timeout: Duration, redirects: u32) -> AgentOptions {
        AgentOptions {
            user_agent: default_user_agent(),
            connect_timeout: timeout,
            timeout: Timeout::WholeRequest(timeout),
            redirects,
        }
    }

    /// Builds the agent (HTTPS through rustls, with the roots the
    /// workspace's ureq features select).
    pub fn build(&self) -> ureq::Agent {
        let b = ureq::AgentBuilder::new()
            .timeout_connect(self.connect_timeout)
            .redirects(self.redirects)
            .user_agent(&self.user_agent);
        match self.timeout {
            Timeout::WholeRequest(t) => b.timeout(t),
            Timeout::EachIo(t) => b.timeout_read(t).timeout_write(t),
        }
        .build()
    }
}

/// Go's `Get "<url>": <cause>` wording for a GET that got no usable
/// response.
pub fn transport_error(url: &str, e: &ureq::Transport) -> String {
    request_error("GET", url, e)
}

/// Go's `<Method> "<url>": <cause>` wording (`Post "…": …`, `url.Error`)
/// for a request that got no usable response: a timeout as Go's client
/// words it, else the underlying error without ureq's own prefix.
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
    format!(
        "{} {}: {cause}",
        url_error_op(method),
        crate::quote::quote(url)
    )
}

/// `url.Error.Op`: the method with only its first letter upper case
/// (`GET` → `Get`).
fn url_error_op(method: &str) -> String {
    let lower = method.to_ascii_lowercase();
    let mut chars = lower.chars();
    chars
        .next()
        .map(|f| f.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_error_op_is_go_capitalised() {
        assert_eq!(url_error_op("GET"), "Get");
        assert_eq!(url_error_op("POST"), "Post");
        assert_eq!(url_error_op(""), "");
    }

    #[test]
    fn refused_connection_reads_as_go() {
        // A port that was just free: connecting is refused at once.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free loopback port");
        let url = format!("http://127.0.0.1:{port}/x");
        let agent = AgentOptions::new(Duration::from_secs(5), 0).build();
        let Err(ureq::Error::Transport(t)) = agent.get(&url).call() else {
            panic!("expected a transport error");
        };
        let text = transport_error(&url, &t);
        assert!(text.starts_with(&format!("Get \"{url}\": ")), "{text}");
    }
}
