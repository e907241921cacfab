//! Seeds: matched shingles of a draft and one source, merged into fragments.
//!
//! Each draft shingle found in the source is a *seed*: draft words `d..d+n` match source words
//! `s..s+n`. Seeds are merged, in draft order, into clusters that stay close on both sides: a seed
//! joins a cluster when at most `gap` unmatched words separate it from the cluster on the draft
//! side and on the source side (so a passage with a word changed here and there stays ONE
//! fragment, while two passages separated by more than `gap` new words stay TWO). Among clusters
//! that fit, the one on the nearest diagonal (`s - d`) wins, which keeps reordered sentences apart.
//!
//! Cost: O(draft shingles × active clusters); shingles that occur more than [`MAX_OCCURRENCES`]
//! times in the source (boilerplate, repetitive text) only continue existing clusters, so
//! pathological inputs stay linear.

use crate::postings::Postings;
use crate::shingle::Shingle;
use std::ops::Range;

/// Source positions looked at per draft shingle before a shingle counts as boilerplate.
pub const MAX_OCCURRENCES: usize = 8;
/// Most clusters kept open at once.
pub(crate) const MAX_ACTIVE: usize = 64;

/// Where a draft shingle occurs in a source.
pub trait SourceIndex {
    /// Source positions (first content word of the matching shingle), ascending.
    fn positions(&self, hash: u64) -> &[u32];
}

/// A source's shingles: every shingle hash and its positions.
#[derive(Debug, Clone, Default)]
pub struct ShingleIndex {
    map: Postings<u64>,
}

impl ShingleIndex {
    /// Indexes a source's shingles, given in text order (as [`crate::shingle::shingles`] makes
    /// them), so that each hash's positions come out ascending.
    pub fn new(shingles: &[Shingle]) -> Self {
        let mut map = Postings::default();
        map.reserve(shingles.len());
        for s in shingles {
            map.push(s.hash, s.first);
        }
        ShingleIndex { map }
    }

    /// Indexes `shingles` instead of what it held, as [`ShingleIndex::new`] would, in the memory
    /// it already has: one index serves the sources of a check one after another.
    pub fn refill(&mut self, shingles: &[Shingle]) {
        self.map.clear_for(shingles.len());
        for s in shingles {
            self.map.push(s.hash, s.first);
        }
    }

    /// Number of distinct shingle hashes.
    pub fn distinct(&self) -> usize {
        self.map.len()
    }
}

impl SourceIndex for ShingleIndex {
    fn positions(&self, hash: u64) -> &[u32] {
        self.map.get(&hash)
    }
}

/// A fragment: content-word ranges (end exclusive) on the draft and on the source side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Draft content words covered.
    pub draft: Range<usize>,
    /// Source content words covered.
    pub source: Range<usize>,
    /// How many seeds (matched shingles) the fragment holds.
    pub seeds: usize,
}

#[derive(Debug, Clone)]
struct Cluster {
    m: Match,
    last_d: usize,
    last_s: usize,
}

impl Cluster {
    fn diagonal(&self) -> i64 {
        self.last_s as i64 - self.last_d as i64
    }
}

/// Aligns a draft's shingles (`n` words each) against a source. Returns fragments ordered by their
/// draft start; fragments may overlap on the draft side when the source repeats a passage.
///
/// # Example
/// ```
/// use uniqcheck::{align::{align, ShingleIndex}, shingle::shingles};
/// let source: Vec<u32> = (100..140).collect();
/// // A draft: 5 new words, source words 110..130 with word 120 changed, 5 new words.
/// let mut draft: Vec<u32> = (1..6).chain(110..130).chain(1000..1005).collect();
/// draft[5 + 10] = 9999;
/// let m = align(&shingles(&draft, 4), &ShingleIndex::new(&shingles(&source, 4)), 4, 4);
/// assert_eq!(m.len(), 1);
/// assert_eq!((m[0].draft.clone(), m[0].source.clone()), (5..25, 10..30));
/// ```
pub fn align(draft: &[Shingle], source: &impl SourceIndex, n: usize, gap: usize) -> Vec<Match> {
    align_with(draft, |i| source.positions(draft[i].hash), |i| i, n, gap)
}

/// [`align`] with the source positions of draft shingle `i` given by `positions(i)` (ascending,
/// as [`SourceIndex::positions`] of its hash would give them): the same fragments, whether the
/// source's shingles were indexed or the source's windows were looked up in the draft's
/// ([`super::probe`]). `next(k)` is the first draft shingle from `k` on with any position (or
/// any shingle from `k` on, `draft.len()` for none): while no cluster is open, the shingles
/// before it change nothing and are passed over.
pub(crate) fn align_with<'a>(
    draft: &[Shingle],
    positions: impl Fn(usize) -> &'a [u32],
    mut next: impl FnMut(usize) -> usize,
    n: usize,
    gap: usize,
) -> Vec<Match> {
    let mut active: Vec<Cluster> = Vec::new();
    let mut done: Vec<Match> = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < draft.len() {
        if active.is_empty() {
            k = next(k);
            if k >= draft.len() {
                break;
            }
        }
        let sh = &draft[k];
        k += 1;
        let d = sh.first as usize;
        // Clusters that this and every later seed is too far from are final.
        let mut i = 0;
        while i < active.len() {
            if active[i].m.draft.end + gap < d {
                done.push(active.swap_remove(i).m);
            } else {
                i += 1;
            }
        }
        let positions = positions(k - 1);
        if positions.is_empty() {
            continue;
        }
        candidates.clear();
        if positions.len() <= MAX_OCCURRENCES {
            candidates.extend(positions.iter().map(|&s| s as usize));
        } else {
            // Boilerplate: only the position that continues an open cluster's diagonal, or the
            // first occurrence when nothing is open.
            for c in &active {
                let predicted = c.last_s as i64 + (d - c.last_d) as i64;
                if predicted >= 0 && positions.binary_search(&(predicted as u32)).is_ok() {
                    candidates.push(predicted as usize);
                }
            }
            if candidates.is_empty() {
                candidates.push(positions[0] as usize);
            }
            candidates.sort_unstable();
            candidates.dedup();
        }
        for &s in &candidates {
            let diagonal = s as i64 - d as i64;
            let best = active
                .iter()
                .enumerate()
                .filter(|(_, c)| s <= c.m.source.end + gap && s + gap >= c.last_s)
                .min_by_key(|(_, c)| (c.diagonal() - diagonal).abs())
                .filter(|(_, c)| (c.diagonal() - diagonal).unsigned_abs() as usize <= gap + n)
                .map(|(i, _)| i);
            match best {
                Some(i) => {
                    let c = &mut active[i];
                    c.m.draft.end = c.m.draft.end.max(d + n);
                    c.m.source.start = c.m.source.start.min(s);
                    c.m.source.end = c.m.source.end.max(s + n);
                    c.m.seeds += 1;
                    c.last_d = d;
                    c.last_s = s;
                }
                None if active.len() < MAX_ACTIVE => active.push(Cluster {
                    m: Match {
                        draft: d..d + n,
                        source: s..s + n,
                        seeds: 1,
                    },
                    last_d: d,
                    last_s: s,
                }),
                None => {}
            }
        }
    }
    done.extend(active.into_iter().map(|c| c.m));
    done.sort_by_key(|m| (m.draft.start, m.source.start));
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shingle::shingles;

    #[test]
    fn a_refilled_index_answers_as_a_new_one() {
        let (a, b) = (
            shingles(&[1, 2, 3, 4, 1, 2, 3, 4, 5], 4),
            shingles(&[9, 8, 7, 6, 5], 4),
        );
        let mut index = ShingleIndex::new(&a);
        index.refill(&b);
        let fresh = ShingleIndex::new(&b);
        for s in a.iter().chain(&b) {
            assert_eq!(index.positions(s.hash), fresh.positions(s.hash));
        }
        assert_eq!((index.distinct(), fresh.distinct()), (2, 2));
        index.refill(&a);
        assert_eq!(index.positions(a[0].hash), [0, 4]);
        assert_eq!(index.distinct(), 5);
    }

    fn run(draft: &[u32], source: &[u32]) -> Vec<Match> {
        align(
            &shingles(draft, 4),
            &ShingleIndex::new(&shingles(source, 4)),
            4,
            4,
        )
    }

    #[test]
    fn verbatim_copy_is_one_fragment_with_both_spans() {
        let source: Vec<u32> = (0..50).collect();
        let draft: Vec<u32> = (500..510).chain(20..40).chain(600..610).collect();
        assert_eq!(
            run(&draft, &source),
            vec![Match {
                draft: 10..30,
                source: 20..40,
                seeds: 17
            }]
        );
    }

    #[test]
    fn two_passages_separated_by_new_text_stay_two() {
        let source: Vec<u32> = (0..100).collect();
        let draft: Vec<u32> = (10..25).chain(500..512).chain(60..75).collect();
        let m = run(&draft, &source);
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].draft.clone(), m[0].source.clone()), (0..15, 10..25));
        assert_eq!((m[1].draft.clone(), m[1].source.clone()), (27..42, 60..75));
    }

    #[test]
    fn inserted_and_deleted_words_keep_one_fragment() {
        let source: Vec<u32> = (0..60).collect();
        let mut draft: Vec<u32> = (0..60).collect();
        draft.insert(20, 7777); // a word added
        draft.remove(41); // a word dropped
        let m = run(&draft, &source);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].draft.clone(), m[0].source.clone()), (0..60, 0..60));
    }

    #[test]
    fn reordered_sentences_are_each_found() {
        let source: Vec<u32> = (0..45).collect();
        let draft: Vec<u32> = (30..45).chain(15..30).chain(0..15).collect();
        let m = run(&draft, &source);
        let mut spans: Vec<_> = m
            .iter()
            .map(|m| (m.draft.clone(), m.source.clone()))
            .collect();
        spans.sort_by_key(|s| s.0.start);
        assert_eq!(
            spans,
            vec![(0..15, 30..45), (15..30, 15..30), (30..45, 0..15)]
        );
    }

    #[test]
    fn repetitive_text_stays_bounded_and_aligned() {
        let source: Vec<u32> = (0..30_000).map(|i| i % 7).collect();
        let draft = source.clone();
        let m = run(&draft, &source);
        assert!(m.len() <= 4, "{} fragments", m.len());
        assert_eq!(m.iter().map(|m| m.draft.end).max(), Some(30_000));
        assert_eq!(m.iter().map(|m| m.draft.start).min(), Some(0));
    }
}
