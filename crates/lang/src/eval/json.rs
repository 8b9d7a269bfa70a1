//! Values written in JSON syntax, evaluated as HCL's `json` package
//! evaluates its expressions: strings (and property names) are templates,
//! arrays are tuples, objects are objects whose duplicate names are errors.

use std::collections::BTreeMap;

use cty::{convert::convert, Type, Value, ValueMarks};
use hclsyntax::json::{to_expression, StringMode};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, JsonNode, JsonValue};

use super::eval;
use crate::context::EvalContext;

pub(super) fn eval_json(node: &JsonNode, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    match &node.value {
        JsonValue::Null => (Value::null(Type::Dynamic), Vec::new()),
        JsonValue::Bool(b) => (Value::bool(*b), Vec::new()),
        JsonValue::Number(text) => match Value::parse_number(text) {
            Ok(v) => (v, Vec::new()),
            Err(_) => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid JSON number",
                    format!("There is a syntax error in the given JSON number: {text}."),
                    node.range.clone(),
                )],
            ),
        },
        JsonValue::String(_) => eval_string(node, ctx),
        JsonValue::Array(items) => {
            let mut diags = Diagnostics::new();
            let vals = items
                .iter()
                .map(|item| {
                    let (v, d) = eval_json(item, ctx);
                    diags.extend(d);
                    v
                })
                .collect();
            (Value::tuple(vals), diags)
        }
        JsonValue::Object(props) => {
            let mut diags = Diagnostics::new();
            let mut attrs: BTreeMap<String, Value> = BTreeMap::new();
            let mut ranges: BTreeMap<String, hclsyntax::Range> = BTreeMap::new();
            let mut marks = ValueMarks::new();
            let mut known = true;
            for prop in props {
                let name_node = JsonNode {
                    value: JsonValue::String(prop.name.clone()),
                    range: prop.name_range.clone(),
                };
                let (name, name_diags) = eval_string(&name_node, ctx);
                let (val, val_diags) = eval_json(&prop.value, ctx);
                diags.extend(name_diags);
                diags.extend(val_diags);
                let name = match convert(&name, &Type::String) {
                    Ok(n) => n,
                    Err(e) => {
                        diags.push(Diagnostic::error(
                            "Invalid object key expression",
                            format!("Cannot use this expression as an object key: {e}."),
                            prop.name_range.clone(),
                        ));
                        continue;
                    }
                };
                if name.is_null() {
                    diags.push(Diagnostic::error(
                        "Invalid object key expression",
                        "Cannot use null value as an object key.",
                        prop.name_range.clone(),
                    ));
                    continue;
                }
                if !name.is_known() {
                    known = false;
                    continue;
                }
                let (name, name_marks) = name.unmark_with_marks();
                marks.extend(name_marks);
                let name = name.as_str().unwrap_or_default().to_string();
                if let Some(prev) = ranges.get(&name) {
                    diags.push(Diagnostic::error(
                        "Duplicate object attribute",
                        format!(
                            "An attribute named {} was already defined at {prev}.",
                            super::traversal::go_quote(&name)
                        ),
                        prop.name_range.clone(),
                    ));
                    continue;
                }
                ranges.insert(name.clone(), prop.name_range.clone());
                attrs.insert(name, val);
            }
            if !known {
                return (Value::dynamic(), diags);
            }
            (Value::object(attrs).with_marks(marks), diags)
        }
    }
}

/// A JSON string, parsed and evaluated as a template.
fn eval_string(node: &JsonNode, ctx: &EvalContext<'_>) -> (Value, Diagnostics) {
    let (expr, diags) = to_expression(node, StringMode::Template);
    if has_errors(&diags) {
        return (Value::dynamic(), diags);
    }
    let (v, d) = eval(&expr, ctx);
    let mut diags = diags;
    diags.extend(d);
    (v, diags)
}
