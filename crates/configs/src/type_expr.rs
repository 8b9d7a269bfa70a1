//! Type expressions (`string`, `list(number)`, `object({ a = optional(string,
//! "x") })`) read into cty types, as HCL's `ext/typeexpr` with its exact
//! diagnostics.

use std::collections::{BTreeMap, BTreeSet};

use hclsyntax::static_expr::{as_keyword, expr_call, expr_list, expr_map, StaticCall};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, Range};

use crate::named_values::eval_constant;

const INVALID_TYPE: &str = "Invalid type specification";

/// Default values of optional object attributes in a type constraint
/// (typeexpr's `Defaults`), kept as the expressions written so that their
/// source ranges stay at hand; [`TypeDefaults::to_defaults`] gives the
/// values.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDefaults {
    /// The type these defaults apply to.
    pub ty: cty::Type,
    /// Attribute name to default expression (objects only).
    pub default_values: BTreeMap<String, Expr>,
    /// Defaults nested in attributes (by name), tuple elements (by index as
    /// a string) or collection elements (key `""`).
    pub children: BTreeMap<String, TypeDefaults>,
}

impl TypeDefaults {
    /// The defaults as values, ready to apply: each default expression
    /// evaluated with no variables or functions and converted to its
    /// attribute's type, as typeexpr stores them.
    pub fn to_defaults(&self) -> cty::convert::Defaults {
        let default_values = self
            .default_values
            .iter()
            .map(|(name, expr)| {
                let (val, _) = eval_constant(expr);
                // The conversion was checked when the type was read
                // (check_optional_default); a failing default was dropped.
                let val = match self.ty.attribute_type(name) {
                    Some(aty) => cty::convert(&val, aty).unwrap_or(val),
                    None => val,
                };
                (name.clone(), val)
            })
            .collect();
        let children = self
            .children
            .iter()
            .map(|(key, child)| (key.clone(), child.to_defaults()))
            .collect();
        cty::convert::Defaults {
            ty: self.ty.clone(),
            default_values,
            children,
        }
    }
}

/// An exact type (`any` and `optional` are not allowed): typeexpr's `Type`.
pub fn exact_type(expr: &Expr) -> (cty::Type, Diagnostics) {
    let (ty, _, diags) = get_type(expr, false, false);
    (ty, diags)
}

/// A type constraint (`any` allowed, `optional(T)` without defaults):
/// typeexpr's `TypeConstraint`.
pub fn type_constraint(expr: &Expr) -> (cty::Type, Diagnostics) {
    let (ty, _, diags) = get_type(expr, true, false);
    (ty, diags)
}

/// A type constraint with `optional(T, default)`: typeexpr's
/// `TypeConstraintWithDefaults`.
pub fn type_constraint_with_defaults(
    expr: &Expr,
) -> (cty::Type, Option<TypeDefaults>, Diagnostics) {
    get_type(expr, true, true)
}

fn invalid(detail: impl Into<String>, subject: Range) -> Diagnostic {
    Diagnostic::error(INVALID_TYPE, detail, subject)
}

/// A type read from an expression, its optional attributes' defaults and
/// the diagnostics of reading it.
type ReadType = (cty::Type, Option<TypeDefaults>, Diagnostics);

fn fail(d: Diagnostic) -> ReadType {
    (cty::Type::Dynamic, None, vec![d])
}

/// typeexpr's `getType`: a keyword, or a type constructor call checked for
/// its shape and then read by kind.
fn get_type(expr: &Expr, constraint: bool, with_defaults: bool) -> ReadType {
    let range = expr.range.clone();
    if let Some(kw) = as_keyword(expr) {
        return keyword_type(&kw, constraint, range);
    }
    let Some(call) = expr_call(expr) else {
        return fail(invalid(
            "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).",
            range,
        ));
    };
    if let Some(d) = call_shape_error(&call) {
        return fail(d);
    }
    match call.name.as_str() {
        "list" | "set" | "map" => collection_type(&call, constraint, with_defaults),
        "object" => object_type(&call, range, constraint, with_defaults),
        "tuple" => tuple_type(&call, range, constraint, with_defaults),
        "optional" => fail(invalid(
            format!(
                "Keyword \"{}\" is valid only as a modifier for object type attributes.",
                call.name
            ),
            call.name_range.clone(),
        )),
        _ => fail(invalid(
            format!(
                "Keyword {} is not a valid type constructor.",
                hclsyntax::go_quote(&call.name)
            ),
            range,
        )),
    }
}

/// A type keyword alone: a primitive type, `any`, or a constructor
/// missing its argument.
fn keyword_type(kw: &str, constraint: bool, range: Range) -> ReadType {
    match kw {
        "bool" => (cty::Type::Bool, None, Vec::new()),
        "string" => (cty::Type::String, None, Vec::new()),
        "number" => (cty::Type::Number, None, Vec::new()),
        "any" if constraint => (cty::Type::Dynamic, None, Vec::new()),
        "any" => fail(invalid(
            format!("The keyword \"{kw}\" cannot be used in this type specification: an exact type is required."),
            range,
        )),
        "list" | "map" | "set" => fail(invalid(
            format!("The {kw} type constructor requires one argument specifying the element type."),
            range,
        )),
        "object" => fail(invalid(
            "The object type constructor requires one argument specifying the attribute types and values as a map.",
            range,
        )),
        "tuple" => fail(invalid(
            "The tuple type constructor requires one argument specifying the element types as a list.",
            range,
        )),
        _ => fail(invalid(
            format!(
                "The keyword {} is not a valid type specification.",
                hclsyntax::go_quote(kw)
            ),
            range,
        )),
    }
}

/// A call whose shape is wrong whatever its argument: a keyword that takes
/// no arguments, or a constructor not given exactly one.
fn call_shape_error(call: &StaticCall) -> Option<Diagnostic> {
    match call.name.as_str() {
        "bool" | "string" | "number" => {
            return Some(invalid(
                format!(
                    "Primitive type keyword \"{}\" does not expect arguments.",
                    call.name
                ),
                call.args_range.clone(),
            ))
        }
        "any" => {
            return Some(invalid(
                format!(
                    "Type constraint keyword \"{}\" does not expect arguments.",
                    call.name
                ),
                call.args_range.clone(),
            ))
        }
        _ => {}
    }
    if call.args.len() == 1 {
        return None;
    }
    let context = call.args_range.clone();
    let subject = if call.args.len() > 1 {
        call.args[1].range.to(&call.args[call.args.len() - 1].range)
    } else {
        call.args_range.clone()
    };
    let detail = match call.name.as_str() {
        "list" | "set" | "map" => format!(
            "The {} type constructor requires one argument specifying the element type.",
            call.name
        ),
        "object" => "The object type constructor requires one argument specifying the attribute types and values as a map.".to_string(),
        "tuple" => "The tuple type constructor requires one argument specifying the element types as a list.".to_string(),
        _ => return None,
    };
    Some(invalid(detail, subject).with_context(context))
}

/// `list(T)`, `set(T)` or `map(T)`.
fn collection_type(call: &StaticCall, constraint: bool, with_defaults: bool) -> ReadType {
    let (ety, defaults, diags) = get_type(&call.args[0], constraint, with_defaults);
    let ty = match call.name.as_str() {
        "list" => cty::Type::list(ety),
        "set" => cty::Type::set(ety),
        _ => cty::Type::map(ety),
    };
    let defaults = defaults.map(|d| TypeDefaults {
        ty: ty.clone(),
        default_values: BTreeMap::new(),
        children: BTreeMap::from([(String::new(), d)]),
    });
    (ty, defaults, diags)
}

/// The attributes of an `object({ ... })` type, as they are read.
#[derive(Default)]
struct ObjectAttrs {
    types: BTreeMap<String, cty::Type>,
    optional: BTreeSet<String>,
    default_values: BTreeMap<String, Expr>,
    children: BTreeMap<String, TypeDefaults>,
}

impl ObjectAttrs {
    /// Records an attribute's type and the defaults nested in it.
    fn add(&mut self, name: String, ty: cty::Type, defaults: Option<TypeDefaults>) {
        if let Some(d) = defaults {
            self.children.insert(name.clone(), d);
        }
        self.types.insert(name, ty);
    }
}

/// `object({ name = T, other = optional(T, default) })`.
fn object_type(call: &StaticCall, range: Range, constraint: bool, with_defaults: bool) -> ReadType {
    let Ok(attr_defs) = expr_map(&call.args[0]) else {
        return fail(invalid(
            "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
            call.args[0].range.clone(),
        ).with_context(range));
    };
    let mut diags = Diagnostics::new();
    let mut attrs = ObjectAttrs::default();
    for (key, value) in &attr_defs {
        let attr_name = if key.force_non_literal {
            None
        } else {
            as_keyword(&key.expr)
        };
        let Some(attr_name) = attr_name else {
            diags.push(
                invalid(
                    "Object constructor map keys must be attribute names.",
                    key.expr.range.clone(),
                )
                .with_context(range.clone()),
            );
            continue;
        };
        if let Some(opt) = expr_call(value).filter(|c| c.name == "optional") {
            optional_attribute(
                &mut attrs,
                attr_name,
                &opt,
                value,
                (constraint, with_defaults),
                &mut diags,
            );
            continue;
        }
        let (aty, a_defaults, more) = get_type(value, constraint, with_defaults);
        diags.extend(more);
        attrs.add(attr_name, aty, a_defaults);
    }
    let ty = cty::Type::object_with_optional(attrs.types, attrs.optional);
    let defaults = structured_defaults(&ty, attrs.default_values, attrs.children);
    (ty, defaults, diags)
}

/// An attribute written `optional(T)` or `optional(T, default)`: what the
/// mode allows, the type, and a default that converts to it.
fn optional_attribute(
    attrs: &mut ObjectAttrs,
    attr_name: String,
    opt: &StaticCall,
    value: &Expr,
    (constraint, with_defaults): (bool, bool),
    diags: &mut Diagnostics,
) {
    if opt.args.is_empty() {
        diags.push(
            invalid(
                "Optional attribute modifier requires the attribute type as its argument.",
                opt.args_range.clone(),
            )
            .with_context(value.range.clone()),
        );
        return;
    }
    let default_expr = optional_modifier(
        attrs,
        &attr_name,
        opt,
        value,
        (constraint, with_defaults),
        diags,
    );
    // The argument list was checked above to be non-empty.
    let (aty, a_defaults, more) = get_type(&opt.args[0], constraint, with_defaults);
    diags.extend(more);
    if let Some(def) = default_expr {
        let more = check_optional_default(&aty, &def);
        if !has_errors(&more) {
            attrs.default_values.insert(attr_name.clone(), def);
        }
        diags.extend(more);
    }
    attrs.add(attr_name, aty, a_defaults);
}

/// The `optional(...)` modifier's arguments as the mode allows them: marks
/// the attribute optional and gives its default expression, if any (one
/// that evaluates without errors).
fn optional_modifier(
    attrs: &mut ObjectAttrs,
    attr_name: &str,
    opt: &StaticCall,
    value: &Expr,
    (constraint, with_defaults): (bool, bool),
    diags: &mut Diagnostics,
) -> Option<Expr> {
    let problem = if !constraint {
        invalid(
            "Optional attribute modifier is only for type constraints, not for exact types.",
            opt.name_range.clone(),
        )
    } else if !with_defaults {
        if opt.args.len() == 1 {
            attrs.optional.insert(attr_name.to_string());
            return None;
        }
        invalid(
            "Optional attribute modifier expects only one argument: the attribute type.",
            opt.args_range.clone(),
        )
    } else {
        match opt.args.len() {
            2 => {
                let (_, d) = eval_constant(&opt.args[1]);
                let ok = !has_errors(&d);
                diags.extend(d);
                if !ok {
                    return None;
                }
                attrs.optional.insert(attr_name.to_string());
                return Some(opt.args[1].clone());
            }
            1 => {
                attrs.optional.insert(attr_name.to_string());
                return None;
            }
            _ => invalid(
                "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
                opt.args_range.clone(),
            ),
        }
    };
    diags.push(problem.with_context(value.range.clone()));
    None
}

/// `tuple([T, ...])`.
fn tuple_type(call: &StaticCall, range: Range, constraint: bool, with_defaults: bool) -> ReadType {
    let Ok(elem_defs) = expr_list(&call.args[0]) else {
        return fail(
            invalid(
                "Tuple type constructor requires a list of element types.",
                call.args[0].range.clone(),
            )
            .with_context(range),
        );
    };
    let mut diags = Diagnostics::new();
    let mut etys = Vec::with_capacity(elem_defs.len());
    let mut children = BTreeMap::new();
    for (i, def) in elem_defs.iter().enumerate() {
        let (ety, d, more) = get_type(def, constraint, with_defaults);
        diags.extend(more);
        etys.push(ety);
        if let Some(d) = d {
            children.insert(i.to_string(), d);
        }
    }
    let ty = cty::Type::tuple(etys);
    let defaults = structured_defaults(&ty, BTreeMap::new(), children);
    (ty, defaults, diags)
}

fn structured_defaults(
    ty: &cty::Type,
    default_values: BTreeMap<String, Expr>,
    children: BTreeMap<String, TypeDefaults>,
) -> Option<TypeDefaults> {
    if default_values.is_empty() && children.is_empty() {
        return None;
    }
    Some(TypeDefaults {
        ty: ty.clone(),
        default_values,
        children,
    })
}

/// Checks that an optional attribute's default converts to the attribute
/// type; the caller drops a default that does not. Evaluation errors are
/// the caller's to report (they came first).
pub fn check_optional_default(attr_type: &cty::Type, default: &Expr) -> Diagnostics {
    let (val, eval_diags) = eval_constant(default);
    if has_errors(&eval_diags) {
        return Vec::new();
    }
    match cty::convert(&val, attr_type) {
        Ok(_) => Vec::new(),
        // HCL formats the bare error here, without its path.
        Err(err) => vec![Diagnostic::error(
            "Invalid default value for optional attribute",
            format!(
                "This default value is not compatible with the attribute's type constraint: {}.",
                err.msg
            ),
            default.range.clone(),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::render;

    /// Parses `type = <src>` in a native file; `None` until the native parser exists.
    fn type_expr(src: &str) -> Option<Expr> {
        let text = format!("type = {src}\n");
        let (file, diags) = hclsyntax::parse_file("t.tf", text.as_bytes());
        if diags
            .iter()
            .any(|d| d.summary == "Native syntax parser missing")
        {
            return None;
        }
        assert!(diags.is_empty(), "{diags:?}");
        let (attrs, _) = file.body.just_attributes();
        Some(attrs[0].expr.clone())
    }

    fn json_type_expr(src: &str) -> Expr {
        let text = format!("{{\"type\": {src}}}");
        let (file, diags) = hclsyntax::parse_file("t.tf.json", text.as_bytes());
        assert!(diags.is_empty(), "{diags:?}");
        let (attrs, _) = file.body.just_attributes();
        attrs[0].expr.clone()
    }

    #[test]
    fn json_types() {
        let (ty, diags) = type_constraint(&json_type_expr("\"list(string)\""));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(ty, cty::Type::list(cty::Type::String));
        let (ty, d, diags) = type_constraint_with_defaults(&json_type_expr(
            "\"object({a = optional(number, 1), b = any})\"",
        ));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            ty,
            cty::Type::object_with_optional(
                BTreeMap::from([
                    ("a".to_string(), cty::Type::Number),
                    ("b".to_string(), cty::Type::Dynamic)
                ]),
                BTreeSet::from(["a".to_string()])
            )
        );
        let d = d.unwrap();
        assert!(d.default_values.contains_key("a"));
    }

    #[test]
    fn native_types() {
        let cases: &[(&str, cty::Type)] = &[
            ("string", cty::Type::String),
            ("any", cty::Type::Dynamic),
            ("map(bool)", cty::Type::map(cty::Type::Bool)),
            ("set(number)", cty::Type::set(cty::Type::Number)),
            (
                "tuple([string, number])",
                cty::Type::tuple(vec![cty::Type::String, cty::Type::Number]),
            ),
        ];
        for (src, want) in cases {
            let Some(e) = type_expr(src) else { return };
            let (ty, diags) = type_constraint(&e);
            assert!(diags.is_empty(), "{src}: {diags:?}");
            assert_eq!(&ty, want, "{src}");
        }
    }

    #[test]
    fn native_errors() {
        let cases: &[(&str, &str)] = &[
            ("notatype", "t.tf:1,8-16: Invalid type specification; The keyword \"notatype\" is not a valid type specification."),
            ("list", "t.tf:1,8-12: Invalid type specification; The list type constructor requires one argument specifying the element type."),
            ("list(string, number)", "t.tf:1,21-27: Invalid type specification; The list type constructor requires one argument specifying the element type."),
            ("string()", "t.tf:1,14-16: Invalid type specification; Primitive type keyword \"string\" does not expect arguments."),
            ("optional(string)", "t.tf:1,8-16: Invalid type specification; Keyword \"optional\" is valid only as a modifier for object type attributes."),
            ("foo(string)", "t.tf:1,8-19: Invalid type specification; Keyword \"foo\" is not a valid type constructor."),
            ("\"x\"", "t.tf:1,8-11: Invalid type specification; A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string)."),
            ("object({\"a\" = string})", "t.tf:1,16-19: Invalid type specification; Object constructor map keys must be attribute names."),
            ("object({a = optional(string, 1, 2)})", "t.tf:1,28-42: Invalid type specification; Optional attribute modifier expects at most two arguments: the attribute type, and a default value."),
        ];
        for (src, want) in cases {
            let Some(e) = type_expr(src) else { return };
            let (_, _, diags) = type_constraint_with_defaults(&e);
            assert_eq!(render(&diags), vec![want.to_string()], "{src}");
        }
        let Some(e) = type_expr("any") else { return };
        let (_, diags) = exact_type(&e);
        assert_eq!(diags[0].detail, "The keyword \"any\" cannot be used in this type specification: an exact type is required.");
    }
}
