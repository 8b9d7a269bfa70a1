//! OpenTofu's evaluation scope (`internal/lang` `Scope`): the references
//! an expression makes are parsed into addresses, each is asked of a
//! [`Data`] source, and the answers are assembled into the variables of an
//! [`EvalContext`] (`var`, `local`, `module`, `data`, resource types, ...).

use std::collections::BTreeMap;
use std::sync::Arc;

use addrs::{
    Check, CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, OutputValue, PathAttr,
    Reference, Referenceable, Resource, ResourceMode, TerraformAttr,
};
use cty::{convert::convert, Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, Range, Traversal};

use crate::context::EvalContext;
use crate::eval::{eval_expr, index_value};
use crate::functions::framework::FunctionTable;

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;

/// Where the values of referenceable objects come from. The configuration
/// loader's static evaluator and the graph walker implement it.
///
/// Each getter answers for one object, given the range of the reference
/// (for diagnostics). A getter that reports errors should still return a
/// value whose type is as good as it knows (the scope turns it into an
/// unknown of that type, so that type checking can go on), or
/// `Value::dynamic()` if it knows nothing.
pub trait Data {
    /// Checks every reference before any is evaluated (that the objects
    /// exist, that they may be used here). `self_addr` is what `self`
    /// means in this scope, `source` the object whose expressions these
    /// are. Errors stop the evaluation.
    fn static_validate_references(
        &self,
        refs: &[Reference],
        self_addr: Option<&Referenceable>,
        source: Option<&Referenceable>,
    ) -> Diagnostics {
        let _ = (refs, self_addr, source);
        Diagnostics::new()
    }

    /// `count.index`.
    fn get_count_attr(&self, addr: &CountAttr, range: &Range) -> (Value, Diagnostics);
    /// `each.key`, `each.value`.
    fn get_for_each_attr(&self, addr: &ForEachAttr, range: &Range) -> (Value, Diagnostics);
    /// A whole resource: an object for a single instance, a tuple or list
    /// for `count`, an object or map for `for_each`.
    fn get_resource(&self, addr: &Resource, range: &Range) -> (Value, Diagnostics);
    /// `local.NAME`.
    fn get_local_value(&self, addr: &LocalValue, range: &Range) -> (Value, Diagnostics);
    /// `module.NAME`: the outputs of all its instances.
    fn get_module(&self, addr: &ModuleCall, range: &Range) -> (Value, Diagnostics);
    /// `path.module`, `path.root`, `path.cwd`.
    fn get_path_attr(&self, addr: &PathAttr, range: &Range) -> (Value, Diagnostics);
    /// `terraform.workspace` (also written `tofu.workspace`).
    fn get_terraform_attr(&self, addr: &TerraformAttr, range: &Range) -> (Value, Diagnostics);
    /// `var.NAME`.
    fn get_input_variable(&self, addr: &InputVariable, range: &Range) -> (Value, Diagnostics);

    /// `output.NAME` (test files only).
    fn get_output(&self, addr: &OutputValue, range: &Range) -> (Value, Diagnostics) {
        (
            Value::dynamic(),
            vec![not_available(&format!("output.{}", addr.name), range)],
        )
    }

    /// `check.NAME` (test files only).
    fn get_check_block(&self, addr: &Check, range: &Range) -> (Value, Diagnostics) {
        (
            Value::dynamic(),
            vec![not_available(&format!("check.{}", addr.name), range)],
        )
    }
}

fn not_available(what: &str, range: &Range) -> Diagnostic {
    Diagnostic::error(
        "Invalid reference",
        format!(
            "The reference to {} is not valid in this context",
            cty::format::go_quote(what)
        ),
        range.clone(),
    )
}

/// How traversals become references: [`addrs::parse_ref`] in modules,
/// [`addrs::parse_ref_from_testing_scope`] in test files.
pub type ParseRef = fn(&Traversal) -> Result<Reference, Diagnostics>;

/// Everything needed to evaluate expressions of one object: where values
/// come from, the functions, and what `self` means.
#[derive(Clone)]
pub struct Scope<'d> {
    pub data: &'d dyn Data,
    pub functions: Arc<FunctionTable>,
    pub parse_ref: ParseRef,
    /// What `self` refers to (a resource instance, in provisioner and
    /// connection blocks and postconditions).
    pub self_addr: Option<Referenceable>,
    /// The object whose expressions are being evaluated.
    pub source_addr: Option<Referenceable>,
}

impl<'d> Scope<'d> {
    /// A scope over `data` with `functions`, parsing references as in modules.
    pub fn new(data: &'d dyn Data, functions: Arc<FunctionTable>) -> Scope<'d> {
        Scope {
            data,
            functions,
            parse_ref: addrs::parse_ref,
            self_addr: None,
            source_addr: None,
        }
    }

    /// The references among `traversals`; those that are not valid
    /// references are reported (OpenTofu's `lang.References`).
    pub fn references(&self, traversals: &[Traversal]) -> (Vec<Reference>, Diagnostics) {
        let mut refs = Vec::new();
        let mut diags = Diagnostics::new();
        for t in traversals {
            match (self.parse_ref)(t) {
                Ok(r) => refs.push(r),
                Err(d) => diags.extend(d),
            }
        }
        (refs, diags)
    }

    /// The references an expression makes.
    pub fn references_in_expr(&self, expr: &Expr) -> (Vec<Reference>, Diagnostics) {
        let mut refs = Vec::new();
        let mut diags = Diagnostics::new();
        expr.each_variable(&mut |t| match (self.parse_ref)(t) {
            Ok(r) => refs.push(r),
            Err(d) => diags.extend(d),
        });
        (refs, diags)
    }

    /// Evaluates `expr` and converts the result to `want` (`Dynamic`: no
    /// conversion). With errors the value is an unknown of `want`.
    pub fn eval_expr(&self, expr: &Expr, want: &Type) -> (Value, Diagnostics) {
        let (refs, mut diags) = self.references_in_expr(expr);
        let (ctx, d) = self.eval_context(&refs);
        diags.extend(d);
        if has_errors(&diags) {
            return (Value::unknown(want.clone()), diags);
        }
        let (val, d) = eval_expr(expr, &ctx);
        diags.extend(d);
        convert_result(val, want, &expr.range, diags)
    }

    /// The value of one reference, converted to `want`.
    pub fn eval_reference(&self, r: &Reference, want: &Type) -> (Value, Diagnostics) {
        let (vars, diags) = self.build_variables(std::slice::from_ref(r), Some(&r.subject));
        let val = vars.get("self").cloned().unwrap_or_else(Value::dynamic);
        convert_result(val, want, &r.source_range, diags)
    }

    /// The context in which an expression making `refs` is evaluated.
    pub fn eval_context(&self, refs: &[Reference]) -> (EvalContext<'static>, Diagnostics) {
        let (vars, diags) = self.build_variables(refs, self.self_addr.as_ref());
        (EvalContext::new(vars, self.functions.clone()), diags)
    }

    fn build_variables(
        &self,
        refs: &[Reference],
        self_addr: Option<&Referenceable>,
    ) -> (BTreeMap<String, Value>, Diagnostics) {
        let mut vals = BTreeMap::new();
        let mut diags = Diagnostics::new();
        if refs.is_empty() {
            return (vals, diags);
        }
        let static_diags =
            self.data
                .static_validate_references(refs, self_addr, self.source_addr.as_ref());
        let failed = has_errors(&static_diags);
        diags.extend(static_diags);
        if failed {
            return (vals, diags);
        }

        type Named = BTreeMap<String, Value>;
        let mut managed: BTreeMap<String, Named> = BTreeMap::new();
        let mut data_res: BTreeMap<String, Named> = BTreeMap::new();
        let mut ephemeral: BTreeMap<String, Named> = BTreeMap::new();
        let mut modules = Named::new();
        let mut inputs = Named::new();
        let mut locals = Named::new();
        let mut outputs = Named::new();
        let mut paths = Named::new();
        let mut terraform = Named::new();
        let mut counts = Named::new();
        let mut each = Named::new();
        let mut checks = Named::new();
        let mut self_val: Option<Value> = None;

        for r in refs {
            let rng = &r.source_range;
            let mut add = |(v, d): (Value, Diagnostics)| {
                let v = normalize(v, &d);
                diags.extend(d);
                v
            };
            let subject = match &r.subject {
                Referenceable::Self_ => {
                    match self_addr {
                        None => add((
                            Value::dynamic(),
                            vec![Diagnostic::error(
                                "Invalid \"self\" reference",
                                "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.",
                                rng.clone(),
                            )],
                        )),
                        Some(Referenceable::ResourceInstance(inst)) => {
                            let val = add(self.data.get_resource(&inst.resource, rng));
                            let key = match &inst.key {
                                addrs::InstanceKey::Int(i) => Some(Value::number_int(*i)),
                                addrs::InstanceKey::String(s) => Some(Value::string(s)),
                                addrs::InstanceKey::None => None,
                            };
                            let v = match key {
                                Some(k) => add(index_value(&val, &k, rng)),
                                None => val,
                            };
                            self_val = Some(v);
                            Value::dynamic()
                        }
                        // `self` aliases something other than a resource
                        // instance (EvalReference): answer for that.
                        Some(other) => {
                            let v = self.get(other, rng, &mut add);
                            self_val = Some(v);
                            Value::dynamic()
                        }
                    };
                    continue;
                }
                Referenceable::ResourceInstance(ri) => Referenceable::Resource(ri.resource.clone()),
                Referenceable::ModuleCallInstance(mi) => Referenceable::ModuleCall(mi.call.clone()),
                Referenceable::ModuleCallInstanceOutput(mo) => {
                    Referenceable::ModuleCall(mo.call.call.clone())
                }
                other => other.clone(),
            };
            let v = self.get(&subject, rng, &mut add);
            if self_addr == Some(&r.subject) {
                self_val = Some(v.clone());
            }
            match subject {
                Referenceable::Resource(res) => {
                    let into = match res.mode {
                        ResourceMode::Managed => &mut managed,
                        ResourceMode::Data => &mut data_res,
                        ResourceMode::Ephemeral => &mut ephemeral,
                    };
                    into.entry(res.type_name.clone())
                        .or_default()
                        .insert(res.name.clone(), v);
                }
                Referenceable::ModuleCall(m) => {
                    modules.insert(m.name, v);
                }
                Referenceable::InputVariable(a) => {
                    inputs.insert(a.name, v);
                }
                Referenceable::LocalValue(a) => {
                    locals.insert(a.name, v);
                }
                Referenceable::PathAttr(a) => {
                    paths.insert(a.name, v);
                }
                Referenceable::TerraformAttr(a) => {
                    terraform.insert(a.name, v);
                }
                Referenceable::CountAttr(a) => {
                    counts.insert(a.name, v);
                }
                Referenceable::ForEachAttr(a) => {
                    each.insert(a.name, v);
                }
                Referenceable::OutputValue(a) => {
                    outputs.insert(a.name, v);
                }
                Referenceable::Check(a) => {
                    checks.insert(a.name, v);
                }
                _ => {}
            }
        }

        let objects = |m: BTreeMap<String, Named>| -> Named {
            m.into_iter().map(|(k, v)| (k, Value::object(v))).collect()
        };
        let managed = objects(managed);
        for (k, v) in &managed {
            vals.insert(k.clone(), v.clone());
        }
        vals.insert("resource".into(), Value::object(managed));
        vals.insert("data".into(), Value::object(objects(data_res)));
        vals.insert("ephemeral".into(), Value::object(objects(ephemeral)));
        vals.insert("module".into(), Value::object(modules));
        vals.insert("var".into(), Value::object(inputs));
        vals.insert("local".into(), Value::object(locals));
        vals.insert("path".into(), Value::object(paths));
        let terraform = Value::object(terraform);
        vals.insert("terraform".into(), terraform.clone());
        vals.insert("tofu".into(), terraform);
        vals.insert("count".into(), Value::object(counts));
        vals.insert("each".into(), Value::object(each));
        if !checks.is_empty() {
            vals.insert("check".into(), Value::object(checks));
        }
        if !outputs.is_empty() {
            vals.insert("output".into(), Value::object(outputs));
        }
        if let Some(s) = self_val {
            vals.insert("self".into(), s);
        }
        (vals, diags)
    }

    /// Asks the data source for one (non-instance) object.
    fn get(
        &self,
        subject: &Referenceable,
        rng: &Range,
        add: &mut dyn FnMut((Value, Diagnostics)) -> Value,
    ) -> Value {
        let d = self.data;
        match subject {
            Referenceable::Resource(a) => add(d.get_resource(a, rng)),
            Referenceable::ResourceInstance(a) => add(d.get_resource(&a.resource, rng)),
            Referenceable::ModuleCall(a) => add(d.get_module(a, rng)),
            Referenceable::ModuleCallInstance(a) => add(d.get_module(&a.call, rng)),
            Referenceable::ModuleCallInstanceOutput(a) => add(d.get_module(&a.call.call, rng)),
            Referenceable::InputVariable(a) => add(d.get_input_variable(a, rng)),
            Referenceable::LocalValue(a) => add(d.get_local_value(a, rng)),
            Referenceable::PathAttr(a) => add(d.get_path_attr(a, rng)),
            Referenceable::TerraformAttr(a) => add(d.get_terraform_attr(a, rng)),
            Referenceable::CountAttr(a) => add(d.get_count_attr(a, rng)),
            Referenceable::ForEachAttr(a) => add(d.get_for_each_attr(a, rng)),
            Referenceable::OutputValue(a) => add(d.get_output(a, rng)),
            Referenceable::Check(a) => add(d.get_check_block(a, rng)),
            Referenceable::Self_ => Value::dynamic(),
        }
    }
}

/// OpenTofu's `normalizeRefValue`: a value that came with errors becomes
/// an unknown of its type.
fn normalize(v: Value, diags: &Diagnostics) -> Value {
    if has_errors(diags) {
        Value::unknown(v.ty().clone())
    } else {
        v
    }
}

/// Converts an evaluation result to the wanted type, as `EvalExpr` does.
fn convert_result(
    val: Value,
    want: &Type,
    range: &Range,
    mut diags: Diagnostics,
) -> (Value, Diagnostics) {
    if want.is_dynamic() {
        return (val, diags);
    }
    match convert(&val, want) {
        Ok(v) => (v, diags),
        Err(e) => {
            diags.push(Diagnostic::error(
                "Incorrect value type",
                format!("Invalid expression value: {}.", e.with_path()),
                range.clone(),
            ));
            (Value::unknown(want.clone()), diags)
        }
    }
}
