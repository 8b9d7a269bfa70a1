//! The root module as a source of values for expressions ([`lang::Data`]):
//! what `tofu console` evaluates in. Input variables come from
//! [`crate::variables`], local values are evaluated when first asked for
//! (each in this same scope, with cycle detection), `path.*` and
//! `terraform.workspace` are known, and resources, data resources and
//! module outputs — which need providers or a plan — are unknown.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use addrs::{
    CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, PathAttr, Reference,
    Referenceable, Resource, ResourceMode, TerraformAttr,
};
use configs::module::Module;
use cty::{Mark, Type, Value};
use hclsyntax::{Diagnostic, Diagnostics, Range};
use lang::{Data, FunctionTable, Scope};

/// The function table of a root module scope: the builtins, `templatestring`
/// and, for the console, the console-only `type`.
pub fn function_table(console: bool) -> Arc<FunctionTable> {
    let cell: Arc<OnceLock<Arc<FunctionTable>>> = Arc::new(OnceLock::new());
    let mut table = lang::functions::builtin_functions();
    if console {
        lang::funcs::typeconv::register_console(&mut table);
    }
    let for_templates = cell.clone();
    table.insert(
        "templatestring",
        lang::funcs::string::templatestring_function(move || for_templates.get().cloned()),
    );
    let table = Arc::new(table);
    // The cell is new: nothing can have set it yet.
    let _ = cell.set(table.clone());
    table
}

enum LocalState {
    /// Being evaluated: asking for it again is a cycle.
    Evaluating,
    Done(Value),
}

/// The root module's values.
pub struct RootData<'m> {
    module: &'m Module,
    variables: BTreeMap<String, Value>,
    functions: Arc<FunctionTable>,
    locals: RefCell<BTreeMap<String, LocalState>>,
    cwd: PathBuf,
    workspace: String,
}

impl<'m> RootData<'m> {
    /// `variables` are the final (unmarked) root variable values.
    pub fn new(
        module: &'m Module,
        variables: BTreeMap<String, Value>,
        functions: Arc<FunctionTable>,
    ) -> RootData<'m> {
        RootData {
            module,
            variables,
            functions,
            locals: RefCell::new(BTreeMap::new()),
            cwd: std::env::current_dir().unwrap_or_default(),
            workspace: std::env::var("TF_WORKSPACE")
                .ok()
                .filter(|w| !w.is_empty())
                .unwrap_or_else(|| "default".into()),
        }
    }

    /// A scope over this data with its functions.
    pub fn scope(&self) -> Scope<'_> {
        Scope::new(self, self.functions.clone())
    }

    /// Evaluates every local value (as OpenTofu's eval walk does before
    /// the console starts), returning the problems found.
    pub fn evaluate_all_locals(&self) -> Diagnostics {
        let mut diags = Diagnostics::new();
        for (name, local) in &self.module.locals {
            let (_, d) =
                self.get_local_value(&LocalValue { name: name.clone() }, &local.name_range);
            diags.extend(d);
        }
        diags
    }
}

/// `nameSuggestion`: the most similar name, if similar enough.
fn suggestion<'a>(given: &str, names: impl Iterator<Item = &'a str>) -> String {
    match hclsyntax::body::name_suggestion(given, names) {
        Some(s) => format!(" Did you mean {}?", quote(s)),
        None => String::new(),
    }
}

fn quote(s: &str) -> String {
    cty::format::go_quote(s)
}

impl Data for RootData<'_> {
    fn static_validate_references(
        &self,
        refs: &[Reference],
        _self_addr: Option<&Referenceable>,
        _source: Option<&Referenceable>,
    ) -> Diagnostics {
        let mut diags = Diagnostics::new();
        let m = self.module;
        for r in refs {
            let rng = r.source_range.clone();
            let resource = |res: &Resource, diags: &mut Diagnostics| {
                let (map, what) = match res.mode {
                    ResourceMode::Managed => (&m.managed_resources, "managed resource"),
                    ResourceMode::Data => (&m.data_resources, "data resource"),
                    ResourceMode::Ephemeral => (&m.ephemeral_resources, "ephemeral resource"),
                };
                let key = format!("{}.{}", res.type_name, res.name);
                if map.contains_key(&key) {
                    return;
                }
                let names = map
                    .values()
                    .filter(|c| c.type_name == res.type_name)
                    .map(|c| c.name.as_str());
                let sugg = suggestion(&res.name, names);
                diags.push(Diagnostic::error(
                    "Reference to undeclared resource",
                    format!(
                        "A {what} {} {} has not been declared in the root module.{sugg}",
                        quote(&res.type_name),
                        quote(&res.name)
                    ),
                    rng.clone(),
                ));
            };
            match &r.subject {
                Referenceable::InputVariable(a) if !m.variables.contains_key(&a.name) => {
                    let sugg = suggestion(&a.name, m.variables.keys().map(String::as_str));
                    let detail = if sugg.is_empty() {
                        format!("An input variable with the name {} has not been declared. This variable can be declared with a variable {} {{}} block.", quote(&a.name), quote(&a.name))
                    } else {
                        format!(
                            "An input variable with the name {} has not been declared.{sugg}",
                            quote(&a.name)
                        )
                    };
                    diags.push(Diagnostic::error(
                        "Reference to undeclared input variable",
                        detail,
                        rng,
                    ));
                }
                Referenceable::LocalValue(a) if !m.locals.contains_key(&a.name) => {
                    let sugg = suggestion(&a.name, m.locals.keys().map(String::as_str));
                    diags.push(Diagnostic::error(
                        "Reference to undeclared local value",
                        format!(
                            "A local value with the name {} has not been declared.{sugg}",
                            quote(&a.name)
                        ),
                        rng,
                    ));
                }
                Referenceable::ModuleCall(a) => module_call(m, &a.name, rng, &mut diags),
                Referenceable::ModuleCallInstance(a) => {
                    module_call(m, &a.call.name, rng, &mut diags)
                }
                Referenceable::ModuleCallInstanceOutput(a) => {
                    module_call(m, &a.call.call.name, rng, &mut diags)
                }
                Referenceable::Resource(res) => resource(res, &mut diags),
                Referenceable::ResourceInstance(ri) => resource(&ri.resource, &mut diags),
                Referenceable::CountAttr(_) => diags.push(Diagnostic::error(
                    "Reference to \"count\" in non-counted context",
                    "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
                    rng,
                )),
                Referenceable::ForEachAttr(_) => diags.push(Diagnostic::error(
                    "Reference to \"each\" in context without for_each",
                    "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
                    rng,
                )),
                _ => {}
            }
        }
        diags
    }

    fn get_count_attr(&self, _addr: &CountAttr, _range: &Range) -> (Value, Diagnostics) {
        (Value::unknown(Type::Number), Diagnostics::new())
    }

    fn get_for_each_attr(&self, _addr: &ForEachAttr, _range: &Range) -> (Value, Diagnostics) {
        (Value::dynamic(), Diagnostics::new())
    }

    fn get_resource(&self, _addr: &Resource, _range: &Range) -> (Value, Diagnostics) {
        // Nothing is in state: every attribute is known only after apply.
        (Value::dynamic(), Diagnostics::new())
    }

    fn get_local_value(&self, addr: &LocalValue, range: &Range) -> (Value, Diagnostics) {
        let Some(local) = self.module.locals.get(&addr.name) else {
            return (Value::dynamic(), Diagnostics::new());
        };
        match self.locals.borrow().get(&addr.name) {
            Some(LocalState::Done(v)) => return (v.clone(), Diagnostics::new()),
            Some(LocalState::Evaluating) => {
                return (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Cycle in local values",
                        format!(
                            "The value of local.{} depends on itself, through the references in its expression or in the expressions it refers to.",
                            addr.name
                        ),
                        range.clone(),
                    )],
                )
            }
            None => {}
        }
        self.locals
            .borrow_mut()
            .insert(addr.name.clone(), LocalState::Evaluating);
        let (v, diags) = self.scope().eval_expr(&local.expr, &Type::Dynamic);
        let v = if hclsyntax::has_errors(&diags) {
            Value::unknown(v.ty().clone())
        } else {
            v
        };
        self.locals
            .borrow_mut()
            .insert(addr.name.clone(), LocalState::Done(v.clone()));
        (v, diags)
    }

    fn get_module(&self, _addr: &ModuleCall, _range: &Range) -> (Value, Diagnostics) {
        (Value::dynamic(), Diagnostics::new())
    }

    fn get_path_attr(&self, addr: &PathAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "cwd" => (
                Value::string(self.cwd.to_string_lossy().replace('\\', "/")),
                Diagnostics::new(),
            ),
            "module" | "root" => (Value::string("."), Diagnostics::new()),
            other => {
                let sugg = suggestion(other, ["cwd", "module", "root"].into_iter());
                (
                    Value::dynamic(),
                    vec![Diagnostic::error(
                        "Invalid \"path\" attribute",
                        format!(
                            "The \"path\" object does not have an attribute named {}.{sugg}",
                            quote(other)
                        ),
                        range.clone(),
                    )],
                )
            }
        }
    }

    fn get_terraform_attr(&self, addr: &TerraformAttr, range: &Range) -> (Value, Diagnostics) {
        match addr.name.as_str() {
            "workspace" => (Value::string(&self.workspace), Diagnostics::new()),
            "env" => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid \"terraform\" attribute",
                    "The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The \"state environment\" concept was renamed to \"workspace\" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.",
                    range.clone(),
                )],
            ),
            other => (
                Value::dynamic(),
                vec![Diagnostic::error(
                    "Invalid \"terraform\" attribute",
                    format!("The \"terraform\" object does not have an attribute named {}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.", quote(other)),
                    range.clone(),
                )],
            ),
        }
    }

    fn get_input_variable(&self, addr: &InputVariable, _range: &Range) -> (Value, Diagnostics) {
        let Some(decl) = self.module.variables.get(&addr.name) else {
            return (Value::dynamic(), Diagnostics::new());
        };
        let mut v = self
            .variables
            .get(&addr.name)
            .cloned()
            .unwrap_or_else(|| Value::unknown(decl.ty.clone().unwrap_or(Type::Dynamic)));
        if decl.sensitive {
            v = v.mark(Mark::Sensitive);
        }
        if decl.ephemeral {
            v = v.mark(Mark::Ephemeral);
        }
        (v, Diagnostics::new())
    }
}

fn module_call(m: &Module, name: &str, rng: Range, diags: &mut Diagnostics) {
    if m.module_calls.contains_key(name) {
        return;
    }
    let sugg = suggestion(name, m.module_calls.keys().map(String::as_str));
    diags.push(Diagnostic::error(
        "Reference to undeclared module",
        format!(
            "No module call named {} is declared in the root module.{sugg}",
            quote(name)
        ),
        rng,
    ));
}
