//! Numeric functions: `abs`, `ceil`, `floor`, `log`, `max`, `min`, `pow`,
//! `signum`, `parseint` and `sum` (go-cty `stdlib/number.go`, OpenTofu
//! `funcs/number.go` and `funcs/collection.go`), plus the gocty-style number
//! conversions other families share.

use cty::{convert::convert, BigFloat, Mark, Number, Type, Value, ValueMarks};
use num_bigint::BigInt;

use crate::functions::framework::{static_return, FnError, Function, FunctionTable, Param};

/// gocty's error for a number that does not fit a Go `int`.
pub(crate) const WHOLE_INT_MSG: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// gocty `FromCtyValue(v, &int)`.
pub(crate) fn to_int(v: &Value) -> Result<i64, String> {
    v.as_number()
        .and_then(Number::to_i64)
        .ok_or_else(|| WHOLE_INT_MSG.to_string())
}

/// gocty `FromCtyValue(v, &*big.Int)`.
pub(crate) fn to_bigint(v: &Value) -> Result<BigInt, String> {
    match v.as_number() {
        Some(n) if n.is_int() && !n.is_inf() => n
            .trunc_int()
            .ok_or_else(|| "value must be a whole number".to_string()),
        _ => Err("value must be a whole number".to_string()),
    }
}

/// gocty `FromCtyValue(v, &float64)`.
pub(crate) fn to_f64(v: &Value) -> f64 {
    v.as_number().map_or(0.0, Number::to_f64)
}

/// `cty.NumberFloatVal`, turning Go's NaN panic into the error cty's
/// function-call recovery reports.
pub(crate) fn float_val(f: f64) -> Result<Value, FnError> {
    Value::number_float(f)
        .ok_or_else(|| FnError::general("panic in function implementation: Float.SetFloat64(NaN)"))
}

/// OpenTofu `redactIfSensitive` for strings (`%q`).
pub(crate) fn redact_str(s: &str, marks: &ValueMarks) -> String {
    if marks.contains(&Mark::Sensitive) {
        "(sensitive value)".to_string()
    } else {
        cty::format::go_quote(s)
    }
}

/// OpenTofu `redactIfSensitive` for other values (`%v`).
pub(crate) fn redact_display(s: impl std::fmt::Display, marks: &ValueMarks) -> String {
    if marks.contains(&Mark::Sensitive) {
        "(sensitive value)".to_string()
    } else {
        s.to_string()
    }
}

fn num_param(name: &str) -> Param {
    Param::new(name, Type::Number)
}

fn round_fn(up: bool) -> Function {
    Function::new(
        vec![num_param("num")],
        None,
        static_return(Type::Number),
        move |args, _| {
            let n = args[0].as_number().cloned().unwrap_or(Number::from_i64(0));
            if n.is_inf() {
                return Ok(Value::number(n));
            }
            let big = n.to_big();
            let i = if up { big.ceil_int() } else { big.floor_int() }.unwrap_or_default();
            // Go `f.SetInt(i)` keeps f's precision.
            let prec = big.prec().max(bits_of(&i)).max(1);
            Ok(Value::number(Number::from_big(
                BigFloat::from_bigint(&i).with_prec(prec),
            )))
        },
    )
}

fn bits_of(i: &BigInt) -> u32 {
    u32::try_from(i.bits()).unwrap_or(u32::MAX)
}

fn log_fn() -> Function {
    Function::new(
        vec![num_param("num"), num_param("base")],
        None,
        static_return(Type::Number),
        |args, _| float_val(to_f64(&args[0]).ln() / to_f64(&args[1]).ln()),
    )
}

fn pow_fn() -> Function {
    Function::new(
        vec![num_param("num"), num_param("power")],
        None,
        static_return(Type::Number),
        |args, _| float_val(go_pow(to_f64(&args[0]), to_f64(&args[1]))),
    )
}

/// Go `math.Pow`, whose special cases differ from `f64::powf` only for
/// `pow(-1, ±Inf)` (Go: 1) — which Rust also gives — so this is `powf`
/// with Go's NaN cases kept.
fn go_pow(x: f64, y: f64) -> f64 {
    x.powf(y)
}

fn signum_fn() -> Function {
    Function::new(
        vec![num_param("num")],
        None,
        static_return(Type::Number),
        |args, _| {
            let n = to_int(&args[0]).map_err(FnError::general)?;
            Ok(Value::number_int(n.signum()))
        },
    )
}

/// Go `big.Int.SetString(s, base)` for 2 <= base <= 62.
pub(crate) fn parse_big_int(s: &str, base: u32) -> Option<BigInt> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut acc = BigInt::from(0);
    for c in digits.bytes() {
        let d = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'a'..=b'z' => u32::from(c - b'a') + 10,
            b'A'..=b'Z' if base <= 36 => u32::from(c - b'A') + 10,
            b'A'..=b'Z' => u32::from(c - b'A') + 36,
            _ => return None,
        };
        if d >= base {
            return None;
        }
        acc = acc * base + d;
    }
    Some(if neg { -acc } else { acc })
}

fn parseint_fn() -> Function {
    Function::new(
        vec![
            Param::new("number", Type::Dynamic).allow_marked(),
            Param::new("base", Type::Number).allow_marked(),
        ],
        None,
        |args| {
            if args[0].ty() != &Type::String {
                return Err(FnError::arg(
                    0,
                    format!(
                        "first argument must be a string, not {}",
                        args[0].ty().friendly_name()
                    ),
                ));
            }
            Ok(Type::Number)
        },
        |args, _| {
            let (num, num_marks) = args[0].unmark_deep();
            let (base, base_marks) = args[1].unmark_deep();
            let Some(s) = num.as_str() else {
                return Err(FnError::arg(0, "a string is required"));
            };
            let base = to_int(&base).map_err(|e| FnError::arg(1, e))?;
            if !(2..=62).contains(&base) {
                return Err(FnError::arg(
                    1,
                    "base must be a whole number between 2 and 62 inclusive",
                ));
            }
            let Some(n) = parse_big_int(s, base as u32) else {
                return Err(FnError::arg(
                    0,
                    format!(
                        "cannot parse {} as a base {} integer",
                        redact_str(s, &num_marks),
                        redact_display(base, &base_marks)
                    ),
                ));
            };
            Ok(Value::number(Number::from_bigint(&n))
                .with_marks(num_marks)
                .with_marks(base_marks))
        },
    )
}

fn sum_fn() -> Function {
    Function::new(
        vec![Param::new("list", Type::Dynamic)],
        None,
        static_return(Type::Number),
        |args, _| {
            let list = &args[0];
            let ty = list.ty();
            let iterable =
                ty.is_list() || ty.is_set() || ty.is_tuple() || ty.is_map() || ty.is_object();
            if !iterable {
                return Err(FnError::arg(0, "cannot sum noniterable"));
            }
            if list.length_int() == Some(0) {
                return Err(FnError::arg(0, "cannot sum an empty list"));
            }
            if !ty.is_list() && !ty.is_set() && !ty.is_tuple() {
                return Err(FnError::arg(
                    0,
                    format!(
                        "argument must be list, set, or tuple. Received {}",
                        ty.friendly_name()
                    ),
                ));
            }
            if !list.is_wholly_known() {
                return Ok(Value::unknown(Type::Number));
            }
            let bad = || FnError::arg(0, "argument must be list, set, or tuple of number values");
            let mut sum: Option<Number> = None;
            for v in list.as_elements().unwrap_or_default() {
                if v.is_null() {
                    return Err(bad());
                }
                let v = convert(v, &Type::Number).map_err(|_| bad())?;
                let n = v.as_number().cloned().ok_or_else(bad)?;
                sum = Some(match sum {
                    None => n,
                    Some(s) => s.add(&n).map_err(|_| {
                        FnError::general("can't compute sum of opposing infinities")
                    })?,
                });
            }
            Ok(Value::number(sum.unwrap_or(Number::from_i64(0))))
        },
    )
}

/// go-cty `AbsoluteFunc`.
fn abs_fn() -> Function {
    Function::new(
        vec![Param::new("num", Type::Number).allow_dynamic()],
        None,
        |_| Ok(Type::Number),
        |args, _| Ok(args[0].absolute()?),
    )
}

/// `max` (`greatest`) or `min`: the first argument that no other beats,
/// returned as given.
fn extreme(greatest: bool) -> Function {
    Function::new(
        vec![],
        Some(Param::new("numbers", Type::Number).allow_dynamic()),
        |_| Ok(Type::Number),
        move |args, _| {
            let Some(first) = args.first() else {
                return Err(FnError::general("must pass at least one number"));
            };
            let mut best: &Value = first;
            for num in &args[1..] {
                let beats = if greatest {
                    num.greater_than(best)?
                } else {
                    num.less_than(best)?
                };
                if beats.as_bool() == Some(true) {
                    best = num;
                }
            }
            Ok(best.clone())
        },
    )
}

/// Registers this family's functions.
pub fn register(table: &mut FunctionTable) {
    table.insert("abs", abs_fn());
    table.insert("max", extreme(true));
    table.insert("min", extreme(false));
    table.insert("ceil", round_fn(true));
    table.insert("floor", round_fn(false));
    table.insert("log", log_fn());
    table.insert("pow", pow_fn());
    table.insert("signum", signum_fn());
    table.insert("parseint", parseint_fn());
    table.insert("sum", sum_fn());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: Vec<Value>) -> Result<Value, FnError> {
        let mut t = FunctionTable::new();
        register(&mut t);
        t.get(name).expect("registered").call(&args)
    }

    fn n(s: &str) -> Value {
        Value::parse_number(s).unwrap()
    }

    fn text(v: &Value) -> String {
        v.as_number().unwrap().to_text()
    }

    #[test]
    fn ceil_floor() {
        for (f, i, want) in [
            ("ceil", "-1.8", "-1"),
            ("ceil", "1.2", "2"),
            ("ceil", "-1.5", "-1"),
            ("ceil", "5", "5"),
            ("floor", "-1.8", "-2"),
            ("floor", "1.2", "1"),
            ("floor", "-1.5", "-2"),
            ("floor", "0.5", "0"),
        ] {
            assert_eq!(text(&call(f, vec![n(i)]).unwrap()), want, "{f}({i})");
        }
        let inf = Value::number_float(f64::INFINITY).unwrap();
        assert_eq!(text(&call("floor", vec![inf]).unwrap()), "+Inf");
        let big = call("floor", vec![n("1e400")]).unwrap();
        assert!(text(&big).starts_with("1000000000"));
    }

    #[test]
    fn log_pow() {
        assert_eq!(text(&call("log", vec![n("1"), n("10")]).unwrap()), "0");
        assert_eq!(text(&call("log", vec![n("10"), n("10")]).unwrap()), "1");
        assert_eq!(text(&call("log", vec![n("0"), n("10")]).unwrap()), "-Inf");
        assert_eq!(text(&call("log", vec![n("16"), n("2")]).unwrap()), "4");
        assert!(call("log", vec![n("-1"), n("10")]).is_err());
        assert_eq!(text(&call("pow", vec![n("1"), n("0")]).unwrap()), "1");
        assert_eq!(text(&call("pow", vec![n("3"), n("2")]).unwrap()), "9");
        assert_eq!(text(&call("pow", vec![n("4"), n("0.5")]).unwrap()), "2");
        assert_eq!(text(&call("pow", vec![n("0"), n("-1")]).unwrap()), "+Inf");
    }

    #[test]
    fn signum() {
        for (i, want) in [("0", "0"), ("12", "1"), ("-29", "-1")] {
            assert_eq!(text(&call("signum", vec![n(i)]).unwrap()), want);
        }
        assert_eq!(
            call("signum", vec![n("1.5")]).unwrap_err().message(),
            WHOLE_INT_MSG
        );
    }

    #[test]
    fn parseint() {
        for (s, b, want) in [
            ("128", "10", "128"),
            ("-128", "10", "-128"),
            ("+128", "10", "128"),
            ("FF", "16", "255"),
            ("ff", "16", "255"),
            ("-ff", "16", "-255"),
            ("1011", "2", "11"),
            ("Zz", "62", "3817"),
            ("zZ", "62", "2231"),
            ("aA", "36", "370"),
            (
                "9223372036854775808",
                "10",
                "9223372036854775808",
            ),
            (
                "1797693134862315907729305190789024733617976978942306572734300811577326758055009631327084773224075360211201138798713933576587897688144166224928474306394741243777678934248654852763022196012460941194530829520850057688381506823424628814739131105408272371633505106845862982399472459384797163048353563296242241372160",
                "10",
                "1797693134862315907729305190789024733617976978942306572734300811577326758055009631327084773224075360211201138798713933576587897688144166224928474306394741243777678934248654852763022196012460941194530829520850057688381506823424628814739131105408272371633505106845862982399472459384797163048353563296242241372160",
            ),
        ] {
            let v = call("parseint", vec![Value::string(s), n(b)]).unwrap();
            assert_eq!(text(&v), want, "parseint({s}, {b})");
        }
        for (s, b, want) in [
            ("12_3", "10", "cannot parse \"12_3\" as a base 10 integer"),
            ("", "10", "cannot parse \"\" as a base 10 integer"),
            ("-", "10", "cannot parse \"-\" as a base 10 integer"),
            ("1.2", "10", "cannot parse \"1.2\" as a base 10 integer"),
            ("2", "2", "cannot parse \"2\" as a base 2 integer"),
            (
                "1",
                "63",
                "base must be a whole number between 2 and 62 inclusive",
            ),
            (
                "1",
                "1",
                "base must be a whole number between 2 and 62 inclusive",
            ),
            ("1", "1.5", WHOLE_INT_MSG),
        ] {
            let e = call("parseint", vec![Value::string(s), n(b)]).unwrap_err();
            assert_eq!(e.message(), want);
        }
        let e = call("parseint", vec![n("1"), n("10")]).unwrap_err();
        assert_eq!(
            e,
            FnError::arg(0, "first argument must be a string, not number")
        );
        let secret = Value::string("zz").mark(Mark::Sensitive);
        let e = call("parseint", vec![secret, n("10")]).unwrap_err();
        assert_eq!(
            e.message(),
            "cannot parse (sensitive value) as a base 10 integer"
        );
        let secret = Value::string("10").mark(Mark::Sensitive);
        let v = call("parseint", vec![secret, n("10")]).unwrap();
        assert!(v.has_mark(&Mark::Sensitive));
    }

    #[test]
    fn sum() {
        let l = |xs: &[&str]| Value::list(Type::Number, xs.iter().map(|x| n(x)).collect()).unwrap();
        assert_eq!(text(&call("sum", vec![l(&["1", "2", "3"])]).unwrap()), "6");
        assert_eq!(text(&call("sum", vec![l(&["0.1", "0.2"])]).unwrap()), "0.3");
        assert_eq!(text(&call("sum", vec![l(&["-1", "2.5"])]).unwrap()), "1.5");
        let t = Value::tuple(vec![n("1"), Value::string("2")]);
        assert_eq!(text(&call("sum", vec![t]).unwrap()), "3");
        for (v, want) in [
            (Value::list_empty(Type::Number), "cannot sum an empty list"),
            (
                Value::object_from([("a", n("1"))]),
                "argument must be list, set, or tuple. Received object",
            ),
            (n("1"), "cannot sum noniterable"),
            (
                Value::tuple(vec![n("1"), Value::string("x")]),
                "argument must be list, set, or tuple of number values",
            ),
            (
                Value::tuple(vec![n("1"), Value::null(Type::Number)]),
                "argument must be list, set, or tuple of number values",
            ),
        ] {
            assert_eq!(call("sum", vec![v]).unwrap_err().message(), want);
        }
        let inf = Value::number_float(f64::INFINITY).unwrap();
        let ninf = Value::number_float(f64::NEG_INFINITY).unwrap();
        let l2 = Value::list(Type::Number, vec![inf, ninf]).unwrap();
        assert_eq!(
            call("sum", vec![l2]).unwrap_err().message(),
            "can't compute sum of opposing infinities"
        );
        let unk = Value::list(Type::Number, vec![n("1"), Value::unknown(Type::Number)]).unwrap();
        assert!(!call("sum", vec![unk]).unwrap().is_known());
    }
}
