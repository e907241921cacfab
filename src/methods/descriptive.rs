//! `descriptive`: Yandex's "descriptive words" signature.
//!
//! Source: S. Ilyinsky, M. Kuzmin, A. Melkov, I. Segalovich, "An efficient method to detect
//! duplicates of Web documents with the use of inverted index" (WWW 2002), as retold by Zelenkov
//! and Segalovich (RCDL 2007): a fixed dictionary of a few thousand "descriptive" words chosen
//! once for the whole collection; a document is described by the dictionary words it contains
//! with their frequencies in it, normalized and quantized; documents with the same description
//! are duplicates, found through an inverted index of descriptions.
//!
//! This implementation, which has no collection to choose a dictionary from, makes two documented
//! substitutions: the dictionary is a fixed pseudo-random eighth of all canonical words (those
//! whose mixed hash is 0 mod 8: the same on every machine, so signatures compare across stores);
//! and instead of requiring equal descriptions it scores the weighted Jaccard similarity of the
//! two quantized profiles (Σ min / Σ max of the weights), so that a near-equal description scores
//! near 1. Weight = frequency / the most frequent descriptive word's frequency, quantized to
//! quarters (1..=4). Default threshold 0.8.
//!
//! Known weaknesses: a text's description rests on an eighth of its vocabulary, so short texts
//! have few or no descriptive words (similarity 0); word order plays no part; quantization makes
//! a small edit flip a weight across a step; the 2002 method's dictionary was tuned to the
//! collection's frequencies, which a hash sample is not.

use super::{NearDuplicate, Text};
use crate::hash::{fmix32, PrehashedMap};

/// One word in this many is descriptive.
pub const SAMPLE: u32 = 8;
/// Weight levels after quantization.
pub const LEVELS: u32 = 4;

/// Descriptive words ([`super::Kind::Descriptive`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Descriptive;

/// Whether a canonical word (its hash, full or folded) is in the dictionary.
pub fn is_descriptive(word: u32) -> bool {
    fmix32(word ^ 0xde5c_0000) % SAMPLE == 0
}

impl NearDuplicate for Descriptive {
    /// (word, quantized weight 1..=4), sorted by word.
    type Signature = Vec<(u32, u32)>;

    fn default_threshold(&self) -> f64 {
        0.8
    }

    fn signature(&self, text: &Text) -> Vec<(u32, u32)> {
        let mut counts: PrehashedMap<u32, u32> = PrehashedMap::default();
        for &w in text.words.iter().filter(|&&w| is_descriptive(w)) {
            *counts.entry(w).or_insert(0) += 1;
        }
        let max = counts.values().copied().max().unwrap_or(0);
        let mut sig: Vec<(u32, u32)> = counts
            .into_iter()
            .map(|(w, c)| (w, (c * LEVELS).div_ceil(max).clamp(1, LEVELS)))
            .collect();
        sig.sort_unstable();
        sig
    }

    fn similarity(&self, a: &Vec<(u32, u32)>, b: &Vec<(u32, u32)>) -> f64 {
        let (mut i, mut j, mut min, mut max) = (0, 0, 0u64, 0u64);
        while i < a.len() || j < b.len() {
            let (wa, wb) = (a.get(i), b.get(j));
            match (wa, wb) {
                (Some(x), Some(y)) if x.0 == y.0 => {
                    min += u64::from(x.1.min(y.1));
                    max += u64::from(x.1.max(y.1));
                    i += 1;
                    j += 1;
                }
                (Some(x), Some(y)) if x.0 < y.0 => {
                    max += u64::from(x.1);
                    i += 1;
                }
                (Some(x), None) => {
                    max += u64::from(x.1);
                    i += 1;
                }
                (_, Some(y)) => {
                    max += u64::from(y.1);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        if max == 0 {
            0.0
        } else {
            min as f64 / max as f64
        }
    }
}
