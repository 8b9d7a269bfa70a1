//! The JSON views of a planned value that the plan document and the human
//! renderer share (`jsonplan`'s `omitUnknowns`, `unknownAsBool` and
//! `jsonstate.SensitiveAsBool`): the known parts, where the unknowns are,
//! and where the sensitive values are.

use cty::{Mark, Type, Value};

use super::jsonw::Json;

/// The value as `ctyjson.Marshal` writes it when wholly known; `None` when
/// anything inside is unknown (Go's marshal fails then).
pub fn marshal_known(v: &Value) -> Option<Json> {
    if v.is_wholly_known() {
        known_parts(v)
    } else {
        None
    }
}

/// `omitUnknowns` then `ctyjson.Marshal`: unknown object attributes and
/// map entries are left out, unknown sequence elements become `null` (the
/// element order is how readers match `after` with `after_unknown`).
/// `None` when the value itself is unknown.
pub fn known_parts(v: &Value) -> Option<Json> {
    if v.is_null() {
        return Some(Json::Null);
    }
    if !v.is_known() {
        return None;
    }
    Some(match v.ty() {
        Type::String => Json::str(v.as_str().unwrap_or_default()),
        Type::Bool => Json::Bool(v.as_bool().unwrap_or(false)),
        Type::Number => match v.as_number() {
            // JSON has no infinities; Go's marshal refuses them. A plan
            // shows null there rather than failing as a whole.
            Some(n) if !n.is_inf() => Json::Number(n.to_text()),
            _ => Json::Null,
        },
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => Json::Array(
            v.as_elements()
                .unwrap_or_default()
                .iter()
                .map(|e| known_parts(e).unwrap_or(Json::Null))
                .collect(),
        ),
        Type::Map(_) | Type::Object(_) => Json::Object(
            v.as_attrs()
                .into_iter()
                .flatten()
                .filter_map(|(k, e)| known_parts(e).map(|j| (k.clone(), j)))
                .collect(),
        ),
        Type::Dynamic => Json::Null,
    })
}

/// `unknownAsBool`: `true` where unknown; objects and maps keep only the
/// entries that are not plain `false`, sequences keep every element.
pub fn unknown_as_bool(v: &Value) -> Json {
    if v.is_null() {
        return Json::Bool(false);
    }
    if !v.is_known() {
        return Json::Bool(true);
    }
    match v.ty() {
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => Json::Array(
            v.as_elements()
                .unwrap_or_default()
                .iter()
                .map(unknown_as_bool)
                .collect(),
        ),
        Type::Map(_) | Type::Object(_) => Json::Object(
            v.as_attrs()
                .into_iter()
                .flatten()
                .map(|(k, e)| (k.clone(), unknown_as_bool(e)))
                .filter(|(_, j)| *j != Json::Bool(false))
                .collect(),
        ),
        _ => Json::Bool(false),
    }
}

/// `SensitiveAsBool`: `true` where the value carries the sensitive mark;
/// unknown collections say nothing about their contents (`[]`, `{}`).
pub fn sensitive_as_bool(v: &Value) -> Json {
    if v.has_mark(&Mark::Sensitive) {
        return Json::Bool(true);
    }
    if v.is_null() {
        return Json::Bool(false);
    }
    match v.ty() {
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            if !v.is_known() {
                return Json::Array(Vec::new());
            }
            Json::Array(
                v.as_elements()
                    .unwrap_or_default()
                    .iter()
                    .map(sensitive_as_bool)
                    .collect(),
            )
        }
        Type::Map(_) | Type::Object(_) => {
            if !v.is_known() {
                return Json::empty_object();
            }
            Json::Object(
                v.as_attrs()
                    .into_iter()
                    .flatten()
                    .map(|(k, e)| (k.clone(), sensitive_as_bool(e)))
                    .filter(|(_, j)| *j != Json::Bool(false))
                    .collect(),
            )
        }
        _ => Json::Bool(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj<const N: usize>(attrs: [(&str, Value); N]) -> Value {
        Value::object_from(attrs)
    }

    #[test]
    fn known_parts_drops_unknown_attrs_and_nulls_unknown_elements() {
        let v = obj([
            ("a", Value::string("x")),
            ("b", Value::unknown(Type::String)),
            (
                "l",
                Value::list(
                    Type::String,
                    vec![Value::string("k"), Value::unknown(Type::String)],
                )
                .unwrap(),
            ),
        ]);
        assert_eq!(
            known_parts(&v).unwrap().to_compact(),
            r#"{"a":"x","l":["k",null]}"#
        );
        assert_eq!(
            unknown_as_bool(&v).to_compact(),
            r#"{"b":true,"l":[false,true]}"#
        );
        assert!(marshal_known(&v).is_none());
        assert!(known_parts(&Value::unknown(Type::String)).is_none());
    }

    #[test]
    fn unknown_as_bool_keeps_empty_collections() {
        let v = obj([
            ("m", Value::map_empty(Type::String)),
            ("t", Value::empty_tuple()),
            ("n", Value::null(Type::String)),
            ("u", Value::unknown(Type::list(Type::String))),
        ]);
        assert_eq!(
            unknown_as_bool(&v).to_compact(),
            r#"{"m":{},"t":[],"u":true}"#
        );
    }

    #[test]
    fn sensitive_as_bool_at_nested_paths() {
        let v = obj([
            (
                "input",
                obj([("p", Value::string("s").mark(Mark::Sensitive))]),
            ),
            ("plain", Value::string("x")),
            ("whole", Value::number_int(1).mark(Mark::Sensitive)),
            (
                "unknown_obj",
                Value::unknown(Type::object_from([("a", Type::String)])),
            ),
            (
                "list",
                Value::tuple(vec![
                    Value::string("a"),
                    Value::string("b").mark(Mark::Sensitive),
                ]),
            ),
        ]);
        assert_eq!(
            sensitive_as_bool(&v).to_compact(),
            r#"{"input":{"p":true},"list":[false,true],"unknown_obj":{},"whole":true}"#
        );
        assert_eq!(
            sensitive_as_bool(&Value::null(Type::String)).to_compact(),
            "false"
        );
    }
}
