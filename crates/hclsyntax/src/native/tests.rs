//! Expression-level tests: the lowered tree shape of every expression
//! form, printed as compact s-expressions, and ranges.

use super::*;
use crate::ast::{push_step, ExprKind, Literal, UnaryOp};

/// The tree as an s-expression, for compact table-driven assertions.
pub(super) fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Literal(l) => lit(l),
        ExprKind::Template(parts) => format!("(tpl {})", list(parts)),
        ExprKind::TemplateWrap(e) => format!("(wrap {})", sx(e)),
        ExprKind::TemplateJoin(e) => format!("(join {})", sx(e)),
        ExprKind::ScopeTraversal(t) => t.display(),
        ExprKind::RelativeTraversal { source, steps } => {
            let mut s = String::new();
            for st in steps {
                push_step(&mut s, &st.kind);
            }
            format!("(rel {} {s})", sx(source))
        }
        ExprKind::Index {
            collection, key, ..
        } => format!("(index {} {})", sx(collection), sx(key)),
        ExprKind::Splat { source, each, .. } => format!("(splat {} {})", sx(source), sx(each)),
        ExprKind::AnonSymbol => "*".into(),
        ExprKind::FunctionCall(c) => {
            let dots = if c.expand_final { " ..." } else { "" };
            if c.args.is_empty() {
                format!("({})", c.name)
            } else {
                format!("({} {}{dots})", c.name, list(&c.args))
            }
        }
        ExprKind::Conditional {
            condition,
            true_result,
            false_result,
        } => format!(
            "(? {} {} {})",
            sx(condition),
            sx(true_result),
            sx(false_result)
        ),
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", op.symbol(), sx(lhs), sx(rhs))
        }
        ExprKind::Unary { op, operand } => match op {
            UnaryOp::Negate => format!("(neg {})", sx(operand)),
            UnaryOp::Not => format!("(not {})", sx(operand)),
        },
        ExprKind::Tuple(items) => format!("[{}]", list(items)),
        ExprKind::Object(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| {
                    let k = sx(&i.key.expr);
                    let k = if i.key.force_non_literal {
                        format!("({k})")
                    } else {
                        k
                    };
                    format!("{k}={}", sx(&i.value))
                })
                .collect();
            format!("{{{}}}", parts.join(" "))
        }
        ExprKind::For(f) => {
            let mut s = String::from("(for ");
            if let Some(k) = &f.key_var {
                s.push_str(k);
                s.push(',');
            }
            s.push_str(&f.value_var);
            s.push_str(" in ");
            s.push_str(&sx(&f.collection));
            s.push_str(" : ");
            if let Some(k) = &f.key_expr {
                s.push_str(&sx(k));
                s.push_str(" => ");
            }
            s.push_str(&sx(&f.value_expr));
            if f.group {
                s.push_str("...");
            }
            if let Some(c) = &f.condition {
                s.push_str(" if ");
                s.push_str(&sx(c));
            }
            s.push(')');
            s
        }
        ExprKind::Parens(e) => format!("(paren {})", sx(e)),
        ExprKind::Json(_) => "json".into(),
    }
}

fn lit(l: &Literal) -> String {
    match l {
        Literal::Null => "null".into(),
        Literal::Bool(b) => b.to_string(),
        Literal::Number(n) => n.clone(),
        Literal::String(s) => format!("{s:?}"),
    }
}

fn list(items: &[Expr]) -> String {
    items.iter().map(sx).collect::<Vec<_>>().join(" ")
}

pub(super) fn expr_ok(src: &str) -> Expr {
    let (e, diags) = parse_expression(src, "t.tf", Pos::START);
    assert!(
        diags.is_empty(),
        "{src:?}: unexpected diagnostics {diags:#?}"
    );
    e
}

pub(super) fn expr_err(src: &str) -> Vec<(String, String)> {
    let (_, diags) = parse_expression(src, "t.tf", Pos::START);
    diags
        .into_iter()
        .map(|d| {
            (
                d.summary,
                d.subject.map(|r| r.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn native_expression_shapes() {
    let cases: &[(&str, &str)] = &[
        // literals
        ("1", "1"),
        ("1.5e3", "1.5e3"),
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
        ("true", "true"),
        ("null", "null"),
        (r#""a\nb\t\"\\ \u00e9 \U0001F600""#, r#""a\nb\t\"\\ é 😀""#),
        (r#""$${x} %%{y} $5 100%""#, r#""${x} %{y} $5 100%""#),
        ("-1", "(neg 1)"),
        ("- -1", "(neg (neg 1))"),
        ("!!true", "(not (not true))"),
        // precedence and associativity
        ("10-2-3", "(- (- 10 2) 3)"),
        ("8/2/2", "(/ (/ 8 2) 2)"),
        ("2*3%4", "(% (* 2 3) 4)"),
        ("1+2*3", "(+ 1 (* 2 3))"),
        ("!true == false", "(== (not true) false)"),
        ("true == false == false", "(== (== true false) false)"),
        ("1 < 2 == true", "(== (< 1 2) true)"),
        ("a || b && c", "(|| a (&& b c))"),
        ("-46+5", "(+ (neg 46) 5)"),
        ("-var.x.y", "(neg var.x.y)"),
        ("false ? 1 : true ? 2 : 3", "(? false 1 (? true 2 3))"),
        ("a ? b : c || d", "(? a b (|| c d))"),
        ("(1 + 2) * 3", "(* (paren (+ 1 2)) 3)"),
        // traversals
        ("var.x", "var.x"),
        ("a.b[0][\"k\"].c", "a.b[0][\"k\"].c"),
        ("x.0.y.1", "x[0].y[1]"),
        ("a[true][null]", "a[true][null]"),
        ("a[b]", "(index a b)"),
        ("a[b].c", "(rel (index a b) .c)"),
        ("a[-1]", "(index a (neg 1))"),
        ("a[\"${b}\"]", "(index a (wrap b))"),
        ("a[\n0\n]", "a[0]"),
        ("f(x).a[0]", "(rel (f x) .a[0])"),
        ("(x).y", "(rel (paren x) .y)"),
        ("\"${x}\".y", "(rel (wrap x) .y)"),
        ("var.my-var", "var.my-var"),
        // splats
        ("x[*].y[0]", "(splat x (rel * .y[0]))"),
        ("x.*.y[0]", "(rel (splat x (rel * .y)) [0])"),
        ("x.*.y.0", "(splat x (rel * .y[0]))"),
        ("x.*.0", "(splat x (rel * [0]))"),
        ("[1,2][*]", "(splat [1 2] *)"),
        ("f()[*].x", "(splat (f) (rel * .x))"),
        ("x[*][*].a", "(splat x (splat * (rel * .a)))"),
        ("x.*", "(splat x *)"),
        // calls
        ("f()", "(f)"),
        ("f(1, 2,)", "(f 1 2)"),
        ("f(x...)", "(f x ...)"),
        ("f(1,\n 2)", "(f 1 2)"),
        (
            "provider::terraform::encode_tfvars({a = 1})",
            "(provider::terraform::encode_tfvars {a=1})",
        ),
        ("core::max(1, 2)", "(core::max 1 2)"),
        // collections
        ("[]", "[]"),
        ("[1, \"a\",\n b,]", "[1 \"a\" b]"),
        ("{}", "{}"),
        (
            "{ a = 1, \"b\" = 2, (c) = 3, d.e = 4 }",
            "{a=1 \"b\"=2 ((paren c))=3 d.e=4}",
        ),
        ("{\n a = 1\n b: 2\n}", "{a=1 b=2}"),
        ("{ x = 1, x = 2 }", "{x=1 x=2}"),
        ("{ (var.k) = 1 }", "{((paren var.k))=1}"),
        // for expressions
        ("[for v in xs : v]", "(for v in xs : v)"),
        (
            "[for i, v in xs : v if i > 0]",
            "(for i,v in xs : v if (> i 0))",
        ),
        ("{for k, v in m : k => v}", "(for k,v in m : k => v)"),
        (
            "{for k, v in m : v => k... if k != \"\"}",
            "(for k,v in m : v => k... if (!= k \"\"))",
        ),
        (
            "[for x in [for y in ys : y] : x]",
            "(for x in (for y in ys : y) : x)",
        ),
        ("{\n for k in m :\n k => 1\n}", "(for k in m : k => 1)"),
        // templates
        ("\"\"", "\"\""),
        ("\"a\"", "\"a\""),
        ("\"${x}\"", "(wrap x)"),
        ("\"${~x~}\"", "(wrap x)"),
        ("\"a${x}\"", "(tpl \"a\" x)"),
        ("\"x ${~ \"y\" ~} z\"", "(tpl \"x\" \"y\" \"z\")"),
        ("\"${\"in\"}\"", "(wrap \"in\")"),
        ("\"%{if c}a%{else}b%{endif}\"", "(tpl (? c \"a\" \"b\"))"),
        ("\"%{if c}a%{endif}\"", "(tpl (? c \"a\" \"\"))"),
        (
            "\"%{ if true ~} a %{~ else ~} b %{~ endif }|\"",
            "(tpl (? true \"a\" \"b\") \"|\")",
        ),
        (
            "\"%{for k, v in m}${k}=${v},%{endfor}\"",
            "(tpl (join (for k,v in m : (tpl k \"=\" v \",\"))))",
        ),
        (
            "\"%{for x in xs}%{endfor}\"",
            "(tpl (join (for x in xs : \"\")))",
        ),
        ("\"a\\\\b\"", "\"a\\\\b\""),
        // heredocs
        ("<<EOT\nhello\n  world\nEOT\n", "\"hello\\n  world\\n\""),
        ("<<EOT\nEOT\n", "\"\""),
        ("<<EOT\r\nx\r\nEOT\r\n", "\"x\\r\\n\""),
        (
            "<<-EOT\n    four\n  two\n      six\nEOT\n",
            "\"  four\\ntwo\\n    six\\n\"",
        ),
        ("<<-EOT\n    a\n\n    b\n    EOT\n", "\"a\\n\\nb\\n\""),
        // A line starting with an interpolation keeps an empty literal.
        ("<<-EOT\n  ${x}\n  b\nEOT\n", "(tpl \"\" x \"\\nb\\n\")"),
        (
            "<<EOT\nback\\slash ${x}\nEOT\n",
            "(tpl \"back\\\\slash \" x \"\\n\")",
        ),
        // `~}` trims only the literal token that follows: heredoc literals are
        // per line, so the next line keeps its indentation (as in HCL).
        (
            "<<EOT\n%{ if c ~}\n  yes\n%{ endif ~}\nEOT\n",
            "(tpl (? c \"  yes\\n\" \"\") \"\")",
        ),
        ("<<EOT\nEOTX\nEOT\n", "\"EOTX\\n\""),
        ("<<EOT\n  EOT  \n", "\"\""),
        ("[<<EOT\nx\nEOT\n, 1]", "[\"x\\n\" 1]"),
    ];
    let mut failures = Vec::new();
    for (src, want) in cases {
        let got = sx(&expr_ok(src));
        if got != *want {
            failures.push(format!("{src:?}\n   got: {got}\n  want: {want}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn native_expression_errors() {
    let cases: &[(&str, &str, &str)] = &[
        ("", "Missing expression", "t.tf:1,1-1"),
        ("1 +", "Missing expression", "t.tf:1,4-4"),
        ("\"\\b\"", "Invalid escape sequence", "t.tf:1,2-4"),
        ("\"\\u12\"", "Invalid escape sequence", "t.tf:1,2-6"),
        ("\"abc", "Unterminated template string", "t.tf:1,5-5"),
        ("\"a\nb\"", "Invalid multi-line string", "t.tf:1,3-2,1"),
        ("'a'", "Invalid character", "t.tf:1,1-2"),
        ("a @ b", "Invalid character", "t.tf:1,3-4"),
        ("a & b", "Unsupported operator", "t.tf:1,3-4"),
        (
            "\"${a b}\"",
            "Extra characters after interpolation expression",
            "t.tf:1,6-7",
        ),
        (
            "\"${a:b}\"",
            "Extra characters after interpolation expression",
            "t.tf:1,5-6",
        ),
        (
            "\"${a\"",
            "Unclosed template interpolation sequence",
            "t.tf:1,2-4",
        ),
        ("1 2", "Extra characters after expression", "t.tf:1,3-4"),
        ("f(1 2)", "Missing argument separator", "t.tf:1,5-6"),
        ("f(x..., 1)", "Missing closing parenthesis", "t.tf:1,4-7"),
        ("[1 2]", "Missing item separator", "t.tf:1,4-5"),
        (
            "{ a = 1 b = 2 }",
            "Missing attribute separator",
            "t.tf:1,9-10",
        ),
        ("{ a }", "Missing key/value separator", "t.tf:1,5-6"),
        (
            "[for x in y: k => v]",
            "Invalid 'for' expression",
            "t.tf:1,14-15",
        ),
        (
            "{for x in y: v}",
            "Invalid 'for' expression",
            "t.tf:1,14-15",
        ),
        ("x.0.1", "Invalid legacy index syntax", "t.tf:1,3-6"),
        (
            "a ? b",
            "Missing false expression in conditional",
            "t.tf:1,6-6",
        ),
        ("\"%{if c}x\"", "Unexpected end of template", "t.tf:1,10-11"),
        ("\"%{endif}\"", "Unexpected endif directive", "t.tf:1,2-10"),
        (
            "\"%{iff c}x%{endif}\"",
            "Invalid template control keyword",
            "t.tf:1,4-7",
        ),
        ("x.", "Invalid attribute name", "t.tf:1,3-3"),
        (".5", "Invalid expression", "t.tf:1,1-2"),
        ("(1", "Unbalanced parentheses", "t.tf:1,3-3"),
    ];
    let mut failures = Vec::new();
    for (src, summary, subject) in cases {
        let got = expr_err(src);
        match got.first() {
            Some((s, r)) if s == summary && r == subject => {}
            _ => failures.push(format!(
                "{src:?}\n   got: {got:?}\n  want: {summary} at {subject}"
            )),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn native_invalid_escape_detail() {
    let (_, diags) = parse_expression("\"\\b\"", "t.tf", Pos::START);
    assert_eq!(
        diags[0].detail,
        "The symbol \"b\" is not a valid escape sequence selector."
    );
}

#[test]
fn native_expression_ranges_offset_to_start() {
    let start = Pos {
        line: 3,
        column: 5,
        byte: 20,
    };
    let (e, diags) = parse_expression("a + f(b)", "x.tf", start);
    assert!(diags.is_empty());
    assert_eq!(e.range.to_string(), "x.tf:3,5-13");
    assert_eq!(e.range.start.byte, 20);
    assert_eq!(e.range.end.byte, 28);
    let ExprKind::Binary { rhs, .. } = &e.kind else {
        panic!("binary expected")
    };
    let ExprKind::FunctionCall(c) = &rhs.kind else {
        panic!("call expected")
    };
    assert_eq!(c.name_range.to_string(), "x.tf:3,9-10");
    assert_eq!(c.open_paren_range.to_string(), "x.tf:3,10-11");
    assert_eq!(c.close_paren_range.to_string(), "x.tf:3,12-13");
    assert_eq!(c.args[0].range.to_string(), "x.tf:3,11-12");
}

#[test]
fn native_traversal_and_splat_ranges() {
    let e = expr_ok("aws_instance.web[0].id");
    let ExprKind::ScopeTraversal(t) = &e.kind else {
        panic!("traversal expected")
    };
    assert_eq!(t.root_range.to_string(), "t.tf:1,1-13");
    let steps: Vec<String> = t.steps.iter().map(|s| s.range.to_string()).collect();
    assert_eq!(steps, ["t.tf:1,13-17", "t.tf:1,17-20", "t.tf:1,20-23"]);
    let e = expr_ok("x[*].y");
    let ExprKind::Splat { marker_range, .. } = &e.kind else {
        panic!("splat expected")
    };
    assert_eq!(marker_range.to_string(), "t.tf:1,2-5");
    assert_eq!(e.range.to_string(), "t.tf:1,1-7");
}

#[test]
fn native_template_bare() {
    let cases: &[(&str, &str)] = &[
        ("plain", "\"plain\""),
        ("", "\"\""),
        ("${x}", "(wrap x)"),
        ("a ${x} b", "(tpl \"a \" x \" b\")"),
        ("back\\slash\nline", "\"back\\\\slash\\nline\""),
        ("100% $", "\"100% $\""),
        ("$${x}", "\"${x}\""),
        ("%{if a}y%{endif}", "(tpl (? a \"y\" \"\"))"),
    ];
    for (src, want) in cases {
        let (e, diags) = parse_template(src, "t.tf.json", Pos::START);
        assert!(diags.is_empty(), "{src:?}: {diags:?}");
        assert_eq!(sx(&e), *want, "{src:?}");
    }
}

#[test]
fn native_traversal_abs() {
    let (t, diags) = parse_traversal_abs("aws_instance.foo[0][\"k\"]", "t", Pos::START);
    assert!(diags.is_empty());
    assert_eq!(t.unwrap().display(), "aws_instance.foo[0][\"k\"]");
    let cases: &[(&str, &str)] = &[
        ("0.x", "Variable name required"),
        ("a.*", "Attribute name required"),
        ("a[*]", "Attribute name required"),
        ("a[b]", "Index value required"),
        ("a[0", "Unclosed index brackets"),
        ("a+b", "Invalid character"),
    ];
    for (src, summary) in cases {
        let (_, diags) = parse_traversal_abs(src, "t", Pos::START);
        assert_eq!(
            diags.first().map(|d| d.summary.as_str()),
            Some(*summary),
            "{src:?}"
        );
    }
}

#[test]
fn native_gap_chained_operators_and_nesting() {
    let chain = vec!["1"; 201].join(" + ");
    let e = expr_ok(&chain);
    let mut depth = 0;
    let mut cur = &e;
    while let ExprKind::Binary { lhs, .. } = &cur.kind {
        depth += 1;
        cur = lhs;
    }
    assert_eq!(depth, 200);
    let nested = format!("{}1{}", "[".repeat(70), "]".repeat(70));
    expr_ok(&nested);
    let or_chain = vec!["a"; 3000].join(" || ");
    expr_ok(&or_chain);
}

#[test]
fn native_gap_too_deep_is_a_diagnostic() {
    for src in [
        "[".repeat(100_000),
        format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000)),
        "!".repeat(50_000) + "x",
        "x".to_string() + &"[*]".repeat(30_000),
        "\"${".repeat(30_000),
    ] {
        let (_, diags) = parse_expression(&src, "t.tf", Pos::START);
        assert!(crate::has_errors(&diags), "{}", &src[..10]);
        assert!(diags.len() < 5, "{diags:?}");
    }
    let src = vec!["1"; 20_000].join("+");
    let (_, diags) = parse_expression(&src, "t.tf", Pos::START);
    assert_eq!(diags[0].summary, "Nesting too deep");
}

#[test]
fn native_deep_tree_drops_on_small_stack() {
    // The deepest tree the parser accepts must be safe to drop on a normal
    // 2 MiB thread.
    let n = MAX_TREE_DEPTH - 10;
    let src = vec!["1"; n].join("+");
    let (e, diags) = parse_expression(&src, "t.tf", Pos::START);
    assert!(diags.is_empty(), "{:?}", diags.first());
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || drop(e))
        .unwrap()
        .join()
        .unwrap();
}
