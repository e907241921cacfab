//! The content words of a text as alignment sees them: each word's hash folded to 16 bits, and
//! their `n`-word shingles.
//!
//! Folding is what lets a source be aligned from its stored record (2 bytes a word, see
//! [`crate::pack::Record`]) exactly as from its full text: every path folds, so a draft checked
//! against a text, a store or a browser's packs meets the same words. Shingles of folded words
//! still hash `16·n` bits of words (64 at `n` = 4): chance equality between two texts' shingles
//! stays far below one in a million per pair of documents; word pairs (32 bits) are only
//! extension evidence next to an anchor.

use crate::shingle::{shingles, Shingle};

/// A word hash folded to the 16 bits a record stores: both halves of the CRC32 mixed, so no
/// half is thrown away.
///
/// # Example
/// ```
/// use uniqcheck::align::words::fold;
/// assert_eq!(fold(0x1234_5678), 0x1234 ^ 0x5678);
/// ```
#[inline]
pub fn fold(hash: u32) -> u16 {
    ((hash >> 16) ^ hash) as u16
}

/// A text's folded content-word hashes and their `n`-word shingles.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words {
    /// Folded content-word hashes (values below 2^16), in text order.
    pub hashes: Vec<u32>,
    /// Their `n`-word shingles, in text order.
    pub shingles: Vec<Shingle>,
    /// Indices of the words that open a sentence, ascending (empty: one sentence).
    pub sentences: Vec<u32>,
}

impl Words {
    /// From full content-word hashes (a [`crate::Document`]'s `hashes`).
    pub fn from_hashes(hashes: &[u32], n: usize) -> Words {
        Words::new(hashes.iter().map(|&h| u32::from(fold(h))).collect(), n)
    }

    /// From already folded hashes (a record's `words`).
    pub fn from_folded(folded: &[u16], n: usize) -> Words {
        Words::new(folded.iter().map(|&h| u32::from(h)).collect(), n)
    }

    /// The same words with their sentence starts ([`crate::Document::sentences`]).
    pub fn with_sentences(self, sentences: Vec<u32>) -> Words {
        Words { sentences, ..self }
    }

    fn new(hashes: Vec<u32>, n: usize) -> Words {
        let shingles = shingles(&hashes, n);
        Words {
            hashes,
            shingles,
            sentences: Vec::new(),
        }
    }
}
