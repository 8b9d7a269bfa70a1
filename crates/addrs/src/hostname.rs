//! Service hostnames (`svchost`): the host part of registry module and
//! provider addresses, normalized for comparison (lowercase, punycode,
//! default port dropped) and shown back in Unicode.

use std::fmt;

/// A hostname already normalized for comparison: ASCII (punycode for
/// international names) and lowercase, with an optional `:port` (never
/// `:443`). Compare with `==`; show with [`Hostname::for_display`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hostname(String);

impl Hostname {
    /// A hostname known to be normalized already (constants, tests).
    pub fn from_normalized(s: impl Into<String>) -> Hostname {
        Hostname(s.into())
    }

    /// `svchost.ForComparison`: validates and normalizes a user-written
    /// hostname.
    pub fn for_comparison(given: &str) -> Result<Hostname, String> {
        let (name, port) = match given.find(':') {
            Some(i) => (&given[..i], &given[i..]),
            None => (given, ""),
        };
        let port = match normalize_port(port) {
            Ok(p) => p,
            Err(e) => {
                let lower = name.to_lowercase();
                if lower == "https" || lower == "http" {
                    return Err(
                        "need just a hostname and optional port number, not a full URL".to_string(),
                    );
                }
                return Err(e);
            }
        };
        if name.is_empty() {
            return Err("empty string is not a valid hostname".to_string());
        }
        for label in name.split(['.', '\u{3002}', '\u{ff0e}', '\u{ff61}']) {
            if label.is_empty() {
                return Err("hostname contains empty label (two consecutive periods)".to_string());
            }
            if label.starts_with("xn--") {
                return Err(format!(
                    "hostname label {} specified in punycode format; service hostnames must be given in unicode",
                    crate::gourl::go_quote(label)
                ));
            }
        }
        let ascii = lookup_to_ascii(name)?;
        Ok(Hostname(ascii + &port))
    }

    /// The hostname with international labels shown in Unicode.
    pub fn for_display(&self) -> String {
        let (name, port) = match self.0.find(':') {
            Some(i) => (&self.0[..i], &self.0[i..]),
            None => (self.0.as_str(), ""),
        };
        let (unicode, result) = idna::domain_to_unicode(name);
        if result.is_err() {
            return self.0.clone();
        }
        unicode + port
    }

    /// The normalized (comparison) form.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Hostname {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// IDNA lookup profile: UTS-46 mapping, STD3 rules, hyphen checks.
fn lookup_to_ascii(name: &str) -> Result<String, String> {
    idna::Config::default()
        .use_std3_ascii_rules(true)
        .check_hyphens(true)
        .verify_dns_length(false)
        .to_ascii(name)
        .map_err(|e| {
            format!(
                "idna: invalid label {}: {e:?}",
                crate::gourl::go_quote(name)
            )
        })
}

fn normalize_port(s: &str) -> Result<String, String> {
    if s.is_empty() {
        return Ok(String::new());
    }
    let digits = &s[1..];
    if digits.is_empty()
        || !digits
            .trim_start_matches(['+', '-'])
            .bytes()
            .all(|c| c.is_ascii_digit())
    {
        return Err("port portion contains non-digit characters".to_string());
    }
    let num: i64 = match digits.parse() {
        Ok(n) => n,
        Err(_) => return Err("port portion contains non-digit characters".to_string()),
    };
    if num == 443 {
        return Ok(String::new());
    }
    if num > 65535 {
        return Err("port number is greater than 65535".to_string());
    }
    Ok(format!(":{num}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization() {
        let cases = [
            ("example.com", Ok("example.com"), "example.com"),
            (
                "Example.com:1234",
                Ok("example.com:1234"),
                "example.com:1234",
            ),
            ("example.com:443", Ok("example.com"), "example.com"),
            ("Испытание.com", Ok("xn--80akhbyknj4f.com"), "испытание.com"),
            ("---.com", Err(()), ""),
            ("xn--80akhbyknj4f.com", Err(()), ""),
            ("foo..com", Err(()), ""),
            ("example.com:99999", Err(()), ""),
            ("https://example.com", Err(()), ""),
            ("", Err(()), ""),
        ];
        for (input, want, display) in cases {
            let got = Hostname::for_comparison(input);
            match want {
                Ok(w) => {
                    let h = got.unwrap_or_else(|e| panic!("{input}: {e}"));
                    assert_eq!(h.as_str(), w, "{input}");
                    assert_eq!(h.for_display(), display, "{input}");
                }
                Err(()) => assert!(got.is_err(), "{input} should fail: {got:?}"),
            }
        }
    }
}
