//! Durations as Go's `time.ParseDuration` reads them (`-lock-timeout=30s`,
//! `1m30s`, `1.5h`, `300ms`, `0`): what OpenTofu's duration flags accept.
//! The parser is the one `timeadd` uses (`lang::functions::datetime`).

use std::time::Duration;

/// Parses a Go duration; `None` where Go reports a parse error. Negative
/// durations are accepted and mean zero (a wait that never waits).
pub fn parse_go_duration(s: &str) -> Option<Duration> {
    let nanos = lang::functions::datetime::parse_duration(s).ok()?;
    Some(Duration::from_nanos(u64::try_from(nanos).unwrap_or(0)))
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
