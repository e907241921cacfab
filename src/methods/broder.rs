//! `broder` and `broder-minhash`: Broder's shingling, sampled two ways.
//!
//! Source: A. Broder, S. Glassman, M. Manasse, G. Zweig, "Syntactic clustering of the Web"
//! (WWW 1997), and the Russian retelling this project's design starts from: shingles of 10
//! consecutive words; a text is represented by a sample of its shingles, and resemblance is
//! estimated from the samples; documents resembling each other by 50 % or more are clustered.
//! - `broder` keeps the shingles whose hash is 0 modulo 16 ("modulus 16"): a sample that grows
//!   with the text; similarity = Jaccard of the two samples.
//! - `broder-minhash` keeps, for each of 85 random hash functions, the minimum over the shingles
//!   (the engine's MinHash, [`crate::sketch::Sketch`], with K = 85); similarity = share of equal
//!   minima, an unbiased estimate of resemblance.
//!
//! Words are the canonical content words (stop words dropped, stemmed), not the raw words of the
//! 1997 paper, so the two methods differ from the engine's only in shingle length and sampling.
//!
//! Known weaknesses: a 10-word shingle is broken by any change among its words, so a text with a
//! word changed every ten words keeps almost none; a text of fewer than 10 content words has no
//! shingle at all (headlines, short ads: similarity 0); the mod-16 sample of a short text is a
//! handful of shingles, often none (variance); resemblance, not containment, so a passage copied
//! into a long text scores low.

use super::{jaccard, shingle_set, NearDuplicate, Text};
use crate::sketch::Sketch;

/// Words per shingle in Broder et al. 1997.
pub const SHINGLE_WORDS: usize = 10;
/// The sampling modulus: shingles whose hash is 0 mod 16 are kept.
pub const MODULUS: u64 = 16;
/// Min-hash functions of the min-hash variant.
pub const MIN_HASHES: usize = 85;

/// Broder's shingles sampled by modulus ([`super::Kind::Broder`]).
#[derive(Debug, Clone, Copy)]
pub struct Broder {
    /// Words per shingle.
    pub n: usize,
    /// Keep the shingles whose hash is 0 modulo this.
    pub modulus: u64,
}

impl Default for Broder {
    fn default() -> Self {
        Broder {
            n: SHINGLE_WORDS,
            modulus: MODULUS,
        }
    }
}

impl NearDuplicate for Broder {
    /// The sampled shingle hashes, sorted and distinct.
    type Signature = Vec<u64>;

    fn default_threshold(&self) -> f64 {
        0.5
    }

    fn signature(&self, text: &Text) -> Vec<u64> {
        let modulus = self.modulus.max(1);
        // The shingle hash is fmix64-mixed, so its low bits are an unbiased sample.
        let mut set = shingle_set(&text.words, self.n);
        set.retain(|h| h % modulus == 0);
        set
    }

    fn similarity(&self, a: &Vec<u64>, b: &Vec<u64>) -> f64 {
        jaccard(a, b)
    }
}

/// Broder's shingles sampled by min-hashing ([`super::Kind::BroderMinhash`]).
#[derive(Debug, Clone, Copy)]
pub struct BroderMinHash {
    /// Words per shingle.
    pub n: usize,
    /// Hash functions.
    pub k: usize,
}

impl Default for BroderMinHash {
    fn default() -> Self {
        BroderMinHash {
            n: SHINGLE_WORDS,
            k: MIN_HASHES,
        }
    }
}

impl NearDuplicate for BroderMinHash {
    type Signature = Sketch;

    fn default_threshold(&self) -> f64 {
        0.5
    }

    fn signature(&self, text: &Text) -> Sketch {
        Sketch::from_set(&shingle_set(&text.words, self.n), self.k)
    }

    fn similarity(&self, a: &Sketch, b: &Sketch) -> f64 {
        a.resemblance(b)
    }
}
