//! Hostile expressions: deep nesting, huge results, huge widths and
//! counts. Each must end in a value or a diagnostic, within a time limit
//! and without exhausting memory or the stack; where OpenTofu gives a
//! particular answer (checked with `terraform console`, whose functions
//! come from the same go-cty), the same answer.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cty::{Type, Value};
use hclsyntax::{has_errors, Diagnostics, Pos};
use lang::functions::builtin_table;
use lang::{eval_expr, EvalContext};

/// What evaluating an expression gave: parse diagnostics, or the value
/// and evaluation diagnostics.
#[derive(Debug)]
enum Outcome {
    ParseError(Diagnostics),
    Evaluated(Value, Diagnostics),
}

impl Outcome {
    /// The value, panicking on any error.
    fn value(self) -> Value {
        match self {
            Outcome::Evaluated(v, d) if !has_errors(&d) => v,
            other => panic!("expected a value, got {}", summary(&other)),
        }
    }

    /// The summaries and details of the error diagnostics (parse or eval).
    fn errors(&self) -> Vec<String> {
        let d = match self {
            Outcome::ParseError(d) | Outcome::Evaluated(_, d) => d,
        };
        d.iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}: {}", d.summary, d.detail))
            .collect()
    }
}

/// A short description for failure messages (values may be huge).
fn summary(o: &Outcome) -> String {
    match o {
        Outcome::ParseError(d) => format!("parse errors {:?}", first_summaries(d)),
        Outcome::Evaluated(v, d) => format!(
            "value of type {} ({} chars debug), diagnostics {:?}",
            v.ty().friendly_name(),
            format!("{v:?}").len(),
            first_summaries(d)
        ),
    }
}

fn first_summaries(d: &Diagnostics) -> Vec<String> {
    d.iter()
        .take(3)
        .map(|d| format!("{}: {}", d.summary, d.detail))
        .collect()
}

/// Parses and evaluates `src` with the builtin functions and `vars` as
/// `var`, failing the test if that takes longer than `limit`.
fn eval_within(src: String, vars: BTreeMap<String, Value>, limit: Duration) -> Outcome {
    let (tx, rx) = mpsc::channel();
    let shown: String = src.chars().take(60).collect();
    std::thread::Builder::new()
        .name("bad-input".into())
        .spawn(move || {
            let (expr, diags) = hclsyntax::native::parse_expression(&src, "bad.tf", Pos::START);
            let outcome = if has_errors(&diags) {
                Outcome::ParseError(diags)
            } else {
                let mut variables = BTreeMap::new();
                variables.insert("var".to_string(), Value::object(vars));
                let ctx = EvalContext::new(variables, builtin_table());
                let (v, d) = eval_expr(&expr, &ctx);
                Outcome::Evaluated(v, d)
            };
            // The receiver is gone only if the test already failed on time.
            let _ = tx.send(outcome);
        })
        .expect("spawning the evaluation thread");
    let start = Instant::now();
    match rx.recv_timeout(limit) {
        Ok(o) => o,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{shown}… took more than {limit:?}")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            panic!("{shown}… panicked after {:?}", start.elapsed())
        }
    }
}

fn eval_src(src: impl Into<String>) -> Outcome {
    eval_within(src.into(), BTreeMap::new(), Duration::from_secs(20))
}

/// Either the expected value or some error diagnostic: for nesting that
/// OpenTofu evaluates but tofu-rs may refuse past its own limits.
fn assert_value_or_error(o: Outcome, want: &Value) {
    match &o {
        Outcome::ParseError(d) => assert!(has_errors(d), "parse failed without an error"),
        Outcome::Evaluated(v, d) => {
            if !has_errors(d) {
                assert!(v.raw_equals(want), "got {v:?}, want {want:?}");
            }
        }
    }
}

const DEEP: usize = 100_000;

fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * n + inner.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..n {
        s.push_str(close);
    }
    s
}

#[test]
fn deep_parentheses() {
    assert_value_or_error(eval_src(nested("(", "1", ")", DEEP)), &Value::number_int(1));
}

#[test]
fn deep_parentheses_unclosed() {
    let o = eval_src("(".repeat(DEEP));
    assert!(
        !o.errors().is_empty(),
        "unclosed parentheses: {}",
        summary(&o)
    );
}

#[test]
fn deep_tuples() {
    let o = eval_src(nested("[", "", "]", DEEP));
    match &o {
        Outcome::Evaluated(v, d) if !has_errors(d) => {
            assert!(v.ty().is_tuple(), "{}", summary(&o))
        }
        _ => assert!(!o.errors().is_empty()),
    }
}

#[test]
fn deep_objects() {
    let o = eval_src(nested("{a = ", "1", "}", DEEP));
    match &o {
        Outcome::Evaluated(v, d) if !has_errors(d) => {
            assert!(v.ty().is_object(), "{}", summary(&o))
        }
        _ => assert!(!o.errors().is_empty()),
    }
}

#[test]
fn deep_function_calls() {
    assert_value_or_error(
        eval_src(nested("abs(", "-1", ")", DEEP)),
        &Value::number_int(1),
    );
}

#[test]
fn deep_unary_operators() {
    let mut src = "!".repeat(DEEP);
    src.push_str("true");
    assert_value_or_error(eval_src(src), &Value::bool(true));
    let mut src = "-".repeat(DEEP - 1);
    src.push('1');
    assert_value_or_error(eval_src(src), &Value::number_int(-1));
}

#[test]
fn deep_templates() {
    let o = eval_src(nested("\"${", "1", "}\"", DEEP));
    assert_value_or_error(o, &Value::string("1"));
}

#[test]
fn deep_conditionals() {
    let o = eval_src(nested("true ? ", "1", " : 0", DEEP));
    assert_value_or_error(o, &Value::number_int(1));
}

#[test]
fn deep_index_chain() {
    let mut src = nested("[", "1", "]", 1000);
    src.push_str(&"[0]".repeat(1000));
    assert_value_or_error(eval_src(src), &Value::number_int(1));
}

/// `1+1+…+1` parses left-nested, as deep as it is long; Terraform
/// evaluates it.
#[test]
fn long_addition_chain() {
    let n = DEEP;
    let mut src = String::from("1");
    src.push_str(&"+1".repeat(n - 1));
    let o = eval_src(src);
    assert_value_or_error(o, &Value::number_int(n as i64));
}

#[test]
fn long_addition_chain_within_eval_limit() {
    let n = 10_000;
    let mut src = String::from("1");
    src.push_str(&"+1".repeat(n - 1));
    let v = eval_src(src).value();
    assert!(v.raw_equals(&Value::number_int(n as i64)), "{v:?}");
}

#[test]
fn range_limit_is_a_diagnostic() {
    let o = eval_src("range(1e9)");
    let errs = o.errors();
    assert!(
        errs.iter().any(|e| e.contains(
            "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step"
        )),
        "{errs:?}"
    );
    assert!(!eval_src("range(-1e18, 1e18, 1e-9)").errors().is_empty());
    assert!(!eval_src("range(1025)").errors().is_empty());
    let v = eval_src("length(range(1024))").value();
    assert!(v.raw_equals(&Value::number_int(1024)));
}

/// Go's fmt ignores widths and precisions past 10^6 and reports the verb
/// as missing (`fmt.tooLarge`); go-cty hands `%d` and `%f` to it, so this
/// is what OpenTofu prints, without building a gigabyte of padding.
#[test]
fn format_huge_width_integer() {
    let v = eval_src(r#"format("%999999999d", 1)"#).value();
    assert_eq!(v.as_str(), Some("%!(NOVERB)%!(EXTRA *big.Int=1)"));
}

#[test]
fn format_huge_precision_float() {
    let v = eval_src(r#"format("%.999999999f", 1)"#).value();
    assert_eq!(v.as_str(), Some("%!(NOVERB)%!(EXTRA *big.Float=1)"));
}

#[test]
fn format_width_at_go_limit() {
    let v = eval_src(r#"length(format("%1000000d", 1))"#).value();
    assert!(v.raw_equals(&Value::number_int(1_000_000)), "{v:?}");
}

#[test]
fn format_huge_argument_index() {
    let errs = eval_src(r#"format("%[999999999]d", 1)"#).errors();
    assert!(
        errs.iter()
            .any(|e| e.contains("need index 999999999 but have 1 total")),
        "{errs:?}"
    );
}

#[test]
fn strrev_of_ten_megabytes() {
    let s: String = "abcdé😸".repeat(10 * 1024 * 1024 / 12);
    let len = s.chars().count();
    let mut vars = BTreeMap::new();
    vars.insert("s".to_string(), Value::string(&s));
    let start = Instant::now();
    let v = eval_within("strrev(var.s)".to_string(), vars, Duration::from_secs(20)).value();
    let took = start.elapsed();
    let out = v.as_str().expect("strrev returns a string");
    assert_eq!(out.chars().count(), len);
    assert!(out.starts_with("😸éd"), "{:?}", &out[..16]);
    assert!(
        took < Duration::from_secs(10),
        "strrev of 10 MB took {took:?}"
    );
}

#[test]
fn huge_number_literals() {
    let v = eval_src("tostring(1e1000000000)").value();
    assert_eq!(v.as_str(), Some("+Inf"));
    let v = eval_src("1e-1000000000 == 0").value();
    assert_eq!(v.as_bool(), Some(true));
    let v = eval_src("pow(2, 1e9) == pow(10, 400)").value();
    assert_eq!(v.as_bool(), Some(true));
}

/// A million-element `for` over nested ranges (the most `range` allows).
#[test]
fn huge_nested_for() {
    let v = eval_within(
        "length(flatten([for i in range(1024) : [for j in range(1024) : i * j]]))".into(),
        BTreeMap::new(),
        Duration::from_secs(60),
    )
    .value();
    assert!(v.raw_equals(&Value::number_int(1024 * 1024)), "{v:?}");
}

#[test]
fn huge_for_over_map_with_grouping() {
    let n = 100_000;
    let m: BTreeMap<String, Value> = (0..n)
        .map(|i| (format!("k{i}"), Value::number_int(i)))
        .collect();
    let mut vars = BTreeMap::new();
    vars.insert(
        "m".to_string(),
        Value::map(Type::Number, m).expect("numbers only"),
    );
    let v = eval_within(
        "length({for k, v in var.m : v % 10 => k... if v % 2 == 0}[\"4\"])".into(),
        vars,
        Duration::from_secs(60),
    )
    .value();
    assert!(v.raw_equals(&Value::number_int(n / 10)), "{v:?}");
}

#[test]
fn huge_for_building_a_long_string() {
    let v = eval_within(
        "length(join(\"\", flatten([for i in range(1024) : [for j in range(1024) : \"xy\"]])))"
            .into(),
        BTreeMap::new(),
        Duration::from_secs(60),
    )
    .value();
    assert!(v.raw_equals(&Value::number_int(2 * 1024 * 1024)), "{v:?}");
}

/// Found by the `parse_eval` fuzz target (a 10 s time-out): a legacy
/// index step (`.N`) with a huge exponent on an object, whose key would
/// convert to a 62-million-digit string. Terraform hangs on the plain-HCL
/// form (`{a=1}[9e62446362]`: no answer in 12 minutes, 1.2 GB); we see from
/// the number's magnitude that its text is longer than every key.
#[test]
fn legacy_index_with_huge_exponent() {
    let mut vars = BTreeMap::new();
    vars.insert("s".to_string(), Value::string("x"));
    let o = eval_within("var.9e62446362".into(), vars, Duration::from_secs(20));
    assert!(!o.errors().is_empty(), "{}", summary(&o));
}

#[test]
fn index_with_huge_exponent() {
    let o = eval_src("[1][9e62446362]");
    assert!(!o.errors().is_empty(), "{}", summary(&o));
}

#[test]
fn object_and_map_index_with_huge_exponent() {
    for src in [
        "{a=1}[9e62446362]",
        "{a=1}[-9e62446362]",
        "{a=1}[1e-62446362]",
        "tomap({a=1})[9e62446362]",
    ] {
        let o = eval_within(src.into(), BTreeMap::new(), Duration::from_secs(20));
        assert!(
            o.errors().iter().any(|e| e.starts_with("Invalid index")),
            "{src}: {}",
            summary(&o)
        );
    }
}

#[test]
fn number_keys_as_long_as_a_key_still_match() {
    let v = eval_src(r#"{"1000000000000000000000000000000" = 7, "0.5" = 8}[1e30]"#).value();
    assert!(v.raw_equals(&Value::number_int(7)), "{v:?}");
    let v = eval_src(r#"tomap({"0.5" = 8})[0.5]"#).value();
    assert!(v.raw_equals(&Value::number_int(8)), "{v:?}");
}
