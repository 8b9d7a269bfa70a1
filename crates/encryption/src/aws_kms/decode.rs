//! `gohcl`'s decoding of evaluated arguments into Go values (`string`,
//! `*string`, `bool`, `int`, `[]string`, a struct from an object), with
//! the "Unsuitable value type" diagnostics `gohcl.DecodeExpression` gives.

use std::collections::BTreeMap;

use cty::{Type, Value};
use hclsyntax::Diagnostic;

use crate::evaluated_body::{EvaluatedArgument, EvaluatedBody};

/// `gohcl`'s decoding of single arguments into Go values, collecting
/// "Unsuitable value type" diagnostics as `gohcl.DecodeExpression` does.
#[derive(Default)]
pub struct Decoder {
    pub diags: Vec<Diagnostic>,
}

impl Decoder {
    fn value(&mut self, body: &EvaluatedBody, name: &str, ty: &Type) -> Option<Value> {
        let arg = body.argument(name)?;
        self.convert(arg, arg.value.as_ref()?, ty)
    }

    fn convert(&mut self, arg: &EvaluatedArgument, val: &Value, ty: &Type) -> Option<Value> {
        match cty::convert::convert(val, ty) {
            Ok(v) if !v.is_known() => {
                self.unsuitable(arg, "value must be known");
                None
            }
            Ok(v) => Some(v),
            Err(e) => {
                self.unsuitable(arg, &e.with_path());
                None
            }
        }
    }

    fn unsuitable(&mut self, arg: &EvaluatedArgument, msg: &str) {
        let range = arg.attr.expr.range.clone();
        self.diags.push(
            Diagnostic::error(
                "Unsuitable value type",
                format!("Unsuitable value: {msg}"),
                range.start_range(),
            )
            .with_context(range),
        );
    }

    /// A Go `string`: null is refused.
    pub fn string(&mut self, body: &EvaluatedBody, name: &str) -> String {
        match self.value(body, name, &Type::String) {
            Some(v) if v.is_null() => {
                let arg = body.argument(name).expect("a value came from the argument");
                self.unsuitable(arg, "null value is not allowed");
                String::new()
            }
            Some(v) => v.as_str().unwrap_or_default().to_string(),
            None => String::new(),
        }
    }

    /// A Go `*string`: null is nil.
    pub fn opt_string(&mut self, body: &EvaluatedBody, name: &str) -> Option<String> {
        let v = self.value(body, name, &Type::String)?;
        v.as_str().map(str::to_string)
    }

    pub fn bool(&mut self, body: &EvaluatedBody, name: &str) -> bool {
        match self.value(body, name, &Type::Bool) {
            Some(v) if v.is_null() => {
                let arg = body.argument(name).expect("a value came from the argument");
                self.unsuitable(arg, "null value is not allowed");
                false
            }
            Some(v) => v.as_bool().unwrap_or(false),
            None => false,
        }
    }

    /// A Go `*bool`.
    pub fn opt_bool(&mut self, body: &EvaluatedBody, name: &str) -> Option<bool> {
        self.value(body, name, &Type::Bool)?.as_bool()
    }

    /// A Go `int`: a whole number.
    pub fn int(&mut self, body: &EvaluatedBody, name: &str) -> i64 {
        let Some(v) = self.value(body, name, &Type::Number) else {
            return 0;
        };
        let arg = body.argument(name).expect("a value came from the argument");
        if v.is_null() {
            self.unsuitable(arg, "null value is not allowed");
            return 0;
        }
        match v.as_number().and_then(|n| n.to_i64()) {
            Some(n) => n,
            None => {
                self.unsuitable(arg, "value must be a whole number, between -9223372036854775808 and 9223372036854775807");
                0
            }
        }
    }

    /// A Go `[]string`: null is an empty slice.
    pub fn strings(&mut self, body: &EvaluatedBody, name: &str) -> Vec<String> {
        let Some(v) = self.value(body, name, &Type::list(Type::String)) else {
            return Vec::new();
        };
        let arg = body.argument(name).expect("a value came from the argument");
        self.string_elements(arg, &v)
    }

    fn string_elements(&mut self, arg: &EvaluatedArgument, v: &Value) -> Vec<String> {
        let mut out = Vec::new();
        for e in v.as_elements().unwrap_or_default() {
            match e.as_str() {
                Some(s) => out.push(s.to_string()),
                None => self.unsuitable(arg, "null value is not allowed"),
            }
        }
        out
    }

    /// An object argument decoded into a Go struct pointer (null is nil).
    pub fn object<'a>(&mut self, body: &'a EvaluatedBody, name: &str) -> Option<ObjectArg<'a>> {
        let arg = body.argument(name)?;
        let v = arg.value.clone()?;
        if v.is_null() {
            return None;
        }
        let is_object = matches!(v.ty(), Type::Object(_) | Type::Map(_) | Type::Dynamic);
        match v.as_attrs() {
            Some(attrs) if is_object => Some(ObjectArg {
                arg,
                attrs: attrs.clone(),
            }),
            _ => {
                self.unsuitable(arg, "object required");
                None
            }
        }
    }
}

/// The attributes of an object argument (`assume_role = { ... }`).
pub struct ObjectArg<'a> {
    arg: &'a EvaluatedArgument,
    attrs: BTreeMap<String, Value>,
}

impl ObjectArg<'_> {
    fn attr(&self, name: &str, ty: &Type, d: &mut Decoder) -> Option<Value> {
        let v = self.attrs.get(name)?;
        let v = d.convert(self.arg, v, ty)?;
        (!v.is_null()).then_some(v)
    }

    pub fn string(&self, name: &str, required: bool, d: &mut Decoder) -> String {
        match self.attr(name, &Type::String, d) {
            Some(v) => v.as_str().unwrap_or_default().to_string(),
            None => {
                if required && !self.attrs.contains_key(name) {
                    d.unsuitable(
                        self.arg,
                        &format!("attribute {} is required", cty::format::go_quote(name)),
                    );
                }
                String::new()
            }
        }
    }

    pub fn strings(&self, name: &str, d: &mut Decoder) -> Vec<String> {
        match self.attr(name, &Type::list(Type::String), d) {
            Some(v) => d.string_elements(self.arg, &v),
            None => Vec::new(),
        }
    }

    pub fn string_map(&self, name: &str, d: &mut Decoder) -> BTreeMap<String, String> {
        let Some(v) = self.attr(name, &Type::map(Type::String), d) else {
            return BTreeMap::new();
        };
        v.elements()
            .into_iter()
            .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.as_str()?.to_string())))
            .collect()
    }
}
