//! Offsets in the unit the caller counts in.
//!
//! Inside the engine every span is a byte range of the original UTF-8 text. JavaScript indexes
//! strings in UTF-16 code units and the CLI's JSON in Unicode scalar values (characters); an
//! [`OffsetConverter`] turns byte offsets into either in O(1) amortised time per query after an
//! O(len / 256) set-up, without copying the text.

use serde::{Deserialize, Serialize};

/// A unit for string offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// UTF-8 bytes (Rust `str` indices).
    Bytes,
    /// Unicode scalar values (Python `str` indices; PAN's ground truth).
    Chars,
    /// UTF-16 code units (JavaScript string indices).
    Utf16,
}

const BLOCK: usize = 256;

/// Converts byte offsets of one text into [`Unit`] offsets.
///
/// # Example
/// ```
/// use uniqcheck::span::{OffsetConverter, Unit};
/// let text = "я 😀 a";
/// let chars = OffsetConverter::new(text, Unit::Chars);
/// let utf16 = OffsetConverter::new(text, Unit::Utf16);
/// let a = text.find('a').unwrap();
/// assert_eq!(chars.convert(a), 4);
/// assert_eq!(utf16.convert(a), 5); // the emoji is a surrogate pair
/// ```
#[derive(Debug, Clone)]
pub struct OffsetConverter<'a> {
    bytes: &'a [u8],
    unit: Unit,
    /// Units before the start of each BLOCK-sized chunk of bytes.
    checkpoints: Vec<usize>,
}

fn units_in(bytes: &[u8], unit: Unit) -> usize {
    match unit {
        Unit::Bytes => bytes.len(),
        // A character starts at every byte that is not a continuation byte (10xxxxxx).
        Unit::Chars => bytes.iter().filter(|&&b| (b as i8) >= -0x40).count(),
        // Characters outside the BMP (4-byte lead bytes) take two UTF-16 code units.
        Unit::Utf16 => bytes
            .iter()
            .map(|&b| ((b as i8) >= -0x40) as usize + (b >= 0xF0) as usize)
            .sum(),
    }
}

impl<'a> OffsetConverter<'a> {
    /// Prepares conversions for `text`.
    pub fn new(text: &'a str, unit: Unit) -> Self {
        let bytes = text.as_bytes();
        let mut checkpoints = Vec::new();
        if unit != Unit::Bytes {
            let mut total = 0;
            checkpoints.reserve(bytes.len() / BLOCK + 1);
            for chunk in bytes.chunks(BLOCK) {
                checkpoints.push(total);
                total += units_in(chunk, unit);
            }
            checkpoints.push(total);
        }
        OffsetConverter {
            bytes,
            unit,
            checkpoints,
        }
    }

    /// The offset, in this converter's unit, of byte offset `byte` (clamped to the text's length).
    /// `byte` should be a char boundary; a non-boundary offset counts the partial character.
    pub fn convert(&self, byte: usize) -> usize {
        let byte = byte.min(self.bytes.len());
        if self.unit == Unit::Bytes {
            return byte;
        }
        let block = byte / BLOCK;
        self.checkpoints[block] + units_in(&self.bytes[block * BLOCK..byte], self.unit)
    }

    /// The byte offset of `at`, an offset in this converter's unit: the inverse of
    /// [`OffsetConverter::convert`]. `None` when `at` is past the end of the text or inside a
    /// character (between the two halves of a UTF-16 surrogate pair).
    pub fn to_byte(&self, at: usize) -> Option<usize> {
        if self.unit == Unit::Bytes {
            let boundary = self
                .bytes
                .get(at)
                .map_or(at == self.bytes.len(), |&b| (b as i8) >= -0x40);
            return boundary.then_some(at);
        }
        // The last block starting at or before `at`, then its characters one at a time.
        // (The last checkpoint counts the whole text: its block starts past a partial last one.)
        let block = (self
            .checkpoints
            .partition_point(|&c| c <= at)
            .checked_sub(1)?)
        .min(self.bytes.len() / BLOCK);
        let mut units = self.checkpoints[block];
        let mut byte = block * BLOCK;
        // A block may start inside a character: step to its first boundary.
        while byte < self.bytes.len() && (self.bytes[byte] as i8) < -0x40 {
            byte += 1;
        }
        while units < at {
            let &lead = self.bytes.get(byte)?;
            units += 1 + usize::from(self.unit == Unit::Utf16 && lead >= 0xF0);
            byte += match lead {
                0..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
        }
        (units == at).then_some(byte)
    }

    /// The length of the whole text in this converter's unit.
    pub fn len(&self) -> usize {
        self.convert(self.bytes.len())
    }

    /// True for an empty text.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn matches_std_counts(text in "\\PC{0,700}", cut in 0usize..800) {
            let mut cut = cut.min(text.len());
            while !text.is_char_boundary(cut) { cut -= 1; }
            let prefix = &text[..cut];
            prop_assert_eq!(OffsetConverter::new(&text, Unit::Chars).convert(cut), prefix.chars().count());
            prop_assert_eq!(OffsetConverter::new(&text, Unit::Utf16).convert(cut), prefix.encode_utf16().count());
            prop_assert_eq!(OffsetConverter::new(&text, Unit::Bytes).convert(cut), cut);
        }
    }

    proptest! {
        /// Every offset in a unit maps back to the byte it came from; offsets inside a
        /// surrogate pair or past the end map to nothing.
        #[test]
        fn to_byte_inverts_convert(text in "\\PC{0,700}") {
            for unit in [Unit::Bytes, Unit::Chars, Unit::Utf16] {
                let c = OffsetConverter::new(&text, unit);
                let mut mapped = 0;
                for (b, _) in text.char_indices().chain([(text.len(), ' ')]) {
                    prop_assert_eq!(c.to_byte(c.convert(b)), Some(b));
                    mapped += 1;
                }
                prop_assert_eq!(c.to_byte(c.len() + 1), None);
                if unit == Unit::Utf16 {
                    // Every other UTF-16 offset is inside an astral character.
                    prop_assert_eq!((0..=c.len()).filter(|&u| c.to_byte(u).is_some()).count(), mapped);
                }
            }
        }
    }

    #[test]
    fn crlf_combining_and_emoji() {
        let text = "a\r\nе\u{301}👍🏽b";
        let c = OffsetConverter::new(text, Unit::Utf16);
        assert_eq!(c.convert(text.find('b').unwrap()), 9);
        assert_eq!(c.len(), text.encode_utf16().count());
    }
}
