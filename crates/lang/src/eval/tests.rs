//! Evaluation of every expression form over variables: references,
//! unknown propagation, marks.

use cty::{Mark, Type, Value};

use crate::test_util::{check_all, eval_src, ok, show};

#[test]
fn traversals() {
    check_all(&[
        ("var.str", r#""hello""#),
        ("var.list[1]", r#""b""#),
        ("var.list.1", r#""b""#),
        ("var.tuple[1]", r#""two""#),
        ("var.map.http", "80"),
        (r#"var.map["ssh"]"#, "22"),
        ("var.obj.nested.y[0]", "1"),
        (r#"var.obj["name"]"#, r#""x""#),
        ("var.users.bob.role", r#""dev""#),
        ("local.greeting", r#""hi""#),
        ("(var.obj).name", r#""x""#),
        ("var.list[var.num - 4]", r#""b""#),
        ("[var.list, var.set][0][2]", r#""c""#),
        ("var.set", r#"toset([ "a", "b", "c", ])"#),
    ]);
}

#[test]
fn unknowns_propagate() {
    check_all(&[
        ("var.unknown_str", "unknown(string)"),
        ("var.unknown_list[0]", "unknown(string)"),
        ("var.unknown_obj.a", "unknown(string)"),
        ("var.list[var.unknown_num]", "unknown(string)"),
        ("var.tuple[var.unknown_num]", "unknown(any)"),
        ("var.map[var.unknown_str]", "unknown(number)"),
        ("var.obj[var.unknown_str]", "unknown(any)"),
        ("var.dyn.foo.bar", "unknown(any)"),
        ("var.dyn[0]", "unknown(any)"),
        ("var.unknown_num + 1", "unknown(number)"),
        ("-var.unknown_num", "unknown(number)"),
        ("!var.unknown_bool", "unknown(bool)"),
        ("var.unknown_num == 1", "unknown(bool)"),
        ("var.unknown_str == null", "unknown(bool)"),
        ("var.unknown_bool || true", "true"),
        ("true || var.unknown_bool", "true"),
        ("var.unknown_bool && false", "false"),
        ("var.unknown_bool && true", "unknown(bool)"),
        ("var.unknown_bool || var.unknown_bool", "unknown(bool)"),
        ("\"a${var.unknown_str}b\"", "unknown(string)"),
        ("\"${var.unknown_str}\"", "unknown(string)"),
        ("var.unknown_bool ? 1 : 2", "unknown(number)"),
        ("var.unknown_bool ? \"a\" : 2", "unknown(string)"),
        ("var.unknown_bool ? [1] : [1, 2]", "unknown(list(number))"),
        ("var.unknown_bool ? var.list : []", "unknown(list(string))"),
        ("[for x in var.unknown_list : x]", "unknown(any)"),
        ("{for k, v in var.dyn : k => v}", "unknown(any)"),
        (
            "[for x in var.list : x if var.unknown_bool]",
            "unknown(any)",
        ),
        ("{for x in var.list : var.unknown_str => x}", "unknown(any)"),
        (
            "[for x in var.list : var.unknown_str]",
            "[ (known after apply), (known after apply), (known after apply), ]",
        ),
        ("{(var.unknown_str) = 1}", "unknown(any)"),
        ("var.unknown_list[*]", "unknown(list(string))"),
        ("var.unknown_obj[*].a", "unknown(any)"),
        ("var.unknown_obj.*.a", "unknown(any)"),
        ("var.dyn[*].a", "unknown(any)"),
        ("upper(var.unknown_str)", "unknown(string)"),
        ("length(var.unknown_list)", "unknown(number)"),
        ("length(var.dyn)", "unknown(number)"),
        ("max(var.unknown_num, 1)", "unknown(number)"),
        ("format(\"%s\", var.unknown_str)", "unknown(string)"),
        ("jsonencode([var.unknown_str])", "unknown(string)"),
        ("keys(var.unknown_obj)", r#"[ "a", ]"#),
        ("coalesce(var.unknown_str, \"x\")", "unknown(string)"),
        ("concat(var.unknown_list, [\"x\"])", "unknown(any)"),
        ("try(var.unknown_str, \"x\")", "unknown(any)"),
        ("can(var.unknown_str)", "unknown(bool)"),
        ("can(var.list[0])", "true"),
        ("try(var.obj.nope, var.list[0])", r#""a""#),
        ("max(var.unknown_list...)", "unknown(any)"),
    ]);
}

#[test]
fn splats() {
    check_all(&[
        ("var.objs[*].name", r#"tolist([ "a", "b", ])"#),
        ("var.objs.*.id", "tolist([ 1, 2, ])"),
        (
            "var.objs[*]",
            "tolist([ { \"id\" = 1 \"name\" = \"a\" }, { \"id\" = 2 \"name\" = \"b\" }, ])",
        ),
        ("var.obj[*].name", r#"[ "x", ]"#),
        ("var.null_str[*]", "[]"),
        ("var.null_obj[*].a", "[]"),
        ("var.str[*]", r#"[ "hello", ]"#),
        ("var.empty_list[*]", "tolist([])"),
        ("var.set[*]", r#"tolist([ "a", "b", "c", ])"#),
        ("var.tuple[*]", r#"[ 1, "two", true, ]"#),
        ("[var.obj, var.obj][*].nested.y[1]", "[ 2, 2, ]"),
        ("length(var.objs[*].name)", "2"),
        (
            "[[var.objs]][*][0][*].name",
            "[ tolist([ \"a\", \"b\", ]), ]",
        ),
        ("[for o in var.objs : o.name][*]", r#"[ "a", "b", ]"#),
    ]);
}

#[test]
fn for_expressions_over_variables() {
    check_all(&[
        (
            "[for k, v in var.users : k if v.is_admin]",
            r#"[ "alice", ]"#,
        ),
        (
            "{for k, v in var.users : v.role => k...}",
            r#"{ "admin" = [ "alice", ] "dev" = [ "bob", "carol", ] }"#,
        ),
        (
            "{for k, v in var.map : v => k}",
            r#"{ "22" = "ssh" "443" = "https" "80" = "http" }"#,
        ),
        ("[for i, s in var.set : i]", r#"[ "a", "b", "c", ]"#),
        ("[for i, s in var.list : i]", "[ 0, 1, 2, ]"),
        (
            "[for x in var.list : [for y in var.list : \"${x}${y}\" if y != x][0]]",
            r#"[ "ab", "ba", "ca", ]"#,
        ),
        (
            "[for x in var.list : x if x != local.greeting]",
            r#"[ "a", "b", "c", ]"#,
        ),
        // The for-expression symbol shadows an outer variable of the same name.
        ("[for var in [1, 2] : var]", "[ 1, 2, ]"),
    ]);
}

#[test]
fn conditionals_unify() {
    check_all(&[
        ("true ? var.list : []", r#"tolist([ "a", "b", "c", ])"#),
        ("false ? var.list : []", "tolist([])"),
        (
            "true ? var.map : {a = 1}",
            "tomap({ \"http\" = 80 \"https\" = 443 \"ssh\" = 22 })",
        ),
        ("false ? var.dyn : 1", "1"),
        ("true ? var.null_str : 1", "tostring(null)"),
        ("var.num > 3 ? \"big\" : \"small\"", r#""big""#),
    ]);
}

fn sensitive(v: &Value) -> bool {
    v.has_mark(&Mark::Sensitive)
}

/// Evaluates and reports whether the result itself is marked sensitive.
fn marked(src: &str) -> bool {
    let (v, d) = eval_src(src);
    assert!(!hclsyntax::has_errors(&d), "{src}: {d:?}");
    sensitive(&v)
}

#[test]
fn marks_propagate() {
    for src in [
        "var.secret",
        "upper(var.secret)",
        "\"a-${var.secret}\"",
        "var.secret_num + 1",
        "-var.secret_num",
        "var.secret_num > 1",
        "var.secret == \"x\"",
        "var.secret_list[0]",
        "var.secret_list[*]",
        "[for x in var.secret_list : x]",
        "{for x in var.secret_list : x => 1}",
        "length(var.secret_list)",
        "join(\",\", var.secret_list)",
        "true ? var.secret : \"x\"",
        "sensitive(true) ? 1 : 2",
        "var.unknown_bool ? var.secret : \"x\"",
        "{(var.secret) = 1}",
        "tostring(var.secret_num)",
        "jsonencode({a = var.secret})",
        "format(\"%s\", var.secret)",
        "var.secret_num * var.unknown_num",
        "coalesce(var.secret, \"x\")",
        "lookup({a = var.secret}, \"a\")",
        "element(var.secret_list, 0)",
    ] {
        assert!(marked(src), "{src} should be sensitive");
    }
    for src in [
        "nonsensitive(var.secret)",
        "issensitive(var.secret)",
        "false ? var.secret : \"x\"",
        "can(var.secret)",
        "length([var.secret])",
        "[var.secret][0] == \"x\" ? 1 : 1",
    ] {
        let (v, d) = eval_src(src);
        assert!(!hclsyntax::has_errors(&d), "{src}: {d:?}");
        if src == "issensitive(var.secret)" {
            assert_eq!(show(&v), "true");
        }
        if src.starts_with("length(") {
            // The tuple holds the mark on its element, not itself.
            assert!(!sensitive(&v), "{src}");
        }
    }
    // Elements keep their own marks inside collections.
    let (v, _) = eval_src("[var.secret, \"x\"]");
    assert!(!sensitive(&v));
    assert!(v.contains_marked());
    assert_eq!(ok("issensitive(\"x\")"), "false");
    assert_eq!(ok("nonsensitive(var.secret)"), r#""hunter2""#);
}

#[test]
fn numbers_keep_full_precision() {
    check_all(&[
        ("0.1 + 0.2", "0.3"),
        ("1 / 3 * 3", "1"),
        ("12345678901234567890 + 1", "12345678901234567891"),
        ("9007199254740993", "9007199254740993"),
    ]);
}

#[test]
fn tuple_and_object_types() {
    let (v, _) = eval_src("[1, \"a\", null]");
    assert_eq!(
        v.ty(),
        &Type::tuple(vec![Type::Number, Type::String, Type::Dynamic])
    );
    let (v, _) = eval_src("{a = 1, b = \"x\"}");
    assert_eq!(
        v.ty(),
        &Type::object_from([("a", Type::Number), ("b", Type::String)])
    );
    // Later keys replace earlier ones.
    assert_eq!(ok("{a = 1, a = 2}"), r#"{ "a" = 2 }"#);
    assert_eq!(ok("{(local.greeting) = 1}"), r#"{ "hi" = 1 }"#);
    assert_eq!(ok("{local = 1}"), r#"{ "local" = 1 }"#);
}

#[test]
fn deep_nesting_evaluates() {
    // A long operator chain nests once per operator (the parser allows up
    // to 10000 levels of those).
    let src = vec!["1"; 9000].join(" + ");
    assert_eq!(ok(&src), "9000");
    let src = format!("{}1{}", "(".repeat(900), ")".repeat(900));
    assert_eq!(ok(&src), "1");
    let src = format!("{}1{}", "[".repeat(400), "]".repeat(400));
    let (v, d) = eval_src(&src);
    assert!(!hclsyntax::has_errors(&d));
    assert!(v.ty().is_tuple());
}

#[test]
fn json_expressions() {
    use hclsyntax::json::parse_value;
    use hclsyntax::SourceFile;
    let src = SourceFile::new(
        "x.tf.json",
        r#"{"a": "${var.str}-x", "b": [1, true, null], "${local.greeting}": 2, "c": "${var.num}"}"#,
    );
    let (node, d) = parse_value(&src);
    assert!(d.is_empty());
    let node = node.expect("parsed");
    let expr = hclsyntax::Expr::new(hclsyntax::ExprKind::Json(node.clone()), node.range.clone());
    let (v, d) = crate::eval::eval_expr(&expr, &crate::test_util::test_ctx());
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        show(&v),
        r#"{ "a" = "hello-x" "b" = [ 1, true, null, ] "c" = 5 "hi" = 2 }"#
    );

    let src = SourceFile::new("y.tf.json", r#"{"a": 1, "a": 2}"#);
    let (node, _) = parse_value(&src);
    let node = node.expect("parsed");
    let expr = hclsyntax::Expr::new(hclsyntax::ExprKind::Json(node.clone()), node.range.clone());
    let (_, d) = crate::eval::eval_expr(&expr, &crate::test_util::test_ctx());
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].summary, "Duplicate object attribute");
    assert_eq!(
        d[0].detail,
        "An attribute named \"a\" was already defined at y.tf.json:1,2-5."
    );
}

#[test]
fn long_operator_chains_fold_without_recursion() {
    // The parser's limit: 10,000 chained operators. Folded iteratively,
    // the chain counts as shallow, so it is evaluated on the caller's
    // stack (no big-stack thread per evaluation).
    let chain = format!("1{}", "+1".repeat(9_999));
    assert!(crate::eval::expr_depth(&crate::test_util::parse(&chain)) <= crate::eval::INLINE_DEPTH);
    assert_eq!(ok(&chain), "10000");
    // Left before right, and the failing operation's own operands named.
    assert_eq!(ok("10 - 3 - 2 * 2 + 1"), "4");
    let (_, diags) = eval_src("1 + 2 + \"x\" + 4");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Invalid operand");
    assert_eq!(
        diags[0].detail,
        "Unsuitable value for right operand: a number is required."
    );
}
