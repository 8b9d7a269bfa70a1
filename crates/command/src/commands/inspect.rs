//! `tofu-rs inspect [-json] [PATH]`: one module (a directory or a single
//! file) without its children, in terraform-config-inspect's shapes (its
//! JSON document, or its Markdown summary) plus the diagnostics found.

use configs::resource::ResourceMode;
use std::path::Path;

use configs::module::{load_module_dir, Module};
use configs::parser::load_file;
use configs::static_eval::{RootVariables, StaticEvaluator, StaticModuleCall};
use hclsyntax::{Expr, ExprKind, JsonValue, Literal, Range};
use serde_json::{json, Map, Value};
use tfdiags::{Diagnostics, SourceMap};

use crate::flags::options;
use crate::view::Streams;

options! {
    /// `tofu-rs inspect`'s flags.
    pub struct InspectOptions {
        /// `-json`: terraform-config-inspect's JSON document.
        json: bool => ["json"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
    }
}

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let opts = match InspectOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let path = opts.args.first().map(String::as_str).unwrap_or(".");
    let (module, hcl_diags) = load_path(Path::new(path));
    let diags: Diagnostics = hcl_diags.into();
    let mut sources = SourceMap::new();
    if let Some(m) = &module {
        for s in &m.sources {
            sources.insert(s.clone());
        }
    }
    let doc = document(path, module.as_ref(), &diags, &sources);
    if opts.json {
        streams.print(&tfdiags::to_go_json_pretty(&doc));
        streams.print("\n");
    } else {
        streams.print(&markdown(path, module.as_ref()));
        let view = crate::view::View::new(opts.no_color);
        view.diagnostics(streams, &diags, &sources);
    }
    if diags.has_errors() {
        1
    } else {
        0
    }
}

/// Loads a directory as a module, or one file as a module of its own.
fn load_path(path: &Path) -> (Option<Module>, hclsyntax::Diagnostics) {
    if path.is_file() {
        let name = path.to_string_lossy().into_owned();
        let stem = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let is_override = matches!(
            configs::file_names::file_role(&stem),
            Some(configs::file_names::FileRole::Override)
        );
        let loaded = load_file(path, &name, is_override);
        // One file is checked as OpenTofu's LoadConfigFile checks it: the
        // file's own diagnostics and its module calls' static fields, but
        // none of the checks between a module's declarations (duplicates).
        let mut diags = loaded.diagnostics.clone();
        let (primary, overrides) = if is_override {
            (Vec::new(), vec![loaded])
        } else {
            (vec![loaded], Vec::new())
        };
        let (mut module, _) = Module::from_files(primary, overrides);
        // Sources and versions that are not constants are evaluated
        // statically in the file's own scope (its locals, and its
        // variables' defaults) as a root module called with no values.
        let call = StaticModuleCall::root(RootVariables::new(Default::default()), ".", "default");
        let eval = StaticEvaluator::new(&module, call);
        let mut calls = std::mem::take(&mut module.module_calls);
        for call in calls.values_mut() {
            if call.has_constant_static_fields() {
                diags.extend(call.clone().decode_constant_static_fields());
            } else {
                diags.extend(call.decode_static_fields(&eval));
            }
        }
        module.module_calls = calls;
        (Some(module), diags)
    } else {
        load_module_dir(path)
    }
}

fn pos(range: &Range) -> Value {
    json!({ "filename": &*range.filename, "line": range.start.line })
}

/// The source text a range covers, if its file is known.
fn source_text(range: &Range, sources: &SourceMap) -> Option<String> {
    let file = sources.get(&range.filename)?;
    file.text()
        .get(range.start.offset()..range.end.offset())
        .map(str::to_string)
}

/// A variable's default as JSON: its value converted to the type
/// constraint, or the expression as written when that conversion failed
/// (the value is then unknown).
fn default_json(v: &configs::named_values::Variable) -> Value {
    v.default_value
        .as_ref()
        .and_then(|val| cty::json::marshal(val).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .or_else(|| v.default.as_ref().map(const_json))
        .unwrap_or(Value::Null)
}

/// A constant expression as JSON (what a variable's default holds), or
/// null when it is not a constant.
fn const_json(expr: &Expr) -> Value {
    match &expr.kind {
        ExprKind::Literal(Literal::Null) => Value::Null,
        ExprKind::Literal(Literal::Bool(b)) => Value::Bool(*b),
        ExprKind::Literal(Literal::Number(n)) => number_json(n),
        ExprKind::Literal(Literal::String(s)) => Value::String(s.clone()),
        ExprKind::Parens(inner) | ExprKind::TemplateWrap(inner) => const_json(inner),
        ExprKind::Unary {
            op: hclsyntax::UnaryOp::Negate,
            operand,
        } => match const_json(operand) {
            Value::Number(n) => n
                .as_f64()
                .and_then(|f| serde_json::Number::from_f64(-f))
                .map(Value::Number)
                .unwrap_or(Value::Null),
            _ => Value::Null,
        },
        ExprKind::Template(parts) => {
            let mut s = String::new();
            for p in parts {
                match const_json(p) {
                    Value::String(t) => s.push_str(&t),
                    _ => return Value::Null,
                }
            }
            Value::String(s)
        }
        ExprKind::Tuple(items) => Value::Array(items.iter().map(const_json).collect()),
        ExprKind::Object(items) => {
            let mut map = Map::new();
            for item in items {
                let key = match item.key.as_bare_name() {
                    Some(k) => k.to_string(),
                    None => match const_json(&item.key.expr) {
                        Value::String(s) => s,
                        _ => return Value::Null,
                    },
                };
                map.insert(key, const_json(&item.value));
            }
            Value::Object(map)
        }
        ExprKind::Json(node) => json_node(&node.value),
        _ => Value::Null,
    }
}

fn json_node(v: &JsonValue) -> Value {
    match v {
        JsonValue::Null => Value::Null,
        JsonValue::Bool(b) => Value::Bool(*b),
        JsonValue::Number(n) => number_json(n),
        JsonValue::String(s) => Value::String(s.clone()),
        JsonValue::Array(items) => {
            Value::Array(items.iter().map(|n| json_node(&n.value)).collect())
        }
        JsonValue::Object(props) => Value::Object(
            props
                .iter()
                .map(|p| (p.name.clone(), json_node(&p.value.value)))
                .collect(),
        ),
    }
}

fn number_json(text: &str) -> Value {
    serde_json::from_str::<serde_json::Number>(text)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

/// terraform-config-inspect's module document plus `diagnostics`.
fn document(
    path: &str,
    module: Option<&Module>,
    diags: &Diagnostics,
    sources: &SourceMap,
) -> Value {
    let mut doc = Map::new();
    doc.insert("path".into(), json!(path));
    let mut variables = Map::new();
    let mut outputs = Map::new();
    let mut required_core = Vec::new();
    let mut required_providers = Map::new();
    let mut managed = Map::new();
    let mut data = Map::new();
    let mut calls = Map::new();
    if let Some(m) = module {
        for (name, v) in &m.variables {
            let mut o = Map::new();
            o.insert("name".into(), json!(name));
            if let Some(ty) = &v.ty {
                o.insert("type".into(), json!(ty.type_expr_string()));
            }
            if !v.description.is_empty() {
                o.insert("description".into(), json!(v.description));
            }
            o.insert("default".into(), default_json(v));
            o.insert("required".into(), json!(v.default.is_none()));
            if v.sensitive {
                o.insert("sensitive".into(), json!(true));
            }
            o.insert("pos".into(), pos(&v.decl_range));
            variables.insert(name.clone(), Value::Object(o));
        }
        for (name, out) in &m.outputs {
            let mut o = Map::new();
            o.insert("name".into(), json!(name));
            if !out.description.is_empty() {
                o.insert("description".into(), json!(out.description));
            }
            if out.sensitive {
                o.insert("sensitive".into(), json!(true));
            }
            o.insert("pos".into(), pos(&out.decl_range));
            outputs.insert(name.clone(), Value::Object(o));
        }
        for c in &m.core_version_constraints {
            required_core.push(json!(c.required.to_string()));
        }
        if let Some(reqs) = &m.provider_requirements {
            for (name, r) in &reqs.required_providers {
                let mut o = Map::new();
                if let Some(src) = &r.source {
                    o.insert("source".into(), json!(src));
                }
                let constraint = r.requirement.required.to_string();
                if !constraint.is_empty() {
                    o.insert("version_constraints".into(), json!([constraint]));
                }
                required_providers.insert(name.clone(), Value::Object(o));
            }
        }
        for (mode, out) in [
            (ResourceMode::Managed, &mut managed),
            (ResourceMode::Data, &mut data),
        ] {
            for r in m.resources_of(mode) {
                let provider = match &r.provider_config_ref {
                    Some(p) if !p.alias.is_empty() => json!({ "name": p.name, "alias": p.alias }),
                    Some(p) => json!({ "name": p.name }),
                    None => json!({ "name": r.implied_provider() }),
                };
                out.insert(
                    r.addr().to_string(),
                    json!({
                        "mode": if r.mode == ResourceMode::Data { "data" } else { "managed" },
                        "type": r.type_name,
                        "name": r.name,
                        "provider": provider,
                        "pos": pos(&r.decl_range),
                    }),
                );
            }
        }
        for (name, call) in &m.module_calls {
            // As written, as terraform-config-inspect reports it: a
            // constant string's value even when it is no valid source
            // address; an expression's text otherwise.
            let source = call
                .source_addr_raw
                .clone()
                .or_else(|| {
                    let expr = call.source.as_ref()?;
                    configs::decode_value::decode_string(expr)
                        .ok()
                        .or_else(|| source_text(&expr.range, sources))
                })
                .unwrap_or_default();
            let mut o = Map::new();
            o.insert("name".into(), json!(name));
            o.insert("source".into(), json!(source));
            // `omitempty`: a null version is no version.
            if let Some(v) = call.version.as_ref().filter(|v| !v.required.is_empty()) {
                o.insert("version".into(), json!(v.required.to_string()));
            }
            o.insert("pos".into(), pos(&call.decl_range));
            calls.insert(name.clone(), Value::Object(o));
        }
    }
    doc.insert("variables".into(), Value::Object(variables));
    doc.insert("outputs".into(), Value::Object(outputs));
    if !required_core.is_empty() {
        doc.insert("required_core".into(), Value::Array(required_core));
    }
    doc.insert(
        "required_providers".into(),
        Value::Object(required_providers),
    );
    doc.insert("managed_resources".into(), Value::Object(managed));
    doc.insert("data_resources".into(), Value::Object(data));
    doc.insert("module_calls".into(), Value::Object(calls));
    doc.insert(
        "diagnostics".into(),
        Value::Array(
            diags
                .iter()
                .map(|d| tfdiags::diagnostic_json(d, sources))
                .collect(),
        ),
    );
    Value::Object(doc)
}

/// terraform-config-inspect's Markdown summary.
fn markdown(path: &str, module: Option<&Module>) -> String {
    let mut s = format!("\n# Module `{path}`\n\n");
    let Some(m) = module else {
        return s;
    };
    if !m.core_version_constraints.is_empty() {
        s.push_str("Core Version Constraints:\n");
        for c in &m.core_version_constraints {
            s.push_str(&format!("* `{}`\n", c.required));
        }
        s.push('\n');
    }
    if let Some(reqs) = m
        .provider_requirements
        .as_ref()
        .filter(|r| !r.required_providers.is_empty())
    {
        s.push_str("Provider Requirements:\n");
        for (name, r) in &reqs.required_providers {
            let source = r
                .source
                .as_deref()
                .map(|x| format!(" (`{x}`)"))
                .unwrap_or_default();
            let version = r.requirement.required.to_string();
            let version = if version.is_empty() {
                "(any version)".to_string()
            } else {
                format!("`{version}`")
            };
            s.push_str(&format!("* **{name}{source}:** {version}\n"));
        }
        s.push('\n');
    }
    if !m.variables.is_empty() {
        s.push_str("## Input Variables\n");
        for (name, v) in &m.variables {
            let default = match &v.default {
                None => " (required)".to_string(),
                Some(d) => format!(" (default `{}`)", const_json(d)),
            };
            let desc = if v.description.is_empty() {
                String::new()
            } else {
                format!(": {}", v.description)
            };
            s.push_str(&format!("* `{name}`{default}{desc}\n"));
        }
        s.push('\n');
    }
    if !m.outputs.is_empty() {
        s.push_str("## Output Values\n");
        for (name, o) in &m.outputs {
            let desc = if o.description.is_empty() {
                String::new()
            } else {
                format!(": {}", o.description)
            };
            s.push_str(&format!("* `{name}`{desc}\n"));
        }
        s.push('\n');
    }
    for (title, mode) in [
        ("Managed Resources", ResourceMode::Managed),
        ("Data Resources", ResourceMode::Data),
    ] {
        if m.resources_of(mode).next().is_none() {
            continue;
        }
        s.push_str(&format!("## {title}\n"));
        for r in m.resources_of(mode) {
            let provider = r
                .provider_config_ref
                .as_ref()
                .map(|p| p.name.clone())
                .unwrap_or_else(|| r.implied_provider().to_string());
            s.push_str(&format!("* `{}` from `{provider}`\n", r.addr()));
        }
        s.push('\n');
    }
    if !m.module_calls.is_empty() {
        s.push_str("## Child Modules\n");
        for (name, call) in &m.module_calls {
            let source = call.source_addr_raw.clone().unwrap_or_default();
            let version = call
                .version
                .as_ref()
                .map(|v| format!(" (`{}`)", v.required))
                .unwrap_or_default();
            s.push_str(&format!("* `{name}` from `{source}`{version}\n"));
        }
        s.push('\n');
    }
    s
}
