//! Go's `net` address parsing as `net.ResolveTCPAddr("tcp", s)` does it,
//! with its error texts: `net.SplitHostPort`, the port (a number or a
//! service name from `/etc/services`), and the host (empty, an IP literal,
//! or a name looked up through the system resolver).

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};

/// Go's `*net.AddrError` text: `address ADDR: WHY`, or `WHY` alone when
/// the address is empty.
fn addr_error(addr: &str, why: &str) -> String {
    if addr.is_empty() {
        why.to_owned()
    } else {
        format!("address {addr}: {why}")
    }
}

/// `net.SplitHostPort`: the host (without IPv6 brackets) and the port.
pub fn split_host_port(hostport: &str) -> Result<(&str, &str), String> {
    const MISSING_PORT: &str = "missing port in address";
    const TOO_MANY_COLONS: &str = "too many colons in address";
    let err = |why: &str| Err(addr_error(hostport, why));
    // The port starts after the last colon.
    let Some(i) = hostport.rfind(':') else {
        return err(MISSING_PORT);
    };
    let (host, j, k) = if hostport.starts_with('[') {
        // The first ']' must come just before the last ':'.
        let Some(end) = hostport.find(']') else {
            return err("missing ']' in address");
        };
        if end + 1 == hostport.len() {
            return err(MISSING_PORT);
        }
        if end + 1 != i {
            return if hostport.as_bytes()[end + 1] == b':' {
                err(TOO_MANY_COLONS)
            } else {
                err(MISSING_PORT)
            };
        }
        (&hostport[1..end], 1, end + 1)
    } else {
        let host = &hostport[..i];
        if host.contains(':') {
            return err(TOO_MANY_COLONS);
        }
        (host, 0, 0)
    };
    if hostport[j..].contains('[') {
        return err("unexpected '[' in address");
    }
    if hostport[k..].contains(']') {
        return err("unexpected ']' in address");
    }
    Ok((host, &hostport[i + 1..]))
}

/// `net.LookupPort("tcp", service)`: a decimal port, or a service name
/// from `/etc/services`.
pub fn lookup_tcp_port(service: &str) -> Result<u16, String> {
    if service.is_empty() {
        return Ok(0);
    }
    if service.bytes().all(|b| b.is_ascii_digit()) {
        return service
            .parse::<u16>()
            .map_err(|_| addr_error(service, "invalid port"));
    }
    services_port(service).ok_or_else(|| format!("lookup tcp/{service}: unknown port"))
}

/// A tcp service's port from `/etc/services` (names and aliases are
/// matched without regard to case, as Go does).
fn services_port(service: &str) -> Option<u16> {
    let text = std::fs::read_to_string("/etc/services").ok()?;
    text.lines().find_map(|line| {
        let line = line.split('#').next()?;
        let mut fields = line.split_whitespace();
        let name = fields.next()?;
        let (port, proto) = fields.next()?.split_once('/')?;
        let matches = proto == "tcp"
            && std::iter::once(name)
                .chain(fields)
                .any(|n| n.eq_ignore_ascii_case(service));
        matches.then(|| port.parse().ok()).flatten()
    })
}

/// `net.ResolveTCPAddr("tcp", s)`. An empty host is the local system
/// (Go leaves the IP unset and dials the loopback); a name is looked up,
/// an IPv4 address preferred as Go prefers it.
pub fn resolve_tcp_addr(s: &str) -> Result<SocketAddr, String> {
    let (host, port) = split_host_port(s)?;
    let port = lookup_tcp_port(port)?;
    if host.is_empty() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, port));
    }
    let found: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map(Iterator::collect)
        .unwrap_or_default();
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or_else(|| found.first())
        .copied()
        .ok_or_else(|| format!("lookup {host}: no such host"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_go_does() {
        assert_eq!(split_host_port("127.0.0.1:80"), Ok(("127.0.0.1", "80")));
        assert_eq!(split_host_port("[::1]:80"), Ok(("::1", "80")));
        assert_eq!(split_host_port(":80"), Ok(("", "80")));
        assert_eq!(split_host_port("host:"), Ok(("host", "")));
        let errors = [
            ("", "missing port in address"),
            ("localhost", "address localhost: missing port in address"),
            ("::1:80", "address ::1:80: too many colons in address"),
            ("[::1", "address [::1: missing ']' in address"),
            ("[::1]", "address [::1]: missing port in address"),
            ("[::1]x:80", "address [::1]x:80: missing port in address"),
            ("[::1]::80", "address [::1]::80: too many colons in address"),
            ("a[b:80", "address a[b:80: unexpected '[' in address"),
            ("a]b:80", "address a]b:80: unexpected ']' in address"),
        ];
        for (input, want) in errors {
            assert_eq!(split_host_port(input), Err(want.to_owned()), "{input:?}");
        }
    }

    #[test]
    fn ports_are_numbers_or_services() {
        assert_eq!(lookup_tcp_port("8080"), Ok(8080));
        assert_eq!(lookup_tcp_port(""), Ok(0));
        assert_eq!(
            lookup_tcp_port("70000"),
            Err("address 70000: invalid port".to_owned())
        );
        assert_eq!(
            lookup_tcp_port("no-such-service-here"),
            Err("lookup tcp/no-such-service-here: unknown port".to_owned())
        );
    }

    #[test]
    fn resolves_literals_and_the_empty_host() {
        assert_eq!(
            resolve_tcp_addr("10.1.2.3:99"),
            Ok("10.1.2.3:99".parse().unwrap())
        );
        assert_eq!(resolve_tcp_addr("[::1]:7"), Ok("[::1]:7".parse().unwrap()));
        assert_eq!(resolve_tcp_addr(":7"), Ok("127.0.0.1:7".parse().unwrap()));
        assert_eq!(
            resolve_tcp_addr("localhost:7").map(|a| a.port()),
            Ok(7),
            "localhost resolves through the system"
        );
        assert_eq!(
            resolve_tcp_addr("no-such-host.invalid:7"),
            Err("lookup no-such-host.invalid: no such host".to_owned())
        );
    }
}
