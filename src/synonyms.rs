//! Synonym canonicalization: every content word mapped to its synonym class's representative
//! before shingling, so that a draft whose words were swapped for dictionary synonyms (a
//! "synonymizer") meets its source's words again.
//!
//! A [`Synonyms`] table maps the hash of a word's canonical form ([`crate::canonicalize::Word`]'s
//! `hash`: CRC32 of the stemmed, case-folded form) to the hash of its class representative's; a
//! word not in the table is its own representative, and so is every representative. The classes
//! are built outside the engine (`uniqcheck-eval`'s `synonym-table`, from thesauri; see
//! docs/EVALUATION.md, "Synonym classes"): this module only reads the table and applies it.
//!
//! [`Synonyms::apply`] rewrites an analysed [`Document`] (its content words, then everything
//! computed from them: shingles, fingerprints, sketch, exact hash, short-text signature). Both
//! sides of a comparison must go through the same table, or nothing matches.
//!
//! # The table file (version 1)
//!
//! Little-endian; varints are LEB128 (7 bits a byte, low first).
//!
//! | field | size | what |
//! |---|---|---|
//! | magic | 4 | `UQSY` |
//! | version | 1 | 1 |
//! | flags | 1 | bit 0: keys are stemmed forms (the table is for `stemming` on) |
//! | canonicalizer | 2 | [`CANONICALIZER_VERSION`] the keys were made with |
//! | entries | 4 | N: words mapped to another word |
//! | representatives | 4 | R: distinct targets |
//! | targets | 4·R | the representatives' hashes, ascending |
//! | keys | varints | N keys ascending, each as the difference from the previous one (the first from 0) |
//! | values | varints | N indices into the targets |
//! | checksum | 4 | CRC32 of everything before it |
//!
//! A key is never a target (representatives map to themselves, so a class is one step deep).

use crate::canonicalize::CANONICALIZER_VERSION;
use crate::document::Document;
use crate::Params;

/// First bytes of a table file.
pub const MAGIC: &[u8; 4] = b"UQSY";
/// The table format version this code reads and writes.
pub const FORMAT_VERSION: u8 = 1;

/// Why a table file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SynonymError {
    /// Not a table file, or cut short.
    #[error("not a synonym table: {0}")]
    Malformed(&'static str),
    /// Written by another format version.
    #[error("synonym table format version {found}, this engine reads version {FORMAT_VERSION}")]
    Version {
        /// The file's version.
        found: u8,
    },
    /// The checksum does not match: the file is damaged.
    #[error("synonym table checksum mismatch: the file is damaged")]
    Checksum,
    /// Keys made with other canonicalization rules than the engine's.
    #[error(
        "synonym table made for canonicalizer version {found}, \
         the engine runs version {CANONICALIZER_VERSION}"
    )]
    Canonicalizer {
        /// The table's canonicalizer version.
        found: u16,
    },
    /// Keys stemmed (or not) unlike the documents they would map.
    #[error("synonym table made with stemming {table}, the documents have stemming {documents}")]
    Stemming {
        /// The table's stemming flag.
        table: bool,
        /// The documents' stemming setting.
        documents: bool,
    },
}

/// A synonym table: word hash → representative hash.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Synonyms {
    /// Mapped word hashes, ascending.
    keys: Vec<u32>,
    /// The representative of each key.
    values: Vec<u32>,
    /// Keys are stemmed forms.
    stemmed: bool,
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u32, SynonymError> {
    let mut v: u64 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes.get(*at).ok_or(SynonymError::Malformed("cut short"))?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return u32::try_from(v).map_err(|_| SynonymError::Malformed("varint overflow"));
        }
    }
    Err(SynonymError::Malformed("varint too long"))
}

fn get_u32(bytes: &[u8], at: &mut usize) -> Result<u32, SynonymError> {
    let b = bytes
        .get(*at..*at + 4)
        .ok_or(SynonymError::Malformed("cut short"))?;
    *at += 4;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl Synonyms {
    /// A table from (word, representative) pairs. Pairs mapping a word to itself are dropped; a
    /// word listed twice keeps its first representative; a representative that is itself mapped
    /// elsewhere is followed to its own representative (one step at a time, stopping at a cycle),
    /// so that every target is a fixed point.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (u32, u32)>, stemmed: bool) -> Synonyms {
        let mut map = std::collections::BTreeMap::new();
        for (k, v) in pairs {
            if k != v {
                map.entry(k).or_insert(v);
            }
        }
        let resolve = |mut v: u32| {
            for _ in 0..8 {
                match map.get(&v) {
                    Some(&next) => v = next,
                    None => break,
                }
            }
            v
        };
        let resolved: Vec<(u32, u32)> = map.iter().map(|(&k, &v)| (k, resolve(v))).collect();
        let (keys, values) = resolved.into_iter().filter(|(k, v)| k != v).unzip();
        Synonyms {
            keys,
            values,
            stemmed,
        }
    }

    /// Words mapped to another word.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// No word is mapped.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether the keys are stemmed forms (the table is for [`Params::stemming`] on).
    pub fn stemmed(&self) -> bool {
        self.stemmed
    }

    /// The representative of word hash `hash` (itself when it is not in the table).
    #[inline]
    pub fn get(&self, hash: u32) -> u32 {
        match self.keys.binary_search(&hash) {
            Ok(i) => self.values[i],
            Err(_) => hash,
        }
    }

    /// Every (word, representative) pair, keys ascending.
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.keys.iter().copied().zip(self.values.iter().copied())
    }

    /// The union of two tables; where both map a word, `self`'s representative wins.
    pub fn merge(&self, other: &Synonyms) -> Synonyms {
        Synonyms::from_pairs(self.pairs().chain(other.pairs()), self.stemmed)
    }

    /// The table file (see the module's documentation).
    pub fn encode(&self) -> Vec<u8> {
        let mut targets: Vec<u32> = self.values.clone();
        targets.sort_unstable();
        targets.dedup();
        let mut out = Vec::with_capacity(16 + 4 * targets.len() + 6 * self.keys.len());
        out.extend_from_slice(MAGIC);
        out.push(FORMAT_VERSION);
        out.push(u8::from(self.stemmed));
        out.extend_from_slice(&CANONICALIZER_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        out.extend_from_slice(&(targets.len() as u32).to_le_bytes());
        for t in &targets {
            out.extend_from_slice(&t.to_le_bytes());
        }
        let mut prev = 0;
        for &k in &self.keys {
            put_varint(&mut out, k - prev);
            prev = k;
        }
        for v in &self.values {
            let i = targets.binary_search(v).unwrap_or_default();
            put_varint(&mut out, i as u32);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a table file.
    ///
    /// Errors: [`SynonymError`] for a file that is not a table, is damaged, or has another
    /// version.
    pub fn decode(bytes: &[u8]) -> Result<Synonyms, SynonymError> {
        if bytes.len() < 20 || &bytes[..4] != MAGIC {
            return Err(SynonymError::Malformed("no UQSY magic"));
        }
        if bytes[4] != FORMAT_VERSION {
            return Err(SynonymError::Version { found: bytes[4] });
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]) {
            return Err(SynonymError::Checksum);
        }
        let stemmed = body[5] & 1 == 1;
        let canon = u16::from_le_bytes([body[6], body[7]]);
        if canon != CANONICALIZER_VERSION {
            return Err(SynonymError::Canonicalizer { found: canon });
        }
        let mut at = 8;
        let n = get_u32(body, &mut at)? as usize;
        let r = get_u32(body, &mut at)? as usize;
        if r > body.len() / 4 || n > body.len() {
            return Err(SynonymError::Malformed("counts larger than the file"));
        }
        let targets = (0..r)
            .map(|_| get_u32(body, &mut at))
            .collect::<Result<Vec<u32>, _>>()?;
        let mut keys = Vec::with_capacity(n);
        let mut prev: u32 = 0;
        for i in 0..n {
            let d = get_varint(body, &mut at)?;
            if i > 0 && d == 0 {
                return Err(SynonymError::Malformed("keys not ascending"));
            }
            prev = prev
                .checked_add(d)
                .ok_or(SynonymError::Malformed("key overflow"))?;
            keys.push(prev);
        }
        let values = (0..n)
            .map(|_| {
                let i = get_varint(body, &mut at)? as usize;
                targets
                    .get(i)
                    .copied()
                    .ok_or(SynonymError::Malformed("target index out of range"))
            })
            .collect::<Result<Vec<u32>, _>>()?;
        if at != body.len() {
            return Err(SynonymError::Malformed("trailing bytes"));
        }
        Ok(Synonyms {
            keys,
            values,
            stemmed,
        })
    }

    /// Checks that this table fits documents analysed with `params` (stemming alike).
    ///
    /// Errors: [`SynonymError::Stemming`].
    pub fn check(&self, params: &Params) -> Result<(), SynonymError> {
        if self.stemmed != params.stemming {
            return Err(SynonymError::Stemming {
                table: self.stemmed,
                documents: params.stemming,
            });
        }
        Ok(())
    }

    /// `doc` (analysed with `params`) with every content word replaced by its representative, and
    /// everything computed from the content words computed again. Stop words, spans and sentence
    /// starts are unchanged.
    pub fn apply(&self, doc: Document, params: &Params) -> Document {
        if self.is_empty() {
            return doc;
        }
        let (mut canonical, quoted) = (doc.canonical, doc.quoted);
        for &i in &canonical.content {
            let w = &mut canonical.words[i as usize];
            w.hash = self.get(w.hash);
        }
        Document {
            quoted,
            ..Document::from_canonical(canonical, params)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonicalize::{canonical_form, CanonOptions};
    use crate::{compare, CheckOptions, Format};

    fn h(word: &str) -> u32 {
        let opts = CanonOptions {
            stop_words: true,
            stemming: true,
        };
        crc32fast::hash(canonical_form(word, opts).as_bytes())
    }

    #[test]
    fn round_trip_and_lookup() {
        let t = Synonyms::from_pairs(
            [(5, 9), (1, 9), (300_000, 2), (9, 9), (5, 7), (u32::MAX, 0)],
            true,
        );
        assert_eq!(t.len(), 4);
        assert_eq!((t.get(5), t.get(1), t.get(9), t.get(4)), (9, 9, 9, 4));
        assert_eq!(t.get(u32::MAX), 0);
        let bytes = t.encode();
        assert_eq!(Synonyms::decode(&bytes).unwrap(), t);
        assert!(Synonyms::decode(&Synonyms::default().encode())
            .unwrap()
            .is_empty());
    }

    #[test]
    fn targets_are_fixed_points() {
        // 1 → 2 → 3: 1 follows to 3, so a text with 1 and one with 2 meet.
        let t = Synonyms::from_pairs([(1, 2), (2, 3)], true);
        assert_eq!((t.get(1), t.get(2), t.get(3)), (3, 3, 3));
        // A cycle ends somewhere without looping forever.
        let c = Synonyms::from_pairs([(1, 2), (2, 1)], true);
        assert!(c.len() <= 2);
    }

    #[test]
    fn refuses_damaged_and_foreign_files() {
        let t = Synonyms::from_pairs([(1, 2), (70_000, 2)], true);
        let bytes = t.encode();
        for cut in [0, 3, 10, bytes.len() - 1] {
            assert!(Synonyms::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert_eq!(Synonyms::decode(&bad), Err(SynonymError::Checksum));
        let mut v2 = bytes.clone();
        v2[4] = 2;
        assert_eq!(
            Synonyms::decode(&v2),
            Err(SynonymError::Version { found: 2 })
        );
        assert!(t.check(&Params::default()).is_ok());
        let unstemmed = Params {
            stemming: false,
            ..Params::default()
        };
        assert!(t.check(&unstemmed).is_err());
    }

    #[test]
    fn apply_makes_synonym_swaps_match() {
        let source = "Автобусы с милицией стали занимать площадь у памятника ещё с утра, \
            центральная часть площади была огорожена, и журналисты наблюдали за задержаниями \
            участников акции протеста весь вечер до самой ночи.";
        let draft = "Автобусы с полицией стали занимать площадь у памятника ещё с утра, \
            центральная доля площади была огорожена, и корреспонденты наблюдали за задержаниями \
            участников акции протеста весь вечер до самой ночи.";
        let t = Synonyms::from_pairs(
            [
                (h("полиция"), h("милиция")),
                (h("доля"), h("часть")),
                (h("корреспондент"), h("журналист")),
            ],
            true,
        );
        let p = Params::default();
        let o = CheckOptions {
            short_threshold: 0,
            ..CheckOptions::default()
        };
        let plain = compare(draft, Format::Plain, source, Format::Plain, &p, &o).unwrap();
        let da = t.apply(
            Document::analyze(draft, Format::Plain, &p, 1 << 20).unwrap(),
            &p,
        );
        let db = t.apply(
            Document::analyze(source, Format::Plain, &p, 1 << 20).unwrap(),
            &p,
        );
        assert_eq!(da.hashes, db.hashes);
        assert_eq!(da.exact, db.exact);
        assert!(plain.resemblance < 1.0);
        // Spans still point into the original texts.
        let w = &da.canonical.words[2];
        assert_eq!(&draft[w.start as usize..w.end as usize], "полицией");
    }
}
