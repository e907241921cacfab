//! Byte-level primitives of the pack format: fixed-width little-endian integers and LEB128 varints.
//!
//! [`Writer`] appends; [`Reader`] consumes a slice and never panics: every read is bounds-checked
//! and reports the absolute byte offset it failed at. Varints are read strictly (at most 10 bytes,
//! no bits beyond 64, no redundant trailing zero groups), so every accepted encoding is the one
//! [`Writer::varint`] would write: a decoded file re-encodes to exactly the same bytes.

use super::PackError;

/// Appends little-endian integers and varints to a buffer.
#[derive(Debug, Default)]
pub(super) struct Writer {
    pub(super) buf: Vec<u8>,
}

impl Writer {
    pub(super) fn with_capacity(capacity: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(capacity),
        }
    }

    pub(super) fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    pub(super) fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub(super) fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }

    pub(super) fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    pub(super) fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    /// Unsigned LEB128: 7 bits per byte, least significant group first, high bit = "more follows".
    pub(super) fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// A length or count as a varint. `usize` always fits in `u64` on supported targets.
    pub(super) fn len(&mut self, n: usize) {
        self.varint(n as u64);
    }

    /// A length-prefixed UTF-8 string.
    pub(super) fn str(&mut self, s: &str) {
        self.len(s.len());
        self.bytes(s.as_bytes());
    }
}

/// Reads a byte slice front to back with bounds and overflow checks.
#[derive(Debug)]
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

/// Longest LEB128 encoding of a u64: ceil(64 / 7) bytes.
const MAX_VARINT_BYTES: usize = 10;

impl<'a> Reader<'a> {
    /// A reader over `bytes`, starting at offset `pos` (offsets in errors are absolute).
    pub(super) fn new(bytes: &'a [u8], pos: usize) -> Self {
        Reader { bytes, pos }
    }

    /// Current absolute offset.
    pub(super) fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes not yet read.
    pub(super) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    pub(super) fn corrupt(&self, offset: usize, what: impl Into<String>) -> PackError {
        PackError::Corrupt {
            offset,
            what: what.into(),
        }
    }

    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], PackError> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.bytes.get(self.pos..end)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(PackError::Truncated {
                offset: self.pos,
                needed: n,
            }),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], PackError> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub(super) fn u8(&mut self) -> Result<u8, PackError> {
        Ok(self.array::<1>()?[0])
    }

    pub(super) fn u16(&mut self) -> Result<u16, PackError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    pub(super) fn u32(&mut self) -> Result<u32, PackError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// `n` u16s appended to `out`, read in one bounds check.
    pub(super) fn u16s(&mut self, n: usize, out: &mut Vec<u16>) -> Result<(), PackError> {
        let bytes = self.take(n.saturating_mul(2))?;
        out.extend(
            bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]])),
        );
        Ok(())
    }

    pub(super) fn u64(&mut self) -> Result<u64, PackError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A strict LEB128 u64 (see the module docs for what "strict" refuses).
    pub(super) fn varint(&mut self) -> Result<u64, PackError> {
        let start = self.pos;
        let mut value: u64 = 0;
        for i in 0..MAX_VARINT_BYTES {
            let byte = self.u8()?;
            let group = u64::from(byte & 0x7f);
            // The 10th byte may only carry the single top bit of a u64.
            if i == MAX_VARINT_BYTES - 1 && group > 1 {
                return Err(self.corrupt(start, "varint overflows 64 bits"));
            }
            value |= group << (7 * i);
            if byte & 0x80 == 0 {
                // A zero last group after the first byte is a redundant (overlong) encoding.
                if i > 0 && group == 0 {
                    return Err(self.corrupt(start, "overlong varint (not minimally encoded)"));
                }
                return Ok(value);
            }
        }
        Err(self.corrupt(start, "varint longer than 10 bytes"))
    }

    /// A varint that must fit in u32; `what` names the field in the error.
    pub(super) fn varint_u32(&mut self, what: &str) -> Result<u32, PackError> {
        let start = self.pos;
        let v = self.varint()?;
        u32::try_from(v)
            .map_err(|_| self.corrupt(start, format!("{what} {v} does not fit in 32 bits")))
    }

    /// A count of items, each taking at least `min_bytes` bytes: refused as corrupt when the bytes
    /// left could not hold that many, so callers may allocate `count` items safely.
    pub(super) fn count(&mut self, what: &str, min_bytes: usize) -> Result<usize, PackError> {
        let start = self.pos;
        let count = self.varint()?;
        let left = self.remaining();
        let fits = usize::try_from(count)
            .ok()
            .and_then(|c| c.checked_mul(min_bytes.max(1)))
            .is_some_and(|need| need <= left);
        if fits {
            // `fits` proved the conversion succeeds.
            Ok(count as usize)
        } else {
            Err(self.corrupt(
                start,
                format!(
                    "{what} {count} is larger than the {left} bytes left could hold \
                     (at least {min_bytes} bytes each)"
                ),
            ))
        }
    }

    /// A count like [`Reader::count`] that must also lie in `least..=most`: the writer never
    /// writes another (a key held by no record, a list of no pages, more longest words than a
    /// signature keeps), so accepting one would accept bytes the encoder cannot have written.
    pub(super) fn count_in(
        &mut self,
        what: &str,
        min_bytes: usize,
        least: usize,
        most: usize,
    ) -> Result<usize, PackError> {
        let start = self.pos;
        let count = self.count(what, min_bytes)?;
        if (least..=most).contains(&count) {
            Ok(count)
        } else {
            Err(self.corrupt(start, format!("{what} {count} is outside {least}..={most}")))
        }
    }

    /// The next value of a strictly ascending sequence stored as deltas: `floor + delta`, where
    /// `floor` is the least value it may take (the sequence's first possible value, then the
    /// previous value + 1), refused unless below `end`. Every value has one encoding (a delta
    /// is never negative and a repeat is impossible), and the caller's next floor (the value
    /// plus 1, as the encoder computes it) never overflows: `end` is at most `u64::MAX`, so a
    /// record number `u64::MAX` (which would have let `floor` saturate and a delta of 0 repeat
    /// it) is refused.
    pub(super) fn ascending(&mut self, floor: u64, end: u64, what: &str) -> Result<u64, PackError> {
        let start = self.pos;
        let delta = self.varint()?;
        match floor.checked_add(delta) {
            Some(v) if v < end => Ok(v),
            _ => Err(self.corrupt(start, format!("{what} past {}", end.saturating_sub(1)))),
        }
    }

    /// A length-prefixed UTF-8 string.
    pub(super) fn str(&mut self, what: &str) -> Result<String, PackError> {
        let start = self.pos;
        let len = self.count(&format!("{what} length"), 1)?;
        let raw = self.take(len)?;
        match std::str::from_utf8(raw) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(self.corrupt(
                start,
                format!(
                    "{what} is not valid UTF-8 (at byte {} of the string)",
                    e.valid_up_to()
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn varint_round_trips_and_is_minimal(v in any::<u64>()) {
            let mut w = Writer::default();
            w.varint(v);
            let expected_len = (64 - v.leading_zeros() as usize).div_ceil(7).max(1);
            prop_assert_eq!(w.buf.len(), expected_len);
            let mut r = Reader::new(&w.buf, 0);
            prop_assert_eq!(r.varint().unwrap(), v);
            prop_assert_eq!(r.remaining(), 0);
        }

        #[test]
        fn fixed_width_is_little_endian(a in any::<u16>(), b in any::<u32>(), c in any::<u64>()) {
            let mut w = Writer::default();
            w.u16(a);
            w.u32(b);
            w.u64(c);
            prop_assert_eq!(&w.buf[..2], &a.to_le_bytes());
            let mut r = Reader::new(&w.buf, 0);
            prop_assert_eq!((r.u16().unwrap(), r.u32().unwrap(), r.u64().unwrap()), (a, b, c));
        }
    }

    #[test]
    fn strict_varints() {
        let read = |b: &[u8]| Reader::new(b, 0).varint();
        assert_eq!(read(&[0x00]).unwrap(), 0);
        assert_eq!(read(&[0x80, 0x01]).unwrap(), 128);
        assert!(matches!(
            read(&[0x80, 0x00]),
            Err(PackError::Corrupt { .. })
        ));
        assert!(matches!(read(&[0xff; 11]), Err(PackError::Corrupt { .. })));
        let mut max = vec![0xff; 9];
        max.push(0x01);
        assert_eq!(read(&max).unwrap(), u64::MAX);
        max[9] = 0x02;
        assert!(matches!(read(&max), Err(PackError::Corrupt { .. })));
        assert_eq!(
            read(&[0x80, 0x80]),
            Err(PackError::Truncated {
                offset: 2,
                needed: 1
            })
        );
        let mut r = Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x10], 0);
        assert!(matches!(
            r.varint_u32("x"),
            Err(PackError::Corrupt { offset: 0, .. })
        ));
    }

    #[test]
    fn counts_are_bounded_by_the_bytes_left() {
        let mut w = Writer::default();
        w.varint(u64::MAX);
        w.varint(3);
        w.bytes(&[0; 12]);
        let mut r = Reader::new(&w.buf, 0);
        assert!(matches!(
            r.count("items", 4),
            Err(PackError::Corrupt { .. })
        ));
        let mut r = Reader::new(&w.buf, 10);
        assert_eq!(r.count("items", 4).unwrap(), 3);
        let mut r = Reader::new(&w.buf, 10);
        assert!(r.count("items", 5).is_err());
    }
}
