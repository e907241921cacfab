//! Short-text method: for drafts of a few sentences, where shingles are too few to judge.
//!
//! After a 2009 Habr post on fuzzy duplicates of classified ads: take the 15 longest distinct
//! canonical words of at least 4 letters, CRC32 each (the canonicalizer already did), and call two
//! texts similar by `shared / length of the shorter list`; at 0.8 or more they are duplicates.
//! Word order plays no part, so reordered sentences and swapped clauses still match.

use crate::canonicalize::Word;

/// How many words a signature keeps.
pub const SIGNATURE_WORDS: usize = 15;
/// Minimum canonical length (in characters) of a word the signature may keep.
pub const MIN_LETTERS: u16 = 4;

/// The longest-words signature of a text: up to 15 distinct word hashes, sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShortSignature {
    /// Sorted, distinct CRC32 hashes of the chosen words.
    pub hashes: Vec<u32>,
}

impl ShortSignature {
    /// Chooses the 15 longest distinct content words of 4+ letters; ties go to the smaller hash so
    /// that the choice does not depend on word order.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{canonicalize::Word, short::ShortSignature};
    /// let w = |hash, len| Word { hash, start: 0, end: 1, len, stop: false, sentence: false };
    /// let s = ShortSignature::from_words([w(1, 9), w(2, 3), w(3, 5), w(1, 9)].iter());
    /// assert_eq!(s.hashes, vec![1, 3]);
    /// ```
    pub fn from_words<'a>(words: impl Iterator<Item = &'a Word>) -> ShortSignature {
        // The 15 smallest keys (longest first, then smallest hash) over distinct hashes: keys
        // below the 15th smallest so far gather in a buffer, which is sorted, deduplicated and
        // cut back to 15 whenever it fills. Most words are rejected by one comparison with that
        // threshold, where sorting every word of a long text would cost O(n log n), and keeping
        // the 15 sorted at every insertion cost more than the rest of the signature.
        const BUFFER: usize = 32;
        let mut top: Vec<u64> = Vec::with_capacity(BUFFER);
        let mut threshold = u64::MAX;
        // (length descending, hash ascending) as one number: a hash always comes with the same
        // length, so a repeated word is a repeated key.
        let key = |w: &Word| (u64::from(u16::MAX - w.len) << 32) | u64::from(w.hash);
        let cut = |top: &mut Vec<u64>| {
            top.sort_unstable();
            top.dedup();
            top.truncate(SIGNATURE_WORDS);
        };
        for w in words {
            // Words the signature never keeps get the largest key (all ones, or-ed in without
            // a branch: stop words come unpredictably), so that one comparison, false for most
            // words once the threshold has settled, rejects every word.
            let never = u64::from(w.stop) | u64::from(w.len < MIN_LETTERS);
            let k = key(w) | never.wrapping_neg();
            if k < threshold {
                top.push(k);
                if top.len() == BUFFER {
                    cut(&mut top);
                    if top.len() == SIGNATURE_WORDS {
                        threshold = top[SIGNATURE_WORDS - 1];
                    }
                }
            }
        }
        cut(&mut top);
        let mut hashes: Vec<u32> = top.into_iter().map(|k| k as u32).collect();
        hashes.sort_unstable();
        ShortSignature { hashes }
    }

    /// Shared words divided by the shorter signature's length, in 0..=1 (0 when either is empty).
    pub fn similarity(&self, other: &ShortSignature) -> f64 {
        let shorter = self.hashes.len().min(other.hashes.len());
        if shorter == 0 {
            return 0.0;
        }
        let shared = self
            .hashes
            .iter()
            .filter(|h| other.hashes.binary_search(h).is_ok())
            .count();
        shared as f64 / shorter as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(spec: &[(u32, u16)]) -> Vec<Word> {
        spec.iter()
            .map(|&(hash, len)| Word {
                hash,
                start: 0,
                end: 1,
                len,
                stop: false,
                sentence: false,
            })
            .collect()
    }

    #[test]
    fn keeps_fifteen_longest_and_ignores_order() {
        let spec: Vec<(u32, u16)> = (0..30).map(|i| (i, 4 + (i % 10) as u16)).collect();
        let a = ShortSignature::from_words(words(&spec).iter());
        assert_eq!(a.hashes.len(), 15);
        let mut rev = spec.clone();
        rev.reverse();
        let b = ShortSignature::from_words(words(&rev).iter());
        assert_eq!(a, b);
        assert_eq!(a.similarity(&b), 1.0);
    }

    /// The signature is what sorting all the keys gives, on texts short and long, with
    /// repeats, equal lengths and stop words.
    #[test]
    fn same_as_sorting_every_key() {
        let mut rng = crate::hash::SplitMix64(42);
        for n in [0, 1, 14, 15, 16, 63, 64, 65, 200, 3000] {
            for spread in [3u64, 30, 1000] {
                let ws: Vec<Word> = (0..n)
                    .map(|_| {
                        let h = (rng.next_u64() % spread) as u32;
                        Word {
                            hash: h,
                            start: 0,
                            end: 1,
                            // A hash always comes with the same length.
                            len: (h % 12) as u16 + 1,
                            stop: rng.next_u64() % 5 == 0,
                            sentence: false,
                        }
                    })
                    .collect();
                let mut keys: Vec<(std::cmp::Reverse<u16>, u32)> = ws
                    .iter()
                    .filter(|w| !w.stop && w.len >= MIN_LETTERS)
                    .map(|w| (std::cmp::Reverse(w.len), w.hash))
                    .collect();
                keys.sort_unstable();
                keys.dedup();
                keys.truncate(SIGNATURE_WORDS);
                let mut want: Vec<u32> = keys.into_iter().map(|k| k.1).collect();
                want.sort_unstable();
                assert_eq!(
                    ShortSignature::from_words(ws.iter()).hashes,
                    want,
                    "{n} {spread}"
                );
            }
        }
    }

    #[test]
    fn similarity_counts_against_the_shorter_list() {
        let a = ShortSignature::from_words(words(&[(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]).iter());
        let b = ShortSignature::from_words(
            words(&[(1, 5), (2, 5), (3, 5), (4, 5), (9, 5), (10, 6)]).iter(),
        );
        assert!((a.similarity(&b) - 0.8).abs() < 1e-9);
        assert_eq!(a.similarity(&ShortSignature::default()), 0.0);
    }
}
