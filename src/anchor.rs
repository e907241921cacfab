//! Anchor stage: winnowing (Schleimer, Wilkerson, Aiken 2003) picks a document's fingerprints by content.
//!
//! Over the sequence of shingle keys ([`crate::shingle::key32`]), every window of `w` consecutive
//! shingles contributes its minimum key (the rightmost one on ties, "robust winnowing", which keeps
//! fewer fingerprints on runs of equal keys). A position is recorded once even when it is the minimum
//! of several windows.
//!
//! **Guarantee.** If two documents share a run of at least `w + n - 1` canonical words, they share a
//! whole window of `w` shingles, whose minimum key is selected in both: they share a fingerprint.
//! Text elsewhere cannot change that, because selection only looks inside windows. The expected
//! density is about `2 / (w + 1)` fingerprints per shingle on random keys.
//! A document with fewer than `w` shingles (but at least one) keeps the minimum of all of them.

use crate::shingle::{key32, Shingle};
use std::collections::VecDeque;

/// A fingerprint kept by winnowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    /// The 32-bit key of the selected shingle.
    pub key: u32,
    /// Index of the selected shingle (= its first content word).
    pub pos: u32,
}

/// Winnows `shingles` with window `w` (`w = 0` is taken as 1). Runs in O(len) with a monotone deque.
///
/// # Example
/// ```
/// use uniqcheck::{anchor::winnow, shingle::shingles};
/// let words: Vec<u32> = (0..100u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
/// let fps = winnow(&shingles(&words, 4), 4);
/// assert!(!fps.is_empty() && fps.len() < 97);
/// assert!(fps.windows(2).all(|p| p[0].pos < p[1].pos));
/// ```
pub fn winnow(shingles: &[Shingle], w: usize) -> Vec<Fingerprint> {
    let len = shingles.len();
    if len == 0 {
        return Vec::new();
    }
    let w = w.max(1).min(len);
    if w <= SMALL_WINDOW {
        return winnow_small(shingles, w);
    }
    let key = |i: usize| key32(shingles[i].hash);
    let mut out = Vec::with_capacity(2 * len / (w + 1) + 1);
    // Indices with strictly increasing keys from front to back: the front is the window's minimum.
    let mut deque: VecDeque<usize> = VecDeque::with_capacity(w + 1);
    let mut last: Option<usize> = None;
    for i in 0..len {
        let k = key(i);
        // `>=` drops equal keys to the left, so the rightmost minimum wins ties.
        while deque.back().is_some_and(|&j| key(j) >= k) {
            deque.pop_back();
        }
        deque.push_back(i);
        if deque.front().is_some_and(|&j| j + w <= i) {
            deque.pop_front();
        }
        if i + 1 >= w {
            let min = deque[0];
            if last != Some(min) {
                out.push(Fingerprint {
                    key: key(min),
                    pos: min as u32,
                });
                last = Some(min);
            }
        }
    }
    out
}

/// Windows up to this size are scanned whole ([`winnow_small`]).
const SMALL_WINDOW: usize = 8;

/// [`winnow`] for a window of `w` (1 to [`SMALL_WINDOW`], at most `shingles.len()`) by scanning
/// each window: at most 7 comparisons a shingle, compiled without branches, where the deque's
/// pushes and pops branched on every key (the default window is 4). The same fingerprints.
fn winnow_small(shingles: &[Shingle], w: usize) -> Vec<Fingerprint> {
    let keys: Vec<u32> = shingles.iter().map(|s| key32(s.hash)).collect();
    // The default window (4) with its length known to the compiler, the loop over it unrolled.
    if w == 4 {
        return winnow_windows(&keys, 4, |window: &[u32]| min_at::<4>(window));
    }
    winnow_windows(&keys, w, |window: &[u32]| min_at_dyn(window))
}

/// The fingerprints of the windows of `w` keys, given `min_at`, the index of a window's rightmost
/// minimum.
#[inline(always)]
fn winnow_windows(keys: &[u32], w: usize, min_at: impl Fn(&[u32]) -> usize) -> Vec<Fingerprint> {
    let mut out = Vec::with_capacity(keys.len() + 1);
    let mut last = usize::MAX;
    for (start, window) in keys.windows(w).enumerate() {
        let best = start + min_at(window);
        // Written every time, kept when the window's minimum is a new one: fingerprints come
        // at unpredictable places, so a branch on it was mispredicted often.
        let kept = out.len() + usize::from(best != last);
        out.push(Fingerprint {
            key: keys[best],
            pos: best as u32,
        });
        out.truncate(kept);
        last = best;
    }
    out
}

/// [`min_at_dyn`] of a window of `W` keys: inlined with its length known, the loop is unrolled.
#[inline(always)]
fn min_at<const W: usize>(window: &[u32]) -> usize {
    let window: &[u32; W] = window.try_into().expect("a window of W keys");
    min_at_dyn(window)
}

/// The index of the rightmost minimum of `window`. The minimum so far is carried in a register
/// beside its index, where reading it back from the window at that index made each comparison
/// wait on the one before.
#[inline(always)]
fn min_at_dyn(window: &[u32]) -> usize {
    let (mut best, mut key) = (0, window[0]);
    for (j, &k) in window.iter().enumerate().skip(1) {
        // `<=` moves to an equal key further right.
        let right = k <= key;
        best = if right { j } else { best };
        key = if right { k } else { key };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shingle::shingles;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn naive(shingles: &[Shingle], w: usize) -> Vec<Fingerprint> {
        let w = w.max(1).min(shingles.len());
        let mut out: Vec<Fingerprint> = Vec::new();
        for start in 0..=shingles.len() - w {
            let mut best = start;
            for j in start..start + w {
                if key32(shingles[j].hash) <= key32(shingles[best].hash) {
                    best = j;
                }
            }
            if out.last().map(|f| f.pos) != Some(best as u32) {
                out.push(Fingerprint {
                    key: key32(shingles[best].hash),
                    pos: best as u32,
                });
            }
        }
        out
    }

    proptest! {
        #[test]
        fn equals_the_naive_definition(words in proptest::collection::vec(0u32..50, 0..200), n in 2usize..6, w in 1usize..9) {
            let s = shingles(&words, n);
            if !s.is_empty() {
                prop_assert_eq!(winnow(&s, w), naive(&s, w));
            }
        }

        /// The documented guarantee: a shared run of w + n - 1 words always yields a shared fingerprint,
        /// wherever it sits in two otherwise unrelated documents.
        #[test]
        fn shared_run_of_w_plus_n_minus_1_words_shares_a_fingerprint(
            n in 2usize..=10, w in 1usize..=16,
            prefix_a in proptest::collection::vec(any::<u32>(), 0..60),
            suffix_a in proptest::collection::vec(any::<u32>(), 0..60),
            prefix_b in proptest::collection::vec(any::<u32>(), 0..60),
            suffix_b in proptest::collection::vec(any::<u32>(), 0..60),
            run in proptest::collection::vec(any::<u32>(), 25..26),
        ) {
            let run = &run[..w + n - 1];
            let a: Vec<u32> = prefix_a.iter().chain(run).chain(&suffix_a).copied().collect();
            let b: Vec<u32> = prefix_b.iter().chain(run).chain(&suffix_b).copied().collect();
            let fa: HashSet<u32> = winnow(&shingles(&a, n), w).iter().map(|f| f.key).collect();
            let fb: HashSet<u32> = winnow(&shingles(&b, n), w).iter().map(|f| f.key).collect();
            prop_assert!(fa.intersection(&fb).next().is_some());
        }
    }

    #[test]
    fn density_is_about_two_over_w_plus_one() {
        let words: Vec<u32> = (0..50_000u32)
            .map(|i| i.wrapping_mul(0x9E37_79B1) ^ (i >> 3))
            .collect();
        let s = shingles(&words, 4);
        for w in [4usize, 8] {
            let density = winnow(&s, w).len() as f64 / s.len() as f64;
            let expected = 2.0 / (w as f64 + 1.0);
            assert!(
                (density - expected).abs() < 0.05,
                "w={w}: {density} vs {expected}"
            );
        }
    }

    #[test]
    fn short_documents_keep_their_minimum() {
        let s = shingles(&[5, 6, 7, 8, 9], 4);
        let f = winnow(&s, 4);
        assert_eq!(f.len(), 1);
        assert!(winnow(&[], 4).is_empty());
    }
}
