//! The arguments each `module` block gives its child module, decoded once
//! per call and shared by the graph (edges) and the walk (values).

use std::collections::HashMap;
use std::sync::Arc;

use addrs::Module as ModulePath;
use configs::config::Config;
use hclsyntax::Attribute;

/// Call arguments by calling module path and call name, in source order.
#[derive(Default)]
pub struct CallArguments(HashMap<(ModulePath, String), Vec<Arc<Attribute>>>);

impl CallArguments {
    /// Every module call in the tree under `root`.
    pub fn new(root: &Config) -> CallArguments {
        let mut map = HashMap::new();
        for cfg in root.all() {
            for (name, call) in &cfg.module.module_calls {
                // Blocks in a call body were reported when it was decoded.
                let (attrs, _) = call.config.just_attributes();
                map.insert((cfg.path.clone(), name.clone()), attrs);
            }
        }
        CallArguments(map)
    }

    /// The arguments of call `call` made from module `parent`.
    pub fn of(&self, parent: &ModulePath, call: &str) -> &[Arc<Attribute>] {
        self.0
            .get(&(parent.clone(), call.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The argument for the child's variable `var`.
    pub fn argument(&self, parent: &ModulePath, call: &str, var: &str) -> Option<&Arc<Attribute>> {
        self.of(parent, call).iter().find(|a| a.name == var)
    }
}
