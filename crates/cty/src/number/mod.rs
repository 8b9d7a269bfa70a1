//! cty numbers: arbitrary-precision binary floats with Go `big.Float`
//! semantics, with a fast path for small integers.

mod bigfloat;
mod parse;
mod text;

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;
use num_traits::ToPrimitive;

pub use bigfloat::{BigFloat, NanError};
pub use parse::ParseNumberError;

/// Precision (bits) of numbers parsed from text, as in `cty.ParseNumberVal`.
pub const PARSE_PRECISION: u32 = 512;

/// A cty number. Small integers are kept inline; everything else is a
/// [`BigFloat`]. Both carry Go's precision label, which decides the
/// precision of arithmetic results and the shortest formatting.
#[derive(Clone, Debug)]
pub enum Number {
    /// An integer exactly representable in `prec` bits (never -0).
    Small {
        /// The value.
        v: i64,
        /// Go precision label in bits.
        prec: u32,
    },
    /// Any other value, including -0, infinities and fractions.
    Big(Box<BigFloat>),
}

fn min_prec_i64(v: i64) -> u32 {
    let m = v.unsigned_abs();
    if m == 0 {
        0
    } else {
        64 - m.leading_zeros() - m.trailing_zeros()
    }
}

/// A decimal integer of at most 18 digits with an optional `-` (but not
/// `-0`, which is a float): what [`BigFloat::parse`] would turn into an
/// exact small integer at [`PARSE_PRECISION`] bits, without the big
/// arithmetic. Number literals are parsed on every evaluation, so this
/// path is what keeps `x % 2` cheap.
fn parse_small_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i64 = s.parse().ok()?;
    if v == 0 && s.starts_with('-') {
        return None;
    }
    Some(v)
}

impl Number {
    /// `cty.NumberIntVal`: precision 64.
    pub fn from_i64(v: i64) -> Number {
        Number::Small { v, prec: 64 }
    }

    /// `cty.NumberUIntVal`: precision 64.
    pub fn from_u64(v: u64) -> Number {
        match i64::try_from(v) {
            Ok(v) => Number::Small { v, prec: 64 },
            Err(_) => Number::Big(Box::new(BigFloat::from_u64(v))),
        }
    }

    /// `cty.NumberFloatVal`: precision 53; `None` for NaN.
    pub fn from_f64(f: f64) -> Option<Number> {
        Some(Number::from_big(BigFloat::from_f64(f)?))
    }

    /// Go `new(big.Float).SetInt(v)`: precision max(bit length, 64).
    pub fn from_bigint(v: &BigInt) -> Number {
        Number::from_big(BigFloat::from_bigint(v))
    }

    /// `cty.ParseNumberVal`: `big.ParseFloat(s, 10, 512, ToNearestEven)`.
    pub fn parse(s: &str) -> Result<Number, ParseNumberError> {
        if let Some(v) = parse_small_int(s) {
            return Ok(Number::Small {
                v,
                prec: PARSE_PRECISION,
            });
        }
        Ok(Number::from_big(BigFloat::parse(s, PARSE_PRECISION)?))
    }

    /// Wraps a [`BigFloat`], using the small form when it is exact.
    pub fn from_big(b: BigFloat) -> Number {
        if b.is_int() && !b.is_inf() && !(b.is_zero() && b.is_neg()) {
            if let Some(v) = b.to_i64_exact() {
                return Number::Small { v, prec: b.prec() };
            }
        }
        Number::Big(Box::new(b))
    }

    /// The value as a [`BigFloat`] (Go `AsBigFloat`).
    pub fn to_big(&self) -> BigFloat {
        match self {
            Number::Small { v, prec } => BigFloat::from_i64_prec(*v, *prec),
            Number::Big(b) => (**b).clone(),
        }
    }

    /// Precision label in bits.
    pub fn prec(&self) -> u32 {
        match self {
            Number::Small { prec, .. } => *prec,
            Number::Big(b) => b.prec(),
        }
    }

    /// True for ±Inf.
    pub fn is_inf(&self) -> bool {
        matches!(self, Number::Big(b) if b.is_inf())
    }

    /// True for an integer value (Go `IsInt`).
    pub fn is_int(&self) -> bool {
        match self {
            Number::Small { .. } => true,
            Number::Big(b) => b.is_int(),
        }
    }

    /// -1, 0 or +1.
    pub fn sign(&self) -> i32 {
        match self {
            Number::Small { v, .. } => v.signum() as i32,
            Number::Big(b) => b.sign(),
        }
    }

    /// The value as i64 when it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Number::Small { v, .. } => Some(*v),
            Number::Big(b) => b.to_i64_exact(),
        }
    }

    /// Integer part truncated toward zero; `None` for infinities.
    pub fn trunc_int(&self) -> Option<BigInt> {
        match self {
            Number::Small { v, .. } => Some(BigInt::from(*v)),
            Number::Big(b) => b.trunc_int(),
        }
    }

    /// Nearest f64 (Go `Float64`).
    pub fn to_f64(&self) -> f64 {
        match self {
            Number::Small { v, .. } => v.to_f64().unwrap_or(0.0),
            Number::Big(b) => b.to_f64(),
        }
    }

    /// Negation (`Value.Negate`).
    pub fn neg(&self) -> Number {
        match self {
            Number::Small { v, prec } if *v != 0 && *v != i64::MIN => {
                Number::Small { v: -v, prec: *prec }
            }
            _ => Number::Big(Box::new(self.to_big().neg())),
        }
    }

    /// Absolute value (`Value.Absolute`).
    pub fn abs(&self) -> Number {
        match self {
            Number::Small { v, prec } if *v != i64::MIN => Number::Small {
                v: v.abs(),
                prec: *prec,
            },
            _ => Number::from_big(self.to_big().abs()),
        }
    }

    /// `Value.Add`: result precision is the larger operand precision.
    pub fn add(&self, other: &Number) -> Result<Number, NanError> {
        if let (Number::Small { v: a, prec: pa }, Number::Small { v: b, prec: pb }) = (self, other)
        {
            let prec = *pa.max(pb);
            if let Some(r) = a.checked_add(*b) {
                if min_prec_i64(r) <= prec {
                    return Ok(Number::Small { v: r, prec });
                }
            }
        }
        let prec = self.prec().max(other.prec());
        Ok(Number::from_big(self.to_big().add(&other.to_big(), prec)?))
    }

    /// `Value.Subtract`: addition of the negation.
    pub fn sub(&self, other: &Number) -> Result<Number, NanError> {
        self.add(&other.neg())
    }

    /// `Value.Multiply`: product at 512 bits, labelled with
    /// max(operand precisions, MinPrec(product)).
    pub fn mul(&self, other: &Number) -> Result<Number, NanError> {
        if let (Number::Small { v: a, prec: pa }, Number::Small { v: b, prec: pb }) = (self, other)
        {
            if let Some(r) = a.checked_mul(*b) {
                if r != 0 || (*a >= 0) == (*b >= 0) {
                    return Ok(Number::Small {
                        v: r,
                        prec: *pa.max(pb).max(&min_prec_i64(r)),
                    });
                }
            }
        }
        let prod = self.to_big().mul(&other.to_big(), 512)?;
        let prec = self.prec().max(other.prec()).max(prod.min_prec());
        Ok(Number::from_big(prod.with_prec(prec)))
    }

    /// `Value.Divide`: quotient at the larger operand precision; x/0 is ±Inf.
    pub fn quo(&self, other: &Number) -> Result<Number, NanError> {
        if let (Number::Small { v: a, prec: pa }, Number::Small { v: b, prec: pb }) = (self, other)
        {
            if *b != 0 && !(*a == i64::MIN && *b == -1) && a % b == 0 && (*a != 0 || *b > 0) {
                let prec = *pa.max(pb);
                let q = a / b;
                if min_prec_i64(q) <= prec {
                    return Ok(Number::Small { v: q, prec });
                }
            }
        }
        let prec = self.prec().max(other.prec());
        Ok(Number::from_big(self.to_big().quo(&other.to_big(), prec)?))
    }

    /// `Value.Modulo`: `x - y*trunc(x/y)`; infinities give `x*y`; `x % 0` is `x`.
    pub fn modulo(&self, other: &Number) -> Result<Number, NanError> {
        if self.is_inf() || other.is_inf() {
            return self.mul(other);
        }
        if let (Number::Small { v: a, prec: pa }, Number::Small { v: b, prec: pb }) = (self, other)
        {
            if *b == 0 && *pb == 64 {
                return Ok(self.clone());
            }
            if *b != 0 && *pa >= 64 && *pb >= 64 {
                if let Some(r) = a.checked_rem(*b) {
                    return Ok(Number::Small { v: r, prec: *pa });
                }
            }
        }
        // `other.RawEquals(Zero)`: Zero is NumberIntVal(0); any zero of any
        // precision is equal under cty's number equality.
        if other.sign() == 0 {
            return Ok(self.clone());
        }
        let rat = self.quo(other)?.to_big();
        let q = rat.trunc_int().unwrap_or_default();
        let v = self.to_big();
        let p = v.prec();
        let work = BigFloat::from_bigint(&q).with_prec(p);
        let work = other.to_big().mul(&work, p)?;
        Ok(Number::from_big(v.sub(&work, p)?))
    }

    /// Exact numeric comparison; -0 equals +0.
    pub fn compare(&self, other: &Number) -> Ordering {
        match (self, other) {
            (Number::Small { v: a, .. }, Number::Small { v: b, .. }) => a.cmp(b),
            _ => self.to_big().compare(&other.to_big()),
        }
    }

    /// cty's number equality (`rawNumberEqual`): integers compare exactly,
    /// others by their `Text('f', -1)` forms, with -0 equal to 0.
    pub fn cty_equals(&self, other: &Number) -> bool {
        if let (Number::Small { v: a, .. }, Number::Small { v: b, .. }) = (self, other) {
            return a == b;
        }
        if self.sign() != other.sign() {
            return false;
        }
        let (a_int, b_int) = (self.is_int(), other.is_int());
        if a_int != b_int {
            return false;
        }
        if a_int {
            return self.trunc_int() == other.trunc_int();
        }
        let norm = |s: String| if s == "-0" { "0".to_string() } else { s };
        norm(self.to_text()) == norm(other.to_text())
    }

    /// Go `Text('f', -1)`: the form used by conversion to string, JSON and the console.
    pub fn to_text(&self) -> String {
        match self {
            Number::Small { v, prec } if 64 - v.unsigned_abs().leading_zeros() < *prec => {
                v.to_string()
            }
            _ => self.to_big().text('f', -1),
        }
    }

    /// Go `Text(format, prec)` for 'e', 'E', 'f', 'g', 'G'.
    pub fn text(&self, format: char, prec: i64) -> String {
        self.to_big().text(format, prec)
    }

    /// Go `big.Float.String()` (`%.10g`), used by cty set hashing.
    pub fn go_string(&self) -> String {
        self.to_big().go_string()
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cty_equals(other)
    }
}

impl From<i64> for Number {
    fn from(v: i64) -> Number {
        Number::from_i64(v)
    }
}

#[cfg(test)]
mod tests;
