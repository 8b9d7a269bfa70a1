//! Splat expressions `source[*].each` and `source.*.each` (HCL's
//! `SplatExpr`): `each` is evaluated once per element with the splat
//! placeholder bound to the element. A value that is not a list, set or
//! tuple is treated as a one-element tuple, and null as an empty tuple.

use cty::{Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, Range};

use super::eval;
use crate::context::EvalContext;

pub(super) fn eval_splat(
    _expr: &Expr,
    source: &Expr,
    each: &Expr,
    marker_range: &Range,
    ctx: &EvalContext<'_>,
) -> (Value, Diagnostics) {
    let (source_val, mut diags) = eval(source, ctx);
    if has_errors(&diags) {
        // Evaluate `each` anyway (with an unknown element) to report what
        // it would report.
        let child = ctx.splat_child(Value::dynamic());
        let (_, d) = eval(each, &child);
        diags.extend(d);
        return (Value::dynamic(), diags);
    }

    let source_ty = source_val.ty().clone();
    let auto_upgrade = !(source_ty.is_tuple() || source_ty.is_list() || source_ty.is_set());

    if source_val.is_null() {
        if auto_upgrade {
            return (Value::empty_tuple(), diags);
        }
        diags.push(
            Diagnostic::error(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                source.range.clone(),
            )
            .with_context(source.range.to(marker_range)),
        );
        return (Value::dynamic(), diags);
    }
    if source_ty.is_dynamic() {
        return (Value::dynamic(), diags);
    }

    let mut source_val = source_val;
    let mut upgraded_unknown = false;
    if auto_upgrade {
        // An unknown non-sequence could turn out null (no elements) or not
        // (one element), so the result's length cannot be known.
        if !source_val.is_known() {
            upgraded_unknown = true;
        }
        source_val = Value::tuple(vec![source_val]);
    }
    let source_ty = source_val.ty().clone();

    // The result type, found by evaluating `each` with unknown elements.
    let result_ty = |diags: &mut Diagnostics| -> Type {
        match &source_ty {
            Type::List(ety) | Type::Set(ety) => {
                let child = ctx.splat_child(Value::unknown((**ety).clone()));
                let (v, d) = eval(each, &child);
                diags.extend(d);
                Type::list(v.ty().clone())
            }
            Type::Tuple(etys) => Type::tuple(
                etys.iter()
                    .map(|ety| {
                        let child = ctx.splat_child(Value::unknown(ety.clone()));
                        let (v, d) = eval(each, &child);
                        diags.extend(d);
                        v.ty().clone()
                    })
                    .collect(),
            ),
            _ => Type::Dynamic,
        }
    };

    if !source_val.is_known() {
        let ty = result_ty(&mut diags);
        return (
            Value::unknown(ty).with_marks(source_val.marks().iter().cloned()),
            diags,
        );
    }

    let (source_val, marks) = source_val.unmark_with_marks();
    let mut vals = Vec::new();
    let mut known = true;
    for item in source_val.as_elements().unwrap_or_default() {
        let child = ctx.splat_child(item.clone());
        let (v, d) = eval(each, &child);
        if has_errors(&d) {
            known = false;
        }
        diags.extend(d);
        vals.push(v);
    }

    if upgraded_unknown {
        return (Value::dynamic(), diags);
    }
    if !known {
        let ty = result_ty(&mut Diagnostics::new());
        return (Value::unknown(ty), diags);
    }
    match &source_ty {
        Type::List(_) | Type::Set(_) => {
            if vals.is_empty() {
                let ty = result_ty(&mut diags);
                let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
                return (Value::list_empty(ety), diags);
            }
            let ety = vals[0].ty().clone();
            match Value::list(ety, vals.clone()) {
                Ok(l) => (l.marked_with(marks), diags),
                // Elements of differing types: HCL's `cty.ListVal` would
                // panic; a tuple is the closest honest answer.
                Err(_) => (Value::tuple(vals).marked_with(marks), diags),
            }
        }
        _ => (Value::tuple(vals).marked_with(marks), diags),
    }
}
