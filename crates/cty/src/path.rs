//! Paths into values, used by conversion errors and per-path marks.

use std::fmt;

use crate::value::Value;

/// One step of a [`Path`].
#[derive(Clone, Debug, PartialEq)]
pub enum PathStep {
    /// `.name` on an object.
    GetAttr(String),
    /// `[key]` on a list, map, set or tuple (sets use the element itself).
    Index(Value),
}

/// A path from a root value to a nested one (Go `cty.Path`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path(pub Vec<PathStep>);

impl Path {
    /// The empty path.
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// A copy extended with `.name`.
    pub fn get_attr(&self, name: &str) -> Path {
        let mut p = self.clone();
        p.0.push(PathStep::GetAttr(name.to_string()));
        p
    }

    /// A copy extended with `[key]`.
    pub fn index(&self, key: Value) -> Path {
        let mut p = self.clone();
        p.0.push(PathStep::Index(key));
        p
    }

    /// A copy extended with `[i]`.
    pub fn index_int(&self, i: usize) -> Path {
        self.index(Value::number_int(i as i64))
    }

    /// True for the root path.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Path {
    /// Terraform's `tfdiags.FormatCtyPath`: `.a["k"][0]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.0 {
            match step {
                PathStep::GetAttr(name) => write!(f, ".{name}")?,
                PathStep::Index(key) => {
                    let key = key.unmark();
                    f.write_str("[")?;
                    if key.is_null() {
                        f.write_str("null")?;
                    } else if !key.is_known() {
                        f.write_str("(not yet known)")?;
                    } else if let Some(n) = key.as_number() {
                        f.write_str(&n.text('g', -1))?;
                    } else if let Some(s) = key.as_str() {
                        f.write_str(&crate::format::go_quote(s))?;
                    } else {
                        f.write_str("...")?;
                    }
                    f.write_str("]")?;
                }
            }
        }
        Ok(())
    }
}
