//! `shingles`: today's engine reduced to a pair-level similarity.
//!
//! Source: the engine's own shingling (DESIGN.md; Broder 1997 for resemblance and containment):
//! n-word shingles over the canonical content words (n = [`crate::Params::n`], 4 by default).
//! The similarity is the containment of the smaller shingle set in the larger,
//! `|A∩B| / min(|A|, |B|)`: "how much of one is in the other", symmetric, so that a copy pasted into
//! a longer text still scores high (resemblance `|A∩B| / |A∪B|` would be diluted by the rest).
//! Decision: half of the smaller text's shingles found in the other. A text of fewer than n words
//! has no shingles; it falls back to the longest-words similarity, as the engine switches to the
//! short-text method for short drafts.
//!
//! Known weaknesses: an exact-shingle method, so every changed word breaks n shingles: heavy
//! rewording (synonyms every few words) drives it to zero where the engine's rewrite detection
//! still finds the passage; containment of the smaller set calls a short quote of a long text
//! a duplicate of it (by design: that is reuse), and it is blind to reordering inside a shingle.

use super::{shingle_set, NearDuplicate, Text};
use crate::short::ShortSignature;
use crate::sketch::intersection_size;

/// The engine's shingle sets ([`super::Kind::Shingles`]).
#[derive(Debug, Clone, Copy)]
pub struct Shingles {
    /// Words per shingle.
    pub n: usize,
}

/// A text's shingle set, and its longest words for texts too short to have shingles.
#[derive(Debug, Clone)]
pub struct ShingleSignature {
    set: Vec<u64>,
    short: ShortSignature,
}

impl NearDuplicate for Shingles {
    type Signature = ShingleSignature;

    fn default_threshold(&self) -> f64 {
        0.5
    }

    fn signature(&self, text: &Text) -> ShingleSignature {
        ShingleSignature {
            set: shingle_set(&text.words, self.n),
            short: text.short.clone(),
        }
    }

    fn similarity(&self, a: &ShingleSignature, b: &ShingleSignature) -> f64 {
        let smaller = a.set.len().min(b.set.len());
        if smaller == 0 {
            return a.short.similarity(&b.short);
        }
        intersection_size(&a.set, &b.set) as f64 / smaller as f64
    }
}
