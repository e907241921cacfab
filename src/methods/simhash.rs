//! `simhash`: Charikar's 64-bit SimHash with a Hamming-distance threshold.
//!
//! Source: M. Charikar, "Similarity estimation techniques from rounding algorithms" (STOC 2002);
//! G. Manku, A. Jain, A. Das Sarma, "Detecting near-duplicates for web crawling" (WWW 2007); the
//! threshold is SEOmoz's (≤ 5 differing bits of 64, chosen after looking at 10 M page pairs),
//! where Manku et al. chose 3. Features are the canonical content words, each weighted by its
//! count in the text; each feature's 64-bit hash (fmix64 of its CRC32) votes +w or −w on every
//! bit, and the fingerprint keeps the sign. Similarity = 1 − Hamming distance / 64, so the
//! default threshold is 59/64 ≈ 0.922.
//!
//! Known weaknesses: one fingerprint per text, so it answers "nearly the same whole text", not
//! "contains a copied passage"; unigram features ignore order, so two texts on one topic in one
//! vocabulary drift close (unrelated texts sit around 32 bits apart, not 64, so the similarity
//! of unrelated pairs is about 0.5, not 0); a 10 % edit already moves more than 5 bits.

use super::{NearDuplicate, Text};
use crate::hash::fmix64;

/// 64-bit SimHash ([`super::Kind::Simhash`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SimHash;

/// Most bits two fingerprints may differ in and still be duplicates (SEOmoz).
pub const MAX_DISTANCE: u32 = 5;

/// The SimHash of `text`'s content words; 0 for no words.
pub fn fingerprint(words: &[u32]) -> u64 {
    let mut counts = [0i64; 64];
    // Each word votes once per occurrence: the weight is its count, as in a term-frequency vector.
    for &w in words {
        let h = fmix64(u64::from(w) | 0x5171_0000_0000_0000);
        for (bit, c) in counts.iter_mut().enumerate() {
            *c += if h >> bit & 1 == 1 { 1 } else { -1 };
        }
    }
    counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .fold(0u64, |acc, (bit, _)| acc | 1 << bit)
}

impl NearDuplicate for SimHash {
    /// The fingerprint, and whether the text had any words (an empty text is like nothing).
    type Signature = Option<u64>;

    fn default_threshold(&self) -> f64 {
        1.0 - f64::from(MAX_DISTANCE) / 64.0
    }

    fn signature(&self, text: &Text) -> Option<u64> {
        (!text.words.is_empty()).then(|| fingerprint(&text.words))
    }

    fn similarity(&self, a: &Option<u64>, b: &Option<u64>) -> f64 {
        match (a, b) {
            (Some(a), Some(b)) => 1.0 - f64::from((a ^ b).count_ones()) / 64.0,
            _ => 0.0,
        }
    }
}
