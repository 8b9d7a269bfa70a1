//! The function-call framework, as `cty/function` defines it: parameters
//! with flags saying which unknown, null, dynamic and marked arguments a
//! function handles itself, a return-type callback and an implementation,
//! and the automatic handling of everything the flags leave out (an unknown
//! argument makes an unknown result, marks move from the arguments to the
//! result, a null argument is an error).

mod table;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use cty::{Type, Value, ValueMarks};
use hclsyntax::{Diagnostics, Expr};

use crate::context::EvalContext;

pub use table::FunctionTable;

/// One parameter of a function (cty `function.Parameter`).
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The name used in messages (`Invalid value for "list" parameter`).
    pub name: String,
    /// Arguments are converted to this type before the call; `Dynamic`
    /// accepts anything.
    pub ty: Type,
    /// The function handles null arguments itself; otherwise a null is an
    /// error (`argument must not be null`).
    pub allow_null: bool,
    /// The function handles unknown arguments itself; otherwise an unknown
    /// argument makes the result an unknown of the return type.
    pub allow_unknown: bool,
    /// The return-type callback handles arguments of unknown type;
    /// otherwise such an argument makes the return type dynamic.
    pub allow_dynamic: bool,
    /// The function sees marked arguments; otherwise marks are removed
    /// (deeply) before the call and put on the result.
    pub allow_marked: bool,
}

impl Param {
    /// A parameter that allows nothing special.
    pub fn new(name: impl Into<String>, ty: Type) -> Param {
        Param {
            name: name.into(),
            ty,
            allow_null: false,
            allow_unknown: false,
            allow_dynamic: false,
            allow_marked: false,
        }
    }

    pub fn allow_null(mut self) -> Param {
        self.allow_null = true;
        self
    }

    pub fn allow_unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }

    pub fn allow_dynamic(mut self) -> Param {
        self.allow_dynamic = true;
        self
    }

    pub fn allow_marked(mut self) -> Param {
        self.allow_marked = true;
        self
    }
}

/// A failed call: either about one argument (cty `ArgError`, reported at
/// that argument) or about the call as a whole.
#[derive(Debug, Clone, PartialEq)]
pub enum FnError {
    Arg { index: usize, message: String },
    General(String),
}

impl FnError {
    /// An error about argument `index`.
    pub fn arg(index: usize, message: impl Into<String>) -> FnError {
        FnError::Arg {
            index,
            message: message.into(),
        }
    }

    /// An error about the call as a whole.
    pub fn general(message: impl Into<String>) -> FnError {
        FnError::General(message.into())
    }

    pub fn message(&self) -> &str {
        match self {
            FnError::Arg { message, .. } | FnError::General(message) => message,
        }
    }
}

impl fmt::Display for FnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for FnError {}

impl From<cty::ValueError> for FnError {
    fn from(e: cty::ValueError) -> FnError {
        FnError::General(e.msg)
    }
}

/// Decides the return type from the (converted, possibly unknown) arguments.
pub type TypeFn = Arc<dyn Fn(&[Value]) -> Result<Type, FnError> + Send + Sync>;

/// Computes the result from known arguments (as the flags allow) and the
/// return type the type callback chose.
pub type ImplFn = Arc<dyn Fn(&[Value], &Type) -> Result<Value, FnError> + Send + Sync>;

/// An unevaluated argument and the context to evaluate it in: what `try`
/// and `can` receive (HCL's `customdecode.ExpressionClosure`).
#[derive(Clone, Copy)]
pub struct ExprClosure<'a> {
    pub expr: &'a Expr,
    pub ctx: &'a EvalContext<'a>,
}

impl ExprClosure<'_> {
    /// Evaluates the expression.
    pub fn value(&self) -> (Value, Diagnostics) {
        crate::eval::eval_expr(self.expr, self.ctx)
    }

    /// Whether any variable the expression reads is not wholly known
    /// (tofu's `dependsOnUnknowns`).
    pub fn depends_on_unknowns(&self) -> bool {
        self.expr.variables().iter().any(|t| {
            let (v, diags) = crate::eval::traverse_abs(t, self.ctx);
            !hclsyntax::has_errors(&diags) && !v.is_wholly_known()
        })
    }
}

/// A function taking its arguments unevaluated (`try`, `can`).
pub type ClosureFn = Arc<dyn Fn(&[ExprClosure<'_>]) -> Result<Value, FnError> + Send + Sync>;

/// A function that can be called from expressions.
#[derive(Clone)]
pub struct Function {
    pub params: Vec<Param>,
    pub var_param: Option<Param>,
    pub return_type: TypeFn,
    pub implementation: ImplFn,
    /// Set for functions whose arguments are passed unevaluated; `params`
    /// and `var_param` then only name them (their types are ignored).
    pub closure: Option<ClosureFn>,
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Function")
            .field("params", &self.params)
            .field("var_param", &self.var_param)
            .field("closure", &self.closure.is_some())
            .finish()
    }
}

/// A return-type callback that always answers `ty` (`StaticReturnType`),
/// for [`Function::new`].
pub fn static_return(
    ty: Type,
) -> impl Fn(&[Value]) -> Result<Type, FnError> + Send + Sync + Clone + 'static {
    move |_: &[Value]| Ok(ty.clone())
}

impl Function {
    /// A function of values.
    pub fn new(
        params: Vec<Param>,
        var_param: Option<Param>,
        return_type: impl Fn(&[Value]) -> Result<Type, FnError> + Send + Sync + 'static,
        implementation: impl Fn(&[Value], &Type) -> Result<Value, FnError> + Send + Sync + 'static,
    ) -> Function {
        Function {
            params,
            var_param,
            return_type: Arc::new(return_type),
            implementation: Arc::new(implementation),
            closure: None,
        }
    }

    /// A function of unevaluated expressions.
    pub fn with_closures(
        params: Vec<Param>,
        var_param: Option<Param>,
        implementation: impl Fn(&[ExprClosure<'_>]) -> Result<Value, FnError> + Send + Sync + 'static,
    ) -> Function {
        Function {
            params,
            var_param,
            return_type: Arc::new(static_return(Type::Dynamic)),
            implementation: Arc::new(|_, _| {
                Err(FnError::general("this function takes expressions"))
            }),
            closure: Some(Arc::new(implementation)),
        }
    }

    /// The parameter argument `i` is matched with.
    pub fn param_for(&self, i: usize) -> Option<&Param> {
        self.params.get(i).or(self.var_param.as_ref())
    }

    /// cty `ReturnTypeForValues`: checks nulls and types against the
    /// parameters and asks the type callback.
    pub fn return_type_for_values(&self, args: &[Value]) -> Result<Type, FnError> {
        self.return_type_inner(args).map(|(t, _)| t)
    }

    /// The return type, and whether an argument of unknown type met a
    /// parameter that does not allow one (then the type is dynamic and the
    /// implementation must not run).
    fn return_type_inner(&self, args: &[Value]) -> Result<(Type, bool), FnError> {
        let n = self.params.len();
        if self.var_param.is_none() && args.len() != n {
            return Err(FnError::general(format!(
                "wrong number of arguments ({n} required; {} given)",
                args.len()
            )));
        }
        if args.len() < n {
            return Err(FnError::general(format!(
                "wrong number of arguments (at least {n} required; {} given)",
                args.len()
            )));
        }
        let mut plain: Vec<Value> = Vec::with_capacity(args.len());
        for (i, val) in args.iter().enumerate() {
            let spec = self.param_for(i).expect("argument count checked above");
            let val = if val.is_marked() && !spec.allow_marked {
                val.unmark()
            } else {
                val.clone()
            };
            if val.is_null() && !spec.allow_null {
                return Err(FnError::arg(i, "argument must not be null"));
            }
            if val.ty().is_dynamic() {
                if !spec.allow_dynamic {
                    return Ok((Type::Dynamic, true));
                }
            } else if let Some(e) = val.ty().test_conformance(&spec.ty).into_iter().next() {
                return Err(FnError::arg(i, e));
            }
            plain.push(val);
        }
        (self.return_type)(&plain).map(|t| (t, false))
    }

    /// cty `Call`: checks the arguments, handles unknowns and marks as the
    /// parameter flags say, and runs the implementation.
    pub fn call(&self, args: &[Value]) -> Result<Value, FnError> {
        let (expected, dyn_typed_args) = self.return_type_inner(args)?;
        if dyn_typed_args {
            return Ok(Value::unknown(expected));
        }
        let unsupported_unknowns = args.iter().enumerate().any(|(i, v)| {
            let spec = self.param_for(i).expect("argument count checked");
            !v.is_known() && !spec.allow_unknown
        });
        let mut marks = ValueMarks::new();
        let args: Vec<Value> = args
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let spec = self.param_for(i).expect("argument count checked");
                if unsupported_unknowns || !spec.allow_marked {
                    let (v, m) = v.unmark_deep();
                    marks.extend(m);
                    v
                } else {
                    v.clone()
                }
            })
            .collect();
        if unsupported_unknowns {
            return Ok(Value::unknown(expected).marked_with(marks));
        }
        let ret = (self.implementation)(&args, &expected)?;
        let ret = ret.marked_with(marks);
        if let Some(e) = ret.ty().test_conformance(&expected).into_iter().next() {
            return Err(FnError::general(format!(
                "returned value {ret:?} does not conform to expected return type {expected:?}: {e}"
            )));
        }
        Ok(ret)
    }
}
