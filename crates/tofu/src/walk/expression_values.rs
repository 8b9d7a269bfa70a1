//! The values of the references in a failing expression, shown under its
//! snippet (`│ var.x is "foo"`), as OpenTofu's diagnostic views derive
//! them from a diagnostic's expression and evaluation context.
//!
//! The walk's diagnostics are HCL diagnostics, which have no room for
//! them: each is recorded here against the diagnostic's summary and
//! subject, and attached when the walk's diagnostics become the views'.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use cty::{Mark, Value};
use hclsyntax::{Diagnostic, Expr, Range};
use lang::Scope;
use tfdiags::ExpressionValue;

/// What an error is about, beyond its text (OpenTofu's
/// `DiagnosticCausedByUnknown` / `DiagnosticCausedBySensitive`): only then
/// are unknown and sensitive references mentioned, so that readers are not
/// misled into blaming them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cause {
    pub unknown: bool,
    pub sensitive: bool,
}

type Key = (String, Option<Range>);

/// The values recorded during a walk, by diagnostic.
#[derive(Default)]
pub struct ValueSink {
    recorded: Mutex<HashMap<Key, Vec<Vec<ExpressionValue>>>>,
}

impl ValueSink {
    /// Records the values of `expr`'s references (evaluated in `scope`)
    /// for `diag`, the problem found in `expr`.
    pub fn record(&self, diag: &Diagnostic, expr: &Expr, scope: &Scope<'_>, cause: Cause) {
        let values = describe(expr, scope, cause);
        if values.is_empty() {
            return;
        }
        let key = (diag.summary.clone(), diag.subject.clone());
        self.lock().entry(key).or_default().push(values);
    }

    /// `diags` with the recorded values attached; several diagnostics with
    /// the same summary and subject (one per instance) take them in turn.
    pub fn attach(&self, diags: tfdiags::Diagnostics) -> tfdiags::Diagnostics {
        let mut recorded = std::mem::take(&mut *self.lock());
        if recorded.is_empty() {
            return diags;
        }
        let mut out = tfdiags::Diagnostics::new();
        for diag in diags {
            let key = (diag.summary.clone(), diag.subject.clone());
            let values = recorded.get_mut(&key).and_then(|list| {
                if list.len() > 1 {
                    Some(list.remove(0))
                } else {
                    list.first().cloned()
                }
            });
            out.push(match values {
                Some(v) if diag.extra.values.is_empty() => diag.with_values(v),
                _ => diag,
            });
        }
        out
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Vec<Vec<ExpressionValue>>>> {
        // A panic while holding the lock leaves only values behind.
        self.recorded.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `DiagnosticExpressionValue`s: for each reference in `expr`, the
/// longest prefix of it that evaluates without error (at least two steps,
/// as `var.x`), once each.
pub fn describe(expr: &Expr, scope: &Scope<'_>, cause: Cause) -> Vec<ExpressionValue> {
    let traversals = expr.variables();
    let (refs, _) = scope.references(&traversals);
    let (ctx, _) = scope.eval_context(&refs);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for traversal in traversals {
        let mut t = traversal;
        while !t.steps.is_empty() {
            let (val, diags) = lang::eval::traverse_abs(&t, &ctx);
            if hclsyntax::has_errors(&diags) {
                t.steps.pop();
                continue;
            }
            let name = t.display();
            if !seen.insert(name.clone()) {
                break;
            }
            if let Some(statement) = statement(&val, cause) {
                out.push(ExpressionValue::new(name, statement));
            }
            break;
        }
    }
    out
}

/// What is said about one value, or nothing.
fn statement(val: &Value, cause: Cause) -> Option<String> {
    if val.has_mark(&Mark::Sensitive) {
        return cause.sensitive.then(|| "has a sensitive value".into());
    }
    if !val.is_known() {
        let ty = val.ty();
        if ty.is_dynamic() {
            return cause
                .unknown
                .then(|| "will be known only after apply".into());
        }
        return Some(if cause.unknown {
            format!("is a {}, known only after apply", ty.friendly_name())
        } else {
            format!("is a {}", ty.friendly_name())
        });
    }
    Some(format!("is {}", compact_value(val)))
}

/// `compactValueStr`: a short description that never shows the values
/// inside a collection (they could be sensitive on their own).
fn compact_value(val: &Value) -> String {
    let val = val.unmark();
    let ty = val.ty().clone();
    if val.is_null() {
        return "null".into();
    }
    if ty == cty::Type::Bool {
        return if val.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }
        .into();
    }
    if ty == cty::Type::Number {
        return val.as_number().map(|n| n.text('g', 10)).unwrap_or_default();
    }
    if ty == cty::Type::String {
        return cty::format::go_quote(val.as_str().unwrap_or_default());
    }
    if ty.is_collection() || ty.is_tuple() {
        let n = val.length_int().unwrap_or(0);
        return match n {
            0 => format!("empty {}", ty.friendly_name()),
            1 => format!("{} with 1 element", ty.friendly_name()),
            n => format!("{} with {n} elements", ty.friendly_name()),
        };
    }
    if ty.is_object() {
        let names: Vec<String> = ty
            .attribute_types()
            .map(|a| a.keys().cloned().collect())
            .unwrap_or_default();
        return match names.len() {
            0 => "object with no attributes".into(),
            1 => format!(
                "object with 1 attribute {}",
                cty::format::go_quote(&names[0])
            ),
            n => format!("object with {n} attributes"),
        };
    }
    ty.friendly_name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_as_opentofu_words_them() {
        let s = |v: Value| statement(&v, Cause::default());
        let unknown = Cause {
            unknown: true,
            sensitive: false,
        };
        let cases: Vec<(Option<String>, &str)> = vec![
            (s(Value::string("x")), "is \"x\""),
            (s(Value::number_int(80)), "is 80"),
            (s(Value::null(cty::Type::String)), "is null"),
            (s(Value::bool(true)), "is true"),
            (
                s(Value::list(cty::Type::String, vec![Value::string("a")]).unwrap()),
                "is list of string with 1 element",
            ),
            (
                s(Value::tuple(vec![Value::string("a"), Value::number_int(1)])),
                "is tuple with 2 elements",
            ),
            (s(Value::empty_tuple()), "is empty tuple"),
            (s(Value::unknown(cty::Type::String)), "is a string"),
            (
                statement(&Value::unknown(cty::Type::String), unknown),
                "is a string, known only after apply",
            ),
            (
                statement(&Value::dynamic(), unknown),
                "will be known only after apply",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got.as_deref(), Some(want));
        }
        // Unknown and sensitive values are mentioned only when the error is
        // about them.
        assert_eq!(s(Value::dynamic()), None);
        assert_eq!(s(Value::string("pw").mark(Mark::Sensitive)), None);
        let sensitive = Cause {
            unknown: false,
            sensitive: true,
        };
        assert_eq!(
            statement(&Value::string("pw").mark(Mark::Sensitive), sensitive).as_deref(),
            Some("has a sensitive value")
        );
    }

    #[test]
    fn objects_name_their_only_attribute() {
        let one = Value::object(
            [("a".to_string(), Value::string("x"))]
                .into_iter()
                .collect(),
        );
        assert_eq!(compact_value(&one), "object with 1 attribute \"a\"");
        assert_eq!(
            compact_value(&Value::empty_object()),
            "object with no attributes"
        );
    }
}
