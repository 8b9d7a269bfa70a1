//! `format`: cty's printf-like formatting (`stdlib/format.go` and its
//! ragel scanner), with Go's `fmt` rules for numbers and cty's grapheme
//! based widths and precisions for strings.

use cty::convert::convert;
use cty::{Number, Type, Value};
use num_bigint::{BigInt, Sign};
use unicode_segmentation::UnicodeSegmentation;

use crate::functions::framework::{FnError, Function, FunctionTable, Param};

pub(super) fn register(t: &mut FunctionTable) {
    t.insert(
        "format",
        Function::new(
            vec![Param::new("format", Type::String)],
            Some(
                Param::new("args", Type::Dynamic)
                    .allow_null()
                    .allow_unknown(),
            ),
            |_| Ok(Type::String),
            |args, _| {
                if args[1..].iter().any(|a| !a.is_wholly_known()) {
                    return Ok(Value::unknown(Type::String));
                }
                let s = format_values(args[0].as_str().unwrap_or_default(), &args[1..])?;
                Ok(Value::string(s))
            },
        ),
    );
}

/// One `%...` sequence.
#[derive(Debug, Default)]
struct Verb<'a> {
    raw: &'a str,
    offset: usize,
    arg_num: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    prec: Option<usize>,
    width: Option<usize>,
    /// Go's `fmt` gives up on this width or precision (see
    /// [`go_num_overflows`]).
    go_overflow: bool,
}

/// Go `fmt`'s `parsenum`: reading another digit once the number is past
/// 10^6 is an overflow, after which `fmt` prints `%!(NOVERB)` and the
/// argument as `%!(EXTRA type=value)`. go-cty hands number verbs to `fmt`,
/// so `format("%99999999d", 1)` is that text, not a padded number.
fn go_num_overflows(digits: &str) -> bool {
    let mut num: u64 = 0;
    for d in digits.bytes() {
        if num > 1_000_000 {
            return true;
        }
        num = num * 10 + u64::from(d - b'0');
    }
    false
}

/// Go's `%q` of a rune (`strconv.QuoteRune`).
fn quote_rune(c: char) -> String {
    gocompat::quote::quote_rune(c)
}

/// Formats `args` according to `fmt` (the `format` function without its
/// unknown handling). Errors about surplus arguments are argument errors
/// at the first unused argument (counting the format string as 0).
pub fn format_values(fmt: &str, args: &[Value]) -> Result<String, FnError> {
    let bytes = fmt.as_bytes();
    let mut buf = String::new();
    let mut next_arg = 1usize;
    let mut highest = 0usize;
    let mut p = 0usize;
    let invalid_at = |p: usize| {
        let c = fmt[p..].chars().next().unwrap_or('\u{fffd}');
        FnError::general(format!(
            "unrecognized format character {} at offset {p}",
            quote_rune(c)
        ))
    };
    while p < bytes.len() {
        if bytes[p] != b'%' {
            let next = fmt[p..].find('%').map_or(bytes.len(), |i| p + i);
            buf.push_str(&fmt[p..next]);
            p = next;
            continue;
        }
        let start = p;
        p += 1;
        if p < bytes.len() && bytes[p] == b'%' {
            buf.push('%');
            p += 1;
            continue;
        }
        let mut verb = Verb {
            offset: start,
            arg_num: next_arg,
            ..Verb::default()
        };
        // Flags.
        while p < bytes.len() {
            match bytes[p] {
                b' ' => verb.space = true,
                b'#' => verb.sharp = true,
                b'+' => verb.plus = true,
                b'-' => verb.minus = true,
                b'0' => verb.zero = true,
                _ => break,
            }
            p += 1;
        }
        // Width.
        let ws = p;
        while p < bytes.len() && bytes[p].is_ascii_digit() {
            p += 1;
        }
        if p > ws {
            verb.width = Some(fmt[ws..p].parse().unwrap_or(usize::MAX));
            verb.go_overflow |= go_num_overflows(&fmt[ws..p]);
        }
        // Precision.
        if p < bytes.len() && bytes[p] == b'.' {
            p += 1;
            let ps = p;
            while p < bytes.len() && bytes[p].is_ascii_digit() {
                p += 1;
            }
            verb.prec = Some(if p > ps {
                fmt[ps..p].parse().unwrap_or(usize::MAX)
            } else {
                0
            });
            verb.go_overflow |= go_num_overflows(&fmt[ps..p]);
        }
        // Explicit argument index: after width and precision in go-cty's
        // grammar (`%5[1]d`; `%[1]5d` is an unrecognized '5').
        if p < bytes.len() && bytes[p] == b'[' {
            p += 1;
            let ds = p;
            // go-cty's grammar: an argument index starts with 1-9.
            if bytes.get(p) == Some(&b'0') {
                return Err(invalid_at(p));
            }
            while p < bytes.len() && bytes[p].is_ascii_digit() {
                p += 1;
            }
            if p >= bytes.len() {
                return Err(eof_error(p));
            }
            if p == ds || bytes[p] != b']' {
                return Err(invalid_at(p));
            }
            verb.arg_num = fmt[ds..p].parse().unwrap_or(usize::MAX);
            p += 1;
        }
        if p >= bytes.len() {
            return Err(eof_error(p));
        }
        let c = bytes[p];
        if !c.is_ascii_alphabetic() {
            return Err(invalid_at(p));
        }
        verb.mode = c as char;
        verb.raw = &fmt[start..=p];
        p += 1;
        append_verb(&verb, &mut buf, args)?;
        next_arg = verb.arg_num + 1;
        highest = highest.max(verb.arg_num);
    }
    if highest < args.len() {
        let first_bad = highest + 1;
        if highest == 0 {
            return Err(FnError::arg(
                first_bad,
                "too many arguments; no verbs in format string",
            ));
        }
        return Err(FnError::arg(
            first_bad,
            format!("too many arguments; only {highest} used by format string"),
        ));
    }
    Ok(buf)
}

fn eof_error(p: usize) -> FnError {
    FnError::general(format!("invalid format string starting at offset {p}"))
}

fn unsupported(verb: &Verb<'_>, msg: impl std::fmt::Display) -> FnError {
    FnError::general(format!(
        "unsupported value for {} at {}: {msg}",
        crate::functions::quote(verb.raw),
        verb.offset
    ))
}

/// String widths past this are refused rather than padded: go-cty pads
/// `%s`, `%q` and `%v` to any width, and a billion characters exhausts
/// memory. (Number verbs follow Go's `fmt`, which has its own limit.)
const MAX_PAD_WIDTH: usize = 10_000_000;

fn append_verb(verb: &Verb<'_>, buf: &mut String, args: &[Value]) -> Result<(), FnError> {
    let Some(arg) = verb.arg_num.checked_sub(1).and_then(|i| args.get(i)) else {
        return Err(FnError::general(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            crate::functions::quote(verb.raw),
            verb.offset,
            verb.arg_num,
            args.len()
        )));
    };
    if verb.mode != 'v' && arg.is_null() {
        return Err(unsupported(verb, "null value cannot be formatted"));
    }
    if matches!(verb.mode, 's' | 'q' | 'v') && verb.width.is_some_and(|w| w > MAX_PAD_WIDTH) {
        return Err(unsupported(verb, "width or precision too large"));
    }
    match verb.mode {
        'v' => append_as_is(verb, buf, arg),
        't' => {
            let b = convert(arg, &Type::Bool).map_err(|e| unsupported(verb, e))?;
            buf.push_str(if b.as_bool() == Some(true) {
                "true"
            } else {
                "false"
            });
            Ok(())
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = convert(arg, &Type::Number).map_err(|e| unsupported(verb, e))?;
            let n = n
                .as_number()
                .cloned()
                .unwrap_or_else(|| Number::from_i64(0));
            if matches!(verb.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                let i = match n.trunc_int() {
                    Some(i) if n.is_int() => i,
                    _ => return Err(unsupported(verb, "an integer is required")),
                };
                if verb.go_overflow {
                    buf.push_str(&format!("%!(NOVERB)%!(EXTRA *big.Int={i})"));
                } else {
                    buf.push_str(&format_integer(verb, &i));
                }
            } else if verb.go_overflow {
                let g = n.text('g', -1);
                buf.push_str(&format!("%!(NOVERB)%!(EXTRA *big.Float={g})"));
            } else {
                buf.push_str(&format_float(verb, &n));
            }
            Ok(())
        }
        's' | 'q' => {
            let s = convert(arg, &Type::String).map_err(|e| unsupported(verb, e))?;
            let mut s = s.as_str().unwrap_or_default().to_string();
            if let Some(prec) = verb.prec.filter(|p| *p > 0) {
                s = s.graphemes(true).take(prec).collect();
            }
            if verb.mode == 'q' {
                s = cty::json::quote_string(&s);
            }
            buf.push_str(&pad_width(verb, s));
            Ok(())
        }
        m => Err(FnError::general(format!(
            "unsupported format verb {} in {} at offset {}",
            quote_rune(m),
            crate::functions::quote(verb.raw),
            verb.offset
        ))),
    }
}

fn append_as_is(verb: &Verb<'_>, buf: &mut String, arg: &Value) -> Result<(), FnError> {
    if !verb.sharp && !arg.is_null() {
        if let Some(s) = arg.as_str() {
            buf.push_str(&pad_width(verb, s.to_string()));
            return Ok(());
        }
        if let Some(n) = arg.as_number() {
            buf.push_str(&pad_width(verb, n.text('g', -1)));
            return Ok(());
        }
    }
    let j = if arg.is_null() {
        "null".to_string()
    } else {
        cty::json::marshal(arg).map_err(|e| unsupported(verb, e))?
    };
    buf.push_str(&pad_width(verb, j));
    Ok(())
}

/// cty's `formatPadWidth`: pads to the width in grapheme clusters.
fn pad_width(verb: &Verb<'_>, s: String) -> String {
    let Some(width) = verb.width else {
        return s;
    };
    let len = s.graphemes(true).count();
    if len >= width {
        return s;
    }
    let pad = if verb.zero { "0" } else { " " }.repeat(width - len);
    if verb.minus {
        s + &pad
    } else {
        pad + &s
    }
}

/// Go's `big.Float.Format` for `%e %E %f %g %G`.
fn format_float(verb: &Verb<'_>, n: &Number) -> String {
    let prec: i64 = match (verb.mode, verb.prec) {
        (_, Some(p)) => p as i64,
        ('g' | 'G', None) => -1,
        (_, None) => 6,
    };
    let text = n.text(verb.mode, prec);
    let (sign, body) = if let Some(rest) = text.strip_prefix('-') {
        ("-", rest.to_string())
    } else if let Some(rest) = text.strip_prefix('+') {
        (if verb.space { " " } else { "+" }, rest.to_string())
    } else if verb.plus {
        ("+", text)
    } else if verb.space {
        (" ", text)
    } else {
        ("", text)
    };
    let len = sign.len() + body.chars().count();
    let padding = verb.width.map_or(0, |w| w.saturating_sub(len));
    if verb.zero && !n.is_inf() {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if verb.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    }
}

/// Go's `big.Int.Format` for `%b %d %o %x %X`.
fn format_integer(verb: &Verb<'_>, i: &BigInt) -> String {
    let base = match verb.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let sign = if i.sign() == Sign::Minus {
        "-"
    } else if verb.plus {
        "+"
    } else if verb.space {
        " "
    } else {
        ""
    };
    let prefix = if verb.sharp {
        match verb.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let mut digits = i.magnitude().to_str_radix(base);
    if verb.mode == 'X' {
        digits = digits.to_uppercase();
    }
    let mut zeros = 0;
    if let Some(p) = verb.prec {
        if digits.len() < p {
            zeros = p - digits.len();
        } else if digits == "0" && p == 0 {
            return String::new();
        }
    }
    let length = sign.len() + prefix.len() + zeros + digits.len();
    let (mut left, mut right) = (0, 0);
    if let Some(w) = verb.width.filter(|w| length < *w) {
        let d = w - length;
        if verb.minus {
            right = d;
        } else if verb.zero && verb.prec.is_none() {
            zeros = d;
        } else {
            left = d;
        }
    }
    format!(
        "{}{sign}{prefix}{}{digits}{}",
        " ".repeat(left),
        "0".repeat(zeros),
        " ".repeat(right)
    )
}
