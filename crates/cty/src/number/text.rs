//! Decimal formatting of [`BigFloat`], a port of Go's `math/big` ftoa.go and
//! decimal.go: `Text('f'|'e'|'g', prec)` including the shortest mode (-1).

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::bigfloat::BigFloat;

/// Exact decimal `0.mant * 10^exp`, digits without trailing zeros.
#[derive(Clone, Debug, Default)]
struct Decimal {
    mant: Vec<u8>,
    exp: i64,
}

impl Decimal {
    /// Exact decimal of `m * 2^shift`.
    fn new(m: &BigUint, shift: i64) -> Decimal {
        if m.is_zero() {
            return Decimal::default();
        }
        let (digits, frac) = if shift >= 0 {
            ((m.clone() << (shift as u64)).to_str_radix(10), 0i64)
        } else {
            // m / 2^k == m * 5^k / 10^k
            let k = (-shift) as u64;
            let tz = m.trailing_zeros().unwrap_or(0).min(k);
            let m = m >> tz;
            let k = k - tz;
            let five = BigUint::from(5u32).pow(k as u32);
            ((m * five).to_str_radix(10), k as i64)
        };
        let mut mant = digits.into_bytes();
        let exp = mant.len() as i64 - frac;
        while mant.last() == Some(&b'0') {
            mant.pop();
        }
        Decimal { mant, exp }
    }

    fn at(&self, i: usize) -> u8 {
        self.mant.get(i).copied().unwrap_or(b'0')
    }

    fn trim(&mut self) {
        while self.mant.last() == Some(&b'0') {
            self.mant.pop();
        }
        if self.mant.is_empty() {
            self.exp = 0;
        }
    }

    fn should_round_up(&self, n: usize) -> bool {
        if self.mant[n] == b'5' && n + 1 == self.mant.len() {
            return n > 0 && (self.mant[n - 1] - b'0') & 1 != 0;
        }
        self.mant[n] >= b'5'
    }

    fn round(&mut self, n: i64) {
        if n < 0 || n as usize >= self.mant.len() {
            return;
        }
        if self.should_round_up(n as usize) {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    fn round_up(&mut self, n: i64) {
        if n < 0 || n as usize >= self.mant.len() {
            return;
        }
        let mut n = n as usize;
        while n > 0 && self.mant[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.mant.truncate(1);
            self.mant[0] = b'1';
            self.exp += 1;
            return;
        }
        self.mant[n - 1] += 1;
        self.mant.truncate(n);
    }

    fn round_down(&mut self, n: i64) {
        if n < 0 || n as usize >= self.mant.len() {
            return;
        }
        self.mant.truncate(n as usize);
        self.trim();
    }
}

/// Go's `roundShortest`: fewest digits that still round back to `x` at its precision.
fn round_shortest(d: &mut Decimal, x: &BigFloat) {
    if d.mant.is_empty() {
        return;
    }
    let (m, e) = x.parts();
    let mut mant = m.clone();
    let mut exp = e;
    let s = mant.bits() as i64 - (i64::from(x.prec()) + 1);
    if s < 0 {
        mant <<= (-s) as u64;
    } else if s > 0 {
        mant >>= s as u64;
    }
    exp += s;
    let lower = Decimal::new(&(&mant - BigUint::one()), exp);
    let upper = Decimal::new(&(&mant + BigUint::one()), exp);
    let inclusive = !mant.bit(1);
    for i in 0..d.mant.len() {
        let m = d.mant[i];
        let l = lower.at(i);
        let u = upper.at(i);
        let okdown = l != m || inclusive && i + 1 == lower.mant.len();
        let okup = m != u && (inclusive || m + 1 < u || i + 1 < upper.mant.len());
        match (okdown, okup) {
            (true, true) => return d.round(i as i64 + 1),
            (true, false) => return d.round_down(i as i64 + 1),
            (false, true) => return d.round_up(i as i64 + 1),
            _ => {}
        }
    }
}

fn fmt_e(buf: &mut String, fmt: u8, prec: i64, d: &Decimal) {
    buf.push(d.mant.first().copied().unwrap_or(b'0') as char);
    if prec > 0 {
        buf.push('.');
        let mut i = 1usize;
        let m = d.mant.len().min(prec as usize + 1);
        if i < m {
            buf.push_str(std::str::from_utf8(&d.mant[i..m]).unwrap_or(""));
            i = m;
        }
        while (i as i64) <= prec {
            buf.push('0');
            i += 1;
        }
    }
    buf.push(fmt as char);
    let mut exp = if d.mant.is_empty() { 0 } else { d.exp - 1 };
    if exp < 0 {
        buf.push('-');
        exp = -exp;
    } else {
        buf.push('+');
    }
    if exp < 10 {
        buf.push('0');
    }
    buf.push_str(&exp.to_string());
}

fn fmt_f(buf: &mut String, prec: i64, d: &Decimal) {
    if d.exp > 0 {
        let m = d.mant.len().min(d.exp as usize);
        buf.push_str(std::str::from_utf8(&d.mant[..m]).unwrap_or(""));
        for _ in m as i64..d.exp {
            buf.push('0');
        }
    } else {
        buf.push('0');
    }
    if prec > 0 {
        buf.push('.');
        for i in 0..prec {
            let j = d.exp + i;
            buf.push(if j >= 0 {
                d.at(j as usize) as char
            } else {
                '0'
            });
        }
    }
}

impl BigFloat {
    /// Go `x.Text(format, prec)` for formats 'e', 'E', 'f', 'g', 'G'.
    /// A negative `prec` selects the shortest exact representation.
    pub fn text(&self, format: char, prec: i64) -> String {
        let mut buf = String::new();
        if self.is_neg() {
            buf.push('-');
        }
        if self.is_inf() {
            if !self.is_neg() {
                buf.push('+');
            }
            buf.push_str("Inf");
            return buf;
        }
        let mut d = if self.is_zero() {
            Decimal::default()
        } else {
            let (m, e) = self.parts();
            Decimal::new(m, e)
        };
        let mut prec = prec;
        let shortest = prec < 0;
        if shortest {
            round_shortest(&mut d, self);
            prec = match format {
                'e' | 'E' => d.mant.len() as i64 - 1,
                'f' => (d.mant.len() as i64 - d.exp).max(0),
                _ => d.mant.len() as i64,
            };
        } else {
            match format {
                'e' | 'E' => d.round(1 + prec),
                'f' => d.round(d.exp + prec),
                'g' | 'G' => {
                    if prec == 0 {
                        prec = 1;
                    }
                    d.round(prec);
                }
                _ => {}
            }
        }
        match format {
            'e' | 'E' => fmt_e(&mut buf, format as u8, prec, &d),
            'f' => fmt_f(&mut buf, prec, &d),
            'g' | 'G' => {
                let mut eprec = prec;
                if eprec > d.mant.len() as i64 && d.mant.len() as i64 >= d.exp {
                    eprec = d.mant.len() as i64;
                }
                if shortest {
                    eprec = 6;
                }
                let exp = d.exp - 1;
                if exp < -4 || exp >= eprec {
                    if prec > d.mant.len() as i64 {
                        prec = d.mant.len() as i64;
                    }
                    let e = if format == 'g' { b'e' } else { b'E' };
                    fmt_e(&mut buf, e, prec - 1, &d);
                } else {
                    if prec > d.exp {
                        prec = d.mant.len() as i64;
                    }
                    fmt_f(&mut buf, (prec - d.exp).max(0), &d);
                }
            }
            _ => {
                if self.is_neg() {
                    buf.pop();
                }
                buf.push('%');
                buf.push(format);
            }
        }
        buf
    }

    /// Go `x.String()`, i.e. `Text('g', 10)`; cty uses it in set hashes.
    pub fn go_string(&self) -> String {
        self.text('g', 10)
    }
}
