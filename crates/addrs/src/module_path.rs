//! Module paths: the static path of a module in the configuration tree
//! (`Module`, `module.a.module.b`) and the dynamic path of a module
//! instance (`ModuleInstance`, `module.a["x"].module.b[0]`).

use std::fmt;

use crate::instance_key::InstanceKey;

/// The static path of a module: call names from the root. Empty is the
/// root module.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Module(pub Vec<String>);

impl Module {
    /// The root module.
    pub fn root() -> Module {
        Module(Vec::new())
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The path of the child called `name` from this module.
    pub fn child(&self, name: &str) -> Module {
        let mut steps = self.0.clone();
        steps.push(name.to_string());
        Module(steps)
    }

    /// The calling module, or `None` for the root.
    pub fn parent(&self) -> Option<Module> {
        let (_, parent) = self.0.split_last()?;
        Some(Module(parent.to_vec()))
    }
}

/// `module.a.module.b`; the root module prints as the empty string.
impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{name}")?;
        }
        Ok(())
    }
}

/// One step of a module instance path: a call name and instance key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleInstanceStep {
    pub name: String,
    pub instance_key: InstanceKey,
}

/// The dynamic path of a module instance. Empty is the root module.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ModuleInstance(pub Vec<ModuleInstanceStep>);

impl ModuleInstance {
    /// The root module instance.
    pub fn root() -> ModuleInstance {
        ModuleInstance(Vec::new())
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The instance `name[key]` called from this one.
    pub fn child(&self, name: &str, key: InstanceKey) -> ModuleInstance {
        let mut steps = self.0.clone();
        steps.push(ModuleInstanceStep {
            name: name.to_string(),
            instance_key: key,
        });
        ModuleInstance(steps)
    }

    /// The static module path, keys dropped.
    pub fn module(&self) -> Module {
        Module(self.0.iter().map(|s| s.name.clone()).collect())
    }
}

/// `module.a["x"].module.b[0]`; the root prints as the empty string.
impl fmt::Display for ModuleInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{}{}", step.name, step.instance_key)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        assert_eq!(Module::root().to_string(), "");
        assert_eq!(
            Module::root().child("a").child("b").to_string(),
            "module.a.module.b"
        );
        let inst = ModuleInstance::root()
            .child("a", InstanceKey::String("x".into()))
            .child("b", InstanceKey::Int(0))
            .child("c", InstanceKey::None);
        assert_eq!(inst.to_string(), r#"module.a["x"].module.b[0].module.c"#);
        assert_eq!(inst.module().to_string(), "module.a.module.b.module.c");
        assert_eq!(Module::root().child("a").parent(), Some(Module::root()));
        assert_eq!(Module::root().parent(), None);
    }
}
