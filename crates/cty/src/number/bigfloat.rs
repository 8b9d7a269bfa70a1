//! A binary floating-point number with a per-value precision, mirroring the
//! parts of Go's `math/big.Float` that cty relies on (ToNearestEven only).

use std::cmp::Ordering;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Largest binary exponent Go's `big.Float` supports (`MaxExp`).
pub(crate) const MAX_EXP: i64 = i32::MAX as i64;
/// Smallest binary exponent Go's `big.Float` supports (`MinExp`).
pub(crate) const MIN_EXP: i64 = i32::MIN as i64;

/// Error raised where Go's `big.Float` panics with `big.ErrNaN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NanError {
    /// Go's message, e.g. "division of zero by zero or infinity by infinity".
    pub msg: &'static str,
}

impl std::fmt::Display for NanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.msg)
    }
}

impl std::error::Error for NanError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Zero,
    Finite,
    Inf,
}

/// Arbitrary-precision binary float: `(-1)^neg * mant * 2^exp` with `mant`
/// odd when finite, labelled with a precision in bits like Go's `big.Float`.
#[derive(Clone, Debug)]
pub struct BigFloat {
    neg: bool,
    form: Form,
    mant: BigUint,
    exp: i64,
    prec: u32,
}

impl BigFloat {
    /// A zero with the given sign and precision.
    pub fn zero(neg: bool, prec: u32) -> BigFloat {
        BigFloat {
            neg,
            form: Form::Zero,
            mant: BigUint::zero(),
            exp: 0,
            prec: prec.max(1),
        }
    }

    /// An infinity with the given sign and precision.
    pub fn inf(neg: bool, prec: u32) -> BigFloat {
        BigFloat {
            neg,
            form: Form::Inf,
            mant: BigUint::zero(),
            exp: 0,
            prec: prec.max(1),
        }
    }

    /// Rounds `(-1)^neg * m * 2^e` (plus a sticky fraction below the last bit
    /// of `m` when `sticky`) to `prec` bits, ties to even. When `sticky` is set
    /// `m` must carry at least `prec + 2` bits.
    pub(crate) fn round_from(
        neg: bool,
        mut m: BigUint,
        mut e: i64,
        sticky: bool,
        prec: u32,
    ) -> BigFloat {
        let prec = prec.max(1);
        if m.is_zero() {
            return BigFloat::zero(neg, prec);
        }
        let bits = m.bits();
        if bits > u64::from(prec) {
            let shift = bits - u64::from(prec);
            let half = m.bit(shift - 1);
            let tz = m.trailing_zeros().unwrap_or(0);
            let low = sticky || tz < shift - 1;
            m >>= shift;
            e += shift as i64;
            if half && (low || m.bit(0)) {
                m += 1u32;
            }
        }
        let tz = m.trailing_zeros().unwrap_or(0);
        if tz > 0 {
            m >>= tz;
            e += tz as i64;
        }
        let gexp = e.saturating_add(m.bits() as i64);
        if gexp > MAX_EXP {
            return BigFloat::inf(neg, prec);
        }
        if gexp < MIN_EXP {
            return BigFloat::zero(neg, prec);
        }
        BigFloat {
            neg,
            form: Form::Finite,
            mant: m,
            exp: e,
            prec,
        }
    }

    /// Exact value of an i64 at the given precision label (rounded if needed).
    pub fn from_i64_prec(v: i64, prec: u32) -> BigFloat {
        BigFloat::round_from(v < 0, BigUint::from(v.unsigned_abs()), 0, false, prec)
    }

    /// Go `new(big.Float).SetInt64(v)`: precision 64.
    pub fn from_i64(v: i64) -> BigFloat {
        BigFloat::from_i64_prec(v, 64)
    }

    /// Go `new(big.Float).SetUint64(v)`: precision 64.
    pub fn from_u64(v: u64) -> BigFloat {
        BigFloat::round_from(false, BigUint::from(v), 0, false, 64)
    }

    /// Go `new(big.Float).SetInt(v)`: precision max(bit length, 64).
    pub fn from_bigint(v: &BigInt) -> BigFloat {
        let mag = v.magnitude().clone();
        let prec = (mag.bits().max(64)).min(u64::from(u32::MAX)) as u32;
        BigFloat::round_from(v.sign() == Sign::Minus, mag, 0, false, prec)
    }

    /// Go `new(big.Float).SetFloat64(f)`: precision 53; `None` for NaN.
    pub fn from_f64(f: f64) -> Option<BigFloat> {
        if f.is_nan() {
            return None;
        }
        if f.is_infinite() {
            return Some(BigFloat::inf(f < 0.0, 53));
        }
        if f == 0.0 {
            return Some(BigFloat::zero(f.is_sign_negative(), 53));
        }
        let bits = f.to_bits();
        let neg = bits >> 63 != 0;
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e) = if biased == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), biased - 1075)
        };
        Some(BigFloat::round_from(neg, BigUint::from(m), e, false, 53))
    }

    /// Precision label in bits.
    pub fn prec(&self) -> u32 {
        self.prec
    }

    /// Smallest precision that represents the value exactly (Go `MinPrec`).
    pub fn min_prec(&self) -> u32 {
        match self.form {
            Form::Finite => self.mant.bits() as u32,
            _ => 0,
        }
    }

    /// Go `SetPrec`: round to `prec` bits (ties to even) and relabel.
    pub fn with_prec(&self, prec: u32) -> BigFloat {
        match self.form {
            Form::Finite => {
                BigFloat::round_from(self.neg, self.mant.clone(), self.exp, false, prec)
            }
            _ => BigFloat {
                prec: prec.max(1),
                ..self.clone()
            },
        }
    }

    /// True for the sign bit set (including -0 and -Inf).
    pub fn is_neg(&self) -> bool {
        self.neg
    }

    /// True for ±0.
    pub fn is_zero(&self) -> bool {
        self.form == Form::Zero
    }

    /// True for ±Inf.
    pub fn is_inf(&self) -> bool {
        self.form == Form::Inf
    }

    /// -1, 0 or +1 (zero for both signed zeros), like Go `Sign`.
    pub fn sign(&self) -> i32 {
        match self.form {
            Form::Zero => 0,
            _ if self.neg => -1,
            _ => 1,
        }
    }

    /// Mantissa and binary exponent of a finite value (`mant * 2^exp`).
    pub(crate) fn parts(&self) -> (&BigUint, i64) {
        (&self.mant, self.exp)
    }

    /// Go `IsInt`.
    pub fn is_int(&self) -> bool {
        match self.form {
            Form::Zero => true,
            Form::Inf => false,
            Form::Finite => self.exp >= 0,
        }
    }

    /// Negation (Go `Neg`), keeping the precision.
    pub fn neg(&self) -> BigFloat {
        BigFloat {
            neg: !self.neg,
            ..self.clone()
        }
    }

    /// Absolute value (Go `Abs`), keeping the precision.
    pub fn abs(&self) -> BigFloat {
        BigFloat {
            neg: false,
            ..self.clone()
        }
    }

    /// Integer part truncated toward zero (Go `Int`); `None` for infinities.
    pub fn trunc_int(&self) -> Option<BigInt> {
        match self.form {
            Form::Zero => Some(BigInt::zero()),
            Form::Inf => None,
            Form::Finite => {
                let mag = if self.exp >= 0 {
                    self.mant.clone() << (self.exp as u64)
                } else if (-self.exp) as u64 >= self.mant.bits() {
                    BigUint::zero()
                } else {
                    self.mant.clone() >> ((-self.exp) as u64)
                };
                let sign = if self.neg { Sign::Minus } else { Sign::Plus };
                Some(BigInt::from_biguint(sign, mag))
            }
        }
    }

    /// Largest integer not greater than the value; `None` for infinities.
    pub fn floor_int(&self) -> Option<BigInt> {
        let t = self.trunc_int()?;
        if self.neg && !self.is_int() {
            Some(t - 1)
        } else {
            Some(t)
        }
    }

    /// Smallest integer not less than the value; `None` for infinities.
    pub fn ceil_int(&self) -> Option<BigInt> {
        let t = self.trunc_int()?;
        if !self.neg && !self.is_int() {
            Some(t + 1)
        } else {
            Some(t)
        }
    }

    /// The value as an i64 when it is an integer in range (Go `Int64` with `Exact`).
    pub fn to_i64_exact(&self) -> Option<i64> {
        if !self.is_int() {
            return None;
        }
        self.trunc_int()?.to_i64()
    }

    /// Nearest f64, ties to even, like Go `Float64` (overflow gives ±Inf).
    pub fn to_f64(&self) -> f64 {
        let signed = |x: f64| if self.neg { -x } else { x };
        match self.form {
            Form::Zero => signed(0.0),
            Form::Inf => signed(f64::INFINITY),
            Form::Finite => {
                // Exponent of the leading bit: value in [2^lead, 2^(lead+1)).
                let lead = self.exp + self.mant.bits() as i64 - 1;
                if lead > 1023 {
                    return signed(f64::INFINITY);
                }
                // Normal numbers keep 53 bits; subnormals keep fewer.
                let prec = if lead >= -1022 {
                    53
                } else {
                    53 - (-1022 - lead)
                };
                if prec <= 0 {
                    // Below half the smallest subnormal rounds to zero; exactly
                    // half rounds to zero (even), above half to the smallest.
                    let half_min = -1075i64;
                    if lead < half_min || (lead == half_min && self.mant.bits() == 1) {
                        return signed(0.0);
                    }
                    return signed(f64::from_bits(1));
                }
                let r =
                    BigFloat::round_from(false, self.mant.clone(), self.exp, false, prec as u32);
                if r.form == Form::Inf {
                    return signed(f64::INFINITY);
                }
                let m = r.mant.to_u64().unwrap_or(0) as f64;
                signed(m * pow2(r.exp))
            }
        }
    }

    /// Exact comparison (Go `Cmp`); -0 equals +0.
    pub fn compare(&self, other: &BigFloat) -> Ordering {
        let rank = |x: &BigFloat| -> i32 {
            match (x.form, x.neg) {
                (Form::Inf, true) => -2,
                (Form::Finite, true) => -1,
                (Form::Zero, _) => 0,
                (Form::Finite, false) => 1,
                (Form::Inf, false) => 2,
            }
        };
        let (ra, rb) = (rank(self), rank(other));
        if ra != rb || ra.abs() != 1 {
            return ra.cmp(&rb);
        }
        let mag = ucmp(self, other);
        if self.neg {
            mag.reverse()
        } else {
            mag
        }
    }

    /// Go `z.Add(x, y)` with `z.prec = prec`.
    pub fn add(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NanError> {
        let x = self;
        if x.form == Form::Inf && y.form == Form::Inf && x.neg != y.neg {
            return Err(NanError {
                msg: "addition of infinities with opposite signs",
            });
        }
        match (x.form, y.form) {
            (Form::Inf, _) => Ok(BigFloat::inf(x.neg, prec)),
            (_, Form::Inf) => Ok(BigFloat::inf(y.neg, prec)),
            (Form::Zero, Form::Zero) => Ok(BigFloat::zero(x.neg && y.neg, prec)),
            (Form::Zero, _) => Ok(y.with_prec(prec)),
            (_, Form::Zero) => Ok(x.with_prec(prec)),
            _ => Ok(add_finite(x, y, prec)),
        }
    }

    /// Go `z.Sub(x, y)` with `z.prec = prec`.
    pub fn sub(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NanError> {
        if self.form == Form::Inf && y.form == Form::Inf && self.neg == y.neg {
            return Err(NanError {
                msg: "subtraction of infinities with equal signs",
            });
        }
        if self.form == Form::Zero && y.form == Form::Zero {
            return Ok(BigFloat::zero(self.neg && !y.neg, prec));
        }
        self.add(&y.neg(), prec)
    }

    /// Go `z.Mul(x, y)` with `z.prec = prec`.
    pub fn mul(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NanError> {
        let x = self;
        let neg = x.neg != y.neg;
        match (x.form, y.form) {
            (Form::Inf, Form::Zero) | (Form::Zero, Form::Inf) => Err(NanError {
                msg: "multiplication of zero with infinity",
            }),
            (Form::Inf, _) | (_, Form::Inf) => Ok(BigFloat::inf(neg, prec)),
            (Form::Zero, _) | (_, Form::Zero) => Ok(BigFloat::zero(neg, prec)),
            _ => Ok(BigFloat::round_from(
                neg,
                &x.mant * &y.mant,
                x.exp + y.exp,
                false,
                prec,
            )),
        }
    }

    /// Go `z.Quo(x, y)` with `z.prec = prec`.
    pub fn quo(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NanError> {
        let x = self;
        let neg = x.neg != y.neg;
        match (x.form, y.form) {
            (Form::Zero, Form::Zero) | (Form::Inf, Form::Inf) => Err(NanError {
                msg: "division of zero by zero or infinity by infinity",
            }),
            (Form::Zero, _) | (_, Form::Inf) => Ok(BigFloat::zero(neg, prec)),
            (Form::Inf, _) | (_, Form::Zero) => Ok(BigFloat::inf(neg, prec)),
            _ => {
                let p = i64::from(prec.max(1));
                let s = (p + 2 + y.mant.bits() as i64 - x.mant.bits() as i64).max(0);
                let num = x.mant.clone() << (s as u64);
                let (q, r) = num.div_rem(&y.mant);
                Ok(BigFloat::round_from(
                    neg,
                    q,
                    x.exp - y.exp - s,
                    !r.is_zero(),
                    prec,
                ))
            }
        }
    }
}

fn pow2(e: i64) -> f64 {
    // Split to stay within f64's exponent range for subnormal results.
    let mut r = 1.0f64;
    let mut e = e;
    while e > 0 {
        let step = e.min(1000);
        r *= 2f64.powi(step as i32);
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(1000);
        r /= 2f64.powi(step as i32);
        e += step;
    }
    r
}

/// Compares magnitudes of two finite values.
fn ucmp(x: &BigFloat, y: &BigFloat) -> Ordering {
    let lx = x.exp + x.mant.bits() as i64;
    let ly = y.exp + y.mant.bits() as i64;
    if lx != ly {
        return lx.cmp(&ly);
    }
    let e = x.exp.min(y.exp);
    let a = x.mant.clone() << ((x.exp - e) as u64);
    let b = y.mant.clone() << ((y.exp - e) as u64);
    a.cmp(&b)
}

/// Exact-then-round sum of two finite values. When the exponent gap is
/// huge the smaller operand only contributes a sticky bit, so it is
/// replaced by a tiny stand-in of the same sign to keep shifts bounded.
fn add_finite(x: &BigFloat, y: &BigFloat, prec: u32) -> BigFloat {
    let (big, small) = if ucmp(x, y) == Ordering::Less {
        (y, x)
    } else {
        (x, y)
    };
    let big_lead = big.exp + big.mant.bits() as i64;
    let small_lead = small.exp + small.mant.bits() as i64;
    let limit = big.exp.min(big_lead - i64::from(prec) - 2) - 2;
    let stand_in;
    let small = if small_lead < limit {
        stand_in = BigFloat {
            mant: BigUint::one(),
            exp: limit - 1,
            ..small.clone()
        };
        &stand_in
    } else {
        small
    };
    let e = big.exp.min(small.exp);
    let a = big.mant.clone() << ((big.exp - e) as u64);
    let b = small.mant.clone() << ((small.exp - e) as u64);
    if big.neg == small.neg {
        BigFloat::round_from(big.neg, a + b, e, false, prec)
    } else {
        let d = a - b; // |big| >= |small|
        if d.is_zero() {
            BigFloat::zero(false, prec)
        } else {
            BigFloat::round_from(big.neg, d, e, false, prec)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f64_round_trip() {
        for f in [
            0.1,
            1.0,
            -2.5,
            1e300,
            5e-324,
            2.2250738585072014e-308,
            123456789.125,
            -0.0,
        ] {
            let b = BigFloat::from_f64(f).unwrap();
            assert_eq!(b.to_f64().to_bits(), f.to_bits(), "{f}");
        }
        assert!(BigFloat::from_f64(f64::NAN).is_none());
    }

    #[test]
    fn rounding_ties_to_even() {
        // 0b1011 at 3 bits: halfway between 0b101 and 0b110 -> 0b110 (even).
        let r = BigFloat::round_from(false, BigUint::from(11u32), 0, false, 3);
        assert_eq!(r.to_f64(), 12.0);
        let r = BigFloat::round_from(false, BigUint::from(9u32), 0, false, 3);
        assert_eq!(r.to_f64(), 8.0);
    }

    #[test]
    fn nan_errors() {
        let z = BigFloat::zero(false, 64);
        let inf = BigFloat::inf(false, 64);
        assert!(z.quo(&z, 64).is_err());
        assert!(inf.add(&inf.neg(), 64).is_err());
        assert!(inf.mul(&z, 64).is_err());
        assert!(BigFloat::from_i64(1).quo(&z, 64).unwrap().is_inf());
    }

    #[test]
    fn huge_gap_add_rounds_like_exact() {
        let one = BigFloat::from_i64_prec(1, 53);
        let tiny = BigFloat::round_from(false, BigUint::one(), -100_000, false, 53);
        let s = one.add(&tiny, 53).unwrap();
        assert_eq!(s.compare(&one), Ordering::Equal);
        let d = one.sub(&tiny, 53).unwrap();
        assert_eq!(d.compare(&one), Ordering::Equal);
        // At huge precision the tiny part must still round correctly.
        let d = one.sub(&tiny, 10).unwrap();
        assert_eq!(d.to_f64(), 1.0);
    }

    #[test]
    fn trunc_floor_ceil() {
        let x = BigFloat::from_f64(-2.5).unwrap();
        assert_eq!(x.trunc_int().unwrap(), BigInt::from(-2));
        assert_eq!(x.floor_int().unwrap(), BigInt::from(-3));
        assert_eq!(x.ceil_int().unwrap(), BigInt::from(-2));
    }
}
