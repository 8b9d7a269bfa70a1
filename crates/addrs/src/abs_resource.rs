//! Absolute resource addresses (`internal/addrs/resource.go`
//! `AbsResource`, `AbsResourceInstance`): a resource, or one instance of
//! it, inside a particular module instance. These are the addresses a plan
//! prints: `module.a["x"].terraform_data.b[0]`.

use std::fmt;

use crate::{InstanceKey, Module, ModuleInstance, Resource, ResourceInstance};

/// A resource in a module of the configuration, before expansion
/// (`ConfigResource`): what validate names, `module.a.terraform_data.b`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConfigResource {
    pub module: Module,
    pub resource: Resource,
}

/// `module.a.terraform_data.b`
impl fmt::Display for ConfigResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_root() {
            write!(f, "{}.", self.module)?;
        }
        write!(f, "{}", self.resource)
    }
}

/// A resource in a module instance (all its instances).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsResource {
    pub module: ModuleInstance,
    pub resource: Resource,
}

impl AbsResource {
    /// The instance of this resource with `key`.
    pub fn instance(&self, key: InstanceKey) -> AbsResourceInstance {
        AbsResourceInstance {
            module: self.module.clone(),
            resource: ResourceInstance {
                resource: self.resource.clone(),
                key,
            },
        }
    }
}

/// One instance of a resource in a module instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsResourceInstance {
    pub module: ModuleInstance,
    pub resource: ResourceInstance,
}

impl AbsResourceInstance {
    /// The resource (all instances) this is an instance of.
    pub fn containing_resource(&self) -> AbsResource {
        AbsResource {
            module: self.module.clone(),
            resource: self.resource.resource.clone(),
        }
    }
}

fn write_module_prefix(f: &mut fmt::Formatter<'_>, module: &ModuleInstance) -> fmt::Result {
    if module.is_root() {
        Ok(())
    } else {
        write!(f, "{module}.")
    }
}

/// `module.a["x"].terraform_data.b`
impl fmt::Display for AbsResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_module_prefix(f, &self.module)?;
        write!(f, "{}", self.resource)
    }
}

/// `module.a["x"].terraform_data.b[0]`
impl fmt::Display for AbsResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_module_prefix(f, &self.module)?;
        write!(f, "{}", self.resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ResourceMode;

    #[test]
    fn config_resource_display() {
        let resource = Resource {
            mode: ResourceMode::Managed,
            type_name: "terraform_data".into(),
            name: "b".into(),
        };
        let root = ConfigResource {
            module: Module::root(),
            resource: resource.clone(),
        };
        assert_eq!(root.to_string(), "terraform_data.b");
        let nested = ConfigResource {
            module: Module::root().child("a").child("c"),
            resource,
        };
        assert_eq!(nested.to_string(), "module.a.module.c.terraform_data.b");
    }

    #[test]
    fn display() {
        let res = AbsResource {
            module: ModuleInstance::root().child("a", InstanceKey::String("x".into())),
            resource: Resource {
                mode: ResourceMode::Managed,
                type_name: "terraform_data".into(),
                name: "b".into(),
            },
        };
        assert_eq!(res.to_string(), r#"module.a["x"].terraform_data.b"#);
        assert_eq!(
            res.instance(InstanceKey::Int(0)).to_string(),
            r#"module.a["x"].terraform_data.b[0]"#
        );
        let root = AbsResource {
            module: ModuleInstance::root(),
            resource: Resource {
                mode: ResourceMode::Data,
                type_name: "t".into(),
                name: "n".into(),
            },
        };
        assert_eq!(root.instance(InstanceKey::None).to_string(), "data.t.n");
    }
}
