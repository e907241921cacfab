//! Document records: what alignment needs of one published document, and none of its text.
//!
//! A [`Record`] holds the document's identity, its exact-duplicate hash, its content words in
//! order (each hash folded to 16 bits, [`crate::align::words::fold`]) and its short-text
//! signature. From it the engine runs the same ranking, extension and alignment as against the
//! full text ([`crate::pair::Source::Record`]); only spans in the source and the widening of a
//! highlight over stop words need the text itself. The store keeps one per document, and the
//! browser fetches one per candidate.
//!
//! Byte layout (`docs/FORMAT.md`, "Document records"), inside the pack envelope
//! ([`super::frame`]):
//!
//! ```text
//! string id | string url | string title | u64 exact | varint count, u16 × count words
//!           | varint count, u32 × count short-text hashes
//!           | varint count, varint × count sentence starts (deltas)
//! ```
//! Size: 2 bytes a content word, about 1 byte a sentence, plus about 80 bytes; a 1,000-word text
//! (about 550 content words once stop words are gone) takes about 1.2 KB.

use super::bytes::Writer;
use super::frame::{self, Canon, Kind};
use super::PackError;
use crate::align::words::fold;
use crate::canonicalize::CANONICALIZER_VERSION;
use crate::document::{Document, SourceInfo};
use crate::short::ShortSignature;
use crate::Params;

/// One document as alignment needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Identifier, URL and title.
    pub info: SourceInfo,
    /// Exact-duplicate hash of the canonical content ([`Document::exact`]).
    pub exact: u64,
    /// Content-word hashes folded to 16 bits, in text order: `words.len()` is the document's
    /// content-word count.
    pub words: Vec<u16>,
    /// Longest-words signature, for short drafts.
    pub short: ShortSignature,
    /// Indices into `words` of the words that open a sentence, ascending
    /// ([`Document::sentences`]): the units of rewrite detection.
    pub sentences: Vec<u32>,
}

impl Record {
    /// Keeps what a record needs of an analysed document.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::Record, Document, Format, Params, SourceInfo};
    /// let doc = Document::analyze("Records keep every content word, folded to two bytes.",
    ///     Format::Plain, &Params::default(), 1 << 20).unwrap();
    /// let r = Record::from_document(SourceInfo::default(), &doc);
    /// assert_eq!(r.words.len(), doc.content_words());
    /// ```
    pub fn from_document(info: SourceInfo, doc: &Document) -> Record {
        Record {
            info,
            exact: doc.exact,
            words: doc.hashes.iter().map(|&h| fold(h)).collect(),
            short: doc.short.clone(),
            sentences: doc.sentences.clone(),
        }
    }

    /// Encodes the record for documents analysed with `params` by this build. Deterministic.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::Record, Document, Format, Params, SourceInfo};
    /// let p = Params::default();
    /// let doc = Document::analyze("Один текст, одна запись.", Format::Plain, &p, 1 << 20).unwrap();
    /// let r = Record::from_document(SourceInfo { id: "7".into(), ..Default::default() }, &doc);
    /// assert_eq!(Record::decode(&r.encode(&p), &p).unwrap(), r);
    /// ```
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Record, canon_of(params), |w: &mut Writer| {
            w.str(&self.info.id);
            w.str(&self.info.url);
            w.str(&self.info.title);
            w.u64(self.exact);
            w.len(self.words.len());
            self.words.iter().for_each(|&h| w.u16(h));
            w.len(self.short.hashes.len());
            self.short.hashes.iter().for_each(|&h| w.u32(h));
            w.len(self.sentences.len());
            let mut last = 0;
            for &s in &self.sentences {
                w.varint(u64::from(s - last));
                last = s;
            }
        })
    }

    /// Decodes a record written by [`Record::encode`] and checks that its words were made as
    /// drafts are here (`params`' canonicalization, this build's canonicalizer). Never panics;
    /// allocates in proportion to `bytes.len()`.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Record, PackError> {
        let (canon, mut r) = frame::read(Kind::Record, bytes)?;
        check_canon(canon, params)?;
        let info = SourceInfo {
            id: r.str("id")?,
            url: r.str("url")?,
            title: r.str("title")?,
        };
        let exact = r.u64()?;
        let n = r.count("word count", 2)?;
        let mut words = Vec::with_capacity(n);
        for _ in 0..n {
            words.push(r.u16()?);
        }
        let n = r.count("short-text hash count", 4)?;
        let mut hashes = Vec::with_capacity(n);
        for _ in 0..n {
            hashes.push(r.u32()?);
        }
        let n = r.count("sentence count", 1)?;
        let mut sentences = Vec::with_capacity(n);
        let mut last = 0u32;
        for _ in 0..n {
            let at = r.offset();
            let delta = r.varint()?;
            match u32::try_from(delta).ok().and_then(|d| last.checked_add(d)) {
                Some(s) if (s as usize) < words.len() && (sentences.is_empty() || s > last) => {
                    sentences.push(s);
                    last = s;
                }
                _ => return Err(r.corrupt(at, "a sentence start out of order or past the words")),
            }
        }
        frame::finish(&r)?;
        Ok(Record {
            info,
            exact,
            words,
            short: ShortSignature { hashes },
            sentences,
        })
    }
}

impl Record {
    /// A record file of format version 2 as this version writes it. Version 3 changed only the
    /// page table, so a record keeps its body and gets the version-3 envelope: a store keeps its
    /// records across the bump without analysing its documents again. A record already in this
    /// version is returned as it is.
    ///
    /// Only the envelope is checked (magic, version, CRC32, kind), not the body: decoding it
    /// needs the parameters, and a damaged body stays as damaged as it was.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::Record, Document, Format, Params, SourceInfo};
    /// let p = Params::default();
    /// let doc = Document::analyze("Одна запись.", Format::Plain, &p, 1 << 20).unwrap();
    /// let v3 = Record::from_document(SourceInfo::default(), &doc).encode(&p);
    /// assert_eq!(Record::upgrade(&v3).unwrap(), v3);
    /// ```
    ///
    /// Errors: what decoding the envelope gives ([`PackError::Version`] for any version but 2
    /// and this one, [`PackError::Checksum`], …).
    pub fn upgrade(bytes: &[u8]) -> Result<Vec<u8>, PackError> {
        frame::reframe(Kind::Record, 2, bytes)
    }
}

/// The canonicalization that drafts analysed here with `params` get.
pub(super) fn canon_of(params: &Params) -> Canon {
    Canon {
        canonicalizer: CANONICALIZER_VERSION,
        stop_words: params.stop_words,
        stemming: params.stemming,
    }
}

/// Refuses a file whose words were canonicalized otherwise than drafts are here.
pub(super) fn check_canon(canon: Canon, params: &Params) -> Result<(), PackError> {
    let made = Params {
        stop_words: canon.stop_words,
        stemming: canon.stemming,
        ..*params
    };
    super::check_analysis(canon.canonicalizer, &made, params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Format;
    use proptest::prelude::*;

    fn record() -> (Record, Params) {
        let p = Params::default();
        let doc = Document::analyze(
            "Записи хранят каждое значимое слово в двух байтах, а текста не хранят вовсе.",
            Format::Plain,
            &p,
            1 << 20,
        )
        .unwrap();
        let info = SourceInfo {
            id: "42".into(),
            url: "https://example.com/a".into(),
            title: "Записи".into(),
        };
        (Record::from_document(info, &doc), p)
    }

    #[test]
    fn other_canonicalization_and_other_files_are_refused_by_name() {
        let (r, p) = record();
        let bytes = r.encode(&p);
        let other = Params {
            stemming: false,
            ..p
        };
        let err = Record::decode(&bytes, &other).unwrap_err();
        assert_eq!(err.code(), "pack_params");
        assert!(err
            .to_string()
            .contains("stemming = true in the pack, false here"));
        // A file of another format version (1 was a whole shard of sketches) says so, before
        // its checksum is looked at.
        let mut v1 = bytes.clone();
        v1[4..6].copy_from_slice(&1u16.to_le_bytes());
        let err = Record::decode(&v1, &p).unwrap_err();
        assert_eq!(err.code(), "pack_version");
        assert!(err.to_string().contains("version 1"), "{err}");
        // Another kind of pack file.
        let mut page = bytes.clone();
        page[6] = Kind::Page as u8;
        let n = page.len() - 4;
        let crc = crc32fast::hash(&page[..n]).to_le_bytes();
        page[n..].copy_from_slice(&crc);
        let err = Record::decode(&page, &p).unwrap_err();
        assert!(err.to_string().contains("an index page"), "{err}");
    }

    /// Sets the version of a file and gives it a correct CRC32.
    fn with_version(bytes: &[u8], version: u16) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[4..6].copy_from_slice(&version.to_le_bytes());
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]).to_le_bytes();
        b[n..].copy_from_slice(&crc);
        b
    }

    #[test]
    fn a_version_2_record_is_upgraded_and_nothing_else() {
        let (r, p) = record();
        let v3 = r.encode(&p);
        let v2 = with_version(&v3, 2);
        assert_eq!(Record::decode(&v2, &p).unwrap_err().code(), "pack_version");
        assert_eq!(Record::upgrade(&v2).unwrap(), v3);
        assert_eq!(Record::upgrade(&v3).unwrap(), v3);
        // Damaged, another version, another kind: refused, never re-framed.
        let mut damaged = v2.clone();
        damaged[20] ^= 1;
        assert_eq!(
            Record::upgrade(&damaged).unwrap_err().code(),
            "pack_checksum"
        );
        let v1 = with_version(&v3, 1);
        assert_eq!(Record::upgrade(&v1).unwrap_err().code(), "pack_version");
        let mut page = v2.clone();
        page[6] = Kind::Page as u8;
        let page = with_version(&page, 2);
        assert_eq!(Record::upgrade(&page).unwrap_err().code(), "pack_corrupt");
        assert_eq!(
            Record::upgrade(b"UQPK").unwrap_err().code(),
            "pack_truncated"
        );
        assert_eq!(Record::upgrade(b"<html>").unwrap_err().code(), "pack_magic");
    }

    proptest! {
        #[test]
        fn records_round_trip(words in prop::collection::vec(any::<u16>(), 0..300),
                              short in prop::collection::vec(any::<u32>(), 0..15),
                              exact in any::<u64>(), title in ".{0,20}",
                              starts in prop::collection::btree_set(0u32..300, 0..40)) {
            let p = Params::default();
            let sentences = starts.into_iter().filter(|&s| (s as usize) < words.len()).collect();
            let r = Record {
                info: SourceInfo { id: "1".into(), url: String::new(), title },
                exact,
                words,
                short: ShortSignature { hashes: short },
                sentences,
            };
            prop_assert_eq!(Record::decode(&r.encode(&p), &p).unwrap(), r);
        }

        /// Any damage is a typed error, never a panic; a changed byte is caught by the CRC.
        #[test]
        fn damaged_records_are_refused(cut in 0usize..200, flip in 0usize..200, bit in 0u8..8) {
            let (r, p) = record();
            let bytes = r.encode(&p);
            let cut = cut.min(bytes.len() - 1);
            prop_assert!(Record::decode(&bytes[..cut], &p).is_err());
            let mut flipped = bytes.clone();
            let at = flip % bytes.len();
            flipped[at] ^= 1 << bit;
            prop_assert!(Record::decode(&flipped, &p).is_err());
        }
    }
}
