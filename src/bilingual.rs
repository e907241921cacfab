//! English–Russian shared vocabulary: for each content word of one language, the content words
//! of the other that translate it, so that a draft translated from a source meets the source's
//! words again.
//!
//! A [`Bilingual`] table maps the hash of a word's canonical form ([`crate::canonicalize::Word`]'s
//! `hash`: CRC32 of the stemmed, case-folded form; English and Russian words live in one hash
//! space, each stemmed by its own language's stemmer) to the **folded** hashes
//! ([`crate::hash::fold`]) of its translations. Only the draft's side is looked up, with its full
//! hashes; the source's side is what alignment reads anyway, folded words, so a source known only
//! by its record (a store's, a pack's) is aligned with a translated draft exactly as a text is:
//! records need not change. The table is symmetric: a pair holds in both directions.
//!
//! The pairs come from outside the engine (`uniqcheck-eval`'s `bilingual-table`, from the
//! Wiktionary-derived dictionary of `../shared/data/bilingual`; docs/EVALUATION.md, "Translated
//! reuse"): this module only stores, reads and looks them up. Alignment through a table is
//! [`crate::align::translate`]'s.
//!
//! # The table file (version 1)
//!
//! Little-endian; varints are LEB128 (7 bits a byte, low first), read strictly (one encoding per
//! value: a table decodes only from the bytes [`Bilingual::encode`] writes).
//!
//! | field | size | what |
//! |---|---|---|
//! | magic | 4 | `UQBL` |
//! | version | 1 | 1 |
//! | flags | 1 | bit 0: keys are stemmed forms (the table is for `stemming` on); other bits 0 |
//! | canonicalizer | 2 | [`CANONICALIZER_VERSION`] the keys were made with |
//! | keys | varint | N: words with translations |
//! | key deltas | N varints | ascending keys, each as the difference from the previous one + 1 (the first from 0) |
//! | counts | N varints | each key's number of translations, 1..=[`MAX_TRANSLATIONS`] |
//! | translations | 2 each | every key's folded translations, distinct within a key, most certain first |
//! | checksum | 4 | CRC32 of everything before it |

use crate::canonicalize::CANONICALIZER_VERSION;
use crate::hash::fold;

/// First bytes of a table file.
pub const MAGIC: &[u8; 4] = b"UQBL";
/// The table format version this code reads and writes.
pub const FORMAT_VERSION: u8 = 1;
/// Translations kept for one word: a word with more is so polysemous ("set", «дело») that its
/// rarer translations would match any text; [`Bilingual::from_pairs`] keeps the first this many it
/// is given, so the table's maker orders pairs by how sure they are. On the tuning set 4, 6, 8,
/// 12 and 24 find 35, 38, 38, 38 and 37 of 40 translations; 12 marks the most of them
/// (docs/EVALUATION.md, "Translated reuse").
pub const MAX_TRANSLATIONS: usize = 12;

/// What is wrong with a table file, or with a table for these documents.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BilingualError {
    /// Not a table, or a damaged one.
    #[error("not a bilingual table: {0}")]
    Malformed(String),
    /// Another format version.
    #[error("bilingual table format version {found}, this engine reads version {FORMAT_VERSION}")]
    Version {
        /// The file's version.
        found: u8,
    },
    /// The checksum does not match.
    #[error("bilingual table checksum mismatch: the file is damaged")]
    Checksum,
    /// Keys made by another canonicalizer would not match the documents' words.
    #[error(
        "bilingual table made for canonicalizer version {found}, \
         the engine runs version {CANONICALIZER_VERSION}"
    )]
    Canonicalizer {
        /// The canonicalizer version the table records.
        found: u16,
    },
    /// Stemmed keys do not match unstemmed words, nor the reverse.
    #[error("bilingual table made with stemming {table}, the documents have stemming {documents}")]
    Stemming {
        /// The table's.
        table: bool,
        /// The documents'.
        documents: bool,
    },
}

/// Reads a table's body front to back, strictly: a varint has one encoding (no redundant
/// trailing zero group), so a decoded table re-encodes to the same bytes. (The pack format's
/// reader is the same idea, but the engine's table must not depend on the pack module, which
/// depends on alignment.)
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn malformed(&self, what: &str) -> BilingualError {
        BilingualError::Malformed(format!("{what} at byte {}", self.at))
    }

    fn take(&mut self, n: usize) -> Result<&[u8], BilingualError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(self.malformed("cut short"));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u16(&mut self) -> Result<u16, BilingualError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn varint(&mut self) -> Result<u64, BilingualError> {
        let mut v: u64 = 0;
        for i in 0..5 {
            let b = self.take(1)?[0];
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                if i > 0 && b == 0 {
                    return Err(self.malformed("overlong varint"));
                }
                return Ok(v);
            }
        }
        Err(self.malformed("varint longer than 32 bits"))
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Words and their translations (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bilingual {
    /// Word hashes with translations, ascending.
    keys: Vec<u32>,
    /// Key `i`'s translations are `values[at[i]..at[i + 1]]`.
    at: Vec<u32>,
    /// Folded translations, most certain first within a key.
    values: Vec<u16>,
    stemmed: bool,
}

impl Bilingual {
    /// A table of translation pairs `(a, b)` (word hashes, either language first), each holding
    /// both ways. A word keeps its first [`MAX_TRANSLATIONS`] distinct translations in the order
    /// given (most certain first); a word paired with itself (a loanword spelled alike) is
    /// left out, since it meets itself anyway.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::bilingual::Bilingual;
    /// use uniqcheck::hash::fold;
    /// let t = Bilingual::from_pairs([(10, 70_000), (10, 20)], true);
    /// assert_eq!(t.translations(10), &[fold(70_000), 20]);
    /// assert_eq!(t.translations(70_000), &[fold(10)]);
    /// assert!(t.translations(99).is_empty());
    /// ```
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u32, u32)>, stemmed: bool) -> Bilingual {
        let mut map: std::collections::BTreeMap<u32, Vec<u16>> = Default::default();
        let mut add = |from: u32, to: u32| {
            let list = map.entry(from).or_default();
            let to = fold(to);
            if list.len() < MAX_TRANSLATIONS && !list.contains(&to) {
                list.push(to);
            }
        };
        for (a, b) in pairs {
            if a != b {
                add(a, b);
                add(b, a);
            }
        }
        let mut t = Bilingual {
            stemmed,
            ..Default::default()
        };
        t.at.push(0);
        for (k, list) in map {
            t.keys.push(k);
            t.values.extend_from_slice(&list);
            t.at.push(t.values.len() as u32);
        }
        t
    }

    /// Words with translations.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the table holds no word.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// How many translations each word has, in key order.
    pub fn lists(&self) -> Vec<usize> {
        self.at.windows(2).map(|w| (w[1] - w[0]) as usize).collect()
    }

    /// Whether the keys are stemmed forms.
    pub fn stemmed(&self) -> bool {
        self.stemmed
    }

    /// The folded hashes of the translations of the word whose canonical hash is `hash`, most
    /// certain first (empty: none known).
    #[inline]
    pub fn translations(&self, hash: u32) -> &[u16] {
        match self.keys.binary_search(&hash) {
            Ok(i) => &self.values[self.at[i] as usize..self.at[i + 1] as usize],
            Err(_) => &[],
        }
    }

    /// Refuses a table made for other documents than those of params with this `stemming`
    /// ([`crate::Params::stemming`]).
    pub fn check(&self, stemming: bool) -> Result<(), BilingualError> {
        if self.stemmed != stemming {
            return Err(BilingualError::Stemming {
                table: self.stemmed,
                documents: stemming,
            });
        }
        Ok(())
    }

    /// The table file (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Vec::with_capacity(16 + 4 * self.keys.len() + 2 * self.values.len());
        w.extend_from_slice(MAGIC);
        w.push(FORMAT_VERSION);
        w.push(u8::from(self.stemmed));
        w.extend_from_slice(&CANONICALIZER_VERSION.to_le_bytes());
        put_varint(&mut w, self.keys.len() as u64);
        let mut floor = 0u64;
        for &k in &self.keys {
            put_varint(&mut w, u64::from(k) - floor);
            floor = u64::from(k) + 1;
        }
        for pair in self.at.windows(2) {
            put_varint(&mut w, u64::from(pair[1] - pair[0]));
        }
        for &v in &self.values {
            w.extend_from_slice(&v.to_le_bytes());
        }
        let crc = crc32fast::hash(&w);
        w.extend_from_slice(&crc.to_le_bytes());
        w
    }

    /// Reads a table file, refusing any bytes [`Bilingual::encode`] would not have written.
    pub fn decode(bytes: &[u8]) -> Result<Bilingual, BilingualError> {
        if bytes.len() < 13 || &bytes[..4] != MAGIC {
            return Err(BilingualError::Malformed(
                "it does not start with the magic bytes UQBL".into(),
            ));
        }
        if bytes[4] != FORMAT_VERSION {
            return Err(BilingualError::Version { found: bytes[4] });
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != tail {
            return Err(BilingualError::Checksum);
        }
        let mut r = Reader { bytes: body, at: 5 };
        let flags = r.take(1)?[0];
        if flags > 1 {
            return Err(BilingualError::Malformed(format!(
                "unknown flags {flags:#x}"
            )));
        }
        let canon = r.u16()?;
        if canon != CANONICALIZER_VERSION {
            return Err(BilingualError::Canonicalizer { found: canon });
        }
        // A key takes at least a delta byte, a count byte and one translation's two bytes.
        let n = r.varint()?;
        if n > (r.remaining() / 4) as u64 {
            return Err(r.malformed("more keys than the file could hold"));
        }
        let n = n as usize;
        let mut keys = Vec::with_capacity(n);
        let mut floor = 0u64;
        for _ in 0..n {
            let k = floor + r.varint()?;
            if k >= 1 << 32 {
                return Err(r.malformed("key past 32 bits"));
            }
            keys.push(k as u32);
            floor = k + 1;
        }
        let mut at = Vec::with_capacity(n + 1);
        at.push(0u32);
        let mut total = 0usize;
        for _ in 0..n {
            let count = r.varint()? as usize;
            if !(1..=MAX_TRANSLATIONS).contains(&count) {
                return Err(
                    r.malformed("a key's number of translations outside 1..=MAX_TRANSLATIONS")
                );
            }
            total += count;
            at.push(total as u32);
        }
        if total > r.remaining() / 2 {
            return Err(r.malformed("more translations than the file holds"));
        }
        let values: Vec<u16> = (0..total).map(|_| r.u16()).collect::<Result<_, _>>()?;
        if r.remaining() != 0 {
            return Err(BilingualError::Malformed(format!(
                "{} bytes after the translations",
                r.remaining()
            )));
        }
        let mut sorted = Vec::with_capacity(MAX_TRANSLATIONS);
        for (i, pair) in at.windows(2).enumerate() {
            sorted.clear();
            sorted.extend_from_slice(&values[pair[0] as usize..pair[1] as usize]);
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err(BilingualError::Malformed(format!(
                    "a translation of key {} is repeated",
                    keys[i]
                )));
            }
        }
        Ok(Bilingual {
            keys,
            at,
            values,
            stemmed: flags == 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn round_trips_and_refuses_damage() {
        let t = Bilingual::from_pairs([(5, 9), (1, 9), (300_000, 2), (9, 9), (u32::MAX, 0)], true);
        assert_eq!(t.len(), 7);
        assert_eq!(t.translations(9), &[5, 1]);
        assert_eq!(t.translations(u32::MAX), &[0]);
        assert_eq!(t.translations(0), &[fold(u32::MAX)]);
        let bytes = t.encode();
        assert_eq!(Bilingual::decode(&bytes).unwrap(), t);
        let mut damaged = bytes.clone();
        damaged[10] ^= 1;
        assert_eq!(Bilingual::decode(&damaged), Err(BilingualError::Checksum));
        assert!(matches!(
            Bilingual::decode(&bytes[..bytes.len() - 1]),
            Err(BilingualError::Checksum | BilingualError::Malformed(_))
        ));
        let mut other = bytes.clone();
        other[4] = 2;
        assert_eq!(
            Bilingual::decode(&other),
            Err(BilingualError::Version { found: 2 })
        );
        assert!(matches!(
            Bilingual::decode(b"UQSY\x01rest of it"),
            Err(BilingualError::Malformed(_))
        ));
    }

    #[test]
    fn a_word_keeps_its_first_translations_only() {
        let pairs = (0..MAX_TRANSLATIONS as u32 + 5).map(|i| (7, 1000 + i));
        let t = Bilingual::from_pairs(pairs, true);
        assert_eq!(t.translations(7).len(), MAX_TRANSLATIONS);
        assert!(!t
            .translations(7)
            .contains(&fold(1000 + MAX_TRANSLATIONS as u32)));
    }

    #[test]
    fn a_table_for_other_documents_is_refused() {
        let t = Bilingual::from_pairs([(1, 2)], false);
        let err = t.check(true).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bilingual table made with stemming false, the documents have stemming true"
        );
    }

    proptest! {
        /// Every byte string decodes to a table that encodes back to it, or is refused.
        #[test]
        fn decoding_is_canonical(bytes in prop::collection::vec(any::<u8>(), 0..64), pairs in
            prop::collection::vec((0u32..50, 0u32..50), 0..20), cut in 0usize..64) {
            if let Ok(t) = Bilingual::decode(&bytes) {
                prop_assert_eq!(t.encode(), bytes);
            }
            let good = Bilingual::from_pairs(pairs, true).encode();
            let mut fixed = good[..good.len() - 4].to_vec();
            if cut < fixed.len() {
                fixed.truncate(cut.max(8));
            }
            let crc = crc32fast::hash(&fixed);
            fixed.extend_from_slice(&crc.to_le_bytes());
            if let Ok(t) = Bilingual::decode(&fixed) {
                prop_assert_eq!(t.encode(), fixed);
            }
        }
    }
}
