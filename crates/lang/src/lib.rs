//! lang: OpenTofu's expression language on top of the lowered syntax tree
//! (`hclsyntax`) and cty values: expression evaluation as HCL does it
//! ([`eval`]), the evaluation context ([`EvalContext`]), OpenTofu's
//! [`Scope`] that turns an expression's references into a context through
//! a [`Data`] source, and the function library ([`functions`]): the
//! framework ([`functions::framework`]) and the builtin functions by
//! family.
//!
//! Knows nothing of files, modules or the graph: callers supply values
//! through [`Data`].

pub mod context;
pub mod eval;
pub mod functions;
pub mod marks;
pub mod scope;
#[cfg(test)]
pub(crate) mod test_util;

pub use context::EvalContext;
pub use eval::eval_expr;
pub use functions::framework::{ExprClosure, FnError, Function, FunctionTable, Param};
pub use scope::{Data, Scope};
