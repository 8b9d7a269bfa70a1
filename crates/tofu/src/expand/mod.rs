//! `count` and `for_each` (OpenTofu's `internal/lang/evalchecks`): turning
//! the meta-argument of a resource or module block into the set of instance
//! keys, with OpenTofu's diagnostics for every way the value can be wrong.

mod count;
mod for_each;
mod shell_quote;

pub use count::{evaluate_count, CountValue};
pub use for_each::{evaluate_for_each, ForEachValue};

use std::collections::BTreeMap;

use addrs::InstanceKey;
use cty::Value;

/// How a block repeats, and the keys of its instances.
#[derive(Debug, Clone)]
pub enum Expansion {
    /// No `count` or `for_each`: one instance with no key.
    Single,
    /// `count = N`: instances `[0]` … `[N-1]`.
    Count(i64),
    /// `for_each`: one instance per key, with its `each.value`.
    ForEach(BTreeMap<String, Value>),
    /// The keys cannot be known (validate, or an error already reported):
    /// `count.index` / `each.*` are unknown.
    Unknown { count: bool, for_each: bool },
}

/// What `count.index`, `each.key` and `each.value` mean in one instance
/// (OpenTofu's `instances.RepetitionData`).
#[derive(Debug, Clone, Default)]
pub struct Repetition {
    pub count_index: Option<Value>,
    pub each_key: Option<Value>,
    pub each_value: Option<Value>,
}

impl Expansion {
    /// Every instance key with its repetition data, in key order.
    pub fn instances(&self) -> Vec<(InstanceKey, Repetition)> {
        match self {
            Expansion::Single => vec![(InstanceKey::None, Repetition::default())],
            Expansion::Count(n) => (0..*n)
                .map(|i| {
                    (
                        InstanceKey::Int(i),
                        Repetition {
                            count_index: Some(Value::number_int(i)),
                            ..Repetition::default()
                        },
                    )
                })
                .collect(),
            Expansion::ForEach(map) => map
                .iter()
                .map(|(k, v)| {
                    (
                        InstanceKey::String(k.clone()),
                        Repetition {
                            each_key: Some(Value::string(k)),
                            each_value: Some(v.clone()),
                            ..Repetition::default()
                        },
                    )
                })
                .collect(),
            Expansion::Unknown { .. } => Vec::new(),
        }
    }

    /// The repetition data every instance of an unexpanded block sees
    /// (during validate): unknown index, key and value.
    pub fn unknown_repetition(&self) -> Repetition {
        match self {
            Expansion::Unknown {
                count: true,
                for_each: _,
            } => Repetition {
                count_index: Some(Value::unknown(cty::Type::Number)),
                ..Repetition::default()
            },
            Expansion::Unknown { for_each: true, .. } => Repetition {
                each_key: Some(Value::unknown(cty::Type::String)),
                each_value: Some(Value::dynamic()),
                ..Repetition::default()
            },
            _ => Repetition::default(),
        }
    }
}
