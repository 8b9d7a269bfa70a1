//! Decimal parsing, a port of Go's `big.ParseFloat(s, 10, prec, ToNearestEven)`.

use num_bigint::BigUint;
use num_traits::Zero;

use super::bigfloat::{BigFloat, MAX_EXP, MIN_EXP};

/// Why a string is not a number in Go's `big.ParseFloat` grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNumberError {
    /// Go's error text (informational; cty reports "a number is required").
    pub reason: String,
}

impl std::fmt::Display for ParseNumberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for ParseNumberError {}

fn err(reason: impl Into<String>) -> ParseNumberError {
    ParseNumberError {
        reason: reason.into(),
    }
}

const POW5_TAB_MAX: u64 = 27;

/// Go's `pow5` at precision `prec`: exact up to 5^27, then repeated squaring.
fn pow5(n: u64, prec: u32) -> BigFloat {
    if n <= POW5_TAB_MAX {
        return BigFloat::round_from(false, BigUint::from(5u64.pow(n as u32)), 0, false, prec);
    }
    let mut z = BigFloat::round_from(
        false,
        BigUint::from(5u64.pow(POW5_TAB_MAX as u32)),
        0,
        false,
        prec,
    );
    let mut n = n - POW5_TAB_MAX;
    let fprec = prec + 64;
    let mut f = BigFloat::round_from(false, BigUint::from(5u32), 0, false, fprec);
    while n > 0 {
        if n & 1 != 0 {
            z = z
                .mul(&f, prec)
                .unwrap_or_else(|_| BigFloat::inf(false, prec));
        }
        f = f
            .mul(&f, fprec)
            .unwrap_or_else(|_| BigFloat::inf(false, fprec));
        n >>= 1;
    }
    z
}

impl BigFloat {
    /// Go `big.ParseFloat(s, 10, prec, big.ToNearestEven)`, including the
    /// `Inf`/`inf` spellings and binary `p` exponents.
    pub fn parse(s: &str, prec: u32) -> Result<BigFloat, ParseNumberError> {
        match s {
            "Inf" | "inf" | "+Inf" | "+inf" => return Ok(BigFloat::inf(false, prec)),
            "-Inf" | "-inf" => return Ok(BigFloat::inf(true, prec)),
            _ => {}
        }
        let b = s.as_bytes();
        let mut i = 0;
        let mut neg = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            neg = b[i] == b'-';
            i += 1;
        }
        let start = i;
        let mut digits = String::new();
        let mut seen_dot = false;
        let mut frac_digits: i64 = 0;
        while i < b.len() {
            match b[i] {
                c @ b'0'..=b'9' => {
                    digits.push(c as char);
                    if seen_dot {
                        frac_digits += 1;
                    }
                }
                b'.' if !seen_dot => seen_dot = true,
                _ => break,
            }
            i += 1;
        }
        if digits.is_empty() {
            if i == start {
                return Err(err("expected number"));
            }
            return Err(err("number has no digits"));
        }
        let mut exp: i64 = 0;
        let mut exp_base2 = false;
        if i < b.len() && matches!(b[i], b'e' | b'E' | b'p' | b'P') {
            exp_base2 = matches!(b[i], b'p' | b'P');
            i += 1;
            let es = i;
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                i += 1;
            }
            let ds = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if ds == i {
                return Err(err("exponent has no digits"));
            }
            exp = s[es..i]
                .parse::<i64>()
                .map_err(|_| err("exponent overflow"))?;
        }
        if i != b.len() {
            return Err(err(format!(
                "expected end of string, found {:?}",
                b[i] as char
            )));
        }
        let mant = BigUint::parse_bytes(digits.as_bytes(), 10).unwrap_or_default();
        if mant.is_zero() {
            return Ok(BigFloat::zero(neg, prec));
        }
        let (exp2, exp5) = if exp_base2 {
            (exp.checked_sub(frac_digits), -frac_digits)
        } else {
            let e = exp.checked_sub(frac_digits);
            (e, e.unwrap_or(0))
        };
        let exp2 = exp2.ok_or_else(|| err("exponent overflow"))?;
        let go_exp = exp2
            .checked_add(mant.bits() as i64)
            .ok_or_else(|| err("exponent overflow"))?;
        if !(MIN_EXP..=MAX_EXP).contains(&go_exp) {
            return Err(err("exponent overflow"));
        }
        if exp5 == 0 {
            return Ok(BigFloat::round_from(neg, mant, exp2, false, prec));
        }
        // Unrounded mantissa, rounded only by the final Mul/Quo (as Go does).
        let z = BigFloat::round_from(neg, mant, exp2, false, u32::MAX);
        let p = pow5(exp5.unsigned_abs(), prec + 64);
        let r = if exp5 < 0 {
            z.quo(&p, prec)
        } else {
            z.mul(&p, prec)
        };
        Ok(r.unwrap_or_else(|_| BigFloat::zero(neg, prec)))
    }
}
