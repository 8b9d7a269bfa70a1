//! The call that produced a module (`StaticModuleCall`): its address, where
//! its input variables' values come from, `path.root` and
//! `terraform.workspace`. The root module's values come from the command
//! line ([`RootVariables`]); a child's are its caller's arguments,
//! evaluated lazily in the caller's evaluator ([`ChildVariables`]).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use cty::Value;
use hclsyntax::{Attribute, Diagnostic, Diagnostics, Range, Severity};

use super::evaluator::StaticEvaluator;
use super::identifier::StaticIdentifier;
use crate::module_call::ModuleCall;
use crate::named_values::Variable;

/// Where the values of a module's input variables come from.
pub trait VariableValues: Send + Sync {
    /// The value given for `var`, before conversion to its type; `None`
    /// when none was given and its default applies. A required variable
    /// without a value is reported here (how depends on the caller), with
    /// a `None` value.
    fn given(&self, var: &Variable) -> (Option<Value>, Diagnostics);
}

/// How a module is called: what static evaluation in it may know.
#[derive(Clone)]
pub struct StaticModuleCall {
    /// The module's path (root = empty), printed before the identifiers of
    /// its messages (`module.a:var.x`).
    pub addr: addrs::Module,
    /// The input variables' values.
    pub variables: Arc<dyn VariableValues>,
    /// `path.root`.
    pub root_path: String,
    /// `terraform.workspace`.
    pub workspace: String,
    /// Where the run is, as the process sees it: `.`, or under
    /// `-recursive` the root module's directory, evaluated as a run there
    /// would (see [`WorkDir`]).
    pub work_dir: Arc<WorkDir>,
}

/// The directory a root module is evaluated from, when it is not the
/// process's: `path.module` and `path.cwd` are taken relative to it, and
/// the filesystem functions read relative paths from it.
#[derive(Debug)]
pub struct WorkDir {
    /// As the process sees it (`live/prod`); `.` for the process's own.
    pub dir: String,
    /// The builtin functions, with relative paths read from `dir`; built
    /// once for every module of the run.
    pub functions: Arc<lang::functions::framework::FunctionTable>,
}

impl WorkDir {
    /// The process's own directory.
    pub fn current() -> Arc<WorkDir> {
        static CURRENT: std::sync::OnceLock<Arc<WorkDir>> = std::sync::OnceLock::new();
        CURRENT
            .get_or_init(|| {
                Arc::new(WorkDir {
                    dir: ".".to_string(),
                    functions: lang::functions::builtin_table(),
                })
            })
            .clone()
    }

    /// `dir` (as the process sees it); the process's own for `.`.
    pub fn at(dir: &str) -> Arc<WorkDir> {
        if dir == "." {
            return WorkDir::current();
        }
        let mut table = lang::functions::framework::FunctionTable::extending_builtins();
        lang::functions::filesystem::register_with_base_dir(&mut table, dir);
        Arc::new(WorkDir {
            dir: dir.to_string(),
            functions: Arc::new(table),
        })
    }

    /// Whether this is the process's own directory.
    pub fn is_current(&self) -> bool {
        self.dir == "."
    }
}

impl fmt::Debug for StaticModuleCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticModuleCall")
            .field("addr", &self.addr.to_string())
            .field("root_path", &self.root_path)
            .field("workspace", &self.workspace)
            .field("work_dir", &self.work_dir.dir)
            .finish_non_exhaustive()
    }
}

impl StaticModuleCall {
    /// A call of module `addr` whose variables come from `variables`.
    pub fn new(
        addr: addrs::Module,
        variables: Arc<dyn VariableValues>,
        root_path: impl Into<String>,
        workspace: impl Into<String>,
    ) -> Self {
        StaticModuleCall {
            addr,
            variables,
            root_path: root_path.into(),
            workspace: workspace.into(),
            work_dir: WorkDir::current(),
        }
    }

    /// This call evaluated as a run in `work_dir` would be (a root of
    /// `-recursive`); its children inherit it.
    pub fn in_work_dir(mut self, work_dir: Arc<WorkDir>) -> Self {
        self.work_dir = work_dir;
        self
    }

    /// The root module's call: variable values from the command line,
    /// `.tfvars` files and the environment (`rootModuleCall`).
    pub fn root(
        values: RootVariables,
        root_path: impl Into<String>,
        workspace: impl Into<String>,
    ) -> Self {
        StaticModuleCall::new(
            addrs::Module::root(),
            Arc::new(values),
            root_path,
            workspace,
        )
    }

    /// The call of the child module `call` made from the module `parent`
    /// evaluates: the child's variables are `call`'s arguments, evaluated
    /// (lazily, once each) in `parent`.
    pub fn for_child(parent: &Arc<StaticEvaluator>, call: &ModuleCall) -> Self {
        let parent_call = parent.call();
        let addr = parent_call.addr.child(&call.name);
        let (attrs, _) = call.config.just_attributes();
        let arguments = attrs.into_iter().map(|a| (a.name.clone(), a)).collect();
        StaticModuleCall {
            addr: addr.clone(),
            variables: Arc::new(ChildVariables {
                parent: parent.clone(),
                addr,
                arguments,
                missing_item_range: call.config.missing_item_range(),
            }),
            root_path: parent_call.root_path.clone(),
            workspace: parent_call.workspace.clone(),
            work_dir: parent_call.work_dir.clone(),
        }
    }
}

/// Asks the user for a required variable's value: the value (`None` when
/// there is none) and any diagnostics.
pub type PromptFn = dyn Fn(&Variable) -> (Option<Value>, Diagnostics) + Send + Sync;

/// The root module's variable values, already parsed (by the variable's
/// parsing mode) and merged in OpenTofu's order (environment, tfvars files,
/// `-var` / `-var-file`).
#[derive(Clone, Default)]
pub struct RootVariables {
    pub values: BTreeMap<String, Value>,
    /// Asks for a required variable that has no value; without it (no
    /// terminal, `-input=false`) such a variable is an error.
    pub prompt: Option<Arc<PromptFn>>,
}

impl RootVariables {
    /// Values given, no prompting.
    pub fn new(values: BTreeMap<String, Value>) -> Self {
        RootVariables {
            values,
            prompt: None,
        }
    }
}

impl VariableValues for RootVariables {
    fn given(&self, var: &Variable) -> (Option<Value>, Diagnostics) {
        if let Some(v) = self.values.get(&var.name) {
            return (Some(v.clone()), Vec::new());
        }
        if !var.required() {
            return (None, Vec::new());
        }
        match &self.prompt {
            Some(prompt) => prompt(var),
            None => (
                None,
                vec![Diagnostic {
                    severity: Severity::Error,
                    summary: format!(
                        "Failed to request input from user for variable var.{}",
                        var.name
                    ),
                    detail: String::new(),
                    subject: Some(var.decl_range.clone()),
                    context: None,
                }],
            ),
        }
    }
}

/// A child module's variables: the arguments of its `module` block,
/// evaluated in the calling module's evaluator.
pub struct ChildVariables {
    parent: Arc<StaticEvaluator>,
    /// The child module's path.
    addr: addrs::Module,
    arguments: BTreeMap<String, Arc<Attribute>>,
    missing_item_range: Option<Range>,
}

impl VariableValues for ChildVariables {
    fn given(&self, var: &Variable) -> (Option<Value>, Diagnostics) {
        let Some(attr) = self.arguments.get(&var.name) else {
            if var.required() {
                return (
                    None,
                    vec![Diagnostic {
                        severity: Severity::Error,
                        summary: "Missing required variable in module call".into(),
                        detail: String::new(),
                        subject: self.missing_item_range.clone(),
                        context: None,
                    }],
                );
            }
            return (None, Vec::new());
        };
        let ident =
            StaticIdentifier::new(&self.addr, format!("var.{}", var.name), attr.range.clone());
        let (v, diags) = self.parent.evaluate(&attr.expr, &ident);
        (Some(v), diags)
    }
}

/// Variable values from a function: for tests and embedders.
pub struct FnVariables<F>(pub F);

impl<F> VariableValues for FnVariables<F>
where
    F: Fn(&Variable) -> (Option<Value>, Diagnostics) + Send + Sync,
{
    fn given(&self, var: &Variable) -> (Option<Value>, Diagnostics) {
        (self.0)(var)
    }
}
