//! Static decoding of a module's fields once its call is known
//! (`Module.WithStaticCall`): module call `version` and `source`, provider
//! `for_each`, and every `const = true` variable.

use std::sync::Arc;

use cty::{Mark, Type};
use hclsyntax::{has_errors, Diagnostic, Diagnostics};

use super::call::StaticModuleCall;
use super::evaluator::{has_mark_deep, StaticEvaluator};
use super::for_each::provider_for_each_instances;
use crate::decode_value::{is_constant_expr, ConstValue};
use crate::module::Module;
use crate::module_call::{parse_source_string, ModuleCall};
use crate::version_constraint::decode_version_constraint_value;

impl Module {
    /// Applies static evaluation to this module as called by `call`: keeps
    /// the evaluator (for the backend and encryption), decodes every module
    /// call's `version` and `source` that were not constants (constants were
    /// decoded at load), evaluates each provider `for_each`, and evaluates
    /// every `const = true` variable.
    pub fn with_static_call(&mut self, call: StaticModuleCall) -> Diagnostics {
        let eval = Arc::new(StaticEvaluator::new(self, call));
        let mut diags = Diagnostics::new();
        for mc in self.module_calls.values_mut() {
            if !mc.has_constant_static_fields() {
                diags.extend(mc.decode_static_fields(&eval));
            }
        }
        for p in self.provider_configs.values_mut() {
            if p.for_each.is_some() && p.alias.is_some() {
                let (instances, more) = provider_for_each_instances(&eval, p);
                diags.extend(more);
                p.instances = instances;
            }
        }
        for var in self.variables.values().filter(|v| v.is_const) {
            let (_, more) = eval.variable_value(&var.name);
            diags.extend(more);
        }
        self.static_evaluator = Some(eval);
        diags
    }

    /// [`with_static_call`](Self::with_static_call) for a borrowed call.
    pub fn decode_static_fields(&mut self, call: &StaticModuleCall) -> Diagnostics {
        self.with_static_call(call.clone())
    }

    /// The evaluator [`with_static_call`](Self::with_static_call) kept:
    /// what child calls ([`StaticModuleCall::for_child`]), the backend and
    /// encryption are evaluated with.
    pub fn static_evaluator(&self) -> Option<&Arc<StaticEvaluator>> {
        self.static_evaluator.as_ref()
    }
}

impl ModuleCall {
    /// Whether `source` and `version` are constants, decoded when the
    /// module was loaded.
    pub fn has_constant_static_fields(&self) -> bool {
        self.source.as_ref().is_none_or(is_constant_expr)
            && self
                .version_attr
                .as_ref()
                .is_none_or(|a| is_constant_expr(&a.expr))
    }

    /// Evaluates `version`, then `source`, in the calling module's
    /// evaluator (`decodeStaticFields`), setting `version`,
    /// `source_addr_raw` and `source_addr`. The source is a registry
    /// address when the version decoded to a constraint; a version that
    /// failed is reported and the source read as if there were none.
    pub fn decode_static_fields(&mut self, eval: &StaticEvaluator) -> Diagnostics {
        let mut diags = self.decode_static_version(eval);
        diags.extend(self.decode_static_source(eval));
        diags
    }

    fn decode_static_version(&mut self, eval: &StaticEvaluator) -> Diagnostics {
        let Some(attr) = self.version_attr.clone() else {
            return Vec::new();
        };
        let ident = eval.identifier(format!("module.{}.version", self.name), attr.range.clone());
        let (val, mut diags) = eval.evaluate(&attr.expr, &ident);
        if has_errors(&diags) {
            return diags;
        }
        if !val.is_wholly_known() {
            return diags;
        }
        for (mark, word) in [
            (Mark::Sensitive, "Sensitive"),
            (Mark::Ephemeral, "Ephemeral"),
        ] {
            if has_mark_deep(&val, &mark) {
                diags.push(Diagnostic::error(
                    "Invalid version constraint",
                    format!(
                        "{word} values, or values derived from {} values, cannot be used as version arguments.",
                        word.to_lowercase()
                    ),
                    attr.expr.range.clone(),
                ));
            }
        }
        if has_errors(&diags) {
            return diags;
        }
        let constant = match cty::convert::convert(&val, &Type::String) {
            Ok(s) if s.is_null() => Some(ConstValue::Null),
            Ok(s) => s.as_str().map(|s| ConstValue::String(s.to_string())),
            Err(_) => None,
        };
        let (vc, more) = decode_version_constraint_value(&attr, constant.as_ref());
        diags.extend(more);
        self.version = Some(vc);
        diags
    }

    fn decode_static_source(&mut self, eval: &StaticEvaluator) -> Diagnostics {
        let Some(expr) = self.source.clone() else {
            return Vec::new();
        };
        let ident = eval.identifier(format!("module.{}.source", self.name), expr.range.clone());
        let (raw, mut diags) = eval.decode_string(&expr, &ident);
        let Some(raw) = raw else {
            return diags;
        };
        let (addr, more) = parse_source_string(&raw, self.has_version(), &expr.range);
        diags.extend(more);
        self.source_addr_raw = Some(raw);
        self.source_addr = addr;
        diags
    }
}
