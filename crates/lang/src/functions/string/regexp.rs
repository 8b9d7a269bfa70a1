//! `regex` and `regexall` (go-cty `stdlib/regexp.go`) and the translation
//! of Go RE2 patterns to the `regex` crate: Go's `\d \w \s \b` are ASCII
//! only and repeat counts are limited to 1000.

use std::collections::BTreeMap;

use cty::{Type, Value};
use regex::Regex;

use crate::functions::framework::{FnError, Function, Param};

/// A pattern Go's `regexp.Compile` would reject: its error code and the
/// part of the pattern it is about.
pub(crate) struct GoRegexError {
    code: String,
    expr: String,
}

impl GoRegexError {
    /// Go `syntax.Error.Error()`.
    pub(crate) fn go_error(&self) -> String {
        format!("error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

fn rerr(code: &str, expr: &str) -> GoRegexError {
    GoRegexError {
        code: code.to_string(),
        expr: expr.to_string(),
    }
}

/// Rewrites Go-only semantics and checks Go-only limits.
fn translate(pattern: &str) -> Result<String, GoRegexError> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                let e = chars[i + 1];
                let rep = match (e, in_class) {
                    ('d', false) => Some("[0-9]"),
                    ('d', true) => Some("0-9"),
                    ('D', _) => Some("[^0-9]"),
                    ('w', false) => Some("[0-9A-Za-z_]"),
                    ('w', true) => Some("0-9A-Za-z_"),
                    ('W', _) => Some("[^0-9A-Za-z_]"),
                    ('s', false) => Some("[\\t\\n\\f\\r ]"),
                    ('s', true) => Some("\\t\\n\\f\\r "),
                    ('S', _) => Some("[^\\t\\n\\f\\r ]"),
                    ('b', false) => Some("(?-u:\\b)"),
                    ('B', false) => Some("(?-u:\\B)"),
                    ('Q', _) => {
                        // Literal text up to \E.
                        let rest: String = chars[i + 2..].iter().collect();
                        let (lit, after) = match rest.find("\\E") {
                            Some(p) => (&rest[..p], p + 2),
                            None => (rest.as_str(), rest.len()),
                        };
                        out.push_str(&regex::escape(lit));
                        i += 2 + rest[..after].chars().count();
                        continue;
                    }
                    _ => None,
                };
                match rep {
                    Some(r) => out.push_str(r),
                    None => {
                        out.push(c);
                        out.push(e);
                    }
                }
                i += 2;
                continue;
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                i += 1;
                // A leading `^` and a leading `]` are part of the class.
                if i < chars.len() && chars[i] == '^' {
                    out.push('^');
                    i += 1;
                }
                if i < chars.len() && chars[i] == ']' {
                    out.push_str("\\]");
                    i += 1;
                }
                continue;
            }
            '[' if in_class && chars.get(i + 1) == Some(&':') => {
                // POSIX class `[:alpha:]` inside a bracket expression.
                if let Some(end) = (i + 2..chars.len().saturating_sub(1))
                    .find(|&j| chars[j] == ':' && chars[j + 1] == ']')
                {
                    out.extend(&chars[i..end + 2]);
                    i = end + 2;
                    continue;
                }
                out.push_str("\\[");
                i += 1;
                continue;
            }
            '[' if in_class => out.push_str("\\["),
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            '{' if !in_class => {
                if let Some((end, nums)) = repeat_at(&chars, i) {
                    if nums.iter().any(|n| *n > 1000) {
                        let expr: String = chars[i..=end].iter().collect();
                        return Err(rerr("invalid repeat count", &expr));
                    }
                }
                out.push(c);
            }
            '&' | '~' | '-' if in_class && chars.get(i + 1) == Some(&c) => {
                // Rust treats `&&`, `~~` and `--` in classes as operators.
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
        i += 1;
    }
    Ok(out)
}

/// A `{n}`, `{n,}` or `{n,m}` repeat starting at `i`: its end and numbers.
fn repeat_at(chars: &[char], i: usize) -> Option<(usize, Vec<u64>)> {
    let mut j = i + 1;
    let mut nums = Vec::new();
    let mut cur = String::new();
    while j < chars.len() {
        match chars[j] {
            d if d.is_ascii_digit() => cur.push(d),
            ',' if nums.is_empty() && !cur.is_empty() => {
                nums.push(cur.parse().unwrap_or(u64::MAX));
                cur.clear();
            }
            '}' if !cur.is_empty() || !nums.is_empty() => {
                if !cur.is_empty() {
                    nums.push(cur.parse().unwrap_or(u64::MAX));
                }
                return Some((j, nums));
            }
            _ => return None,
        }
        j += 1;
    }
    None
}

/// Maps a `regex` crate error to Go's error code (best effort).
fn map_error(pattern: &str, e: &regex::Error) -> GoRegexError {
    let msg = e.to_string();
    let code = if msg.contains("unclosed group") {
        "missing closing )"
    } else if msg.contains("unopened group") {
        "unexpected )"
    } else if msg.contains("unclosed character class") {
        "missing closing ]"
    } else if msg.contains("repetition operator missing expression") {
        "missing argument to repetition operator"
    } else if msg.contains("invalid character class range") {
        "invalid character class range"
    } else if msg.contains("unrecognized escape sequence") || msg.contains("incomplete escape") {
        "invalid escape sequence"
    } else if msg.contains("capture group name") || msg.contains("duplicate capture group") {
        "invalid named capture"
    } else if msg.contains("repetition quantifier") || msg.contains("decimal") {
        "invalid repeat count"
    } else if msg.contains("flag") {
        "invalid or unsupported Perl syntax"
    } else if msg.contains("exceeds size limit") {
        "expression too large"
    } else {
        "invalid or unsupported Perl syntax"
    };
    rerr(code, pattern)
}

/// Go `regexp.Compile` semantics on the `regex` crate.
pub(crate) fn compile_go(pattern: &str) -> Result<Regex, GoRegexError> {
    let translated = translate(pattern)?;
    regex::RegexBuilder::new(&translated)
        .size_limit(32 * 1024 * 1024)
        .build()
        .map_err(|e| map_error(pattern, &e))
}

/// go-cty `regexPatternResultType`.
fn result_type(pattern: &str) -> Result<(Regex, Type), FnError> {
    let re = compile_go(pattern).map_err(|e| {
        FnError::arg(
            0,
            format!("invalid regexp pattern: {} in {}", e.code, e.expr),
        )
    })?;
    let mut names = Vec::new();
    let mut unnamed = 0;
    for name in re.capture_names().skip(1) {
        match name {
            Some(n) => names.push(n.to_string()),
            None => unnamed += 1,
        }
    }
    let ty = match (unnamed, names.len()) {
        (0, 0) => Type::String,
        (u, n) if u > 0 && n > 0 => {
            return Err(FnError::arg(
                0,
                "invalid regexp pattern: cannot mix both named and unnamed capture groups",
            ))
        }
        (u, _) if u > 0 => Type::tuple(vec![Type::String; u]),
        _ => Type::object(names.into_iter().map(|n| (n, Type::String)).collect()),
    };
    Ok((re, ty))
}

fn pattern_result(re: &Regex, caps: &regex::Captures<'_>, ty: &Type) -> Value {
    let get = |i: usize| {
        caps.get(i)
            .map_or_else(|| Value::null(Type::String), |m| Value::string(m.as_str()))
    };
    match ty {
        Type::Tuple(etys) => Value::tuple((1..=etys.len()).map(get).collect()),
        Type::Object(_) => {
            let mut attrs = BTreeMap::new();
            for (i, name) in re.capture_names().enumerate().skip(1) {
                if let Some(name) = name {
                    attrs.insert(name.to_string(), get(i));
                }
            }
            Value::object(attrs)
        }
        _ => get(0),
    }
}

fn params() -> Vec<Param> {
    vec![
        Param::new("pattern", Type::String),
        Param::new("string", Type::String),
    ]
}

pub(super) fn regex_fn() -> Function {
    Function::new(
        params(),
        None,
        |args| {
            if !args[0].is_known() {
                return Ok(Type::Dynamic);
            }
            Ok(result_type(args[0].as_str().unwrap_or_default())?.1)
        },
        |args, ret_ty| {
            if ret_ty.is_dynamic() {
                return Ok(Value::dynamic());
            }
            let (re, ty) = result_type(args[0].as_str().unwrap_or_default())?;
            let s = args[1].as_str().unwrap_or_default();
            let Some(caps) = re.captures(s) else {
                return Err(FnError::general(
                    "pattern did not match any part of the given string",
                ));
            };
            Ok(pattern_result(&re, &caps, &ty))
        },
    )
}

pub(super) fn regexall_fn() -> Function {
    Function::new(
        params(),
        None,
        |args| {
            if !args[0].is_known() {
                return Ok(Type::list(Type::Dynamic));
            }
            Ok(Type::list(
                result_type(args[0].as_str().unwrap_or_default())?.1,
            ))
        },
        |args, ret_ty| {
            let ety = ret_ty.element_type().cloned().unwrap_or(Type::Dynamic);
            if ety.is_dynamic() {
                return Ok(Value::unknown(ret_ty.clone()));
            }
            let (re, ty) = result_type(args[0].as_str().unwrap_or_default())?;
            let s = args[1].as_str().unwrap_or_default();
            let elems: Vec<Value> = re
                .captures_iter(s)
                .map(|caps| pattern_result(&re, &caps, &ty))
                .collect();
            if elems.is_empty() {
                return Ok(Value::list_empty(ety));
            }
            Ok(Value::list(ety, elems)?)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::*;

    fn st(s: &str) -> Value {
        Value::string(s)
    }

    #[test]
    fn regex_results() {
        let r = call("regex", vec![st("[a-z]+"), st("123abc456")]).unwrap();
        assert_eq!(r, st("abc"));
        let r = call("regex", vec![st("(\\d+)-(\\d+)"), st("x 12-34")]).unwrap();
        assert_eq!(r, Value::tuple(vec![st("12"), st("34")]));
        let r = call("regex", vec![st("(a)|(b)"), st("b")]).unwrap();
        assert_eq!(r, Value::tuple(vec![Value::null(Type::String), st("b")]));
        let r = call("regex", vec![st("(?P<k>\\w+)=(?P<v>\\w+)"), st("a=b")]).unwrap();
        assert_eq!(r, Value::object_from([("k", st("a")), ("v", st("b"))]));
        let r = call("regex", vec![st("(?i)A"), st("a")]).unwrap();
        assert_eq!(r, st("a"));
        let r = call("regex", vec![st("\\Qa.b\\E"), st("xa.b")]).unwrap();
        assert_eq!(r, st("a.b"));
        // Go's \d and \w are ASCII-only.
        assert!(call("regex", vec![st("\\d"), st("٣")]).is_err());
        let r = call("regex", vec![st("[\\w]+"), st("é_ab")]).unwrap();
        assert_eq!(r, st("_ab"));
    }

    #[test]
    fn regexall_results() {
        let l =
            |xs: &[&str]| Value::list(Type::String, xs.iter().map(|x| st(x)).collect()).unwrap();
        let r = call("regexall", vec![st("a*"), st("baaab")]).unwrap();
        assert_eq!(r, l(&["", "aaa", ""]));
        let r = call("regexall", vec![st("[a-z]+"), st("1a2bc3")]).unwrap();
        assert_eq!(r, l(&["a", "bc"]));
        let r = call("regexall", vec![st("x"), st("abc")]).unwrap();
        assert_eq!(r, Value::list_empty(Type::String));
        let r = call("regexall", vec![st("(?P<x>a)"), st("aa")]).unwrap();
        let o = Value::object_from([("x", st("a"))]);
        assert_eq!(r, Value::list(o.ty().clone(), vec![o.clone(), o]).unwrap());
        let r = call("regexall", vec![Value::unknown(Type::String), st("a")]).unwrap();
        assert!(!r.is_known());
    }

    #[test]
    fn regex_errors() {
        for (p, s, want) in [
            ("(", "x", "invalid regexp pattern: missing closing ) in ("),
            (
                "(?P<a>x)(y)",
                "xy",
                "invalid regexp pattern: cannot mix both named and unnamed capture groups",
            ),
            (
                "a{1001}",
                "a",
                "invalid regexp pattern: invalid repeat count in {1001}",
            ),
            (
                "x",
                "y",
                "pattern did not match any part of the given string",
            ),
        ] {
            let e = call("regex", vec![st(p), st(s)]).unwrap_err();
            assert_eq!(e.message(), want, "{p}");
        }
        let e = call("replace", vec![st("abc"), st("/(/"), st("x")]).unwrap_err();
        assert_eq!(e.message(), "error parsing regexp: missing closing ): `(`");
    }
}
