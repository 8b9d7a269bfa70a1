use super::*;
use crate::proto::{tfplugin5, tfplugin6};

/// A provider schema with every nesting mode, item limits, nested
/// attribute types and the attribute flags.
fn sample() -> ProviderSchema {
    let doc = r#"{"provider":{"version":0,"block":{"attributes":{"region":{"type":"string","description":"where","description_kind":"markdown","optional":true}},"description_kind":"plain"}},
    "resource_schemas":{"t_thing":{"version":2,"block":{
      "attributes":{
        "id":{"type":"string","description_kind":"plain","computed":true},
        "secret":{"type":"string","description_kind":"plain","optional":true,"sensitive":true,"write_only":true},
        "old":{"type":["list","number"],"description_kind":"plain","optional":true,"deprecated":true},
        "obj":{"nested_type":{"attributes":{"a":{"type":"string","description_kind":"plain","required":true},"b":{"type":"bool","description_kind":"plain","computed":true}},"nesting_mode":"list"},"description_kind":"plain","optional":true}
      },
      "block_types":{
        "s":{"nesting_mode":"single","block":{"attributes":{"x":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"}},
        "g":{"nesting_mode":"group","block":{"description_kind":"plain"}},
        "l":{"nesting_mode":"list","block":{"description_kind":"plain"},"min_items":1,"max_items":3},
        "st":{"nesting_mode":"set","block":{"description_kind":"plain"}},
        "m":{"nesting_mode":"map","block":{"description_kind":"plain"}}
      },
      "description_kind":"plain","deprecated":true}}}}"#;
    configschema::json::decode_provider(doc).expect("sample schema decodes")
}

#[test]
fn v6_schema_round_trip() {
    let s = sample();
    let r = tfplugin6::get_provider_schema::Response {
        provider: Some(v6::schema_to_proto(&s.provider)),
        resource_schemas: s
            .resources
            .iter()
            .map(|(k, v)| (k.clone(), v6::schema_to_proto(v)))
            .collect(),
        ..Default::default()
    };
    assert_eq!(v6::provider_schema_from_proto(&r).unwrap(), s);
}

#[test]
fn v5_schema_round_trip_flattens_nested_types() {
    let s = sample();
    let r = tfplugin5::get_provider_schema::Response {
        provider: Some(v5::schema_to_proto(&s.provider)),
        resource_schemas: s
            .resources
            .iter()
            .map(|(k, v)| (k.clone(), v5::schema_to_proto(v)))
            .collect(),
        ..Default::default()
    };
    let back = v5::provider_schema_from_proto(&r).unwrap();
    let obj = &back.resources["t_thing"].block.as_ref().unwrap().attributes["obj"];
    assert_eq!(
        obj.ty,
        AttributeType::Type(
            s.resources["t_thing"].block.as_ref().unwrap().attributes["obj"].implied_type()
        )
    );
    assert_eq!(back.provider, s.provider);
}

fn attr6(name: &str, ty: &str) -> tfplugin6::schema::Attribute {
    tfplugin6::schema::Attribute {
        name: name.into(),
        r#type: ty.as_bytes().to_vec(),
        optional: true,
        ..Default::default()
    }
}

fn one_resource(block: tfplugin6::schema::Block) -> tfplugin6::get_provider_schema::Response {
    tfplugin6::get_provider_schema::Response {
        resource_schemas: [(
            "t".to_owned(),
            tfplugin6::Schema {
                version: 0,
                block: Some(block),
            },
        )]
        .into(),
        ..Default::default()
    }
}

#[test]
fn bad_type_json_names_the_attribute() {
    let r = one_resource(tfplugin6::schema::Block {
        attributes: vec![attr6("a", "\"strang\"")],
        ..Default::default()
    });
    let err = v6::provider_schema_from_proto(&r).unwrap_err();
    assert_eq!(err.path, "resource_schemas.t.block.attributes.a");
    assert!(
        matches!(err.problem, SchemaProblem::InvalidType(_)),
        "{err}"
    );
}

#[test]
fn type_and_nested_type_is_an_error() {
    let mut a = attr6("a", "\"string\"");
    a.nested_type = Some(tfplugin6::schema::Object {
        nesting: 1,
        ..Default::default()
    });
    let r = one_resource(tfplugin6::schema::Block {
        attributes: vec![a],
        ..Default::default()
    });
    let err = v6::provider_schema_from_proto(&r).unwrap_err();
    assert_eq!(err.problem, SchemaProblem::TypeAndNestedType);
}

#[test]
fn missing_type_is_an_error() {
    let r = one_resource(tfplugin6::schema::Block {
        attributes: vec![attr6("a", "")],
        ..Default::default()
    });
    assert_eq!(
        v6::provider_schema_from_proto(&r).unwrap_err().problem,
        SchemaProblem::NoType
    );
}

#[test]
fn invalid_nesting_is_an_error() {
    let r = one_resource(tfplugin6::schema::Block {
        block_types: vec![tfplugin6::schema::NestedBlock {
            type_name: "b".into(),
            block: Some(Default::default()),
            nesting: 0,
            ..Default::default()
        }],
        ..Default::default()
    });
    let err = v6::provider_schema_from_proto(&r).unwrap_err();
    assert_eq!(err.path, "resource_schemas.t.block.block_types.b");
    assert_eq!(err.problem, SchemaProblem::InvalidNesting(0));
}

#[test]
fn attribute_paths_round_trip() {
    let p = Path(vec![
        PathStep::GetAttr("a".into()),
        PathStep::Index(Value::number_int(2)),
        PathStep::Index(Value::string("k")),
        PathStep::GetAttr("b".into()),
    ]);
    assert_eq!(v6::path_from_proto(&v6::path_to_proto(&p)), p);
    assert_eq!(v5::path_from_proto(&v5::path_to_proto(&p)), p);
}

#[test]
fn functions_convert_to_opentofu_json() {
    let f = tfplugin6::Function {
        parameters: vec![tfplugin6::function::Parameter {
            name: "x".into(),
            r#type: b"\"string\"".to_vec(),
            allow_null_value: true,
            ..Default::default()
        }],
        r#return: Some(tfplugin6::function::Return {
            r#type: b"\"number\"".to_vec(),
        }),
        summary: "s".into(),
        ..Default::default()
    };
    let json = v6::function_from_proto(&f, "functions.f").unwrap();
    let back = Function::from_json(&json).unwrap();
    assert_eq!(back.return_type, Type::Number);
    assert!(back.parameters[0].is_nullable);
    assert_eq!(
        v6::function_from_proto(&v6::function_to_proto(&back), "f").unwrap(),
        json
    );
}
