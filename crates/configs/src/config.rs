//! A whole configuration: the root module and every module it calls,
//! directly or not, as a tree (OpenTofu's `configs.Config`). Built by
//! [`build_config`](crate::config_build::build_config).

use std::collections::BTreeMap;
use std::path::PathBuf;

use addrs::ModuleSource;
use hclsyntax::Range;

use crate::module::Module;
use crate::version_constraint::Version;

/// One node of the module tree: a module and where it sits.
#[derive(Debug, Clone)]
pub struct Config {
    /// The module's declarations.
    pub module: Module,
    /// The module path from the root (empty for the root).
    pub path: addrs::Module,
    /// The directory the module was loaded from.
    pub dir: PathBuf,
    /// The modules this one calls, by call name. A call whose module could
    /// not be loaded is absent (its diagnostics say why).
    pub children: BTreeMap<String, Box<Config>>,
    /// The call's source address (`None` for the root).
    pub source_addr: Option<ModuleSource>,
    /// The `source` expression of the call (`None` for the root).
    pub source_addr_range: Option<Range>,
    /// The `module` block header of the call (`None` for the root).
    pub call_range: Option<Range>,
    /// The registry version installed, for registry modules.
    pub version: Option<Version>,
}

impl Config {
    /// The root of a tree with no children yet.
    pub fn root(module: Module) -> Config {
        Config {
            dir: module.source_dir.clone(),
            module,
            path: addrs::Module::root(),
            children: BTreeMap::new(),
            source_addr: None,
            source_addr_range: None,
            call_range: None,
            version: None,
        }
    }

    /// Whether this is the root module.
    pub fn is_root(&self) -> bool {
        self.path.0.is_empty()
    }

    /// The node at `path` below this one (`Config.Descendant`).
    pub fn descendant(&self, path: &[String]) -> Option<&Config> {
        let mut current = self;
        for name in path {
            current = current.children.get(name)?;
        }
        Some(current)
    }

    /// This node and every node below it, parents before children,
    /// siblings in call-name order (`Config.DeepEach`).
    pub fn all(&self) -> Vec<&Config> {
        let mut out = vec![self];
        for child in self.children.values() {
            out.extend(child.all());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(path: &[&str]) -> Config {
        let mut c = Config::root(Module::default());
        c.path = addrs::Module(path.iter().map(|s| s.to_string()).collect());
        c
    }

    #[test]
    fn all_is_depth_first_in_name_order() {
        let mut root = node(&[]);
        let mut a = node(&["a"]);
        a.children.insert("z".into(), Box::new(node(&["a", "z"])));
        root.children.insert("b".into(), Box::new(node(&["b"])));
        root.children.insert("a".into(), Box::new(a));
        let paths: Vec<String> = root.all().iter().map(|c| c.path.0.join(".")).collect();
        assert_eq!(paths, vec!["", "a", "a.z", "b"]);
        assert!(root.descendant(&["a".into(), "z".into()]).is_some());
        assert!(root.descendant(&["z".into()]).is_none());
    }
}
