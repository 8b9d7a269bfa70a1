//! Error diagnostics: summaries, details and the exact ranges they point
//! at (subject: the offending sub-expression; context: the enclosing
//! expression, where HCL gives one).

use crate::test_util::{check_errors, err};

/// `(start column, end column)` of a range on line 1.
fn cols(r: &Option<hclsyntax::Range>) -> Option<(u32, u32)> {
    r.as_ref().map(|r| (r.start.column, r.end.column))
}

#[test]
fn error_messages() {
    check_errors(&[
        ("nope", "Unknown variable", "There is no variable named \"nope\"."),
        ("vars.x", "Unknown variable", "There is no variable named \"vars\". Did you mean \"var\"?"),
        ("var.nope", "Unsupported attribute", "This object does not have an attribute named \"nope\"."),
        ("var.map.nope", "Missing map element", "This map does not have an element with the key \"nope\"."),
        ("var.list[5]", "Invalid index", "The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection."),
        ("var.objs.name", "Unsupported attribute", "Can't access attributes on a list of objects. Did you mean to access attribute \"name\" for a specific element of the list, or across all elements of the list?"),
        ("var.null_obj.a", "Attempt to get attribute from null value", "This value is null, so it does not have any attributes."),
        ("var.null_list[0]", "Attempt to index null value", "This value is null, so it does not have any indices."),
        ("var.null_list[*]", "Splat of null value", "Splat expressions (with the * symbol) cannot be applied to null sequences."),
        ("var.set[0]", "Invalid index", "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set."),
        ("\"${var.null_str}x\"", "Invalid template interpolation value", "The expression result is null. Cannot include a null value in a string template."),
        ("\"x${var.list}\"", "Invalid template interpolation value", "Cannot include the given value in a string template: string required."),
        ("var.str + 1", "Invalid operand", "Unsuitable value for left operand: a number is required."),
        ("!var.list", "Invalid operand", "Unsuitable value for unary operand: bool required."),
        ("var.null_str == \"\" ? 1 : var.null_str + 1", "Operation failed", "Error during operation: argument must not be null."),
        ("true ? var.list : var.map", "Inconsistent conditional result types", "The true and false result expressions must have consistent types. The 'true' value is list of string, but the 'false' value is map of number."),
        ("true ? {a = 1} : {b = \"x\", a = [1]}", "Inconsistent conditional result types", "The true and false result expressions must have consistent types. Type mismatch for object attribute \"a\": The 'true' value is number, but the 'false' value is tuple."),
        ("{for x in var.list : \"k\" => x}", "Duplicate object key", "Two different items produced the key \"k\" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key."),
        ("{var.x = 1}", "Ambiguous attribute key", "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal."),
        ("zzzqqq(1)", "Call to unknown function", "There is no function named \"zzzqqq\"."),
        ("uppr(1)", "Call to unknown function", "There is no function named \"uppr\". Did you mean \"upper\"?"),
        ("core::nope(1)", "Call to unknown function", "There is no builtin (core::) function named \"nope\"."),
        ("provider::aws::arn(1)", "Unknown function provider", "Provider \"aws\" does not exist within the required_providers of this module"),
        ("provider::terraform::nope(1)", "Function not found in provider", "Function \"provider::terraform::nope\" was not registered by provider"),
        ("upper(var.list)", "Invalid function argument", "Invalid value for \"str\" parameter: string required."),
        ("upper(var.null_str)", "Invalid function argument", "Invalid value for \"str\" parameter: argument must not be null."),
        ("join(\",\", var.list, 1)", "Invalid function argument", "Invalid value for \"lists\" parameter: list of string required."),
        ("lookup(var.map, \"x\")", "Error in function call", "Call to function \"lookup\" failed: lookup failed to find key \"x\"."),
        ("lookup(var.map, var.secret)", "Error in function call", "Call to function \"lookup\" failed: lookup failed to find key (sensitive value)."),
        ("tonumber(var.secret)", "Invalid function argument", "Invalid value for \"v\" parameter: cannot convert this sensitive string to number."),
        ("max(var.str...)", "Invalid expanding argument value", "The expanding argument (indicated by ...) must be of a tuple, list, or set type."),
        ("try(var.nope, var.null_list[0])", "Error in function call", "Call to function \"try\" failed: no expression succeeded:\n- Unsupported attribute (at test.tf:1,8-13)\n  This object does not have an attribute named \"nope\".\n- Attempt to index null value (at test.tf:1,28-31)\n  This value is null, so it does not have any indices.\n\nAt least one expression must produce a successful result."),
    ]);
}

#[test]
fn error_ranges() {
    // Traversal errors point at the failing step (HCL gives no context).
    let d = err("var.obj.nope");
    assert_eq!(cols(&d.subject), Some((8, 13)));
    assert_eq!(d.context, None);

    let d = err("nope.x");
    assert_eq!(cols(&d.subject), Some((1, 5)));

    // An index expression's subject is its brackets.
    let d = err("var.list[var.num]");
    assert_eq!(d.summary, "Invalid index");
    assert_eq!(cols(&d.subject), Some((9, 18)));

    // Operand errors: the operand, within the whole operation.
    let d = err("1 + var.str");
    assert_eq!(cols(&d.subject), Some((5, 12)));
    assert_eq!(cols(&d.context), Some((1, 12)));

    // Template parts: the interpolated expression, within the template.
    let d = err("\"a${var.null_str}\"");
    assert_eq!(cols(&d.subject), Some((5, 17)));
    assert!(d.context.is_some());

    // Conditional type mismatch: from the true result to the false one.
    let d = err("true ? [1] : {}");
    assert_eq!(d.summary, "Inconsistent conditional result types");
    assert_eq!(cols(&d.subject), Some((8, 16)));
    assert_eq!(cols(&d.context), Some((1, 16)));

    // Unknown function: its name, within the call.
    let d = err("uppr(\"a\")");
    assert_eq!(cols(&d.subject), Some((1, 5)));
    assert_eq!(cols(&d.context), Some((1, 10)));

    // Bad argument: the argument's start range.
    let d = err("upper(var.list)");
    assert_eq!(cols(&d.subject), Some((7, 15)));

    // Missing argument: the closing parenthesis.
    let d = err("upper()");
    assert_eq!(d.summary, "Not enough function arguments");
    assert_eq!(cols(&d.subject), Some((7, 8)));

    // Surplus argument: the first one too many, from its start range (a
    // quoted string's starts inside the quotes, as terraform shows it).
    let d = err("upper(\"a\", \"b\")");
    assert_eq!(d.summary, "Too many function arguments");
    assert_eq!(cols(&d.subject), Some((13, 14)));

    // Failed call: the name and opening parenthesis.
    let d = err("max([]...)");
    assert_eq!(d.summary, "Error in function call");
    assert_eq!(cols(&d.subject), Some((1, 5)));

    // Duplicate key in a for expression: the key expression.
    let d = err("{for x in [1, 1] : x => x}");
    assert_eq!(cols(&d.subject), Some((20, 21)));
    assert_eq!(cols(&d.context), Some((1, 27)));

    // Null condition: the condition.
    let d = err("var.null_str ? 1 : 2");
    assert_eq!(d.summary, "Null condition");
    assert_eq!(cols(&d.subject), Some((1, 13)));
    assert_eq!(cols(&d.context), Some((1, 21)));
}

#[test]
fn errors_yield_placeholders() {
    use crate::test_util::eval_src;
    // Failed operations still say what type they would have had.
    let (v, _) = eval_src("1 + var.str");
    assert_eq!(v.ty(), &cty::Type::Number);
    assert!(!v.is_known());
    let (v, _) = eval_src("var.nope");
    assert!(!v.is_known());
    // Errors inside a collection leave the rest evaluated.
    let (v, d) = eval_src("[var.nope, 1]");
    assert_eq!(d.len(), 1);
    assert!(v.ty().is_tuple());
}
