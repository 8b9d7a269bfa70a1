//! Immutable dynamic values: type, known/unknown, null, marks and payload.

mod marking;
mod ops;
mod set;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, LazyLock};

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

use crate::marks::{Mark, ValueMarks};
use crate::number::Number;
use crate::types::Type;

pub use set::{set_hash, set_hash_bytes};

/// Error from building or operating on values with the wrong shapes
/// (where Go cty would panic).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// What went wrong.
    pub msg: String,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for ValueError {}

pub(crate) fn verr(msg: impl Into<String>) -> ValueError {
    ValueError { msg: msg.into() }
}

/// The payload of a value.
#[derive(Clone, Debug)]
pub(crate) enum Data {
    Unknown,
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    /// Lists, sets (in cty set order) and tuples.
    Seq(Vec<Value>),
    /// Maps and objects.
    Attrs(BTreeMap<String, Value>),
}

#[derive(Debug)]
struct Inner {
    ty: Type,
    data: Data,
    /// The value's own marks; `None` when there are none (nearly always),
    /// so that plain values neither store nor drop a set.
    marks: Option<Box<ValueMarks>>,
    /// True when the value or anything inside it is marked, computed once
    /// at construction so that [`Value::contains_marked`] (asked by every
    /// deep unmark, equality and function call) need not walk the value.
    deep_marked: bool,
}

/// A cty value: cheap to clone, never mutated.
#[derive(Clone)]
pub struct Value(Arc<Inner>);

impl Value {
    pub(crate) fn from_parts(ty: Type, data: Data, marks: ValueMarks) -> Value {
        let marks = (!marks.is_empty()).then(|| Box::new(marks));
        Value::from_marks_box(ty, data, marks)
    }

    fn from_marks_box(ty: Type, data: Data, marks: Option<Box<ValueMarks>>) -> Value {
        let deep_marked = marks.is_some()
            || match &data {
                Data::Seq(v) => v.iter().any(|e| e.0.deep_marked),
                Data::Attrs(m) => m.values().any(|e| e.0.deep_marked),
                _ => false,
            };
        Value(Arc::new(Inner {
            ty,
            data,
            marks,
            deep_marked,
        }))
    }

    /// True if the value or anything inside it is marked.
    pub fn contains_marked(&self) -> bool {
        self.0.deep_marked
    }

    fn plain(ty: Type, data: Data) -> Value {
        Value::from_marks_box(ty, data, None)
    }

    pub(crate) fn data(&self) -> &Data {
        &self.0.data
    }

    /// A string value, NFC-normalized like `cty.StringVal`.
    pub fn string(s: impl AsRef<str>) -> Value {
        Value::plain(Type::String, Data::String(nfc(s.as_ref())))
    }

    /// A number value.
    pub fn number(n: Number) -> Value {
        Value::plain(Type::Number, Data::Number(n))
    }

    /// `cty.NumberIntVal`.
    pub fn number_int(v: i64) -> Value {
        Value::number(Number::from_i64(v))
    }

    /// `cty.NumberFloatVal`; `None` for NaN.
    pub fn number_float(f: f64) -> Option<Value> {
        Some(Value::number(Number::from_f64(f)?))
    }

    /// `cty.ParseNumberVal`, with cty's error message.
    pub fn parse_number(s: &str) -> Result<Value, ValueError> {
        Number::parse(s)
            .map(Value::number)
            .map_err(|_| verr("a number is required"))
    }

    /// `cty.BoolVal`.
    pub fn bool(b: bool) -> Value {
        // Comparisons and conditions make bools by the million; sharing
        // the two saves an allocation each.
        static TRUE: LazyLock<Value> = LazyLock::new(|| Value::plain(Type::Bool, Data::Bool(true)));
        static FALSE: LazyLock<Value> =
            LazyLock::new(|| Value::plain(Type::Bool, Data::Bool(false)));
        if b {
            TRUE.clone()
        } else {
            FALSE.clone()
        }
    }

    /// `cty.NullVal(ty)`.
    pub fn null(ty: Type) -> Value {
        Value::plain(ty, Data::Null)
    }

    /// `cty.UnknownVal(ty)`.
    pub fn unknown(ty: Type) -> Value {
        Value::plain(ty, Data::Unknown)
    }

    /// `cty.DynamicVal`: an unknown of unknown type.
    pub fn dynamic() -> Value {
        static DYNAMIC: LazyLock<Value> =
            LazyLock::new(|| Value::plain(Type::Dynamic, Data::Unknown));
        DYNAMIC.clone()
    }

    /// `cty.ListVal` with an explicit element type; every element must have it.
    pub fn list(elem_ty: Type, vals: Vec<Value>) -> Result<Value, ValueError> {
        check_elems(&elem_ty, &vals, "list")?;
        Ok(Value::plain(Type::list(elem_ty), Data::Seq(vals)))
    }

    /// `cty.ListValEmpty`.
    pub fn list_empty(elem_ty: Type) -> Value {
        Value::plain(Type::list(elem_ty), Data::Seq(Vec::new()))
    }

    /// `cty.MapVal` with an explicit element type; keys are NFC-normalized.
    pub fn map(elem_ty: Type, vals: BTreeMap<String, Value>) -> Result<Value, ValueError> {
        let vals: BTreeMap<String, Value> =
            vals.into_iter().map(|(k, v)| (nfc_owned(k), v)).collect();
        for v in vals.values() {
            if v.ty() != &elem_ty {
                return Err(verr(format!(
                    "inconsistent map element types ({elem_ty:?} then {:?})",
                    v.ty()
                )));
            }
        }
        Ok(Value::plain(Type::map(elem_ty), Data::Attrs(vals)))
    }

    /// `cty.MapValEmpty`.
    pub fn map_empty(elem_ty: Type) -> Value {
        Value::plain(Type::map(elem_ty), Data::Attrs(BTreeMap::new()))
    }

    /// `cty.SetVal` with an explicit element type: duplicates are merged,
    /// element marks move to the set, and elements take cty's set order.
    pub fn set(elem_ty: Type, vals: Vec<Value>) -> Result<Value, ValueError> {
        check_elems(&elem_ty, &vals, "set")?;
        let mut marks = ValueMarks::new();
        let vals: Vec<Value> = vals
            .into_iter()
            .map(|v| {
                let (v, m) = v.unmark_deep();
                marks.extend(m);
                v
            })
            .collect();
        let elems = set::build_set(vals);
        Ok(Value::from_parts(
            Type::set(elem_ty),
            Data::Seq(elems),
            marks,
        ))
    }

    /// `cty.SetValEmpty`.
    pub fn set_empty(elem_ty: Type) -> Value {
        Value::plain(Type::set(elem_ty), Data::Seq(Vec::new()))
    }

    /// `cty.TupleVal`.
    pub fn tuple(vals: Vec<Value>) -> Value {
        let ty = Type::tuple(vals.iter().map(|v| v.ty().clone()).collect());
        Value::plain(ty, Data::Seq(vals))
    }

    /// `cty.EmptyTupleVal`.
    pub fn empty_tuple() -> Value {
        Value::tuple(Vec::new())
    }

    /// `cty.ObjectVal`; attribute names are NFC-normalized.
    pub fn object(attrs: BTreeMap<String, Value>) -> Value {
        let attrs: BTreeMap<String, Value> =
            attrs.into_iter().map(|(k, v)| (nfc_owned(k), v)).collect();
        let ty = Type::object(
            attrs
                .iter()
                .map(|(k, v)| (k.clone(), v.ty().clone()))
                .collect(),
        );
        Value::plain(ty, Data::Attrs(attrs))
    }

    /// `cty.ObjectVal` from (name, value) pairs.
    pub fn object_from<I: IntoIterator<Item = (S, Value)>, S: Into<String>>(attrs: I) -> Value {
        Value::object(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// `cty.EmptyObjectVal`.
    pub fn empty_object() -> Value {
        Value::object(BTreeMap::new())
    }

    /// The value's type.
    pub fn ty(&self) -> &Type {
        &self.0.ty
    }

    /// False for unknown values (ignores marks).
    pub fn is_known(&self) -> bool {
        !matches!(self.0.data, Data::Unknown)
    }

    /// True for null values (ignores marks).
    pub fn is_null(&self) -> bool {
        matches!(self.0.data, Data::Null)
    }

    /// True when the value and everything inside it is known.
    pub fn is_wholly_known(&self) -> bool {
        match &self.0.data {
            Data::Unknown => false,
            Data::Seq(v) => v.iter().all(Value::is_wholly_known),
            Data::Attrs(m) => m.values().all(Value::is_wholly_known),
            _ => true,
        }
    }

    /// Go `HasWhollyKnownType`: no unknown of dynamic type inside.
    pub fn has_wholly_known_type(&self) -> bool {
        if self.is_null() {
            return true;
        }
        if self.ty().is_dynamic() && !self.is_known() {
            return false;
        }
        match &self.0.data {
            Data::Seq(v) => v.iter().all(Value::has_wholly_known_type),
            Data::Attrs(m) => m.values().all(Value::has_wholly_known_type),
            _ => true,
        }
    }

    /// The string payload of a known, non-null string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.0.data {
            Data::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number payload of a known, non-null number.
    pub fn as_number(&self) -> Option<&Number> {
        match &self.0.data {
            Data::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The payload of a known, non-null bool.
    pub fn as_bool(&self) -> Option<bool> {
        match &self.0.data {
            Data::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Elements of a known list, set (in cty order) or tuple.
    pub fn as_elements(&self) -> Option<&[Value]> {
        match &self.0.data {
            Data::Seq(v) => Some(v),
            _ => None,
        }
    }

    /// Entries of a known map or object, sorted by key.
    pub fn as_attrs(&self) -> Option<&BTreeMap<String, Value>> {
        match &self.0.data {
            Data::Attrs(m) => Some(m),
            _ => None,
        }
    }

    /// Number of elements of a known collection or tuple, attributes of an object.
    pub fn length_int(&self) -> Option<usize> {
        match (&self.0.data, self.ty()) {
            (_, Type::Tuple(t)) => Some(t.len()),
            (_, Type::Object(o)) => Some(o.attrs.len()),
            (Data::Seq(v), _) => Some(v.len()),
            (Data::Attrs(m), _) => Some(m.len()),
            _ => None,
        }
    }

    /// `Value.Length`: a number (unknown for unknown collections), keeping marks.
    pub fn length(&self) -> Value {
        let marks = self.marks().clone();
        let r = if let Type::Tuple(t) = self.ty() {
            Value::number_int(t.len() as i64)
        } else if !self.is_known()
            || (self.ty().is_set() && !self.is_wholly_known() && self.length_int() != Some(1))
        {
            Value::unknown(Type::Number)
        } else {
            self.length_int().map_or_else(
                || Value::unknown(Type::Number),
                |n| Value::number_int(n as i64),
            )
        };
        r.marked_with(marks)
    }

    /// Go `ElementIterator` pairs: (index, elem) for lists and tuples,
    /// (key, elem) for maps and objects, (elem, elem) for sets.
    pub fn elements(&self) -> Vec<(Value, Value)> {
        match &self.0.data {
            Data::Seq(v) if self.ty().is_set() => {
                v.iter().map(|e| (e.clone(), e.clone())).collect()
            }
            Data::Seq(v) => v
                .iter()
                .enumerate()
                .map(|(i, e)| (Value::number_int(i as i64), e.clone()))
                .collect(),
            Data::Attrs(m) => m
                .iter()
                .map(|(k, e)| (Value::string(k), e.clone()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// `Value.GetAttr`: attribute of an object (unknown if the object is);
    /// `None` when the attribute does not exist.
    pub fn get_attr(&self, name: &str) -> Option<Value> {
        if self.ty().is_dynamic() {
            return Some(Value::dynamic());
        }
        let name = nfc_cow(name);
        let aty = self.ty().attribute_type(&name)?;
        let r = match &self.0.data {
            Data::Attrs(m) => match m.get(&*name) {
                Some(v) => v.clone(),
                None => Value::null(aty.clone()),
            },
            _ if !self.is_known() => Value::unknown(aty.clone()),
            _ => return None,
        };
        if !self.is_marked() {
            return Some(r);
        }
        Some(r.with_marks(self.marks().iter().cloned()))
    }

    /// `Value.Index` on a list, map or tuple; `None` when the key does not
    /// identify an element. Unknown collections or keys give unknowns.
    pub fn index(&self, key: &Value) -> Option<Value> {
        let marks = ops::union_marks(self.marks(), key.marks());
        let (this, key) = (self.unmark(), key.unmark());
        let r = match this.ty() {
            Type::Dynamic => Value::dynamic(),
            Type::List(ety) => {
                if !key.is_known() || !this.is_known() {
                    Value::unknown((**ety).clone())
                } else {
                    let i = usize::try_from(key.as_number()?.to_i64()?).ok()?;
                    this.as_elements()?.get(i)?.clone()
                }
            }
            Type::Map(ety) => {
                if !key.is_known() || !this.is_known() {
                    Value::unknown((**ety).clone())
                } else {
                    this.as_attrs()?.get(key.as_str()?)?.clone()
                }
            }
            Type::Tuple(etys) => {
                if !key.is_known() {
                    Value::dynamic()
                } else {
                    let i = usize::try_from(key.as_number()?.to_i64()?).ok()?;
                    let ety = etys.get(i)?;
                    if !this.is_known() {
                        Value::unknown(ety.clone())
                    } else {
                        this.as_elements()?.get(i)?.clone()
                    }
                }
            }
            _ => return None,
        };
        Some(r.marked_with(marks))
    }

    /// The value's own (top-level) marks.
    pub fn marks(&self) -> &ValueMarks {
        static NONE: ValueMarks = ValueMarks::new();
        self.0.marks.as_deref().unwrap_or(&NONE)
    }

    /// True if the value itself carries marks.
    pub fn is_marked(&self) -> bool {
        self.0.marks.is_some()
    }

    /// True if the value itself carries the given mark.
    pub fn has_mark(&self, m: &Mark) -> bool {
        self.marks().contains(m)
    }

    /// A copy with one more mark.
    pub fn mark(&self, m: Mark) -> Value {
        self.with_marks([m])
    }

    /// A copy with the given marks added.
    pub fn with_marks(&self, marks: impl IntoIterator<Item = Mark>) -> Value {
        let mut marks = marks.into_iter().peekable();
        if marks.peek().is_none() {
            return self.clone();
        }
        let mut all = self.marks().clone();
        let before = all.len();
        all.extend(marks);
        if all.len() == before {
            return self.clone();
        }
        Value::from_parts(self.0.ty.clone(), self.0.data.clone(), all)
    }

    /// The value with a set of marks added (consuming both): what
    /// [`Value::with_marks`] does, free when the set is empty, as it is
    /// for nearly every value operations see.
    pub fn marked_with(self, marks: ValueMarks) -> Value {
        if marks.is_empty() {
            return self;
        }
        if !self.is_marked() {
            return Value::from_parts(self.0.ty.clone(), self.0.data.clone(), marks);
        }
        self.with_marks(marks)
    }

    /// A copy without its top-level marks.
    pub fn unmark(&self) -> Value {
        if !self.is_marked() {
            return self.clone();
        }
        Value::plain(self.0.ty.clone(), self.0.data.clone())
    }

    /// Go `Unmark`: the unmarked copy and the removed top-level marks.
    pub fn unmark_with_marks(&self) -> (Value, ValueMarks) {
        if !self.is_marked() {
            return (self.clone(), ValueMarks::new());
        }
        (self.unmark(), self.marks().clone())
    }
}

/// True when `s` is certainly in NFC already (every ASCII string is), so
/// normalizing it would only copy it.
fn is_nfc(s: &str) -> bool {
    s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes
}

/// `s` in Unicode normalization form C, as cty normalizes strings.
fn nfc(s: &str) -> String {
    if is_nfc(s) {
        s.to_owned()
    } else {
        s.nfc().collect()
    }
}

/// [`nfc`] of an owned string, reusing it when it is normalized already.
fn nfc_owned(s: String) -> String {
    if is_nfc(&s) {
        s
    } else {
        s.nfc().collect()
    }
}

/// [`nfc`] borrowing `s` when it is normalized already.
fn nfc_cow(s: &str) -> std::borrow::Cow<'_, str> {
    if is_nfc(s) {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(s.nfc().collect())
    }
}

fn check_elems(elem_ty: &Type, vals: &[Value], kind: &str) -> Result<(), ValueError> {
    for v in vals {
        if v.ty() != elem_ty {
            return Err(verr(format!(
                "inconsistent {kind} element types ({elem_ty:?} then {:?})",
                v.ty()
            )));
        }
    }
    Ok(())
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = if self.is_marked() {
            format!(".WithMarks({:?})", self.marks())
        } else {
            String::new()
        };
        match &self.0.data {
            Data::Unknown => write!(f, "cty.UnknownVal({:?}){m}", self.ty()),
            Data::Null => write!(f, "cty.NullVal({:?}){m}", self.ty()),
            Data::Bool(b) => write!(f, "cty.BoolVal({b}){m}"),
            Data::Number(n) => write!(f, "cty.NumberVal({n}){m}"),
            Data::String(s) => write!(f, "cty.StringVal({s:?}){m}"),
            Data::Seq(v) => write!(f, "cty.Value({:?}, {v:?}){m}", self.ty()),
            Data::Attrs(a) => write!(f, "cty.Value({:?}, {a:?}){m}", self.ty()),
        }
    }
}

impl PartialEq for Value {
    /// `RawEquals`.
    fn eq(&self, other: &Value) -> bool {
        self.raw_equals(other)
    }
}

impl Value {
    /// Go `cty.ListVal` semantics: the element type is the first non-dynamic
    /// element type; other elements must match it or be of dynamic type.
    pub fn list_infer(vals: Vec<Value>) -> Result<Value, ValueError> {
        let ety = infer_elem_type(&vals, "list")?;
        Ok(Value::plain(Type::list(ety), Data::Seq(vals)))
    }

    /// Go `cty.SetVal` semantics with an inferred element type.
    pub fn set_infer(vals: Vec<Value>) -> Result<Value, ValueError> {
        let ety = infer_elem_type(&vals, "set")?;
        let mut marks = ValueMarks::new();
        let vals: Vec<Value> = vals
            .into_iter()
            .map(|v| {
                let (v, m) = v.unmark_deep();
                marks.extend(m);
                v
            })
            .collect();
        Ok(Value::from_parts(
            Type::set(ety),
            Data::Seq(set::build_set(vals)),
            marks,
        ))
    }

    /// Go `cty.MapVal` semantics with an inferred element type.
    pub fn map_infer(vals: BTreeMap<String, Value>) -> Result<Value, ValueError> {
        let list: Vec<Value> = vals.values().cloned().collect();
        let ety = infer_elem_type(&list, "map")?;
        let vals: BTreeMap<String, Value> =
            vals.into_iter().map(|(k, v)| (nfc_owned(k), v)).collect();
        Ok(Value::plain(Type::map(ety), Data::Attrs(vals)))
    }
}

/// Go `CanListVal`-style element type inference.
pub(crate) fn infer_elem_type(vals: &[Value], kind: &str) -> Result<Type, ValueError> {
    let mut ety = Type::Dynamic;
    for v in vals {
        if ety.is_dynamic() {
            ety = v.ty().clone();
        } else if !v.ty().is_dynamic() && v.ty() != &ety {
            return Err(verr(format!(
                "inconsistent {kind} element types ({ety:?} then {:?})",
                v.ty()
            )));
        }
    }
    Ok(ety)
}
