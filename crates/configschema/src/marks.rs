//! Marks a value takes from its schema (`internal/configs/configschema/marks.go`):
//! sensitive attributes, and deprecated blocks and attributes.
//!
//! OpenTofu builds deprecation marks from the resource instance's address,
//! which this crate does not know; callers pass a function that makes the
//! mark for a path and the provider's message (Go's `subject`, `nil`
//! meaning no deprecation marks). OpenTofu's `Block.Ephemeral` (set by
//! OpenTofu itself on ephemeral resource schemas, never sent by a
//! provider) is not modelled: callers mark ephemeral values themselves.

use cty::{Mark, Path, PathStep, PathValueMarks, Value, ValueMarks};

use crate::schema::{Attribute, Block, NestingMode, Object, ObjectNesting};

/// Makes the deprecation mark for the value at a path, given the
/// provider's deprecation message.
pub type DeprecationMarker<'a> = &'a dyn Fn(&Path, &str) -> Mark;

impl Block {
    /// `Block.ValueMarks`: the marks the schema puts on `val` (found at
    /// `path`): sensitive attributes (even when null), deprecated
    /// attributes and blocks when `deprecation` is given, descending into
    /// nested attribute types and the nested blocks present in `val`.
    pub fn value_marks(
        &self,
        val: &Value,
        path: &Path,
        deprecation: Option<DeprecationMarker<'_>>,
    ) -> Vec<PathValueMarks> {
        let mut out = Vec::new();
        if let (true, Some(mark)) = (self.deprecated, deprecation) {
            out.push(PathValueMarks {
                path: path.clone(),
                marks: ValueMarks::from([mark(path, &self.deprecation_message)]),
            });
        }
        for (name, attr) in &self.attributes {
            let attr_path = path.get_attr(name);
            let marks = attribute_marks(attr, &attr_path, deprecation);
            if !marks.is_empty() {
                out.push(PathValueMarks {
                    path: attr_path,
                    marks,
                });
            }
        }
        if val.is_null() {
            return out;
        }
        for (name, attr) in &self.attributes {
            let Some(nested) = attr.nested_type() else {
                continue;
            };
            if !nested.contains_sensitive() && !nested.contains_deprecated() {
                continue;
            }
            let attr_val = val
                .get_attr(name)
                .unwrap_or_else(|| Value::null(attr.implied_type()));
            out.extend(nested.value_marks(&attr_val, &path.get_attr(name), deprecation));
        }
        for (name, nested) in &self.block_types {
            if !nested.block.contains_sensitive() && !nested.block.contains_deprecated() {
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
                    out.extend(
                        nested
                            .block
                            .value_marks(&block_val, &block_path, deprecation),
                    );
                }
                NestingMode::List | NestingMode::Set | NestingMode::Map => {
                    for (key, elem) in block_val.elements() {
                        out.extend(nested.block.value_marks(
                            &elem,
                            &block_path.index(key),
                            deprecation,
                        ));
                    }
                }
            }
        }
        out
    }

    /// True if any attribute of the block or of a block or nested type
    /// inside it is deprecated (`Block.ContainsDeprecated`; a deprecated
    /// block whose attributes are not does not count, as in OpenTofu).
    pub fn contains_deprecated(&self) -> bool {
        self.attributes.values().any(Attribute::contains_deprecated)
            || self
                .block_types
                .values()
                .any(|b| b.block.contains_deprecated())
    }
}

fn attribute_marks(
    attr: &Attribute,
    path: &Path,
    deprecation: Option<DeprecationMarker<'_>>,
) -> ValueMarks {
    let mut marks = ValueMarks::new();
    if attr.sensitive {
        marks.insert(Mark::Sensitive);
    }
    if let (true, Some(mark)) = (attr.deprecated, deprecation) {
        marks.insert(mark(path, &attr.deprecation_message));
    }
    marks
}

impl Attribute {
    fn contains_deprecated(&self) -> bool {
        self.deprecated || self.nested_type().is_some_and(Object::contains_deprecated)
    }
}

impl Object {
    /// True if any attribute inside is deprecated (`Object.ContainsDeprecated`).
    pub fn contains_deprecated(&self) -> bool {
        self.attributes.values().any(Attribute::contains_deprecated)
    }

    /// `Object.ValueMarks`: the marks of the attributes of a nested
    /// attribute type's value, element by element for collections.
    pub fn value_marks(
        &self,
        val: &Value,
        path: &Path,
        deprecation: Option<DeprecationMarker<'_>>,
    ) -> Vec<PathValueMarks> {
        let mut out = Vec::new();
        if val.is_null() || !val.is_known() {
            return out;
        }
        for (name, attr) in &self.attributes {
            let nested = attr.nested_type();
            let cant_be_sensitive =
                !attr.sensitive && !nested.is_some_and(Object::contains_sensitive);
            let cant_be_deprecated = deprecation.is_none()
                || (!attr.deprecated && !nested.is_some_and(Object::contains_deprecated));
            if cant_be_sensitive && cant_be_deprecated {
                continue;
            }
            let mut one = |attr_val: Value, attr_path: Path| {
                let marks = attribute_marks(attr, &attr_path, deprecation);
                if !marks.is_empty() {
                    out.push(PathValueMarks {
                        path: attr_path,
                        marks,
                    });
                } else if let Some(nested) = nested {
                    out.extend(nested.value_marks(&attr_val, &attr_path, deprecation));
                }
            };
            let attr_of = |v: &Value| {
                v.get_attr(name)
                    .unwrap_or_else(|| Value::null(attr.implied_type()))
            };
            match self.nesting {
                ObjectNesting::Single => one(attr_of(val), path.get_attr(name)),
                ObjectNesting::List | ObjectNesting::Set | ObjectNesting::Map => {
                    // Index first, then the attribute: one type stands for
                    // every element of the collection.
                    for (key, elem) in val.elements() {
                        let mut p = path.index(key);
                        p.0.push(PathStep::GetAttr(name.clone()));
                        one(attr_of(&elem), p);
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
    use std::sync::Arc;

    use cty::{DeprecationCause, Type};

    use super::*;
    use crate::schema::NestedBlock;

    fn attr(ty: Type, sensitive: bool) -> Attribute {
        Attribute {
            optional: true,
            sensitive,
            ..Attribute::new(ty)
        }
    }

    fn found(marks: &[PathValueMarks]) -> Vec<(String, Vec<String>)> {
        let mut v: Vec<(String, Vec<String>)> = marks
            .iter()
            .map(|m| {
                (
                    m.path.to_string(),
                    m.marks
                        .iter()
                        .map(|mk| match mk {
                            Mark::Sensitive => "sensitive".to_string(),
                            Mark::Deprecated(c) => format!("deprecated: {}", c.message),
                            other => format!("{other:?}"),
                        })
                        .collect(),
                )
            })
            .collect();
        v.sort();
        v
    }

    // After OpenTofu's marks_test.go.
    #[test]
    fn sensitive_and_deprecated_paths() {
        let nested_list = Object {
            nesting: ObjectNesting::List,
            attributes: BTreeMap::from([
                ("secret".to_string(), attr(Type::String, true)),
                ("plain".to_string(), attr(Type::String, false)),
            ]),
        };
        let block = Block {
            attributes: BTreeMap::from([
                ("sensitive".to_string(), attr(Type::String, true)),
                ("unsensitive".to_string(), attr(Type::String, false)),
                (
                    "old".to_string(),
                    Attribute {
                        deprecated: true,
                        deprecation_message: "use new".into(),
                        ..attr(Type::String, false)
                    },
                ),
                (
                    "nested".to_string(),
                    Attribute {
                        optional: true,
                        ..Attribute::nested(nested_list)
                    },
                ),
            ]),
            block_types: BTreeMap::from([(
                "list".to_string(),
                NestedBlock::new(
                    NestingMode::List,
                    Block {
                        attributes: BTreeMap::from([
                            ("sensitive".to_string(), attr(Type::String, true)),
                            ("unsensitive".to_string(), attr(Type::String, false)),
                        ]),
                        ..Block::default()
                    },
                ),
            )]),
            ..Block::default()
        };
        let obj = |secret: &str| {
            Value::object_from([
                ("secret", Value::string(secret)),
                ("plain", Value::string("p")),
            ])
        };
        let item = |s: &str| {
            Value::object_from([
                ("sensitive", Value::string(s)),
                ("unsensitive", Value::string("u")),
            ])
        };
        let val = Value::object_from([
            ("sensitive", Value::null(Type::String)),
            ("unsensitive", Value::unknown(Type::String)),
            ("old", Value::string("x")),
            (
                "nested",
                Value::list(obj("a").ty().clone(), vec![obj("a"), obj("b")]).expect("list"),
            ),
            (
                "list",
                Value::list(item("a").ty().clone(), vec![item("a"), item("b")]).expect("list"),
            ),
        ]);
        let deprecation = |path: &Path, message: &str| {
            Mark::Deprecated(Arc::new(DeprecationCause {
                module_instance: String::new(),
                name: format!("test_thing.x{path}"),
                message: message.to_string(),
            }))
        };
        let root = Path::root();
        assert_eq!(
            found(&block.value_marks(&val, &root, Some(&deprecation))),
            [
                (
                    ".list[0].sensitive".to_string(),
                    vec!["sensitive".to_string()]
                ),
                (
                    ".list[1].sensitive".to_string(),
                    vec!["sensitive".to_string()]
                ),
                (
                    ".nested[0].secret".to_string(),
                    vec!["sensitive".to_string()]
                ),
                (
                    ".nested[1].secret".to_string(),
                    vec!["sensitive".to_string()]
                ),
                (".old".to_string(), vec!["deprecated: use new".to_string()]),
                (".sensitive".to_string(), vec!["sensitive".to_string()]),
            ]
        );
        // Without a way to make deprecation marks there are none.
        assert!(block
            .value_marks(&val, &root, None)
            .iter()
            .all(|m| m.marks.contains(&Mark::Sensitive)));
        // A null value gets the marks of its own attributes only.
        assert_eq!(
            found(&block.value_marks(&Value::null(block.implied_type()), &root, None)),
            [(".sensitive".to_string(), vec!["sensitive".to_string()])]
        );
    }
}
