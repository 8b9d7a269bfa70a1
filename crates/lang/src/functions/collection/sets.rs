//! Set functions (go-cty `set.go` and `SetProductFunc`): setunion,
//! setintersection, setsubtract, setproduct.

use cty::{Type, Value, ValueMarks};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};

/// The most tuples `setproduct` builds; Go has no limit but would run out
/// of memory long before a product this large.
const MAX_PRODUCT: usize = 1 << 22;

pub(super) fn register(table: &mut FunctionTable) {
    table.insert("setunion", set_op(Op::Union));
    table.insert("setintersection", set_op(Op::Intersection));
    table.insert("setsubtract", set_op(Op::Subtract));
    table.insert("setproduct", setproduct());
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Union,
    Intersection,
    Subtract,
}

fn set_param(name: &str) -> Param {
    Param::new(name, Type::set(Type::Dynamic)).allow_dynamic()
}

fn set_op(op: Op) -> Function {
    let (params, var_param) = if op == Op::Subtract {
        (vec![set_param("a"), set_param("b")], None)
    } else {
        (vec![set_param("first_set")], Some(set_param("other_sets")))
    };
    Function::new(params, var_param, set_return_type, move |args, ret| {
        set_impl(op, args, ret)
    })
}

/// go-cty `setOperationReturnType`.
fn set_return_type(args: &[Value]) -> Result<Type, FnError> {
    let mut etys = Vec::new();
    for arg in args {
        let ety = arg.ty().element_type().cloned().unwrap_or(Type::Dynamic);
        if arg.is_known() && arg.length_int() == Some(0) && ety.is_dynamic() {
            continue;
        }
        etys.push(ety);
    }
    if etys.is_empty() {
        return Ok(Type::set(Type::Dynamic));
    }
    match cty::unify_unsafe(&etys) {
        Some(t) => Ok(Type::set(t)),
        None => Err(FnError::general(
            "given sets must all have compatible element types",
        )),
    }
}

/// go-cty `setOperationImpl`.
fn set_impl(op: Op, args: &[Value], ret: &Type) -> Result<Value, FnError> {
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    let allow_unknowns = op == Op::Union;
    let mut acc: Option<Vec<Value>> = None;
    for (i, arg) in args.iter().enumerate() {
        let arg = cty::convert(arg, ret).map_err(|e| FnError::arg(i, e.msg))?;
        if !allow_unknowns && !arg.is_wholly_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        let items = arg.as_elements().unwrap_or_default();
        acc = Some(match acc {
            None => items.to_vec(),
            Some(cur) => match op {
                Op::Union => cur.into_iter().chain(items.iter().cloned()).collect(),
                Op::Intersection => cur.into_iter().filter(|v| has(items, v)).collect(),
                Op::Subtract => cur.into_iter().filter(|v| !has(items, v)).collect(),
            },
        });
    }
    Ok(Value::set(ety, acc.unwrap_or_default())?)
}

/// cty `ValueSet.Has`: an equivalent element (known-equal) is present.
fn has(items: &[Value], v: &Value) -> bool {
    items
        .iter()
        .any(|e| e.equals(v).unmark().as_bool() == Some(true))
}

/// go-cty `SetProductFunc`.
fn setproduct() -> Function {
    Function::new(
        Vec::new(),
        Some(
            Param::new("sets", Type::Dynamic)
                .allow_marked()
                .allow_unknown(),
        ),
        |args| {
            if args.len() < 2 {
                return Err(FnError::general("at least two arguments are required"));
            }
            let mut list_count = 0;
            let mut etys = Vec::with_capacity(args.len());
            for (i, arg) in args.iter().enumerate() {
                match arg.ty() {
                    Type::Set(e) => etys.push((**e).clone()),
                    Type::List(e) => {
                        etys.push((**e).clone());
                        list_count += 1;
                    }
                    Type::Tuple(all) => {
                        if all.is_empty() {
                            etys.push(Type::Dynamic);
                        } else {
                            let Some(ety) = cty::unify_unsafe(all) else {
                                return Err(FnError::arg(
                                    i,
                                    "all elements must be of the same type",
                                ));
                            };
                            etys.push(ety);
                        }
                        list_count += 1;
                    }
                    _ => return Err(FnError::arg(i, "a set or a list is required")),
                }
            }
            let tuple = Type::tuple(etys);
            if list_count == args.len() {
                Ok(Type::list(tuple))
            } else {
                Ok(Type::set(tuple))
            }
        },
        |args, ret| {
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let sub_etys = ety.tuple_element_types().unwrap_or_default().to_vec();
            let mut marks = ValueMarks::new();
            let mut total: usize = 1;
            let mut unknown_length = false;
            let mut arg_vals: Vec<Vec<Value>> = Vec::with_capacity(args.len());
            for arg in args {
                let (arg, m) = arg.unmark_with_marks();
                marks.extend(m);
                if !(arg.is_known() && arg.length().is_known()) {
                    unknown_length = true;
                    continue;
                }
                let items = arg.as_elements().unwrap_or_default().to_vec();
                total = total.saturating_mul(items.len());
                arg_vals.push(items);
            }
            if unknown_length {
                return Ok(Value::unknown(ret.clone()).with_marks(marks));
            }
            if total == 0 {
                let empty = if ret.is_list() {
                    Value::list_empty(ety)
                } else {
                    Value::set_empty(ety)
                };
                return Ok(empty.with_marks(marks));
            }
            if total > MAX_PRODUCT {
                return Err(FnError::general(format!(
                    "the result would have more than {MAX_PRODUCT} elements"
                )));
            }
            // Convert each argument's elements once.
            for (j, items) in arg_vals.iter_mut().enumerate() {
                let ty = sub_etys.get(j).cloned().unwrap_or(Type::Dynamic);
                for v in items.iter_mut() {
                    if v.ty() != &ty {
                        *v = cty::convert(v, &ty).map_err(|_| {
                            FnError::general(format!(
                                "failed to convert argVals[{j}] to {}; this is a bug in cty",
                                ty.friendly_name()
                            ))
                        })?;
                    }
                }
            }
            let mut product = Vec::with_capacity(total);
            let mut idx = vec![0usize; arg_vals.len()];
            for _ in 0..total {
                let tuple: Vec<Value> = idx
                    .iter()
                    .enumerate()
                    .map(|(j, &n)| arg_vals[j][n].clone())
                    .collect();
                product.push(Value::tuple(tuple));
                for j in (0..idx.len()).rev() {
                    idx[j] += 1;
                    if idx[j] < arg_vals[j].len() {
                        break;
                    }
                    idx[j] = 0;
                }
            }
            let out = if ret.is_list() {
                Value::list_infer(product)?
            } else {
                Value::set_infer(product)?
            };
            Ok(out.with_marks(marks))
        },
    )
}
