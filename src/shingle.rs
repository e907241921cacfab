//! Shingle stage: overlapping n-word shingles over the canonical (content) words.
//!
//! Each canonical word was hashed once, with CRC32, by the canonicalizer; a shingle's 64-bit hash is
//! computed from the n word hashes with [`crate::hash::combine`], so no string is ever re-hashed.
//! Guarantees: a text of `m >= n` words has exactly `m - n + 1` shingles, in order, shingle `i`
//! covering words `i..i + n`; equal word sequences give equal hashes on every platform.

use crate::hash::combine;

/// One shingle: the hash of n consecutive canonical words and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shingle {
    /// 64-bit hash of the n word hashes, in order.
    pub hash: u64,
    /// Index of the shingle's first word among the content words.
    pub first: u32,
}

/// The shingles of a sequence of word hashes, `n` words each. Fewer than `n` words give none.
///
/// # Example
/// ```
/// let s = uniqcheck::shingle::shingles(&[1, 2, 3, 4, 5], 4);
/// assert_eq!(s.len(), 2);
/// assert_eq!(s[1].first, 1);
/// assert_eq!(uniqcheck::shingle::shingles(&[9, 1, 2, 3, 4], 4)[1].hash, s[0].hash);
/// ```
pub fn shingles(words: &[u32], n: usize) -> Vec<Shingle> {
    if n == 0 || words.len() < n {
        return Vec::new();
    }
    // The default shingle (4 words) with its length known to the compiler: `combine`'s loop
    // unrolled, where a window of a length read at run time looped over it word by word.
    if n == 4 {
        return words
            .windows(4)
            .enumerate()
            .map(|(i, window)| {
                let window: &[u32; 4] = window.try_into().expect("a window of 4 words");
                Shingle {
                    hash: combine(window),
                    first: i as u32,
                }
            })
            .collect();
    }
    words
        .windows(n)
        .enumerate()
        .map(|(i, window)| Shingle {
            hash: combine(window),
            first: i as u32,
        })
        .collect()
}

/// The 32-bit key under which a shingle is stored as a fingerprint (its high half).
#[inline]
pub fn key32(hash: u64) -> u32 {
    (hash >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_matters_and_windows_slide() {
        let a = shingles(&[1, 2, 3, 4], 4);
        let b = shingles(&[4, 3, 2, 1], 4);
        assert_eq!(a.len(), 1);
        assert_ne!(a[0].hash, b[0].hash);
        assert!(shingles(&[1, 2, 3], 4).is_empty());
        let c = shingles(&[7, 1, 2, 3, 4, 8], 4);
        assert_eq!(c.len(), 3);
        assert_eq!(c[1].hash, a[0].hash);
    }

    /// The four-word path gives what `combine` over each window gives.
    #[test]
    fn four_word_shingles_are_the_windows_combined() {
        let mut rng = crate::hash::SplitMix64(4);
        for len in [0, 3, 4, 5, 17, 300] {
            let words: Vec<u32> = (0..len).map(|_| rng.next_u64() as u32).collect();
            let expected: Vec<Shingle> = if len < 4 {
                Vec::new()
            } else {
                words
                    .windows(4)
                    .enumerate()
                    .map(|(i, w)| Shingle {
                        hash: combine(w),
                        first: i as u32,
                    })
                    .collect()
            };
            assert_eq!(shingles(&words, 4), expected);
        }
    }

    #[test]
    fn distinct_windows_rarely_collide() {
        let words: Vec<u32> = (0..20_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        let mut hashes: Vec<u64> = shingles(&words, 4).iter().map(|s| s.hash).collect();
        let before = hashes.len();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), before);
    }
}
