//! Looking up attributes by path (`internal/configs/configschema/path.go`)
//! and the schema with nothing required (`none_required.go`).

use cty::{Path, PathStep};

use crate::schema::{Attribute, Block, Object};

impl Block {
    /// `Block.AttributeByPath`: the attribute a value path leads to,
    /// through nested blocks (index steps into their collections are
    /// skipped) and nested attribute types; `None` when the path ends
    /// elsewhere or goes on past an attribute without a nested type.
    pub fn attribute_by_path(&self, path: &Path) -> Option<&Attribute> {
        let mut block = self;
        for (i, step) in path.0.iter().enumerate() {
            let PathStep::GetAttr(name) = step else {
                continue;
            };
            if let Some(attr) = block.attributes.get(name) {
                return attribute_then(attr, &path.0[i + 1..]);
            }
            block = &block.block_types.get(name)?.block;
        }
        None
    }

    /// `Block.NoneRequired`: a copy with every required attribute optional
    /// and no nested block limits (nested attribute types keep theirs).
    pub fn none_required(&self) -> Block {
        let mut b = self.clone();
        make_none_required(&mut b);
        b
    }
}

fn make_none_required(b: &mut Block) {
    for attr in b.attributes.values_mut() {
        attr.optional = true;
        attr.required = false;
    }
    for nested in b.block_types.values_mut() {
        nested.min_items = 0;
        nested.max_items = 0;
        make_none_required(&mut nested.block);
    }
}

impl Object {
    /// `Object.AttributeByPath`: as [`Block::attribute_by_path`], inside a
    /// nested attribute type.
    pub fn attribute_by_path(&self, path: &Path) -> Option<&Attribute> {
        self.attribute_by_steps(&path.0)
    }

    fn attribute_by_steps(&self, steps: &[PathStep]) -> Option<&Attribute> {
        for (i, step) in steps.iter().enumerate() {
            if let PathStep::GetAttr(name) = step {
                if let Some(attr) = self.attributes.get(name) {
                    return attribute_then(attr, &steps[i + 1..]);
                }
            }
        }
        None
    }
}

/// The attribute itself when the path ends at it, else what its nested
/// type holds at the rest of the path.
fn attribute_then<'a>(attr: &'a Attribute, rest: &[PathStep]) -> Option<&'a Attribute> {
    if rest.is_empty() {
        return Some(attr);
    }
    attr.nested_type()?.attribute_by_steps(rest)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use cty::{Type, Value};

    use super::*;
    use crate::schema::{NestedBlock, NestingMode, ObjectNesting};

    fn attr(desc: &str) -> Attribute {
        Attribute {
            description: desc.into(),
            required: true,
            ..Attribute::new(Type::String)
        }
    }

    fn schema() -> Block {
        let nested = Object {
            nesting: ObjectNesting::List,
            attributes: BTreeMap::from([
                ("nt1".to_string(), attr("nt1")),
                (
                    "nt2".to_string(),
                    Attribute {
                        description: "nt2".into(),
                        ..Attribute::nested(Object {
                            nesting: ObjectNesting::Single,
                            attributes: BTreeMap::from([("deep".to_string(), attr("deep"))]),
                        })
                    },
                ),
            ]),
        };
        let inner = Block {
            attributes: BTreeMap::from([("b1a1".to_string(), attr("b1a1"))]),
            ..Block::default()
        };
        Block {
            attributes: BTreeMap::from([
                ("a1".to_string(), attr("a1")),
                (
                    "nt".to_string(),
                    Attribute {
                        description: "nt".into(),
                        ..Attribute::nested(nested)
                    },
                ),
            ]),
            block_types: BTreeMap::from([(
                "b1".to_string(),
                NestedBlock {
                    min_items: 1,
                    max_items: 3,
                    ..NestedBlock::new(NestingMode::List, inner)
                },
            )]),
            ..Block::default()
        }
    }

    fn path(steps: &[&str]) -> Path {
        Path(
            steps
                .iter()
                .map(|s| match s.parse::<i64>() {
                    Ok(i) => PathStep::Index(Value::number_int(i)),
                    Err(_) => PathStep::GetAttr((*s).to_string()),
                })
                .collect(),
        )
    }

    // Cases from OpenTofu's path_test.go.
    #[test]
    fn attributes_by_path() {
        let b = schema();
        let cases: [(&[&str], Option<&str>); 9] = [
            (&["a1"], Some("a1")),
            (&["b1", "0", "b1a1"], Some("b1a1")),
            (&["nt"], Some("nt")),
            (&["nt", "0", "nt1"], Some("nt1")),
            (&["nt", "0", "nt2", "deep"], Some("deep")),
            (&["a1", "x"], None),
            (&["b1"], None),
            (&["nope"], None),
            (&["nt", "0", "nope"], None),
        ];
        for (steps, want) in cases {
            let got = b
                .attribute_by_path(&path(steps))
                .map(|a| a.description.as_str());
            assert_eq!(got, want, "{steps:?}");
        }
    }

    #[test]
    fn none_required() {
        let b = schema().none_required();
        assert!(b.attributes.values().all(|a| a.optional && !a.required));
        let b1 = &b.block_types["b1"];
        assert_eq!((b1.min_items, b1.max_items), (0, 0));
        assert!(b1.block.attributes["b1a1"].optional);
        // Nested attribute types are left as they are, as in OpenTofu.
        let nt = b.attributes["nt"].nested_type().expect("nested");
        assert!(nt.attributes["nt1"].required);
    }
}
