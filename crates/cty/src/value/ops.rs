//! Value operations: equality (cty `Equals`/`RawEquals`), logic and arithmetic.

use crate::marks::ValueMarks;
use crate::number::Number;
use crate::types::Type;

use super::{verr, Data, Value, ValueError};

/// The union of two values' top-level marks (usually both empty).
impl Value {
    /// The value with the top-level marks of both operands `a` and `b`
    /// (no mark sets are made or dropped when neither has any).
    fn marked_like(self, a: &Value, b: &Value) -> Value {
        if !a.is_marked() && !b.is_marked() {
            return self;
        }
        self.marked_with(union_marks(a.marks(), b.marks()))
    }
}

pub(super) fn union_marks(a: &ValueMarks, b: &ValueMarks) -> ValueMarks {
    if a.is_empty() && b.is_empty() {
        ValueMarks::new()
    } else if b.is_empty() {
        a.clone()
    } else if a.is_empty() {
        b.clone()
    } else {
        a.union(b).cloned().collect()
    }
}

fn unknown_bool() -> Value {
    Value::unknown(Type::Bool)
}

impl Value {
    /// cty `Equals`: a bool value, unknown when the answer depends on
    /// unknowns; nulls of any type are equal; marks carry to the result.
    pub fn equals(&self, other: &Value) -> Value {
        if self.contains_marked() || other.contains_marked() {
            let (a, am) = self.unmark_deep();
            let (b, bm) = other.unmark_deep();
            return a.equals(&b).with_marks(am.into_iter().chain(bm));
        }
        let (a, b) = (self, other);
        if (a.is_null() && b.is_known() && !b.is_null())
            || (b.is_null() && a.is_known() && !a.is_null())
        {
            return Value::bool(false);
        }
        match (a.is_known(), b.is_known()) {
            (false, false) => return unknown_bool(),
            (true, false) | (false, true) => {
                let (k, u) = if a.is_known() { (a, b) } else { (b, a) };
                if k.is_null() || u.ty().has_dynamic_types() {
                    return unknown_bool();
                }
                if k.ty() != u.ty() {
                    return Value::bool(false);
                }
                return unknown_bool();
            }
            _ => {}
        }
        match (a.is_null(), b.is_null()) {
            (true, true) => return Value::bool(true),
            (true, false) | (false, true) => return Value::bool(false),
            _ => {}
        }
        if !a.has_wholly_known_type() || !b.has_wholly_known_type() {
            if !a.ty().test_conformance(b.ty()).is_empty()
                && !b.ty().test_conformance(a.ty()).is_empty()
            {
                return Value::bool(false);
            }
            return unknown_bool();
        }
        if a.ty() != b.ty() {
            return Value::bool(false);
        }
        let all = |pairs: &mut dyn Iterator<Item = (&Value, &Value)>| -> Value {
            let mut result = true;
            for (x, y) in pairs {
                let eq = x.equals(y);
                match eq.as_bool() {
                    None => return unknown_bool(),
                    Some(false) => {
                        result = false;
                        break;
                    }
                    Some(true) => {}
                }
            }
            Value::bool(result)
        };
        match (a.data(), b.data()) {
            (Data::Number(x), Data::Number(y)) => Value::bool(x.cty_equals(y)),
            (Data::Bool(x), Data::Bool(y)) => Value::bool(x == y),
            (Data::String(x), Data::String(y)) => Value::bool(x == y),
            (Data::Seq(x), Data::Seq(y)) if a.ty().is_set() => {
                if x.iter().chain(y.iter()).any(|v| !v.is_known()) {
                    return unknown_bool();
                }
                let has = |set: &[Value], v: &Value| {
                    set.iter().any(|e| e.equals(v).as_bool() == Some(true))
                };
                Value::bool(x.iter().all(|v| has(y, v)) && y.iter().all(|v| has(x, v)))
            }
            (Data::Seq(x), Data::Seq(y)) => {
                if x.len() != y.len() {
                    return Value::bool(false);
                }
                all(&mut x.iter().zip(y.iter()))
            }
            (Data::Attrs(x), Data::Attrs(y)) => {
                if x.len() != y.len() || x.keys().ne(y.keys()) {
                    return Value::bool(false);
                }
                all(&mut x.values().zip(y.values()))
            }
            _ => Value::bool(false),
        }
    }

    /// cty `RawEquals`: exact equality including unknowns and marks.
    pub fn raw_equals(&self, other: &Value) -> bool {
        if self.ty() != other.ty() || self.marks() != other.marks() {
            return false;
        }
        match (self.data(), other.data()) {
            (Data::Unknown, Data::Unknown) | (Data::Null, Data::Null) => true,
            (Data::Unknown, _) | (_, Data::Unknown) | (Data::Null, _) | (_, Data::Null) => false,
            (Data::Number(x), Data::Number(y)) => x.cty_equals(y),
            (Data::Bool(x), Data::Bool(y)) => x == y,
            (Data::String(x), Data::String(y)) => x == y,
            (Data::Seq(x), Data::Seq(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a.raw_equals(b))
            }
            (Data::Attrs(x), Data::Attrs(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((ka, a), (kb, b))| ka == kb && a.raw_equals(b))
            }
            _ => false,
        }
    }

    /// cty `NotEqual`.
    pub fn not_equal(&self, other: &Value) -> Value {
        self.equals(other).not()
    }

    /// cty `Not` on a bool (unknown stays unknown; marks kept).
    pub fn not(&self) -> Value {
        let marks = self.marks().clone();
        match self.as_bool() {
            Some(b) => Value::bool(!b).marked_with(marks),
            None => unknown_bool().marked_with(marks),
        }
    }

    /// cty `And` on bools, with cty's short circuits for known false.
    pub fn and(&self, other: &Value) -> Value {
        let r = match (self.as_bool(), other.as_bool()) {
            (Some(false), _) | (_, Some(false)) => Value::bool(false),
            (Some(a), Some(b)) => Value::bool(a && b),
            _ => unknown_bool(),
        };
        r.marked_like(self, other)
    }

    /// cty `Or` on bools, with cty's short circuits for known true.
    pub fn or(&self, other: &Value) -> Value {
        let r = match (self.as_bool(), other.as_bool()) {
            (Some(true), _) | (_, Some(true)) => Value::bool(true),
            (Some(a), Some(b)) => Value::bool(a || b),
            _ => unknown_bool(),
        };
        r.marked_like(self, other)
    }

    fn numeric(
        &self,
        other: &Value,
        op: impl Fn(&Number, &Number) -> Result<Number, crate::number::NanError>,
    ) -> Result<Value, ValueError> {
        for v in [self, other] {
            if !matches!(v.ty(), Type::Number | Type::Dynamic) {
                return Err(verr(format!(
                    "number required, but have {}",
                    v.ty().friendly_name()
                )));
            }
        }
        let r = match (self.as_number(), other.as_number()) {
            (Some(a), Some(b)) => Value::number(op(a, b).map_err(|e| verr(e.msg))?),
            _ if !self.is_known() || !other.is_known() => Value::unknown(Type::Number),
            _ => return Err(verr("can't use a null value in arithmetic")),
        };
        Ok(r.marked_like(self, other))
    }

    /// cty `Add`.
    pub fn add(&self, other: &Value) -> Result<Value, ValueError> {
        self.numeric(other, Number::add)
    }

    /// cty `Subtract`.
    pub fn subtract(&self, other: &Value) -> Result<Value, ValueError> {
        self.numeric(other, Number::sub)
    }

    /// cty `Multiply`.
    pub fn multiply(&self, other: &Value) -> Result<Value, ValueError> {
        self.numeric(other, Number::mul)
    }

    /// cty `Divide`; the error carries Go's `big.ErrNaN` message for 0/0 and inf/inf.
    pub fn divide(&self, other: &Value) -> Result<Value, ValueError> {
        self.numeric(other, Number::quo)
    }

    /// cty `Modulo`.
    pub fn modulo(&self, other: &Value) -> Result<Value, ValueError> {
        self.numeric(other, Number::modulo)
    }

    /// cty `Negate`.
    pub fn negate(&self) -> Result<Value, ValueError> {
        Value::number_int(0)
            .numeric(self, |_, b| Ok(b.neg()))
            .map(|v| v.marked_with(self.marks().clone()))
    }

    /// cty `Absolute`.
    pub fn absolute(&self) -> Result<Value, ValueError> {
        Value::number_int(0)
            .numeric(self, |_, b| Ok(b.abs()))
            .map(|v| v.marked_with(self.marks().clone()))
    }

    /// cty `LessThan` on numbers.
    pub fn less_than(&self, other: &Value) -> Result<Value, ValueError> {
        self.compare(other, |o| o.is_lt())
    }

    /// cty `GreaterThan` on numbers.
    pub fn greater_than(&self, other: &Value) -> Result<Value, ValueError> {
        self.compare(other, |o| o.is_gt())
    }

    /// cty `LessThanOrEqualTo` on numbers.
    pub fn less_than_or_equal_to(&self, other: &Value) -> Result<Value, ValueError> {
        self.compare(other, |o| o.is_le())
    }

    /// cty `GreaterThanOrEqualTo` on numbers.
    pub fn greater_than_or_equal_to(&self, other: &Value) -> Result<Value, ValueError> {
        self.compare(other, |o| o.is_ge())
    }

    fn compare(
        &self,
        other: &Value,
        f: impl Fn(std::cmp::Ordering) -> bool,
    ) -> Result<Value, ValueError> {
        let r = match (self.as_number(), other.as_number()) {
            (Some(a), Some(b)) => Value::bool(f(a.compare(b))),
            _ if !self.is_known() || !other.is_known() => unknown_bool(),
            _ => return Err(verr("can't compare null values")),
        };
        Ok(r.marked_like(self, other))
    }
}
