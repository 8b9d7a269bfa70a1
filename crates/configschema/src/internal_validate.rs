//! `Block.InternalValidate` (`internal/configs/configschema/internal_validate.go`):
//! the checks OpenTofu runs on every schema a provider sends, before using
//! it, with OpenTofu's texts.
//!
//! Go collects the problems in a multierror while ranging over maps, so its
//! order varies from run to run; here attributes come first, then block
//! types, each by name. Go's checks for nil schemas, for an attribute with
//! both or neither of `Type` and `NestedType`, and for an invalid nesting
//! mode have no counterpart: [`crate::schema`]'s types cannot hold those
//! states (decoders reject them instead).

use std::fmt;

use crate::schema::{Attribute, AttributeType, Block, NestingMode, ObjectNesting};

/// What is wrong with one element of a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// An attribute with none of optional, required and computed.
    NoMode,
    /// An attribute both optional and required.
    OptionalAndRequired,
    /// An attribute both computed and required.
    ComputedAndRequired,
    /// A block type named like an attribute of the same block.
    NameIsAttributeAndBlock,
    /// A block type name outside `^[a-z0-9_]+$`.
    InvalidBlockTypeName,
    /// A negative item limit.
    NegativeItems,
    /// Single nesting with different minimum and maximum.
    SingleItemsDiffer,
    /// Single nesting with limits other than 0 or 1.
    SingleItemsRange,
    /// Group nesting with item limits.
    GroupItems,
    /// List or set nesting with a minimum above the maximum.
    MinAboveMax(NestingMode),
    /// Set nesting (blocks or nested attributes) around a dynamically-typed attribute.
    DynamicInSet,
    /// Map nesting with item limits.
    MapItems,
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemKind::NoMode => f.write_str("must set Optional, Required or Computed"),
            ProblemKind::OptionalAndRequired => {
                f.write_str("cannot set both Optional and Required")
            }
            ProblemKind::ComputedAndRequired => {
                f.write_str("cannot set both Computed and Required")
            }
            ProblemKind::NameIsAttributeAndBlock => {
                f.write_str("name defined as both attribute and child block type")
            }
            ProblemKind::InvalidBlockTypeName => {
                f.write_str("name may contain only lowercase letters, digits and underscores")
            }
            ProblemKind::NegativeItems => {
                f.write_str("MinItems and MaxItems must both be greater than zero")
            }
            ProblemKind::SingleItemsDiffer => {
                f.write_str("MinItems and MaxItems must match in NestingSingle mode")
            }
            ProblemKind::SingleItemsRange => f.write_str(
                "MinItems and MaxItems must be set to either 0 or 1 in NestingSingle mode",
            ),
            ProblemKind::GroupItems => {
                f.write_str("MinItems and MaxItems cannot be used in NestingGroup mode")
            }
            ProblemKind::MinAboveMax(mode) => write!(
                f,
                "MinItems must be less than or equal to MaxItems in {mode} mode"
            ),
            ProblemKind::DynamicInSet => {
                f.write_str("NestingSet blocks may not contain attributes of cty.DynamicPseudoType")
            }
            ProblemKind::MapItems => {
                f.write_str("MinItems and MaxItems must both be 0 in NestingMap mode")
            }
        }
    }
}

/// One problem: where (`parent.child.name`, as OpenTofu prefixes it) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaProblem {
    /// The dotted names of the enclosing block types and the element's own name.
    pub path: String,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.kind)
    }
}

/// Every problem `InternalValidate` found in a schema (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidSchema {
    /// The problems, attributes before block types, each by name.
    pub problems: Vec<SchemaProblem>,
}

impl fmt::Display for InvalidSchema {
    /// go-multierror's format, which OpenTofu quotes in its diagnostics:
    /// `1 error occurred:\n\t* a: ...\n\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        if n == 1 {
            f.write_str("1 error occurred:\n\t")?;
        } else {
            write!(f, "{n} errors occurred:\n\t")?;
        }
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\t")?;
            }
            write!(f, "* {p}")?;
        }
        f.write_str("\n\n")
    }
}

impl std::error::Error for InvalidSchema {}

fn valid_block_type_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

impl Block {
    /// `Block.InternalValidate`: whether the schema keeps the documented
    /// rules, as OpenTofu checks every schema a provider sends.
    pub fn internal_validate(&self) -> Result<(), InvalidSchema> {
        let mut problems = Vec::new();
        validate_block(self, "", &mut problems);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(InvalidSchema { problems })
        }
    }
}

fn validate_block(block: &Block, prefix: &str, out: &mut Vec<SchemaProblem>) {
    for (name, attr) in &block.attributes {
        validate_attribute(attr, name, prefix, out);
    }
    for (name, nested) in &block.block_types {
        let mut problem = |kind| {
            out.push(SchemaProblem {
                path: format!("{prefix}{name}"),
                kind,
            })
        };
        if block.attributes.contains_key(name) {
            problem(ProblemKind::NameIsAttributeAndBlock);
        } else if !valid_block_type_name(name) {
            problem(ProblemKind::InvalidBlockTypeName);
        }
        let (min, max) = (nested.min_items, nested.max_items);
        if min < 0 || max < 0 {
            problem(ProblemKind::NegativeItems);
        }
        match nested.nesting {
            NestingMode::Single => {
                if min != max {
                    problem(ProblemKind::SingleItemsDiffer);
                } else if !(0..=1).contains(&min) {
                    problem(ProblemKind::SingleItemsRange);
                }
            }
            NestingMode::Group => {
                if min != 0 || max != 0 {
                    problem(ProblemKind::GroupItems);
                }
            }
            NestingMode::List | NestingMode::Set => {
                if min > max && max != 0 {
                    problem(ProblemKind::MinAboveMax(nested.nesting));
                }
                if nested.nesting == NestingMode::Set
                    && nested.block.implied_type().has_dynamic_types()
                {
                    problem(ProblemKind::DynamicInSet);
                }
            }
            NestingMode::Map => {
                if min != 0 || max != 0 {
                    problem(ProblemKind::MapItems);
                }
            }
        }
        validate_block(&nested.block, &format!("{prefix}{name}."), out);
    }
}

fn validate_attribute(attr: &Attribute, name: &str, prefix: &str, out: &mut Vec<SchemaProblem>) {
    let mut problem = |kind| {
        out.push(SchemaProblem {
            path: format!("{prefix}{name}"),
            kind,
        })
    };
    if !attr.optional && !attr.required && !attr.computed {
        problem(ProblemKind::NoMode);
    }
    if attr.optional && attr.required {
        problem(ProblemKind::OptionalAndRequired);
    }
    if attr.computed && attr.required {
        problem(ProblemKind::ComputedAndRequired);
    }
    if let AttributeType::Nested(object) = &attr.ty {
        if object.nesting == ObjectNesting::Set && attr.implied_type().has_dynamic_types() {
            problem(ProblemKind::DynamicInSet);
        }
        // OpenTofu checks nested attributes with the enclosing prefix, not
        // with this attribute's name, so their problems are reported
        // without it; kept, since the texts are OpenTofu's.
        for (child_name, child) in &object.attributes {
            validate_attribute(child, child_name, prefix, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use cty::Type;

    use super::*;
    use crate::schema::{NestedBlock, Object};

    fn attr(ty: Type, optional: bool, required: bool, computed: bool) -> Attribute {
        Attribute {
            optional,
            required,
            computed,
            ..Attribute::new(ty)
        }
    }

    fn errors(b: &Block) -> Vec<String> {
        match b.internal_validate() {
            Ok(()) => Vec::new(),
            Err(e) => e.problems.iter().map(ToString::to_string).collect(),
        }
    }

    fn block_with(name: &str, nested: NestedBlock) -> Block {
        Block {
            block_types: BTreeMap::from([(name.to_string(), nested)]),
            ..Block::default()
        }
    }

    fn limits(nesting: NestingMode, min: i64, max: i64) -> NestedBlock {
        NestedBlock {
            min_items: min,
            max_items: max,
            ..NestedBlock::new(nesting, Block::default())
        }
    }

    // Cases from OpenTofu's internal_validate_test.go.
    #[test]
    fn attribute_modes() {
        let b = Block {
            attributes: BTreeMap::from([
                ("a".into(), attr(Type::String, false, false, false)),
                ("b".into(), attr(Type::String, true, true, false)),
                ("c".into(), attr(Type::String, false, true, true)),
                ("ok".into(), attr(Type::String, true, false, true)),
            ]),
            ..Block::default()
        };
        assert_eq!(
            errors(&b),
            [
                "a: must set Optional, Required or Computed",
                "b: cannot set both Optional and Required",
                "c: cannot set both Computed and Required",
            ]
        );
    }

    #[test]
    fn block_limits() {
        use NestingMode::*;
        let cases = [
            (limits(Single, 0, 0), vec![]),
            (limits(Single, 1, 1), vec![]),
            (
                limits(Single, 0, 1),
                vec!["foo: MinItems and MaxItems must match in NestingSingle mode"],
            ),
            (
                limits(Single, 2, 2),
                vec![
                    "foo: MinItems and MaxItems must be set to either 0 or 1 in NestingSingle mode",
                ],
            ),
            (
                limits(Group, 1, 1),
                vec!["foo: MinItems and MaxItems cannot be used in NestingGroup mode"],
            ),
            (limits(List, 2, 0), vec![]),
            (
                limits(List, 3, 2),
                vec!["foo: MinItems must be less than or equal to MaxItems in NestingList mode"],
            ),
            (
                limits(Set, 3, 2),
                vec!["foo: MinItems must be less than or equal to MaxItems in NestingSet mode"],
            ),
            (
                limits(List, -1, 0),
                vec!["foo: MinItems and MaxItems must both be greater than zero"],
            ),
            (
                limits(Map, 0, 1),
                vec!["foo: MinItems and MaxItems must both be 0 in NestingMap mode"],
            ),
        ];
        for (nested, want) in cases {
            let label = format!(
                "{:?} {} {}",
                nested.nesting, nested.min_items, nested.max_items
            );
            assert_eq!(errors(&block_with("foo", nested)), want, "{label}");
        }
    }

    #[test]
    fn names_and_dynamic_sets() {
        let mut b = block_with("Bad-Name", limits(NestingMode::List, 0, 0));
        b.attributes
            .insert("dup".into(), attr(Type::String, true, false, false));
        b.block_types
            .insert("dup".into(), limits(NestingMode::List, 0, 0));
        let dynamic_set = NestedBlock::new(
            NestingMode::Set,
            Block {
                attributes: BTreeMap::from([(
                    "any".into(),
                    attr(Type::Dynamic, true, false, false),
                )]),
                ..Block::default()
            },
        );
        b.block_types.insert("dyn".into(), dynamic_set);
        assert_eq!(
            errors(&b),
            [
                "Bad-Name: name may contain only lowercase letters, digits and underscores",
                "dup: name defined as both attribute and child block type",
                "dyn: NestingSet blocks may not contain attributes of cty.DynamicPseudoType",
            ]
        );
    }

    #[test]
    fn nested_problems_carry_prefixes() {
        let inner = Block {
            attributes: BTreeMap::from([
                ("x".into(), attr(Type::String, false, false, false)),
                (
                    "nested".into(),
                    Attribute {
                        optional: true,
                        ..Attribute::nested(Object {
                            nesting: ObjectNesting::Set,
                            attributes: BTreeMap::from([(
                                "y".into(),
                                attr(Type::Dynamic, false, true, true),
                            )]),
                        })
                    },
                ),
            ]),
            ..Block::default()
        };
        let b = block_with(
            "outer",
            NestedBlock::new(
                NestingMode::List,
                block_with("inner", NestedBlock::new(NestingMode::Single, inner)),
            ),
        );
        assert_eq!(
            errors(&b),
            [
                "outer.inner.nested: NestingSet blocks may not contain attributes of cty.DynamicPseudoType",
                "outer.inner.y: cannot set both Computed and Required",
                "outer.inner.x: must set Optional, Required or Computed",
            ]
        );
        let e = b.internal_validate().unwrap_err();
        assert!(e
            .to_string()
            .starts_with("3 errors occurred:\n\t* outer.inner.nested: "));
        assert!(e
            .to_string()
            .ends_with("must set Optional, Required or Computed\n\n"));
    }
}
