//! Provider functions as `providers schema -json` shows them
//! (`jsonprovider/function.go`).
//!
//! [`ProviderSchema::functions`](crate::ProviderSchema::functions) keeps
//! each function as the document had it, because OpenTofu and terraform
//! print them in different shapes: OpenTofu always writes `description`
//! and `summary` (also empty) and a parameter's `description`, terraform
//! leaves empty ones out and orders a parameter's fields differently.
//! [`Function::from_json`] reads either shape; [`Function::to_json`]
//! writes OpenTofu's.

use serde_json::{Map, Value};

use cty::Type;

use crate::json::{DecodeError, DecodeProblem};

/// A provider function's signature and documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// What the function does.
    pub description: String,
    /// A one-line summary.
    pub summary: String,
    /// Why it is deprecated (terraform's documents only; OpenTofu does not print it).
    pub deprecation_message: String,
    /// The type of its result.
    pub return_type: Type,
    /// Its positional parameters.
    pub parameters: Vec<FunctionParameter>,
    /// The parameter that takes any further arguments, if any.
    pub variadic_parameter: Option<FunctionParameter>,
}

/// One parameter of a provider function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionParameter {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// The type of the values it takes.
    pub ty: Type,
    /// True when null may be passed.
    pub is_nullable: bool,
}

struct Reader {
    path: Vec<String>,
}

impl Reader {
    fn error(&self, problem: DecodeProblem) -> DecodeError {
        DecodeError {
            path: self.path.clone(),
            problem,
        }
    }

    fn object<'v>(&self, v: &'v Value) -> Result<&'v Map<String, Value>, DecodeError> {
        v.as_object()
            .ok_or_else(|| self.error(DecodeProblem::WrongType("an object")))
    }

    fn string(&self, v: &Value) -> Result<String, DecodeError> {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.error(DecodeProblem::WrongType("a string")))
    }

    fn ty(&self, v: &Value) -> Result<Type, DecodeError> {
        cty::json::unmarshal_type(&v.to_string())
            .map_err(|e| self.error(DecodeProblem::InvalidType(e.msg)))
    }

    fn parameter(&mut self, v: &Value) -> Result<FunctionParameter, DecodeError> {
        let (mut name, mut ty) = (None, None);
        let mut p = FunctionParameter {
            name: String::new(),
            description: String::new(),
            ty: Type::Dynamic,
            is_nullable: false,
        };
        for (field, v) in self.object(v)? {
            self.path.push(field.clone());
            match field.as_str() {
                "name" => name = Some(self.string(v)?),
                "description" => p.description = self.string(v)?,
                "type" => ty = Some(self.ty(v)?),
                "is_nullable" => {
                    p.is_nullable = v
                        .as_bool()
                        .ok_or_else(|| self.error(DecodeProblem::WrongType("true or false")))?
                }
                _ => return Err(self.error(DecodeProblem::UnknownField)),
            }
            self.path.pop();
        }
        p.name = name.ok_or_else(|| self.error(DecodeProblem::MissingField("name")))?;
        p.ty = ty.ok_or_else(|| self.error(DecodeProblem::MissingField("type")))?;
        Ok(p)
    }
}

impl Function {
    /// Reads one entry of a document's `functions`, in OpenTofu's or
    /// terraform's shape; errors name the field from the function's entry.
    pub fn from_json(v: &Value) -> Result<Function, DecodeError> {
        let mut r = Reader { path: Vec::new() };
        let mut return_type = None;
        let mut f = Function {
            description: String::new(),
            summary: String::new(),
            deprecation_message: String::new(),
            return_type: Type::Dynamic,
            parameters: Vec::new(),
            variadic_parameter: None,
        };
        for (field, v) in r.object(v)? {
            r.path.push(field.clone());
            match field.as_str() {
                "description" => f.description = r.string(v)?,
                "summary" => f.summary = r.string(v)?,
                "deprecation_message" => f.deprecation_message = r.string(v)?,
                "return_type" => return_type = Some(r.ty(v)?),
                "parameters" => {
                    let items = v
                        .as_array()
                        .ok_or_else(|| r.error(DecodeProblem::WrongType("an array")))?;
                    for (i, item) in items.iter().enumerate() {
                        r.path.push(i.to_string());
                        f.parameters.push(r.parameter(item)?);
                        r.path.pop();
                    }
                }
                "variadic_parameter" => f.variadic_parameter = Some(r.parameter(v)?),
                _ => return Err(r.error(DecodeProblem::UnknownField)),
            }
            r.path.pop();
        }
        f.return_type =
            return_type.ok_or_else(|| r.error(DecodeProblem::MissingField("return_type")))?;
        Ok(f)
    }

    /// The function as OpenTofu's `jsonprovider` writes it, fields in its
    /// order (to store in [`ProviderSchema::functions`](crate::ProviderSchema::functions)).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert(
            "description".into(),
            Value::String(self.description.clone()),
        );
        o.insert("summary".into(), Value::String(self.summary.clone()));
        o.insert("return_type".into(), type_json(&self.return_type));
        if !self.parameters.is_empty() {
            o.insert(
                "parameters".into(),
                Value::Array(self.parameters.iter().map(parameter_json).collect()),
            );
        }
        if let Some(p) = &self.variadic_parameter {
            o.insert("variadic_parameter".into(), parameter_json(p));
        }
        Value::Object(o)
    }
}

fn parameter_json(p: &FunctionParameter) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), Value::String(p.name.clone()));
    o.insert("description".into(), Value::String(p.description.clone()));
    o.insert("type".into(), type_json(&p.ty));
    if p.is_nullable {
        o.insert("is_nullable".into(), Value::Bool(true));
    }
    Value::Object(o)
}

/// `marshalReturnType`: cty's type JSON, except that an object type's own
/// optional attributes are left out (it writes the object's friendly name
/// and attribute types).
fn type_json(ty: &Type) -> Value {
    let ty = match ty {
        Type::Object(o) => Type::object(o.attrs.clone()),
        other => other.clone(),
    };
    serde_json::from_str(&cty::json::marshal_type(&ty)).expect("cty writes valid type JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_shapes_and_writes_opentofus() {
        // OpenTofu's expected output for its test provider
        // (internal/command/testdata/providers-schema/basic).
        let tofu = r#"{"description":"a basic string function","summary":"test","return_type":"string","parameters":[{"name":"input","description":"","type":"number"}],"variadic_parameter":{"name":"variadic_input","description":"","type":["list","bool"]}}"#;
        let v: Value = serde_json::from_str(tofu).expect("JSON");
        let f = Function::from_json(&v).expect("decodes");
        assert_eq!(f.parameters[0].ty, Type::Number);
        assert_eq!(
            f.variadic_parameter.as_ref().map(|p| &p.ty),
            Some(&Type::list(Type::Bool))
        );
        assert_eq!(f.to_json(), v);
        assert_eq!(f.to_json().to_string(), tofu);
        // terraform v1.11.4's builtin provider.
        let tf = r#"{"description":"d","summary":"s","return_type":"dynamic","parameters":[{"name":"src","type":"string"}]}"#;
        let f = Function::from_json(&serde_json::from_str(tf).expect("JSON")).expect("decodes");
        assert_eq!(
            f.to_json().to_string(),
            r#"{"description":"d","summary":"s","return_type":"dynamic","parameters":[{"name":"src","description":"","type":"string"}]}"#
        );
    }

    #[test]
    fn object_types_lose_only_their_own_optional_attributes() {
        let inner = Type::object_with_optional(
            [("x".to_string(), Type::String)].into(),
            ["x".to_string()].into(),
        );
        let ty = Type::object_with_optional(
            [("a".to_string(), inner), ("b".to_string(), Type::Number)].into(),
            ["b".to_string()].into(),
        );
        assert_eq!(
            type_json(&ty).to_string(),
            r#"["object",{"a":["object",{"x":"string"},["x"]],"b":"number"}]"#
        );
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (r#"{"summary":"s"}"#, "", "missing field \"return_type\""),
            (
                r#"{"return_type":"string","parameters":[{"name":"a","type":"strng"}]}"#,
                "/parameters/0/type",
                "invalid type: invalid primitive type name \"strng\"",
            ),
            (
                r#"{"return_type":"string","variadic_parameter":{"type":"string"}}"#,
                "/variadic_parameter",
                "missing field \"name\"",
            ),
            (r#"{"return_type":"string","x":1}"#, "/x", "unknown field"),
        ];
        for (src, pointer, msg) in cases {
            let e = Function::from_json(&serde_json::from_str(src).expect("JSON")).expect_err(src);
            assert_eq!(
                (e.pointer().as_str(), e.problem.to_string().as_str()),
                (pointer, msg)
            );
        }
    }

    #[test]
    fn every_function_in_the_fixtures_reads() {
        for dir in ["providers", "documents", "opentofu"] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata")
                .join(dir);
            for entry in std::fs::read_dir(dir).expect("fixtures") {
                let text = std::fs::read_to_string(entry.expect("entry").path()).expect("read");
                let v: Value = serde_json::from_str(&text).expect("JSON");
                let providers: Vec<&Value> = match v.get("provider_schemas") {
                    Some(Value::Object(m)) => m.values().collect(),
                    Some(_) => Vec::new(),
                    None if v.get("format_version").is_some() => Vec::new(),
                    None => vec![&v],
                };
                for p in providers {
                    for f in p
                        .get("functions")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                    {
                        Function::from_json(f.1).unwrap_or_else(|e| panic!("{}: {e}", f.0));
                    }
                }
            }
        }
    }
}
