//! Document records: what alignment needs of one published document, and none of its text.
//!
//! A [`Record`] holds the document's identity, its exact-duplicate hash, its content words in
//! order (each hash folded to 16 bits, [`crate::align::words::fold`], kept numbered:
//! [`Numbered`]), its short-text signature and the size of its shingle set. From it the engine
//! runs the same ranking, extension and alignment as against the full text
//! ([`crate::pair::Source::Record`]); only spans in the source and the widening of a highlight
//! over stop words need the text itself. The store keeps one per document, and the browser
//! fetches one per candidate.
//!
//! What a check would otherwise compute for every candidate from the words is computed once,
//! when the record is written: the words' numbering (rewrite detection's tables by term) and
//! the number of distinct shingles (resemblance and containment). A record read back holds them
//! as [`Record::from_document`] and [`Record::encode`] made them: the decoder refuses a number
//! past the distinct words, a distinct word twice, and a count the words cannot have.
//!
//! Byte layout (`docs/FORMAT.md`, "Record"), inside the pack envelope ([`super::frame`]):
//!
//! ```text
//! string id | string url | string title | u64 exact
//!           | varint count, u16 × count distinct words (in order of first appearance)
//!           | varint count, words each as its number among the distinct words:
//!             u8 × count when there are at most 256 distinct words, u16 × count otherwise
//!           | varint count, u32 × count short-text hashes
//!           | varint count, varint × count sentence starts (deltas)
//!           | u8 n | varint distinct n-word shingles
//! ```
//! Size: 1 byte a content word (2 past 256 distinct words) and 2 a distinct one, about 1 byte a
//! sentence, plus about 80 bytes (docs/FORMAT.md, "Record", has measured sizes).

use super::bytes::{Reader, Writer};
use super::frame::{self, Canon, Kind};
use super::{PackError, FORMAT_VERSION};
use crate::align::probe::distinct_shingles;
use crate::align::words::{fold, Numbered};
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
    /// Longest-words signature, for short drafts.
    pub short: ShortSignature,
    /// Indices into the words of those that open a sentence, ascending
    /// ([`Document::sentences`]): the units of rewrite detection.
    pub sentences: Vec<u32>,
    /// Content-word hashes folded to 16 bits, in text order, numbered.
    words: Numbered,
    /// `(n, the number of distinct n-word shingles of the words)`, `n` 0 until counted (by
    /// [`Record::encode`], or [`Record::count_shingles`]).
    shingles: (u8, u32),
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
    /// assert_eq!(r.word_count(), doc.content_words());
    /// ```
    pub fn from_document(info: SourceInfo, doc: &Document) -> Record {
        let mut words = Numbered::default();
        let folded = words.fill(doc.hashes.iter().map(|&h| u32::from(fold(h))));
        debug_assert!(folded, "folded hashes are below 2^16");
        Record {
            info,
            exact: doc.exact,
            short: doc.short.clone(),
            sentences: doc.sentences.clone(),
            words,
            shingles: (0, 0),
        }
    }

    /// The content words, folded, in text order.
    pub fn words(&self) -> impl ExactSizeIterator<Item = u16> + '_ {
        self.words.words()
    }

    /// The content words numbered ([`Numbered`]): how alignment reads them.
    pub fn numbered(&self) -> &Numbered {
        &self.words
    }

    /// The number of content words.
    pub fn word_count(&self) -> usize {
        self.words.numbers.len()
    }

    /// The number of distinct `n`-word shingles of the words, when known for this `n` (a
    /// record read back from its bytes, or counted by [`Record::count_shingles`]).
    pub fn distinct_shingles(&self, n: usize) -> Option<usize> {
        (n > 0 && usize::from(self.shingles.0) == n).then_some(self.shingles.1 as usize)
    }

    /// Counts the distinct `n`-word shingles of the words, for [`Record::distinct_shingles`].
    pub fn count_shingles(&mut self, n: usize) {
        self.shingles = self.shingles_for(n);
    }

    /// `(n, the distinct n-word shingles)` as [`Record::count_shingles`] keeps them.
    fn shingles_for(&self, n: usize) -> (u8, u32) {
        if self.distinct_shingles(n).is_some() {
            return self.shingles;
        }
        match u8::try_from(n) {
            Ok(n8) if n8 > 0 => {
                let words: Vec<u32> = self.words().map(u32::from).collect();
                (n8, distinct_shingles(&words, n) as u32)
            }
            _ => (0, 0),
        }
    }

    /// Encodes the record for documents analysed with `params` by this build, its shingles
    /// counted for `params.n`. Deterministic.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::Record, Document, Format, Params, SourceInfo};
    /// let p = Params::default();
    /// let doc = Document::analyze("Один текст, одна запись.", Format::Plain, &p, 1 << 20).unwrap();
    /// let mut r = Record::from_document(SourceInfo { id: "7".into(), ..Default::default() }, &doc);
    /// let back = Record::decode(&r.encode(&p), &p).unwrap();
    /// r.count_shingles(p.n);
    /// assert_eq!(back, r);
    /// ```
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        self.encode_as(canon_of(params), self.shingles_for(params.n))
    }

    /// The record's bytes for `canon`, its shingle count `shingles`.
    fn encode_as(&self, canon: Canon, shingles: (u8, u32)) -> Vec<u8> {
        frame::write(Kind::Record, canon, |w: &mut Writer| {
            w.str(&self.info.id);
            w.str(&self.info.url);
            w.str(&self.info.title);
            w.u64(self.exact);
            w.len(self.words.terms.len());
            self.words.terms.iter().for_each(|&h| w.u16(h));
            w.len(self.words.numbers.len());
            if byte_numbers(self.words.terms.len()) {
                self.words.numbers.iter().for_each(|&k| w.u8(k as u8));
            } else {
                self.words.numbers.iter().for_each(|&k| w.u16(k));
            }
            w.len(self.short.hashes.len());
            self.short.hashes.iter().for_each(|&h| w.u32(h));
            write_sentences(w, &self.sentences);
            w.u8(shingles.0);
            w.varint(u64::from(shingles.1));
        })
    }

    /// Decodes a record written by [`Record::encode`] and checks that its words were made as
    /// drafts are here (`params`' canonicalization, this build's canonicalizer). Never panics;
    /// allocates in proportion to `bytes.len()`.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Record, PackError> {
        let (canon, mut r) = frame::read(Kind::Record, bytes)?;
        check_canon(canon, params)?;
        let info = read_info(&mut r)?;
        let exact = r.u64()?;
        let n = r.count("distinct word count", 2)?;
        let mut terms = Vec::with_capacity(n);
        r.u16s(n, &mut terms)?;
        let at = r.offset();
        let bytes = byte_numbers(terms.len());
        let n = r.count("word count", if bytes { 1 } else { 2 })?;
        let mut numbers = Vec::with_capacity(n);
        if bytes {
            r.u8s_as_u16s(n, &mut numbers)?;
        } else {
            r.u16s(n, &mut numbers)?;
        }
        let words = Numbered { terms, numbers };
        if !readable_numbering(&words) {
            return Err(r.corrupt(
                at,
                "a word numbered past the distinct words, or a distinct word twice",
            ));
        }
        let short = read_short(&mut r)?;
        let sentences = read_sentences(&mut r, words.numbers.len())?;
        let at = r.offset();
        let shingles = (r.u8()?, r.varint()?);
        let most = match usize::from(shingles.0) {
            0 => 0,
            n => (words.numbers.len() + 1).saturating_sub(n),
        };
        let shingles = match u32::try_from(shingles.1) {
            Ok(count) if count as usize <= most && (count > 0 || most == 0) => (shingles.0, count),
            _ => return Err(r.corrupt(at, "a shingle count the words cannot have")),
        };
        frame::finish(&r)?;
        Ok(Record {
            info,
            exact,
            short,
            sentences,
            words,
            shingles,
        })
    }

    /// A record file of format version 2 or 3 as this version writes it, its shingles counted
    /// for `n` (the store's): the words numbered and counted from the file's own words, so a
    /// store keeps its records across the bump without analysing its documents again. Its
    /// canonicalization is kept as the file says (the store checks it against its own). A
    /// record already in this version is returned as it is.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::Record, Document, Format, Params, SourceInfo};
    /// let p = Params::default();
    /// let doc = Document::analyze("Одна запись.", Format::Plain, &p, 1 << 20).unwrap();
    /// let v4 = Record::from_document(SourceInfo::default(), &doc).encode(&p);
    /// assert_eq!(Record::upgrade(&v4, p.n).unwrap(), v4);
    /// ```
    ///
    /// Errors: what decoding gives ([`PackError::Version`] for any version but 2, 3 and this
    /// one, [`PackError::Checksum`], [`PackError::Corrupt`], …).
    pub fn upgrade(bytes: &[u8], n: usize) -> Result<Vec<u8>, PackError> {
        let (version, canon, mut r) =
            frame::read_versions(Kind::Record, &[2, 3, FORMAT_VERSION], bytes)?;
        if version == FORMAT_VERSION {
            return Ok(bytes.to_vec());
        }
        // Versions 2 and 3: the words themselves, then the short signature and the sentences.
        let info = read_info(&mut r)?;
        let exact = r.u64()?;
        let count = r.count("word count", 2)?;
        let mut folded = Vec::with_capacity(count);
        r.u16s(count, &mut folded)?;
        let short = read_short(&mut r)?;
        let sentences = read_sentences(&mut r, count)?;
        frame::finish(&r)?;
        let mut words = Numbered::default();
        words.fill(folded.into_iter().map(u32::from));
        let record = Record {
            info,
            exact,
            short,
            sentences,
            words,
            shingles: (0, 0),
        };
        Ok(record.encode_as(canon, record.shingles_for(n)))
    }
}

impl Record {
    /// The record in format version 3's layout (its words themselves, no shingle count), in a
    /// version-3 envelope: what [`Record::upgrade`] reads, for tests of upgrades only.
    #[doc(hidden)]
    pub fn encode_version_3(&self, params: &Params) -> Vec<u8> {
        let mut bytes = frame::write(Kind::Record, canon_of(params), |w: &mut Writer| {
            w.str(&self.info.id);
            w.str(&self.info.url);
            w.str(&self.info.title);
            w.u64(self.exact);
            w.len(self.word_count());
            self.words().for_each(|h| w.u16(h));
            w.len(self.short.hashes.len());
            self.short.hashes.iter().for_each(|&h| w.u32(h));
            write_sentences(w, &self.sentences);
        });
        frame::set_version(&mut bytes, 3);
        bytes
    }
}

/// Whether the words of a record of `distinct` distinct words are stored a byte each (all
/// their numbers fit), or two: most documents have at most 256 distinct content words.
fn byte_numbers(distinct: usize) -> bool {
    distinct <= 1 << 8
}

/// Whether `words` is a numbering alignment can read: every number names one of the distinct
/// words, and they are distinct. Which word gets which number changes nothing alignment finds
/// (it keeps terms by number only to find them again), so the order of first appearance that
/// [`Numbered::fill`] gives is not required.
fn readable_numbering(words: &Numbered) -> bool {
    // The largest number first: one pass the compiler vectorizes, over every word.
    let most = words.numbers.iter().fold(0u16, |most, &k| most.max(k));
    let numbers_in_range = words.numbers.is_empty() || usize::from(most) < words.terms.len();
    if !numbers_in_range {
        return false;
    }
    // Distinct terms: a bit a possible folded word, set while reading and cleared after.
    SEEN.with_borrow_mut(|seen| {
        if seen.is_empty() {
            *seen = vec![0u64; (1 << 16) / 64];
        }
        let at = |t: u16| (usize::from(t) / 64, 1u64 << (t % 64));
        let mut distinct = 0;
        for &t in &words.terms {
            let (i, bit) = at(t);
            if seen[i] & bit != 0 {
                break;
            }
            seen[i] |= bit;
            distinct += 1;
        }
        for &t in &words.terms[..distinct] {
            seen[at(t).0] = 0;
        }
        distinct == words.terms.len()
    })
}

thread_local! {
    /// [`readable_numbering`]'s bitmap of folded words, all clear between calls.
    static SEEN: std::cell::RefCell<Vec<u64>> = std::cell::RefCell::default();
}

fn read_info(r: &mut Reader<'_>) -> Result<SourceInfo, PackError> {
    Ok(SourceInfo {
        id: r.str("id")?,
        url: r.str("url")?,
        title: r.str("title")?,
    })
}

fn read_short(r: &mut Reader<'_>) -> Result<ShortSignature, PackError> {
    let n = r.count("short-text hash count", 4)?;
    let mut hashes = Vec::with_capacity(n);
    for _ in 0..n {
        hashes.push(r.u32()?);
    }
    Ok(ShortSignature { hashes })
}

fn write_sentences(w: &mut Writer, sentences: &[u32]) {
    w.len(sentences.len());
    let mut last = 0;
    for &s in sentences {
        w.varint(u64::from(s - last));
        last = s;
    }
}

/// Sentence starts of a text of `words` content words: strictly ascending, below `words`.
fn read_sentences(r: &mut Reader<'_>, words: usize) -> Result<Vec<u32>, PackError> {
    let n = r.count("sentence count", 1)?;
    let mut sentences = Vec::with_capacity(n);
    let mut last = 0u32;
    for _ in 0..n {
        let at = r.offset();
        let delta = r.varint()?;
        match u32::try_from(delta).ok().and_then(|d| last.checked_add(d)) {
            Some(s) if (s as usize) < words && (sentences.is_empty() || s > last) => {
                sentences.push(s);
                last = s;
            }
            _ => return Err(r.corrupt(at, "a sentence start out of order or past the words")),
        }
    }
    Ok(sentences)
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
        frame::set_version(&mut b, version);
        b
    }

    /// `r` in the layout of versions 2 and 3, framed as `version`.
    fn encode_v3(r: &Record, p: &Params, version: u16) -> Vec<u8> {
        with_version(&r.encode_version_3(p), version)
    }

    #[test]
    fn records_of_versions_2_and_3_are_upgraded_and_nothing_else() {
        let (r, p) = record();
        let v4 = r.encode(&p);
        for version in [2, 3] {
            let old = encode_v3(&r, &p, version);
            assert_eq!(Record::decode(&old, &p).unwrap_err().code(), "pack_version");
            assert_eq!(Record::upgrade(&old, p.n).unwrap(), v4, "version {version}");
            // Damaged: refused, never rewritten.
            let mut damaged = old.clone();
            damaged[20] ^= 1;
            assert_eq!(
                Record::upgrade(&damaged, p.n).unwrap_err().code(),
                "pack_checksum"
            );
        }
        assert_eq!(Record::upgrade(&v4, p.n).unwrap(), v4);
        // Counted for another n: the count says for which.
        let other = Record::upgrade(&encode_v3(&r, &p, 3), 5).unwrap();
        let other = Record::decode(&other, &p).unwrap();
        assert_eq!(other.distinct_shingles(p.n), None);
        assert_eq!(
            other.distinct_shingles(5),
            Some(r.word_count() + 1 - 5),
            "every 5-word window of these words differs"
        );
        // Another version, another kind, not a pack: refused.
        let v1 = with_version(&v4, 1);
        assert_eq!(
            Record::upgrade(&v1, p.n).unwrap_err().code(),
            "pack_version"
        );
        let mut page = encode_v3(&r, &p, 3);
        page[6] = Kind::Page as u8;
        let page = with_version(&page, 3);
        assert_eq!(
            Record::upgrade(&page, p.n).unwrap_err().code(),
            "pack_corrupt"
        );
        assert_eq!(
            Record::upgrade(b"UQPK", p.n).unwrap_err().code(),
            "pack_truncated"
        );
        assert_eq!(
            Record::upgrade(b"<html>", p.n).unwrap_err().code(),
            "pack_magic"
        );
    }

    /// A record whose numbering alignment cannot read, or whose shingle count its words cannot
    /// have, is refused.
    #[test]
    fn unreadable_numbering_and_impossible_counts_are_refused() {
        let (mut r, p) = record();
        r.count_shingles(p.n);
        let good = r.clone();
        let corrupt =
            |r: &Record| Record::decode(&r.encode_as(canon_of(&p), r.shingles), &p).unwrap_err();
        // A number past the distinct words, a distinct word twice.
        r.words.numbers[3] = r.words.terms.len() as u16;
        assert!(
            corrupt(&r).to_string().contains("numbered"),
            "{}",
            corrupt(&r)
        );
        r = good.clone();
        r.words.terms[1] = r.words.terms[0];
        assert_eq!(corrupt(&r).code(), "pack_corrupt");
        // More shingles than windows, none where there are windows.
        for count in [r.word_count() as u32 + 2 - p.n as u32, 0] {
            r = good.clone();
            r.shingles.1 = count;
            assert!(
                corrupt(&r).to_string().contains("shingle"),
                "{}",
                corrupt(&r)
            );
        }
        // And the good one decodes, its words as the document's.
        let back = Record::decode(&good.encode(&p), &p).unwrap();
        assert_eq!(back.distinct_shingles(p.n), good.distinct_shingles(p.n));
        assert_eq!(
            back.words().collect::<Vec<_>>(),
            good.words().collect::<Vec<_>>()
        );
    }

    /// Up to 256 distinct words, a word takes a byte; past it, two.
    #[test]
    fn words_take_a_byte_each_up_to_256_distinct_words() {
        let p = Params::default();
        let sized = |distinct: u32| {
            let words: Vec<u32> = (0..1000).map(|i| i * 7919 % distinct).collect();
            let mut numbered = Numbered::default();
            numbered.fill(words.iter().copied());
            let r = Record {
                info: SourceInfo::default(),
                exact: 1,
                short: ShortSignature::default(),
                sentences: vec![0, 500],
                words: numbered,
                shingles: (0, 0),
            };
            let bytes = r.encode(&p);
            let back = Record::decode(&bytes, &p).unwrap();
            assert_eq!(back.words().map(u32::from).collect::<Vec<_>>(), words);
            bytes.len()
        };
        // One more distinct word: 2 bytes in the table, and 1,000 more for the words.
        assert_eq!(sized(257) - sized(256), 2 + 1000);
    }

    proptest! {
        #[test]
        fn records_round_trip(words in prop::collection::vec(any::<u16>(), 0..300),
                              short in prop::collection::vec(any::<u32>(), 0..15),
                              exact in any::<u64>(), title in ".{0,20}",
                              starts in prop::collection::btree_set(0u32..300, 0..40)) {
            let p = Params::default();
            let sentences = starts.into_iter().filter(|&s| (s as usize) < words.len()).collect();
            let mut numbered = Numbered::default();
            numbered.fill(words.iter().map(|&w| u32::from(w)));
            let mut r = Record {
                info: SourceInfo { id: "1".into(), url: String::new(), title },
                exact,
                short: ShortSignature { hashes: short },
                sentences,
                words: numbered,
                shingles: (0, 0),
            };
            let back = Record::decode(&r.encode(&p), &p).unwrap();
            prop_assert_eq!(back.words().collect::<Vec<_>>(), words.clone());
            r.count_shingles(p.n);
            let folded: Vec<u32> = words.iter().map(|&w| u32::from(w)).collect();
            prop_assert_eq!(back.distinct_shingles(p.n), Some(distinct_shingles(&folded, p.n)));
            prop_assert_eq!(back, r);
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
