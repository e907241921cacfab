//! `aligned`: the engine's own alignment as a pair-level similarity, for near-duplicate groups.
//!
//! Source: the engine (DESIGN.md): the two texts' content words aligned as a check aligns a draft
//! and a source ([`crate::align::chain::covered_words`]: matched shingles joined over `gap`
//! changed words into fragments, fragments chained into passages that count). The similarity is
//! the share of each text that the other covers, the smaller of the two:
//! `min(covered(A) / |A|, covered(B) / |B|)`. So a copy with words deleted, inserted or changed
//! here and there covers nearly all of itself and of its original (every edit breaks `n` shingles,
//! which is what drags the shingle containment of a lightly edited copy under its threshold, but
//! a fragment bridges it), while a text that shares a passage with a longer one, or seven
//! sentences of ten with the next link of a chain, covers only that share of the other.
//! Decision: each covers at least 60 % of the other (docs/EVALUATION.md, "Near-duplicate groups").
//! A text of fewer than `n` words falls back to the longest-words similarity, as the engine
//! switches to the short-text method.
//!
//! Known weaknesses: it costs an alignment per pair (linear in the two texts) where the
//! set methods cost a merge of two small signatures; a reworded copy (synonyms every few words)
//! is not a duplicate here, by design: that is a rewrite, which a check reports.

use super::{NearDuplicate, Text};
use crate::align::chain::covered_words;
use crate::align::words::fold;
use crate::align::Words;
use crate::short::ShortSignature;
use crate::{CheckOptions, Params};

/// The engine's alignment ([`super::Kind::Aligned`]).
#[derive(Debug, Clone)]
pub struct Aligned {
    /// The engine's parameters (`n`).
    pub params: Params,
}

/// A text's content words folded to 16 bits (as a record keeps them), and its longest words for
/// texts too short to align.
#[derive(Debug, Clone)]
pub struct AlignedSignature {
    words: Vec<u16>,
    short: ShortSignature,
}

impl NearDuplicate for Aligned {
    type Signature = AlignedSignature;

    fn default_threshold(&self) -> f64 {
        0.6
    }

    fn signature(&self, text: &Text) -> AlignedSignature {
        AlignedSignature {
            words: text.words.iter().map(|&w| fold(w)).collect(),
            short: text.short.clone(),
        }
    }

    fn similarity(&self, a: &AlignedSignature, b: &AlignedSignature) -> f64 {
        let n = self.params.n;
        if a.words.len() < n || b.words.len() < n {
            return a.short.similarity(&b.short);
        }
        // The shorter text (then the smaller words) is the draft: the alignment is not quite
        // symmetric, the similarity must be.
        let (draft, source) = if (a.words.len(), &a.words) <= (b.words.len(), &b.words) {
            (a, b)
        } else {
            (b, a)
        };
        let (d, s) = (
            Words::from_folded(&draft.words, n),
            Words::from_folded(&source.words, n),
        );
        let (in_draft, in_source) = covered_words(&d, &s, &self.params, &CheckOptions::default());
        let share = |covered: usize, of: usize| covered as f64 / of as f64;
        share(in_draft, draft.words.len()).min(share(in_source, source.words.len()))
    }
}
