//! The values of the root module's input variables, gathered as OpenTofu's
//! `collectVariableValues` (`internal/command/meta_vars.go`), parsed as
//! `ParseVariableValues` (`internal/backend/unparsed_value.go`) and
//! finalized as `prepareFinalInputVariableValue`
//! (`internal/tofu/eval_variable.go`).
//!
//! Precedence, lowest first: the declared defaults, `TF_VAR_name`
//! environment variables, `terraform.tfvars`, `terraform.tfvars.json`,
//! `*.auto.tfvars` and `*.auto.tfvars.json` in lexical order, then `-var`
//! and `-var-file` in command-line order.
//!
//! The values returned are unmarked: whoever serves `var.NAME` adds the
//! `sensitive` and `ephemeral` marks the declarations ask for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use configs::module::Module;
use configs::named_values::{Variable, VariableParsingMode};
use configs::type_expr::TypeDefaults;
use cty::convert::{convert, unify_unsafe};
use cty::{Type, Value};
use hclsyntax::{BlockHeaderSchema, BodySchema, Expr, Range, SourceFile};
use lang::{eval_expr, EvalContext};
use tfdiags::{Diagnostic, Diagnostics};

/// The file OpenTofu always reads variable values from, if present.
pub const DEFAULT_VARS_FILENAME: &str = "terraform.tfvars";

/// Where a variable's value came from (OpenTofu's `ValueSourceType`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueSource {
    /// The declaration's default (or nothing at all).
    Config,
    /// `TF_VAR_name`.
    EnvVar,
    /// `terraform.tfvars[.json]` or `*.auto.tfvars[.json]`.
    AutoFile,
    /// `-var-file=F`.
    NamedFile,
    /// `-var 'k=v'`.
    CliArg,
}

/// What the caller wants when a required variable has no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unset {
    /// `No value for required variable` (`-input=false`, no terminal).
    #[default]
    Error,
    /// An unknown value of the variable's type, as `console` and the other
    /// read-only commands do (`stubUnsetRequiredVariables`).
    Unknown,
}

/// The root variable values and what went into them.
#[derive(Debug, Clone, Default)]
pub struct RootVariables {
    /// Every declared variable's final value (converted to its type, the
    /// default where unset; an unknown where that failed), unmarked.
    pub values: BTreeMap<String, Value>,
    /// The variables given a value by the user (environment, files, flags)
    /// rather than by their default.
    pub set_by_user: BTreeSet<String>,
    /// Where each value given by the user came from.
    pub sources: BTreeMap<String, ValueSource>,
    /// The variable files read, for quoting in diagnostics.
    pub files: Vec<Arc<SourceFile>>,
}

/// A value as given, before it is parsed for its declaration.
#[derive(Debug, Clone)]
enum Raw {
    /// From the command line or the environment: parsed by the variable's
    /// parsing mode.
    Text(String),
    /// From a variables file: an expression with no variables or functions.
    Expr(Box<Expr>),
    /// A stub for a required variable with no value (`Unset::Unknown`).
    Unknown,
}

#[derive(Debug, Clone)]
struct Unparsed {
    raw: Raw,
    source: ValueSource,
    /// The file it came from, as named in messages.
    file: Option<String>,
}

/// Collects and finalizes the root variables of `module` from the process
/// environment, the files in `work_dir` and `args` — the `-var` and
/// `-var-file` flags in command-line order, as `("var", "k=v")` and
/// `("var-file", "F")` (other flag names are ignored).
pub fn collect(
    module: &Module,
    args: &[(&str, String)],
    work_dir: &Path,
    unset: Unset,
) -> (RootVariables, Diagnostics) {
    let env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    collect_with_env(module, args, work_dir, &env, unset)
}

/// [`collect`] with the environment given (for tests).
pub fn collect_with_env(
    module: &Module,
    args: &[(&str, String)],
    work_dir: &Path,
    env: &[(String, String)],
    unset: Unset,
) -> (RootVariables, Diagnostics) {
    let mut out = RootVariables::default();
    let (mut raw, mut diags) = gather(args, work_dir, env, &mut out.files);
    if diags.has_errors() {
        return (out, diags);
    }
    if unset == Unset::Unknown {
        for (name, v) in &module.variables {
            if v.required() && !raw.contains_key(name) {
                raw.insert(
                    name.clone(),
                    Unparsed {
                        raw: Raw::Unknown,
                        source: ValueSource::Config,
                        file: None,
                    },
                );
            }
        }
    }

    // ParseDeclaredVariableValues / ParseUndeclaredVariableValues.
    let mut given: BTreeMap<String, (Value, ValueSource, Option<Range>)> = BTreeMap::new();
    let mut undeclared_in_files = 0;
    let mut parse_failed = false;
    for (name, u) in &raw {
        let Some(decl) = module.variables.get(name) else {
            let (_, d) = parse_raw(name, u, VariableParsingMode::Literal, None);
            if d.has_errors() {
                continue;
            }
            match u.source {
                ValueSource::AutoFile | ValueSource::NamedFile => {
                    if undeclared_in_files < 2 {
                        diags.push(Diagnostic::warning_sourceless(
                            "Value for undeclared variable",
                            format!("The root module does not declare a variable named {} but a value was found in file {}. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.", go_quote(name), go_quote(u.file.as_deref().unwrap_or_default())),
                        ));
                    }
                    undeclared_in_files += 1;
                }
                ValueSource::EnvVar => {}
                ValueSource::CliArg => diags.push(Diagnostic::error_sourceless(
                    "Value for undeclared variable",
                    format!("A variable named {} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", go_quote(name)),
                )),
                ValueSource::Config => diags.push(Diagnostic::error_sourceless(
                    "Value for undeclared variable",
                    format!("A variable named {} was assigned a value, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", go_quote(name)),
                )),
            }
            continue;
        };
        let mode = decl.parsing_mode.unwrap_or(VariableParsingMode::Literal);
        let ty = decl.ty.clone().unwrap_or(Type::Dynamic);
        let (val, d) = parse_raw(name, u, mode, Some(&ty));
        let failed = d.has_errors();
        diags.append(d);
        if failed {
            parse_failed = true;
            continue;
        }
        let range = match &u.raw {
            Raw::Expr(e) => Some(e.range.clone()),
            _ => None,
        };
        if !matches!(u.raw, Raw::Unknown) {
            out.set_by_user.insert(name.clone());
            out.sources.insert(name.clone(), u.source.clone());
        }
        given.insert(name.clone(), (val, u.source.clone(), range));
    }
    if undeclared_in_files > 2 {
        diags.push(Diagnostic::warning_sourceless(
            "Values for undeclared variables",
            format!("In addition to the other similar warnings shown, {} other variable(s) defined without being declared.", undeclared_in_files - 2),
        ));
    }
    for (name, decl) in &module.variables {
        if given.contains_key(name) || raw.contains_key(name) || !decl.required() {
            continue;
        }
        diags.push(Diagnostic::error(
            "No value for required variable",
            format!("The root module input variable {} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", go_quote(name)),
            decl.decl_range.clone(),
        ));
    }
    if diags.has_errors() || parse_failed {
        for (name, decl) in &module.variables {
            out.values
                .insert(name.clone(), Value::unknown(decl_type(decl)));
        }
        return (out, diags);
    }

    for (name, decl) in &module.variables {
        let (val, d) = finalize(decl, given.remove(name));
        diags.append(d);
        out.values.insert(name.clone(), val);
    }
    (out, diags)
}

/// `Deprecated variable used from the root module` for every deprecated
/// root variable the user set (environment, files, flags, prompt): what
/// `plan` reports (`internal/tofu/context_plan.go`).
pub fn root_deprecation_warnings(module: &Module, vars: &RootVariables) -> Diagnostics {
    tofu::deprecation::root_variable_warnings(
        vars.set_by_user
            .iter()
            .filter_map(|name| module.variables.get(name).map(|v| &**v)),
    )
}

/// The variable's concrete type (`Dynamic` where none is known).
fn decl_type(decl: &Variable) -> Type {
    decl.ty.clone().unwrap_or(Type::Dynamic)
}

/// `collectVariableValues`: every value given, by name, the later
/// overriding the earlier.
fn gather(
    args: &[(&str, String)],
    work_dir: &Path,
    env: &[(String, String)],
    files: &mut Vec<Arc<SourceFile>>,
) -> (BTreeMap<String, Unparsed>, Diagnostics) {
    let mut ret = BTreeMap::new();
    let mut diags = Diagnostics::new();
    for (k, v) in env {
        let Some(name) = k.strip_prefix("TF_VAR_") else {
            continue;
        };
        ret.insert(
            name.to_string(),
            Unparsed {
                raw: Raw::Text(v.clone()),
                source: ValueSource::EnvVar,
                file: None,
            },
        );
    }

    let mut auto_files = Vec::new();
    for name in [DEFAULT_VARS_FILENAME, "terraform.tfvars.json"] {
        if work_dir.join(name).exists() {
            auto_files.push(name.to_string());
        }
    }
    if let Ok(entries) = std::fs::read_dir(work_dir) {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| is_auto_var_file(n))
            .collect();
        names.sort();
        auto_files.extend(names);
    }
    for name in auto_files {
        diags.append(add_vars_from_file(
            &work_dir.join(&name),
            &name,
            ValueSource::AutoFile,
            &mut ret,
            files,
        ));
    }

    for (flag, value) in args {
        match *flag {
            "var" => {
                let Some((name, raw_val)) = value.split_once('=') else {
                    diags.push(Diagnostic::error_sourceless(
                        "Invalid -var option",
                        format!("The given -var option {} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", go_quote(value)),
                    ));
                    continue;
                };
                if name.ends_with(' ') {
                    diags.push(Diagnostic::error_sourceless(
                        "Invalid -var option",
                        format!(
                            "Variable name {} is invalid due to trailing space. Did you mean -var=\"{}={}\"?",
                            go_quote(name),
                            name.trim_end_matches(' '),
                            raw_val.strip_prefix(' ').unwrap_or(raw_val)
                        ),
                    ));
                    continue;
                }
                ret.insert(
                    name.to_string(),
                    Unparsed {
                        raw: Raw::Text(raw_val.to_string()),
                        source: ValueSource::CliArg,
                        file: None,
                    },
                );
            }
            "var-file" => {
                let path = work_dir.join(value);
                diags.append(add_vars_from_file(
                    &path,
                    value,
                    ValueSource::NamedFile,
                    &mut ret,
                    files,
                ));
            }
            _ => {}
        }
    }
    (ret, diags)
}

/// `*.auto.tfvars` and `*.auto.tfvars.json`.
pub fn is_auto_var_file(name: &str) -> bool {
    name.ends_with(".auto.tfvars") || name.ends_with(".auto.tfvars.json")
}

/// `addVarsFromFile`: the attributes of one variables file.
fn add_vars_from_file(
    path: &Path,
    shown: &str,
    source: ValueSource,
    to: &mut BTreeMap<String, Unparsed>,
    files: &mut Vec<Arc<SourceFile>>,
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            diags.push(Diagnostic::error_sourceless(
                "Failed to read variables file",
                format!("Given variables file {shown} does not exist."),
            ));
            return diags;
        }
        Err(e) => {
            diags.push(Diagnostic::error_sourceless(
                "Failed to read variables file",
                format!(
                    "Error while reading {shown}: {}.",
                    crate::cli::io_error_text(&e)
                ),
            ));
            return diags;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let ext_tfvars = shown.ends_with(".tfvars");
    let detect_json =
        !shown.ends_with(".json") && !ext_tfvars && text.trim_start().starts_with('{');
    let (file, parse_diags) = if detect_json {
        // parse_file picks the JSON syntax by the name; keep the name given.
        let source = Arc::new(SourceFile::new(shown, text.as_ref()));
        let (body, d) = hclsyntax::json::parse(&source);
        (hclsyntax::File { source, body }, d)
    } else {
        hclsyntax::parse_file(shown, &bytes)
    };
    files.push(file.source.clone());
    diags.append(parse_diags);
    if diags.has_errors() {
        return diags;
    }

    // A `variable` block here is a common mistake; say so plainly.
    let probe = BodySchema {
        attributes: Vec::new(),
        blocks: vec![BlockHeaderSchema {
            type_name: "variable".into(),
            label_names: &["name"],
        }],
    };
    let (content, _, _) = file.body.partial_content(&probe);
    for block in content.blocks_of("variable") {
        let name = block
            .labels
            .first()
            .map(|l| l.value.as_str())
            .unwrap_or_default();
        diags.push(Diagnostic::error(
            "Variable declaration in .tfvars file",
            format!("A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable {}, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in {}, use the definition syntax instead:\n    {} = <value>", go_quote(name), block.type_range.filename, name),
            block.type_range.clone(),
        ));
    }
    if diags.has_errors() {
        return diags;
    }

    let (attrs, d) = file.body.just_attributes();
    diags.append(d);
    for attr in attrs {
        to.insert(
            attr.name.clone(),
            Unparsed {
                raw: Raw::Expr(Box::new(attr.expr.clone())),
                source: source.clone(),
                file: Some(shown.to_string()),
            },
        );
    }
    diags
}

/// `ParseVariableValue`: text by the parsing mode (a string as is, or an
/// HCL expression evaluated with no variables or functions); file
/// expressions evaluated with no variables or functions.
fn parse_raw(
    name: &str,
    u: &Unparsed,
    mode: VariableParsingMode,
    ty: Option<&Type>,
) -> (Value, Diagnostics) {
    match &u.raw {
        Raw::Unknown => (
            Value::unknown(ty.cloned().unwrap_or(Type::Dynamic)),
            Diagnostics::new(),
        ),
        Raw::Expr(e) => eval_const(e),
        Raw::Text(s) => match mode {
            VariableParsingMode::Literal => (Value::string(s), Diagnostics::new()),
            VariableParsingMode::Hcl => {
                let filename = format!("<value for var.{name}>");
                let (expr, d) =
                    hclsyntax::native::parse_expression(s, &filename, hclsyntax::Pos::START);
                if hclsyntax::has_errors(&d) {
                    return (Value::dynamic(), d.into());
                }
                let (v, more) = eval_const(&expr);
                let mut all: Diagnostics = d.into();
                all.append(more.into_vec());
                (v, all)
            }
        },
    }
}

/// An expression's value with no variables or functions (`expr.Value(nil)`).
fn eval_const(e: &Expr) -> (Value, Diagnostics) {
    let (v, d) = eval_expr(e, &EvalContext::empty());
    (v, d.into())
}

/// Where a value not from a file came from, as the messages say it.
fn non_file_source(name: &str, source: &ValueSource) -> String {
    match source {
        ValueSource::CliArg => format!("set using -var=\"{name}=...\""),
        ValueSource::EnvVar => format!("set using the TF_VAR_{name} environment variable"),
        _ => "set from outside of the configuration".into(),
    }
}

/// `hcl.Range.String()`: `file:line,col-col` or `file:line,col-line,col`.
fn range_string(r: &Range) -> String {
    if r.start.line == r.end.line {
        format!(
            "{}:{},{}-{}",
            r.filename, r.start.line, r.start.column, r.end.column
        )
    } else {
        format!(
            "{}:{},{}-{},{}",
            r.filename, r.start.line, r.start.column, r.end.line, r.end.column
        )
    }
}

/// The declaration's default, with type defaults applied and converted to
/// the type constraint (`None`: no default).
pub fn default_value(decl: &Variable) -> (Option<Value>, Diagnostics) {
    let Some(expr) = &decl.default else {
        return (None, Diagnostics::new());
    };
    let (mut val, mut diags) = eval_const(expr);
    if diags.has_errors() {
        return (Some(Value::dynamic()), diags);
    }
    let Some(ct) = &decl.constraint_type else {
        return (Some(val), diags);
    };
    if let Some(td) = &decl.type_defaults {
        if !val.is_null() {
            val = apply_type_defaults(td, &val);
        }
    }
    match convert(&val, ct) {
        Ok(v) => (Some(v), diags),
        Err(e) => {
            diags.push(Diagnostic::error(
                "Invalid default value for variable",
                format!(
                    "This default value is not compatible with the variable's type constraint: {}.",
                    e.with_path()
                ),
                expr.range.clone(),
            ));
            (Some(Value::dynamic()), diags)
        }
    }
}

/// `prepareFinalInputVariableValue` for a root variable: the given value
/// (or the default) with type defaults applied, converted, and null
/// replaced by the default for non-nullable variables.
fn finalize(
    decl: &Variable,
    given: Option<(Value, ValueSource, Option<Range>)>,
) -> (Value, Diagnostics) {
    let name = &decl.name;
    let addr = format!("var.{name}");
    let ty = decl_type(decl);
    let convert_ty = decl.constraint_type.clone().unwrap_or(Type::Dynamic);
    let (default, mut diags) = default_value(decl);
    if diags.has_errors() {
        return (Value::unknown(ty), diags);
    }
    let (given, source, range) = match given {
        Some(g) => g,
        None => match &default {
            Some(d) => (d.clone(), ValueSource::Config, None),
            None => {
                diags.push(Diagnostic::error(
                    "Required variable not set",
                    format!(
                        "The variable {} is required, but is not set.",
                        go_quote(name)
                    ),
                    decl.decl_range.clone(),
                ));
                return (Value::unknown(ty), diags);
            }
        },
    };
    let non_file = match &range {
        Some(_) => None,
        None => Some(non_file_source(name, &source)),
    };
    let mut given = given;
    if let Some(td) = &decl.type_defaults {
        if !given.is_null() {
            given = apply_type_defaults(td, &given);
        }
    }
    let val = match convert(&given, &convert_ty) {
        Ok(v) => v,
        Err(e) => {
            let err = e.with_path();
            let d = match (&non_file, &range) {
                (Some(nf), _) => Diagnostic::error(
                    "Invalid value for input variable",
                    format!("Unsuitable value for {addr} {nf}: {err}."),
                    decl.decl_range.clone(),
                ),
                (None, _) if decl.sensitive => Diagnostic::error_sourceless(
                    "Invalid value for input variable",
                    format!("The value for {addr} is not compatible with the variable's type constraint: {err}."),
                ),
                (None, Some(r)) => Diagnostic::error(
                    "Invalid value for input variable",
                    format!(
                        "The given value is not suitable for {addr} declared at {}: {err}.",
                        range_string(&decl.decl_range)
                    ),
                    r.clone(),
                ),
                (None, None) => unreachable!("a value without a source range has a non-file source"),
            };
            diags.push(d);
            return (Value::unknown(ty), diags);
        }
    };
    if val.is_null() && !decl.nullable {
        if let Some(d) = default {
            return (d, diags);
        }
        let d = match (&non_file, &range) {
            (Some(nf), _) => Diagnostic::error(
                "Required variable not set",
                format!("Unsuitable value for {addr} {nf}: required variable may not be set to null."),
                decl.decl_range.clone(),
            ),
            (None, r) => Diagnostic::error(
                "Required variable not set",
                format!(
                    "The given value is not suitable for {addr} defined at {}: required variable may not be set to null.",
                    range_string(&decl.decl_range)
                ),
                r.clone().unwrap_or_else(|| decl.decl_range.clone()),
            ),
        };
        diags.push(d);
        return (Value::unknown(ty), diags);
    }
    (val, diags)
}

/// HCL typeexpr's `Defaults.Apply`: fills null or missing optional object
/// attributes with their `optional(T, default)` defaults, recursively.
/// Null and unknown values are left alone.
//
// (cty is gaining `convert::Defaults` with the same walk over values; once
// configs' `TypeDefaults` converts to it, this can call that instead.)
pub fn apply_type_defaults(d: &TypeDefaults, v: &Value) -> Value {
    if !v.is_known() || v.is_null() {
        return v.clone();
    }
    if d.default_values.is_empty() && d.children.is_empty() {
        return v.clone();
    }
    let (inner, marks) = v.unmark_with_marks();
    let vty = inner.ty().clone();
    let child = |key: &str| -> Option<&TypeDefaults> {
        match &d.ty {
            Type::Map(_) | Type::List(_) | Type::Set(_) => d.children.get(""),
            _ => d.children.get(key),
        }
    };
    let out = match &vty {
        Type::List(ety) | Type::Set(ety) if inner.as_elements().is_none_or(|e| e.is_empty()) => {
            if vty.is_set() {
                Value::set_empty((**ety).clone())
            } else {
                Value::list_empty((**ety).clone())
            }
        }
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            let values: Vec<Value> = inner
                .as_elements()
                .unwrap_or_default()
                .iter()
                .enumerate()
                .map(|(i, e)| match child(&i.to_string()) {
                    Some(c) => apply_type_defaults(c, e),
                    None => e.clone(),
                })
                .collect();
            let collection = if vty.is_tuple() {
                None
            } else {
                unify_values(&values).and_then(|(ety, vs)| {
                    if vty.is_set() {
                        Value::set(ety, vs).ok()
                    } else {
                        Value::list(ety, vs).ok()
                    }
                })
            };
            collection.unwrap_or_else(|| Value::tuple(values))
        }
        Type::Object(_) | Type::Map(_) => {
            let mut values: BTreeMap<String, Value> = inner
                .as_attrs()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|(k, e)| {
                    let e = match child(&k) {
                        Some(c) => apply_type_defaults(c, &e),
                        None => e,
                    };
                    (k, e)
                })
                .collect();
            for (key, expr) in &d.default_values {
                if values.get(key).is_some_and(|x| !x.is_null()) {
                    continue;
                }
                let (dv, _) = eval_const(expr);
                let dv = match d.ty.attribute_type(key) {
                    Some(aty) => convert(&dv, aty).unwrap_or(dv),
                    None => dv,
                };
                let dv = match d.children.get(key) {
                    Some(c) => apply_type_defaults(c, &dv),
                    None => dv,
                };
                values.insert(key.clone(), dv);
            }
            let map = match &vty {
                Type::Map(ety) if values.is_empty() => Some(Value::map_empty((**ety).clone())),
                Type::Map(_) => {
                    let keys: Vec<String> = values.keys().cloned().collect();
                    let vals: Vec<Value> = values.values().cloned().collect();
                    unify_values(&vals).and_then(|(ety, vs)| {
                        Value::map(ety, keys.into_iter().zip(vs).collect()).ok()
                    })
                }
                _ => None,
            };
            map.unwrap_or_else(|| Value::object(values))
        }
        _ => inner.clone(),
    };
    out.with_marks(marks)
}

/// `unifyAsSlice`: the values converted to one type, if they have one.
fn unify_values(values: &[Value]) -> Option<(Type, Vec<Value>)> {
    let types: Vec<Type> = values.iter().map(|v| v.ty().clone()).collect();
    let ty = unify_unsafe(&types)?;
    let vs = values
        .iter()
        .map(|v| convert(v, &ty).ok())
        .collect::<Option<Vec<_>>>()?;
    Some((ty, vs))
}

use hclsyntax::go_quote;

#[cfg(test)]
#[path = "variables_tests.rs"]
mod tests;
