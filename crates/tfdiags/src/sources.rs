//! The loaded source files renderers quote code from (OpenTofu passes a
//! `map[string]*hcl.File` around for this).

use std::collections::HashMap;
use std::sync::Arc;

use hclsyntax::SourceFile;

/// Source files by the name they were loaded under (the `filename` of the
/// ranges pointing into them).
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: HashMap<Arc<str>, Arc<SourceFile>>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds (or replaces) a file under its own name.
    pub fn insert(&mut self, file: Arc<SourceFile>) {
        self.files.insert(file.name().clone(), file);
    }

    /// Adds a file given by name and text.
    pub fn add(&mut self, name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Arc<SourceFile> {
        let file = Arc::new(SourceFile::new(name, text));
        self.insert(file.clone());
        file
    }

    pub fn get(&self, filename: &str) -> Option<&Arc<SourceFile>> {
        self.files.get(filename)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<SourceFile>> {
        self.files.values()
    }
}

impl FromIterator<Arc<SourceFile>> for SourceMap {
    fn from_iter<T: IntoIterator<Item = Arc<SourceFile>>>(iter: T) -> Self {
        let mut m = SourceMap::new();
        for f in iter {
            m.insert(f);
        }
        m
    }
}

impl Extend<Arc<SourceFile>> for SourceMap {
    fn extend<T: IntoIterator<Item = Arc<SourceFile>>>(&mut self, iter: T) {
        for f in iter {
            self.insert(f);
        }
    }
}
