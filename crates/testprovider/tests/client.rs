//! The plugin client against the test provider, over protocols 5 and 6.

// The tests report launch and call times.
#![allow(clippy::print_stderr)]

mod common;

use std::time::Instant;

use cty::{Path, PathStep, Type, Value};
use plugin::{launch, ProviderDiagnostic, Severity};

fn schema_round_trip(protocol: u32) {
    let started = Instant::now();
    let client = launch(&common::options(protocol, None)).unwrap();
    let launched = started.elapsed();
    assert_eq!(client.protocol_version(), protocol);
    let (got, diags) = client.get_provider_schema().unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let served = common::schema();
    let want = if protocol == 5 {
        common::flattened(&served)
    } else {
        served
    };
    assert_eq!(got, want);
    eprintln!(
        "protocol {protocol}: launch {launched:?}, schema {:?}",
        started.elapsed() - launched
    );
    client.close();
}

#[test]
fn schema_round_trip_v5() {
    schema_round_trip(5);
}

#[test]
fn schema_round_trip_v6() {
    schema_round_trip(6);
}

fn invalid(path: Vec<PathStep>) -> ProviderDiagnostic {
    ProviderDiagnostic {
        severity: Severity::Error,
        summary: "Invalid value".into(),
        detail: "The test provider rejects the value INVALID.".into(),
        attribute: Some(Path(path)),
    }
}

fn attr(n: &str) -> PathStep {
    PathStep::GetAttr(n.into())
}

/// A `testing_thing` configuration with `name` and a string deep in the
/// nested blocks and nested attributes.
fn thing(ty: &Type, name: &str, deep: &str) -> Value {
    let mut attrs: std::collections::BTreeMap<String, Value> = ty
        .attribute_types()
        .unwrap()
        .iter()
        .map(|(k, t)| (k.clone(), Value::null(t.clone())))
        .collect();
    attrs.insert("name".into(), Value::string(name));
    let listed_ty = ty
        .attribute_type("listed")
        .unwrap()
        .element_type()
        .unwrap()
        .clone();
    let inner_ty = listed_ty.attribute_type("inner").unwrap().clone();
    let inner_elem = inner_ty.element_type().unwrap().clone();
    let listed = Value::object_from([
        ("x", Value::string("ok")),
        ("y", Value::null(Type::Number)),
        (
            "inner",
            Value::set(
                inner_elem,
                vec![Value::object_from([("z", Value::string(deep))])],
            )
            .unwrap(),
        ),
    ]);
    attrs.insert(
        "listed".into(),
        Value::list(listed_ty.clone(), vec![listed.clone(), listed]).unwrap(),
    );
    let map_obj_ty = ty
        .attribute_type("map_obj")
        .unwrap()
        .element_type()
        .unwrap()
        .clone();
    attrs.insert(
        "map_obj".into(),
        Value::map(
            map_obj_ty,
            [(
                "k".to_owned(),
                Value::object_from([("a", Value::string(deep))]),
            )]
            .into(),
        )
        .unwrap(),
    );
    Value::object(attrs)
}

fn validate(protocol: u32) {
    let client = launch(&common::options(protocol, None)).unwrap();
    let (schema, _) = client.get_provider_schema().unwrap();
    let block = schema.resources["testing_thing"].block.as_ref().unwrap();
    let ty = block.implied_type();

    let ok = thing(&ty, "fine", "fine");
    assert_eq!(
        client
            .validate_resource_config("testing_thing", &ok, &ty)
            .unwrap(),
        vec![]
    );

    let bad = thing(&ty, "INVALID", "INVALID");
    let diags = client
        .validate_resource_config("testing_thing", &bad, &ty)
        .unwrap();
    let inner = |i: i64| {
        vec![
            attr("listed"),
            PathStep::Index(Value::number_int(i)),
            attr("inner"),
            PathStep::Index(Value::object_from([("z", Value::string("INVALID"))])),
            attr("z"),
        ]
    };
    // A set element key cannot travel in the protocol: the path stops
    // before it, as PathToAttributePath does.
    let mut want = vec![
        invalid(inner(0)[..3].to_vec()),
        invalid(inner(1)[..3].to_vec()),
        invalid(vec![
            attr("map_obj"),
            PathStep::Index(Value::string("k")),
            attr("a"),
        ]),
        invalid(vec![attr("name")]),
    ];
    let mut diags = diags;
    let key = |d: &ProviderDiagnostic| format!("{:?}", d.attribute);
    diags.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(diags, want);

    // The other three calls.
    let pty = schema.provider.block.as_ref().unwrap().implied_type();
    let pconf = Value::object_from([
        ("region", Value::string("INVALID")),
        ("token", Value::null(Type::String)),
    ]);
    assert_eq!(
        client.validate_provider_config(&pconf, &pty).unwrap(),
        vec![invalid(vec![attr("region")])]
    );
    let dty = schema.data_sources["testing_info"]
        .block
        .as_ref()
        .unwrap()
        .implied_type();
    let dconf = Value::object_from([
        ("input", Value::string("INVALID")),
        ("output", Value::null(Type::String)),
    ]);
    assert_eq!(
        client
            .validate_data_resource_config("testing_info", &dconf, &dty)
            .unwrap(),
        vec![invalid(vec![attr("input")])]
    );
    let ety = schema.ephemeral_resources["testing_secret"]
        .block
        .as_ref()
        .unwrap()
        .implied_type();
    let econf = Value::object_from([("value", Value::string("fine"))]);
    assert_eq!(
        client
            .validate_ephemeral_resource_config("testing_secret", &econf, &ety)
            .unwrap(),
        vec![]
    );
}

#[test]
fn validate_v5() {
    validate(5);
}

#[test]
fn validate_v6() {
    validate(6);
}

#[test]
fn parallel_launches() {
    let started = Instant::now();
    let handles: Vec<_> = (0..6)
        .map(|i| {
            std::thread::spawn(move || {
                let protocol = if i % 2 == 0 { 5 } else { 6 };
                let client = launch(&common::options(protocol, None)).unwrap();
                let (schema, _) = client.get_provider_schema().unwrap();
                assert!(schema.resources.contains_key("testing_thing"));
                client.pid()
            })
        })
        .collect();
    let pids: Vec<u32> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    eprintln!(
        "6 parallel launches and schema reads: {:?}",
        started.elapsed()
    );
    // Each thread's client was dropped when the thread ended: all gone,
    // although the threads that launched them have exited too.
    for pid in pids {
        assert!(common::wait_gone(pid), "provider {pid} still runs");
    }
}

#[test]
fn close_and_drop_end_the_process() {
    let client = launch(&common::options(6, None)).unwrap();
    let pid = client.pid();
    assert!(common::pid_alive(pid));
    client.close();
    assert!(
        !common::pid_alive(pid),
        "close returns after the process is gone"
    );

    let client = launch(&common::options(5, None)).unwrap();
    let pid = client.pid();
    drop(client);
    assert!(!common::pid_alive(pid));
}

#[test]
fn log_gets_one_line_per_start() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    for protocol in [5, 6, 6] {
        launch(&common::options(protocol, Some(&log)))
            .unwrap()
            .close();
    }
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
}

#[test]
fn stderr_goes_to_the_log_sink() {
    // A provider that cannot read its schema says so on stderr and exits;
    // the sink sees the line, the error is go-plugin's.
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let mut opts = common::options(6, None);
    opts.env[0].1 = "/nonexistent/schema.json".into();
    opts.log = Some(std::sync::Arc::new(move |l: &str| {
        sink.lock().unwrap().push(l.to_owned())
    }));
    let err = launch(&opts).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "Unrecognized remote plugin message: \nFailed to read any lines from plugin's stdout"
        ),
        "{err}"
    );
    // The stderr thread may finish after launch returns.
    for _ in 0..100 {
        if !lines.lock().unwrap().is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let got = lines.lock().unwrap().join("\n");
    assert!(got.contains("/nonexistent/schema.json"), "{got}");
}
