//! String functions (go-cty `stdlib/string.go`, `format.go`, `regexp.go`
//! and OpenTofu `funcs/string.go`): chomp, endswith, formatlist, indent,
//! regex, regexall, replace, startswith, strcontains, strrev, substr,
//! templatestring (see [`templatestring_function`]), title, trim,
//! trimprefix, trimspace and trimsuffix here; upper, lower, join and split
//! in [`case_split`], format in [`format`], regex and regexall in
//! [`regexp`].

mod case_split;
mod format;
mod format_cases;
mod regexp;
mod template;

use cty::{Type, Value};
use unicode_segmentation::UnicodeSegmentation;

use crate::functions::framework::{static_return, FnError, Function, FunctionTable, Param};

pub use format::format_values;
pub use template::templatestring_function;

/// Largest string a function may build, so that huge counts give errors
/// rather than exhausting memory.
pub(crate) const MAX_STRING_LEN: usize = 256 * 1024 * 1024;

fn s(name: &str) -> Param {
    Param::new(name, Type::String)
}

fn arg_str(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// A function of string arguments returning a string.
fn str_fn(
    names: &[&str],
    f: impl Fn(&[&str]) -> Result<String, FnError> + Send + Sync + 'static,
) -> Function {
    Function::new(
        names.iter().map(|n| s(n)).collect(),
        None,
        static_return(Type::String),
        move |args, _| {
            let strs: Vec<&str> = args.iter().map(arg_str).collect();
            Ok(Value::string(f(&strs)?))
        },
    )
}

/// A function of string arguments returning a bool.
fn bool_fn(names: &[&str], f: impl Fn(&[&str]) -> bool + Send + Sync + 'static) -> Function {
    Function::new(
        names.iter().map(|n| s(n)).collect(),
        None,
        static_return(Type::Bool),
        move |args, _| {
            let strs: Vec<&str> = args.iter().map(arg_str).collect();
            Ok(Value::bool(f(&strs)))
        },
    )
}

fn startswith_fn() -> Function {
    Function::new(
        vec![s("str").allow_unknown(), s("prefix")],
        None,
        static_return(Type::Bool),
        |args, _| {
            let prefix = arg_str(&args[1]);
            if !args[0].is_known() {
                if prefix.is_empty() {
                    return Ok(Value::bool(true));
                }
                return Ok(Value::unknown(Type::Bool));
            }
            Ok(Value::bool(arg_str(&args[0]).starts_with(prefix)))
        },
    )
}

/// go-cty `chomp`: removes every trailing `\n` / `\r\n` / `\r` sequence.
fn chomp(s: &str) -> String {
    let b = s.as_bytes();
    let mut end = b.len();
    loop {
        if end >= 2 && &b[end - 2..end] == b"\r\n" {
            end -= 2;
        } else if end >= 1 && (b[end - 1] == b'\n' || b[end - 1] == b'\r') {
            end -= 1;
        } else {
            break;
        }
    }
    s[..end].to_string()
}

fn indent_fn() -> Function {
    Function::new(
        vec![Param::new("spaces", Type::Number), s("str")],
        None,
        static_return(Type::String),
        |args, _| {
            let spaces = super::numeric::to_int(&args[0]).map_err(FnError::general)?;
            if spaces < 0 {
                return Err(FnError::general(
                    "panic in function implementation: strings: negative Repeat count",
                ));
            }
            let data = arg_str(&args[1]);
            let lines = data.matches('\n').count();
            let extra = (spaces as u128).saturating_mul(lines as u128);
            if extra + data.len() as u128 > MAX_STRING_LEN as u128 {
                return Err(FnError::general("result string is too long"));
            }
            let pad = format!(
                "\n{}",
                " ".repeat(if lines == 0 { 0 } else { spaces as usize })
            );
            Ok(Value::string(data.replace('\n', &pad)))
        },
    )
}

fn strrev(s: &str) -> String {
    s.graphemes(true).rev().collect()
}

fn substr_fn() -> Function {
    Function::new(
        vec![
            s("str"),
            Param::new("offset", Type::Number),
            Param::new("length", Type::Number),
        ],
        None,
        static_return(Type::String),
        |args, _| {
            let input = arg_str(&args[0]);
            let mut offset = super::numeric::to_int(&args[1]).map_err(FnError::general)?;
            let length = super::numeric::to_int(&args[2]).map_err(FnError::general)?;
            Ok(Value::string(substr(input, &mut offset, length)))
        },
    )
}

/// go-cty `substr`, including its quirks for negative offsets.
fn substr(input: &str, offset: &mut i64, length: i64) -> String {
    let clusters: Vec<&str> = input.graphemes(true).collect();
    if *offset < 0 {
        *offset = offset.saturating_add(clusters.len() as i64);
    } else if length == 0 {
        return String::new();
    }
    let mut sub: &[&str] = &clusters;
    if *offset > 0 {
        let off = usize::try_from(*offset).unwrap_or(usize::MAX);
        if off >= clusters.len() {
            return String::new();
        }
        sub = &clusters[off..];
    }
    if length < 0 {
        return sub.concat();
    }
    // A zero length after a negative offset takes the rest (Go loops until
    // `pos == length`, which never holds).
    let take = if length == 0 {
        sub.len()
    } else {
        usize::try_from(length).unwrap_or(usize::MAX).min(sub.len())
    };
    sub[..take].concat()
}

/// Go `strings.Title` (`isSeparator` + `unicode.ToTitle`).
fn title(s: &str) -> String {
    fn is_separator(r: char) -> bool {
        if r.is_ascii() {
            return !(r.is_ascii_alphanumeric() || r == '_');
        }
        if r.is_alphabetic() || r.is_numeric() {
            return false;
        }
        r.is_whitespace()
    }
    fn to_title(r: char) -> char {
        match r {
            'Ǆ' | 'ǅ' | 'ǆ' => 'ǅ',
            'Ǉ' | 'ǈ' | 'ǉ' => 'ǈ',
            'Ǌ' | 'ǋ' | 'ǌ' => 'ǋ',
            'Ǳ' | 'ǲ' | 'ǳ' => 'ǲ',
            _ => {
                let mut up = r.to_uppercase();
                match (up.next(), up.next()) {
                    (Some(u), None) => u,
                    _ => r,
                }
            }
        }
    }
    let mut prev = ' ';
    s.chars()
        .map(|r| {
            let out = if is_separator(prev) { to_title(r) } else { r };
            prev = r;
            out
        })
        .collect()
}

fn replace_fn() -> Function {
    str_fn(&["str", "substr", "replace"], |a| {
        let (st, sub, rep) = (a[0], a[1], a[2]);
        if sub.len() > 1 && sub.starts_with('/') && sub.ends_with('/') {
            let re = regexp::compile_go(&sub[1..sub.len() - 1])
                .map_err(|e| FnError::general(e.go_error()))?;
            return Ok(re.replace_all(st, rep).into_owned());
        }
        if sub.is_empty() {
            // Go inserts the replacement around every rune.
            let n = st.chars().count() + 1;
            if (rep.len() as u128) * (n as u128) + st.len() as u128 > MAX_STRING_LEN as u128 {
                return Err(FnError::general("result string is too long"));
            }
        } else if let Some(growth) = rep.len().checked_sub(sub.len()) {
            let count = st.matches(sub).count();
            if (growth as u128) * (count as u128) + st.len() as u128 > MAX_STRING_LEN as u128 {
                return Err(FnError::general("result string is too long"));
            }
        }
        Ok(st.replace(sub, rep))
    })
}

fn formatlist_fn() -> Function {
    Function::new(
        vec![s("format")],
        Some(
            Param::new("args", Type::Dynamic)
                .allow_null()
                .allow_unknown(),
        ),
        static_return(Type::list(Type::String)),
        |args, ret_ty| {
            let fmt_str = arg_str(&args[0]);
            let args = &args[1..];
            if args.is_empty() {
                let r = format_values(fmt_str, &[]).map_err(|e| FnError::general(e.message()))?;
                return Ok(Value::list(Type::String, vec![Value::string(r)])?);
            }
            let mut iter_len: Option<usize> = None;
            let mut len_chooser = 0;
            let mut iterators: Vec<Option<Vec<Value>>> = vec![None; args.len()];
            let mut unknown = false;
            for (i, arg) in args.iter().enumerate() {
                let ty = arg.ty();
                if (ty.is_list() || ty.is_set() || ty.is_tuple()) && !arg.is_null() {
                    if !(ty.is_tuple() || arg.is_known() && arg.length().is_known()) {
                        unknown = true;
                        continue;
                    }
                    let this_len = arg.length_int().unwrap_or(0);
                    match iter_len {
                        None => {
                            iter_len = Some(this_len);
                            len_chooser = i;
                        }
                        Some(l) if l != this_len => {
                            return Err(FnError::arg(
                                i + 1,
                                format!(
                                    "argument {} has length {this_len}, which is inconsistent with argument {} of length {l}",
                                    i + 1,
                                    len_chooser + 1
                                ),
                            ));
                        }
                        Some(_) => {}
                    }
                    if !arg.is_known() {
                        unknown = true;
                        continue;
                    }
                    iterators[i] = Some(arg.as_elements().unwrap_or_default().to_vec());
                } else if !arg.is_known() && arg.ty().is_dynamic() {
                    unknown = true;
                }
            }
            if unknown {
                return Ok(Value::unknown(ret_ty.clone()));
            }
            let iter_len = match iter_len {
                Some(0) => return Ok(Value::list_empty(Type::String)),
                Some(l) => l,
                None => 1,
            };
            let mut positions = vec![0usize; args.len()];
            let mut ret = Vec::with_capacity(iter_len);
            'results: for iter_idx in 0..iter_len {
                let mut fmt_args = Vec::with_capacity(args.len());
                for (i, arg) in args.iter().enumerate() {
                    let v = match &iterators[i] {
                        Some(elems) => {
                            let v = elems
                                .get(positions[i])
                                .cloned()
                                .unwrap_or_else(Value::dynamic);
                            positions[i] += 1;
                            v
                        }
                        None => arg.clone(),
                    };
                    if !v.is_wholly_known() {
                        ret.push(Value::unknown(Type::String));
                        continue 'results;
                    }
                    fmt_args.push(v);
                }
                let r = format_values(fmt_str, &fmt_args).map_err(|e| {
                    FnError::general(format!(
                        "error on format iteration {iter_idx}: {}",
                        e.message()
                    ))
                })?;
                ret.push(Value::string(r));
            }
            Ok(Value::list(Type::String, ret)?)
        },
    )
}

/// Registers this family's functions.
pub fn register(table: &mut FunctionTable) {
    case_split::register(table);
    format::register(table);
    table.insert("chomp", str_fn(&["str"], |a| Ok(chomp(a[0]))));
    table.insert(
        "endswith",
        bool_fn(&["str", "suffix"], |a| a[0].ends_with(a[1])),
    );
    table.insert("formatlist", formatlist_fn());
    table.insert("indent", indent_fn());
    table.insert("regex", regexp::regex_fn());
    table.insert("regexall", regexp::regexall_fn());
    table.insert("replace", replace_fn());
    table.insert("startswith", startswith_fn());
    table.insert(
        "strcontains",
        bool_fn(&["str", "substr"], |a| a[0].contains(a[1])),
    );
    table.insert("strrev", str_fn(&["str"], |a| Ok(strrev(a[0]))));
    table.insert("substr", substr_fn());
    table.insert("title", str_fn(&["str"], |a| Ok(title(a[0]))));
    table.insert(
        "trim",
        str_fn(&["str", "cutset"], |a| {
            Ok(a[0].trim_matches(|c| a[1].contains(c)).to_string())
        }),
    );
    table.insert(
        "trimprefix",
        str_fn(&["str", "prefix"], |a| {
            Ok(a[0].strip_prefix(a[1]).unwrap_or(a[0]).to_string())
        }),
    );
    table.insert(
        "trimsuffix",
        str_fn(&["str", "suffix"], |a| {
            Ok(a[0].strip_suffix(a[1]).unwrap_or(a[0]).to_string())
        }),
    );
    table.insert(
        "trimspace",
        str_fn(&["str"], |a| Ok(a[0].trim().to_string())),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn call(name: &str, args: Vec<Value>) -> Result<Value, FnError> {
        let mut t = FunctionTable::new();
        register(&mut t);
        t.get(name).expect("registered").call(&args)
    }

    fn st(s: &str) -> Value {
        Value::string(s)
    }

    fn n(i: i64) -> Value {
        Value::number_int(i)
    }

    fn ok_str(name: &str, args: Vec<Value>) -> String {
        call(name, args).unwrap().as_str().unwrap().to_string()
    }

    #[test]
    fn simple_string_functions() {
        let cases: Vec<(&str, Vec<Value>, &str)> = vec![
            ("chomp", vec![st("hello\n")], "hello"),
            ("chomp", vec![st("hello\r\n")], "hello"),
            ("chomp", vec![st("a\n\r\n\n")], "a"),
            ("chomp", vec![st("hello\n\nx")], "hello\n\nx"),
            ("chomp", vec![st("")], ""),
            ("strrev", vec![st("hello")], "olleh"),
            ("strrev", vec![st("e\u{301}x")], "x\u{e9}"),
            ("strrev", vec![st("😸😾")], "😾😸"),
            ("title", vec![st("hello world")], "Hello World"),
            (
                "title",
                vec![st("hello wORLD_x ǆa-b.c ßx")],
                "Hello WORLD_x ǅa-B.C ßx",
            ),
            ("trim", vec![st("?!hello?!"), st("!?")], "hello"),
            ("trim", vec![st("  hello  "), st(" ")], "hello"),
            ("trimprefix", vec![st("helloworld"), st("hello")], "world"),
            ("trimprefix", vec![st("helloworld"), st("x")], "helloworld"),
            ("trimsuffix", vec![st("helloworld"), st("world")], "hello"),
            ("trimspace", vec![st(" \n\thello \u{a0}")], "hello"),
            ("indent", vec![n(2), st("a\nb\n")], "a\n  b\n  "),
            ("indent", vec![n(4), st("abc")], "abc"),
            ("replace", vec![st("hello"), st("l"), st("L")], "heLLo"),
            ("replace", vec![st("abc"), st("/(b)/"), st("[$1]")], "a[b]c"),
            ("replace", vec![st("aaa"), st("/a*/"), st("-")], "-"),
            (
                "replace",
                vec![st("hello world"), st("/w.*d/"), st("x")],
                "hello x",
            ),
            ("replace", vec![st("abc"), st("/"), st("x")], "abc"),
            ("replace", vec![st("ab"), st(""), st("-")], "-a-b-"),
        ];
        for (f, args, want) in cases {
            assert_eq!(ok_str(f, args.clone()), want, "{f}({args:?})");
        }
        let bools: Vec<(&str, &str, &str, bool)> = vec![
            ("startswith", "hello", "he", true),
            ("startswith", "hello", "lo", false),
            ("endswith", "hello", "lo", true),
            ("endswith", "hello", "he", false),
            ("strcontains", "hello", "ll", true),
            ("strcontains", "hello", "x", false),
        ];
        for (f, a, b, want) in bools {
            assert_eq!(call(f, vec![st(a), st(b)]).unwrap().as_bool(), Some(want));
        }
        let unk = Value::unknown(Type::String);
        assert_eq!(
            call("startswith", vec![unk.clone(), st("")])
                .unwrap()
                .as_bool(),
            Some(true)
        );
        assert!(!call("startswith", vec![unk, st("a")]).unwrap().is_known());
    }

    #[test]
    fn indent_errors() {
        let e = call("indent", vec![n(-1), st("a\nb")]).unwrap_err();
        assert!(e.message().contains("negative Repeat count"));
        assert!(call("indent", vec![n(i64::MAX), st("a\nb")]).is_err());
        let e = call("indent", vec![Value::parse_number("1.5").unwrap(), st("a")]).unwrap_err();
        assert_eq!(e.message(), super::super::numeric::WHOLE_INT_MSG);
    }

    #[test]
    fn substr_cases() {
        for (s, off, len, want) in [
            ("hello", 1, 3, "ell"),
            ("hello", -3, 3, "llo"),
            ("hello", -10, 3, "hel"),
            ("hello", -1, 0, "o"),
            ("hello", 1, -1, "ello"),
            ("hello", 10, 2, ""),
            ("hello", 0, 0, ""),
            ("hello", 5, 1, ""),
            ("hello", 0, 100, "hello"),
            ("", 0, 1, ""),
            ("🤔🤷", 0, 1, "🤔"),
            ("e\u{301}x", 0, 1, "\u{e9}"),
            ("e\u{301}x", 1, 1, "x"),
            ("\u{1f1fa}\u{1f1f8}x", 0, 1, "\u{1f1fa}\u{1f1f8}"),
        ] {
            assert_eq!(
                ok_str("substr", vec![st(s), n(off), n(len)]),
                want,
                "{s} {off} {len}"
            );
        }
    }

    #[test]
    fn formatlist_cases() {
        let l =
            |xs: &[&str]| Value::list(Type::String, xs.iter().map(|x| st(x)).collect()).unwrap();
        let strs = |v: Value| -> Vec<String> {
            v.as_elements()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap().to_string())
                .collect()
        };
        let r = call("formatlist", vec![st("%s-%s"), l(&["a", "b"]), st("x")]).unwrap();
        assert_eq!(strs(r), ["a-x", "b-x"]);
        let r = call("formatlist", vec![st("hi")]).unwrap();
        assert_eq!(strs(r), ["hi"]);
        let r = call("formatlist", vec![st("%s"), l(&[])]).unwrap();
        assert!(r.as_elements().unwrap().is_empty());
        let r = call(
            "formatlist",
            vec![
                st("%s=%d"),
                Value::tuple(vec![st("a"), st("b")]),
                Value::tuple(vec![n(1), n(2)]),
            ],
        )
        .unwrap();
        assert_eq!(strs(r), ["a=1", "b=2"]);
        let e = call("formatlist", vec![st("%s-%s"), l(&["a", "b"]), l(&["c"])]).unwrap_err();
        assert_eq!(
            e,
            FnError::arg(
                2,
                "argument 2 has length 1, which is inconsistent with argument 1 of length 2"
            )
        );
        let e = call(
            "formatlist",
            vec![
                st("%d"),
                Value::tuple(vec![Value::parse_number("1.5").unwrap()]),
            ],
        )
        .unwrap_err();
        assert_eq!(
            e.message(),
            "error on format iteration 0: unsupported value for \"%d\" at 0: an integer is required"
        );
        let unk = Value::unknown(Type::list(Type::String));
        assert!(!call("formatlist", vec![st("%s"), unk]).unwrap().is_known());
        let part = Value::list(Type::String, vec![st("a"), Value::unknown(Type::String)]).unwrap();
        let r = call("formatlist", vec![st("%s"), part]).unwrap();
        let e = r.as_elements().unwrap();
        assert_eq!(e[0].as_str(), Some("a"));
        assert!(!e[1].is_known());
    }
}
