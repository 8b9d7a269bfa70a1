//! Date and time functions: formatdate (go-cty), timeadd, timecmp,
//! timestamp and plantimestamp (OpenTofu `funcs/datetime.go`), with ports
//! of Go's RFC 3339 parsing errors and `time.ParseDuration`.

use chrono::{DateTime, Datelike, Duration, FixedOffset, NaiveDate, NaiveTime, Timelike, Utc};
use cty::{Type, Value};

use crate::functions::framework::{static_return, FnError, Function, FunctionTable, Param};

/// A parsed timestamp: the instant with its offset.
type Ts = DateTime<FixedOffset>;

/// Go `time.ParseError` fields as the callers use them.
struct ParseError {
    layout_elem: &'static str,
    value_elem: String,
    message: String,
}

fn perr(layout_elem: &'static str, value_elem: &str) -> ParseError {
    ParseError {
        layout_elem,
        value_elem: value_elem.to_string(),
        message: String::new(),
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    let b = s.as_bytes();
    if b.len() < n || !b[..n].iter().all(u8::is_ascii_digit) {
        return None;
    }
    s[..n].parse().ok()
}

/// Go `time.Parse(time.RFC3339, s)`; also reports whether the hour had a
/// single digit (which Go accepts).
fn go_parse_rfc3339(s: &str) -> Result<(Ts, bool), ParseError> {
    let mut v = s;
    let skip = |v: &mut &str, lit: &'static str| -> Result<(), ParseError> {
        if let Some(r) = v.strip_prefix(lit) {
            *v = r;
            Ok(())
        } else {
            Err(perr(lit, v))
        }
    };
    let year = digits(v, 4).ok_or_else(|| perr("2006", v))? as i32;
    v = &v[4..];
    skip(&mut v, "-")?;
    let month = digits(v, 2).ok_or_else(|| perr("01", v))?;
    v = &v[2..];
    if !(1..=12).contains(&month) {
        return Err(ParseError {
            message: ": month out of range".into(),
            ..perr("01", v)
        });
    }
    skip(&mut v, "-")?;
    let day = digits(v, 2).ok_or_else(|| perr("02", v))?;
    v = &v[2..];
    skip(&mut v, "T")?;
    let (hour, short_hour) = match (digits(v, 2), digits(v, 1)) {
        (Some(h), _) => {
            v = &v[2..];
            (h, false)
        }
        (None, Some(h)) => {
            v = &v[1..];
            (h, true)
        }
        _ => return Err(perr("15", v)),
    };
    if hour >= 24 {
        return Err(ParseError {
            message: ": hour out of range".into(),
            ..perr("15", v)
        });
    }
    skip(&mut v, ":")?;
    let minute = digits(v, 2).ok_or_else(|| perr("04", v))?;
    v = &v[2..];
    if minute >= 60 {
        return Err(ParseError {
            message: ": minute out of range".into(),
            ..perr("04", v)
        });
    }
    skip(&mut v, ":")?;
    let second = digits(v, 2).ok_or_else(|| perr("05", v))?;
    v = &v[2..];
    if second >= 60 {
        return Err(ParseError {
            message: ": second out of range".into(),
            ..perr("05", v)
        });
    }
    let mut nanos = 0u32;
    let b = v.as_bytes();
    if b.len() >= 2 && (b[0] == b'.' || b[0] == b',') && b[1].is_ascii_digit() {
        let n = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let frac = &v[1..n];
        let mut ns = String::from(frac);
        ns.truncate(9);
        while ns.len() < 9 {
            ns.push('0');
        }
        nanos = ns.parse().unwrap_or(0);
        v = &v[n..];
    }
    let offset = if let Some(r) = v.strip_prefix('Z') {
        v = r;
        0
    } else {
        let b = v.as_bytes();
        if b.len() < 6 || b[3] != b':' {
            return Err(perr("Z07:00", v));
        }
        // The sign first: an ASCII byte there makes 1 and (after two
        // digits and the colon) 4 character boundaries to slice at; a
        // multi-byte character there (a byte-order mark) is no offset.
        let sign = match b[0] {
            b'+' => 1,
            b'-' => -1,
            _ => return Err(perr("Z07:00", v)),
        };
        let (hr, mm) = match digits(&v[1..], 2) {
            Some(h) => match digits(&v[4..], 2) {
                Some(m) => (h, m),
                None => return Err(perr("Z07:00", v)),
            },
            None => return Err(perr("Z07:00", v)),
        };
        v = &v[6..];
        if hr > 24 || mm > 60 {
            return Err(ParseError {
                message: ": time zone offset out of range".into(),
                ..perr("Z07:00", v)
            });
        }
        sign * (hr as i32 * 3600 + mm as i32 * 60)
    };
    if !v.is_empty() {
        return Err(ParseError {
            message: format!(": extra text: {}", cty::format::go_quote(v)),
            ..perr("", v)
        });
    }
    let day_err = || ParseError {
        layout_elem: "",
        value_elem: String::new(),
        message: ": day out of range".into(),
    };
    let date = NaiveDate::from_ymd_opt(year, month, day).ok_or_else(day_err)?;
    let time = NaiveTime::from_hms_nano_opt(hour, minute, second, nanos).ok_or_else(day_err)?;
    let tz = FixedOffset::east_opt(offset).ok_or_else(|| perr("Z07:00", ""))?;
    let ts = date
        .and_time(time)
        .and_local_timezone(tz)
        .single()
        .ok_or_else(day_err)?;
    Ok((ts, short_hour))
}

/// The timestamp-parsing error texts; `strict` adds go-cty's extra hour
/// and minute messages (formatdate) over OpenTofu's own (timeadd, timecmp).
fn parse_timestamp(s: &str, strict: bool) -> Result<Ts, String> {
    let e = match go_parse_rfc3339(s) {
        Ok((_, true)) if strict => {
            return Err("not a valid RFC3339 timestamp: hour must have exactly two digits".into())
        }
        Ok((t, _)) => return Ok(t),
        Err(e) => e,
    };
    if e.layout_elem.is_empty() && e.value_elem.is_empty() && !e.message.is_empty() {
        return Err(format!("not a valid RFC3339 timestamp{}", e.message));
    }
    let what = match e.layout_elem {
        "2006" => "year",
        "01" => "month",
        "02" => "day of month",
        "15" => "hour",
        "04" => "minute",
        "05" => "second",
        "Z07:00" => "UTC offset",
        "T" => {
            return Err(
                "not a valid RFC3339 timestamp: missing required time introducer 'T'".into(),
            )
        }
        ":" | "-" => {
            return Err(if e.value_elem.is_empty() {
                format!(
                    "not a valid RFC3339 timestamp: end of string where {} is expected",
                    cty::format::go_quote(e.layout_elem)
                )
            } else {
                format!(
                    "not a valid RFC3339 timestamp: found {} where {} is expected",
                    cty::format::go_quote(&e.value_elem),
                    cty::format::go_quote(e.layout_elem)
                )
            })
        }
        _ => "timestamp segment",
    };
    if e.value_elem.is_empty() {
        return Err(format!(
            "not a valid RFC3339 timestamp: end of string before {what}"
        ));
    }
    if strict {
        if what == "hour" && e.value_elem.contains(':') {
            return Err(
                "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive".into(),
            );
        }
        if what == "hour" && e.value_elem.len() != 2 {
            return Err("not a valid RFC3339 timestamp: hour must have exactly two digits".into());
        }
        if what == "minute" && e.value_elem.len() != 2 {
            return Err(
                "not a valid RFC3339 timestamp: minute must have exactly two digits".into(),
            );
        }
    }
    Err(format!(
        "not a valid RFC3339 timestamp: cannot use {} as {what}",
        cty::format::go_quote(&e.value_elem)
    ))
}

/// Go `t.Format(time.RFC3339)`.
fn format_rfc3339(t: &Ts) -> String {
    let off = t.offset().local_minus_utc();
    let zone = if off == 0 {
        "Z".to_string()
    } else {
        go_offset(off, true)
    };
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{zone}",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

fn go_offset(off: i32, colon: bool) -> String {
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.abs();
    if colon {
        format!("{sign}{:02}:{:02}", a / 3600, (a % 3600) / 60)
    } else {
        format!("{sign}{:02}{:02}", a / 3600, (a % 3600) / 60)
    }
}

/// Go `time.ParseDuration`, in nanoseconds (also what OpenTofu's duration
/// flags such as `-lock-timeout` accept).
pub fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", cty::format::go_quote(orig));
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.chars().next() {
        if c == '-' || c == '+' {
            neg = c == '-';
            s = &s[1..];
        }
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for c in &b[..n] {
            v = v
                .checked_mul(10)
                .and_then(|x| x.checked_add(u64::from(c - b'0')))
                .filter(|x| *x <= LIMIT)
                .ok_or_else(invalid)?;
        }
        let pre = n > 0;
        s = &s[n..];
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(r) = s.strip_prefix('.') {
            s = r;
            let m = s.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in s[..m].bytes() {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = m > 0;
            s = &s[m..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let i = s
            .bytes()
            .position(|c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if i == 0 {
            return Err(format!(
                "time: missing unit in duration {}",
                cty::format::go_quote(orig)
            ));
        }
        let u = &s[..i];
        s = &s[i..];
        let unit: u64 = match u {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    cty::format::go_quote(u),
                    cty::format::go_quote(orig)
                ))
            }
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i128).wrapping_neg() as i64);
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}

fn s(name: &str) -> Param {
    Param::new(name, Type::String)
}

fn verb_err(tok: &str, rest: &str) -> FnError {
    let q = cty::format::go_quote(tok);
    if rest.is_empty() {
        FnError::arg(0, format!("invalid date format verb {q}"))
    } else {
        FnError::arg(0, format!("invalid date format verb {q}: {rest}"))
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// go-cty `splitDateFormat` tokens.
fn split_date_format(f: &str) -> Vec<&str> {
    let b = f.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
            } else {
                i += 1;
                loop {
                    if i >= b.len() {
                        break;
                    }
                    if b[i] == b'\'' {
                        if b.get(i + 1) == Some(&b'\'') {
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    i += 1;
                }
            }
        } else if b[i].is_ascii_alphabetic() {
            let rep = b[i];
            while i < b.len() && b[i] == rep {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && b[i] != b'\'' && !b[i].is_ascii_alphabetic() {
                i += 1;
            }
        }
        toks.push(&f[start..i]);
    }
    toks
}

fn formatdate(fmt: &str, t: &Ts) -> Result<String, FnError> {
    let mut buf = String::new();
    for tok in split_date_format(fmt) {
        let first = tok.as_bytes()[0];
        let n = tok.len();
        if first == b'\'' {
            if !tok.ends_with('\'') || n == 1 {
                return Err(FnError::arg(0, "unterminated literal '"));
            }
            if n == 2 {
                buf.push('\'');
            } else {
                buf.push_str(&tok[1..n - 1].replace("''", "'"));
            }
            continue;
        }
        if !first.is_ascii_alphabetic() {
            buf.push_str(tok);
            continue;
        }
        let off = t.offset().local_minus_utc();
        match first {
            b'Y' => match n {
                2 => buf.push_str(&format!("{:02}", t.year().rem_euclid(100))),
                4 => buf.push_str(&format!("{:04}", t.year())),
                _ => return Err(verb_err(tok, "year must either be \"YY\" or \"YYYY\"")),
            },
            b'M' => {
                let m = t.month() as usize;
                match n {
                    1 => buf.push_str(&m.to_string()),
                    2 => buf.push_str(&format!("{m:02}")),
                    3 => buf.push_str(&MONTHS[m - 1][..3]),
                    4 => buf.push_str(MONTHS[m - 1]),
                    _ => {
                        return Err(verb_err(
                            tok,
                            "month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"",
                        ))
                    }
                }
            }
            b'D' => match n {
                1 => buf.push_str(&t.day().to_string()),
                2 => buf.push_str(&format!("{:02}", t.day())),
                _ => return Err(verb_err(tok, "day of month must either be \"D\" or \"DD\"")),
            },
            b'E' => {
                let d = WEEKDAYS[t.weekday().num_days_from_monday() as usize];
                match n {
                    3 => buf.push_str(&d[..3]),
                    4 => buf.push_str(d),
                    _ => {
                        return Err(verb_err(
                            tok,
                            "day of week must either be \"EEE\" or \"EEEE\"",
                        ))
                    }
                }
            }
            b'h' => match n {
                1 => buf.push_str(&t.hour().to_string()),
                2 => buf.push_str(&format!("{:02}", t.hour())),
                _ => return Err(verb_err(tok, "24-hour must either be \"h\" or \"hh\"")),
            },
            b'H' => {
                let h = match t.hour() % 12 {
                    0 => 12,
                    h => h,
                };
                match n {
                    1 => buf.push_str(&h.to_string()),
                    2 => buf.push_str(&format!("{h:02}")),
                    _ => return Err(verb_err(tok, "12-hour must either be \"H\" or \"HH\"")),
                }
            }
            b'A' | b'a' => {
                if n != 2 {
                    let c = &tok[..1];
                    return Err(verb_err(tok, &format!("must be \"{c}{c}\"")));
                }
                let pm = t.hour() >= 12;
                buf.push_str(match (first == b'A', pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "am",
                    (false, true) => "pm",
                });
            }
            b'm' => match n {
                1 => buf.push_str(&t.minute().to_string()),
                2 => buf.push_str(&format!("{:02}", t.minute())),
                _ => return Err(verb_err(tok, "minute must either be \"m\" or \"mm\"")),
            },
            b's' => match n {
                1 => buf.push_str(&t.second().to_string()),
                2 => buf.push_str(&format!("{:02}", t.second())),
                _ => return Err(verb_err(tok, "second must either be \"s\" or \"ss\"")),
            },
            b'Z' => match n {
                1 => buf.push_str(&if off == 0 {
                    "Z".to_string()
                } else {
                    go_offset(off, true)
                }),
                3 => buf.push_str(&if off == 0 {
                    "UTC".to_string()
                } else {
                    go_offset(off, false)
                }),
                4 => buf.push_str(&go_offset(off, false)),
                5 => buf.push_str(&go_offset(off, true)),
                _ => return Err(verb_err(tok, "timezone must be Z, ZZZZ, or ZZZZZ")),
            },
            _ => return Err(verb_err(tok, "")),
        }
    }
    Ok(buf)
}

fn formatdate_fn() -> Function {
    Function::new(
        vec![s("format"), s("time")],
        None,
        static_return(Type::String),
        |args, _| {
            let t = parse_timestamp(args[1].as_str().unwrap_or_default(), true)
                .map_err(|e| FnError::arg(1, e))?;
            Ok(Value::string(formatdate(
                args[0].as_str().unwrap_or_default(),
                &t,
            )?))
        },
    )
}

fn timeadd_fn() -> Function {
    Function::new(
        vec![s("timestamp"), s("duration")],
        None,
        static_return(Type::String),
        |args, _| {
            let ts = parse_timestamp(args[0].as_str().unwrap_or_default(), false)
                .map_err(FnError::general)?;
            let d =
                parse_duration(args[1].as_str().unwrap_or_default()).map_err(FnError::general)?;
            let t = ts
                .checked_add_signed(Duration::nanoseconds(d))
                .ok_or_else(|| FnError::general("resulting time is out of range"))?;
            Ok(Value::string(format_rfc3339(&t)))
        },
    )
}

fn timecmp_fn() -> Function {
    Function::new(
        vec![s("timestamp_a"), s("timestamp_b")],
        None,
        static_return(Type::Number),
        |args, _| {
            let a = parse_timestamp(args[0].as_str().unwrap_or_default(), false)
                .map_err(|e| FnError::arg(0, e))?;
            let b = parse_timestamp(args[1].as_str().unwrap_or_default(), false)
                .map_err(|e| FnError::arg(1, e))?;
            Ok(Value::number_int(match a.cmp(&b) {
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => 1,
            }))
        },
    )
}

/// `timestamp()`: the current time in UTC (impure; see
/// [`register_impure`](super::crypto::register_impure)).
pub(crate) fn timestamp_fn() -> Function {
    Function::new(vec![], None, static_return(Type::String), |_, _| {
        let now = Utc::now().fixed_offset();
        Ok(Value::string(format_rfc3339(&now)))
    })
}

/// `plantimestamp()` for a plan made at `plan_time`; with `None` (validate
/// and other passes without a plan) it returns an unknown string.
pub fn plantimestamp_function(plan_time: Option<DateTime<Utc>>) -> Function {
    Function::new(vec![], None, static_return(Type::String), move |_, _| {
        Ok(match plan_time {
            Some(t) => Value::string(format_rfc3339(&t.fixed_offset())),
            None => Value::unknown(Type::String),
        })
    })
}

/// Registers this family's functions; `plantimestamp` returns unknown
/// until the caller replaces it with [`plantimestamp_function`]`(Some(t))`.
pub fn register(table: &mut FunctionTable) {
    table.insert("formatdate", formatdate_fn());
    table.insert("timeadd", timeadd_fn());
    table.insert("timecmp", timecmp_fn());
    table.insert("timestamp", timestamp_fn());
    table.insert("plantimestamp", plantimestamp_function(None));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[&str]) -> Result<Value, FnError> {
        let mut t = FunctionTable::new();
        register(&mut t);
        let args: Vec<Value> = args.iter().map(Value::string).collect();
        t.get(name).expect("registered").call(&args)
    }

    fn ok(name: &str, args: &[&str]) -> String {
        call(name, args).unwrap().as_str().unwrap().to_string()
    }

    fn err(name: &str, args: &[&str]) -> String {
        call(name, args).unwrap_err().message().to_string()
    }

    #[test]
    fn a_multibyte_character_in_the_offset_is_an_error_not_a_panic() {
        // Found by the fuzzer: a byte-order mark where the offset's sign
        // goes has a ':' three bytes on, inside the character.
        assert_eq!(
            err("formatdate", &["YYYY", "2018-01-02T23:12:01\u{feff}:00"]),
            "not a valid RFC3339 timestamp: cannot use \"\\ufeff:00\" as UTC offset"
        );
        assert_eq!(
            err("timeadd", &["2018-01-02T23:12:01\u{feff}:00", "1h"]),
            "not a valid RFC3339 timestamp: cannot use \"\\ufeff:00\" as UTC offset"
        );
        assert_eq!(
            err(
                "timecmp",
                &["2018-01-02T23:12:01+\u{e9}:0", "2018-01-02T23:12:01Z"]
            ),
            "not a valid RFC3339 timestamp: cannot use \"+é:0\" as UTC offset"
        );
    }

    #[test]
    fn formatdate_cases() {
        for (f, t, want) in [
            (
                "DD MMM YYYY hh:mm ZZZ",
                "2018-01-02T23:12:01Z",
                "02 Jan 2018 23:12 UTC",
            ),
            (
                "EEEE, DD-MMM-YY hh:mm:ss ZZZZZ Z ZZZZ",
                "2018-01-02T23:12:01-08:00",
                "Tuesday, 02-Jan-18 23:12:01 -08:00 -08:00 -0800",
            ),
            (
                "h:mm AA aa H HH",
                "2018-01-02T00:02:01+05:30",
                "0:02 AM am 12 12",
            ),
            (
                "'quoted''s' YYYY ''",
                "2018-01-02T23:12:01Z",
                "quoted's 2018 '",
            ),
            ("s ss D", "2018-01-02T23:12:01.5Z", "1 01 2"),
            (
                "M MM MMMM EEE",
                "2018-09-02T23:12:01Z",
                "9 09 September Sun",
            ),
            ("ZZZ ZZZZ", "2018-01-02T23:12:01Z", "UTC +0000"),
            ("hh:mm aa", "2018-01-02T13:12:01Z", "13:12 pm"),
            ("YYYY/MM/DD", "2018-01-02T23:12:01Z", "2018/01/02"),
        ] {
            assert_eq!(ok("formatdate", &[f, t]), want, "{f}");
        }
        for (f, t, want) in [
            ("'abc", "2018-01-02T23:12:01Z", "unterminated literal '"),
            (
                "YYY",
                "2018-01-02T23:12:01Z",
                "invalid date format verb \"YYY\": year must either be \"YY\" or \"YYYY\"",
            ),
            (
                "q",
                "2018-01-02T23:12:01Z",
                "invalid date format verb \"q\"",
            ),
            (
                "x",
                "2018-13-02T23:12:01Z",
                "not a valid RFC3339 timestamp: cannot use \"-02T23:12:01Z\" as month",
            ),
            (
                "x",
                "2018-01-32T23:12:01Z",
                "not a valid RFC3339 timestamp: day out of range",
            ),
            (
                "x",
                "2018-02-29T23:12:01Z",
                "not a valid RFC3339 timestamp: day out of range",
            ),
            (
                "x",
                "2018-01-02 23:12:01Z",
                "not a valid RFC3339 timestamp: missing required time introducer 'T'",
            ),
            (
                "x",
                "2018-01-02T3:12:01Z",
                "not a valid RFC3339 timestamp: hour must have exactly two digits",
            ),
            (
                "x",
                "2018-01-02T23:12",
                "not a valid RFC3339 timestamp: end of string where \":\" is expected",
            ),
            (
                "x",
                "2018-01-02T23:12:01",
                "not a valid RFC3339 timestamp: end of string before UTC offset",
            ),
            (
                "x",
                "2018-01-02T23:12:01Zabc",
                "not a valid RFC3339 timestamp: cannot use \"abc\" as timestamp segment",
            ),
            (
                "x",
                "18-01-02T23:12:01Z",
                "not a valid RFC3339 timestamp: cannot use \"18-01-02T23:12:01Z\" as year",
            ),
            (
                "x",
                "2018-01-02T25:12:01Z",
                "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive",
            ),
            (
                "x",
                "2018-1-02T23:12:01Z",
                "not a valid RFC3339 timestamp: cannot use \"1-02T23:12:01Z\" as month",
            ),
            (
                "x",
                "2018-01-02T23:12:01+0100",
                "not a valid RFC3339 timestamp: cannot use \"+0100\" as UTC offset",
            ),
            (
                "x",
                "2018-01-02T23:60:01Z",
                "not a valid RFC3339 timestamp: minute must have exactly two digits",
            ),
            (
                "x",
                "2018-01-02T23:12:01+25:00",
                "not a valid RFC3339 timestamp: end of string before UTC offset",
            ),
            (
                "x",
                "",
                "not a valid RFC3339 timestamp: end of string before year",
            ),
            (
                "x",
                "2018-01-02T23:1:01Z",
                "not a valid RFC3339 timestamp: minute must have exactly two digits",
            ),
        ] {
            assert_eq!(err("formatdate", &[f, t]), want, "{f} {t}");
        }
    }

    #[test]
    fn timeadd_cases() {
        for (t, d, want) in [
            ("2017-11-22T00:00:00Z", "1s", "2017-11-22T00:00:01Z"),
            ("2017-11-22T00:00:00Z", "10m1s", "2017-11-22T00:10:01Z"),
            ("2017-11-22T00:00:00Z", "-1h", "2017-11-21T23:00:00Z"),
            ("2017-11-22T00:00:00Z", "1.5h", "2017-11-22T01:30:00Z"),
            (
                "2017-11-22T00:00:00+01:00",
                "24h",
                "2017-11-23T00:00:00+01:00",
            ),
            ("2017-11-22T00:00:00.9Z", "0", "2017-11-22T00:00:00Z"),
            ("2017-11-22T00:00:00Z", "1µs", "2017-11-22T00:00:00Z"),
        ] {
            assert_eq!(ok("timeadd", &[t, d]), want, "{t} {d}");
        }
        for (t, d, want) in [
            (
                "2017-11-22T00:00:00Z",
                "1y",
                "time: unknown unit \"y\" in duration \"1y\"",
            ),
            (
                "2017-11-22T00:00:00Z",
                "1",
                "time: missing unit in duration \"1\"",
            ),
            ("2017-11-22T00:00:00Z", "x", "time: invalid duration \"x\""),
            ("2017-11-22T00:00:00Z", "", "time: invalid duration \"\""),
            (
                "2017-11-22T00:00:00Z",
                "99999999999999999999h",
                "time: invalid duration \"99999999999999999999h\"",
            ),
            (
                "2017-11-22T00:00:00Z",
                "3000000h",
                "time: invalid duration \"3000000h\"",
            ),
            (
                "2017-11-22",
                "1s",
                "not a valid RFC3339 timestamp: missing required time introducer 'T'",
            ),
        ] {
            assert_eq!(err("timeadd", &[t, d]), want, "{t} {d}");
        }
    }

    #[test]
    fn timecmp_cases() {
        let n = |a: &str, b: &str| {
            call("timecmp", &[a, b])
                .unwrap()
                .as_number()
                .unwrap()
                .to_i64()
        };
        assert_eq!(n("2017-11-22T00:00:00Z", "2017-11-22T00:00:00Z"), Some(0));
        assert_eq!(
            n("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00"),
            Some(0)
        );
        assert_eq!(n("2017-11-22T00:00:01Z", "2017-11-22T01:00:00Z"), Some(-1));
        assert_eq!(n("2017-11-22T02:00:00Z", "2017-11-22T01:00:00Z"), Some(1));
        let e = call("timecmp", &["2017-11-22T00:00:00Z", "bloop"]).unwrap_err();
        assert_eq!(
            e,
            FnError::arg(
                1,
                "not a valid RFC3339 timestamp: cannot use \"bloop\" as year"
            )
        );
    }

    #[test]
    fn timestamps() {
        let t = ok("timestamp", &[]);
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.ends_with('Z'));
        assert!(!call("plantimestamp", &[]).unwrap().is_known());
        let when = DateTime::parse_from_rfc3339("2024-05-06T07:08:09Z")
            .unwrap()
            .with_timezone(&Utc);
        let v = plantimestamp_function(Some(when)).call(&[]).unwrap();
        assert_eq!(v, Value::string("2024-05-06T07:08:09Z"));
    }
}
