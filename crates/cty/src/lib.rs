//! cty: the type system and dynamic values of OpenTofu's configuration
//! language, mirroring Go's `zclconf/go-cty` (types, values, numbers,
//! conversion, JSON and console formatting). It knows nothing of syntax,
//! expressions or files.

pub mod convert;
pub mod format;
pub mod json;
pub mod marks;
pub mod number;
pub mod path;
pub mod types;
pub mod value;

pub use convert::{convert, convert_safe, unify, unify_unsafe, ConvertError};
pub use marks::{DeprecationCause, Mark, PathValueMarks, ValueMarks};
pub use number::{BigFloat, NanError, Number, ParseNumberError};
pub use path::{Path, PathStep};
pub use types::{ObjectType, Type};
pub use value::{Value, ValueError};
