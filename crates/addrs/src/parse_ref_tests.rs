//! Ported from `internal/addrs/parse_ref_test.go`.

use super::*;
use crate::test_traversal::{range, traversal};

fn attr(name: &str, start: usize, end: usize) -> TraversalStep {
    TraversalStep {
        kind: StepKind::Attr(name.to_string()),
        range: range(start, end),
    }
}

fn index(key: &str, start: usize, end: usize) -> TraversalStep {
    TraversalStep {
        kind: StepKind::Index(Literal::String(key.to_string())),
        range: range(start, end),
    }
}

fn want(
    subject: Referenceable,
    end: usize,
    remaining: Vec<TraversalStep>,
) -> Result<Reference, &'static str> {
    Ok(Reference {
        subject,
        source_range: range(0, end),
        remaining,
    })
}

fn res(mode: ResourceMode, t: &str, n: &str) -> Resource {
    Resource {
        mode,
        type_name: t.to_string(),
        name: n.to_string(),
    }
}

fn inst(r: Resource, key: InstanceKey) -> Referenceable {
    Referenceable::ResourceInstance(ResourceInstance { resource: r, key })
}

fn call_inst(name: &str, key: InstanceKey) -> ModuleCallInstance {
    ModuleCallInstance {
        call: ModuleCall {
            name: name.to_string(),
        },
        key,
    }
}

fn output(call: ModuleCallInstance, name: &str) -> Referenceable {
    Referenceable::ModuleCallInstanceOutput(ModuleCallInstanceOutput {
        call,
        name: name.to_string(),
    })
}

fn check_table(
    parse: fn(&Traversal) -> Result<Reference, Diagnostics>,
    tests: Vec<(&str, Result<Reference, &str>)>,
) {
    for (input, expected) in tests {
        let got = parse(&traversal(input));
        match (got, expected) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{input}"),
            (Err(d), Err(w)) => {
                assert_eq!(d.len(), 1, "{input}");
                assert_eq!(d[0].detail, w, "{input}")
            }
            (got, w) => panic!("{input}: got {got:?}, want {w:?}"),
        }
    }
}

#[test]
fn parse_ref_in_testing_scope() {
    use Referenceable as R;
    check_table(
        parse_ref_from_testing_scope,
        vec![
            (
                "output.value",
                want(
                    R::OutputValue(OutputValue {
                        name: "value".into(),
                    }),
                    12,
                    vec![],
                ),
            ),
            (
                "output",
                Err(
                    r#"The "output" object cannot be accessed directly. Instead, access one of its attributes."#,
                ),
            ),
            (
                r#"output["foo"]"#,
                Err(r#"The "output" object does not support this operation."#),
            ),
            (
                "check.health",
                want(
                    R::Check(Check {
                        name: "health".into(),
                    }),
                    12,
                    vec![],
                ),
            ),
            (
                "check",
                Err(
                    r#"The "check" object cannot be accessed directly. Instead, access one of its attributes."#,
                ),
            ),
            (
                r#"check["foo"]"#,
                Err(r#"The "check" object does not support this operation."#),
            ),
            (
                "count.index",
                want(
                    R::CountAttr(CountAttr {
                        name: "index".into(),
                    }),
                    11,
                    vec![],
                ),
            ),
        ],
    );
}

#[test]
fn parse_ref_table() {
    use Referenceable as R;
    use ResourceMode::*;
    let s = |k: &str| InstanceKey::String(k.to_string());
    let tf = |alias: &str| {
        R::TerraformAttr(TerraformAttr {
            alias: alias.into(),
            name: "workspace".into(),
        })
    };
    let reserved = |n: &str| {
        format!("The symbol name \"{n}\" is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.")
    };
    let (template, lazy, arg) = (reserved("template"), reserved("lazy"), reserved("arg"));
    let tests: Vec<(&str, Result<Reference, &str>)> = vec![
        // count
        ("count.index", want(R::CountAttr(CountAttr { name: "index".into() }), 11, vec![])),
        ("count.index.blah", want(R::CountAttr(CountAttr { name: "index".into() }), 11, vec![attr("blah", 11, 16)])),
        ("count", Err(r#"The "count" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"count["hello"]"#, Err(r#"The "count" object does not support this operation."#)),
        // each
        ("each.key", want(R::ForEachAttr(ForEachAttr { name: "key".into() }), 8, vec![])),
        ("each.value.blah", want(R::ForEachAttr(ForEachAttr { name: "value".into() }), 10, vec![attr("blah", 10, 15)])),
        ("each", Err(r#"The "each" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"each["hello"]"#, Err(r#"The "each" object does not support this operation."#)),
        // data
        ("data.external.foo", want(R::Resource(res(Data, "external", "foo")), 17, vec![])),
        ("data.external.foo.bar", want(inst(res(Data, "external", "foo"), InstanceKey::None), 17, vec![attr("bar", 17, 21)])),
        (r#"data.external.foo["baz"].bar"#, want(inst(res(Data, "external", "foo"), s("baz")), 24, vec![attr("bar", 24, 28)])),
        (r#"data.external.foo["baz"]"#, want(inst(res(Data, "external", "foo"), s("baz")), 24, vec![])),
        ("data", Err(r#"The "data" object must be followed by two attribute names: the data source type and the resource name."#)),
        ("data.external", Err(r#"The "data" object must be followed by two attribute names: the data source type and the resource name."#)),
        // ephemeral (beyond the Go table)
        ("ephemeral.x.y", want(R::Resource(res(Ephemeral, "x", "y")), 13, vec![])),
        ("ephemeral.x", Err(r#"The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name."#)),
        (r#"ephemeral.x["y"]"#, Err("A reference to an ephemeral resource must be followed by at least one attribute access, specifying the resource name.")),
        (r#"data["x"].y"#, Err(r#"The "data" object does not support this operation."#)),
        // local
        ("local.foo", want(R::LocalValue(LocalValue { name: "foo".into() }), 9, vec![])),
        ("local.foo.blah", want(R::LocalValue(LocalValue { name: "foo".into() }), 9, vec![attr("blah", 9, 14)])),
        (r#"local.foo["blah"]"#, want(R::LocalValue(LocalValue { name: "foo".into() }), 9, vec![index("blah", 9, 17)])),
        ("local", Err(r#"The "local" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"local["foo"]"#, Err(r#"The "local" object does not support this operation."#)),
        // module
        ("module.foo", want(R::ModuleCall(ModuleCall { name: "foo".into() }), 10, vec![])),
        ("module.foo.bar", want(output(call_inst("foo", InstanceKey::None), "bar"), 14, vec![])),
        ("module.foo.bar.baz", want(output(call_inst("foo", InstanceKey::None), "bar"), 14, vec![attr("baz", 14, 18)])),
        (r#"module.foo["baz"]"#, want(R::ModuleCallInstance(call_inst("foo", s("baz"))), 17, vec![])),
        (r#"module.foo["baz"].bar"#, want(output(call_inst("foo", s("baz")), "bar"), 21, vec![])),
        (r#"module.foo["baz"].bar.boop"#, want(output(call_inst("foo", s("baz")), "bar"), 21, vec![attr("boop", 21, 26)])),
        ("module", Err(r#"The "module" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"module["foo"]"#, Err(r#"The "module" object does not support this operation."#)),
        (r#"module.foo["a"]["b"]"#, Err("Module instance objects do not support this operation.")),
        // path
        ("path.module", want(R::PathAttr(PathAttr { name: "module".into() }), 11, vec![])),
        ("path.module.blah", want(R::PathAttr(PathAttr { name: "module".into() }), 11, vec![attr("blah", 11, 16)])),
        ("path", Err(r#"The "path" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"path["module"]"#, Err(r#"The "path" object does not support this operation."#)),
        // self
        ("self", want(R::Self_, 4, vec![])),
        ("self.blah", want(R::Self_, 4, vec![attr("blah", 4, 9)])),
        // terraform
        ("terraform.workspace", want(tf("terraform"), 19, vec![])),
        ("terraform.workspace.blah", want(tf("terraform"), 19, vec![attr("blah", 19, 24)])),
        ("terraform", Err(r#"The "terraform" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"terraform["workspace"]"#, Err(r#"The "terraform" object does not support this operation."#)),
        // tofu
        ("tofu.workspace", want(tf("tofu"), 14, vec![])),
        ("tofu.workspace.blah", want(tf("tofu"), 14, vec![attr("blah", 14, 19)])),
        ("tofu", Err(r#"The "tofu" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"tofu["workspace"]"#, Err(r#"The "tofu" object does not support this operation."#)),
        // var
        ("var.foo", want(R::InputVariable(InputVariable { name: "foo".into() }), 7, vec![])),
        ("var.foo.blah", want(R::InputVariable(InputVariable { name: "foo".into() }), 7, vec![attr("blah", 7, 12)])),
        ("var", Err(r#"The "var" object cannot be accessed directly. Instead, access one of its attributes."#)),
        (r#"var["foo"]"#, Err(r#"The "var" object does not support this operation."#)),
        // resource prefix
        ("resource.boop_instance.foo", want(R::Resource(res(Managed, "boop_instance", "foo")), 26, vec![])),
        // reserved
        ("template.foo", Err(template.as_str())),
        ("lazy.foo", Err(lazy.as_str())),
        ("arg.foo", Err(arg.as_str())),
        // managed resources
        ("boop_instance.foo", want(R::Resource(res(Managed, "boop_instance", "foo")), 17, vec![])),
        ("boop_instance.foo.bar", want(inst(res(Managed, "boop_instance", "foo"), InstanceKey::None), 17, vec![attr("bar", 17, 21)])),
        (r#"boop_instance.foo["baz"].bar"#, want(inst(res(Managed, "boop_instance", "foo"), s("baz")), 24, vec![attr("bar", 24, 28)])),
        (r#"boop_instance.foo["baz"]"#, want(inst(res(Managed, "boop_instance", "foo"), s("baz")), 24, vec![])),
        ("boop_instance", Err("A reference to a resource type must be followed by at least one attribute access, specifying the resource name.")),
        (r#"boop_instance["x"]"#, Err("A reference to a resource type must be followed by at least one attribute access, specifying the resource name.")),
        ("aws_instance.foo[0].id", want(inst(res(Managed, "aws_instance", "foo"), InstanceKey::Int(0)), 19, vec![attr("id", 19, 22)])),
        ("aws_instance.foo[true]", Err("Invalid index for resource instance: either a string or an integer is required.")),
        // outputs and checks are resource types outside tests
        ("output.value", want(R::Resource(res(Managed, "output", "value")), 12, vec![])),
        ("check.health", want(R::Resource(res(Managed, "check", "health")), 12, vec![])),
    ];
    check_table(parse_ref, tests);
}

#[test]
fn diagnostics_have_summaries_and_subjects() {
    let d = parse_ref(&traversal("count")).unwrap_err().remove(0);
    assert_eq!(d.summary, "Invalid reference");
    assert_eq!(d.subject, Some(range(0, 5)));
    let d = parse_ref(&traversal("data.x")).unwrap_err().remove(0);
    assert_eq!(d.subject, Some(range(0, 6)));
    let d = parse_ref(&traversal("template.x")).unwrap_err().remove(0);
    assert_eq!(d.summary, "Reserved symbol name");
    let d = parse_ref(&traversal("a.b[true]")).unwrap_err().remove(0);
    assert_eq!(d.summary, "Invalid index key");
    assert_eq!(d.subject, Some(range(3, 9)));
}

#[test]
fn display_string() {
    let r = parse_ref(&traversal(r#"aws_instance.foo["k"].tags["Name"][0]"#)).unwrap();
    assert_eq!(
        r.display_string(),
        r#"aws_instance.foo["k"].tags["Name"][0]"#
    );
}
