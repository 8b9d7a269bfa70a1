//! go-cty's msgpack encoding of values (`cty/msgpack`), the form of the
//! plugin protocol's `DynamicValue.msgpack`. A port of its semantics, byte
//! for byte on encoding:
//!
//! - null is msgpack nil; a wholly unknown value is the fixext1 `d4 00 00`
//!   (extension type 0). Values here carry no refinements, so nothing is
//!   encoded as go-cty's refined unknown (extension type 12); decoding
//!   reads one, checks it as go-cty does, and keeps what the value model
//!   can hold: a refinement to null gives null, and the refinements that
//!   pin a value down (equal inclusive number bounds, equal collection
//!   length bounds on a not-null value) give the value go-cty's
//!   `RefinementBuilder.NewValue` gives; other refinements are dropped.
//! - numbers: an integer that fits in int64 as the smallest int form; else
//!   a non-integer exactly representable as float64 as float64; else the
//!   decimal text (`Text('f', -1)`) as a string. ±Inf are float64.
//! - strings as str (fixstr/str8/16/32), bools as bool.
//! - lists, sets (in cty's set order) and tuples as arrays; maps as maps;
//!   objects as maps with their attributes in sorted order.
//! - where the type is `dynamic` (and the value's type is not), a 2-array
//!   of the value's type JSON as bin and the value encoded for that type.
//! - a marked value cannot be encoded.
//!
//! Where go-cty panics or keeps going on malformed input, this returns an
//! error: a map key that is not a string (go-cty builds the error and drops
//! it), list elements of different dynamic types (a panic in `cty.ListVal`).
//! An unknown refinement key's value is skipped (go-cty would read it as
//! the next key). Input nested deeper than [`MAX_DEPTH`] (only possible
//! through dynamic types) is an error instead of a deep recursion.

mod marshal;
mod reader;
mod unknown;
mod unmarshal;

#[cfg(test)]
mod tests;

use std::fmt;

use cty::{Path, PathStep, Value};

pub use marshal::marshal;
pub use unmarshal::unmarshal;

/// How deep decoding recurses before giving up. Types bound the depth of
/// encoded values, except that dynamic values bring their own types.
pub const MAX_DEPTH: usize = 1000;

/// Why a value could not be encoded or decoded, and where in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// Where in the value (empty for the value itself).
    pub path: Path,
    /// go-cty's message, e.g. "value has marks, so it cannot be serialized".
    pub message: String,
}

impl fmt::Display for Error {
    /// The message alone, as go-cty's `PathError` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// One step of the path to the value being worked on, turned into a
/// [`PathStep`] only when there is an error.
enum Step {
    Attr(String),
    Index(usize),
    Key(String),
    Element(Value),
}

#[derive(Default)]
struct Steps(Vec<Step>);

impl Steps {
    fn error(&self, message: impl Into<String>) -> Error {
        let steps = self
            .0
            .iter()
            .map(|s| match s {
                Step::Attr(name) => PathStep::GetAttr(name.clone()),
                Step::Index(i) => PathStep::Index(Value::number_int(*i as i64)),
                Step::Key(k) => PathStep::Index(Value::string(k)),
                Step::Element(v) => PathStep::Index(v.clone()),
            })
            .collect();
        Error {
            path: Path(steps),
            message: message.into(),
        }
    }
}
