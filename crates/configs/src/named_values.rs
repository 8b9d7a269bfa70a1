//! Input variables, output values and local values (`variable`, `output`
//! and `locals` blocks), as OpenTofu's `named_values.go`, with their
//! override merges (`module_merge.go`).

use hclsyntax::static_expr::as_keyword;
use hclsyntax::{
    has_errors, Attribute, Block, BodySchema, Diagnostic, Diagnostics, Expr, Range, StepKind,
    Traversal,
};

use crate::check_rule::{decode_check_rule_block, CheckRule};
use crate::compat_shim::is_native_quoted_string;
use crate::decode_value::{const_value, decode_bool, decode_string, ConstValue};
use crate::depends_on::decode_depends_on;
use crate::type_expr::{type_constraint_with_defaults, TypeDefaults};

/// The detail of every "not a valid identifier" diagnostic.
pub const BAD_IDENTIFIER_DETAIL: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

/// Names a variable may not have, because a `module` block gives them a
/// meaning of their own (its arguments and block types).
const MODULE_RESERVED_NAMES: &[&str] = &[
    "source",
    "version",
    "count",
    "for_each",
    "depends_on",
    "providers",
    "_",
    "lifecycle",
    "locals",
    "provider",
];

/// How a variable's value given as text (`-var`, `TF_VAR_x`) is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableParsingMode {
    /// The text is the string value (primitive types).
    Literal,
    /// The text is an HCL expression (all other types).
    Hcl,
}

/// A `variable` block.
#[derive(Debug, Clone)]
pub struct Variable {
    pub name: String,
    pub name_range: Range,
    pub description: String,
    /// The `default` expression as written.
    pub default: Option<Expr>,
    /// The default's value: converted to the type constraint (with the
    /// type's optional-attribute defaults applied), an unknown when that
    /// conversion failed, or as evaluated in an override block without a
    /// type. Present exactly when `default` is.
    pub default_value: Option<cty::Value>,
    /// The concrete type (the constraint without optional attributes);
    /// `None` in an override block that does not set `type`.
    pub ty: Option<cty::Type>,
    /// The type constraint, possibly with optional object attributes.
    pub constraint_type: Option<cty::Type>,
    /// Defaults of `optional(T, default)` attributes.
    pub type_defaults: Option<TypeDefaults>,
    /// `None` in an override block that does not set `type`.
    pub parsing_mode: Option<VariableParsingMode>,
    pub validations: Vec<CheckRule>,
    pub sensitive: bool,
    pub ephemeral: bool,
    pub nullable: bool,
    /// The deprecation message; empty if not deprecated.
    pub deprecated: String,
    /// `const = true`: evaluated once, at module load, for static use.
    pub is_const: bool,
    pub description_set: bool,
    pub sensitive_set: bool,
    pub ephemeral_set: bool,
    pub nullable_set: bool,
    pub deprecated_set: bool,
    pub const_set: bool,
    /// The block header (`variable "name"`).
    pub decl_range: Range,
}

impl Variable {
    /// Whether the caller must set the variable (it has no default).
    pub fn required(&self) -> bool {
        self.default.is_none()
    }

    /// The prompt text shown when asking for the variable's value.
    pub fn input_prompt(&self) -> String {
        match (self.description.is_empty(), self.deprecated.is_empty()) {
            (false, false) => format!(
                "{}.\nVariable is marked as deprecated with the following message: {}",
                self.description, self.deprecated
            ),
            (true, false) => format!(
                "Variable is marked as deprecated with the following message: {}",
                self.deprecated
            ),
            _ => self.description.clone(),
        }
    }

    /// Applies an override file's block (`Variable.merge`).
    pub fn merge(&mut self, over: &Variable) -> Diagnostics {
        if over.description_set {
            self.description = over.description.clone();
            self.description_set = true;
        }
        if over.sensitive_set {
            self.sensitive = over.sensitive;
            self.sensitive_set = true;
        }
        if over.ephemeral_set {
            self.ephemeral = over.ephemeral;
            self.ephemeral_set = true;
        }
        if over.deprecated_set {
            self.deprecated = over.deprecated.clone();
            self.deprecated_set = true;
        }
        if over.const_set {
            self.is_const = over.is_const;
            self.const_set = true;
        }
        if over.default.is_some() {
            self.default = over.default.clone();
            self.default_value = over.default_value.clone();
        }
        if over.ty.is_some() {
            self.ty = over.ty.clone();
            self.constraint_type = over.constraint_type.clone();
            self.type_defaults = over.type_defaults.clone();
        }
        if over.parsing_mode.is_some() {
            self.parsing_mode = over.parsing_mode;
        }
        if over.nullable_set {
            self.nullable = over.nullable;
            self.nullable_set = true;
        }
        // The override may have changed the type or the default.
        check_merged_default_value(self, over)
    }
}

fn variable_schema() -> BodySchema {
    BodySchema::new(
        &[
            "description",
            "default",
            "type",
            "sensitive",
            "deprecated",
            "nullable",
            "ephemeral",
            "const",
        ],
        &[("validation", &[])],
    )
}

/// Decodes a `variable` block. In an override file, unset arguments stay
/// unset (`None` / `*_set == false`) so that [`Variable::merge`] can tell.
pub fn decode_variable_block(
    block: &Block,
    override_file: bool,
) -> (Option<Variable>, Diagnostics) {
    let Some(label) = block.labels.first() else {
        return (None, Vec::new());
    };
    let mut v = Variable {
        name: label.value.clone(),
        name_range: label.range.clone(),
        description: String::new(),
        default: None,
        default_value: None,
        ty: None,
        constraint_type: None,
        type_defaults: None,
        parsing_mode: None,
        validations: Vec::new(),
        sensitive: false,
        ephemeral: false,
        nullable: true,
        deprecated: String::new(),
        is_const: false,
        description_set: false,
        sensitive_set: false,
        ephemeral_set: false,
        nullable_set: false,
        deprecated_set: false,
        const_set: false,
        decl_range: block.def_range(),
    };
    if !override_file {
        v.ty = Some(cty::Type::Dynamic);
        v.constraint_type = Some(cty::Type::Dynamic);
        v.parsing_mode = Some(VariableParsingMode::Literal);
    }

    let (content, mut diags) = block.body.content(&variable_schema());

    if !hclsyntax::valid_identifier(&v.name) {
        diags.push(Diagnostic::error(
            "Invalid variable name",
            BAD_IDENTIFIER_DETAIL,
            label.range.clone(),
        ));
    }
    if MODULE_RESERVED_NAMES.contains(&v.name.as_str()) {
        diags.push(Diagnostic::error(
            "Invalid variable name",
            format!(
                "The variable name {} is reserved due to its special meaning inside module blocks.",
                hclsyntax::go_quote(&v.name)
            ),
            label.range.clone(),
        ));
    }

    if let Some(attr) = content.attribute("description") {
        if let Some(s) = decode_into(&attr.expr, decode_string, &mut diags) {
            v.description = s;
        }
        v.description_set = true;
    }

    if let Some(attr) = content.attribute("type") {
        let (ty, defaults, mode, more) = decode_variable_type(&attr.expr);
        diags.extend(more);
        v.ty = Some(ty.without_optional_attributes_deep());
        v.constraint_type = Some(ty);
        v.type_defaults = defaults;
        v.parsing_mode = Some(mode);
    }

    if let Some(attr) = content.attribute("sensitive") {
        if let Some(b) = decode_into(&attr.expr, decode_bool, &mut diags) {
            v.sensitive = b;
        }
        v.sensitive_set = true;
    }

    if let Some(attr) = content.attribute("deprecated") {
        match decode_string(&attr.expr) {
            Ok(s) => {
                if s.trim().is_empty() {
                    diags.push(Diagnostic::error(
                        "Invalid `deprecated` value",
                        "The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.",
                        label.range.clone(),
                    ));
                }
                v.deprecated = s;
            }
            Err(more) => diags.extend(more),
        }
        v.deprecated_set = true;
    }

    if let Some(attr) = content.attribute("nullable") {
        if let Some(b) = decode_into(&attr.expr, decode_bool, &mut diags) {
            v.nullable = b;
        } else {
            v.nullable = false;
        }
        v.nullable_set = true;
    }

    if let Some(attr) = content.attribute("ephemeral") {
        if let Some(b) = decode_into(&attr.expr, decode_bool, &mut diags) {
            v.ephemeral = b;
        }
        v.ephemeral_set = true;
    }

    if let Some(attr) = content.attribute("const") {
        if let Some(b) = decode_into(&attr.expr, decode_bool, &mut diags) {
            v.is_const = b;
        }
        v.const_set = true;
    }

    if let Some(attr) = content.attribute("default") {
        let (val, more) = check_default_value(&v, &attr.expr);
        diags.extend(more);
        if !v.nullable && val.is_null() {
            diags.push(Diagnostic::error(
                "Invalid default value for variable",
                "A null default value is not valid when nullable=false.",
                attr.expr.range.clone(),
            ));
        }
        v.default_value = Some(val);
        v.default = Some(attr.expr.clone());
    }

    for b in content.blocks_of("validation") {
        let (rule, more) = decode_variable_validation_block(&v.name, b, override_file);
        diags.extend(more);
        v.validations.push(rule);
    }

    (Some(v), diags)
}

/// Runs a constant decoder, moving its errors into `diags`.
fn decode_into<T>(
    expr: &Expr,
    f: impl Fn(&Expr) -> Result<T, Diagnostics>,
    diags: &mut Diagnostics,
) -> Option<T> {
    match f(expr) {
        Ok(v) => Some(v),
        Err(more) => {
            diags.extend(more);
            None
        }
    }
}

/// The errors `expr.Value(nil)` gives: any variable or function call.
/// Everything else is a constant, whatever its shape.
pub fn check_constant_expr(expr: &Expr) -> Diagnostics {
    match const_value(expr) {
        Ok(_) => Vec::new(),
        Err(diags) => {
            if diags.len() == 1 && diags[0].summary == "Unsuitable value type" {
                // A constant of a structural type (a list or an object): fine
                // unless it calls a function somewhere.
                match first_function_call(expr) {
                    Some(range) => vec![Diagnostic::error(
                        "Function calls not allowed",
                        "Functions may not be called here.",
                        range,
                    )],
                    None => Vec::new(),
                }
            } else {
                diags
            }
        }
    }
}

fn first_function_call(expr: &Expr) -> Option<Range> {
    use hclsyntax::ExprKind as K;
    match &expr.kind {
        K::FunctionCall(call) => Some(call.name_range.clone()),
        K::Literal(_) | K::ScopeTraversal(_) | K::AnonSymbol | K::Json(_) => None,
        K::Template(parts) | K::Tuple(parts) => parts.iter().find_map(first_function_call),
        K::TemplateWrap(e) | K::TemplateJoin(e) | K::Parens(e) => first_function_call(e),
        K::RelativeTraversal { source, .. } => first_function_call(source),
        K::Index {
            collection, key, ..
        } => first_function_call(collection).or_else(|| first_function_call(key)),
        K::Splat { source, each, .. } => {
            first_function_call(source).or_else(|| first_function_call(each))
        }
        K::Conditional {
            condition,
            true_result,
            false_result,
        } => first_function_call(condition)
            .or_else(|| first_function_call(true_result))
            .or_else(|| first_function_call(false_result)),
        K::Binary { lhs, rhs, .. } => first_function_call(lhs).or_else(|| first_function_call(rhs)),
        K::Unary { operand, .. } => first_function_call(operand),
        K::Object(items) => items.iter().find_map(|i| {
            first_function_call(&i.key.expr).or_else(|| first_function_call(&i.value))
        }),
        K::For(f) => first_function_call(&f.collection)
            .or_else(|| f.key_expr.as_deref().and_then(first_function_call))
            .or_else(|| first_function_call(&f.value_expr))
            .or_else(|| f.condition.as_deref().and_then(first_function_call)),
    }
}

/// Evaluates a constant expression as `expr.Value(nil)` does: no
/// variables and no functions.
pub fn eval_constant(expr: &Expr) -> (cty::Value, Diagnostics) {
    lang::eval_expr(expr, &lang::EvalContext::empty())
}

const INVALID_DEFAULT: &str = "Invalid default value for variable";

/// Evaluates a variable's `default` and converts it to the type constraint
/// (after applying the type's optional-attribute defaults to a non-null
/// value), as `decodeVariableBlock` does. Without a type constraint (an
/// override block) the value is returned as evaluated; when the conversion
/// fails it is an unknown. Also warns about object attributes the type
/// would discard.
pub fn check_default_value(var: &Variable, default: &Expr) -> (cty::Value, Diagnostics) {
    let (mut val, mut diags) = eval_constant(default);
    let Some(constraint) = &var.constraint_type else {
        return (val, diags);
    };
    if let Some(defaults) = &var.type_defaults {
        // A null default stays null, so that nullable variables can have it.
        if !val.is_null() {
            val = defaults.to_defaults().apply(&val);
        }
    }
    match cty::convert(&val, constraint) {
        Ok(converted) => val = converted,
        Err(err) => {
            diags.push(Diagnostic::error(
                INVALID_DEFAULT,
                format!(
                    "This default value is not compatible with the variable's type constraint: {}.",
                    err.with_path()
                ),
                default.range.clone(),
            ));
            val = cty::Value::dynamic();
        }
    }
    diags.extend(discarded_attribute_warnings(&var.name, default, constraint));
    (val, diags)
}

/// Re-converts a merged variable's default to its merged type constraint,
/// as `Variable.merge` does, keeping the converted value. The message says
/// which of the two the override changed; the subject is the override
/// block's header.
pub fn check_merged_default_value(merged: &mut Variable, over: &Variable) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let Some(val) = merged.default_value.clone() else {
        return diags;
    };
    let ty = merged.constraint_type.clone().unwrap_or(cty::Type::Dynamic);
    match cty::convert(&val, &ty) {
        Ok(converted) => merged.default_value = Some(converted),
        Err(err) => {
            // `Variable.merge` formats the bare error, without its path.
            let detail = match (over.ty.is_some(), over.default.is_some()) {
                (true, false) => format!(
                    "Overriding this variable's type constraint has made its default value invalid: {}.",
                    err.msg
                ),
                (false, true) => format!(
                    "The overridden default value for this variable is not compatible with the variable's type constraint: {}.",
                    err.msg
                ),
                _ => format!(
                    "This variable's default value is not compatible with its type constraint: {}.",
                    err.msg
                ),
            };
            diags.push(Diagnostic::error(
                INVALID_DEFAULT,
                detail,
                over.decl_range.clone(),
            ));
        }
    }
    if !merged.nullable
        && merged
            .default_value
            .as_ref()
            .is_some_and(cty::Value::is_null)
    {
        diags.push(Diagnostic::error(
            INVALID_DEFAULT,
            "A null default value is not valid when nullable=false.",
            over.decl_range.clone(),
        ));
    }
    diags
}

/// "Object attribute is ignored" warnings for attributes of object
/// constructors in `default` that the type constraint does not have, and
/// so would be discarded by conversion (OpenTofu's
/// `lint.DiscardedObjectConstructorAttrs`).
fn discarded_attribute_warnings(var_name: &str, expr: &Expr, ty: &cty::Type) -> Diagnostics {
    let mut found = Vec::new();
    if !ty.is_primitive() && !ty.is_dynamic() {
        find_discarded_attrs(expr, ty, &cty::Path::root(), &mut found);
    }
    found
        .into_iter()
        .map(|d| {
            let mut pre = d.path.clone();
            let attr_name = match pre.0.pop() {
                Some(cty::PathStep::GetAttr(name)) => name,
                _ => String::new(),
            };
            let attrs = d.target.attribute_types().map(|a| a.keys()).into_iter().flatten();
            let suggestion = hclsyntax::body::name_suggestion(&attr_name, attrs.map(String::as_str))
                .map(|s| format!(" Did you mean to set attribute {} instead?", hclsyntax::go_quote(s)))
                .unwrap_or_default();
            let nested = if pre.is_empty() {
                String::new()
            } else {
                format!(" nested value {pre}")
            };
            Diagnostic::warning(
                "Object attribute is ignored",
                format!(
                    "The object type for input variable {}{nested} does not include an attribute named {}, so this definition is unused.{suggestion}",
                    hclsyntax::go_quote(var_name),
                    hclsyntax::go_quote(&attr_name),
                ),
                d.name_range,
            )
            .with_context(d.context_range)
        })
        .collect()
}

/// One attribute that conversion to the target type would discard.
struct DiscardedAttr {
    /// From the top of the expression to the attribute (its last step).
    path: cty::Path,
    name_range: Range,
    /// The whole object constructor holding the attribute.
    context_range: Range,
    /// The object type that lacks the attribute.
    target: cty::Type,
}

fn find_discarded_attrs(
    expr: &Expr,
    ty: &cty::Type,
    path: &cty::Path,
    out: &mut Vec<DiscardedAttr>,
) {
    use hclsyntax::ExprKind as K;
    match (&expr.kind, ty) {
        (K::Object(items), cty::Type::Object(_)) => {
            for item in items {
                let Some(name) = object_key_name(&item.key) else {
                    continue;
                };
                match ty.attribute_type(&name) {
                    Some(aty) => find_discarded_attrs(&item.value, aty, &path.get_attr(&name), out),
                    None => out.push(DiscardedAttr {
                        path: path.get_attr(&name),
                        name_range: item.key.expr.range.clone(),
                        context_range: expr.range.clone(),
                        target: ty.clone(),
                    }),
                }
            }
        }
        (K::Object(items), cty::Type::Map(ety)) => {
            for item in items {
                if let Some(name) = object_key_name(&item.key) {
                    let child = path.index(cty::Value::string(&name));
                    find_discarded_attrs(&item.value, ety, &child, out);
                }
            }
        }
        (K::For(f), cty::Type::Map(ety)) if f.key_expr.is_some() => {
            let child = path.index(cty::Value::unknown(cty::Type::String));
            find_discarded_attrs(&f.value_expr, ety, &child, out);
        }
        (K::Tuple(elems), cty::Type::List(ety) | cty::Type::Set(ety)) => {
            for (i, e) in elems.iter().enumerate() {
                find_discarded_attrs(e, ety, &path.index_int(i), out);
            }
        }
        (K::For(f), cty::Type::List(ety) | cty::Type::Set(ety)) if f.key_expr.is_none() => {
            let child = path.index(cty::Value::unknown(cty::Type::Number));
            find_discarded_attrs(&f.value_expr, ety, &child, out);
        }
        (K::Tuple(elems), cty::Type::Tuple(etys)) if elems.len() == etys.len() => {
            for (i, (e, ety)) in elems.iter().zip(etys.iter()).enumerate() {
                find_discarded_attrs(e, ety, &path.index_int(i), out);
            }
        }
        _ => {}
    }
}

/// The constant attribute name of an object constructor key, if it has
/// one that is easy to find (`attributeNameFromObjectConsKey`).
fn object_key_name(key: &hclsyntax::ast::ObjectKey) -> Option<String> {
    if let Some(name) = key.as_bare_name() {
        return Some(name.to_string());
    }
    let (val, diags) = eval_constant(&key.expr);
    if has_errors(&diags) || !val.is_known() || val.is_null() {
        return None;
    }
    cty::convert(&val.unmark(), &cty::Type::String)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
}

const QUOTED_TYPE_PREFIX: &str = "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu.";

/// `decodeVariableType`: the type constraint, its defaults and the parsing
/// mode of a `type` argument.
pub fn decode_variable_type(
    expr: &Expr,
) -> (
    cty::Type,
    Option<TypeDefaults>,
    VariableParsingMode,
    Diagnostics,
) {
    use VariableParsingMode::{Hcl, Literal};
    if is_native_quoted_string(expr) {
        let s = match const_value(expr) {
            Ok(ConstValue::String(s)) => s,
            Ok(_) => String::new(),
            Err(diags) => return (cty::Type::Dynamic, None, Hcl, diags),
        };
        let quoted = |detail: String| {
            vec![Diagnostic::error(
                "Invalid quoted type constraints",
                format!("{QUOTED_TYPE_PREFIX} {detail}"),
                expr.range.clone(),
            )]
        };
        return match s.as_str() {
            "string" => (
                cty::Type::Dynamic,
                None,
                Literal,
                quoted("Remove the quotes around \"string\".".into()),
            ),
            "list" | "map" => (
                cty::Type::Dynamic,
                None,
                Hcl,
                quoted(format!("Remove the quotes around \"{s}\" and write {s}(string) instead to explicitly indicate that the {s} elements are strings.")),
            ),
            _ => (
                cty::Type::Dynamic,
                None,
                Hcl,
                vec![Diagnostic::error(
                    "Invalid legacy variable type hint",
                    "To provide a full type expression, remove the surrounding quotes and give the type expression directly.",
                    expr.range.clone(),
                )],
            ),
        };
    }

    // Pre-0.12 shorthands: list and map of any consistent element type.
    match as_keyword(expr).as_deref() {
        Some("list") => return (cty::Type::list(cty::Type::Dynamic), None, Hcl, Vec::new()),
        Some("map") => return (cty::Type::map(cty::Type::Dynamic), None, Hcl, Vec::new()),
        _ => {}
    }

    let (ty, defaults, diags) = type_constraint_with_defaults(expr);
    if has_errors(&diags) {
        return (cty::Type::Dynamic, None, Hcl, diags);
    }
    let mode = if ty.is_primitive() { Literal } else { Hcl };
    (ty, defaults, mode, diags)
}

/// `decodeVariableValidationBlock`: a check rule whose condition must
/// refer to the variable itself.
fn decode_variable_validation_block(
    var_name: &str,
    block: &Block,
    override_file: bool,
) -> (CheckRule, Diagnostics) {
    let (rule, mut diags) = decode_check_rule_block(block, override_file);
    if let Some(cond) = &rule.condition {
        let good = cond
            .variables()
            .iter()
            .filter(|t| refers_to_variable(t, var_name))
            .count();
        if good < 1 {
            diags.push(Diagnostic::error(
                "Invalid variable validation condition",
                format!(
                    "The condition for variable {} must refer to var.{var_name} in order to test incoming values.",
                    hclsyntax::go_quote(var_name)
                ),
                cond.range.clone(),
            ));
        }
    }
    (rule, diags)
}

fn refers_to_variable(t: &Traversal, name: &str) -> bool {
    t.root == "var"
        && matches!(t.steps.first().map(|s| &s.kind), Some(StepKind::Attr(n)) if n == name)
}

/// An `output` block.
#[derive(Debug, Clone)]
pub struct Output {
    pub name: String,
    pub name_range: Range,
    pub description: String,
    /// The `value` expression (required outside override files).
    pub expr: Option<Expr>,
    pub depends_on: Vec<Traversal>,
    pub sensitive: bool,
    pub ephemeral: bool,
    /// The deprecation message; empty if not deprecated.
    pub deprecated: String,
    pub preconditions: Vec<CheckRule>,
    pub description_set: bool,
    pub sensitive_set: bool,
    pub ephemeral_set: bool,
    pub deprecated_set: bool,
    pub decl_range: Range,
}

impl Output {
    /// Applies an override file's block (`Output.merge`).
    pub fn merge(&mut self, over: &Output) -> Diagnostics {
        let mut diags = Diagnostics::new();
        if !over.description.is_empty() {
            self.description = over.description.clone();
        }
        if over.expr.is_some() {
            self.expr = over.expr.clone();
        }
        if over.sensitive_set {
            self.sensitive = over.sensitive;
            self.sensitive_set = true;
        }
        if over.ephemeral_set {
            self.ephemeral = over.ephemeral;
            self.ephemeral_set = true;
        }
        if over.deprecated_set {
            self.deprecated = over.deprecated.clone();
            self.deprecated_set = true;
        }
        if let Some(first) = over.depends_on.first() {
            diags.push(Diagnostic::error(
                "Unsupported override",
                "The depends_on argument may not be overridden.",
                first.range(),
            ));
        }
        diags
    }
}

fn output_schema(override_file: bool) -> BodySchema {
    let schema = BodySchema::new(
        &[
            "description",
            "value",
            "depends_on",
            "sensitive",
            "deprecated",
            "ephemeral",
        ],
        &[("precondition", &[]), ("postcondition", &[])],
    );
    if override_file {
        schema
    } else {
        schema.require(&["value"])
    }
}

/// Decodes an `output` block.
pub fn decode_output_block(block: &Block, override_file: bool) -> (Option<Output>, Diagnostics) {
    let Some(label) = block.labels.first() else {
        return (None, Vec::new());
    };
    let mut o = Output {
        name: label.value.clone(),
        name_range: label.range.clone(),
        description: String::new(),
        expr: None,
        depends_on: Vec::new(),
        sensitive: false,
        ephemeral: false,
        deprecated: String::new(),
        preconditions: Vec::new(),
        description_set: false,
        sensitive_set: false,
        ephemeral_set: false,
        deprecated_set: false,
        decl_range: block.def_range(),
    };
    let (content, mut diags) = block.body.content(&output_schema(override_file));

    if !hclsyntax::valid_identifier(&o.name) {
        diags.push(Diagnostic::error(
            "Invalid output name",
            BAD_IDENTIFIER_DETAIL,
            label.range.clone(),
        ));
    }
    if let Some(attr) = content.attribute("description") {
        if let Some(s) = decode_into(&attr.expr, decode_string, &mut diags) {
            o.description = s;
        }
        o.description_set = true;
    }
    if let Some(attr) = content.attribute("value") {
        o.expr = Some(attr.expr.clone());
    }
    if let Some(attr) = content.attribute("sensitive") {
        if let Some(b) = decode_into(&attr.expr, decode_bool, &mut diags) {
            o.sensitive = b;
        }
        o.sensitive_set = true;
    }
    if let Some(attr) = content.attribute("deprecated") {
        if let Some(s) = decode_into(&attr.expr, decode_string, &mut diags) {
            // OpenTofu checks for earlier errors of the whole block here.
            if !has_errors(&diags) && s.trim().is_empty() {
                diags.push(Diagnostic::error(
                    "Invalid `deprecated` attribute",
                    "The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.",
                    attr.expr.range.clone(),
                ));
            }
            o.deprecated = s;
        }
        o.deprecated_set = true;
    }
    if let Some(attr) = content.attribute("ephemeral") {
        if let Some(b) = decode_into(&attr.expr, decode_bool, &mut diags) {
            o.ephemeral = b;
        }
        o.ephemeral_set = true;
    }
    if let Some(attr) = content.attribute("depends_on") {
        let (deps, more) = decode_depends_on(attr);
        diags.extend(more);
        o.depends_on.extend(deps);
    }
    for b in &content.blocks {
        match b.type_name.as_str() {
            "precondition" => {
                let (rule, more) = decode_check_rule_block(b, override_file);
                diags.extend(more);
                o.preconditions.push(rule);
            }
            _ => diags.push(Diagnostic::error(
                "Postconditions are not allowed",
                "Output values can only have preconditions, not postconditions.",
                b.type_range.clone(),
            )),
        }
    }
    (Some(o), diags)
}

/// One entry of a `locals` block.
#[derive(Debug, Clone)]
pub struct Local {
    pub name: String,
    pub expr: Expr,
    /// The whole `name = expr` definition.
    pub decl_range: Range,
    pub name_range: Range,
}

impl Local {
    /// Applies an override: the definition is replaced, range included.
    pub fn merge(&mut self, over: &Local) -> Diagnostics {
        self.expr = over.expr.clone();
        self.decl_range = over.decl_range.clone();
        Vec::new()
    }
}

/// Decodes a `locals` block into its entries, in source order.
pub fn decode_locals_block(block: &Block) -> (Vec<Local>, Diagnostics) {
    let (attrs, mut diags) = block.body.just_attributes();
    let mut out = Vec::with_capacity(attrs.len());
    for attr in attrs {
        let attr: &Attribute = &attr;
        if !hclsyntax::valid_identifier(&attr.name) {
            diags.push(Diagnostic::error(
                "Invalid local value name",
                BAD_IDENTIFIER_DETAIL,
                attr.name_range.clone(),
            ));
        }
        out.push(Local {
            name: attr.name.clone(),
            expr: attr.expr.clone(),
            decl_range: attr.range.clone(),
            name_range: attr.name_range.clone(),
        });
    }
    (out, diags)
}

/// Test helpers shared by this crate's decoder tests.
#[cfg(test)]
pub(crate) mod testing {
    use std::sync::Arc;

    use hclsyntax::{Block, BodySchema, Diagnostic};

    /// Parses `src` as file `name` and returns its blocks of type `ty`
    /// (with `labels` label names). `None` while the native parser is not
    /// there yet, so that native-syntax tests skip instead of failing.
    pub fn blocks(
        name: &str,
        src: &str,
        ty: &'static str,
        labels: &'static [&'static str],
    ) -> Option<Vec<Arc<Block>>> {
        let (file, diags) = hclsyntax::parse_file(name, src.as_bytes());
        if diags
            .iter()
            .any(|d| d.summary == "Native syntax parser missing")
        {
            return None;
        }
        assert!(diags.is_empty(), "parse errors: {diags:?}");
        let (content, _, _) = file
            .body
            .partial_content(&BodySchema::new(&[], &[(ty, labels)]));
        Some(content.blocks)
    }

    /// Diagnostics as OpenTofu's tests print them.
    pub fn render(diags: &[Diagnostic]) -> Vec<String> {
        diags
            .iter()
            .map(|d| match &d.subject {
                Some(r) => format!("{r}: {}; {}", d.summary, d.detail),
                None => format!("{}; {}", d.summary, d.detail),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{blocks, render};
    use super::*;

    fn variables(
        name: &str,
        src: &str,
        override_file: bool,
    ) -> Option<(Vec<Variable>, Diagnostics)> {
        let bs = blocks(name, src, "variable", &["name"])?;
        let mut out = Vec::new();
        let mut diags = Vec::new();
        for b in bs {
            let (v, more) = decode_variable_block(&b, override_file);
            diags.extend(more);
            out.extend(v);
        }
        Some((out, diags))
    }

    #[test]
    fn variable_basics_json() {
        let src = r#"{"variable": {"foo": {"description": "d", "default": "x", "type": "string", "sensitive": true, "nullable": false}}}"#;
        let (vars, diags) = variables("v.tf.json", src, false).unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        let v = &vars[0];
        assert_eq!(v.name, "foo");
        assert_eq!(v.description, "d");
        assert!(v.sensitive && v.sensitive_set);
        assert!(!v.nullable && v.nullable_set);
        assert_eq!(v.ty, Some(cty::Type::String));
        assert_eq!(v.parsing_mode, Some(VariableParsingMode::Literal));
        assert!(v.default.is_some());
        assert!(!v.required());
    }

    #[test]
    fn variable_reserved_and_invalid_names_json() {
        let src = r#"{"variable": {"count": {}, "1bad": {}}}"#;
        let (_, diags) = variables("v.tf.json", src, false).unwrap();
        let summaries: Vec<_> = diags.iter().map(|d| d.detail.as_str()).collect();
        assert_eq!(
            summaries,
            vec![
                "The variable name \"count\" is reserved due to its special meaning inside module blocks.",
                BAD_IDENTIFIER_DETAIL,
            ]
        );
    }

    #[test]
    fn override_variable_leaves_unset() {
        let src = r#"{"variable": {"foo": {"default": "y"}}}"#;
        let (vars, diags) = variables("o.tf.json", src, true).unwrap();
        assert!(diags.is_empty());
        assert!(vars[0].ty.is_none());
        assert!(vars[0].parsing_mode.is_none());
    }

    #[test]
    fn variable_merge() {
        let base_src = "variable \"v\" {\n  default = \"base\"\n  description = \"base description\"\n  type = string\n}\n";
        let over_src = "variable \"v\" {\n  nullable = false\n  deprecated = \"b\"\n  ephemeral = true\n  const = false\n}\n";
        let Some((mut base, d1)) = variables("primary.tf", base_src, false) else {
            return;
        };
        let (over, d2) = variables("b_override.tf", over_src, true).unwrap();
        assert!(d1.is_empty() && d2.is_empty());
        let diags = base[0].merge(&over[0]);
        assert!(diags.is_empty());
        let v = &base[0];
        assert_eq!(v.description, "base description");
        assert_eq!(v.deprecated, "b");
        assert!(v.ephemeral && !v.nullable && v.const_set && !v.is_const);
        assert_eq!(v.ty, Some(cty::Type::String));
    }

    #[test]
    fn empty_deprecated_variable() {
        // testdata/variable-empty-deprecated/main.tf
        let src = "variable \"with_empty_deprecated\" {\n  type = string\n  description = \"variable that is having the deprecated field specified but is having no value\"\n  deprecated = \"\"\n}\n\nvariable \"with_deprecated_only_spaces\" {\n  type = string\n  description = \"variable that is having the deprecated field specified only with blank characters\"\n  deprecated = \"   \"\n}\n\nvariable \"without_deprecated\" {\n  type = string\n  description = \"no deprecated field defined so it should work fine\"\n}\n";
        let Some((_, diags)) = variables("main.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec![
                "main.tf:1,10-33: Invalid `deprecated` value; The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.",
                "main.tf:7,10-39: Invalid `deprecated` value; The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.",
            ]
        );
    }

    #[test]
    fn quoted_type_constraints() {
        let src = "variable \"a\" {\n  type = \"string\"\n}\nvariable \"b\" {\n  type = \"list\"\n}\nvariable \"c\" {\n  type = \"map\"\n}\nvariable \"d\" {\n  type = \"banana\"\n}\n";
        let Some((_, diags)) = variables("q.tf", src, false) else {
            return;
        };
        let got: Vec<_> = diags
            .iter()
            .map(|d| (d.summary.as_str(), d.subject.as_ref().unwrap().start.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Invalid quoted type constraints", 2),
                ("Invalid quoted type constraints", 5),
                ("Invalid quoted type constraints", 8),
                ("Invalid legacy variable type hint", 11),
            ]
        );
        assert!(diags[1].detail.ends_with("Remove the quotes around \"list\" and write list(string) instead to explicitly indicate that the list elements are strings."));
    }

    #[test]
    fn unknown_type_keyword() {
        let src = "variable \"bad_type\" {\n  type = notatype\n}\n";
        let Some((_, diags)) = variables("t.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec!["t.tf:2,10-18: Invalid type specification; The keyword \"notatype\" is not a valid type specification."]
        );
    }

    #[test]
    fn validation_must_refer_to_variable() {
        let src = "variable \"x\" {\n  validation {\n    condition = var.y == \"a\"\n    error_message = \"no\"\n  }\n}\n";
        let Some((vars, diags)) = variables("v.tf", src, false) else {
            return;
        };
        assert_eq!(vars[0].validations.len(), 1);
        assert_eq!(
            render(&diags),
            vec!["v.tf:3,17-29: Invalid variable validation condition; The condition for variable \"x\" must refer to var.x in order to test incoming values."]
        );
    }

    #[test]
    fn null_default_not_nullable() {
        let src = "variable \"x\" {\n  nullable = false\n  default = null\n}\n";
        let Some((_, diags)) = variables("v.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec!["v.tf:3,13-17: Invalid default value for variable; A null default value is not valid when nullable=false."]
        );
    }

    #[test]
    fn default_converted_with_type_defaults() {
        let src = "variable \"x\" {\n  type = object({ a = optional(string, \"d\"), b = number })\n  default = { b = \"1\" }\n}\n";
        let Some((vars, diags)) = variables("v.tf", src, false) else {
            return;
        };
        assert!(diags.is_empty(), "{diags:?}");
        let want = cty::Value::object_from([
            ("a", cty::Value::string("d")),
            ("b", cty::Value::number_int(1)),
        ]);
        assert_eq!(vars[0].default_value, Some(want));
    }

    #[test]
    fn default_incompatible_with_type() {
        let src = "variable \"x\" {\n  type = map(object({ field = bool }))\n  default = { \"k\" = { field = \"no\", extra = 1 } }\n}\n";
        let Some((vars, diags)) = variables("v.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec![
                "v.tf:3,13-50: Invalid default value for variable; This default value is not compatible with the variable's type constraint: [\"k\"].field: a bool is required.",
                "v.tf:3,37-42: Object attribute is ignored; The object type for input variable \"x\" nested value [\"k\"] does not include an attribute named \"extra\", so this definition is unused.",
            ]
        );
        assert!(!vars[0].default_value.as_ref().unwrap().is_known());
    }

    #[test]
    fn override_type_invalidates_default() {
        let base = "variable \"v\" {\n  type = list(string)\n  default = [\"a\"]\n}\n";
        let over = "variable \"v\" {\n  type = string\n}\n";
        let Some((mut b, _)) = variables("a.tf", base, false) else {
            return;
        };
        let (o, _) = variables("a_override.tf", over, true).unwrap();
        assert_eq!(
            render(&b[0].merge(&o[0])),
            vec!["a_override.tf:1,1-13: Invalid default value for variable; Overriding this variable's type constraint has made its default value invalid: string required."]
        );
    }

    fn outputs(name: &str, src: &str, override_file: bool) -> Option<(Vec<Output>, Diagnostics)> {
        let bs = blocks(name, src, "output", &["name"])?;
        let mut out = Vec::new();
        let mut diags = Vec::new();
        for b in bs {
            let (o, more) = decode_output_block(&b, override_file);
            diags.extend(more);
            out.extend(o);
        }
        Some((out, diags))
    }

    #[test]
    fn output_json() {
        let src = r#"{"output": {"o": {"value": "${var.x}", "sensitive": true, "depends_on": ["aws_instance.a"]}}}"#;
        let (outs, diags) = outputs("o.tf.json", src, false).unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        assert!(outs[0].sensitive && outs[0].expr.is_some());
        assert_eq!(outs[0].depends_on[0].display(), "aws_instance.a");
    }

    #[test]
    fn output_missing_value_only_outside_overrides() {
        let src = r#"{"output": {"o": {"description": "x"}}}"#;
        let (_, diags) = outputs("o.tf.json", src, false).unwrap();
        assert_eq!(diags[0].summary, "Missing required argument");
        let (_, diags) = outputs("o_override.tf.json", src, true).unwrap();
        assert!(diags.is_empty());
    }

    #[test]
    fn empty_deprecated_output() {
        let src = "output \"x\" {\n  value = 1\n  deprecated = \"\"\n}\n\noutput \"y\" {\n  value = 1\n  postcondition {\n    condition = true\n    error_message = \"x\"\n  }\n}\n";
        let Some((_, diags)) = outputs("o.tf", src, false) else {
            return;
        };
        assert_eq!(
            render(&diags),
            vec![
                "o.tf:3,16-18: Invalid `deprecated` attribute; The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.",
                "o.tf:8,3-16: Postconditions are not allowed; Output values can only have preconditions, not postconditions.",
            ]
        );
    }

    #[test]
    fn output_merge_rejects_depends_on() {
        let base = r#"{"output": {"o": {"value": "a"}}}"#;
        let over = r#"{"output": {"o": {"value": "b", "depends_on": ["x.y"]}}}"#;
        let (mut b, _) = outputs("a.tf.json", base, false).unwrap();
        let (o, _) = outputs("a_override.tf.json", over, true).unwrap();
        let diags = b[0].merge(&o[0]);
        assert_eq!(diags[0].summary, "Unsupported override");
    }

    #[test]
    fn locals_json() {
        let src = r#"{"locals": {"a": 1, "b c": 2}}"#;
        let bs = blocks("l.tf.json", src, "locals", &[]).unwrap();
        let (locals, diags) = decode_locals_block(&bs[0]);
        assert_eq!(locals.len(), 2);
        assert_eq!(locals[0].name, "a");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid local value name");
    }
}

/// Runs this crate's block decoders over the corpus's valid files (when the
/// corpus is present) and expects no errors from them.
#[cfg(test)]
mod corpus_tests {
    use hclsyntax::{BodySchema, Diagnostics};

    fn decode_all(name: &str, src: &str) -> Diagnostics {
        let (file, mut diags) = hclsyntax::parse_file(name, src.as_bytes());
        let schema = BodySchema::new(
            &[],
            &[
                ("terraform", &[]),
                ("language", &[]),
                ("provider", &["name"]),
                ("variable", &["name"]),
                ("locals", &[]),
                ("output", &["name"]),
                ("module", &["name"]),
            ],
        );
        let (content, _, _) = file.body.partial_content(&schema);
        for b in &content.blocks {
            match b.type_name.as_str() {
                "variable" => diags.extend(super::decode_variable_block(b, false).1),
                "output" => diags.extend(super::decode_output_block(b, false).1),
                "locals" => diags.extend(super::decode_locals_block(b).1),
                "provider" => diags.extend(crate::provider::decode_provider_block(b).1),
                "language" => diags.extend(crate::language::decode_language_block(b, false)),
                "module" => {
                    let (mc, more) = crate::module_call::decode_module_block(b, false);
                    diags.extend(more);
                    if let Some(mut mc) = mc {
                        let more = mc.decode_constant_static_fields();
                        // Sources and versions using variables need the
                        // static evaluator.
                        diags.extend(
                            more.into_iter()
                                .filter(|d| !d.summary.ends_with("not allowed")),
                        );
                    }
                }
                "terraform" => {
                    let (c, _, _) = b.body.partial_content(&BodySchema::new(
                        &[],
                        &[
                            ("required_providers", &[]),
                            ("backend", &["type"]),
                            ("encryption", &[]),
                            ("provider_meta", &["provider"]),
                        ],
                    ));
                    for inner in &c.blocks {
                        let more = match inner.type_name.as_str() {
                            "required_providers" => {
                                crate::required_providers::decode_required_providers_block(inner).1
                            }
                            "encryption" => crate::encryption::decode_encryption_block(inner).1,
                            "provider_meta" => crate::provider::decode_provider_meta_block(inner).1,
                            _ => Vec::new(),
                        };
                        diags.extend(more);
                    }
                }
                _ => {}
            }
        }
        let cur =
            crate::version_constraint::Version::parse(crate::language::TOFU_VERSION_CORE).unwrap();
        diags.extend(crate::language::check_version_requirements(
            &file.body, &cur,
        ));
        diags
    }

    #[test]
    fn valid_files_decode_without_errors() {
        let dir = std::path::Path::new(
            "/work/shared/corpus/opentofu/internal/configs/testdata/valid-files",
        );
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut failures = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let src = std::fs::read_to_string(e.path()).unwrap_or_default();
            let diags = decode_all(&name, &src);
            for d in diags.iter().filter(|d| d.is_error()) {
                failures.push(format!("{name}: {}: {}", d.summary, d.detail));
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// The `# ERROR: summary` / `# WARNING: summary` markers of a corpus
    /// file, against the diagnostics of this crate's decoders.
    fn check_markers(dir: &str, names: &[&str], marker: &str, severity: hclsyntax::Severity) {
        let base = std::path::Path::new("/work/shared/corpus/opentofu/internal/configs/testdata")
            .join(dir);
        if !base.exists() {
            return;
        }
        for name in names {
            let src = std::fs::read_to_string(base.join(name)).unwrap();
            let mut want: Vec<(usize, String)> = src
                .lines()
                .enumerate()
                .filter_map(|(i, l)| {
                    l.split_once(marker)
                        .map(|(_, s)| (i + 1, s.trim().to_string()))
                })
                .collect();
            let mut got: Vec<(usize, String)> = decode_all(name, &src)
                .into_iter()
                .filter(|d| d.severity == severity)
                .filter_map(|d| d.subject.map(|r| (r.start.line as usize, d.summary)))
                .collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn error_file_markers() {
        check_markers(
            "error-files",
            &[
                "invalid_language_edition.tf",
                "module-local-source-with-version.tf",
                "module-invalid-registry-source-with-module.tf",
                "unsupported_experiment.tf",
                "unsupported_language_edition.tf",
                "unsupported_version.tf",
                "unsupported_version_legacy.tofu",
                "variable_type_quoted.tf",
            ],
            "ERROR: ",
            hclsyntax::Severity::Error,
        );
        check_markers(
            "warning-files",
            &["ineffective-version-constraint.tf"],
            "WARNING: ",
            hclsyntax::Severity::Warning,
        );
    }

    #[test]
    fn invalid_files_give_errors() {
        let base = std::path::Path::new(
            "/work/shared/corpus/opentofu/internal/configs/testdata/invalid-files",
        );
        if !base.exists() {
            return;
        }
        let expect: &[(&str, &[&str])] = &[
            ("variable-type-unknown.tf", &["Invalid type specification"]),
            (
                "empty-deprecated-output-attr.tf",
                &["Invalid `deprecated` attribute"],
            ),
            ("variable-bad-sensitive.tf", &["Unsuitable value type"]),
            ("variable-validation-condition-noref.tf", &[]),
            ("provider-syntax.tf", &[]),
            (
                "provider-localname-normalization.tf",
                &["Invalid provider local name"],
            ),
        ];
        for (name, summaries) in expect {
            let src = std::fs::read_to_string(base.join(name)).unwrap();
            let diags = decode_all(name, &src);
            assert!(diags.iter().any(|d| d.is_error()), "{name}: no errors");
            for s in *summaries {
                assert!(
                    diags.iter().any(|d| d.summary == *s),
                    "{name}: {s} missing: {diags:#?}"
                );
            }
        }
    }
}
