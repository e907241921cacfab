//! Near-duplicate methods from the literature, side by side behind one trait.
//!
//! The engine's own answer is an alignment ([`crate::compare()`], [`crate::check::check`]); the
//! methods here answer a simpler question about a pair of texts, "how similar are they, and are
//! they near-duplicates?", each the way its source article does, so that they can be compared on
//! the same data (`uniqcheck eval methods`), used to find every near-duplicate group in a store
//! (`uniqcheck dedup`) and to study where a threshold separates duplicates (`uniqcheck study`).
//!
//! | method | module | signature | similarity | default threshold |
//! |---|---|---|---|---|
//! | `shingles` | [`shingles`] | the engine's n-word shingle set | containment of the smaller set in the other | 0.5 |
//! | `char-cosine` | [`char_cosine`] | counts of 5-character shingles of the normalized text | cosine | 0.8 |
//! | `broder` | [`broder`] | 10-word shingles whose hash is 0 mod 16 | Jaccard of the samples | 0.5 |
//! | `broder-minhash` | [`broder`] | 85 min-hashes of the 10-word shingles | share of equal min-hashes | 0.5 |
//! | `descriptive` | [`descriptive`] | descriptive words and their quantized frequencies | weighted Jaccard | 0.8 |
//! | `simhash` | [`simhash`] | 64-bit SimHash of the content words | 1 − Hamming / 64 | 59/64 (≤ 5 bits differ) |
//! | `short` | [`short`] | CRC32 of the 15 longest words (the short-text method) | shared / shorter list | 0.8 |
//! | `aligned` | [`aligned`] | the content words, folded | the engine's alignment: the smaller share of each text the other covers | 0.6 |
//!
//! Every method reads the same [`Text`]: the canonical content words (the canonicalizer's CRC32
//! hashes: stop words dropped, stemmed, look-alike letters folded) and the longest-words signature;
//! only `char-cosine` also needs the characters, which a store record does not keep
//! ([`Kind::needs_characters`]). A text from a record has its words folded to 16 bits (as the
//! record keeps them); two texts compare meaningfully only when both were made the same way.
//!
//! Guarantees: every similarity is in `[0, 1]`, symmetric, and 1 for a text and itself (when its
//! signature is not empty); nothing here panics on any input.

use crate::canonicalize::{canonicalize, is_ignorable, visible_text, CanonOptions};
use crate::pack::Record;
use crate::short::ShortSignature;
use crate::{Document, Error, Format, Params};
use serde::{Deserialize, Serialize};
use std::any::Any;

pub mod aligned;
pub mod broder;
pub mod char_cosine;
pub mod descriptive;
pub mod shingles;
pub mod short;
pub mod simhash;

/// A text as the methods read it.
#[derive(Debug, Clone, Default)]
pub struct Text {
    /// Content-word hashes in text order (full CRC32, or folded to 16 bits for a record).
    pub words: Vec<u32>,
    /// The longest-words signature ([`crate::short`]).
    pub short: ShortSignature,
    /// The normalized characters: every word (stop words too) lowercased, `ё → е`, ignorable
    /// characters dropped, words joined by one space. `None` when unknown (a store record).
    pub chars: Option<String>,
}

impl Text {
    /// From an analysed document; `original` (its text and format) adds the characters.
    pub fn from_document(doc: &Document, original: Option<(&str, Format)>) -> Text {
        Text {
            words: doc.hashes.clone(),
            short: doc.short.clone(),
            chars: original.map(|(text, format)| normalized(text, format)),
        }
    }

    /// From a store or pack record: folded words, no characters.
    pub fn from_record(record: &Record) -> Text {
        Text {
            words: record.words().iter().map(|&w| u32::from(w)).collect(),
            short: record.short.clone(),
            chars: None,
        }
    }

    /// Analyses `text` with `params` and keeps what the methods need, characters included.
    ///
    /// Errors: those of [`Document::analyze`].
    pub fn analyze(
        text: &str,
        format: Format,
        params: &Params,
        max_bytes: usize,
    ) -> Result<Text, Error> {
        let doc = Document::analyze(text, format, params, max_bytes)?;
        Ok(Text::from_document(&doc, Some((text, format))))
    }
}

/// The normalized characters of a text ([`Text::chars`]): the canonicalizer's word segmentation
/// (no stemming, no stop-word removal), each word lowercased with `ё → е`.
pub fn normalized(text: &str, format: Format) -> String {
    let visible;
    let plain = match format {
        Format::Plain => text,
        Format::Html => {
            visible = visible_text(text);
            &visible
        }
    };
    let opts = CanonOptions {
        stop_words: false,
        stemming: false,
    };
    let canonical = canonicalize(plain, Format::Plain, opts);
    let mut out = String::with_capacity(plain.len());
    for w in &canonical.words {
        if !out.is_empty() {
            out.push(' ');
        }
        let word = &plain[w.start as usize..w.end as usize];
        for c in word.chars().filter(|&c| !is_ignorable(c)) {
            for l in c.to_lowercase() {
                out.push(if l == 'ё' { 'е' } else { l });
            }
        }
    }
    out
}

/// One near-duplicate method: a signature per text, a similarity per pair of signatures.
pub trait NearDuplicate: Send + Sync {
    /// What the method keeps of a text.
    type Signature: Send + Sync + 'static;
    /// The similarity at or above which its source calls a pair a duplicate.
    fn default_threshold(&self) -> f64;
    /// The signature of `text`.
    fn signature(&self, text: &Text) -> Self::Signature;
    /// The similarity of two signatures, in `[0, 1]`, symmetric.
    fn similarity(&self, a: &Self::Signature, b: &Self::Signature) -> f64;
    /// Whether a pair of this similarity is a duplicate at `threshold`.
    fn is_duplicate(&self, similarity: f64, threshold: f64) -> bool {
        similarity >= threshold
    }
}

/// The methods by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// [`shingles::Shingles`]: the engine's shingle sets.
    Shingles,
    /// [`char_cosine::CharCosine`]: slide-share.ru's first version.
    CharCosine,
    /// [`broder::Broder`] sampling by modulus 16.
    Broder,
    /// [`broder::BroderMinHash`]: 85 min-hashes.
    BroderMinhash,
    /// [`descriptive::Descriptive`]: Yandex's descriptive words.
    Descriptive,
    /// [`simhash::SimHash`]: 64-bit SimHash.
    Simhash,
    /// [`short::Short`]: the 15 longest words.
    Short,
    /// [`aligned::Aligned`]: the engine's alignment, coverage of each text by the other.
    Aligned,
}

impl Kind {
    /// Every method, in the order tables list them.
    pub const ALL: [Kind; 8] = [
        Kind::Shingles,
        Kind::CharCosine,
        Kind::Broder,
        Kind::BroderMinhash,
        Kind::Descriptive,
        Kind::Simhash,
        Kind::Short,
        Kind::Aligned,
    ];

    /// The name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Shingles => "shingles",
            Kind::CharCosine => "char-cosine",
            Kind::Broder => "broder",
            Kind::BroderMinhash => "broder-minhash",
            Kind::Descriptive => "descriptive",
            Kind::Simhash => "simhash",
            Kind::Short => "short",
            Kind::Aligned => "aligned",
        }
    }

    /// The method named `name`, if any. `longwords`, the short-text method's name before it
    /// had one name everywhere, is still read.
    pub fn from_name(name: &str) -> Option<Kind> {
        if name == "longwords" {
            return Some(Kind::Short);
        }
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the method reads characters ([`Text::chars`]), which store records do not keep.
    pub fn needs_characters(self) -> bool {
        self == Kind::CharCosine
    }
}

/// A signature made by an [`AnyMethod`]; compares only with signatures of the same method.
pub struct Signature(Box<dyn Any + Send + Sync>);

impl std::fmt::Debug for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signature")
    }
}

/// [`NearDuplicate`] with its signature type erased, so that a method can be chosen at run time.
trait Erased: Send + Sync {
    fn default_threshold(&self) -> f64;
    fn signature(&self, text: &Text) -> Signature;
    fn similarity(&self, a: &Signature, b: &Signature) -> f64;
    fn is_duplicate(&self, similarity: f64, threshold: f64) -> bool;
}

impl<M: NearDuplicate> Erased for M {
    fn default_threshold(&self) -> f64 {
        NearDuplicate::default_threshold(self)
    }
    fn signature(&self, text: &Text) -> Signature {
        Signature(Box::new(NearDuplicate::signature(self, text)))
    }
    fn similarity(&self, a: &Signature, b: &Signature) -> f64 {
        // Signatures of another method compare as nothing alike (AnyMethod never mixes them).
        match (a.0.downcast_ref(), b.0.downcast_ref()) {
            (Some(a), Some(b)) => NearDuplicate::similarity(self, a, b).clamp(0.0, 1.0),
            _ => 0.0,
        }
    }
    fn is_duplicate(&self, similarity: f64, threshold: f64) -> bool {
        NearDuplicate::is_duplicate(self, similarity, threshold)
    }
}

/// A pair's similarity by one method and that method's decision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The method.
    pub method: Kind,
    /// Its similarity, 0..=1.
    pub similarity: f64,
    /// The threshold it decided at.
    pub threshold: f64,
    /// The method's decision at `threshold` ([`NearDuplicate::is_duplicate`]).
    pub duplicate: bool,
}

/// A method chosen at run time, with its threshold.
///
/// # Example
/// ```
/// use uniqcheck::methods::{AnyMethod, Kind, Text};
/// use uniqcheck::{Format, Params};
/// let p = Params::default();
/// let a = Text::analyze("Шинглы — последовательности слов, по которым поисковые системы находят \
///     почти одинаковые документы в интернете уже много лет подряд.", Format::Plain, &p, 1 << 20).unwrap();
/// let b = Text::analyze("Шинглы — последовательности слов, по которым поисковые системы находят \
///     почти одинаковые документы в сети уже много лет подряд.", Format::Plain, &p, 1 << 20).unwrap();
/// let simhash = AnyMethod::new(Kind::Simhash, &p);
/// let v = simhash.compare(&a, &b);
/// assert!(v.similarity > 0.7 && v.threshold == 59.0 / 64.0, "{v:?}");
/// // Broder's 10-word shingles and the descriptive words (one word in 8) need longer texts.
/// for kind in [Kind::Shingles, Kind::CharCosine, Kind::Short] {
///     assert!(AnyMethod::new(kind, &p).compare(&a, &b).duplicate, "{}", kind.name());
/// }
/// ```
pub struct AnyMethod {
    kind: Kind,
    inner: Box<dyn Erased>,
    threshold: f64,
}

impl std::fmt::Debug for AnyMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnyMethod")
            .field("kind", &self.kind)
            .field("threshold", &self.threshold)
            .finish()
    }
}

impl AnyMethod {
    /// The method `kind` at its default threshold; `params` sets the engine's shingle length for
    /// [`Kind::Shingles`] and [`Kind::Aligned`].
    pub fn new(kind: Kind, params: &Params) -> AnyMethod {
        let inner: Box<dyn Erased> = match kind {
            Kind::Shingles => Box::new(shingles::Shingles { n: params.n }),
            Kind::CharCosine => Box::new(char_cosine::CharCosine::default()),
            Kind::Broder => Box::new(broder::Broder::default()),
            Kind::BroderMinhash => Box::new(broder::BroderMinHash::default()),
            Kind::Descriptive => Box::new(descriptive::Descriptive),
            Kind::Simhash => Box::new(simhash::SimHash),
            Kind::Short => Box::new(short::Short),
            Kind::Aligned => Box::new(aligned::Aligned { params: *params }),
        };
        let threshold = inner.default_threshold();
        AnyMethod {
            kind,
            inner,
            threshold,
        }
    }

    /// The same method deciding at `threshold` instead (clamped to `[0, 1]`).
    pub fn with_threshold(mut self, threshold: f64) -> AnyMethod {
        self.threshold = threshold.clamp(0.0, 1.0);
        self
    }

    /// Which method this is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The threshold it decides at.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Its source's threshold.
    pub fn default_threshold(&self) -> f64 {
        self.inner.default_threshold()
    }

    /// The signature of `text`.
    pub fn signature(&self, text: &Text) -> Signature {
        self.inner.signature(text)
    }

    /// The similarity of two signatures this method made, in `[0, 1]`.
    pub fn similarity(&self, a: &Signature, b: &Signature) -> f64 {
        self.inner.similarity(a, b)
    }

    /// The verdict on a pair of this similarity.
    pub fn verdict(&self, similarity: f64) -> Verdict {
        Verdict {
            method: self.kind,
            similarity,
            threshold: self.threshold,
            duplicate: self.inner.is_duplicate(similarity, self.threshold),
        }
    }

    /// Signs both texts and judges the pair.
    pub fn compare(&self, a: &Text, b: &Text) -> Verdict {
        self.verdict(self.similarity(&self.signature(a), &self.signature(b)))
    }
}

/// Exact Jaccard `|A∩B| / |A∪B|` of two sorted, distinct sets: 0 when both are empty.
pub(crate) fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let inter = crate::sketch::intersection_size(a, b);
    let union = a.len() + b.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

/// Sorted, distinct n-word shingle hashes of `words` (the engine's shingling).
pub(crate) fn shingle_set(words: &[u32], n: usize) -> Vec<u64> {
    crate::sketch::shingle_set(crate::shingle::shingles(words, n).iter().map(|s| s.hash))
}

#[cfg(test)]
mod tests;
