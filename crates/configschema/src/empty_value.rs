//! `EmptyValue` (`internal/configs/configschema/empty_value.go`): the value
//! an empty block decodes to, ignoring required attributes and block
//! counts. A planned object starts from it where configuration is absent.

use cty::Value;

use crate::schema::{Attribute, Block, NestedBlock, NestingMode};

impl Block {
    /// A non-null object whose attributes are the empty values of the
    /// block's attributes and nested block types.
    pub fn empty_value(&self) -> Value {
        let mut vals: std::collections::BTreeMap<String, Value> = self
            .attributes
            .iter()
            .map(|(name, a)| (name.clone(), a.empty_value()))
            .collect();
        // Block types after attributes: where a schema wrongly declares
        // both under one name, OpenTofu's EmptyValue lets the block type
        // win (its ImpliedType lets the attribute win; InternalValidate
        // rejects such schemas).
        vals.extend(
            self.block_types
                .iter()
                .map(|(name, b)| (name.clone(), b.empty_value())),
        );
        Value::object(vals)
    }
}

impl Attribute {
    /// Null of the attribute's implied type.
    pub fn empty_value(&self) -> Value {
        Value::null(self.implied_type())
    }
}

impl NestedBlock {
    /// The value for no blocks of this type: null for single, the empty
    /// block for group, empty collections otherwise (an empty tuple or
    /// object where dynamic content makes the type a tuple or an object).
    pub fn empty_value(&self) -> Value {
        let ty = || self.block.implied_type();
        match self.nesting {
            NestingMode::Single => Value::null(ty()),
            NestingMode::Group => self.block.empty_value(),
            NestingMode::List => {
                let ty = ty();
                if ty.has_dynamic_types() {
                    Value::empty_tuple()
                } else {
                    Value::list_empty(ty)
                }
            }
            NestingMode::Map => {
                let ty = ty();
                if ty.has_dynamic_types() {
                    Value::empty_object()
                } else {
                    Value::map_empty(ty)
                }
            }
            NestingMode::Set => Value::set_empty(ty()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use cty::Type;

    use super::*;

    fn attr(ty: Type) -> Attribute {
        Attribute {
            optional: true,
            ..Attribute::new(ty)
        }
    }

    fn block(attrs: Vec<(&str, Attribute)>, blocks: Vec<(&str, NestedBlock)>) -> Block {
        Block {
            attributes: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            block_types: blocks
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            ..Block::default()
        }
    }

    // Cases from OpenTofu's empty_value_test.go.
    #[test]
    fn empty_values() {
        let inner = || block(vec![("str", attr(Type::String))], vec![]);
        let dynamic = || block(vec![("dyn", attr(Type::Dynamic))], vec![]);
        let b = block(
            vec![
                ("str", attr(Type::String)),
                ("list", attr(Type::list(Type::Number))),
            ],
            vec![
                ("single", NestedBlock::new(NestingMode::Single, inner())),
                ("group", NestedBlock::new(NestingMode::Group, inner())),
                ("list", NestedBlock::new(NestingMode::List, inner())),
                ("set", NestedBlock::new(NestingMode::Set, inner())),
                ("map", NestedBlock::new(NestingMode::Map, inner())),
                ("dlist", NestedBlock::new(NestingMode::List, dynamic())),
                ("dmap", NestedBlock::new(NestingMode::Map, dynamic())),
            ],
        );
        let str_obj = Type::object_from([("str", Type::String)]);
        let want = Value::object(BTreeMap::from([
            ("str".to_string(), Value::null(Type::String)),
            // The block type wins over the attribute of the same name.
            ("list".to_string(), Value::list_empty(str_obj.clone())),
            ("single".to_string(), Value::null(str_obj.clone())),
            (
                "group".to_string(),
                Value::object_from([("str", Value::null(Type::String))]),
            ),
            ("set".to_string(), Value::set_empty(str_obj.clone())),
            ("map".to_string(), Value::map_empty(str_obj)),
            ("dlist".to_string(), Value::empty_tuple()),
            ("dmap".to_string(), Value::empty_object()),
        ]));
        let got = b.empty_value();
        assert_eq!(got, want);
        let mut valid = b.clone();
        valid.attributes.remove("list");
        // It conforms to the implied type (dynamic parts are a tuple and an object).
        assert!(valid
            .empty_value()
            .ty()
            .test_conformance(&valid.implied_type())
            .is_empty());
    }
}
