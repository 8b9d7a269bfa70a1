//! A module instance's data with one value supplied directly, before the
//! walk stores it: an input variable's, for its validation rules (OpenTofu
//! injects it into the evaluation context the same way), and a resource
//! instance's planned object, as `self` in its postconditions.

use addrs::{
    CountAttr, ForEachAttr, InputVariable, LocalValue, ModuleCall, PathAttr, Reference,
    Referenceable, Resource, TerraformAttr,
};
use cty::{Mark, Value};
use hclsyntax::{Diagnostics, Range};
use lang::Data;

use super::InstanceData;

/// The one value an [`Overlay`] answers itself.
pub enum Supplied<'a> {
    /// `var.<name>` while its validation rules run.
    Variable {
        name: &'a str,
        value: Value,
        sensitive: bool,
    },
    /// The resource's planned object, while its postconditions run.
    PlannedObject {
        resource: &'a Resource,
        value: Value,
    },
}

/// The instance's data, except for the [`Supplied`] value.
pub struct Overlay<'a> {
    pub inner: &'a InstanceData<'a>,
    pub supplied: Supplied<'a>,
}

impl Data for Overlay<'_> {
    fn static_validate_references(
        &self,
        refs: &[Reference],
        self_addr: Option<&Referenceable>,
        source: Option<&Referenceable>,
    ) -> Diagnostics {
        self.inner
            .static_validate_references(refs, self_addr, source)
    }
    fn get_count_attr(&self, a: &CountAttr, r: &Range) -> (Value, Diagnostics) {
        self.inner.get_count_attr(a, r)
    }
    fn get_for_each_attr(&self, a: &ForEachAttr, r: &Range) -> (Value, Diagnostics) {
        self.inner.get_for_each_attr(a, r)
    }
    fn get_resource(&self, a: &Resource, r: &Range) -> (Value, Diagnostics) {
        match &self.supplied {
            Supplied::PlannedObject { resource, value } if a == *resource => {
                (value.clone(), Diagnostics::new())
            }
            _ => self.inner.get_resource(a, r),
        }
    }
    fn get_local_value(&self, a: &LocalValue, r: &Range) -> (Value, Diagnostics) {
        self.inner.get_local_value(a, r)
    }
    fn get_module(&self, a: &ModuleCall, r: &Range) -> (Value, Diagnostics) {
        self.inner.get_module(a, r)
    }
    fn get_path_attr(&self, a: &PathAttr, r: &Range) -> (Value, Diagnostics) {
        self.inner.get_path_attr(a, r)
    }
    fn get_terraform_attr(&self, a: &TerraformAttr, r: &Range) -> (Value, Diagnostics) {
        self.inner.get_terraform_attr(a, r)
    }
    fn get_input_variable(&self, a: &InputVariable, r: &Range) -> (Value, Diagnostics) {
        match &self.supplied {
            Supplied::Variable {
                name,
                value,
                sensitive,
            } if a.name == *name => {
                let v = if *sensitive {
                    value.mark(Mark::Sensitive)
                } else {
                    value.clone()
                };
                (v, Diagnostics::new())
            }
            _ => self.inner.get_input_variable(a, r),
        }
    }
}
