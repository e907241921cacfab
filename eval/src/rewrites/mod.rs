//! Russian rewrites: a deterministic benchmark of drafts that reuse rewritten passages of a
//! source, built from factRuEval-2016's texts, and what the engine finds of them.
//!
//! ## The benchmark
//!
//! Every text of a split (`devset/` → dev, `testset/` → test) with at least
//! [`MIN_SOURCE_SENTENCES`] sentences is a **source**. Its draft is the writer's own text
//! (runs of 3 to 5 sentences of other texts of the same split, chosen at random) with one or two
//! **passages** of the source ([`PASSAGE_SENTENCES`] consecutive sentences each; two when the
//! source has at least [`TWO_PASSAGES_SENTENCES`]) between them, rewritten by one [`Kind`]:
//! own, passage, own, passage, own, as paragraphs. The layout (which passages, which own text)
//! depends on the source only, so every kind rewrites the same passages inside the same own
//! text; the rewriting itself has its own random stream per source and kind. Randomness is a
//! SplitMix64 seeded from [`SEED`] and the file name: the same files give the same benchmark.
//!
//! ## The measures
//!
//! On the draft side, in characters, summed over the pairs of a kind: the **truth** is the
//! rewritten passages; **recall** is the share of the truth covered by the engine's detections
//! (one per reused passage, however reworded: what PAN scores and what the report shows as
//! rewrites), **precision** the share of detected characters inside the truth. The same for the
//! **highlight** (the report's fragments: exact copies, what uniqueness counts) and for what the
//! report **marks** (its fragments and rewrites, what originality counts). PAN's macro measures
//! of the detections (both sides) are given too. For [`Kind::None`] (no passage at all) every
//! detection is a false alarm.
//!
//! ## The parts
//!
//! `corpus` reads the texts and cuts them into sentences; `rng` is the random streams; `words`,
//! `synonymizer` and `rewrite` rewrite a passage by a [`Kind`]; `pairs` lays out and builds the
//! drafts with their truth; `measure` runs the engine on a pair and measures what it found;
//! `summary` scores each kind. Every public item is here, at `rewrites::`.

mod corpus;
mod measure;
mod pairs;
mod rewrite;
mod rng;
mod summary;
mod synonymizer;
mod words;

pub use corpus::{read_corpus, split_sentences, Text};
pub(crate) use measure::covered;
pub use measure::{find, measure, run, Counts, Found, PairResult};
pub use pairs::{build, Pair};
pub use rewrite::rewrite;
pub use rng::Rng;
pub use summary::{summarize, KindScores, ALL_REWRITTEN};
pub use synonymizer::{SynonymCounts, Synonymizer};

use serde::Serialize;

/// The benchmark's seed.
pub const SEED: u64 = 2016;
/// A source needs this many sentences.
pub const MIN_SOURCE_SENTENCES: usize = 6;
/// Sentences per passage.
pub const PASSAGE_SENTENCES: usize = 3;
/// A source this long (sentences) gives two passages.
pub const TWO_PASSAGES_SENTENCES: usize = 10;
/// `synonyms`: the share of the words the dictionary knows that are replaced.
pub const SYNONYM_SHARE: f64 = 1.0;
/// `delete`: the share of words dropped.
pub const DELETE_SHARE: f64 = 0.25;
/// `heavy`: the share of known words replaced, and of words dropped.
pub const HEAVY_SYNONYM_SHARE: f64 = 0.5;
/// See [`HEAVY_SYNONYM_SHARE`].
pub const HEAVY_DELETE_SHARE: f64 = 0.15;

/// How a passage is rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// No passage of the source at all: every detection is a false alarm.
    None,
    /// Copied as it is.
    Verbatim,
    /// Every word the thesaurus knows ([`SYNONYM_SHARE`]) replaced by one of its synonyms.
    Synonyms,
    /// The words of each sentence shuffled (punctuation stays in place).
    ShuffleWords,
    /// The sentences shuffled.
    ShuffleSentences,
    /// Sentences merged in pairs or split at a comma.
    MergeSplit,
    /// A share of the words ([`DELETE_SHARE`]) dropped.
    Delete,
    /// Synonyms (half of the known words), deletion (15 %), merge-split and shuffled sentences.
    Heavy,
}

impl Kind {
    /// Every kind, in table order.
    pub const ALL: [Kind; 8] = [
        Kind::None,
        Kind::Verbatim,
        Kind::Synonyms,
        Kind::ShuffleWords,
        Kind::ShuffleSentences,
        Kind::MergeSplit,
        Kind::Delete,
        Kind::Heavy,
    ];

    /// The kind's name, as in the table and the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::None => "none",
            Kind::Verbatim => "verbatim",
            Kind::Synonyms => "synonyms",
            Kind::ShuffleWords => "shuffle-words",
            Kind::ShuffleSentences => "shuffle-sentences",
            Kind::MergeSplit => "merge-split",
            Kind::Delete => "delete",
            Kind::Heavy => "heavy",
        }
    }
}
