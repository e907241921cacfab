//! `char-cosine`: character shingles and the cosine of their count profiles.
//!
//! Source: slide-share.ru's first duplicate finder (the story this project's design starts
//! from): cut the normalized text into overlapping shingles of a few characters, count each, and
//! compare two texts by the cosine of their count vectors. Here: 5-character shingles of the
//! normalized text ([`super::normalized`]: lowercase, `ё → е`, words joined by one space, stop
//! words kept, no stemming), each hashed to 64 bits; cosine over the sparse count vectors.
//!
//! Known weaknesses: a language's common letter sequences ("tion ", " the ", "ого ") are shared
//! by any two texts, so unrelated texts in one language score 0.3–0.6 and the threshold has to
//! sit high, where light rewording already falls below it; counts are dominated by frequent
//! shingles, so a copied paragraph in a long text moves the cosine little; it needs the text
//! itself (a store record keeps only word hashes), and costs a hash per character.

use super::{NearDuplicate, Text};
use crate::hash::{combine, PrehashedMap};

/// Characters per shingle.
pub const SHINGLE_CHARS: usize = 5;

/// Character shingles + cosine ([`super::Kind::CharCosine`]).
#[derive(Debug, Clone, Copy)]
pub struct CharCosine {
    /// Characters per shingle.
    pub n: usize,
}

impl Default for CharCosine {
    fn default() -> Self {
        CharCosine { n: SHINGLE_CHARS }
    }
}

/// A count profile: (shingle hash, count) sorted by hash, and its Euclidean norm.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    counts: Vec<(u64, u32)>,
    norm: f64,
}

impl NearDuplicate for CharCosine {
    type Signature = Profile;

    fn default_threshold(&self) -> f64 {
        0.8
    }

    fn signature(&self, text: &Text) -> Profile {
        let Some(chars) = &text.chars else {
            return Profile::default();
        };
        let chars: Vec<u32> = chars.chars().map(u32::from).collect();
        let n = self.n.max(1);
        let mut counts: PrehashedMap<u64, u32> = PrehashedMap::default();
        if !chars.is_empty() {
            // A text shorter than one shingle is one shingle.
            for w in chars.windows(n.min(chars.len())) {
                *counts.entry(combine(w)).or_insert(0) += 1;
            }
        }
        let mut counts: Vec<(u64, u32)> = counts.into_iter().collect();
        counts.sort_unstable();
        let norm = counts
            .iter()
            .map(|&(_, c)| f64::from(c) * f64::from(c))
            .sum::<f64>()
            .sqrt();
        Profile { counts, norm }
    }

    fn similarity(&self, a: &Profile, b: &Profile) -> f64 {
        if a.norm == 0.0 || b.norm == 0.0 {
            return 0.0;
        }
        let (mut i, mut j, mut dot) = (0, 0, 0.0);
        while i < a.counts.len() && j < b.counts.len() {
            match a.counts[i].0.cmp(&b.counts[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    dot += f64::from(a.counts[i].1) * f64::from(b.counts[j].1);
                    i += 1;
                    j += 1;
                }
            }
        }
        dot / (a.norm * b.norm)
    }
}
