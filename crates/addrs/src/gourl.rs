//! The part of Go's `net/url` that go-getter's source detection relies on.
//!
//! Module source addresses are normalized by go-getter, whose decisions
//! ("is this already a URL?", "how is this path re-escaped?") follow Go's
//! URL parser and printer exactly. Reproducing those rules here keeps the
//! normalized package addresses byte-identical to OpenTofu's.

use std::collections::BTreeMap;

/// The escaping contexts of Go's `net/url`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Path,
    Host,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// A parsed URL, with the fields go-getter reads and writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct GoUrl {
    pub scheme: String,
    pub opaque: String,
    /// Username and optional password, unescaped.
    pub user: Option<(String, Option<String>)>,
    pub host: String,
    /// The unescaped path.
    pub path: String,
    /// The path as written, when it differs from the default escaping.
    pub raw_path: String,
    pub omit_host: bool,
    pub force_query: bool,
    pub raw_query: String,
    /// The fragment as written (still escaped).
    pub raw_fragment: String,
}

fn is_alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

fn should_escape(c: u8, mode: Encoding) -> bool {
    if is_alnum(c) {
        return false;
    }
    if mode == Encoding::Host
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match mode {
                Encoding::Path => c == b'?',
                Encoding::UserPassword => c == b'@' || c == b'/' || c == b'?' || c == b':',
                Encoding::QueryComponent => true,
                Encoding::Fragment => false,
                Encoding::Host => true,
            };
        }
        _ => {}
    }
    if mode == Encoding::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

/// Go's `url.escape`.
pub(crate) fn escape(s: &str, mode: Encoding) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if should_escape(c, mode) {
            if c == b' ' && mode == Encoding::QueryComponent {
                out.push('+');
            } else {
                out.push('%');
                out.push(HEX[(c >> 4) as usize] as char);
                out.push(HEX[(c & 15) as usize] as char);
            }
        } else {
            out.push(c as char);
        }
    }
    out
}

fn unhex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Go's `url.unescape`.
pub(crate) fn unescape(s: &str, mode: Encoding) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hi = b.get(i + 1).copied().and_then(unhex);
                let lo = b.get(i + 2).copied().and_then(unhex);
                let (Some(hi), Some(lo)) = (hi, lo) else {
                    let end = (i + 3).min(b.len());
                    let bad = String::from_utf8_lossy(&b[i..end]).into_owned();
                    return Err(format!("invalid URL escape {}", go_quote(&bad)));
                };
                let v = hi << 4 | lo;
                if mode == Encoding::Host && v < 0x80 && v != b' ' {
                    let bad = String::from_utf8_lossy(&b[i..i + 3]).into_owned();
                    return Err(format!("invalid URL escape {}", go_quote(&bad)));
                }
                out.push(v);
                i += 3;
            }
            b'+' => {
                out.push(if mode == Encoding::QueryComponent {
                    b' '
                } else {
                    b'+'
                });
                i += 1;
            }
            c => {
                if mode == Encoding::Host && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        go_quote(&(c as char).to_string())
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn valid_encoded(s: &str, mode: Encoding) -> bool {
    s.bytes().all(|c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok(("", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".to_string());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn valid_optional_port(port: &str) -> bool {
    match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(digits) => digits.bytes().all(|c| c.is_ascii_digit()),
    }
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".to_string());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    unescape(host, Encoding::Host)
}

fn valid_userinfo(s: &str) -> bool {
    s.bytes().all(|c| {
        is_alnum(c)
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b':'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'%'
                    | b'@'
            )
    })
}

type Userinfo = Option<(String, Option<String>)>;

fn parse_authority(authority: &str) -> Result<(Userinfo, String), String> {
    let at = authority.rfind('@');
    let host = parse_host(match at {
        Some(i) => &authority[i + 1..],
        None => authority,
    })?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".to_string());
    }
    let user = match userinfo.split_once(':') {
        None => (unescape(userinfo, Encoding::UserPassword)?, None),
        Some((u, p)) => (
            unescape(u, Encoding::UserPassword)?,
            Some(unescape(p, Encoding::UserPassword)?),
        ),
    };
    Ok((Some(user), host))
}

impl GoUrl {
    /// Go's `url.Parse`.
    pub(crate) fn parse(raw: &str) -> Result<GoUrl, String> {
        let (u, frag) = match raw.split_once('#') {
            Some((u, f)) => (u, Some(f)),
            None => (raw, None),
        };
        let mut url =
            Self::parse_no_fragment(u).map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
        if let Some(frag) = frag {
            unescape(frag, Encoding::Fragment)
                .map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
            url.raw_fragment = frag.to_string();
        }
        Ok(url)
    }

    fn parse_no_fragment(raw: &str) -> Result<GoUrl, String> {
        if raw.bytes().any(|c| c < 0x20 || c == 0x7f) {
            return Err("net/url: invalid control character in URL".to_string());
        }
        let mut url = GoUrl::default();
        if raw == "*" {
            url.path = "*".to_string();
            return Ok(url);
        }
        let (scheme, rest) = get_scheme(raw)?;
        url.scheme = scheme.to_ascii_lowercase();
        let mut rest = rest;
        if rest.ends_with('?') && rest.matches('?').count() == 1 {
            url.force_query = true;
            rest = &rest[..rest.len() - 1];
        } else if let Some((r, q)) = rest.split_once('?') {
            rest = r;
            url.raw_query = q.to_string();
        }
        if !rest.starts_with('/') {
            if !url.scheme.is_empty() {
                url.opaque = rest.to_string();
                return Ok(url);
            }
            let segment = rest.split('/').next().unwrap_or("");
            if segment.contains(':') {
                return Err("first path segment in URL cannot contain colon".to_string());
            }
        }
        let mut path = rest;
        if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
            let authority_and_path = &rest[2..];
            let (authority, p) = match authority_and_path.find('/') {
                Some(i) => (&authority_and_path[..i], &authority_and_path[i..]),
                None => (authority_and_path, ""),
            };
            let (user, host) = parse_authority(authority)?;
            url.user = user;
            url.host = host;
            path = p;
        } else if !url.scheme.is_empty() && rest.starts_with('/') {
            url.omit_host = true;
        }
        url.set_path(path)?;
        Ok(url)
    }

    fn set_path(&mut self, p: &str) -> Result<(), String> {
        self.path = unescape(p, Encoding::Path)?;
        self.raw_path = if escape(&self.path, Encoding::Path) == p {
            String::new()
        } else {
            p.to_string()
        };
        Ok(())
    }

    /// Go's `URL.EscapedPath`.
    pub(crate) fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Encoding::Path)
            && unescape(&self.raw_path, Encoding::Path).as_deref() == Ok(self.path.as_str())
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".to_string();
        }
        escape(&self.path, Encoding::Path)
    }

    /// Go's `URL.String`.
    pub(crate) fn to_go_string(&self) -> String {
        let mut buf = String::new();
        if !self.scheme.is_empty() {
            buf.push_str(&self.scheme);
            buf.push(':');
        }
        if !self.opaque.is_empty() {
            buf.push_str(&self.opaque);
        } else {
            if !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some() {
                if self.omit_host && self.host.is_empty() && self.user.is_none() {
                    // Omit the empty host.
                } else {
                    if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                        buf.push_str("//");
                    }
                    if let Some((user, pass)) = &self.user {
                        buf.push_str(&escape(user, Encoding::UserPassword));
                        if let Some(pass) = pass {
                            buf.push(':');
                            buf.push_str(&escape(pass, Encoding::UserPassword));
                        }
                        buf.push('@');
                    }
                    if !self.host.is_empty() {
                        buf.push_str(&escape(&self.host, Encoding::Host));
                    }
                }
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                buf.push('/');
            }
            if buf.is_empty() {
                let segment = path.split('/').next().unwrap_or("");
                if segment.contains(':') {
                    buf.push_str("./");
                }
            }
            buf.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push('?');
            buf.push_str(&self.raw_query);
        }
        if !self.raw_fragment.is_empty() {
            buf.push('#');
            buf.push_str(&self.raw_fragment);
        }
        buf
    }
}

/// Go's `url.ParseQuery`: the values by key, and the first error met.
pub(crate) fn parse_query(q: &str) -> (BTreeMap<String, Vec<String>>, Option<String>) {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut err = None;
    for part in q.split('&') {
        if part.is_empty() {
            continue;
        }
        if part.contains(';') {
            err.get_or_insert_with(|| "invalid semicolon separator in query".to_string());
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let k = match unescape(k, Encoding::QueryComponent) {
            Ok(k) => k,
            Err(e) => {
                err.get_or_insert(e);
                continue;
            }
        };
        let v = match unescape(v, Encoding::QueryComponent) {
            Ok(v) => v,
            Err(e) => {
                err.get_or_insert(e);
                continue;
            }
        };
        out.entry(k).or_default().push(v);
    }
    (out, err)
}

/// Go's `url.Values.Encode`: keys sorted, each value escaped.
pub(crate) fn encode_query(values: &BTreeMap<String, Vec<String>>) -> String {
    let mut parts = Vec::new();
    for (k, vs) in values {
        let k = escape(k, Encoding::QueryComponent);
        for v in vs {
            parts.push(format!("{k}={}", escape(v, Encoding::QueryComponent)));
        }
    }
    parts.join("&")
}

/// A string quoted as Go's `%q` prints it.
pub use hclsyntax::go_quote;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        for s in [
            "https://example.com/module?archive=tar&checksum=blah",
            "git://example.com/code/baz.git",
            "ssh://git@example.com/code/baz.git",
            "dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg",
            "file:///tmp/foo",
            "https://example.com/a%20b",
        ] {
            let u = GoUrl::parse(s).unwrap();
            assert_eq!(u.to_go_string(), s);
        }
    }

    #[test]
    fn parse_errors_match_go() {
        assert!(GoUrl::parse("git@example.com:code/baz.git").is_err());
        assert!(GoUrl::parse(":foo").is_err());
        assert!(GoUrl::parse("https://example.com:abc/").is_err());
        assert_eq!(GoUrl::parse("boop/bloop").unwrap().scheme, "");
        assert!(GoUrl::parse("1a:b").is_err());
    }

    #[test]
    fn query_encoding_sorts_keys() {
        let (v, err) = parse_query("ref=v1&a=b c");
        assert!(err.is_none());
        assert_eq!(encode_query(&v), "a=b+c&ref=v1");
    }

    #[test]
    fn go_quoting() {
        assert_eq!(go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(go_quote("é"), "\"é\"");
    }
}
