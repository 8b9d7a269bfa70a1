//! The objects an expression can refer to (`internal/addrs`'s
//! `Referenceable` implementations), each printing as it is written.

use std::fmt;

use crate::instance_key::InstanceKey;

/// `var.NAME`
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InputVariable {
    pub name: String,
}

/// `local.NAME`
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalValue {
    pub name: String,
}

/// `output.NAME` (test files only; in modules outputs are not referenceable).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutputValue {
    pub name: String,
}

/// `module.NAME`: a module call, all its instances.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleCall {
    pub name: String,
}

/// `module.NAME[KEY]`: one instance of a module call.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleCallInstance {
    pub call: ModuleCall,
    pub key: InstanceKey,
}

/// `module.NAME[KEY].OUTPUT`: an output of one module instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleCallInstanceOutput {
    pub call: ModuleCallInstance,
    pub name: String,
}

/// Which kind of resource block declared a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceMode {
    /// `resource`
    Managed,
    /// `data`
    Data,
    /// `ephemeral`
    Ephemeral,
}

impl ResourceMode {
    /// The address prefix of the mode: `""`, `"data."`, `"ephemeral."`.
    pub fn prefix(self) -> &'static str {
        match self {
            ResourceMode::Managed => "",
            ResourceMode::Data => "data.",
            ResourceMode::Ephemeral => "ephemeral.",
        }
    }
}

/// `TYPE.NAME`, `data.TYPE.NAME` or `ephemeral.TYPE.NAME`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Resource {
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
}

/// One instance of a resource: the resource address and a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceInstance {
    pub resource: Resource,
    pub key: InstanceKey,
}

/// `count.NAME` (only `count.index` is valid at evaluation).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CountAttr {
    pub name: String,
}

/// `each.NAME` (`each.key`, `each.value`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ForEachAttr {
    pub name: String,
}

/// `path.NAME` (`path.module`, `path.root`, `path.cwd`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PathAttr {
    pub name: String,
}

/// `terraform.NAME` or `tofu.NAME`; `alias` is the symbol used.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerraformAttr {
    pub alias: String,
    pub name: String,
}

/// `check.NAME` (test files only).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Check {
    pub name: String,
}

/// Anything a reference can point at.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Referenceable {
    InputVariable(InputVariable),
    LocalValue(LocalValue),
    OutputValue(OutputValue),
    ModuleCall(ModuleCall),
    ModuleCallInstance(ModuleCallInstance),
    ModuleCallInstanceOutput(ModuleCallInstanceOutput),
    Resource(Resource),
    ResourceInstance(ResourceInstance),
    CountAttr(CountAttr),
    ForEachAttr(ForEachAttr),
    PathAttr(PathAttr),
    TerraformAttr(TerraformAttr),
    Check(Check),
    /// `self`, inside provisioner and connection blocks.
    Self_,
}

impl fmt::Display for ModuleCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "module.{}", self.name)
    }
}

impl fmt::Display for ModuleCallInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.call, self.key)
    }
}

impl fmt::Display for ModuleCallInstanceOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.call, self.name)
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}.{}", self.mode.prefix(), self.type_name, self.name)
    }
}

impl fmt::Display for ResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.resource, self.key)
    }
}

impl fmt::Display for Referenceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Referenceable::InputVariable(v) => write!(f, "var.{}", v.name),
            Referenceable::LocalValue(v) => write!(f, "local.{}", v.name),
            Referenceable::OutputValue(v) => write!(f, "output.{}", v.name),
            Referenceable::ModuleCall(v) => v.fmt(f),
            Referenceable::ModuleCallInstance(v) => v.fmt(f),
            Referenceable::ModuleCallInstanceOutput(v) => v.fmt(f),
            Referenceable::Resource(v) => v.fmt(f),
            Referenceable::ResourceInstance(v) => v.fmt(f),
            Referenceable::CountAttr(v) => write!(f, "count.{}", v.name),
            Referenceable::ForEachAttr(v) => write!(f, "each.{}", v.name),
            Referenceable::PathAttr(v) => write!(f, "path.{}", v.name),
            Referenceable::TerraformAttr(v) => write!(f, "{}.{}", v.alias, v.name),
            Referenceable::Check(v) => write!(f, "check.{}", v.name),
            Referenceable::Self_ => f.write_str("self"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let res = |mode, t: &str, n: &str| Resource {
            mode,
            type_name: t.into(),
            name: n.into(),
        };
        let call = ModuleCallInstance {
            call: ModuleCall { name: "m".into() },
            key: InstanceKey::String("k".into()),
        };
        let cases = [
            (
                Referenceable::InputVariable(InputVariable { name: "x".into() }),
                "var.x",
            ),
            (
                Referenceable::LocalValue(LocalValue { name: "x".into() }),
                "local.x",
            ),
            (
                Referenceable::Resource(res(ResourceMode::Managed, "aws_instance", "foo")),
                "aws_instance.foo",
            ),
            (
                Referenceable::Resource(res(ResourceMode::Data, "x", "y")),
                "data.x.y",
            ),
            (
                Referenceable::Resource(res(ResourceMode::Ephemeral, "x", "y")),
                "ephemeral.x.y",
            ),
            (
                Referenceable::ResourceInstance(ResourceInstance {
                    resource: res(ResourceMode::Managed, "a", "b"),
                    key: InstanceKey::Int(1),
                }),
                "a.b[1]",
            ),
            (
                Referenceable::ModuleCallInstance(call.clone()),
                r#"module.m["k"]"#,
            ),
            (
                Referenceable::ModuleCallInstanceOutput(ModuleCallInstanceOutput {
                    call,
                    name: "out".into(),
                }),
                r#"module.m["k"].out"#,
            ),
            (
                Referenceable::TerraformAttr(TerraformAttr {
                    alias: "tofu".into(),
                    name: "workspace".into(),
                }),
                "tofu.workspace",
            ),
            (Referenceable::Self_, "self"),
        ];
        for (r, want) in cases {
            assert_eq!(r.to_string(), want);
        }
    }
}
