//! Console formatting cases taken from `terraform console` golden outputs.

use super::*;
use crate::number::Number;

fn s(x: &str) -> Value {
    Value::string(x)
}

fn n(x: &str) -> Value {
    Value::number(Number::parse(x).unwrap())
}

#[test]
fn golden_shapes() {
    let tags = Value::set(
        Type::String,
        ["web", "prod", "critical", "Alpha", "9", "10"]
            .map(s)
            .to_vec(),
    )
    .unwrap();
    assert_eq!(
        console_format(&tags),
        "toset([\n  \"10\",\n  \"9\",\n  \"Alpha\",\n  \"critical\",\n  \"prod\",\n  \"web\",\n])"
    );
    let backup_ty = Type::object_from([("x", Type::String)]);
    let inst = Value::object_from([
        ("backup", Value::null(backup_ty)),
        (
            "labels",
            Value::map(
                Type::String,
                [
                    ("env".to_string(), s("prod")),
                    ("team".to_string(), s("core")),
                ]
                .into(),
            )
            .unwrap(),
        ),
        ("name", s("app-server")),
        ("replicas", n("3")),
        ("size", s("small")),
        (
            "zones",
            Value::list(Type::String, vec![s("a"), s("b")]).unwrap(),
        ),
    ]);
    assert_eq!(
        console_format(&inst),
        "{\n  \"backup\" = null /* object */\n  \"labels\" = tomap({\n    \"env\" = \"prod\"\n    \"team\" = \"core\"\n  })\n  \"name\" = \"app-server\"\n  \"replicas\" = 3\n  \"size\" = \"small\"\n  \"zones\" = tolist([\n    \"a\",\n    \"b\",\n  ])\n}"
    );
    assert_eq!(
        console_format(&s("line1\nline2\nline3\n")),
        "<<EOT\nline1\nline2\nline3\n\nEOT"
    );
    let obj = Value::object_from([("a", s("line1\nline2"))]);
    assert_eq!(
        console_format(&obj),
        "{\n  \"a\" = <<-EOT\n  line1\n  line2\n  EOT\n}"
    );
    let conn = Value::object_from([
        ("host", s("db.internal")),
        ("password", s("x").mark(Mark::Sensitive)),
        ("user", s("admin")),
    ]);
    assert_eq!(
        console_format(&conn),
        "{\n  \"host\" = \"db.internal\"\n  \"password\" = (sensitive value)\n  \"user\" = \"admin\"\n}"
    );
    assert_eq!(console_format(&Value::empty_tuple()), "[]");
    assert_eq!(console_format(&Value::null(Type::String)), "tostring(null)");
    assert_eq!(
        console_format(&Value::null(Type::list(Type::Dynamic))),
        "tolist(null) /* of dynamic */"
    );
    assert_eq!(
        console_format(&Value::unknown(Type::String)),
        "(known after apply)"
    );
    assert_eq!(console_format(&n("1").divide(&n("0")).unwrap()), "+Inf");
    let with_null = Value::set(Type::String, vec![s("a"), Value::null(Type::String)]).unwrap();
    assert_eq!(
        console_format(&with_null),
        "toset([\n  \"a\",\n  tostring(null),\n])"
    );
    let objs = Value::set(
        Type::object_from([("a", Type::Number)]),
        ["10", "2", "1"]
            .iter()
            .map(|x| Value::object_from([("a", n(x))]))
            .collect(),
    )
    .unwrap();
    assert_eq!(
        console_format(&objs),
        "toset([\n  {\n    \"a\" = 10\n  },\n  {\n    \"a\" = 1\n  },\n  {\n    \"a\" = 2\n  },\n])"
    );
    assert_eq!(console_format(&s("<&>\t\"")), "\"<&>\\t\\\"\"");
    assert_eq!(console_format(&s("EOT\nx")), "<<EOT_\nEOT\nx\nEOT_");
}

#[test]
fn go_quote_escapes() {
    let cases = [
        ("plain", "\"plain\""),
        ("a\u{7}b", "\"a\\ab\""),
        ("\u{1}", "\"\\x01\""),
        ("\u{a0}", "\"\\u00a0\""),
        ("héllo 👍", "\"héllo 👍\""),
        ("\u{feff}", "\"\\ufeff\""),
    ];
    for (input, want) in cases {
        assert_eq!(go_quote(input), want);
    }
}
