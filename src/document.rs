//! One text through the pipeline: validate → canonicalize → shingle → anchor → sketch.
//!
//! A [`Document`] keeps everything later stages need about a text, and no copy of the text: word
//! spans (byte offsets into the original), shingles, fingerprints, the MinHash sketch, the
//! exact-duplicate hash and the short-text signature. Input validation lives here, so every entry
//! point (CLI, server, WebAssembly) refuses empty, oversized and binary input the same way.

use crate::anchor::{winnow, Fingerprint};
use crate::canonicalize::{canonicalize, Canonical, Format};
use crate::exclude::Exclusions;
use crate::hash::{combine, fold};
use crate::shingle::{shingles, Shingle};
use crate::short::ShortSignature;
use crate::sketch::Sketch;
use crate::{CheckOptions, Error, Params};
use serde::{Deserialize, Serialize};

/// Who a document is: how a source is named in reports and packs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceInfo {
    /// Stable identifier (a store id, or a file path for in-memory corpora).
    pub id: String,
    /// Where the source is published (may be empty).
    pub url: String,
    /// Human-readable title or file name.
    pub title: String,
}

/// A text analysed with one set of [`Params`].
#[derive(Debug, Clone)]
pub struct Document {
    /// Words with their spans; `canonical.content` indexes the content (non-stop) words.
    pub canonical: Canonical,
    /// CRC32 of each content word, in order.
    pub hashes: Vec<u32>,
    /// n-word shingles over the content words.
    pub shingles: Vec<Shingle>,
    /// Fingerprints: the shingles of the folded content words winnowed with window `w`, as every
    /// index holds them ([`crate::keys`]).
    pub fingerprints: Vec<Fingerprint>,
    /// MinHash sketch of the shingle set.
    pub sketch: Sketch,
    /// Hash of the whole canonical content-word sequence: equal for exact duplicates.
    pub exact: u64,
    /// Longest-words signature for the short-text method.
    pub short: ShortSignature,
    /// Content-word indices where sentences start, ascending (0 first when there are words):
    /// the units of rewrite detection ([`crate::align::rewrite`]).
    pub sentences: Vec<u32>,
    /// Ranges of word indices (into `canonical.words`) inside quotation marks, when a check
    /// leaves quotations out ([`Document::mark_quotations`]); empty otherwise.
    pub quoted: Vec<std::ops::Range<usize>>,
}

/// About how many characters [`check_text`] samples to tell text from binary data (it reads up
/// to four times as many bytes, to the next character boundary).
const BINARY_SAMPLE: usize = 65_536;

/// Refuses texts that are too large or look like binary data. Cheap: samples the first 256 KB.
///
/// This is the one rule for "binary", whatever the entry point (a file read by the CLI, an API
/// body, a JSONL line, a string from JavaScript): more than 5 % of the sampled characters are
/// control characters (tab, newline, carriage return and form feed aside) or U+FFFD, and there
/// are at least 8 of them, or at least 2 NULs. So a stray NUL or two in otherwise good text (as in
/// some PAN documents) is text: canonicalization then separates words at it exactly as at a
/// space. Binary formats, and UTF-16 read as UTF-8, are far above the threshold.
pub fn check_text(text: &str, max_bytes: usize) -> Result<(), Error> {
    if text.len() > max_bytes {
        return Err(Error::TooLarge {
            size: text.len(),
            limit: max_bytes,
        });
    }
    // On bytes rather than chars (the same test, several times faster): C0 controls and DEL are
    // single bytes, C1 controls are C2 80..C2 9F, U+FFFD is EF BF BD.
    let bytes = text.as_bytes();
    let mut end = bytes.len().min(BINARY_SAMPLE * 4);
    while end < bytes.len() && (bytes[end] as i8) < -0x40 {
        end += 1;
    }
    let sample = &bytes[..end];
    // First a count of the bytes that can start a control character: it bounds `control`, and
    // on text far below the threshold settles the matter. Branch-free tests summed in bytes over
    // blocks of 255, which the compiler turns into 16 or 32 bytes an instruction (the same
    // count with `filter` and `||` stayed one branch a byte).
    let suspect = |b: u8| {
        ((b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r') & (b != 0x0c))
            | (b == 0x7f)
            | (b == 0xc2)
            | (b == 0xef)
    };
    let suspects: usize = sample
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(suspect(b)))))
        .sum();
    // The sample holds at least a quarter as many characters as bytes (it ends on a character
    // boundary), so most texts are settled without counting its characters.
    if suspects * 20 * 4 <= end {
        return Ok(());
    }
    let sampled = sample.iter().filter(|&&b| (b as i8) >= -0x40).count();
    if suspects * 20 <= sampled {
        return Ok(());
    }
    let mut control = 0;
    let mut nul = 0;
    for (i, &b) in sample.iter().enumerate() {
        nul += usize::from(b == 0);
        control += match b {
            // U+0019 stands for an apostrophe in some real corpora (PAN): a few are text, not binary.
            b'\t' | b'\n' | b'\r' | 0x0c => 0,
            0x00..=0x1f | 0x7f => 1,
            0xc2 => matches!(sample.get(i + 1), Some(0x80..=0x9f)) as usize,
            0xef => (sample.get(i + 1..i + 3) == Some(&[0xbf, 0xbd][..])) as usize,
            _ => 0,
        };
    }
    // 5 %: far above stray control characters in real writing, far below any binary format
    // decoded as text (or UTF-16 read as UTF-8, every other byte a NUL). The minimum count keeps
    // a short text with a stray control character or two; NULs are a stronger sign (a few
    // bytes of a file header hold several), so two of them are enough.
    if control * 20 > sampled && (control >= 8 || nul >= 2) {
        return Err(Error::Binary { control, sampled });
    }
    Ok(())
}

/// The content-word indices that open a sentence: a content word opens one when it, or a stop
/// word between it and the previous content word, opens one in the text.
fn sentence_starts(canonical: &Canonical) -> Vec<u32> {
    let content = &canonical.content;
    // Written for every word and kept only for a content word that opens a sentence, without a
    // branch: the flags come unpredictably, and branching on them was mispredicted often.
    let mut starts = Vec::with_capacity(content.len() + 1);
    let mut pending = false;
    let mut next = 0;
    // The next content word's index and the one after it, loaded a word ahead: each word's test
    // waited on the load of `content[next]`, whose address the word before had just settled.
    let at = |k: usize| content.get(k).map_or(u32::MAX, |&i| i);
    let (mut cur, mut after) = (at(0), at(1));
    for (i, w) in canonical.words.iter().enumerate() {
        pending |= w.sentence;
        let is_content = cur == i as u32;
        let kept = starts.len() + usize::from(is_content & pending);
        starts.push(next as u32);
        starts.truncate(kept);
        pending &= !is_content;
        next += usize::from(is_content);
        let ahead = at(next + 1);
        (cur, after) = if is_content {
            (after, ahead)
        } else {
            (cur, after)
        };
    }
    starts
}

impl Document {
    /// Analyses `text` (written in `format`) with `params`.
    ///
    /// Errors: [`Error::TooLarge`] over `max_bytes`, [`Error::Binary`] for binary data,
    /// [`Error::Empty`] when the text has no content words, [`Error::InvalidParameter`].
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{Document, Format, Params};
    /// let d = Document::analyze("Copywriters check their drafts before publishing them online.",
    ///     Format::Plain, &Params::default(), 1 << 20).unwrap();
    /// assert!(d.hashes.len() >= 5);
    /// assert_eq!(d.shingles.len(), d.hashes.len() - 3);
    /// ```
    pub fn analyze(
        text: &str,
        format: Format,
        params: &Params,
        max_bytes: usize,
    ) -> Result<Document, Error> {
        params.validate()?;
        check_text(text, max_bytes)?;
        let canonical = canonicalize(text, format, params.canon());
        if canonical.content.is_empty() {
            return Err(Error::Empty);
        }
        Ok(Self::from_canonical(canonical, params))
    }

    /// Runs the stages after canonicalization.
    pub fn from_canonical(canonical: Canonical, params: &Params) -> Document {
        let hashes: Vec<u32> = canonical
            .content
            .iter()
            .map(|&i| canonical.words[i as usize].hash)
            .collect();
        let shingles = shingles(&hashes, params.n);
        // Fingerprints of the folded words, as every index holds them (crate::keys): what a
        // record keeps is all a store or a pack writer derives its keys from.
        let folded: Vec<u32> = hashes.iter().map(|&h| u32::from(fold(h))).collect();
        let fingerprints = winnow(&crate::shingle::shingles(&folded, params.n), params.w);
        let sketch = Sketch::from_shingles(&shingles, params.k);
        let exact = combine(&hashes);
        let short = ShortSignature::from_words(canonical.words.iter());
        let sentences = sentence_starts(&canonical);
        Document {
            canonical,
            hashes,
            shingles,
            fingerprints,
            sketch,
            exact,
            short,
            sentences,
            quoted: Vec::new(),
        }
    }

    /// Number of content (canonical, non-stop) words: the denominator of uniqueness.
    pub fn content_words(&self) -> usize {
        self.hashes.len()
    }

    /// Whether the short-text method judges this draft: it has fewer content words than
    /// [`CheckOptions::short_threshold`], too few for shingles to be reliable.
    pub fn is_short(&self, opts: &CheckOptions) -> bool {
        self.content_words() < opts.short_threshold
    }

    /// Byte span in the original text of content words `range` (content-word indices, end exclusive).
    pub fn content_span(&self, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
        let words = &self.canonical.words;
        let first = self.canonical.content[range.start] as usize;
        let last = self.canonical.content[range.end - 1] as usize;
        words[first].start as usize..words[last].end as usize
    }

    /// Marks the quotations of this document (analysed from `text`) when `exclude.quotes` asks
    /// for it: what [`crate::report::cut_quotations`] then leaves out. The rule of what is
    /// quoted is [`crate::canonicalize::quoted_words`]'s; passages given by offset
    /// ([`Exclusions::quoted`]) count too.
    pub fn mark_quotations(&mut self, text: &str, format: Format, exclude: &Exclusions) {
        if exclude.quotes {
            self.quoted = crate::canonicalize::quoted_words(text, format, &self.canonical);
            if !exclude.quoted.is_empty() {
                let mut all = std::mem::take(&mut self.quoted);
                all.extend(given_quotations(&exclude.quoted, &self.canonical.words));
                self.quoted = crate::canonicalize::merged_ranges(all);
            }
        }
    }
}

/// The word ranges of `words` lying wholly inside the byte ranges `passages`.
fn given_quotations(
    passages: &[[usize; 2]],
    words: &[crate::canonicalize::Word],
) -> Vec<std::ops::Range<usize>> {
    passages
        .iter()
        .map(|&[start, end]| {
            // Words are in text order and do not overlap: their starts and ends both ascend.
            let first = words.partition_point(|w| (w.start as usize) < start);
            let last = words.partition_point(|w| (w.end as usize) <= end);
            first..last.max(first)
        })
        .filter(|r| !r.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_empty_binary_and_oversized() {
        let p = Params::default();
        assert_eq!(
            Document::analyze("", Format::Plain, &p, 100).unwrap_err(),
            Error::Empty
        );
        assert_eq!(
            Document::analyze(" \n\t ", Format::Plain, &p, 100).unwrap_err(),
            Error::Empty
        );
        assert_eq!(
            Document::analyze("<p> </p>", Format::Html, &p, 100).unwrap_err(),
            Error::Empty
        );
        assert!(matches!(
            Document::analyze("word ".repeat(30).as_str(), Format::Plain, &p, 100),
            Err(Error::TooLarge {
                size: 150,
                limit: 100
            })
        ));
        let garbage: String = (0..4000u32)
            .map(|i| char::from_u32(i % 32).unwrap())
            .collect();
        assert!(matches!(
            Document::analyze(&garbage, Format::Plain, &p, 1 << 20),
            Err(Error::Binary { .. })
        ));
        let utf16_as_utf8: String = "hello world "
            .encode_utf16()
            .flat_map(|u| [u as u8 as char, '\0'])
            .collect();
        assert!(matches!(
            check_text(&utf16_as_utf8, 1 << 20),
            Err(Error::Binary { .. })
        ));
    }

    /// The definition before the fast paths, as the oracle.
    fn sentence_starts_word_by_word(canonical: &Canonical) -> Vec<u32> {
        let mut starts = Vec::new();
        let mut pending = false;
        let mut next = 0;
        for (i, w) in canonical.words.iter().enumerate() {
            pending |= w.sentence;
            if canonical.content.get(next) == Some(&(i as u32)) {
                if pending {
                    starts.push(next as u32);
                }
                pending = false;
                next += 1;
            }
        }
        starts
    }

    #[test]
    fn sentence_starts_as_word_by_word() {
        let text = "The end. And so it goes\n\nof the story. A the an. Of the\nEnd, a new one. \
                    The. The. Yes! ok";
        let c = canonicalize(text, Format::Plain, Params::default().canon());
        let starts = sentence_starts(&c);
        assert_eq!(starts, sentence_starts_word_by_word(&c));
        assert!(starts.len() >= 4 && starts[0] == 0);
        let mut rng = crate::hash::SplitMix64(9);
        for n in [0, 1, 2, 50, 500] {
            let words: Vec<crate::canonicalize::Word> = (0..n)
                .map(|_| {
                    let r = rng.next_u64();
                    crate::canonicalize::Word {
                        hash: r as u32,
                        start: 0,
                        end: 1,
                        len: 3,
                        stop: r >> 40 & 3 == 0,
                        sentence: r >> 50 & 7 == 0,
                    }
                })
                .collect();
            let content = (0..n as u32).filter(|&i| !words[i as usize].stop).collect();
            let c = Canonical { words, content };
            assert_eq!(sentence_starts(&c), sentence_starts_word_by_word(&c));
        }
    }

    /// The block count of suspect bytes agrees with the test byte by byte, over every byte
    /// value and across block boundaries.
    #[test]
    fn binary_test_counts_as_byte_by_byte() {
        let mut text = String::new();
        for i in 0..3000u32 {
            text.push(char::from_u32(i % 0x2100).unwrap_or(' '));
        }
        for t in [
            text.as_str(),
            &text[..1000],
            "a\u{1}b\u{7f}c\u{85}d\u{fffd}",
        ] {
            let by_byte = |t: &str| -> Result<(), Error> {
                let sample = t.as_bytes();
                let sampled = t.chars().count();
                let mut control = 0;
                let mut nul = 0;
                for c in t.chars() {
                    nul += usize::from(c == '\0');
                    control += usize::from(
                        (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}'))
                            || c == '\u{fffd}',
                    );
                }
                let _ = sample;
                if control * 20 > sampled && (control >= 8 || nul >= 2) {
                    return Err(Error::Binary { control, sampled });
                }
                Ok(())
            };
            assert_eq!(
                check_text(t, 1 << 20),
                by_byte(t),
                "{:?}",
                &t[..20.min(t.len())]
            );
        }
    }

    #[test]
    fn a_few_stray_control_characters_are_still_text() {
        let text =
            "It\u{19}s a real sentence from a corpus that uses U+0019 for apostrophes. ".repeat(20);
        assert!(check_text(&text, 1 << 20).is_ok());
    }

    #[test]
    fn a_stray_nul_is_a_space_and_many_nuls_are_binary() {
        let p = Params::default();
        let spaced = "Copywriters check their drafts before publishing them online every day.";
        let with_nul = spaced
            .replacen(' ', "\0", 1)
            .replacen("every ", "every\0", 1);
        let a = Document::analyze(spaced, Format::Plain, &p, 1 << 20).unwrap();
        let b = Document::analyze(&with_nul, Format::Plain, &p, 1 << 20).unwrap();
        assert_eq!(a.hashes, b.hashes);
        assert_eq!(a.exact, b.exact);
        // A NUL inside a word splits it, as a space would.
        let split = Document::analyze("publish\0ing drafts", Format::Plain, &p, 1 << 20).unwrap();
        let spaced = Document::analyze("publish ing drafts", Format::Plain, &p, 1 << 20).unwrap();
        assert_eq!(split.hashes, spaced.hashes);
        // The header of a binary file: a few NULs among a few bytes.
        let png = "\u{89}PNG\r\n\u{1a}\n\0\0\0\rIHDR\0\0";
        assert!(matches!(
            check_text(png, 1 << 20),
            Err(Error::Binary { .. })
        ));
        // Two NULs in a long text are still a stray pair.
        let long = format!("{}\0\0{}", "word ".repeat(20), "word ".repeat(20));
        assert!(check_text(&long, 1 << 20).is_ok());
    }
}

/// Results unchanged on the test corpora: a digest of everything [`Document::analyze`] returns for
/// every file of 20 Newsgroups, the Russian texts and PAN 2013 (`../shared/data`, or
/// `$UNIQCHECK_DATA`), as plain text and as HTML, with the default parameters and with stemming and
/// stop words off, pinned to the value this engine gave before the fast paths of issue 18.
/// A change of the digest means a changed fingerprint, sketch or word span somewhere: bump
/// [`crate::canonicalize::CANONICALIZER_VERSION`] (and say why) or find the bug.
///
/// `cargo test --release --lib document::corpus_digest -- --ignored --nocapture`
#[cfg(test)]
pub(crate) mod corpus_digest {
    use super::*;
    use crate::canonicalize::{disguises, CanonOptions};
    use crate::hash::fmix64;
    use std::path::{Path, PathBuf};

    /// The digest every build must give (computed at f3c6da3, before issue 18's changes).
    const PINNED: u64 = 0x7aa7_29b6_36af_64f7;

    /// `../shared/data` beside the checkout, or `UNIQCHECK_DATA`.
    pub(crate) fn data_dir() -> PathBuf {
        std::env::var_os("UNIQCHECK_DATA")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
    }

    /// Every file under `dir`, sorted by path.
    pub(crate) fn files(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }

    struct Digest(u64);

    impl Digest {
        fn add(&mut self, x: u64) {
            self.0 = fmix64(self.0.rotate_left(17) ^ x);
        }
    }

    fn digest(d: &mut Digest, text: &str, format: Format, params: &Params) {
        match Document::analyze(text, format, params, usize::MAX) {
            Err(e) => d.add(crc32fast::hash(e.to_string().as_bytes()).into()),
            Ok(doc) => {
                for w in &doc.canonical.words {
                    d.add(u64::from(w.hash) << 32 | u64::from(w.len));
                    d.add(u64::from(w.start) << 32 | u64::from(w.end));
                    d.add(u64::from(w.stop) | u64::from(w.sentence) << 1);
                }
                d.add(doc.canonical.content.len() as u64);
                for &i in &doc.canonical.content {
                    d.add(i.into());
                }
                for s in &doc.shingles {
                    d.add(s.hash ^ u64::from(s.first));
                }
                for f in &doc.fingerprints {
                    d.add(u64::from(f.key) << 32 | u64::from(f.pos));
                }
                for &m in &doc.sketch.mins {
                    d.add(m.into());
                }
                d.add(doc.sketch.set_size.into());
                d.add(doc.exact);
                for &h in &doc.short.hashes {
                    d.add(h.into());
                }
                for &s in &doc.sentences {
                    d.add(s.into());
                }
                for x in disguises(text, format, &doc.canonical) {
                    d.add(u64::from(x.start) << 32 | u64::from(x.end));
                }
            }
        }
    }

    /// Every file of the test corpora, sorted (none without the data; the caller says so).
    pub(crate) fn corpus_files() -> Vec<PathBuf> {
        let root = data_dir();
        let mut paths = Vec::new();
        for sub in ["20news-bydate", "ru", "pan13-train/src", "pan13-train/susp"] {
            paths.extend(files(&root.join(sub)));
        }
        if paths.is_empty() {
            skip_without_data(&root);
        }
        paths
    }

    /// Says on stderr that a test is skipped for want of the data under `dir`; fails instead
    /// when `CI` is set, as CI must have the data.
    pub(crate) fn skip_without_data(dir: &Path) {
        assert!(
            std::env::var_os("CI").is_none(),
            "../shared/data not found: nothing under {}, and CI must have the data",
            dir.display()
        );
        eprintln!(
            "SKIPPED: ../shared/data not found: nothing under {} (set UNIQCHECK_DATA)",
            dir.display()
        );
    }

    #[test]
    #[ignore]
    fn corpus_digest_is_unchanged() {
        let paths = corpus_files();
        if paths.is_empty() {
            return;
        }
        let plain = CanonOptions {
            stop_words: false,
            stemming: false,
        };
        let bare = Params {
            stop_words: plain.stop_words,
            stemming: plain.stemming,
            ..Params::default()
        };
        let mut d = Digest(0);
        let mut bytes = 0;
        for p in &paths {
            let text = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
            bytes += text.len();
            digest(&mut d, &text, Format::Plain, &Params::default());
            digest(&mut d, &text, Format::Html, &Params::default());
            digest(&mut d, &text, Format::Plain, &bare);
        }
        eprintln!(
            "{} files, {:.1} MB: digest {:#018x}",
            paths.len(),
            bytes as f64 / 1e6,
            d.0
        );
        assert_eq!(d.0, PINNED, "analysis results changed on the test corpora");
    }
}
