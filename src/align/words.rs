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

pub use crate::hash::fold;

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

/// A text's folded words numbered: its distinct words in order of first appearance, and each
/// word's number among them (`terms[numbers[i]]` is word `i`). Rewrite detection keeps what it
/// knows of a source's words by number, in tables as small as its vocabulary
/// ([`super::rewrite`]), and numbers every source it reads this way: through a table of every
/// folded word, a read a word, instead of a hash table's probes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Numbered {
    /// The distinct folded words (in order of first appearance, as [`Numbered::fill`] gives them).
    pub terms: Vec<u16>,
    /// Each word's index into `terms`.
    pub numbers: Vec<u16>,
}

impl Numbered {
    /// Numbers `words` (folded hashes, below 2^16) into this value's memory; false (and `self`
    /// unspecified) when a word is not folded.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::align::words::Numbered;
    /// let mut n = Numbered::default();
    /// assert!(n.fill(&[7, 3, 7, 9, 3]));
    /// assert_eq!((&n.terms[..], &n.numbers[..]), (&[7, 3, 9][..], &[0, 1, 0, 2, 1][..]));
    /// assert!(!n.fill(&[1 << 16]));
    /// ```
    pub fn fill(&mut self, words: &[u32]) -> bool {
        self.terms.clear();
        if words.iter().any(|&w| w > u32::from(u16::MAX)) {
            self.numbers.clear();
            return false;
        }
        // Numbers written into a slice sized up front, the table a local slice: a push would
        // reload the vector's length and capacity at every word (it may alias the table). The
        // slice is cut or grown, not cleared: every number is written.
        if self.numbers.len() < words.len() {
            self.numbers.resize(words.len(), 0);
        }
        self.numbers.truncate(words.len());
        let terms = &mut self.terms;
        NUMBERING.with_borrow_mut(|table| {
            let stamp = table.next_stamp();
            let entries = &mut table.entries[..1 << 16];
            for (&w, number) in words.iter().zip(&mut self.numbers) {
                let entry = &mut entries[w as usize & 0xffff];
                *number = if *entry >> 16 == stamp {
                    *entry as u16
                } else {
                    let new = terms.len() as u16;
                    *entry = stamp << 16 | u32::from(new);
                    terms.push(w as u16);
                    new
                };
            }
        });
        true
    }
}

thread_local! {
    static NUMBERING: std::cell::RefCell<NumberTable> = std::cell::RefCell::default();
}

/// A number for every possible folded word, [`Numbered::fill`]'s working memory: an entry is
/// `stamp << 16 | number`, valid only in the fill whose stamp it bears, so a fill starts without
/// clearing the table (256 KB, read a word at a time: the reads of a text's words are independent
/// and overlap, where a hash table's probes would be a chain of dependent ones).
#[derive(Default)]
struct NumberTable {
    entries: Vec<u32>,
    stamp: u32,
}

impl NumberTable {
    /// The stamp of a new fill (the table cleared once every 65,535 fills, when stamps wrap).
    fn next_stamp(&mut self) -> u32 {
        if self.entries.is_empty() || self.stamp == u32::from(u16::MAX) {
            self.entries.clear();
            self.entries.resize(1 << 16, 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }
}
