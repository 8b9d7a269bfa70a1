//! Where write-only attributes are in a value
//! (`internal/configs/configschema/write_only.go`).

use cty::{Path, PathStep, Value};

use crate::schema::{Attribute, Block, NestingMode, Object, ObjectNesting};

impl Block {
    /// `Block.WriteOnlyPaths`: the paths (below `path`) of the write-only
    /// attributes in `val`, through nested attribute types and the nested
    /// blocks present; none in a null or unknown value.
    pub fn write_only_paths(&self, val: &Value, path: &Path) -> Vec<Path> {
        let mut out = Vec::new();
        if val.is_null() || !val.is_known() {
            return out;
        }
        for (name, attr) in &self.attributes {
            if attr.write_only {
                out.push(path.get_attr(name));
            }
        }
        for (name, attr) in &self.attributes {
            let Some(nested) = attr.nested_type().filter(|o| o.contains_write_only()) else {
                continue;
            };
            if let Some(attr_val) = val.get_attr(name) {
                out.extend(nested.write_only_paths(&attr_val, &path.get_attr(name)));
            }
        }
        for (name, nested) in &self.block_types {
            if !nested.block.contains_write_only() {
                continue;
            }
            let Some(block_val) = val.get_attr(name) else {
                continue;
            };
            if block_val.is_null() || !block_val.is_known() {
                continue;
            }
            let block_path = path.get_attr(name);
            match nested.nesting {
                NestingMode::Single | NestingMode::Group => {
                    out.extend(nested.block.write_only_paths(&block_val, &block_path));
                }
                NestingMode::List | NestingMode::Set | NestingMode::Map => {
                    for (key, elem) in block_val.elements() {
                        out.extend(nested.block.write_only_paths(&elem, &block_path.index(key)));
                    }
                }
            }
        }
        out
    }

    /// True if any attribute of the block or of a block or nested type
    /// inside it is write-only (`Block.ContainsWriteOnly`).
    pub fn contains_write_only(&self) -> bool {
        self.attributes.values().any(Attribute::contains_write_only)
            || self
                .block_types
                .values()
                .any(|b| b.block.contains_write_only())
    }

    /// `Block.PathSetContainsWriteOnly`: whether any of `paths` is the path
    /// of a write-only attribute in `val`.
    pub fn paths_contain_write_only(&self, val: &Value, paths: &[Path]) -> bool {
        self.write_only_paths(val, &Path::root())
            .iter()
            .any(|p| paths.contains(p))
    }
}

impl Attribute {
    fn contains_write_only(&self) -> bool {
        self.write_only || self.nested_type().is_some_and(Object::contains_write_only)
    }
}

impl Object {
    /// True if any attribute inside is write-only (`Object.ContainsWriteOnly`).
    pub fn contains_write_only(&self) -> bool {
        self.attributes.values().any(Attribute::contains_write_only)
    }

    /// `Object.WriteOnlyPaths`: as [`Block::write_only_paths`], in a nested
    /// attribute type's value, element by element for collections.
    pub fn write_only_paths(&self, val: &Value, path: &Path) -> Vec<Path> {
        let mut out = Vec::new();
        if val.is_null() || !val.is_known() {
            return out;
        }
        for (name, attr) in &self.attributes {
            if !attr.contains_write_only() {
                continue;
            }
            let mut one = |attr_val: Option<Value>, attr_path: Path| {
                if attr.write_only {
                    out.push(attr_path);
                } else if let (Some(nested), Some(v)) = (attr.nested_type(), attr_val) {
                    out.extend(nested.write_only_paths(&v, &attr_path));
                }
            };
            match self.nesting {
                ObjectNesting::Single => one(val.get_attr(name), path.get_attr(name)),
                ObjectNesting::List | ObjectNesting::Set | ObjectNesting::Map => {
                    for (key, elem) in val.elements() {
                        let mut p = path.index(key);
                        p.0.push(PathStep::GetAttr(name.clone()));
                        one(elem.get_attr(name), p);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use cty::Type;

    use super::*;
    use crate::schema::NestedBlock;

    fn attr(write_only: bool) -> Attribute {
        Attribute {
            optional: true,
            write_only,
            ..Attribute::new(Type::String)
        }
    }

    #[test]
    fn write_only_paths() {
        let map_nested = Object {
            nesting: ObjectNesting::Map,
            attributes: BTreeMap::from([
                ("wo".to_string(), attr(true)),
                ("plain".to_string(), attr(false)),
            ]),
        };
        let block = Block {
            attributes: BTreeMap::from([
                ("wo".to_string(), attr(true)),
                ("plain".to_string(), attr(false)),
                (
                    "m".to_string(),
                    Attribute {
                        optional: true,
                        ..Attribute::nested(map_nested)
                    },
                ),
            ]),
            block_types: BTreeMap::from([(
                "set".to_string(),
                NestedBlock::new(
                    NestingMode::Set,
                    Block {
                        attributes: BTreeMap::from([("wo".to_string(), attr(true))]),
                        ..Block::default()
                    },
                ),
            )]),
            ..Block::default()
        };
        let m_elem = |s: &str| {
            Value::object_from([
                ("wo", Value::null(Type::String)),
                ("plain", Value::string(s)),
            ])
        };
        let val = Value::object_from([
            ("wo", Value::null(Type::String)),
            ("plain", Value::string("x")),
            (
                "m",
                Value::map(
                    m_elem("a").ty().clone(),
                    BTreeMap::from([("k".to_string(), m_elem("a"))]),
                )
                .expect("map"),
            ),
            (
                "set",
                Value::set(
                    Type::object_from([("wo", Type::String)]),
                    vec![Value::object_from([("wo", Value::string("s"))])],
                )
                .expect("set"),
            ),
        ]);
        let mut got: Vec<String> = block
            .write_only_paths(&val, &Path::root())
            .iter()
            .map(ToString::to_string)
            .collect();
        got.sort();
        assert_eq!(got, [".m[\"k\"].wo", ".set[...].wo", ".wo"]);
        assert!(block.contains_write_only());
        assert!(block.paths_contain_write_only(&val, &[Path::root().get_attr("wo")]));
        assert!(!block.paths_contain_write_only(&val, &[Path::root().get_attr("plain")]));
        assert!(block
            .write_only_paths(&Value::unknown(block.implied_type()), &Path::root())
            .is_empty());
    }
}
