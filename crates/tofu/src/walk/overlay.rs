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

pub struct WithVariable<'a> {
    pub inner: &'a InstanceData<'a>,
    pub name: &'a str,
    pub value: Value,
    pub sensitive: bool,
}

impl Data for WithVariable<'_> {
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
        self.inner.get_resource(a, r)
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
        if a.name == self.name {
            let v = if self.sensitive {
                self.value.mark(Mark::Sensitive)
            } else {
                self.value.clone()
            };
            return (v, Diagnostics::new());
        }
        self.inner.get_input_variable(a, r)
    }
}

/// The instance's data with `resource` answering `value`: the planned
/// object of the instance whose postconditions run (`self`).
pub struct WithSelf<'a> {
    pub inner: &'a InstanceData<'a>,
    pub resource: &'a Resource,
    pub value: Value,
}

impl Data for WithSelf<'_> {
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
        if a == self.resource {
            return (self.value.clone(), Diagnostics::new());
        }
        self.inner.get_resource(a, r)
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
        self.inner.get_input_variable(a, r)
    }
}
