//! Document records: what alignment needs of one published document, and none of its text.
//!
//! A [`Record`] holds the document's identity, its exact-duplicate hash, its content words in
//! order (each hash folded to 16 bits, [`crate::align::words::fold`]), its short-text signature
//! and the size of its shingle set. From it the engine runs the same ranking, extension and
//! alignment as against the full text ([`crate::pair::Source::Record`]); only spans in the
//! source and the widening of a highlight over stop words need the text itself. The store keeps
//! one per document, and the browser fetches one per candidate.
//!
//! The number of distinct shingles is what a check would otherwise compute for every candidate
//! from the words (resemblance and containment divide by it): it is counted once, when the
//! record is written, for the `n` it names. The decoder refuses a count for another `n` than the
//! checker's, or one the words cannot have.
//!
//! Byte layout (`docs/FORMAT.md`, "Record"), inside the pack envelope ([`super::frame`]):
//!
//! ```text
//! string id | string url | string title | u64 exact | varint count, u16 × count words
//!           | varint count, u32 × count short-text hashes
//!           | varint count, varint × count sentence starts (deltas)
//!           | u8 n | varint distinct n-word shingles
//! ```
//! Size: 2 bytes a content word, about 1 byte a sentence, plus about 80 bytes; a 1,000-word text
//! (about 550 content words once stop words are gone) takes about 1.3 KB.

use super::bytes::{Reader, Writer};
use super::frame::{self, Canon, Kind};
use super::{PackError, FORMAT_VERSION};
use crate::align::probe::distinct_shingles;
use crate::align::words::fold;
use crate::align::Words;
use crate::canonicalize::CANONICALIZER_VERSION;
use crate::document::{Document, SourceInfo};
use crate::keys::Keys;
use crate::params::{ParamDifference, ParamValue};
use crate::short::{ShortSignature, SIGNATURE_WORDS};
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
    /// Indices into the words of those that open a sentence, strictly ascending, 0 first when
    /// there are words ([`Document::sentences`]): the units of rewrite detection.
    pub sentences: Vec<u32>,
    /// Content-word hashes folded to 16 bits, in text order.
    words: Vec<u16>,
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
        Record {
            info,
            exact: doc.exact,
            short: doc.short.clone(),
            sentences: doc.sentences.clone(),
            words: doc.hashes.iter().map(|&h| fold(h)).collect(),
            shingles: (0, 0),
        }
    }

    /// The retrieval keys every index holds for this record's document ([`Keys::of`]: its
    /// fingerprints and sentence keys, from its words and sentence starts).
    pub fn keys(&self, params: &Params) -> Keys {
        let words =
            Words::from_folded(&self.words, params.n).with_sentences(self.sentences.clone());
        Keys::of(&words, params)
    }

    /// The content words, folded, in text order.
    pub fn words(&self) -> &[u16] {
        &self.words
    }

    /// The number of content words.
    pub fn word_count(&self) -> usize {
        self.words.len()
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
                let words: Vec<u32> = self.words.iter().map(|&w| u32::from(w)).collect();
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
            self.write_words(w);
            w.u8(shingles.0);
            w.varint(u64::from(shingles.1));
        })
    }

    /// Decodes a record written by [`Record::encode`] and checks that its words were made as
    /// drafts are here (`params`' canonicalization, this build's canonicalizer). Never panics;
    /// allocates in proportion to `bytes.len()`.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Record, PackError> {
        frame::decode(Kind::Record, bytes, |canon, r| {
            check_canon(canon, params)?;
            let mut record = read_words(r)?;
            record.shingles = read_shingles(r, record.words.len(), params)?;
            Ok(record)
        })
    }

    /// A record file of format version 2 to 6 as this version writes it, its shingles
    /// counted for `n` (the store's) from the file's own words (versions 2 and 3; versions 4
    /// to 6 hold the count, and their body is this version's: only the envelope's version and
    /// CRC32 change), so a store keeps its records across the bump without analysing its documents
    /// again. Its canonicalization is kept as the file
    /// says (the store checks it against its own). A record already in this version is returned
    /// as it is.
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
    /// Errors: what decoding gives ([`PackError::Version`] for any version but 2 to 6 and this
    /// one, [`PackError::Checksum`], [`PackError::Corrupt`], …).
    pub fn upgrade(bytes: &[u8], n: usize) -> Result<Vec<u8>, PackError> {
        let (version, canon, mut r) =
            frame::read_versions(Kind::Record, &[2, 3, 4, 5, 6, FORMAT_VERSION], bytes)?;
        if version == FORMAT_VERSION {
            return Ok(bytes.to_vec());
        }
        if (4..=6).contains(&version) {
            // Versions 5, 6 and 7 changed only the index (its table, its pages' names, the
            // sentence keys it holds): the same body (checked by its CRC32
            // above, and by decoding when it is read, as a record of this version is) in this
            // version's envelope.
            let mut upgraded = bytes.to_vec();
            frame::set_version(&mut upgraded, FORMAT_VERSION);
            return Ok(upgraded);
        }
        // Versions 2 and 3: this version's body without the shingle count.
        let record = read_words(&mut r)?;
        frame::finish(&r)?;
        Ok(record.encode_as(canon, record.shingles_for(n)))
    }
}

impl Record {
    /// The record in format version 3's layout (its words themselves, no shingle count), in a
    /// version-3 envelope: what [`Record::upgrade`] reads, for tests of upgrades only.
    #[doc(hidden)]
    pub fn encode_version_3(&self, params: &Params) -> Vec<u8> {
        let mut bytes = frame::write(Kind::Record, canon_of(params), |w| self.write_words(w));
        frame::set_version(&mut bytes, 3);
        bytes
    }

    /// The body every version since 2 starts with, as [`read_words`] reads it.
    fn write_words(&self, w: &mut Writer) {
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
    }
}

/// The shingle count a record of `words` words ends with, as [`Record::encode`] writes it for
/// `params`: for `params.n`, which a writer of this version always counts, so a count for
/// another `n` is a file made with other parameters ([`PackError::ParamsMismatch`]) and one for
/// `n` 0 (not counted) corrupt; and a count the words can have. Whether it is the words' true
/// count is not checked: counting them is the very cost the field saves every check (the store
/// decodes a candidate's record for each check), and a writer that lies about it skews only its
/// own record's figures, as one that lies about its words does.
fn read_shingles(
    r: &mut Reader<'_>,
    words: usize,
    params: &Params,
) -> Result<(u8, u32), PackError> {
    let at = r.offset();
    let n = r.u8()?;
    if n == 0 {
        return Err(r.corrupt(at, "a record whose shingles were not counted"));
    }
    if usize::from(n) != params.n {
        return Err(PackError::ParamsMismatch {
            differences: vec![ParamDifference {
                name: "n",
                found: ParamValue::Number(u64::from(n)),
                expected: ParamValue::Number(params.n as u64),
            }],
        });
    }
    let at = r.offset();
    let count = r.varint()?;
    // At most one shingle a window, at least one when there is a window.
    let windows = (words + 1).saturating_sub(usize::from(n));
    match u32::try_from(count) {
        Ok(count) if count as usize <= windows && (count > 0 || windows == 0) => Ok((n, count)),
        _ => Err(r.corrupt(
            at,
            format!("a count of {count} shingles, which {words} words cannot have"),
        )),
    }
}

/// The body every version since 2 starts with: identity, exact hash, words, short-text
/// signature, sentence starts (shingles not counted).
fn read_words(r: &mut Reader<'_>) -> Result<Record, PackError> {
    let info = read_info(r)?;
    let exact = r.u64()?;
    let count = r.count("word count", 2)?;
    let mut words = Vec::with_capacity(count);
    r.u16s(count, &mut words)?;
    let short = read_short(r)?;
    let sentences = read_sentences(r, count)?;
    Ok(Record {
        info,
        exact,
        short,
        sentences,
        words,
        shingles: (0, 0),
    })
}

fn read_info(r: &mut Reader<'_>) -> Result<SourceInfo, PackError> {
    Ok(SourceInfo {
        id: r.str("id")?,
        url: r.str("url")?,
        title: r.str("title")?,
    })
}

/// The longest-words signature as [`ShortSignature::from_words`] makes it: at most
/// [`SIGNATURE_WORDS`] hashes, strictly ascending (a set, so one order and no repeats).
fn read_short(r: &mut Reader<'_>) -> Result<ShortSignature, PackError> {
    let n = r.count_in("short-text hash count", 4, 0, SIGNATURE_WORDS)?;
    let mut hashes: Vec<u32> = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        let h = r.u32()?;
        if hashes.last().is_some_and(|&last| h <= last) {
            return Err(r.corrupt(at, "short-text hashes not strictly ascending"));
        }
        hashes.push(h);
    }
    Ok(ShortSignature { hashes })
}

/// Sentence starts of a text of `words` content words as a document has them: 0 first when
/// there are words (the first word opens a sentence; without it the list would mean the same,
/// [`crate::sentences::ranges`], in a second encoding), then strictly ascending, below `words`.
fn read_sentences(r: &mut Reader<'_>, words: usize) -> Result<Vec<u32>, PackError> {
    let at = r.offset();
    let n = r.count("sentence count", 1)?;
    if (n == 0) != (words == 0) {
        return Err(r.corrupt(at, format!("{n} sentence starts in {words} words")));
    }
    let mut sentences = Vec::with_capacity(n);
    let mut last = 0u32;
    for _ in 0..n {
        let at = r.offset();
        let delta = r.varint()?;
        let first = sentences.is_empty();
        match u32::try_from(delta).ok().and_then(|d| last.checked_add(d)) {
            Some(s) if (s as usize) < words && (if first { s == 0 } else { s > last }) => {
                sentences.push(s);
                last = s;
            }
            _ => {
                return Err(r.corrupt(
                    at,
                    "a sentence start out of order, past the words, or a first one not 0",
                ))
            }
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

    /// A record whose shingle count is forged lower than what it shares with a draft (a count
    /// the decoder can only check to be possible) never makes resemblance exceed 1.
    #[test]
    fn a_forged_low_shingle_count_keeps_resemblance_at_most_one() {
        let (mut r, p) = record();
        // The record's text and one word more: nearly every draft shingle is shared.
        let text = "Записи хранят каждое значимое слово в двух байтах, а текста не хранят вовсе. \
                    Дополнение.";
        let draft = Document::analyze(text, Format::Plain, &p, 1 << 20).unwrap();
        let draft = crate::pair::Draft::new(&draft, &p);
        let honest = crate::pair::find_record(&draft, &r, &p, &Default::default());
        assert!(honest.resemblance > 0.5 && honest.resemblance < 1.0);
        r.shingles = (p.n as u8, 1);
        let forged = crate::pair::find_record(&draft, &r, &p, &Default::default());
        assert!(forged.resemblance <= 1.0, "{}", forged.resemblance);
        assert_eq!(forged.containment, honest.containment);
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
        // Counted for another n: the count says for which, and a checker of another n refuses
        // it by name, as it refuses any file made with other parameters.
        let other = Record::upgrade(&encode_v3(&r, &p, 3), 5).unwrap();
        let err = Record::decode(&other, &p).unwrap_err();
        assert_eq!(err.code(), "pack_params");
        assert!(
            err.to_string().contains("n = 5 in the pack, 4 here"),
            "{err}"
        );
        let five = Params { n: 5, ..p };
        let other = Record::decode(&other, &five).unwrap();
        assert_eq!(other.distinct_shingles(p.n), None);
        assert_eq!(
            other.distinct_shingles(5),
            Some(r.word_count() + 1 - 5),
            "every 5-word window of these words differs"
        );
        assert_eq!(
            other.encode(&five),
            Record::upgrade(&encode_v3(&r, &p, 3), 5).unwrap()
        );
        // Versions 4 and 5: the same body, this version's envelope.
        for version in [4, 5] {
            let mut old = v4.clone();
            frame::set_version(&mut old, version);
            assert_eq!(Record::decode(&old, &p).unwrap_err().code(), "pack_version");
            assert_eq!(Record::upgrade(&old, p.n).unwrap(), v4, "version {version}");
        }
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

    /// A record whose shingle count its words cannot have is refused.
    #[test]
    fn impossible_shingle_counts_are_refused() {
        let (mut r, p) = record();
        r.count_shingles(p.n);
        let good = r.clone();
        let corrupt =
            |r: &Record| Record::decode(&r.encode_as(canon_of(&p), r.shingles), &p).unwrap_err();
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
        // Not counted (n 0: what a writer of this version never writes, and would re-encode
        // counted, so two files would decode to one record), or counted for another n.
        r = good.clone();
        let uncounted = r.encode_as(canon_of(&p), (0, 0));
        let err = Record::decode(&uncounted, &p).unwrap_err();
        assert_eq!(err.code(), "pack_corrupt", "{err}");
        let other_n = r.encode_as(canon_of(&p), (5, 1));
        assert_eq!(
            Record::decode(&other_n, &p).unwrap_err().code(),
            "pack_params"
        );
        // And the good one decodes, its words as the document's.
        let back = Record::decode(&good.encode(&p), &p).unwrap();
        assert_eq!(back.distinct_shingles(p.n), good.distinct_shingles(p.n));
        assert_eq!(back.words(), good.words());
    }

    /// `r` with its fields replaced by `edit`, encoded as this version writes it.
    fn edited(edit: impl FnOnce(&mut Record)) -> (Vec<u8>, Params) {
        let (mut r, p) = record();
        edit(&mut r);
        (r.encode(&p), p)
    }

    /// The longest-words signature is a set: in one order, without repeats, at most 15.
    #[test]
    fn short_signatures_out_of_order_repeated_or_too_long_are_refused() {
        let (good, p) = edited(|_| {});
        assert!(Record::decode(&good, &p).is_ok());
        for hashes in [
            vec![2, 1],
            vec![1, 1],
            (0..SIGNATURE_WORDS as u32 + 1).collect(),
        ] {
            let (bytes, p) = edited(|r| r.short.hashes = hashes.clone());
            let err = Record::decode(&bytes, &p).unwrap_err();
            assert_eq!(err.code(), "pack_corrupt", "{hashes:?}: {err}");
        }
        let (most, p) = edited(|r| r.short.hashes = (0..SIGNATURE_WORDS as u32).collect());
        assert!(Record::decode(&most, &p).is_ok());
    }

    /// Sentence starts open with 0 when there are words, as a document's do: without it the
    /// list reads the same (`sentences::ranges`), a second encoding.
    #[test]
    fn sentence_starts_without_the_first_word_are_refused() {
        let (good, p) = edited(|_| {});
        let back = Record::decode(&good, &p).unwrap();
        assert_eq!(back.sentences.first(), Some(&0));
        for starts in [vec![], vec![1], vec![0, 0], vec![0, 1000]] {
            let (bytes, p) = edited(|r| r.sentences = starts.clone());
            let err = Record::decode(&bytes, &p).unwrap_err();
            assert_eq!(err.code(), "pack_corrupt", "{starts:?}: {err}");
        }
    }

    proptest! {
        #[test]
        fn records_round_trip(words in prop::collection::vec(any::<u16>(), 0..300),
                              short in prop::collection::btree_set(any::<u32>(), 0..=15),
                              exact in any::<u64>(), title in ".{0,20}",
                              mut starts in prop::collection::btree_set(0u32..300, 0..40)) {
            let p = Params::default();
            // As a document has them: 0 first when there are words.
            if !words.is_empty() {
                starts.insert(0);
            }
            let sentences = starts.into_iter().filter(|&s| (s as usize) < words.len()).collect();
            let mut r = Record {
                info: SourceInfo { id: "1".into(), url: String::new(), title },
                exact,
                short: ShortSignature { hashes: short.into_iter().collect() },
                sentences,
                words: words.clone(),
                shingles: (0, 0),
            };
            let back = Record::decode(&r.encode(&p), &p).unwrap();
            prop_assert_eq!(back.words(), &words[..]);
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
