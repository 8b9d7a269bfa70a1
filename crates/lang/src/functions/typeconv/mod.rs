//! Type conversion and meta functions: `convert` (OpenTofu 1.13),
//! `ephemeralasnull`, `type` (console only) and the unknown-value
//! assumption functions of OpenTofu 1.13 (`internal/lang/funcs/assume.go`);
//! the `to*` conversions in [`explicit`], and try, can and the sensitivity
//! functions (which OpenTofu's documentation also lists as type conversion
//! functions) in [`meta`].
//!
//! cty here has no refinements of unknown values, so the assumption
//! functions check their assumption against known values only and return
//! unknown values unchanged (where OpenTofu would refine them).

mod explicit;
mod meta;

use std::collections::{BTreeMap, BTreeSet};

use cty::{Mark, Type, Value};
use hclsyntax::{Expr, ExprKind};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};

/// The custom mark on the result of `type(...)`: the value is the console's
/// rendering of a type, to be printed as is.
pub const TYPE_TYPE_MARK: &str = "typetype";

/// Registers this family's functions (`type` is console-only: see
/// [`register_console`]).
pub fn register(table: &mut FunctionTable) {
    explicit::register(table);
    meta::register(table);
    table.insert("convert", convert());
    table.insert("ephemeralasnull", ephemeralasnull());
    table.insert("assumeequal", assumeequal());
    table.insert("assumenotnull", assumenotnull());
    table.insert("assumestringprefix", assumestringprefix());
    for noun in ["list", "set", "map"] {
        let ty = match noun {
            "list" => Type::list(Type::Dynamic),
            "set" => Type::set(Type::Dynamic),
            _ => Type::map(Type::Dynamic),
        };
        table.insert(
            format!("assume{noun}length"),
            length_fn(ty.clone(), Bounds::Both),
        );
        table.insert(
            format!("assume{noun}lengthmin"),
            length_fn(ty.clone(), Bounds::Min),
        );
        table.insert(format!("assume{noun}lengthmax"), length_fn(ty, Bounds::Max));
    }
}

/// Registers the console-only `type` function.
pub fn register_console(table: &mut FunctionTable) {
    table.insert("type", type_fn());
}

/// OpenTofu `TypeFunc`: the console's rendering of the argument's type,
/// as a string marked with [`TYPE_TYPE_MARK`].
fn type_fn() -> Function {
    Function::new(
        vec![Param::new("value", Type::Dynamic)
            .allow_dynamic()
            .allow_unknown()
            .allow_null()],
        None,
        |_| Ok(Type::String),
        |args, _| {
            Ok(Value::string(args[0].ty().console_type_string())
                .mark(Mark::Custom(TYPE_TYPE_MARK.into())))
        },
    )
}

/// OpenTofu `EphemeralAsNullFunc`: every ephemeral-marked value inside the
/// argument becomes null (unknowns stay unknown), keeping other marks.
fn ephemeralasnull() -> Function {
    Function::new(
        vec![Param::new("value", Type::Dynamic)
            .allow_null()
            .allow_unknown()
            .allow_dynamic()
            .allow_marked()],
        None,
        |args| Ok(args[0].ty().clone()),
        |args, _| Ok(strip_ephemeral(&args[0])),
    )
}

fn strip_ephemeral(v: &Value) -> Value {
    let (inner, mut marks) = v.unmark_with_marks();
    let eph = marks.remove(&Mark::Ephemeral);
    if eph {
        let r = if inner.is_known() {
            Value::null(inner.ty().clone())
        } else {
            inner
        };
        return r.with_marks(marks);
    }
    if !v.contains_marked() {
        return v.clone();
    }
    let ty = inner.ty().clone();
    let rebuilt = if let Some(items) = inner.as_elements() {
        let items: Vec<Value> = items.iter().map(strip_ephemeral).collect();
        match &ty {
            Type::List(e) => Value::list((**e).clone(), items).ok(),
            Type::Set(e) => Value::set((**e).clone(), items).ok(),
            _ => Some(Value::tuple(items)),
        }
    } else if let Some(attrs) = inner.as_attrs() {
        let attrs: BTreeMap<String, Value> = attrs
            .iter()
            .map(|(k, x)| (k.clone(), strip_ephemeral(x)))
            .collect();
        match &ty {
            Type::Map(e) => Value::map((**e).clone(), attrs).ok(),
            _ => Some(Value::object(attrs)),
        }
    } else {
        Some(inner.clone())
    };
    rebuilt.unwrap_or(inner).with_marks(marks)
}

/// OpenTofu `AssumeEqualFunc`.
fn assumeequal() -> Function {
    let p = |name: &str| {
        Param::new(name, Type::Dynamic)
            .allow_null()
            .allow_unknown()
            .allow_dynamic()
            .allow_marked()
    };
    Function::new(
        vec![p("actual_value"), p("expected_value")],
        None,
        |args| Ok(args[1].ty().clone()),
        |args, _| {
            let actual = cty::convert(&args[0], args[1].ty()).map_err(|_| {
                FnError::arg(
                    0,
                    format!(
                        "actual value type {} does not match assumed value type {}",
                        args[0].ty().friendly_name(),
                        args[1].ty().friendly_name()
                    ),
                )
            })?;
            let eq = actual.equals(&args[1]).unmark();
            if eq.as_bool() == Some(false) {
                return Err(FnError::arg(
                    0,
                    "the actual value does not match the assumed value",
                ));
            }
            let (_, pvm) = actual.unmark_deep_with_paths();
            let keep: Vec<cty::PathValueMarks> = pvm
                .into_iter()
                .filter_map(|mut p| {
                    p.marks.remove(&Mark::Sensitive);
                    p.marks.remove(&Mark::Ephemeral);
                    (!p.marks.is_empty()).then_some(p)
                })
                .collect();
            if keep.is_empty() {
                return Ok(args[1].clone());
            }
            Ok(args[1].mark_with_paths(&keep))
        },
    )
}

fn value_param(ty: Type) -> Param {
    Param::new("value", ty)
        .allow_null()
        .allow_unknown()
        .allow_dynamic()
}

const NOT_UPHELD: &str = "assumption was not upheld";

/// OpenTofu `AssumeNotNullFunc`.
fn assumenotnull() -> Function {
    Function::new(
        vec![value_param(Type::Dynamic)],
        None,
        |_| Ok(Type::Dynamic),
        |args, _| {
            let v = &args[0];
            if v.ty().is_dynamic() {
                return Err(FnError::arg(
                    0,
                    "given value must have a known type; consider using the \\\"convert\\\" function to specify a type to assume",
                ));
            }
            if v.is_null() {
                return Err(FnError::arg(0, NOT_UPHELD));
            }
            Ok(v.clone())
        },
    )
}

/// OpenTofu `AssumeStringPrefixFunc`.
fn assumestringprefix() -> Function {
    Function::new(
        vec![
            value_param(Type::String),
            Param::new("prefix", Type::String),
        ],
        None,
        |_| Ok(Type::String),
        |args, _| {
            let v = &args[0];
            let prefix = args[1].as_str().unwrap_or_default();
            if let Some(s) = v.as_str() {
                if !s.starts_with(prefix) {
                    return Err(FnError::arg(0, NOT_UPHELD));
                }
            }
            Ok(v.clone())
        },
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Bounds {
    Both,
    Min,
    Max,
}

/// OpenTofu `makeCollectionLength{Bounds,LowerBound,UpperBound}Func`.
fn length_fn(ty: Type, bounds: Bounds) -> Function {
    let mut params = vec![value_param(ty.clone())];
    if bounds != Bounds::Max {
        params.push(Param::new("min_length", Type::Number));
    }
    if bounds != Bounds::Min {
        params.push(Param::new("max_length", Type::Number));
    }
    let ret = ty.clone();
    Function::new(
        params,
        None,
        move |_| Ok(ret.clone()),
        move |args, _| {
            let mut nums = Vec::new();
            for (i, a) in args[1..].iter().enumerate() {
                let n = a
                    .as_number()
                    .filter(|n| n.is_int())
                    .and_then(|n| n.to_i64())
                    .filter(|&n| n < i64::MAX);
                let Some(n) = n else {
                    // OpenTofu reports the single-bound functions' error at
                    // argument 0.
                    let idx = if bounds == Bounds::Both { i + 1 } else { 0 };
                    return Err(FnError::arg(
                        idx,
                        format!("must be a whole number between 0 and {}", i64::MAX),
                    ));
                };
                nums.push(n);
            }
            let (lo, hi) = match bounds {
                Bounds::Both => (Some(nums[0]), Some(nums[1])),
                Bounds::Min => (Some(nums[0]), None),
                Bounds::Max => (None, Some(nums[0])),
            };
            let v = &args[0];
            if v.is_known() && !v.is_null() {
                let len = v.length_int().unwrap_or(0) as i64;
                if lo.is_some_and(|l| len < l) || hi.is_some_and(|h| len > h) {
                    return Err(FnError::arg(0, NOT_UPHELD));
                }
            }
            Ok(v.clone())
        },
    )
}

/// OpenTofu's `convert(value, type)`: the second argument is a type
/// constraint expression, read without evaluating it.
fn convert() -> Function {
    Function::with_closures(
        vec![
            Param::new("value", Type::Dynamic),
            Param::new("type", Type::Dynamic),
        ],
        None,
        |args| {
            if args.len() != 2 {
                return Err(FnError::general(format!(
                    "wrong number of arguments (2 required; {} given)",
                    args.len()
                )));
            }
            let (ty, defaults) = type_constraint(args[1].expr).map_err(|e| FnError::arg(1, e))?;
            let (v, diags) = args[0].value();
            if let Some(d) = diags.iter().find(|d| d.is_error()) {
                return Err(FnError::arg(0, format!("{}; {}", d.summary, d.detail)));
            }
            // Default values of optional attributes are not applied yet.
            let _ = defaults;
            cty::convert(&v, &ty).map_err(|e| FnError::arg(0, e.with_path()))
        },
    )
}

/// Reads a type constraint expression (HCL `typeexpr.TypeConstraintWithDefaults`
/// without default values): the type and whether any optional attribute
/// had a default.
pub(crate) fn type_constraint(expr: &Expr) -> Result<(Type, bool), String> {
    let mut has_defaults = false;
    let ty = read_type(expr, &mut has_defaults, 0)?;
    Ok((ty, has_defaults))
}

fn keyword(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::ScopeTraversal(t) if t.steps.is_empty() => Some(&t.root),
        ExprKind::Parens(e) => keyword(e),
        _ => None,
    }
}

fn read_type(expr: &Expr, defaults: &mut bool, depth: usize) -> Result<Type, String> {
    if depth > 100 {
        return Err("This type expression is nested too deeply.".into());
    }
    if let Some(k) = keyword(expr) {
        return match k {
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "bool" => Ok(Type::Bool),
            "any" => Ok(Type::Dynamic),
            "list" | "set" | "map" | "tuple" | "object" => Err(format!(
                "The {k} type constructor requires one argument specifying the element type."
            )),
            other => Err(format!(
                "The keyword \"{other}\" is not a valid type specification."
            )),
        };
    }
    let ExprKind::FunctionCall(call) = &expr.kind else {
        return Err("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).".into());
    };
    let arg = |n: &str| -> Result<&Expr, String> {
        match call.args.as_slice() {
            [a] => Ok(a),
            _ => Err(format!(
                "The {n} type constructor requires one argument specifying the element type."
            )),
        }
    };
    match call.name.as_str() {
        "list" => Ok(Type::list(read_type(arg("list")?, defaults, depth + 1)?)),
        "set" => Ok(Type::set(read_type(arg("set")?, defaults, depth + 1)?)),
        "map" => Ok(Type::map(read_type(arg("map")?, defaults, depth + 1)?)),
        "tuple" => {
            let a = arg("tuple")?;
            let ExprKind::Tuple(items) = &a.kind else {
                return Err("Tuple type constructor requires a list of element types.".into());
            };
            let tys = items
                .iter()
                .map(|e| read_type(e, defaults, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Type::tuple(tys))
        }
        "object" => {
            let a = arg("object")?;
            let ExprKind::Object(items) = &a.kind else {
                return Err("Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.".into());
            };
            let mut attrs = BTreeMap::new();
            let mut optional = BTreeSet::new();
            for item in items {
                let name = match item.key.as_bare_name() {
                    Some(n) => n.to_string(),
                    None => match &item.key.expr.kind {
                        ExprKind::Template(parts) if parts.len() == 1 => match &parts[0].kind {
                            ExprKind::Literal(hclsyntax::Literal::String(s)) => s.clone(),
                            _ => {
                                return Err(
                                    "Object constructor map keys must be attribute names.".into()
                                )
                            }
                        },
                        _ => {
                            return Err(
                                "Object constructor map keys must be attribute names.".into()
                            )
                        }
                    },
                };
                let (aty, opt) = match &item.value.kind {
                    ExprKind::FunctionCall(c) if c.name == "optional" => match c.args.as_slice() {
                        [t] => (read_type(t, defaults, depth + 1)?, true),
                        [t, _] => {
                            *defaults = true;
                            (read_type(t, defaults, depth + 1)?, true)
                        }
                        _ => return Err("Optional attribute modifier requires the attribute type as its first argument, and optionally a default value as its second argument.".into()),
                    },
                    _ => (read_type(&item.value, defaults, depth + 1)?, false),
                };
                if opt {
                    optional.insert(name.clone());
                }
                attrs.insert(name, aty);
            }
            Ok(Type::object_with_optional(attrs, optional))
        }
        "optional" => Err(
            "Keyword \"optional\" is valid only as a modifier for object type attributes.".into(),
        ),
        other => Err(format!(
            "Keyword \"{other}\" is not a valid type constructor."
        )),
    }
}

#[cfg(test)]
mod tests;
