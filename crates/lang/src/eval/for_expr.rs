//! `for` expressions (HCL's `ForExpr`): tuple and object results, the
//! `if` filter, grouping with `...`, and iteration order (lists and tuples
//! by index, maps and objects by key, sets in cty's set order).

use std::collections::BTreeMap;

use cty::{convert::convert, Type, Value, ValueMarks};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, ForExpr};

use super::eval;
use crate::context::EvalContext;

pub(super) fn eval_for(expr: &Expr, f: &ForExpr, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    let mut run = ForEval {
        expr,
        f,
        ctx,
        diags: Diagnostics::new(),
        marks: ValueMarks::new(),
        known: true,
        tuple_vals: Vec::new(),
        obj_vals: BTreeMap::new(),
        groups: BTreeMap::new(),
    };
    let Some(coll) = run.collection() else {
        return (Value::dynamic(), run.diags);
    };
    if !run.condition_type_ok() {
        return (Value::dynamic(), run.diags);
    }
    for (k, v) in elements(&coll, f.key_var.is_some()) {
        let child = run.bind(k, v);
        if run.include(&child) {
            run.add_element(&child);
        }
    }
    run.result()
}

/// One `for` expression being evaluated: what the elements add up to.
struct ForEval<'a> {
    expr: &'a Expr,
    f: &'a ForExpr,
    ctx: &'a EvalContext<'a>,
    diags: Diagnostics,
    /// The marks of the collection, conditions and keys, for the result.
    marks: ValueMarks,
    /// Cleared by an element whose condition or key is unknown or invalid:
    /// the result is then unknown (and only the first such element is
    /// reported).
    known: bool,
    tuple_vals: Vec<Value>,
    obj_vals: BTreeMap<String, Value>,
    groups: BTreeMap<String, Vec<Value>>,
}

impl<'a> ForEval<'a> {
    /// An error on `on`, in the context of the whole expression.
    fn error(&self, summary: &str, detail: String, on: &Expr) -> Diagnostic {
        Diagnostic::error(summary, detail, on.range.clone()).with_context(self.expr.range.clone())
    }

    /// The context of one element: its key and value symbols.
    fn bind(&self, k: Value, v: Value) -> EvalContext<'a> {
        self.ctx.for_child(
            self.f.key_var.as_deref().map(|name| (name, k)),
            (self.f.value_var.as_str(), v),
        )
    }

    /// The collection, unmarked, if it is known and iterable; `None` makes
    /// the result unknown (with an error for a null or non-iterable one).
    fn collection(&mut self) -> Option<Value> {
        let f = self.f;
        let (coll, diags) = eval(&f.collection, self.ctx);
        self.diags.extend(diags);
        if coll.is_null() {
            let d = self.error(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.".into(),
                &f.collection,
            );
            self.diags.push(d);
            return None;
        }
        if coll.ty().is_dynamic() {
            return None;
        }
        let (coll, coll_marks) = coll.unmark_with_marks();
        self.marks.extend(coll_marks);
        let ty = coll.ty();
        let iterable = ty.is_collection() || ty.is_tuple() || ty.is_object();
        if !iterable {
            let d = self.error(
                "Iteration over non-iterable value",
                format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    ty.friendly_name()
                ),
                &f.collection,
            );
            self.diags.push(d);
            return None;
        }
        coll.is_known().then_some(coll)
    }

    /// An early check of the condition with unknown symbols, to report a
    /// condition of the wrong type once rather than once per element.
    fn condition_type_ok(&mut self) -> bool {
        let Some(cond) = &self.f.condition else {
            return true;
        };
        let child = self.bind(Value::dynamic(), Value::dynamic());
        let (result, cond_diags) = eval(cond, &child);
        let failed = has_errors(&cond_diags);
        self.diags.extend(cond_diags);
        if result.is_null() {
            let d = self.error(
                "Condition is null",
                "The value of the 'if' clause must not be null.".into(),
                cond,
            );
            self.diags.push(d);
            return false;
        }
        if let Err(e) = convert(&result, &Type::Bool) {
            let d = self.error(
                "Invalid 'for' condition",
                format!("The 'if' clause value is invalid: {e}."),
                cond,
            );
            self.diags.push(d);
            return false;
        }
        !failed
    }

    /// Reports `d` for the first element that makes the result unknown.
    fn unknown_because(&mut self, d: Option<Diagnostic>) {
        if let Some(d) = d.filter(|_| self.known) {
            self.diags.push(d);
        }
        self.known = false;
    }

    /// Whether the element passes the `if` clause (true without one).
    fn include(&mut self, child: &EvalContext<'_>) -> bool {
        let Some(cond) = &self.f.condition else {
            return true;
        };
        let (raw, cond_diags) = eval(cond, child);
        self.diags.extend(cond_diags);
        if raw.is_null() {
            let d = self.error(
                "Invalid 'for' condition",
                "The value of the 'if' clause must not be null.".into(),
                cond,
            );
            self.unknown_because(Some(d));
            return false;
        }
        if self.f.key_expr.is_none() && !raw.is_known() {
            self.unknown_because(None);
            return false;
        }
        let include = match convert(&raw, &Type::Bool) {
            Ok(b) => b,
            Err(e) => {
                let d = self.error(
                    "Invalid 'for' condition",
                    format!("The 'if' clause value is invalid: {e}."),
                    cond,
                );
                self.unknown_because(Some(d));
                return false;
            }
        };
        if !include.is_known() {
            self.unknown_because(None);
            return false;
        }
        let (include, include_marks) = include.unmark_with_marks();
        self.marks.extend(include_marks);
        include.as_bool() != Some(false)
    }

    /// The element's value, in the tuple or under its key.
    fn add_element(&mut self, child: &EvalContext<'_>) {
        let f = self.f;
        let Some(key_expr) = &f.key_expr else {
            let (val, val_diags) = eval(&f.value_expr, child);
            self.diags.extend(val_diags);
            self.tuple_vals.push(val);
            return;
        };
        let Some(key) = self.element_key(key_expr, child) else {
            return;
        };
        let (val, val_diags) = eval(&f.value_expr, child);
        self.diags.extend(val_diags);
        if f.group {
            self.groups.entry(key).or_default().push(val);
            return;
        }
        match self.obj_vals.entry(key) {
            std::collections::btree_map::Entry::Occupied(e) => {
                let d = Diagnostic::error(
                    "Duplicate object key",
                    format!(
                        "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                        super::traversal::go_quote(e.key())
                    ),
                    key_expr.range.clone(),
                )
                .with_context(self.expr.range.clone());
                self.diags.push(d);
            }
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(val);
            }
        }
    }

    /// The element's object key, if it is a known string.
    fn element_key(&mut self, key_expr: &Expr, child: &EvalContext<'_>) -> Option<String> {
        let (raw_key, key_diags) = eval(key_expr, child);
        self.diags.extend(key_diags);
        if raw_key.is_null() {
            let d = self.error(
                "Invalid object key",
                "Key expression in 'for' expression must not produce a null value.".into(),
                key_expr,
            );
            self.unknown_because(Some(d));
            return None;
        }
        if !raw_key.is_known() {
            self.unknown_because(None);
            return None;
        }
        let key = match convert(&raw_key, &Type::String) {
            Ok(k) => k,
            Err(e) => {
                let d = self.error(
                    "Invalid object key",
                    format!("The key expression produced an invalid result: {e}."),
                    key_expr,
                );
                self.unknown_because(Some(d));
                return None;
            }
        };
        let (key, key_marks) = key.unmark_with_marks();
        self.marks.extend(key_marks);
        Some(key.as_str().unwrap_or_default().to_string())
    }

    /// The tuple or object the elements made, or an unknown value.
    fn result(self) -> (Value, Diagnostics) {
        if !self.known {
            return (Value::dynamic(), self.diags);
        }
        let result = if self.f.key_expr.is_none() {
            Value::tuple(self.tuple_vals)
        } else if self.f.group {
            Value::object(
                self.groups
                    .into_iter()
                    .map(|(k, vs)| (k, Value::tuple(vs)))
                    .collect(),
            )
        } else {
            Value::object(self.obj_vals)
        };
        (result.marked_with(self.marks), self.diags)
    }
}

/// The elements with their keys: lists and tuples by index, maps and
/// objects by key, sets in cty's set order (each element its own key). A
/// key value is only made when the expression names a key symbol.
fn elements(coll: &Value, want_key: bool) -> Box<dyn Iterator<Item = (Value, Value)> + '_> {
    match (coll.as_elements(), coll.as_attrs()) {
        (Some(items), _) if coll.ty().is_set() => {
            Box::new(items.iter().map(|e| (e.clone(), e.clone())))
        }
        (Some(items), _) => Box::new(items.iter().enumerate().map(move |(i, e)| {
            let k = if want_key {
                Value::number_int(i as i64)
            } else {
                Value::dynamic()
            };
            (k, e.clone())
        })),
        (None, Some(attrs)) => Box::new(attrs.iter().map(move |(k, e)| {
            let k = if want_key {
                Value::string(k)
            } else {
                Value::dynamic()
            };
            (k, e.clone())
        })),
        (None, None) => Box::new(std::iter::empty()),
    }
}
