//! The `format` verb engine (go-cty `format_fsm.rl` and `format.go`), used
//! by `formatlist`: `%%`, flags, `[n]` argument indexes, width, precision
//! and the verbs `v t b d o x X e E f g G s q`, with Go's `fmt` rendering
//! of big numbers.

use cty::{convert::convert, Type, Value};
use unicode_segmentation::UnicodeSegmentation;

/// Widths and precisions above this are refused (Go's `fmt` also gives up
/// on them), which keeps memory bounded.
const MAX_WIDTH: usize = 1_000_000;

#[derive(Default, Debug)]
struct Verb {
    raw: String,
    offset: usize,
    arg_num: usize,
    mode: char,
    zero: bool,
    sharp: bool,
    plus: bool,
    minus: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

/// Go `%q` of a byte (`'x'`).
fn quote_byte(b: u8) -> String {
    let c = b as char;
    match b {
        b'\'' => "'\\''".to_string(),
        b'\\' => "'\\\\'".to_string(),
        b'\n' => "'\\n'".to_string(),
        b'\t' => "'\\t'".to_string(),
        b'\r' => "'\\r'".to_string(),
        0x07 => "'\\a'".to_string(),
        0x08 => "'\\b'".to_string(),
        0x0c => "'\\f'".to_string(),
        0x0b => "'\\v'".to_string(),
        0x20..=0x7e => format!("'{c}'"),
        0x00..=0x1f | 0x7f => format!("'\\x{b:02x}'"),
        // A byte above 0x7f is a rune in Latin-1 for Go's %q.
        _ => {
            let q = cty::format::go_quote(&c.to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

/// go-cty `formatFSM`.
pub(crate) fn format_fsm(format: &str, args: &[Value]) -> Result<String, String> {
    let data = format.as_bytes();
    let mut buf: Vec<u8> = Vec::with_capacity(data.len());
    let mut next_arg = 1usize;
    let mut p = 0usize;
    let text = |buf: &Vec<u8>| String::from_utf8_lossy(buf).into_owned();
    let err_char = |buf: &Vec<u8>, p: usize| {
        let _ = buf;
        format!(
            "unrecognized format character {} at offset {p}",
            quote_byte(data[p])
        )
    };
    while p < data.len() {
        if data[p] != b'%' {
            buf.push(data[p]);
            p += 1;
            continue;
        }
        let ts = p;
        p += 1;
        if p >= data.len() {
            let _ = text(&buf);
            return Err(format!("invalid format string starting at offset {p}"));
        }
        if data[p] == b'%' {
            buf.push(b'%');
            p += 1;
            continue;
        }
        let mut verb = Verb {
            arg_num: next_arg,
            ..Verb::default()
        };
        // flags
        while p < data.len() {
            match data[p] {
                b'0' => verb.zero = true,
                b'#' => verb.sharp = true,
                b'-' => verb.minus = true,
                b'+' => verb.plus = true,
                b' ' => verb.space = true,
                _ => break,
            }
            p += 1;
        }
        // [n]
        if p < data.len() && data[p] == b'[' {
            p += 1;
            if p >= data.len() {
                return Err(format!("invalid format string starting at offset {p}"));
            }
            if !(b'1'..=b'9').contains(&data[p]) {
                return Err(err_char(&buf, p));
            }
            let mut n = 0usize;
            while p < data.len() && data[p].is_ascii_digit() {
                n = n
                    .saturating_mul(10)
                    .saturating_add(usize::from(data[p] - b'0'));
                p += 1;
            }
            if p >= data.len() {
                return Err(format!("invalid format string starting at offset {p}"));
            }
            if data[p] != b']' {
                return Err(err_char(&buf, p));
            }
            p += 1;
            verb.arg_num = n;
        }
        // width
        if p < data.len() && (b'1'..=b'9').contains(&data[p]) {
            let mut n = 0usize;
            while p < data.len() && data[p].is_ascii_digit() {
                n = n
                    .saturating_mul(10)
                    .saturating_add(usize::from(data[p] - b'0'));
                p += 1;
            }
            verb.width = Some(n);
        }
        // precision
        if p < data.len() && data[p] == b'.' {
            p += 1;
            let mut n = 0usize;
            while p < data.len() && data[p].is_ascii_digit() {
                n = n
                    .saturating_mul(10)
                    .saturating_add(usize::from(data[p] - b'0'));
                p += 1;
            }
            verb.prec = Some(n);
        }
        if p >= data.len() {
            return Err(format!("invalid format string starting at offset {p}"));
        }
        if !data[p].is_ascii_alphabetic() {
            return Err(err_char(&buf, p));
        }
        verb.mode = data[p] as char;
        p += 1;
        verb.raw = format[ts..p].to_string();
        verb.offset = ts;
        format_append(&mut verb, &mut buf, args)?;
        next_arg = verb.arg_num + 1;
    }
    Ok(text(&buf))
}

fn format_append(verb: &mut Verb, buf: &mut Vec<u8>, args: &[Value]) -> Result<(), String> {
    let idx = verb.arg_num.wrapping_sub(1);
    if idx >= args.len() {
        return Err(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            cty::format::go_quote(&verb.raw),
            verb.offset,
            verb.arg_num,
            args.len()
        ));
    }
    let arg = args[idx].unmark_deep().0;
    let raw = cty::format::go_quote(&verb.raw);
    if verb.mode != 'v' && arg.is_null() {
        return Err(format!(
            "unsupported value for {raw} at {}: null value cannot be formatted",
            verb.offset
        ));
    }
    if verb.width.is_some_and(|w| w > MAX_WIDTH) || verb.prec.is_some_and(|w| w > MAX_WIDTH) {
        return Err(format!(
            "unsupported value for {raw} at {}: width or precision too large",
            verb.offset
        ));
    }
    let out = match verb.mode {
        'v' => format_as_is(verb, &arg, &raw)?,
        't' => {
            let b = convert(&arg, &Type::Bool)
                .map_err(|e| format!("unsupported value for {raw} at {}: {e}", verb.offset))?;
            if b.as_bool() == Some(true) {
                "true"
            } else {
                "false"
            }
            .to_string()
        }
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = convert(&arg, &Type::Number)
                .map_err(|e| format!("unsupported value for {raw} at {}: {e}", verb.offset))?;
            let n = n.as_number().cloned().unwrap_or(cty::Number::from_i64(0));
            if matches!(verb.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                let i = if n.is_int() && !n.is_inf() {
                    n.trunc_int()
                } else {
                    None
                };
                let Some(i) = i else {
                    return Err(format!(
                        "unsupported value for {raw} at {}: an integer is required",
                        verb.offset
                    ));
                };
                go_format_int(verb, &i)
            } else {
                go_format_float(verb, &n)
            }
        }
        's' | 'q' => {
            let s = convert(&arg, &Type::String)
                .map_err(|e| format!("unsupported value for {raw} at {}: {e}", verb.offset))?;
            let mut s = s.as_str().unwrap_or_default().to_string();
            if let Some(prec) = verb.prec.filter(|p| *p > 0) {
                let end: usize = s.graphemes(true).take(prec).map(str::len).sum();
                s.truncate(end);
            }
            if verb.mode == 'q' {
                s = cty::json::quote_string(&s);
            }
            pad_width(verb, s)
        }
        m => {
            return Err(format!(
                "unsupported format verb {} in {raw} at offset {}",
                quote_byte(m as u8),
                verb.offset
            ))
        }
    };
    buf.extend_from_slice(out.as_bytes());
    Ok(())
}

fn format_as_is(verb: &Verb, arg: &Value, raw: &str) -> Result<String, String> {
    if !verb.sharp && !arg.is_null() {
        if let Some(s) = arg.as_str() {
            return Ok(pad_width(verb, s.to_string()));
        }
        if let Some(n) = arg.as_number() {
            return Ok(pad_width(verb, n.text('g', -1)));
        }
    }
    let j = cty::json::marshal(arg)
        .map_err(|e| format!("unsupported value for {raw} at {}: {e}", verb.offset))?;
    Ok(pad_width(verb, j))
}

fn pad_width(verb: &Verb, s: String) -> String {
    let Some(want) = verb.width else { return s };
    let have = s.graphemes(true).count();
    if have >= want {
        return s;
    }
    let pad = (if verb.zero { "0" } else { " " }).repeat(want - have);
    if verb.minus {
        s + &pad
    } else {
        pad + &s
    }
}

/// Go's `fmt` flag state: `-` turns off `0`.
fn zero_flag(verb: &Verb) -> bool {
    verb.zero && !verb.minus
}

/// `fmt.Sprintf(raw, *big.Int)` (`big.Int.Format`).
fn go_format_int(verb: &Verb, x: &num_bigint::BigInt) -> String {
    use num_traits::Signed;
    let base = match verb.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let sign = if x.is_negative() {
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
    let mut digits = x.abs().to_str_radix(base);
    if verb.mode == 'X' {
        digits = digits.to_ascii_uppercase();
    }
    let mut zeros = 0;
    if let Some(prec) = verb.prec {
        if digits.len() < prec {
            zeros = prec - digits.len();
        } else if digits == "0" && prec == 0 {
            return String::new();
        }
    }
    let (mut left, mut right) = (0, 0);
    let length = sign.len() + prefix.len() + zeros + digits.len();
    if let Some(width) = verb.width {
        if length < width {
            let d = width - length;
            if verb.minus {
                right = d;
            } else if zero_flag(verb) && verb.prec.is_none() {
                zeros = d;
            } else {
                left = d;
            }
        }
    }
    format!(
        "{}{sign}{prefix}{}{digits}{}",
        " ".repeat(left),
        "0".repeat(zeros),
        " ".repeat(right)
    )
}

/// `fmt.Sprintf(raw, *big.Float)` (`big.Float.Format`).
fn go_format_float(verb: &Verb, x: &cty::Number) -> String {
    let (fmt_char, prec) = match verb.mode {
        'g' | 'G' => (verb.mode, verb.prec.map_or(-1, |p| p as i64)),
        m => (m, verb.prec.map_or(6, |p| p as i64)),
    };
    let text = x.text(fmt_char, prec);
    let (sign, body) = if let Some(b) = text.strip_prefix('-') {
        ("-", b.to_string())
    } else if let Some(b) = text.strip_prefix('+') {
        (if verb.space { " " } else { "+" }, b.to_string())
    } else if verb.plus {
        ("+", text)
    } else if verb.space {
        (" ", text)
    } else {
        ("", text)
    };
    let mut padding = 0;
    if let Some(width) = verb.width {
        if width > sign.len() + body.len() {
            padding = width - sign.len() - body.len();
        }
    }
    if zero_flag(verb) && !x.is_inf() {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if verb.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Value {
        Value::parse_number(s).unwrap()
    }

    #[test]
    fn verbs() {
        let s = Value::string;
        let cases: Vec<(&str, Vec<Value>, &str)> = vec![
            ("hello", vec![], "hello"),
            ("100%%", vec![], "100%"),
            ("%s", vec![s("x")], "x"),
            ("%[2]s %[1]s", vec![s("a"), s("b")], "b a"),
            ("%[2]s %s", vec![s("a"), s("b"), s("c")], "b c"),
            (
                "%5.2f|%-8.3e|%+g|% d|%08.3f|%x|%#x|%#o|%b",
                vec![
                    n("3.14159"),
                    n("1234.5"),
                    n("1e21"),
                    n("5"),
                    n("-3.14159"),
                    n("255"),
                    n("255"),
                    n("8"),
                    n("5"),
                ],
                " 3.14|1.234e+03|+1e+21| 5|-003.142|ff|0xff|010|101",
            ),
            (
                "%.2s|%5s|%-5s|%05s|%q",
                vec![s("héllo"), s("ab"), s("ab"), s("ab"), s("a\"b")],
                "hé|   ab|ab   |000ab|\"a\\\"b\"",
            ),
            ("%t", vec![s("true")], "true"),
            ("%5t", vec![Value::bool(true)], "true"),
            ("%v", vec![n("1e400")], "1e+400"),
            ("%x", vec![n("-255")], "-ff"),
            ("%X", vec![n("255")], "FF"),
            ("%.3x", vec![n("5")], "005"),
            ("%.d", vec![n("0")], ""),
            ("%d", vec![s("12")], "12"),
            ("%v", vec![Value::null(Type::String)], "null"),
            ("%#v", vec![s("a")], "\"a\""),
            ("%v", vec![Value::tuple(vec![n("1"), s("b")])], "[1,\"b\"]"),
            ("%v", vec![Value::bool(true)], "true"),
            ("%f", vec![n("1.5")], "1.500000"),
            ("%e", vec![n("1.5")], "1.500000e+00"),
            ("%g", vec![n("0.0001")], "0.0001"),
            ("%.3g", vec![n("3.14159")], "3.14"),
            ("%05d", vec![n("-42")], "-0042"),
            ("%-5d|", vec![n("42")], "42   |"),
            ("%+d", vec![n("42")], "+42"),
            ("%s", vec![n("1.5")], "1.5"),
            ("%s", vec![Value::bool(false)], "false"),
            ("%5s", vec![s("日本")], "   日本"),
        ];
        for (f, args, want) in cases {
            assert_eq!(format_fsm(f, &args).as_deref(), Ok(want), "format {f:?}");
        }
    }

    #[test]
    fn errors() {
        let s = Value::string;
        let cases: Vec<(&str, Vec<Value>, &str)> = vec![
            ("abc%", vec![], "invalid format string starting at offset 4"),
            (
                "abc%5",
                vec![],
                "invalid format string starting at offset 5",
            ),
            (
                "%5!",
                vec![n("1")],
                "unrecognized format character '!' at offset 2",
            ),
            (
                "%*d",
                vec![n("1")],
                "unrecognized format character '*' at offset 1",
            ),
            (
                "%.*d",
                vec![n("1")],
                "unrecognized format character '*' at offset 2",
            ),
            (
                "%[0]d",
                vec![n("1")],
                "unrecognized format character '0' at offset 2",
            ),
            (
                "%y",
                vec![n("1")],
                "unsupported format verb 'y' in \"%y\" at offset 0",
            ),
            (
                "%[2]d %d %[1]d",
                vec![n("1"), n("2")],
                "not enough arguments for \"%d\" at 6: need index 3 but have 2 total",
            ),
            (
                "%d",
                vec![n("1.5")],
                "unsupported value for \"%d\" at 0: an integer is required",
            ),
            (
                "%d",
                vec![s("x")],
                "unsupported value for \"%d\" at 0: a number is required",
            ),
            (
                "%s",
                vec![Value::null(Type::String)],
                "unsupported value for \"%s\" at 0: null value cannot be formatted",
            ),
            (
                "%s",
                vec![Value::tuple(vec![n("1")])],
                "unsupported value for \"%s\" at 0: string required",
            ),
            (
                "%99999999999s",
                vec![s("x")],
                "unsupported value for \"%99999999999s\" at 0: width or precision too large",
            ),
        ];
        for (f, args, want) in cases {
            assert_eq!(format_fsm(f, &args), Err(want.to_string()), "format {f:?}");
        }
    }
}
