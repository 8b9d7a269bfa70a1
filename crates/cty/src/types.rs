//! cty types: primitives, collections, structural types and the dynamic
//! pseudo-type, with cty's friendly names and type-expression rendering.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

/// A cty type.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `cty.String`.
    String,
    /// `cty.Number`.
    Number,
    /// `cty.Bool`.
    Bool,
    /// `cty.List(T)`.
    List(Box<Type>),
    /// `cty.Set(T)`.
    Set(Box<Type>),
    /// `cty.Map(T)`.
    Map(Box<Type>),
    /// `cty.Object(attrs)` / `cty.ObjectWithOptionalAttrs`.
    Object(Arc<ObjectType>),
    /// `cty.Tuple(elems)`.
    Tuple(Arc<Vec<Type>>),
    /// `cty.DynamicPseudoType` ("any").
    Dynamic,
}

/// Attribute types of an object type plus the names marked optional
/// (only meaningful in type constraints).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct ObjectType {
    /// Attribute name to type, sorted by name.
    pub attrs: BTreeMap<String, Type>,
    /// Names of optional attributes (a subset of `attrs`).
    pub optional: BTreeSet<String>,
}

impl Type {
    /// `cty.List(t)`.
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }

    /// `cty.Set(t)`.
    pub fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }

    /// `cty.Map(t)`.
    pub fn map(t: Type) -> Type {
        Type::Map(Box::new(t))
    }

    /// `cty.Object(attrs)`.
    pub fn object(attrs: BTreeMap<String, Type>) -> Type {
        Type::Object(Arc::new(ObjectType {
            attrs,
            optional: BTreeSet::new(),
        }))
    }

    /// `cty.Object` from (name, type) pairs.
    pub fn object_from<I: IntoIterator<Item = (S, Type)>, S: Into<String>>(attrs: I) -> Type {
        Type::object(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// `cty.ObjectWithOptionalAttrs(attrs, optional)`; unknown optional names are ignored.
    pub fn object_with_optional(attrs: BTreeMap<String, Type>, optional: BTreeSet<String>) -> Type {
        let optional = optional
            .into_iter()
            .filter(|n| attrs.contains_key(n))
            .collect();
        Type::Object(Arc::new(ObjectType { attrs, optional }))
    }

    /// `cty.EmptyObject`.
    pub fn empty_object() -> Type {
        Type::object(BTreeMap::new())
    }

    /// `cty.Tuple(elems)`.
    pub fn tuple(elems: Vec<Type>) -> Type {
        Type::Tuple(Arc::new(elems))
    }

    /// `cty.EmptyTuple`.
    pub fn empty_tuple() -> Type {
        Type::tuple(Vec::new())
    }

    /// True for string, number and bool.
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }

    /// True for list, set and map.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    /// True for a list type.
    pub fn is_list(&self) -> bool {
        matches!(self, Type::List(_))
    }

    /// True for a set type.
    pub fn is_set(&self) -> bool {
        matches!(self, Type::Set(_))
    }

    /// True for a map type.
    pub fn is_map(&self) -> bool {
        matches!(self, Type::Map(_))
    }

    /// True for an object type.
    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }

    /// True for a tuple type.
    pub fn is_tuple(&self) -> bool {
        matches!(self, Type::Tuple(_))
    }

    /// True for the dynamic pseudo-type.
    pub fn is_dynamic(&self) -> bool {
        matches!(self, Type::Dynamic)
    }

    /// Element type of a collection type.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => Some(t),
            _ => None,
        }
    }

    /// Attribute types of an object type.
    pub fn attribute_types(&self) -> Option<&BTreeMap<String, Type>> {
        match self {
            Type::Object(o) => Some(&o.attrs),
            _ => None,
        }
    }

    /// Optional attribute names of an object type.
    pub fn optional_attributes(&self) -> Option<&BTreeSet<String>> {
        match self {
            Type::Object(o) => Some(&o.optional),
            _ => None,
        }
    }

    /// Type of one object attribute.
    pub fn attribute_type(&self, name: &str) -> Option<&Type> {
        self.attribute_types()?.get(name)
    }

    /// True if an object type has the named attribute.
    pub fn has_attribute(&self, name: &str) -> bool {
        self.attribute_type(name).is_some()
    }

    /// True if the named attribute is optional.
    pub fn attribute_optional(&self, name: &str) -> bool {
        self.optional_attributes().is_some_and(|o| o.contains(name))
    }

    /// Element types of a tuple type.
    pub fn tuple_element_types(&self) -> Option<&[Type]> {
        match self {
            Type::Tuple(t) => Some(t),
            _ => None,
        }
    }

    /// True if the dynamic pseudo-type appears anywhere in the type.
    pub fn has_dynamic_types(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_dynamic_types(),
            Type::Object(o) => o.attrs.values().any(Type::has_dynamic_types),
            Type::Tuple(t) => t.iter().any(Type::has_dynamic_types),
            _ => false,
        }
    }

    /// Type with all optional-attribute annotations removed (`WithoutOptionalAttributesDeep`).
    pub fn without_optional_attributes_deep(&self) -> Type {
        // Most types have no optional attributes: share them as they are.
        if !self.has_optional_attributes_deep() {
            return self.clone();
        }
        match self {
            Type::List(t) => Type::list(t.without_optional_attributes_deep()),
            Type::Set(t) => Type::set(t.without_optional_attributes_deep()),
            Type::Map(t) => Type::map(t.without_optional_attributes_deep()),
            Type::Object(o) => Type::object(
                o.attrs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.without_optional_attributes_deep()))
                    .collect(),
            ),
            Type::Tuple(t) => Type::tuple(
                t.iter()
                    .map(Type::without_optional_attributes_deep)
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Whether an object type anywhere in this type has optional attributes.
    fn has_optional_attributes_deep(&self) -> bool {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_optional_attributes_deep(),
            Type::Object(o) => {
                !o.optional.is_empty() || o.attrs.values().any(Type::has_optional_attributes_deep)
            }
            Type::Tuple(t) => t.iter().any(Type::has_optional_attributes_deep),
            _ => false,
        }
    }

    /// cty `FriendlyName`, e.g. "list of string".
    pub fn friendly_name(&self) -> String {
        self.friendly(false)
    }

    /// cty `FriendlyNameForConstraint`, e.g. "list of any single type".
    pub fn friendly_name_for_constraint(&self) -> String {
        self.friendly(true)
    }

    fn friendly(&self, constraint: bool) -> String {
        match self {
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::Dynamic => if constraint { "any type" } else { "dynamic" }.into(),
            Type::Object(_) => "object".into(),
            Type::Tuple(_) => "tuple".into(),
            Type::List(t) | Type::Set(t) | Type::Map(t) => {
                let kind = match self {
                    Type::List(_) => "list",
                    Type::Set(_) => "set",
                    _ => "map",
                };
                let elem = if constraint && t.is_dynamic() {
                    "any single type".into()
                } else {
                    t.friendly(constraint)
                };
                format!("{kind} of {elem}")
            }
        }
    }

    /// HCL `typeexpr.TypeString`: compact type expression like `object({a=string})`.
    pub fn type_expr_string(&self) -> String {
        match self {
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::Dynamic => "any".into(),
            Type::List(t) => format!("list({})", t.type_expr_string()),
            Type::Set(t) => format!("set({})", t.type_expr_string()),
            Type::Map(t) => format!("map({})", t.type_expr_string()),
            Type::Object(o) => {
                let parts: Vec<String> = o
                    .attrs
                    .iter()
                    .map(|(k, v)| format!("{}={}", ident_or_quoted(k), v.type_expr_string()))
                    .collect();
                format!("object({{{}}})", parts.join(","))
            }
            Type::Tuple(t) => {
                let parts: Vec<String> = t.iter().map(Type::type_expr_string).collect();
                format!("tuple([{}])", parts.join(","))
            }
        }
    }

    /// The multi-line form `terraform console` prints for `type(...)`.
    pub fn console_type_string(&self) -> String {
        let mut buf = String::new();
        write_console_type(self, &mut buf, 0);
        buf
    }

    /// cty `TestConformance`: errors describing why `self` does not
    /// conform to `other` (dynamic in `other` accepts anything).
    pub fn test_conformance(&self, other: &Type) -> Vec<String> {
        let mut errs = Vec::new();
        conformance(self, other, "", &mut errs);
        errs
    }
}

fn conformance(have: &Type, want: &Type, path: &str, errs: &mut Vec<String>) {
    if want.is_dynamic() || have == want {
        return;
    }
    match (have, want) {
        (Type::List(a), Type::List(b))
        | (Type::Set(a), Type::Set(b))
        | (Type::Map(a), Type::Map(b)) => conformance(a, b, &format!("{path}[...]"), errs),
        (Type::Object(a), Type::Object(b)) => {
            for (k, bt) in &b.attrs {
                match a.attrs.get(k) {
                    Some(at) => conformance(at, bt, &format!("{path}.{k}"), errs),
                    None => errs.push(format!("{path}: missing required attribute {k:?}")),
                }
            }
            for k in a.attrs.keys() {
                if !b.attrs.contains_key(k) {
                    errs.push(format!("{path}: unsupported attribute {k:?}"));
                }
            }
        }
        (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => {
            for (i, (at, bt)) in a.iter().zip(b.iter()).enumerate() {
                conformance(at, bt, &format!("{path}[{i}]"), errs);
            }
        }
        _ => errs.push(format!(
            "{}{}{} required, but have {}",
            path,
            if path.is_empty() { "" } else { ": " },
            want.friendly_name(),
            have.friendly_name()
        )),
    }
}

/// True for a valid HCL identifier.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

fn ident_or_quoted(s: &str) -> String {
    if is_identifier(s) {
        s.to_string()
    } else {
        crate::format::go_quote(s)
    }
}

fn write_console_type(ty: &Type, buf: &mut String, indent: usize) {
    const STEP: &str = "    ";
    match ty {
        Type::String => buf.push_str("string"),
        Type::Number => buf.push_str("number"),
        Type::Bool => buf.push_str("bool"),
        Type::Dynamic => buf.push_str("dynamic"),
        Type::Object(o) => {
            if o.attrs.is_empty() {
                buf.push_str("object({})");
                return;
            }
            buf.push_str("object({\n");
            for (k, v) in &o.attrs {
                buf.push_str(&STEP.repeat(indent + 1));
                buf.push_str(&ident_or_quoted(k));
                buf.push_str(": ");
                write_console_type(v, buf, indent + 1);
                buf.push_str(",\n");
            }
            buf.push_str(&STEP.repeat(indent));
            buf.push_str("})");
        }
        Type::Tuple(t) => {
            if t.is_empty() {
                buf.push_str("tuple([])");
                return;
            }
            buf.push_str("tuple([\n");
            for v in t.iter() {
                buf.push_str(&STEP.repeat(indent + 1));
                write_console_type(v, buf, indent + 1);
                buf.push_str(",\n");
            }
            buf.push_str(&STEP.repeat(indent));
            buf.push_str("])");
        }
        Type::List(e) | Type::Set(e) | Type::Map(e) => {
            let kind = match ty {
                Type::List(_) => "list(",
                Type::Set(_) => "set(",
                _ => "map(",
            };
            buf.push_str(kind);
            // Only structural elements get their own indented lines
            // (repl's typeString: `complexElem`).
            if !(e.is_object() || e.is_tuple()) {
                write_console_type(e, buf, indent);
                buf.push(')');
                return;
            }
            buf.push('\n');
            buf.push_str(&STEP.repeat(indent + 1));
            write_console_type(e, buf, indent + 1);
            buf.push_str(",\n");
            buf.push_str(&STEP.repeat(indent));
            buf.push(')');
        }
    }
}

impl fmt::Debug for Type {
    /// Go-syntax-like rendering, e.g. `cty.List(cty.String)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => write!(f, "cty.String"),
            Type::Number => write!(f, "cty.Number"),
            Type::Bool => write!(f, "cty.Bool"),
            Type::Dynamic => write!(f, "cty.DynamicPseudoType"),
            Type::List(t) => write!(f, "cty.List({t:?})"),
            Type::Set(t) => write!(f, "cty.Set({t:?})"),
            Type::Map(t) => write!(f, "cty.Map({t:?})"),
            Type::Object(o) => {
                write!(f, "cty.Object(map[string]cty.Type{{")?;
                for (i, (k, v)) in o.attrs.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k:?}:{v:?}")?;
                }
                write!(f, "}})")
            }
            Type::Tuple(t) => write!(f, "cty.Tuple({:?})", t.as_slice()),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.type_expr_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friendly_names() {
        let cases = [
            (Type::String, "string", "string"),
            (Type::list(Type::String), "list of string", "list of string"),
            (
                Type::map(Type::Dynamic),
                "map of dynamic",
                "map of any single type",
            ),
            (
                Type::set(Type::list(Type::Number)),
                "set of list of number",
                "set of list of number",
            ),
            (Type::Dynamic, "dynamic", "any type"),
            (Type::empty_object(), "object", "object"),
            (Type::empty_tuple(), "tuple", "tuple"),
        ];
        for (ty, name, constraint) in cases {
            assert_eq!(ty.friendly_name(), name);
            assert_eq!(ty.friendly_name_for_constraint(), constraint);
        }
    }

    #[test]
    fn type_strings() {
        let ty = Type::object_from([("a", Type::String), ("b", Type::list(Type::Number))]);
        assert_eq!(ty.type_expr_string(), "object({a=string,b=list(number)})");
        let t = Type::object_from([
            (
                "inner",
                Type::object_from([("x", Type::Number), ("y", Type::empty_tuple())]),
            ),
            (
                "items",
                Type::tuple(vec![Type::Number, Type::String, Type::Bool, Type::Dynamic]),
            ),
            ("name", Type::String),
        ]);
        assert_eq!(
            t.console_type_string(),
            "object({\n    inner: object({\n        x: number,\n        y: tuple([]),\n    }),\n    items: tuple([\n        number,\n        string,\n        bool,\n        dynamic,\n    ]),\n    name: string,\n})"
        );
        let l = Type::list(Type::object_from([
            ("is_admin", Type::Bool),
            ("role", Type::String),
        ]));
        assert_eq!(
            l.console_type_string(),
            "list(\n    object({\n        is_admin: bool,\n        role: string,\n    }),\n)"
        );
        assert_eq!(
            Type::list(Type::String).console_type_string(),
            "list(string)"
        );
        // Collections of collections stay on one line.
        assert_eq!(
            Type::map(Type::list(Type::set(Type::Number))).console_type_string(),
            "map(list(set(number)))"
        );
    }

    #[test]
    fn equality_includes_optional_attrs() {
        let attrs: BTreeMap<String, Type> = [("a".to_string(), Type::String)].into();
        let plain = Type::object(attrs.clone());
        let opt = Type::object_with_optional(attrs, ["a".to_string()].into());
        assert_ne!(plain, opt);
        assert_eq!(opt.without_optional_attributes_deep(), plain);
    }

    #[test]
    fn conformance() {
        assert!(Type::list(Type::String)
            .test_conformance(&Type::list(Type::Dynamic))
            .is_empty());
        assert!(!Type::list(Type::String)
            .test_conformance(&Type::set(Type::String))
            .is_empty());
    }
}
