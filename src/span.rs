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

    #[test]
    fn crlf_combining_and_emoji() {
        let text = "a\r\nе\u{301}👍🏽b";
        let c = OffsetConverter::new(text, Unit::Utf16);
        assert_eq!(c.convert(text.find('b').unwrap()), 9);
        assert_eq!(c.len(), text.encode_utf16().count());
    }
}
