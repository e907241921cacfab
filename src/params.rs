//! Engine parameters (recorded with every sketch) and check-time options.
//!
//! [`Params`] decide what a document's shingles, fingerprints and sketch ARE: two sketches made with
//! different parameters cannot be compared, so packs record them and refuse a mismatch.
//! [`CheckOptions`] only decide how a draft is judged against sketches that already exist.

use crate::canonicalize::CanonOptions;
use crate::exclude::Exclusions;
use crate::Error;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Documents a key or a longest word may be held by and still rank candidates: words like
/// "organization" (in 44 % of 20 Newsgroups posts) or stock phrases cannot tell which document a
/// draft copies, and reading their postings was nearly all of a short draft's lookup at 100,000
/// documents. Rarer keys still find the source.
pub const MAX_KEY_DOCS: usize = 1000;

/// Parameters that shape a document's sketch. Defaults: n = 4, w = 16, K = 128, stop words removed,
/// stemming on (n, stop words and stemming confirmed on PAN 2013, see docs/EVALUATION.md; w is
/// the window of every index's fingerprints and every draft's, [`crate::keys`]: a shared run of
/// 19 content words is found by them, a copied sentence by its sentence keys).
///
/// # Example
/// ```
/// let p = uniqcheck::Params { n: 5, ..Default::default() };
/// assert!(p.validate().is_ok());
/// assert!(uniqcheck::Params { n: 1, ..p }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Params {
    /// Words per shingle, 2..=10.
    pub n: usize,
    /// Winnowing window in shingles, 1..=64, of every index's fingerprints and every draft's
    /// ([`crate::keys`]). A shared run of `w + n - 1` canonical words always yields a shared
    /// fingerprint. 16, not 4 (the store's before 2026-11-27): drafts look up their own
    /// fingerprints, so each is one page a browser fetches; a copied sentence shorter than
    /// 19 content words is found by its sentence keys (docs/EVALUATION.md, "Retrieval of
    /// rewrites").
    pub w: usize,
    /// MinHash signature length, 16..=1024.
    pub k: usize,
    /// Drop Russian and English stop words before shingling.
    pub stop_words: bool,
    /// Reduce words to their Snowball stems (Russian for Cyrillic words, English for Latin ones).
    pub stemming: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            n: 4,
            w: 16,
            k: 128,
            stop_words: true,
            stemming: true,
        }
    }
}

fn check_range(name: &'static str, value: usize, min: usize, max: usize) -> Result<(), Error> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name,
            value: value as u64,
            min: min as u64,
            max: max as u64,
        })
    }
}

impl Params {
    /// Checks every parameter against its allowed range.
    pub fn validate(&self) -> Result<(), Error> {
        check_range("n", self.n, 2, 10)?;
        check_range("w", self.w, 1, 64)?;
        check_range("k", self.k, 16, 1024)
    }

    /// Every parameter whose value differs between `self` (what sketches were made with: a pack's,
    /// a store's) and `expected` (what is in force here), in the order n, w, k, stop_words,
    /// stemming; empty when they can be compared.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::Params;
    /// let stored = Params { n: 5, stemming: false, ..Default::default() };
    /// let d = stored.differences(&Params::default());
    /// let said: Vec<String> = d.iter().map(|d| d.describe("store")).collect();
    /// assert_eq!(said, ["n = 5 in the store, 4 here", "stemming = false in the store, true here"]);
    /// assert!(Params::default().differences(&Params::default()).is_empty());
    /// ```
    pub fn differences(&self, expected: &Params) -> Vec<ParamDifference> {
        let number = |v: usize| ParamValue::Number(v as u64);
        let (p, e) = (self, expected);
        [
            ("n", number(p.n), number(e.n)),
            ("w", number(p.w), number(e.w)),
            ("k", number(p.k), number(e.k)),
            (
                "stop_words",
                ParamValue::Flag(p.stop_words),
                ParamValue::Flag(e.stop_words),
            ),
            (
                "stemming",
                ParamValue::Flag(p.stemming),
                ParamValue::Flag(e.stemming),
            ),
        ]
        .into_iter()
        .filter(|(_, found, expected)| found != expected)
        .map(|(name, found, expected)| ParamDifference {
            name,
            found,
            expected,
        })
        .collect()
    }

    /// The canonicalizer settings these parameters imply.
    pub fn canon(&self) -> CanonOptions {
        CanonOptions {
            stop_words: self.stop_words,
            stemming: self.stemming,
        }
    }
}

/// One engine parameter whose value differs between sketches and the parameters in force
/// ([`Params::differences`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamDifference {
    /// The parameter's name as [`Params`] and the CLI spell it.
    pub name: &'static str,
    /// The value the sketches were made with (recorded in a pack or a store).
    pub found: ParamValue,
    /// The value in force here.
    pub expected: ParamValue,
}

impl ParamDifference {
    /// "n = 5 in the {whose}, 4 here": `whose` names where the sketches are ("pack", "store").
    pub fn describe(&self, whose: &str) -> String {
        format!(
            "{} = {} in the {whose}, {} here",
            self.name, self.found, self.expected
        )
    }
}

/// The value of one engine parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamValue {
    /// A count (n, w, k).
    Number(u64),
    /// A switch (stop_words, stemming).
    Flag(bool),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Number(v) => write!(f, "{v}"),
            ParamValue::Flag(v) => write!(f, "{v}"),
        }
    }
}

/// How a draft is judged. None of these change a sketch, so they can differ per check.
///
/// Serialized with JavaScript's names (camelCase, the WebAssembly facade's `CheckOptions`), each
/// field missing taking its default, an unknown one refused; [`CheckOptions::max_text_bytes`] is
/// never read from serialized options.
///
/// # Example
/// ```
/// let o = uniqcheck::CheckOptions { gap: 6, ..Default::default() };
/// assert_eq!(o.short_threshold, 60);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckOptions {
    /// Largest run of unmatched canonical words, on either side, that still joins two matched
    /// stretches into one fragment: a copy with a word changed here and there is one passage to
    /// chain and judge (highlighted word for word: the changed words are shown as rewritten),
    /// while a sentence of the writer's own between two copied ones stays apart. Default 4.
    pub gap: usize,
    /// Largest run of unmatched words that still joins matched stretches into one *detection*: the
    /// unit that must gather `min_fragment_words` matched words to count at all, and the span that
    /// [`crate::Comparison::detections`] reports (what PAN's text-alignment task scores). Reworded
    /// copies keep few exact shingles, far apart; a wide merge gap lets their pieces count together
    /// without highlighting the new words between them. Default 32, from the PAN 2013 sweep
    /// (docs/EVALUATION.md). Values below `gap` act as `gap`.
    pub merge_gap: usize,
    /// A detection whose exact-copy fragments cover fewer canonical words of the draft than this
    /// is dropped as a chance coincidence (unless extended, below), and its fragments are not
    /// highlighted: shorter shared runs are mostly stock phrases of texts on one topic (at 4,
    /// 4.1 % of PAN's same-topic pairs without reuse were flagged; at 10, 0.6 %). Default 10.
    pub min_fragment_words: usize,
    /// Against a fully known source (`compare`, not packs), a detection with at least one exact
    /// copy also counts when its matched words, pairs of content words included, cover this many
    /// draft words and at least 40 % of its span: how a reworded passage is found whole. 0 turns
    /// the extension off. Default 12, from the PAN 2013 sweep (docs/EVALUATION.md).
    pub extend_min_words: usize,
    /// Drafts with fewer canonical words than this are also judged by the short-text method.
    pub short_threshold: usize,
    /// Short-text similarity (shared longest words / the shorter list) at which a short draft is
    /// a duplicate of a source, 0..=1.
    pub short_similarity: f64,
    /// Texts longer than this many bytes are refused with [`Error::TooLarge`]. A limit of whoever
    /// runs the check (a checker, a server), not of the request: never deserialized.
    #[serde(skip_deserializing)]
    pub max_text_bytes: usize,
    /// At most this many candidate documents are aligned in full, best first (default 500: a
    /// draft rarely shares anchors with more sources; a megabyte draft made of 255 published
    /// texts finds them all). When more were found, the report says so ([`crate::Report::capped`]).
    pub max_candidates: usize,
    /// Sources (by URL or domain) and quotations the check leaves out ([`crate::exclude`]).
    pub exclude: Exclusions,
    /// English–Russian table through which the draft is also sought as a translation of sources
    /// in the other language ([`crate::bilingual`]; `None`: within one language only). A file of
    /// whoever runs the check, loaded once and shared: never serialized. It must be made for the
    /// index's params ([`crate::bilingual::Bilingual::check`] with its stemming).
    #[serde(skip)]
    pub bilingual: Option<std::sync::Arc<crate::bilingual::Bilingual>>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            gap: 4,
            merge_gap: 32,
            min_fragment_words: 10,
            extend_min_words: 12,
            short_threshold: 60,
            short_similarity: 0.8,
            max_text_bytes: 32 << 20,
            max_candidates: 500,
            exclude: Exclusions::default(),
            bilingual: None,
        }
    }
}

impl CheckOptions {
    /// Checks every option against its allowed values.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::CheckOptions;
    /// assert!(CheckOptions::default().validate().is_ok());
    /// let bad = CheckOptions { short_similarity: 1.5, ..Default::default() };
    /// assert!(bad.validate().unwrap_err().to_string().contains("short_similarity"));
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        let fail = |name, value: String, allowed| {
            Err(Error::InvalidOption {
                name,
                value,
                allowed,
            })
        };
        if self.gap > 1000 {
            return fail("gap", self.gap.to_string(), "0..=1000 words");
        }
        if self.merge_gap > 1000 {
            return fail("merge_gap", self.merge_gap.to_string(), "0..=1000 words");
        }
        if !(1..=1000).contains(&self.min_fragment_words) {
            return fail(
                "min_fragment_words",
                self.min_fragment_words.to_string(),
                "1..=1000 words",
            );
        }
        if self.extend_min_words > 1000 {
            return fail(
                "extend_min_words",
                self.extend_min_words.to_string(),
                "0..=1000 words",
            );
        }
        if !(0.0..=1.0).contains(&self.short_similarity) {
            return fail(
                "short_similarity",
                self.short_similarity.to_string(),
                "0..=1",
            );
        }
        if self.max_text_bytes == 0 {
            return fail("max_text_bytes", "0".into(), "at least 1 byte");
        }
        if self.max_candidates == 0 {
            return fail("max_candidates", "0".into(), "at least 1");
        }
        self.exclude.validate()
    }
}
