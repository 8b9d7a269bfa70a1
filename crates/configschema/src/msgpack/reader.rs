//! A cursor over msgpack bytes, reading the forms go-cty's decoder accepts.

use rmp::Marker;

use super::MAX_DEPTH;

/// A cursor over msgpack bytes.
pub(super) struct Reader<'a> {
    pub(super) buf: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn peek(&self) -> Option<Marker> {
        self.buf.get(self.pos).map(|b| Marker::from_u8(*b))
    }

    pub(super) fn marker(&mut self) -> Option<Marker> {
        let m = self.peek()?;
        self.pos += 1;
        Some(m)
    }

    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let bytes = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(bytes)
    }

    pub(super) fn be(&mut self, n: usize) -> Option<u64> {
        Some(
            self.take(n)?
                .iter()
                .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)),
        )
    }

    /// `DecodeArrayLen` on an array marker (nil is handled by callers).
    pub(super) fn array_len(&mut self) -> Option<usize> {
        let n = match self.marker()? {
            Marker::FixArray(n) => u64::from(n),
            Marker::Array16 => self.be(2)?,
            Marker::Array32 => self.be(4)?,
            _ => return None,
        };
        usize::try_from(n).ok()
    }

    pub(super) fn map_len(&mut self) -> Option<usize> {
        let n = match self.marker()? {
            Marker::FixMap(n) => u64::from(n),
            Marker::Map16 => self.be(2)?,
            Marker::Map32 => self.be(4)?,
            _ => return None,
        };
        usize::try_from(n).ok()
    }

    /// `DecodeBytes`/`DecodeString`: str or bin.
    pub(super) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = match self.marker()? {
            Marker::FixStr(n) => u64::from(n),
            Marker::Str8 | Marker::Bin8 => self.be(1)?,
            Marker::Str16 | Marker::Bin16 => self.be(2)?,
            Marker::Str32 | Marker::Bin32 => self.be(4)?,
            _ => return None,
        };
        self.take(usize::try_from(n).ok()?)
    }

    pub(super) fn string(&mut self) -> Option<String> {
        self.bytes()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// `DecodeInt64`: any integer form.
    pub(super) fn int(&mut self) -> Option<i64> {
        match self.marker()? {
            Marker::FixPos(n) => Some(i64::from(n)),
            Marker::FixNeg(n) => Some(i64::from(n)),
            Marker::I8 => Some(i64::from(self.be(1)? as u8 as i8)),
            Marker::I16 => Some(i64::from(self.be(2)? as u16 as i16)),
            Marker::I32 => Some(i64::from(self.be(4)? as u32 as i32)),
            Marker::I64 => Some(self.be(8)? as i64),
            Marker::U8 => Some(self.be(1)? as i64),
            Marker::U16 => Some(self.be(2)? as i64),
            Marker::U32 => Some(self.be(4)? as i64),
            Marker::U64 => Some(self.be(8)? as i64),
            _ => None,
        }
    }

    pub(super) fn bool(&mut self) -> Option<bool> {
        match self.marker()? {
            Marker::True => Some(true),
            Marker::False => Some(false),
            _ => None,
        }
    }

    /// An extension's type code and body.
    pub(super) fn ext(&mut self) -> Option<(i8, &'a [u8])> {
        let len = match self.marker()? {
            Marker::FixExt1 => 1,
            Marker::FixExt2 => 2,
            Marker::FixExt4 => 4,
            Marker::FixExt8 => 8,
            Marker::FixExt16 => 16,
            Marker::Ext8 => self.be(1)?,
            Marker::Ext16 => self.be(2)?,
            Marker::Ext32 => self.be(4)?,
            _ => return None,
        };
        let code = self.take(1)?[0] as i8;
        Some((code, self.take(usize::try_from(len).ok()?)?))
    }

    /// Skips one whole value of any kind.
    pub(super) fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = self.peek()?;
        match m {
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
                for _ in 0..self.array_len()? {
                    self.skip(depth + 1)?;
                }
            }
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
                for _ in 0..self.map_len()?.checked_mul(2)? {
                    self.skip(depth + 1)?;
                }
            }
            Marker::FixStr(_)
            | Marker::Str8
            | Marker::Str16
            | Marker::Str32
            | Marker::Bin8
            | Marker::Bin16
            | Marker::Bin32 => {
                self.bytes()?;
            }
            m if is_ext(m) => {
                self.ext()?;
            }
            Marker::F32 => {
                self.take(5)?;
            }
            Marker::F64 => {
                self.take(9)?;
            }
            Marker::Null | Marker::True | Marker::False => {
                self.pos += 1;
            }
            Marker::Reserved => return None,
            _ => {
                self.int()?;
            }
        }
        Some(())
    }
}

pub(super) fn is_ext(m: Marker) -> bool {
    matches!(
        m,
        Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32
    )
}
