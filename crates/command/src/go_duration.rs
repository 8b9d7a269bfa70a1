//! Durations as Go's `time.ParseDuration` reads them (`-lock-timeout=30s`,
//! `1m30s`, `1.5h`, `300ms`, `0`): what OpenTofu's duration flags accept.

use std::time::Duration;

/// Parses a Go duration; `None` where Go reports a parse error. Negative
/// durations are accepted and mean zero (a wait that never waits).
pub fn parse_go_duration(s: &str) -> Option<Duration> {
    let (negative, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(Duration::ZERO);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let num = &rest[..num_len];
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return None;
        }
        let value: f64 = num.parse().ok()?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let seconds_per_unit = match &rest[..unit_len] {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        rest = &rest[unit_len..];
        total += value * seconds_per_unit;
    }
    if negative {
        return Some(Duration::ZERO);
    }
    Duration::try_from_secs_f64(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_duration_forms() {
        let ms = Duration::from_millis;
        let cases: &[(&str, Option<Duration>)] = &[
            ("0", Some(Duration::ZERO)),
            ("0s", Some(Duration::ZERO)),
            ("30s", Some(ms(30_000))),
            ("300ms", Some(ms(300))),
            ("1m30s", Some(ms(90_000))),
            ("1.5h", Some(ms(5_400_000))),
            ("2us", Some(Duration::from_micros(2))),
            ("-5s", Some(Duration::ZERO)),
            ("", None),
            ("5", None),
            ("s", None),
            ("1.2.3s", None),
            ("10 s", None),
            ("10x", None),
        ];
        for (input, want) in cases {
            assert_eq!(parse_go_duration(input), *want, "{input:?}");
        }
    }
}
