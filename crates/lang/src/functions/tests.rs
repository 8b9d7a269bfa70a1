//! Builtin functions, table-driven (cases from cty's stdlib tests and
//! `terraform console`; more are in `eval/testdata/console_golden.jsonl`).

use crate::test_util::{check_all, check_errors};

#[test]
fn format_verbs() {
    check_all(&[
        (r#"format("hello")"#, r#""hello""#),
        (r#"format("%s %s", "a", "b")"#, r#""a b""#),
        (r#"format("%[2]s %[1]s", "a", "b")"#, r#""b a""#),
        (r#"format("%[2]s %s", "a", "b", "c")"#, r#""b c""#),
        (r#"format("%d", 12)"#, r#""12""#),
        (r#"format("%d", -12)"#, r#""-12""#),
        (r#"format("%+d % d", 5, 5)"#, r#""+5  5""#),
        (
            r#"format("%5d|%-5d|%05d", 7, 7, -7)"#,
            r#""    7|7    |-0007""#,
        ),
        (r#"format("%.3d", 7)"#, r#""007""#),
        (
            r#"format("%x %X %#x %#o %b", 3054, 3054, 3054, 8, 5)"#,
            r#""bee BEE 0xbee 010 101""#,
        ),
        (
            r#"format("%d", 12345678901234567890)"#,
            r#""12345678901234567890""#,
        ),
        (r#"format("%f", 1.5)"#, r#""1.500000""#),
        (r#"format("%.2f", 3.14159)"#, r#""3.14""#),
        (
            r#"format("%8.2f|%-8.2f|%08.2f", 3.14159, 3.14159, -3.14159)"#,
            r#""    3.14|3.14    |-0003.14""#,
        ),
        (r#"format("%e", 12345.678)"#, r#""1.234568e+04""#),
        (r#"format("%E", 0.000123)"#, r#""1.230000E-04""#),
        (
            r#"format("%g %g %g", 1.5, 100000000, 0.00001)"#,
            r#""1.5 1e+08 1e-05""#,
        ),
        (r#"format("%.3g", 3.14159)"#, r#""3.14""#),
        (r#"format("%f", 1/0)"#, r#""+Inf""#),
        (r#"format("%+.1f", 2)"#, r#""+2.0""#),
        (r#"format("%.0f %.0f", 2.5, 3.5)"#, r#""2 4""#),
        (r#"format("%s", "héllo")"#, r#""héllo""#),
        (
            r#"format("%.2s|%6s|%-6s|", "héllo", "é", "é")"#,
            r#""hé|     é|é     |""#,
        ),
        (r#"format("%q", "a\nb")"#, r#""\"a\\nb\"""#),
        (r#"format("%s %s %s", 1, true, 1.25)"#, r#""1 true 1.25""#),
        (
            r#"format("%v %v %v %v", "s", 1.5, true, tostring(null))"#,
            r#""s 1.5 true null""#,
        ),
        (r#"format("%#v %#v", "s", 2)"#, r#""\"s\" 2""#),
        (r#"format("%v", ["a", 1])"#, r#""[\"a\",1]""#),
        (r#"format("%6v|", 12)"#, r#""    12|""#),
        (r#"format("%t", "true")"#, r#""true""#),
        (r#"format("%d%%", 50)"#, r#""50%""#),
        (r#"format("%%%s%%", "x")"#, r#""%x%""#),
    ]);
}

#[test]
fn format_errors() {
    let failed = "Error in function call";
    let bad_arg = "Invalid function argument";
    check_errors(&[
        (r#"format("%s")"#, failed, "Call to function \"format\" failed: not enough arguments for \"%s\" at 0: need index 1 but have 0 total."),
        (r#"format("%d", "a")"#, failed, "Call to function \"format\" failed: unsupported value for \"%d\" at 0: a number is required."),
        (r#"format("%d", 1.5)"#, failed, "Call to function \"format\" failed: unsupported value for \"%d\" at 0: an integer is required."),
        (r#"format("%s", null)"#, "", ""),
        (r#"format("%s", tostring(null))"#, failed, "Call to function \"format\" failed: unsupported value for \"%s\" at 0: null value cannot be formatted."),
        (r#"format("%z", 1)"#, failed, "Call to function \"format\" failed: unsupported format verb 'z' in \"%z\" at offset 0."),
        (r#"format("abc%")"#, failed, "Call to function \"format\" failed: invalid format string starting at offset 4."),
        (r#"format("%é", 1)"#, failed, "Call to function \"format\" failed: unrecognized format character 'é' at offset 1."),
        (r#"format("%d", 1, 2)"#, bad_arg, "Invalid value for \"args\" parameter: too many arguments; only 1 used by format string."),
        (r#"format("x", 1)"#, bad_arg, "Invalid value for \"args\" parameter: too many arguments; no verbs in format string."),
    ][..]
        .iter()
        .filter(|c| !c.1.is_empty())
        .copied()
        .collect::<Vec<_>>());
}

#[test]
fn collection_functions() {
    check_all(&[
        ("length(var.list)", "3"),
        ("length(var.map)", "3"),
        ("length(var.set)", "3"),
        ("length(var.str)", "5"),
        ("length(\"👍🏽x\")", "2"),
        ("keys(var.users)", r#"tolist([ "alice", "bob", "carol", ])"#),
        ("values(var.map)", "tolist([ 80, 443, 22, ])"),
        ("lookup(var.users, \"bob\").role", r#""dev""#),
        ("lookup(var.map, \"nope\", 0)", "0"),
        ("lookup(var.obj, \"nope\", \"d\")", r#""d""#),
        (
            "merge(var.map, {extra = 1})",
            "{ \"extra\" = 1 \"http\" = 80 \"https\" = 443 \"ssh\" = 22 }",
        ),
        (
            "merge(var.map, var.map)",
            "tomap({ \"http\" = 80 \"https\" = 443 \"ssh\" = 22 })",
        ),
        ("concat(var.list, [\"d\"])", r#"[ "a", "b", "c", "d", ]"#),
        (
            "concat(var.list, tolist([\"d\"]))",
            r#"tolist([ "a", "b", "c", "d", ])"#,
        ),
        ("element(var.list, 5)", r#""c""#),
        ("element(var.tuple, 1)", r#""two""#),
        ("element(var.list, -1)", r#""c""#),
        ("element(var.list, -4)", r#""c""#),
        ("range(0)", "tolist([])"),
        ("range(-3)", "tolist([ 0, -1, -2, ])"),
        ("range(1, 2, 0.5)", "tolist([ 1, 1.5, ])"),
        ("coalesce(var.null_str, var.str)", r#""hello""#),
    ]);
    check_errors(&[
        ("element(var.set, 0)", "Error in function call", "Call to function \"element\" failed: cannot read elements from set of string."),
        ("element(var.tuple, -1)", "Error in function call", "Call to function \"element\" failed: cannot use element function with a negative index."),
        ("range(1, 2, 3, 4)", "Error in function call", "Call to function \"range\" failed: must have one, two, or three arguments."),
        ("range(3, 1, 1)", "Invalid function argument", "Invalid value for \"params\" parameter: end must be greater than start when step is positive."),
        ("range(1, 3, -1)", "Invalid function argument", "Invalid value for \"params\" parameter: end must be less than start when step is negative."),
        ("range(2000)", "Error in function call", "Call to function \"range\" failed: more than 1024 values were generated; either decrease the difference between start and end or use a smaller step."),
        ("lookup(var.list, 0)", "Invalid function argument", "Invalid value for \"inputMap\" parameter: lookup() requires a map as the first argument."),
        ("lookup(var.map, \"a\", \"x\")", "Invalid function argument", "Invalid value for \"default\" parameter: the default value must have the same type as the map elements."),
        ("lookup(var.map, \"a\", 1, 2)", "Error in function call", "Call to function \"lookup\" failed: lookup() takes two or three arguments, got 4."),
        ("values(var.list)", "Error in function call", "Call to function \"values\" failed: values() requires a map as the first argument."),
        ("merge(var.map, 1)", "Invalid function argument", "Invalid value for \"maps\" parameter: arguments must be maps or objects, got \"number\"."),
        ("coalesce(1, [])", "Error in function call", "Call to function \"coalesce\" failed: all arguments must have the same type."),
        ("join(\",\", [\"a\"], [null])", "Invalid function argument", "Invalid value for \"lists\" parameter: element 0 of list 2 is null; cannot concatenate null values."),
    ]);
}

#[test]
fn conversion_and_encoding_functions() {
    check_all(&[
        ("tolist(var.set)", r#"tolist([ "a", "b", "c", ])"#),
        ("toset(var.list)", r#"toset([ "a", "b", "c", ])"#),
        ("tomap(var.obj.nested)", "tomap({ \"y\" = [ 1, 2, ] })"),
        ("tostring(var.num)", r#""5""#),
        ("tonumber(\"1.50\")", "1.5"),
        ("tobool(\"false\")", "false"),
        ("tolist(var.unknown_list)", "unknown(list(any))"),
        (
            "jsonencode(var.users.bob)",
            r#""{\"is_admin\":false,\"role\":\"dev\"}""#,
        ),
        ("jsondecode(\"[1, \\\"a\\\"]\")[1]", r#""a""#),
        ("jsondecode(jsonencode(var.obj)).nested.y[1]", "2"),
        ("upper(var.str)", r#""HELLO""#),
        ("lower(\"ÉA\")", r#""éa""#),
        ("join(\"\", [])", r#""""#),
        ("split(\"/\", \"a/b\")", r#"tolist([ "a", "b", ])"#),
        ("abs(-1.5)", "1.5"),
        ("max(var.num, 2)", "5"),
        ("min(var.num, 2)", "2"),
    ]);
    check_errors(&[
        ("tobool(\"TRUE\")", "Invalid function argument", "Invalid value for \"v\" parameter: cannot convert \"TRUE\" to bool; only the strings \"true\" or \"false\" are allowed."),
        ("tolist(var.obj)", "Invalid function argument", "Invalid value for \"v\" parameter: cannot convert object to list of any single type."),
        ("jsondecode(\"\")", "Error in function call", "Call to function \"jsondecode\" failed: unexpected end of JSON input."),
    ]);
}

#[test]
fn try_and_can() {
    check_all(&[
        ("try(var.obj.nope, \"fallback\")", r#""fallback""#),
        ("try(var.list[9], var.list[0])", r#""a""#),
        ("try(var.map[\"ssh\"], 0)", "22"),
        ("can(var.obj.name)", "true"),
        ("can(var.obj.nope)", "false"),
        ("can(tonumber(\"x\"))", "false"),
        (
            "[for x in [\"1\", \"a\"] : can(tonumber(x))]",
            "[ true, false, ]",
        ),
        ("try(local.greeting, 1)", r#""hi""#),
        ("core::try(var.nope, 2)", "2"),
    ]);
}
